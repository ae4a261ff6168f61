//! The fast geometry against brute force on random tables: spacing distance
//! against dense sampling of both outlines, and "a legal pose exists"
//! against every on-table centre of the grid (not just the zone's).

use muster_core::side::Side;
use muster_fog::geometry::{
    Candidates, Footprint, Pose, Shape, SideLines, Table, any_legal, check_zone, min_distance,
    overlaps, zone_candidates,
};
use muster_fog::ruleset::Ruleset;
use proptest::prelude::*;

fn shape() -> impl Strategy<Value = Shape> {
    (6.0..12.0f64, 4.0..8.0f64, any::<bool>()).prop_map(|(w, d, ellipse)| {
        if ellipse {
            Shape::Ellipse { width: w, depth: d }
        } else {
            Shape::Rectangle { width: w, depth: d }
        }
    })
}

/// Points along a footprint's outline every `step` MU.
fn dense(f: &Footprint, step: f64) -> Vec<[f64; 2]> {
    let pts = f.points();
    let mut out = Vec::new();
    for i in 0..pts.len() {
        let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
        let n = ((a[0] - b[0]).hypot(a[1] - b[1]) / step).ceil().max(1.0) as usize;
        for k in 0..n {
            let t = k as f64 / n as f64;
            out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn spacing_distance_matches_dense_sampling(
        a in shape(), b in shape(),
        pa in (10.0..60.0f64, 10.0..40.0f64, 0.0..180.0f64),
        pb in (10.0..60.0f64, 10.0..40.0f64, 0.0..180.0f64),
    ) {
        let fa = Footprint::new(&a, Pose::new(pa.0, pa.1, pa.2));
        let fb = Footprint::new(&b, Pose::new(pb.0, pb.1, pb.2));
        let fast = min_distance(&fa, &fb, f64::INFINITY);
        let (sa, sb) = (dense(&fa, 0.1), dense(&fb, 0.1));
        let inside = sa.iter().any(|p| fb.contains(*p)) || sb.iter().any(|p| fa.contains(*p));
        let oracle = if inside {
            0.0
        } else {
            sa.iter()
                .flat_map(|p| sb.iter().map(move |q| (p[0] - q[0]).hypot(p[1] - q[1])))
                .fold(f64::INFINITY, f64::min)
        };
        prop_assert!((fast - oracle).abs() <= 0.1, "fast {} oracle {}", fast, oracle);
        if inside {
            prop_assert!(overlaps(&fa, &fb));
        }
        if overlaps(&fa, &fb) {
            prop_assert_eq!(fast, 0.0);
        }
    }

    #[test]
    fn a_legal_pose_exists_exactly_when_brute_force_finds_one(
        width in 48.0..96.0f64,
        depth in 32.0..48.0f64,
        piece in shape(),
        result in 1u8..=6,
        south in any::<bool>(),
        others in proptest::collection::vec((shape(), 0.0..1.0f64, 0.0..1.0f64, 0.0..180.0f64), 0..8),
    ) {
        let ruleset = Ruleset::builtin();
        let zone = &ruleset.placement.results[&result.to_string()];
        let placer = if south { Side::South } else { Side::North };
        let table = Table { width, depth };
        let lines = SideLines::edges(&table);
        let obstacles: Vec<Footprint> = others
            .iter()
            .map(|(s, x, y, a)| Footprint::new(s, Pose::new(x * width, y * depth, *a)))
            .collect();
        let legal = |pose: Pose| {
            let f = Footprint::new(&piece, pose);
            table.overhang(&f).is_none()
                && check_zone(zone, placer, &table, lines, &f).is_ok()
                && obstacles.iter().all(|o| !overlaps(&f, o) && min_distance(&f, o, 4.0) >= 4.0 - 1e-6)
        };
        let grid = Candidates { step: 1.0, angle_step: 30.0 };
        let fast = any_legal(&piece, grid, |reach| zone_candidates(zone, placer, &table, lines, reach, grid.step), legal);
        // Brute force: every on-table centre of the grid at every angle, with
        // the pinned touching coordinates of every zone added.
        let mut oracle = None;
        'search: for k in 0..6 {
            let angle = k as f64 * 30.0;
            let f0 = Footprint::new(&piece, Pose::new(0.0, 0.0, angle));
            let (lo, hi) = (f0.min(), f0.max());
            let mut xs: Vec<f64> = (0..).map(|i| -lo[0] + i as f64).take_while(|x| *x <= width - hi[0] + 1e-9).collect();
            let mut ys: Vec<f64> = (0..).map(|i| -lo[1] + i as f64).take_while(|y| *y <= depth - hi[1] + 1e-9).collect();
            xs.push(width - hi[0]);
            ys.push(depth - hi[1]);
            for &x in &xs {
                for &y in &ys {
                    if legal(Pose::new(x, y, angle)) {
                        oracle = Some(Pose::new(x, y, angle));
                        break 'search;
                    }
                }
            }
        }
        prop_assert_eq!(fast.is_some(), oracle.is_some(), "fast {:?} oracle {:?}", fast, oracle);
        if let Some(p) = fast {
            prop_assert!(legal(p));
        }
    }
}
