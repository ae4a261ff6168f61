//! Flank marches and ambushes through play (RULES 8.3-8.4, 10): sealed
//! records, arrival rolls with exact chances, reveals checked against their
//! commitments, straggling with quality re-rolls.

use super::flank_march::seal_plan;
use super::*;
use crate::examples::terrain_battle;
use crate::files::battle_to_json;
use crate::geometry::Pose;
use muster_core::dice::Distribution;
use muster_core::intel::SealKey;
use muster_core::side::Sides;

/// South plays without a passphrase here: the sealing mechanics are the
/// same, and `trust_tests` covers keys from passphrases.
const SOUTH_PASS: &SealKey = &SealKey::from_bytes([7; 32]);

fn d(dice: &[u8]) -> DiceInput {
    DiceInput::Typed(dice.to_vec())
}

fn ok(b: &mut Battle, command: Command) -> Vec<Event> {
    b.apply(command).unwrap()
}

/// The shipped battle deployed, with South's Legio I in ambush in the
/// village and his two alae on a flank march led by Caecina; South moves
/// first.
fn deployed() -> Battle {
    deployed_with(vec![1, 2, 3, 4, 5, 6, 9], false)
}

/// The example battle at South's flank marches: camps placed, South's
/// ambush (battle group 0) sealed, North done with his marches.
pub(crate) fn at_south_flank_marches() -> Battle {
    let mut b = at_south_ambushes();
    let s = Side::South;
    let c = seal_ambush(
        b.state(),
        b.ruleset(),
        s,
        [58.0, 3.0],
        AmbushContent::Bg { bg: 0 },
        SOUTH_PASS,
    )
    .unwrap();
    ok(&mut b, c);
    ok(
        &mut b,
        Command::Finish {
            side: s,
            step: Finished::Ambushes,
        },
    );
    ok(
        &mut b,
        Command::FinishFlankMarches {
            side: Side::North,
            off_table: 0,
        },
    );
    b
}

/// The example battle at South's ambushes: camps placed, North done with
/// his (none).
pub(crate) fn at_south_ambushes() -> Battle {
    let mut b = terrain_battle();
    let (n, s) = (Side::North, Side::South);
    ok(
        &mut b,
        Command::PlaceCamp {
            side: n,
            pose: Pose::new(45.0, 45.0, 0.0),
        },
    );
    ok(
        &mut b,
        Command::PlaceCamp {
            side: s,
            pose: Pose::new(36.0, 6.0, 0.0),
        },
    );
    for side in [n, s] {
        ok(
            &mut b,
            Command::Finish {
                side,
                step: Finished::Fortifications,
            },
        );
    }
    ok(
        &mut b,
        Command::Finish {
            side: n,
            step: Finished::Ambushes,
        },
    );
    b
}

/// South's alae sealed on a flank march (3 groups off the table, his
/// ambush included), then every batch deployed, South setting `south` on
/// the table: the battle at its dismounting.
fn batched(south: Vec<usize>, sealed_modifier: bool) -> Battle {
    let mut b = at_south_flank_marches();
    let s = Side::South;
    let plan = FlankMarchPlan {
        bgs: vec![7, 8],
        commander: 0,
        flank: Flank::Left,
    };
    let c = seal_plan(
        b.state(),
        b.ruleset(),
        s,
        &plan,
        SOUTH_PASS,
        sealed_modifier,
    )
    .unwrap();
    ok(&mut b, c);
    ok(
        &mut b,
        Command::FinishFlankMarches {
            side: s,
            off_table: 3,
        },
    );
    let mut next = Sides {
        south: south.into_iter(),
        north: (0..9).collect::<Vec<usize>>().into_iter(),
    };
    while let Phase::Deployment(DeploymentTurn::Batch { side, size, .. }) = b.phase() {
        let bgs = next[side].by_ref().take(size).collect();
        ok(&mut b, Command::DeployBatch { side, bgs });
    }
    b
}

/// The same, South setting `south` on the table in his batches.
fn deployed_with(south: Vec<usize>, sealed_modifier: bool) -> Battle {
    let mut b = batched(south, sealed_modifier);
    let (n, s) = (Side::North, Side::South);
    for side in [n, s] {
        ok(&mut b, Command::CommitDismount { side, bgs: vec![] });
    }
    for side in [n, s] {
        ok(
            &mut b,
            Command::Finish {
                side,
                step: Finished::Commanders,
            },
        );
    }
    ok(
        &mut b,
        Command::RollMovesFirst {
            side: s,
            dice: d(&[6]),
        },
    );
    ok(
        &mut b,
        Command::RollMovesFirst {
            side: n,
            dice: d(&[2]),
        },
    );
    assert_eq!(b.phase(), Phase::Play);
    b
}

#[test]
fn arrival_chances_are_exact() {
    let r = Ruleset::builtin();
    assert!(arrival_chance(&r, 0).is(6, 36));
    assert!(arrival_chance(&r, 1).is(10, 36));
    assert!(arrival_chance(&r, -1).is(3, 36));
    let by = arrival_by_turn(&r, 0, 2, 3);
    assert_eq!(by[0].0, 2);
    assert!((by[0].1 - 6.0 / 36.0).abs() < 1e-12);
    assert!((by[1].1 - 30.0 / 36.0 * 6.0 / 36.0).abs() < 1e-12);
    assert!((by[2].2 - (1.0 - (30.0f64 / 36.0).powi(3))).abs() < 1e-12);
}

#[test]
fn straggling_chances_are_exact_with_quality_rerolls() {
    let r = Ruleset::builtin();
    let mut army = crate::examples::army(1, &r);
    // Average, undrilled: Horsemen (cavalry) and Iceni warriors (warband
    // counts as medium or heavy foot here); then heavy foot.
    assert!(straggle_chance(&r, &army, 8).is(6, 36));
    army.bgs[2].troop_type = "heavy_foot".into();
    assert!(straggle_chance(&r, &army, 2).is(10, 36));
    // Elite and Superior re-rolls never lower a die.
    for quality in [
        muster_core::dice::Quality::Elite,
        muster_core::dice::Quality::Superior,
    ] {
        let rule = quality.rule(&r.quality_rerolls);
        for first in 1..=6 {
            for second in 1..=6 {
                assert!(rule.keep(first, second) >= first);
            }
        }
        let better = Distribution::dice(2, Some(rule));
        assert!(better.below(5).value() < Distribution::dice(2, None).below(5).value());
    }
}

/// The deployed battle at South's turn 3, his flank march arrived (rolled
/// 3 + 4, then 5 + 6) and not yet revealed; South's sealing key is
/// `SOUTH_PASS`.
pub(crate) fn march_arrived() -> (Battle, &'static SealKey) {
    let mut b = deployed();
    let (n, s) = (Side::North, Side::South);
    ok(&mut b, Command::EndTurn { side: s });
    ok(&mut b, Command::EndTurn { side: n });
    for (dice, end) in [([3, 4], true), ([5, 6], false)] {
        ok(
            &mut b,
            Command::RollArrival {
                side: s,
                march: 0,
                dice: d(&dice),
            },
        );
        if end {
            ok(&mut b, Command::EndTurn { side: s });
            ok(&mut b, Command::EndTurn { side: n });
        }
    }
    (b, SOUTH_PASS)
}

#[test]
fn a_sealed_march_arrives_is_revealed_and_straggles() {
    let mut b = deployed();
    let (n, s) = (Side::North, Side::South);
    // Nothing of the march or the ambush is in the file or the log.
    let file = battle_to_json(&b);
    for secret in [
        "\"flank\"",
        "\"left\"",
        "\"commander\"",
        "\"bg\"",
        "\"dummy\"",
    ] {
        assert!(!file.contains(secret), "the file holds {secret}");
    }
    assert!(
        !b.log_lines()
            .iter()
            .any(|(l, _)| l.contains("Ala Petriana"))
    );

    assert_eq!(current_turn(b.state()), Some((1, s)));
    assert!(
        arrivals_due(b.state(), b.ruleset()).is_empty(),
        "no roll on turn 1"
    );
    ok(&mut b, Command::EndTurn { side: s });
    let e = b.apply(Command::EndTurn { side: s }).unwrap_err();
    assert!(e.message.contains("It is North's turn 1"), "{e}");
    ok(&mut b, Command::EndTurn { side: n });
    // South's turn 2: the march rolls before the turn can end.
    let e = b.apply(Command::EndTurn { side: s }).unwrap_err();
    assert!(
        e.message
            .contains("rolls for flank march 1 at the start of their turn 2"),
        "{e}"
    );
    let ev = ok(
        &mut b,
        Command::RollArrival {
            side: s,
            march: 0,
            dice: d(&[3, 4]),
        },
    );
    assert!(matches!(
        ev[0],
        Event::ArrivalRolled {
            arrives: Some(false),
            turn: 2,
            ..
        }
    ));
    ok(&mut b, Command::EndTurn { side: s });
    ok(&mut b, Command::EndTurn { side: n });
    ok(
        &mut b,
        Command::RollArrival {
            side: s,
            march: 0,
            dice: d(&[5, 6]),
        },
    );
    let e = b.apply(Command::EndTurn { side: s }).unwrap_err();
    assert!(e.message.contains("has arrived: reveal it first"), "{e}");

    let e = reveal_plan(b.state(), s, 0, &SealKey::unprotected(), vec![]).unwrap_err();
    assert!(e.message.contains("does not open with South's key"), "{e}");
    // Ala Petriana (average, drilled: +1) rolls 1 + 1 and straggles; Ala
    // Indiana rolls 4 + 4 and arrives.
    let c = reveal_plan(b.state(), s, 0, SOUTH_PASS, vec![d(&[1, 1]), d(&[4, 4])]).unwrap();
    let ev = ok(&mut b, c);
    let Event::FlankMarchRevealed {
        straggling,
        problems,
        ..
    } = &ev[0]
    else {
        panic!("{ev:?}");
    };
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(
        straggling.iter().map(|t| t.straggles).collect::<Vec<_>>(),
        vec![true, false]
    );
    let line = b.log_lines().last().unwrap().0.clone();
    assert!(
        line.contains("Ala Petriana, Ala Indiana led by Caecina on the left flank"),
        "{line}"
    );
    assert!(
        line.contains("Ala Petriana 1 + 1 + 1 (drilled or skirmishers) = 3 straggles"),
        "{line}"
    );
    ok(&mut b, Command::EndTurn { side: s });
    let again = Battle::replay(b.ruleset().clone(), b.id().to_string(), b.log()).unwrap();
    assert_eq!(again.state(), b.state());
}

#[test]
fn a_forged_reveal_fails_its_commitment() {
    let mut b = deployed();
    let s = Side::South;
    let Command::RevealAmbush {
        side,
        marker,
        mut revealed,
        reason,
    } = reveal_ambush(b.state(), s, 0, SOUTH_PASS, RevealReason::OwnersChoice).unwrap()
    else {
        unreachable!()
    };
    revealed.secret = AmbushContent::Dummy;
    let e = b
        .apply(Command::RevealAmbush {
            side,
            marker,
            revealed,
            reason,
        })
        .unwrap_err();
    assert!(e.message.contains("does not match the commitment"), "{e}");
    let c = reveal_ambush(b.state(), s, 0, SOUTH_PASS, RevealReason::OwnersChoice).unwrap();
    ok(&mut b, c);
    let line = b.log_lines().last().unwrap().0.clone();
    assert!(
        line.contains("is revealed because its owner reveals it (commitment checked): Legio I"),
        "{line}"
    );
}

#[test]
fn a_revealed_ambush_that_was_also_deployed_is_flagged_for_both() {
    // South ticks Legio I in a batch although it is the BG in ambush.
    let mut b = deployed_with(vec![0, 1, 2, 3, 4, 5, 6], false);
    let c = reveal_ambush(
        b.state(),
        Side::South,
        0,
        SOUTH_PASS,
        RevealReason::MovesOrShoots,
    )
    .unwrap();
    let ev = ok(&mut b, c);
    let Event::AmbushRevealed { problems, .. } = &ev[0] else {
        panic!("{ev:?}");
    };
    assert_eq!(
        problems,
        &["that battle group was also deployed in a batch".to_string()]
    );
    let line = b.log_lines().last().unwrap().0.clone();
    assert!(
        line.ends_with("⚠ that battle group was also deployed in a batch"),
        "{line}"
    );
    // Issue 21: undo took back a reveal both players saw, and the marker
    // became "?" again with no trace.
    assert!(!b.can_undo());
    let e = b.undo().unwrap_err();
    assert!(e.message.contains("a reveal both players saw"), "{e}");
    assert!(b.state().deployment.ambushes[0].revealed.is_some());
}

#[test]
fn each_player_faces_the_enemy_so_left_and_right_swap_edges() {
    use crate::battle::Flank;
    use crate::geometry::SideEdge;
    assert_eq!(Flank::Left.edge(Side::South), SideEdge::West);
    assert_eq!(Flank::Right.edge(Side::South), SideEdge::East);
    assert_eq!(Flank::Left.edge(Side::North), SideEdge::East);
    assert_eq!(Flank::Right.edge(Side::North), SideEdge::West);
}

/// Issue 21: a sealed record spliced in from another game (or moved to
/// another marker) opened, since nothing bound it to its place; the
/// private page then printed what the forger chose. Bound to its game,
/// owner, kind and slot, it no longer opens.
#[test]
fn a_record_spliced_from_another_game_does_not_open() {
    use muster_core::intel::{Place, Sealed};
    let b = deployed();
    assert_eq!(
        open_ambushes(b.state(), Side::South, SOUTH_PASS)
            .unwrap()
            .len(),
        1
    );
    // The same marker, owner and key, in another game: a dummy.
    let elsewhere = Place {
        game: "another battle",
        owner: Side::South,
        kind: "ambush",
        slot: "marker 0".into(),
    };
    let spliced = Sealed::seal(
        &elsewhere,
        &AmbushContent::Dummy,
        SOUTH_PASS,
        AMBUSH_RECORD_BYTES,
    )
    .unwrap();
    let mut log = b.log().to_vec();
    let mut swapped = 0;
    for entry in &mut log {
        if let Command::PlaceAmbush { sealed, .. } = &mut entry.command {
            *sealed = spliced.clone();
            swapped += 1;
        }
        for event in &mut entry.events {
            if let Event::AmbushPlaced { sealed, .. } = event {
                *sealed = spliced.clone();
            }
        }
    }
    assert_eq!(swapped, 1);
    let forged = Battle::replay(b.ruleset().clone(), b.id().to_string(), &log)
        .expect("the rules cannot see inside a sealed record");
    let e = open_ambushes(forged.state(), Side::South, SOUTH_PASS).unwrap_err();
    assert!(e.message.contains("moved from another place"), "{e}");
    assert!(
        reveal_ambush(
            forged.state(),
            Side::South,
            0,
            SOUTH_PASS,
            RevealReason::OwnersChoice
        )
        .is_err()
    );
}

/// Issue 21: a battle group sealed in ambush and deployed in a batch as
/// well went unnoticed until its reveal. Its owner's check at the end of
/// deployment names it, and (issue 32) the battle group its batch left
/// out, neither deployed nor sealed; the honest deployment has nothing to
/// name.
#[test]
fn the_owners_check_names_a_sealed_battle_group_also_deployed() {
    let honest = deployed();
    assert!(
        super::misplaced_bgs(honest.state(), Side::South, SOUTH_PASS)
            .unwrap()
            .is_empty()
    );
    let b = deployed_with(vec![0, 1, 2, 3, 4, 5, 6], false);
    let found = super::misplaced_bgs(b.state(), Side::South, SOUTH_PASS).unwrap();
    assert_eq!(
        found,
        vec![
            "Legio I is sealed in ambush S1 and was also deployed in a batch: take it off the table; its reveal will name it to both players".to_string(),
            "Numidian horse is neither deployed nor sealed off the table: your batches left it out; place it now and tell your opponent".to_string(),
        ]
    );
}

/// RULES 10, players' screens ruling: a march whose modifier is sealed logs
/// its dice and its owner's word, never the modifier; the reveal checks
/// each word against the modifier its contents give, and a wrong word
/// refuses it, naming the roll. The file replays without the key.
#[test]
fn a_sealed_modifier_is_its_owners_word_checked_at_the_reveal() {
    let mut b = deployed_with(vec![1, 2, 3, 4, 5, 6, 9], true);
    let (n, s) = (Side::North, Side::South);
    assert_eq!(b.state().deployment.flank_marches[0].modifier, None);
    let lines: Vec<String> = b.log_lines().into_iter().map(|(l, _)| l).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("arrival modifier sealed with it")),
        "{lines:?}"
    );
    ok(&mut b, Command::EndTurn { side: s });
    ok(&mut b, Command::EndTurn { side: n });
    // Turn 2: 4 + 5; Caecina is no field commander and the alae are horse,
    // so the sealed modifier is +0: 9, not yet.
    let roll = Command::RollArrival {
        side: s,
        march: 0,
        dice: d(&[4, 5]),
    };
    let ev = ok(&mut b, roll.clone());
    assert!(
        matches!(ev[0], Event::ArrivalRolled { arrives: None, .. }),
        "{ev:?}"
    );
    let e = b.apply(Command::EndTurn { side: s }).unwrap_err();
    assert!(
        e.message.contains("says whether flank march 1 arrives"),
        "{e}"
    );
    assert!(b.apply(roll).is_err(), "one roll a turn");
    // South's word, which a liar gives the other way.
    let mut liar = b.clone();
    let word = arrival_word(b.state(), b.ruleset(), s, 0, SOUTH_PASS).unwrap();
    assert_eq!(
        word,
        Command::SayArrival {
            side: s,
            march: 0,
            arrives: false
        }
    );
    ok(&mut b, word);
    ok(
        &mut liar,
        Command::SayArrival {
            side: s,
            march: 0,
            arrives: true,
        },
    );
    let again = crate::files::battle_from_json(&battle_to_json(&liar)).unwrap();
    assert_eq!(
        again.state(),
        liar.state(),
        "the file replays without the key"
    );
    let c = reveal_plan(liar.state(), s, 0, SOUTH_PASS, vec![d(&[4, 4]), d(&[4, 4])]).unwrap();
    let e = liar.apply(c).unwrap_err();
    assert!(
        e.message
            .contains("The arrival roll of South's turn 2 was 9")
            && e.message.contains("South said \"arrives\""),
        "{e}"
    );
    // Honest: turn 3 rolls 5 + 5, he says it arrives, the reveal passes.
    ok(&mut b, Command::EndTurn { side: s });
    ok(&mut b, Command::EndTurn { side: n });
    ok(
        &mut b,
        Command::RollArrival {
            side: s,
            march: 0,
            dice: d(&[5, 5]),
        },
    );
    let word = arrival_word(b.state(), b.ruleset(), s, 0, SOUTH_PASS).unwrap();
    ok(&mut b, word);
    assert_eq!(to_reveal(b.state(), b.ruleset()), vec![0]);
    let c = reveal_plan(b.state(), s, 0, SOUTH_PASS, vec![d(&[4, 4]), d(&[4, 4])]).unwrap();
    let ev = ok(&mut b, c);
    assert!(
        matches!(&ev[0], Event::FlankMarchRevealed { problems, .. } if problems.is_empty()),
        "{ev:?}"
    );
    let log = b
        .log_lines()
        .into_iter()
        .map(|(l, _)| l)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(log.contains("South's flank march 1: arrives"), "{log}");
    assert!(!log.contains("modifier +"), "{log}");
}

/// RULES 8.4's ruling (one place): South's battle group 0 lies in an
/// ambush marker; a march that takes it too is refused on his own command,
/// naming it and the rule, and nothing is recorded.
#[test]
fn a_battle_group_in_ambush_cannot_also_march() {
    let b = at_south_flank_marches();
    let plan = FlankMarchPlan {
        bgs: vec![7, 0],
        commander: 0,
        flank: Flank::Left,
    };
    let e = crate::battle::seal_march(
        b.state(),
        b.ruleset(),
        Side::South,
        &plan,
        SOUTH_PASS,
        false,
    )
    .unwrap_err();
    assert_eq!(e.rule, "8.4");
    let name = &b.state().armies.south.as_ref().unwrap().bgs[0].name;
    assert!(
        e.message.contains(name.as_str()) && e.message.contains("ambush marker"),
        "{e}"
    );
    // Without it, the same march is taken.
    let plan = FlankMarchPlan {
        bgs: vec![7],
        ..plan
    };
    assert!(
        crate::battle::seal_march(
            b.state(),
            b.ruleset(),
            Side::South,
            &plan,
            SOUTH_PASS,
            false
        )
        .is_ok()
    );
}

/// RULES 8.5's ruling: each player who keeps groups off the table makes
/// one private check once every batch is down; the log says only whether
/// it named a group, never which. Not before the batches, not for a side
/// with nothing off the table, not twice.
#[test]
fn the_check_of_sealed_groups_is_logged_once_after_the_batches() {
    let (n, s) = (Side::North, Side::South);
    let check = |side, named| Command::CheckSealed { side, named };
    let e = at_south_flank_marches().apply(check(s, false)).unwrap_err();
    assert!(e.message.contains("once every batch is deployed"), "{e}");
    // South deploys his battle group 0, which lies in ambush.
    let mut b = batched(vec![0, 1, 2, 3, 4, 5, 6], false);
    let e = b.apply(check(n, false)).unwrap_err();
    assert!(e.message.contains("keeps no battle group off"), "{e}");
    let found = crate::battle::misplaced_bgs(b.state(), s, SOUTH_PASS).unwrap();
    assert!(
        found.iter().any(|l| l.contains("sealed in ambush")),
        "{found:?}"
    );
    ok(&mut b, check(s, true));
    let e = b.apply(check(s, false)).unwrap_err();
    assert!(e.message.contains("already"), "{e}");
    let log: Vec<String> = b.log_lines().into_iter().map(|(l, _)| l).collect();
    let log = log.join("\n");
    assert!(
        log.contains("South's private check named a battle group both sealed and deployed"),
        "{log}"
    );
    // Deployed, the group is named by its batch; the check's line never
    // says it is the one sealed.
    let name = &b.state().armies.south.as_ref().unwrap().bgs[0].name;
    let line = log.lines().find(|l| l.contains("private check")).unwrap();
    assert!(!line.contains(name.as_str()), "{line}");
}
