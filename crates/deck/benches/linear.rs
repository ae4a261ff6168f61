//! Work per command stays flat as an action-deck game grows (`cargo bench
//! -p muster-deck --bench linear`; figures in the manual's speed chapter): 200 turns from a
//! new game, and one more turn on games already 100, 1,000 and 10,000
//! commands long. Each command folds and describes only its own events.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use muster_core::dice::AppDice;
use muster_core::side::{Side, Sides};
use muster_deck::{Command, Game, Setup};

fn deck_game() -> Game {
    let setup = Setup::example(Sides::default());
    let mut g = Game::new(setup, Sides::default()).unwrap();
    g.use_dealer(AppDice::seeded(1));
    g.apply(Command::ChooseFirst {
        active: Side::South,
    })
    .unwrap();
    g
}

/// A turn with every phase skipped: 7 commands (the redraw follows the last).
fn deck_turn(g: &mut Game) {
    use Command as C;
    g.apply(C::EndPhase).unwrap();
    for _ in 0..4 {
        g.apply(C::Declare { plays: false }).unwrap();
    }
    let active = g.public().turn.as_ref().unwrap().active;
    let card = g.zones(active).unwrap().hand.first().cloned();
    g.apply(C::Fatigue { card }).unwrap();
    g.apply(C::EndTurn).unwrap();
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("linear");
    group.sample_size(10);
    group.bench_function("200 action-deck turns (1,400 commands)", |b| {
        b.iter(|| {
            let mut g = deck_game();
            for _ in 0..200 {
                deck_turn(&mut g);
            }
            g
        })
    });
    // One more turn (7 commands) on a game already `length` commands long,
    // each applied in turn as in play.
    for length in [100, 1_000, 10_000] {
        let mut game = deck_game();
        for _ in 0..length / 7 {
            deck_turn(&mut game);
        }
        group.bench_with_input(
            BenchmarkId::new("one action-deck turn of 7 commands, game already", length),
            &length,
            |b, _| {
                b.iter_custom(|iters| {
                    let mut g = game.clone();
                    let start = std::time::Instant::now();
                    for _ in 0..iters {
                        deck_turn(&mut g);
                    }
                    start.elapsed()
                })
            },
        );
    }
    group.finish();
}

criterion_group!(linear_benches, benches);
criterion_main!(linear_benches);
