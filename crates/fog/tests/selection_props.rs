//! Property tests for terrain selection (RULES 4): random legal sequences
//! never break the maximums and always end with both compulsory pieces;
//! random commands that are refused leave the battle unchanged.

use muster_core::dice::DiceInput;
use muster_core::side::Side;
use muster_fog::battle::{Battle, Command, Phase, compulsory_pieces};
use muster_fog::examples;
use muster_fog::ruleset::Ruleset;
use proptest::prelude::*;

/// Both example armies, allowed every territory; `south_wins` decides the
/// initiative; the holder picks territory `t`.
fn battle_at_selection(t: usize, south_wins: bool) -> Battle {
    let r = Ruleset::builtin();
    let mut b = Battle::new(r.clone());
    let all: Vec<String> = r.territories.keys().cloned().collect();
    for (side, i) in [(Side::South, 0), (Side::North, 1)] {
        let mut army = examples::army(i, &r);
        army.territories = all.clone();
        b.apply(Command::SetArmy {
            side,
            army,
            lock: None,
        })
        .unwrap();
    }
    let (s, n) = if south_wins { (6, 1) } else { (1, 6) };
    b.apply(Command::RollInitiative {
        side: Side::South,
        dice: DiceInput::Typed(vec![s]),
    })
    .unwrap();
    b.apply(Command::RollInitiative {
        side: Side::North,
        dice: DiceInput::Typed(vec![n]),
    })
    .unwrap();
    let holder = if south_wins { Side::South } else { Side::North };
    b.apply(Command::ChooseTerritory {
        side: holder,
        territory: all[t % all.len()].clone(),
    })
    .unwrap();
    b
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn legal_sequences_respect_every_limit(
        t in 0usize..8,
        south_wins in any::<bool>(),
        choices in proptest::collection::vec(any::<prop::sample::Index>(), 40),
    ) {
        let mut b = battle_at_selection(t, south_wins);
        let r = b.ruleset().clone();
        let territory = b.state().territory.clone().unwrap();
        for pick in &choices {
            match b.phase() {
                Phase::Compulsory(side) => {
                    let left = b.remaining_compulsory();
                    let terrain = left[pick.index(left.len())].clone();
                    b.apply(Command::ChooseCompulsory { side, terrain }).unwrap();
                }
                Phase::Selection(side) => {
                    let legal: Vec<_> = b
                        .selection_options(side)
                        .into_iter()
                        .filter(|o| o.verdict.is_ok())
                        .collect();
                    // One extra slot means "finish now".
                    let i = pick.index(legal.len() + 1);
                    let command = match legal.get(i) {
                        Some(o) => Command::SelectTerrain {
                            side,
                            terrain: o.terrain.clone(),
                            large: o.large,
                        },
                        None => Command::FinishSelection { side },
                    };
                    if b.apply(command).is_err() {
                        // Finishing before the first selection is refused.
                        prop_assert_eq!(b.selections_used(side), 0);
                    }
                }
                _ => break,
            }
        }
        let picks = &b.state().selection.picks;
        let max = &r.territories[&territory].max;
        for (group, &m) in max {
            let n = picks.iter().filter(|p| r.count_group(&p.terrain) == group).count();
            prop_assert!(n as u32 <= m, "{} {} > {}", group, n, m);
        }
        for side in Side::BOTH {
            prop_assert!(b.selections_used(side) <= 5);
        }
        let mut compulsory: Vec<String> =
            picks.iter().filter(|p| p.compulsory).map(|p| p.terrain.clone()).collect();
        compulsory.sort();
        let mut want = compulsory_pieces(&r, &territory);
        want.sort();
        prop_assert_eq!(compulsory, want);
        if matches!(b.phase(), Phase::Placement(_)) {
            for side in Side::BOTH {
                prop_assert!(b.selections_used(side) >= 1);
            }
        }
    }

    #[test]
    fn refused_commands_change_nothing(
        t in 0usize..8,
        attempts in proptest::collection::vec((any::<bool>(), 0usize..17, any::<bool>()), 30),
    ) {
        let mut b = battle_at_selection(t, true);
        let ids: Vec<String> = b.ruleset().terrain_types.keys().cloned().collect();
        for (south, terrain, large) in attempts {
            let side = if south { Side::South } else { Side::North };
            let before = b.state().clone();
            let log_len = b.log().len();
            let command = if b.remaining_compulsory().is_empty() {
                Command::SelectTerrain { side, terrain: ids[terrain].clone(), large }
            } else {
                Command::ChooseCompulsory { side, terrain: ids[terrain].clone() }
            };
            if b.apply(command).is_err() {
                prop_assert_eq!(b.state(), &before);
                prop_assert_eq!(b.log().len(), log_len);
            }
        }
    }
}
