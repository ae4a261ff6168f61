//! The ambush legality map (RULES 8.3) on a table with 20 pieces of mixed
//! terrain: the whole map for one player (both outer thirds, 0.5 MU grid),
//! and one point's visibility from the enemy skirmisher area.
//! Figures are in the manual's speed chapter (docs/src/speed.md); run with `cargo bench --bench ambush`.

use criterion::{Criterion, criterion_group, criterion_main};
use muster::core::side::Side;
use muster::fog::battle::{AmbushMap, Laid, Pick, Profile, State, enemy_area, sightlines};
use muster::fog::geometry::{Pose, Shape};
use muster::fog::ruleset::{Ruleset, TerrainClass};
use muster::fog::visibility::Target;
use std::hint::black_box;

/// 20 pieces in four rows: forests, hills, brush, villages, plantations.
fn table() -> State {
    let mut state = State::default();
    state.initiative.winner = Some(Side::South);
    let kinds = ["forest", "gentle_hill", "brush", "village", "plantation"];
    let mut n = 0;
    for y in [7.0, 18.0, 30.0, 41.0] {
        for x in [8.0, 22.0, 36.0, 50.0, 64.0] {
            let terrain = kinds[n % kinds.len()];
            state.selection.picks.push(Pick {
                side: Side::North,
                terrain: terrain.into(),
                large: false,
                compulsory: false,
            });
            let shape = if n % 2 == 0 {
                Shape::Ellipse {
                    width: 8.0,
                    depth: 5.0,
                }
            } else {
                Shape::Rectangle {
                    width: 7.0,
                    depth: 5.0,
                }
            };
            let pose = Pose::new(x, y, 15.0 * n as f64);
            state.placement.laid.insert(n, Laid::new(shape, pose, None));
            n += 1;
        }
    }
    state
}

fn benches(c: &mut Criterion) {
    let ruleset = Ruleset::builtin();
    let state = table();
    let heavy = Profile {
        name: "Heavy Foot".into(),
        light_foot: false,
        forbidden: vec![TerrainClass::Impassable],
    };
    c.bench_function("ambush map, one player, 20 pieces", |b| {
        b.iter(|| AmbushMap::compute(black_box(&state), &ruleset, Side::South, heavy.clone()))
    });
    let lines = sightlines(&state, &ruleset);
    let area = enemy_area(&state, &ruleset, Side::South);
    // Just behind a forest, where the search has the most to do.
    let target = Target {
        at: [8.0, 3.5],
        light_foot: false,
    };
    c.bench_function("one point's visibility from the enemy area", |b| {
        b.iter(|| lines.seen_from_strip(black_box(target), &area))
    });
}

criterion_group!(group, benches);
criterion_main!(group);
