//! Random walks through terrain placement: nothing panics,
//! and whatever the engine accepts keeps the table legal (RULES 5-6): every
//! standing piece lies wholly on the table and no two share ground.

use muster_core::dice::DiceInput;
use muster_core::side::Side;
use muster_fog::battle::{AdjustAction, Battle, Command, Phase, nearest_legal_pose};
use muster_fog::examples;
use muster_fog::geometry::{Pose, Shape, SideEdge, overlaps};
use muster_fog::inventory::Inventory;
use muster_fog::ruleset::Ruleset;
use proptest::prelude::*;

/// South holds the initiative in Hilly; South has a river and two more
/// pieces, North three; placement is about to start.
fn at_placement() -> Battle {
    let r = Ruleset::builtin();
    let mut b = Battle::new(r.clone());
    let d = |n| DiceInput::Typed(vec![n]);
    for (side, i) in [(Side::South, 0), (Side::North, 1)] {
        b.apply(Command::SetArmy {
            side,
            army: examples::army(i, &r),
            lock: None,
        })
        .unwrap();
    }
    let sel = |side, terrain: &str, large| Command::SelectTerrain {
        side,
        terrain: terrain.into(),
        large,
    };
    for c in [
        Command::RollInitiative {
            side: Side::South,
            dice: d(6),
        },
        Command::RollInitiative {
            side: Side::North,
            dice: d(1),
        },
        Command::ChooseTerritory {
            side: Side::South,
            territory: "hilly".into(),
        },
        Command::ChooseCompulsory {
            side: Side::North,
            terrain: "brush".into(),
        },
        Command::ChooseCompulsory {
            side: Side::South,
            terrain: "gentle_hill".into(),
        },
        sel(Side::North, "broken", false),
        sel(Side::North, "steep_hill", true),
        Command::FinishSelection { side: Side::North },
        sel(Side::South, "river", false),
        sel(Side::South, "village", false),
        sel(Side::South, "forest", false),
        Command::FinishSelection { side: Side::South },
    ] {
        b.apply(c).unwrap();
    }
    b
}

/// One random move of a walk through placement: the randomness is turned
/// into a command for whatever the battle waits for, with sizes, poses and
/// dice that are sometimes legal and sometimes not, and now and then sent by
/// the wrong player.
#[derive(Clone, Debug)]
struct Move {
    pick: u32,
    a: f64,
    b: f64,
    c: f64,
    snap: bool,
    wrong: bool,
}

fn moves() -> impl Strategy<Value = Vec<Move>> {
    proptest::collection::vec(
        (
            any::<u32>(),
            0.0..1.0f64,
            0.0..1.0f64,
            0.0..1.0f64,
            proptest::bool::weighted(0.6),
            proptest::bool::weighted(0.1),
        )
            .prop_map(|(pick, a, b, c, snap, wrong)| Move {
                pick,
                a,
                b,
                c,
                snap,
                wrong,
            }),
        1..150,
    )
}

fn command(b: &Battle, m: &Move, inventory: &Inventory) -> Command {
    use muster_fog::battle::PlacementTurn as T;
    let state = b.state();
    let (w, d) = (state.settings.table.width, state.settings.table.depth);
    let die = |n: u32| DiceInput::Typed(vec![(n % 7) as u8]);
    let Phase::Placement(turn) = b.phase() else {
        return Command::DeclineRoad { side: Side::South };
    };
    let flip = |s: Side| if m.wrong { s.opponent() } else { s };
    match turn {
        T::Waterway { side, .. } => Command::PlaceWaterway {
            side: flip(side),
            edge: if m.pick.is_multiple_of(2) {
                SideEdge::West
            } else {
                SideEdge::East
            },
            width: m.a * 5.0,
            offset: m.b * 7.0 * f64::from(u8::from(m.snap)),
        },
        T::Going { side, .. } => Command::RollGoing {
            side: flip(side),
            dice: die(m.pick),
        },
        T::Roll { side, piece } => {
            let waiting: Vec<usize> = (0..state.selection.picks.len())
                .filter(|&i| {
                    state.selection.picks[i].side == side && !state.placement.laid.contains_key(&i)
                })
                .collect();
            let piece = piece.unwrap_or_else(|| waiting[m.pick as usize % waiting.len().max(1)]);
            let pick = &state.selection.picks[piece];
            let base = inventory
                .shape(&pick.terrain, pick.large)
                .cloned()
                .unwrap_or(Shape::Rectangle {
                    width: 8.0,
                    depth: 5.0,
                });
            let scale = if m.snap { 1.0 } else { 0.5 + m.a };
            let (sw, sd) = base.extent();
            let shape = Shape::Ellipse {
                width: sw * scale,
                depth: sd * scale,
            };
            Command::RollPlacement {
                side: flip(side),
                piece,
                shape,
                dice: die(m.pick / 7),
            }
        }
        T::Place { side, .. } => {
            let wanted = Pose::new(m.a * w, m.b * d, m.c * 360.0);
            let pose = if m.snap {
                nearest_legal_pose(state, b.ruleset(), wanted).unwrap_or(wanted)
            } else {
                wanted
            };
            Command::PlacePiece {
                side: flip(side),
                pose,
            }
        }
        T::AdjustRoll { side, .. } => Command::RollAdjustment {
            side: flip(side),
            dice: die(m.pick),
        },
        T::Adjust { side, piece, .. } => {
            let action = match m.pick % 4 {
                0 => AdjustAction::Decline,
                1 => AdjustAction::Slide {
                    dx: m.a * 16.0 - 8.0,
                    dy: m.b * 16.0 - 8.0,
                },
                2 => {
                    let f = state.placement.laid[&piece].footprint();
                    let p = if m.snap {
                        f.nearest_boundary_point([m.a * w, m.b * d])
                    } else {
                        [m.a * w, m.b * d]
                    };
                    AdjustAction::Pivot {
                        x: p[0],
                        y: p[1],
                        degrees: m.c * 360.0 - 180.0,
                    }
                }
                _ => AdjustAction::Remove,
            };
            Command::Adjust {
                side: flip(side),
                action,
            }
        }
        T::Road { side } => {
            if m.pick.is_multiple_of(3) {
                Command::DeclineRoad { side: flip(side) }
            } else {
                let points = vec![[m.a * w, 0.0], [m.b * w, m.c * d], [m.c * w, d]];
                Command::PlaceRoad {
                    side: flip(side),
                    points,
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn accepted_commands_keep_the_table_legal(walk in moves()) {
        let mut b = at_placement();
        let inventory = Inventory::builtin();
        for m in &walk {
            let c = command(&b, m, &inventory);
            let _ = b.apply(c);
            let state = b.state();
            let (w, d) = (state.settings.table.width, state.settings.table.depth);
            let standing: Vec<_> = state.placement.standing().collect();
            for (i, laid) in &standing {
                let f = laid.footprint();
                prop_assert!(f.min()[0] >= -1e-6 && f.min()[1] >= -1e-6, "piece {} off the table", i);
                prop_assert!(f.max()[0] <= w + 1e-6 && f.max()[1] <= d + 1e-6, "piece {} off the table", i);
            }
            for (k, (i, a)) in standing.iter().enumerate() {
                for (j, other) in &standing[k + 1..] {
                    prop_assert!(!overlaps(a.footprint(), other.footprint()), "pieces {} and {} overlap", i, j);
                }
            }
        }
        let replayed = Battle::replay(b.ruleset().clone(), b.id().to_string(), b.log()).unwrap();
        prop_assert_eq!(replayed.state(), b.state());
    }
}
