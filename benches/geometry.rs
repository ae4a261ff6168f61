//! The hot paths of terrain placement, on a table with 20 pieces: one pose
//! check, the zone and buffer overlay, and the nearest legal pose.
//! Figures are in the manual's speed chapter; run with `cargo bench --bench geometry`.

use criterion::{Criterion, criterion_group, criterion_main};
use muster::core::side::Side;
use muster::fog::battle::{
    Laid, Pick, State, check_pose, nearest_legal_pose, placement_rolled, zone_highlight,
};
use muster::fog::geometry::{self, Pose, Shape};
use muster::fog::ruleset::Ruleset;
use std::hint::black_box;

/// 20 forests in four rows, then the piece being placed (pick 20).
fn crowded() -> State {
    let mut state = State::default();
    state.initiative.winner = Some(Side::South);
    let shape = Shape::Ellipse {
        width: 8.0,
        depth: 5.0,
    };
    let mut n = 0;
    for y in [7.0, 18.0, 30.0, 41.0] {
        for x in [8.0, 22.0, 36.0, 50.0, 64.0] {
            state.selection.picks.push(Pick {
                side: Side::North,
                terrain: "forest".into(),
                large: false,
                compulsory: false,
            });
            state
                .placement
                .laid
                .insert(n, Laid::new(shape.clone(), Pose::new(x, y, 15.0), None));
            n += 1;
        }
    }
    state.selection.picks.push(Pick {
        side: Side::South,
        terrain: "brush".into(),
        large: false,
        compulsory: false,
    });
    state
}

fn benches(c: &mut Criterion) {
    let ruleset = Ruleset::builtin();
    let state = crowded();
    let shape = Shape::Ellipse {
        width: 10.0,
        depth: 6.0,
    };
    c.bench_function("pose check against 20 pieces", |b| {
        b.iter(|| {
            check_pose(
                black_box(&state),
                &ruleset,
                20,
                &shape,
                black_box(Pose::new(29.0, 24.0, 30.0)),
                6,
            )
        })
    });
    c.bench_function("pose check in its zone, too near a piece", |b| {
        b.iter(|| {
            check_pose(
                black_box(&state),
                &ruleset,
                20,
                &shape,
                black_box(Pose::new(30.0, 3.0, 0.0)),
                2,
            )
        })
    });
    c.bench_function("zone and buffer overlay, 20 pieces", |b| {
        b.iter(|| {
            let zones = zone_highlight(&state, &ruleset, Side::South, black_box(5));
            let rings: usize = state
                .placement
                .standing()
                .map(|(_, l)| geometry::buffer(l.footprint(), ruleset.placement.spacing).len())
                .sum();
            (zones, rings)
        })
    });
    let placing = placement_rolled(&state, 20, shape.clone(), 2);
    c.bench_function("nearest legal pose, 20 pieces", |b| {
        b.iter(|| nearest_legal_pose(&placing, &ruleset, black_box(Pose::new(30.0, 20.0, 0.0))))
    });
}

criterion_group!(geometry_benches, benches);
criterion_main!(geometry_benches);
