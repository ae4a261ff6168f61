//! Hand-made sight cases for every visibility kind of RULES 7, and the
//! front-edge theorem checked on random lines of sight.

use super::*;
use crate::geometry::{Pose, Shape};
use proptest::prelude::*;

/// The North skirmisher area of a 72 x 48 table: within 18 MU of y = 48.
const NORTH_AREA: Strip = Strip {
    y_min: 30.0,
    y_max: 48.0,
    width: 72.0,
};

fn rect(name: &str, min: [f64; 2], max: [f64; 2], effect: Effect) -> Screen {
    let shape = Shape::Rectangle {
        width: max[0] - min[0],
        depth: max[1] - min[1],
    };
    let centre = Pose::new((min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0, 0.0);
    Screen::new(name, &shape, centre, effect)
}

fn hill(centre: [f64; 2], width: f64, depth: f64) -> Screen {
    let shape = Shape::Ellipse { width, depth };
    let pose = Pose::new(centre[0], centre[1], 0.0);
    let axis = shape.long_axis();
    let effect = Effect::Crest {
        distance: 1.0,
        crest: [pose.apply(axis[0]), pose.apply(axis[1])],
    };
    Screen::new("Gentle hill", &shape, pose, effect)
}

fn foot(at: [f64; 2], light_foot: bool) -> Target {
    Target { at, light_foot }
}

#[test]
fn light_foot_in_brush_five_mu_from_the_area_is_hidden_heavy_foot_is_seen() {
    let brush = rect(
        "Brush",
        [30.0, 22.0],
        [42.0, 28.0],
        Effect::LightFoot { distance: 4.0 },
    );
    let lines = Sightlines::new(vec![brush]);
    let at = [36.0, 25.0];
    match lines.seen_from_strip(foot(at, true), &NORTH_AREA) {
        Sighting::Hidden { blocked } => {
            assert_eq!(
                blocked,
                vec![Blocked::TooFar {
                    screen: 0,
                    distance: 5.0,
                    limit: 4.0
                }]
            );
            assert_eq!(
                lines.describe_blocked(&blocked[0]),
                "in Brush, 5.0 MU away; troops in it are seen only from within 4 MU"
            );
        }
        seen => panic!("light foot in brush 5 MU away should be hidden: {seen:?}"),
    }
    let heavy = lines.seen_from_strip(foot(at, false), &NORTH_AREA);
    let Sighting::Seen { from, crossings } = heavy else {
        panic!("heavy foot in brush should be seen: {heavy:?}");
    };
    assert_eq!(from[1], 30.0);
    assert!(lines.sight(from, foot(at, false)).is_ok());
    assert!(crossings.iter().all(|c| c.screen == 0));
    // Brush hides nothing behind it.
    assert!(
        lines
            .seen_from_strip(foot([36.0, 20.0], true), &NORTH_AREA)
            .is_seen()
    );
}

#[test]
fn any_troops_in_a_forest_more_than_two_mu_from_the_area_are_hidden() {
    let forest = rect(
        "Forest",
        [30.0, 20.0],
        [42.0, 29.5],
        Effect::Blocks { distance: 2.0 },
    );
    let lines = Sightlines::new(vec![forest]);
    for light_foot in [true, false] {
        for y in [21.0, 25.0, 27.9] {
            let s = lines.seen_from_strip(foot([36.0, y], light_foot), &NORTH_AREA);
            assert!(!s.is_seen(), "({y}) {s:?}");
        }
        // 1.5 MU from the area, it is seen from within 2 MU.
        let s = lines.seen_from_strip(foot([36.0, 28.5], light_foot), &NORTH_AREA);
        let Sighting::Seen { from, .. } = s else {
            panic!("{s:?}");
        };
        assert!(dist(from, [36.0, 28.5]) <= 2.0 + 1e-9);
    }
}

#[test]
fn troops_in_the_open_behind_a_forest_are_hidden_where_every_line_crosses_over_two_mu() {
    let forest = rect(
        "Forest",
        [31.0, 17.0],
        [41.0, 23.0],
        Effect::Blocks { distance: 2.0 },
    );
    let lines = Sightlines::new(vec![forest]);
    // Right behind the middle: the table-wide front edge is all in its shadow,
    // and even the lines to the table corners cut 2.6 MU of forest.
    let behind = lines.seen_from_strip(foot([36.0, 16.0], false), &NORTH_AREA);
    let Sighting::Hidden { blocked } = &behind else {
        panic!("{behind:?}");
    };
    assert!(matches!(blocked[0], Blocked::Crosses { screen: 0, length, .. } if length > 2.0));
    assert!(lines.sight([0.0, 30.0], foot([36.0, 16.0], false)).is_err());
    // Off the corner: seen past it across open ground.
    let past = lines.seen_from_strip(foot([29.0, 16.0], false), &NORTH_AREA);
    let Sighting::Seen { from, crossings } = past else {
        panic!("{past:?}");
    };
    assert!(
        from[0] < 29.0,
        "seen from the west, past the corner: {from:?}"
    );
    assert_eq!(lines.describe_crossings(&crossings), "across open ground");
}

#[test]
fn a_hill_crest_hides_what_is_more_than_one_mu_beyond_it() {
    let lines = Sightlines::new(vec![hill([36.0, 20.0], 20.0, 8.0)]);
    let crest = match lines.screens()[0].effect {
        Effect::Crest { crest, .. } => crest,
        _ => unreachable!(),
    };
    assert_eq!(crest, [[26.0, 20.0], [46.0, 20.0]]);
    let beyond = lines.seen_from_strip(foot([36.0, 18.5], false), &NORTH_AREA);
    let Sighting::Hidden { blocked } = &beyond else {
        panic!("1.5 MU beyond the crest is hidden: {beyond:?}");
    };
    assert!(matches!(blocked[0], Blocked::OverCrest { beyond, .. } if (beyond - 1.5).abs() < 1e-9));
    assert!(
        lines
            .seen_from_strip(foot([36.0, 19.5], false), &NORTH_AREA)
            .is_seen(),
        "0.5 MU beyond the crest is seen"
    );
    // Far behind the hill, the flanks of the front edge see round it.
    let far = lines.seen_from_strip(foot([36.0, 5.0], false), &NORTH_AREA);
    let Sighting::Seen { from, .. } = far else {
        panic!("{far:?}");
    };
    assert!((from[0] - 36.0).abs() > 16.0, "{from:?}");
}

#[test]
fn a_target_in_the_area_is_seen_from_where_it_stands() {
    let lines = Sightlines::new(vec![]);
    let s = lines.seen_from_strip(foot([10.0, 35.0], false), &NORTH_AREA);
    assert_eq!(
        s,
        Sighting::Seen {
            from: [10.0, 35.0],
            crossings: vec![]
        }
    );
}

fn random_table() -> impl Strategy<Value = Sightlines> {
    let piece = (
        0.0..72.0f64,
        4.0..40.0f64,
        3.0..12.0f64,
        2.0..8.0f64,
        0.0..180.0f64,
        0..3u8,
    );
    prop::collection::vec(piece, 0..8).prop_map(|pieces| {
        Sightlines::new(
            pieces
                .into_iter()
                .map(|(x, y, w, d, angle, kind)| {
                    let shape = Shape::Ellipse { width: w, depth: d };
                    let pose = Pose::new(x, y, angle);
                    let effect = match kind {
                        0 => Effect::Blocks { distance: 2.0 },
                        1 => Effect::LightFoot { distance: 4.0 },
                        _ => {
                            let axis = shape.long_axis();
                            Effect::Crest {
                                distance: 1.0,
                                crest: [pose.apply(axis[0]), pose.apply(axis[1])],
                            }
                        }
                    };
                    Screen::new("piece", &shape, pose, effect)
                })
                .collect(),
        )
    })
}

proptest! {
    /// The theorem's step: if a point of the area sees the target, so does
    /// the point where that sight line crosses the front edge.
    #[test]
    fn whoever_sees_from_the_area_is_matched_on_the_front_edge(
        lines in random_table(),
        t in (0.0..72.0f64, 0.0..29.9f64),
        p in (0.0..72.0f64, 30.0..48.0f64),
        light_foot: bool,
    ) {
        let target = foot([t.0, t.1], light_foot);
        let viewer = [p.0, p.1];
        if lines.sight(viewer, target).is_ok() {
            let s = (30.0 - t.1) / (p.1 - t.1);
            let q = [t.0 + s * (p.0 - t.0), 30.0];
            prop_assert!(lines.sight(q, target).is_ok());
            prop_assert!(lines.seen_from_strip(target, &NORTH_AREA).is_seen());
        }
    }
}

proptest! {
    /// The fast chord through convex outlines measures what the general one
    /// does, and an ellipse's exact chord is within its outline's tolerance.
    #[test]
    fn convex_chords_match_the_general_chord(
        w in 1.0..15.0f64, d in 1.0..10.0f64, angle in 0.0..360.0f64, round: bool,
        a in (-10.0..10.0f64, -10.0..10.0f64), b in (-10.0..10.0f64, -10.0..10.0f64),
    ) {
        let shape = if round { Shape::Ellipse { width: w, depth: d } } else { Shape::Rectangle { width: w, depth: d } };
        let outline = Footprint::new(&shape, Pose::new(0.0, 0.0, angle));
        let sign = orientation(outline.points()).expect("ellipses and rectangles are convex");
        let (a, b) = ([a.0, a.1], [b.0, b.1]);
        prop_assert!((convex_chord(&outline, sign, a, b) - chord(&outline, a, b)).abs() < 1e-9);
        if round {
            let screen = Screen::new("e", &shape, Pose::new(0.0, 0.0, angle), Effect::Blocks { distance: 2.0 });
            let exact = screen.ellipse.unwrap().chord(a, b);
            let polygon = chord(&outline, a, b);
            prop_assert!(exact + 1e-9 >= polygon, "{exact} < {polygon}");
            prop_assert!(exact - polygon < 1.0, "{exact} vs {polygon}");
        }
    }
}
