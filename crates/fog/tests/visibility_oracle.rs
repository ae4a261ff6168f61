//! Brute-force oracle for the ambush visibility search: sample the whole
//! enemy skirmisher area densely with the exact sight test, and check the
//! front-edge search (RULES 7, 8.3) agrees on random tables.

use muster_fog::geometry::{Pose, Shape};
use muster_fog::visibility::{Effect, Screen, Sighting, Sightlines, Strip, Target};
use proptest::prelude::*;

const AREA: Strip = Strip {
    y_min: 30.0,
    y_max: 48.0,
    width: 72.0,
};

fn screens() -> impl Strategy<Value = Sightlines> {
    let piece = (
        0.0..72.0f64,
        2.0..36.0f64,
        3.0..14.0f64,
        1.5..8.0f64,
        0.0..180.0f64,
        0..4u8,
        any::<bool>(),
    );
    prop::collection::vec(piece, 1..10).prop_map(|pieces| {
        let screens = pieces
            .into_iter()
            .map(|(x, y, w, d, angle, kind, round)| {
                let shape = if round {
                    Shape::Ellipse { width: w, depth: d }
                } else {
                    Shape::Rectangle { width: w, depth: d }
                };
                let pose = Pose::new(x, y, angle);
                let effect = match kind {
                    0 => Effect::Blocks { distance: 2.0 },
                    1 => Effect::Blocks { distance: 4.0 },
                    2 => Effect::LightFoot { distance: 4.0 },
                    _ => {
                        let axis = shape.long_axis();
                        Effect::Crest {
                            distance: 1.0,
                            crest: [pose.apply(axis[0]), pose.apply(axis[1])],
                        }
                    }
                };
                Screen::new(format!("piece at ({x:.1}, {y:.1})"), &shape, pose, effect)
            })
            .collect();
        Sightlines::new(screens)
    })
}

/// A viewer anywhere in the area that sees the target, by dense sampling.
fn oracle(lines: &Sightlines, target: Target) -> Option<[f64; 2]> {
    let step = 0.5;
    let (nx, ny) = (
        (AREA.width / step) as usize,
        ((AREA.y_max - AREA.y_min) / step) as usize,
    );
    (0..=ny)
        .flat_map(|j| (0..=nx).map(move |i| [i as f64 * step, AREA.y_min + j as f64 * step]))
        .find(|p| lines.sight(*p, target).is_ok())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn the_front_edge_search_agrees_with_sampling_the_whole_area(
        lines in screens(),
        targets in prop::collection::vec((0.0..72.0f64, 0.0..29.5f64, any::<bool>()), 12),
    ) {
        for (x, y, light_foot) in targets {
            let target = Target { at: [x, y], light_foot };
            let fast = lines.seen_from_strip(target, &AREA);
            if let Sighting::Seen { from, .. } = &fast {
                prop_assert!(AREA.contains(*from));
                prop_assert!(lines.sight(*from, target).is_ok(), "witness {from:?} does not see {target:?}");
            }
            if let Some(viewer) = oracle(&lines, target) {
                prop_assert!(
                    fast.is_seen(),
                    "{viewer:?} sees {target:?} but the search says {fast:?}"
                );
            }
        }
    }
}
