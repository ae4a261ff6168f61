//! Deployment (RULES 8-9) on the shipped example battle: South (Romans) has
//! the initiative; North (Britons) does each step first.

use super::*;
use crate::examples::terrain_battle;
use crate::geometry::Pose;
use muster_core::intel::SealKey;
use muster_core::side::Sides;

fn d(n: u8) -> DiceInput {
    DiceInput::Typed(vec![n])
}

fn turn(b: &Battle) -> DeploymentTurn {
    match b.phase() {
        Phase::Deployment(t) => t,
        other => panic!("not deploying: {other:?}"),
    }
}

fn camps_down(b: &mut Battle) {
    b.apply(Command::PlaceCamp {
        side: Side::North,
        pose: Pose::new(45.0, 45.0, 0.0),
    })
    .unwrap();
    b.apply(Command::PlaceCamp {
        side: Side::South,
        pose: Pose::new(20.0, 4.0, 0.0),
    })
    .unwrap();
}

/// Seals and places a marker as the owner's screen does.
fn ambush(
    b: &mut Battle,
    side: Side,
    at: [f64; 2],
    content: AmbushContent,
) -> Result<Vec<Event>, RuleError> {
    let command = seal_ambush(
        b.state(),
        b.ruleset(),
        side,
        at,
        content,
        &SealKey::unprotected(),
    )?;
    b.apply(command)
}

fn finish(b: &mut Battle, side: Side, step: Finished) {
    b.apply(Command::Finish { side, step }).unwrap();
}

#[test]
fn camps_keep_to_their_depth_and_out_of_difficult_terrain_unless_in_a_village() {
    let mut b = terrain_battle();
    assert_eq!(turn(&b), DeploymentTurn::Camp(Side::North));
    let e = b
        .apply(Command::PlaceCamp {
            side: Side::South,
            pose: Pose::new(20.0, 4.0, 0.0),
        })
        .unwrap_err();
    assert!(
        e.message.contains("waiting for North to place their camp"),
        "{e}"
    );
    let e = b
        .apply(Command::PlaceCamp {
            side: Side::North,
            pose: Pose::new(45.0, 37.0, 0.0),
        })
        .unwrap_err();
    assert_eq!(e.rule, "8.1");
    assert!(
        e.message
            .contains("reaches 13.0 MU from North's long edge; it must lie wholly within 12 MU"),
        "{e}"
    );
    // North's forest (difficult) at (30, 44.5).
    let e = b
        .apply(Command::PlaceCamp {
            side: Side::North,
            pose: Pose::new(30.0, 44.0, 0.0),
        })
        .unwrap_err();
    assert!(
        e.message
            .contains("The camp is on Forest (difficult terrain)"),
        "{e}"
    );
    b.apply(Command::PlaceCamp {
        side: Side::North,
        pose: Pose::new(45.0, 45.0, 0.0),
    })
    .unwrap();
    // Wholly in the village (54.5..61.5 x 0..6), but not across the road.
    let e = b
        .apply(Command::PlaceCamp {
            side: Side::South,
            pose: Pose::new(56.5, 3.0, 0.0),
        })
        .unwrap();
    assert_eq!(e.len(), 1);
    assert_eq!(turn(&b), DeploymentTurn::Fortifications(Side::North));
}

#[test]
fn a_camp_half_in_the_village_is_refused() {
    let mut b = terrain_battle();
    b.apply(Command::PlaceCamp {
        side: Side::North,
        pose: Pose::new(45.0, 45.0, 0.0),
    })
    .unwrap();
    let e = b
        .apply(Command::PlaceCamp {
            side: Side::South,
            pose: Pose::new(53.0, 3.0, 0.0),
        })
        .unwrap_err();
    assert!(e.message.contains("unless wholly in a village"), "{e}");
}

#[test]
fn fortifications_go_twelve_mu_deep_or_fifteen_in_the_central_third() {
    let mut b = terrain_battle();
    camps_down(&mut b);
    // North: 14 MU deep is fine in the central third...
    b.apply(Command::PlaceFortification {
        side: Side::North,
        pose: Pose::new(40.0, 34.5, 0.0),
    })
    .unwrap();
    // ...but not on the flank.
    let e = b
        .apply(Command::PlaceFortification {
            side: Side::North,
            pose: Pose::new(60.0, 34.5, 0.0),
        })
        .unwrap_err();
    assert!(e.message.contains("reaches 14.0 MU from North's long edge; not wholly in the central third it must lie within 12 MU"), "{e}");
    let e = b
        .apply(Command::PlaceFortification {
            side: Side::North,
            pose: Pose::new(45.0, 45.0, 0.0),
        })
        .unwrap_err();
    assert!(e.message.contains("overlap North's camp"), "{e}");
    finish(&mut b, Side::North, Finished::Fortifications);
    assert_eq!(turn(&b), DeploymentTurn::Fortifications(Side::South));
}

fn to_ambushes(b: &mut Battle) {
    camps_down(b);
    finish(b, Side::North, Finished::Fortifications);
    finish(b, Side::South, Finished::Fortifications);
}

#[test]
fn ambushes_must_be_hidden_from_the_enemy_skirmisher_area() {
    let mut b = terrain_battle();
    to_ambushes(&mut b);
    finish(&mut b, Side::North, Finished::Ambushes);
    assert_eq!(turn(&b), DeploymentTurn::Ambushes(Side::South));
    let legio = AmbushContent::Bg { bg: 0 };
    // In the open on the west flank: seen.
    let e = ambush(&mut b, Side::South, [10.0, 10.0], legio).unwrap_err();
    assert_eq!(e.rule, "8.3");
    assert!(e.message.contains("is seen from the point "), "{e}");
    // The central third is out.
    let e = ambush(&mut b, Side::South, [36.0, 5.0], legio).unwrap_err();
    assert!(e.message.contains("central third"), "{e}");
    // South holds the initiative: up to half-way (24 MU), not beyond.
    let e = ambush(&mut b, Side::South, [10.0, 25.0], legio).unwrap_err();
    assert!(e.message.contains("25.0 MU from South's long edge"), "{e}");
    // In the village (2 MU: hidden from 27 MU away).
    let why = check_ambush(b.state(), b.ruleset(), Side::South, legio, [58.0, 3.0]).unwrap();
    assert!(
        why.contains("hidden from all of North's skirmisher area"),
        "{why}"
    );
    assert!(why.contains("in Village"), "{why}");
    ambush(&mut b, Side::South, [58.0, 3.0], legio).unwrap();
    // Light foot hides in the brush, heavy foot does not.
    let archers = AmbushContent::Bg { bg: 6 };
    let brush = [18.0, 16.0];
    assert!(check_ambush(b.state(), b.ruleset(), Side::South, archers, brush).is_ok());
    let e = check_ambush(
        b.state(),
        b.ruleset(),
        Side::South,
        AmbushContent::Bg { bg: 1 },
        brush,
    )
    .unwrap_err();
    assert!(e.message.contains("is seen from"), "{e}");
    let e = ambush(&mut b, Side::South, brush, legio).unwrap_err();
    assert!(e.message.contains("already in ambush"), "{e}");
    // Dummies: placed as light foot, two at most.
    for at in [[17.0, 15.0], [22.0, 17.0]] {
        ambush(&mut b, Side::South, at, AmbushContent::Dummy).unwrap();
    }
    let e = ambush(&mut b, Side::South, [19.0, 15.0], AmbushContent::Dummy).unwrap_err();
    assert!(e.message.contains("the limit is 2"), "{e}");
    // The log says where, never what.
    let lines = b.log_lines();
    let last = &lines[lines.len() - 1].0;
    assert_eq!(
        last,
        "South places an ambush marker 17.0 in from S, 22.0 in from W"
    );
    assert!(!lines.iter().any(|(l, _)| l.contains("Legio I")));
}

#[test]
fn the_map_agrees_with_the_point_check() {
    let b = terrain_battle();
    let (state, ruleset) = (b.state(), b.ruleset());
    let content = AmbushContent::Bg { bg: 6 };
    let profile = Profile::of(state, ruleset, Side::South, content).unwrap();
    let map = AmbushMap::compute(state, ruleset, Side::South, profile);
    assert!(map.legal_cells() > 0);
    for (at, verdict) in map.cells().step_by(37) {
        let legal = check_ambush(state, ruleset, Side::South, content, at).is_ok();
        assert_eq!(legal, verdict == Verdict::Legal, "{at:?} {verdict:?}");
    }
}

#[test]
fn batches_are_a_quarter_rounded_up_with_ambushes_and_flank_marchers_out() {
    for n in 1..=30usize {
        for out in 0..=n.min(5) {
            let deploying = n - out;
            let sizes = batch_sizes(deploying, 4);
            assert_eq!(sizes.iter().sum::<usize>(), deploying);
            assert!(sizes.len() <= 4, "{deploying}: {sizes:?}");
            let size = deploying.div_ceil(4);
            assert!(sizes.iter().all(|s| *s <= size && *s > 0));
            assert!(
                sizes[..sizes.len().saturating_sub(1)]
                    .iter()
                    .all(|s| *s == size)
            );
        }
    }
    assert_eq!(batch_sizes(10, 4), vec![3, 3, 3, 1]);
    assert_eq!(batch_sizes(5, 4), vec![2, 2, 1]);
    assert_eq!(batch_sizes(0, 4), Vec::<usize>::new());
    let order = batch_order(
        Side::North,
        &Sides {
            south: vec![3, 3, 3, 1],
            north: vec![2, 2, 1],
        },
    );
    let sides: Vec<Side> = order.iter().map(|o| o.0).collect();
    use Side::{North as N, South as S};
    assert_eq!(sides, vec![N, S, N, S, N, S, S]);
    assert_eq!(order[6], (S, 4, 1));
}

/// The terrain battle at its first batch: South's battle group 1 in
/// ambush at (58, 3), no flank marches.
fn to_batches() -> Battle {
    let mut b = terrain_battle();
    to_ambushes(&mut b);
    finish(&mut b, Side::North, Finished::Ambushes);
    ambush(
        &mut b,
        Side::South,
        [58.0, 3.0],
        AmbushContent::Bg { bg: 0 },
    )
    .unwrap();
    finish(&mut b, Side::South, Finished::Ambushes);
    for (side, off_table) in [(Side::North, 0), (Side::South, 1)] {
        b.apply(Command::FinishFlankMarches { side, off_table })
            .unwrap();
    }
    b
}

#[test]
fn a_full_deployment_then_who_moves_first() {
    let mut b = to_batches();
    // North: 9 BGs -> 3, 3, 3; South: 9 on table (one in ambush) -> 3, 3, 3.
    assert_eq!(
        turn(&b),
        DeploymentTurn::Batch {
            side: Side::North,
            number: 1,
            size: 3
        }
    );
    let e = b
        .apply(Command::DeployBatch {
            side: Side::North,
            bgs: vec![0, 1],
        })
        .unwrap_err();
    assert!(
        e.message
            .contains("batch 1 is 3 battle groups (a quarter of 9, rounded up); 2 ticked"),
        "{e}"
    );
    let mut next = Sides {
        south: (1..10).collect::<Vec<usize>>().into_iter(),
        north: (0..9).collect::<Vec<usize>>().into_iter(),
    };
    while let Phase::Deployment(DeploymentTurn::Batch { side, size, .. }) = b.phase() {
        let bgs: Vec<usize> = next[side].by_ref().take(size).collect();
        b.apply(Command::DeployBatch { side, bgs }).unwrap();
    }
    let e = b
        .apply(Command::DeployBatch {
            side: Side::South,
            bgs: vec![0],
        })
        .unwrap_err();
    assert!(e.message.contains("cannot deploy a batch now"), "{e}");
    let e = b
        .apply(Command::CommitDismount {
            side: Side::North,
            bgs: vec![0],
        })
        .unwrap_err();
    assert!(e.message.contains("may not dismount"), "{e}");
    // North's chariots may dismount: his choice, nothing is forced.
    assert_eq!(b.forced(), None);
    b.apply(Command::CommitDismount {
        side: Side::North,
        bgs: vec![5],
    })
    .unwrap();
    // None of South's may: the rules leave him nothing to decide.
    let forced = b.forced();
    assert_eq!(
        forced,
        Some(Command::CommitDismount {
            side: Side::South,
            bgs: vec![],
        })
    );
    b.apply(forced.unwrap()).unwrap();
    assert_eq!(b.forced(), None);
    finish(&mut b, Side::North, Finished::Commanders);
    finish(&mut b, Side::South, Finished::Commanders);
    assert_eq!(b.phase(), Phase::MovesFirst);
    assert_eq!(b.state().current_step(b.ruleset()), Step::WhoMovesFirst);
    // Both C-in-C are Field Commanders: no bonus; a tie re-rolls.
    assert!(moves_first_modifiers(b.state(), b.ruleset(), Side::South).is_empty());
    for (side, n) in [
        (Side::South, 4),
        (Side::North, 4),
        (Side::North, 2),
        (Side::South, 5),
    ] {
        b.apply(Command::RollMovesFirst { side, dice: d(n) })
            .unwrap();
    }
    assert_eq!(b.state().moves_first.winner, Some(Side::South));
    assert_eq!(b.phase(), Phase::Play);
    let lines = b.log_lines();
    assert!(lines.iter().any(|(l, _)| l.contains("both roll again")));
    assert!(
        lines
            .iter()
            .any(|(l, _)| l == "North will dismount Noble chariots")
    );
    let again = Battle::replay(b.ruleset().clone(), b.id().to_string(), b.log()).unwrap();
    assert_eq!(again.state(), b.state());
}

#[test]
fn a_better_c_in_c_adds_one_to_move_first() {
    let mut b = terrain_battle();
    let mut state = b.state().clone();
    if let Some(a) = state.armies.south.as_mut() {
        a.c_in_c.quality = crate::army::CommanderQuality::Inspired;
    }
    let mods = moves_first_modifiers(&state, b.ruleset(), Side::South);
    assert_eq!(mods.len(), 1);
    assert_eq!(mods[0].value, 1);
    assert!(moves_first_modifiers(&state, b.ruleset(), Side::North).is_empty());
    let e = b
        .apply(Command::RollMovesFirst {
            side: Side::South,
            dice: d(3),
        })
        .unwrap_err();
    assert!(e.message.contains("once deployment is complete"), "{e}");
}

#[test]
fn markers_and_marches_are_numbered_per_side() {
    let sealed = |owner| muster_core::intel::Sealed {
        owner,
        salt: String::new(),
        nonce: String::new(),
        ciphertext: String::new(),
        commitment: String::new(),
        bound: false,
        base64: false,
    };
    let mut state = State::default();
    for side in [Side::North, Side::North, Side::South, Side::North] {
        state.deployment.ambushes.push(Ambush {
            side,
            at: [0.0, 0.0],
            sealed: sealed(side),
            revealed: None,
        });
    }
    let numbers: Vec<usize> = (0..4).map(|i| marker_number(&state, i)).collect();
    assert_eq!(numbers, vec![1, 2, 1, 3], "N1, N2, S1, N3");
    for side in [Side::North, Side::South] {
        state
            .deployment
            .flank_marches
            .push(FlankMarch::new(side, sealed(side), Some(0)));
    }
    assert_eq!(march_number(&state, 1), 1, "South's only march is march 1");
}

/// Issue 32: the shared checklist pre-ticked a battle group in ambush, and
/// a newcomer who took it left another never deployed. A side with battle
/// groups sealed off the table picks his batch on his own screen, which
/// never offers a sealed one and ticks the next ones; a reply forged to
/// tick one anyway (a changed page) is refused there, naming it to him.
#[test]
fn a_sealed_battle_group_is_never_offered_in_its_owners_batch() {
    use crate::screens::{Form, Reply, SecretAct, SecretField, answer_batch, batch};
    use muster_core::screen::form;
    let mut b = to_batches();
    let bgs = |b: &Battle| b.state().armies[Side::North].as_ref().unwrap().bgs.len();
    b.apply(Command::DeployBatch {
        side: Side::North,
        bgs: (0..3).collect(),
    })
    .unwrap();
    assert!(bgs(&b) > 3);
    let key = SealKey::unprotected();
    let army = b.state().armies[Side::South].clone().unwrap();
    let screen = batch(&b, Side::South, &key, &Form::new()).unwrap();
    let text = serde_json::to_string(&screen).unwrap();
    assert!(
        !text.contains(&army.bgs[0].name),
        "the ambushing group is offered"
    );
    assert!(text.contains(&army.bgs[1].name));
    // Untouched, the next three are ticked; sent, they deploy.
    let reply = |ticked: &[&str]| Reply {
        command: SecretAct::DeployBatch,
        values: form(&[(SecretField::Batch, ticked)]),
    };
    let e = answer_batch(&b, Side::South, &key, &reply(&["0", "1", "2"])).unwrap_err();
    assert!(
        e.message.contains(&army.bgs[0].name) && e.message.contains("off the table"),
        "{e}"
    );
    let untouched = Reply::button(SecretAct::DeployBatch);
    let command = answer_batch(&b, Side::South, &key, &untouched).unwrap();
    assert_eq!(
        command,
        Command::DeployBatch {
            side: Side::South,
            bgs: vec![1, 2, 3]
        }
    );
    b.apply(command).unwrap();
}
