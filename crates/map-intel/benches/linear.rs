//! Work per command stays flat as a hidden-forces game grows (`cargo bench
//! -p muster-map-intel --bench linear`; figures in the manual's speed chapter). Each command
//! folds and describes only its own events: a game of 10,000 commands
//! takes a move as fast as one of 100. Measured: 2,000 commands from a new
//! game, commands (a move, an end of turn) on games already 100, 1,000 and
//! 10,000 commands long, and a regroup, which seals two records anew
//! (issue 32: 300 µs, a `format!` per byte of their hex).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use muster_core::side::{Side, Sides};
use muster_map_intel::map::Hex;
use muster_map_intel::{Area, Command, Game, Scenario, Setup, Target};
use std::hint::black_box;

/// Hidden forces with one force a side, far apart; South begins.
fn forces_game() -> (Game, Sides<usize>) {
    let setup = Setup {
        scenario: Scenario::example(),
        players: Sides {
            south: "Ann".into(),
            north: "Bob".into(),
        },
        locks: Sides::default(),
    };
    let mut g = Game::new(setup, Sides::default()).unwrap();
    let force = |g: &mut Game, side: Side, hex: &str, unit: &str| {
        let from = g.public().area(side, Area::OffMap).unwrap().id;
        g.apply(Command::Transfer {
            side,
            from,
            to: Target::NewForce(Hex::parse(hex).unwrap()),
            units: vec![unit.to_string()],
        })
        .unwrap();
        g.public().holders.len() - 1
    };
    let forces = Sides {
        south: force(&mut g, Side::South, "0303", "r-leg-3"),
        north: force(&mut g, Side::North, "1010", "p-cat-1"),
    };
    g.apply(Command::Begin { first: Side::South }).unwrap();
    (g, forces)
}

/// The `n`-th command of a long game: the active side's force steps
/// between two hexes, then his turn ends.
fn forces_command(g: &Game, forces: &Sides<usize>, n: usize) -> Command {
    let active = g.public().active.unwrap();
    if n.is_multiple_of(2) {
        let [a, b] = match active {
            Side::South => ["0303", "0304"],
            Side::North => ["1010", "1011"],
        };
        let here = g.public().holder(forces[active]).unwrap().hex;
        let to = if here == Some(Hex::parse(a).unwrap()) {
            b
        } else {
            a
        };
        Command::Move {
            id: forces[active],
            to: Hex::parse(to).unwrap(),
        }
    } else {
        Command::EndTurn
    }
}

fn forces_after(commands: usize) -> (Game, Sides<usize>) {
    let (mut g, forces) = forces_game();
    for n in 0..commands {
        let c = forces_command(&g, &forces, n);
        g.apply(c).unwrap();
    }
    (g, forces)
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("linear");
    group.sample_size(10);
    group.bench_function("2,000 hidden-forces commands from a new game", |b| {
        b.iter(|| forces_after(black_box(2_000)))
    });
    // Moves on a game already `length` commands long, each applied in turn
    // as in play (a clone per move would time the clone's first growth).
    for length in [100, 1_000, 10_000] {
        let (game, forces) = forces_after(length);
        group.bench_with_input(
            BenchmarkId::new("one hidden-forces command, game already", length),
            &length,
            |b, &length| {
                b.iter_custom(|iters| {
                    let mut g = game.clone();
                    let start = std::time::Instant::now();
                    for n in 0..iters as usize {
                        let c = forces_command(&g, &forces, length + n);
                        g.apply(c).unwrap();
                    }
                    start.elapsed()
                })
            },
        );
    }
    // A regroup on a game 1,000 commands long: a unit goes between two of
    // South's forces in one hex, both records sealed anew and South's
    // units counted against his army.
    let (mut game, forces) = forces_after(1_000);
    let from = game.public().area(Side::South, Area::OffMap).unwrap().id;
    game.apply(Command::Transfer {
        side: Side::South,
        from,
        to: Target::NewForce(game.public().holder(forces.south).unwrap().hex.unwrap()),
        units: vec!["r-leg-6".into(), "r-leg-10".into()],
    })
    .unwrap();
    let other = game.public().holders.len() - 1;
    group.bench_function(
        "one regroup (two records sealed), game already 1,000",
        |b| {
            b.iter_custom(|iters| {
                let mut g = game.clone();
                let start = std::time::Instant::now();
                for n in 0..iters as usize {
                    let (from, to) = if n.is_multiple_of(2) {
                        (other, forces.south)
                    } else {
                        (forces.south, other)
                    };
                    g.apply(Command::Transfer {
                        side: Side::South,
                        from,
                        to: Target::Counter(to),
                        units: vec!["r-leg-10".into()],
                    })
                    .unwrap();
                }
                start.elapsed()
            })
        },
    );
    group.finish();
}

criterion_group!(linear_benches, benches);
criterion_main!(linear_benches);
