//! The tests of the hidden-forces ledger screen (`screens.rs`).

use super::*;
use muster_core::screen::form;

fn form_block(screen: &Screen) -> Option<&Block<LedgerAct, LedgerField>> {
    screen
        .blocks
        .iter()
        .find(|b| matches!(b, Block::Form { .. }))
}
use crate::tests::{Play, deploy, game};

/// The attack: Bob's ledger, serialised as it would go to his phone, is
/// searched for Ann's face-down units. None is in it to find.
#[test]
fn a_ledger_holds_nothing_of_the_other_sides_face_down_units() {
    let mut g = game();
    deploy(&mut g, Side::South, "0505", &["r-leg-3"]);
    let json = serde_json::to_string(&ledger(&g, &g.view(Side::North), Side::North, &Form::new()))
        .unwrap();
    let south = &g.setup().scenario.sides[Side::South];
    for unit in &south.units {
        assert!(!json.contains(&unit.id), "{} in Bob's ledger", unit.id);
        assert!(!json.contains(&unit.name), "{} in Bob's ledger", unit.name);
    }
    let own = serde_json::to_string(&ledger(&g, &g.view(Side::South), Side::South, &Form::new()))
        .unwrap();
    assert!(own.contains(&south.unit("r-leg-3").unwrap().name));
}

/// From the start of his next turn Ann's revealed legions may go face
/// down again from her ledger (A3): offered there, taken when sent;
/// a counter not hers, or not yet allowed, is refused.
#[test]
fn a_revealed_force_is_turned_face_down_from_its_owners_ledger() {
    let (mut g, legions, _) = crate::tests::contact_position();
    g.play(Command::Reveal { id: legions }).unwrap();
    let turn_down = LedgerAct::TurnDown { id: legions };
    let offered =
        |g: &Game| ledger(g, &g.view(Side::South), Side::South, &Form::new()).offers(&turn_down);
    assert!(!offered(&g), "not in the turn it was revealed");
    let as_reply = Reply {
        command: turn_down.clone(),
        values: Form::new(),
    };
    assert!(answer(&g, Side::South, &as_reply).is_err());
    g.play(Command::EndTurn).unwrap();
    g.play(Command::EndTurn).unwrap();
    assert!(offered(&g));
    assert!(answer(&g, Side::North, &as_reply).is_err(), "not Bob's");
    let command = answer(&g, Side::South, &as_reply).unwrap();
    assert_eq!(command, Command::TurnDown { id: legions });
    g.play(command).unwrap();
}

/// Ann drags her legions on her phone's map: the move is named on her
/// ledger and made only when she sends it; out of her turn, or from a
/// hex with nothing of hers, a drag proposes nothing.
#[test]
fn a_counter_dragged_on_the_phone_is_moved_once_confirmed() {
    let (mut g, legions, _) = crate::tests::contact_position();
    let hex = |name: &str| Hex::parse(name).unwrap();
    let mut values = Form::new();
    let drag = |from: &str, path: &[&str]| Drag {
        from: hex(from),
        path: path.iter().map(|h| hex(h)).collect(),
        counter: None,
    };
    assert!(!dragged(
        &g,
        Side::South,
        &mut values,
        &drag("0404", &["0405"])
    ));
    assert!(!dragged(
        &g,
        Side::North,
        &mut values,
        &drag("0909", &["0908"])
    ));
    assert!(dragged(
        &g,
        Side::South,
        &mut values,
        &drag("0505", &["0506", "0606"])
    ));
    let screen = ledger(&g, &g.view(Side::South), Side::South, &values);
    let text = serde_json::to_string(&screen).unwrap();
    assert!(
        text.contains(&format!("Move force {legions} from 0505 to 0606?")),
        "{text}"
    );
    assert_eq!(
        g.public().holder(legions).unwrap().hex,
        Some(hex("0505")),
        "not yet"
    );
    let reply = Reply {
        command: LedgerAct::MapMove,
        values,
    };
    let command = answer(&g, Side::South, &reply).unwrap();
    assert_eq!(
        command,
        Command::Move {
            id: legions,
            to: hex("0606")
        }
    );
    g.play(command).unwrap();
    assert_eq!(g.public().holder(legions).unwrap().hex, Some(hex("0606")));
}

/// Ann's reserve joins her legions in 0505. A drag begun on a token of
/// the stack proposes that counter; begun beside them (or on a token
/// not hers), she is asked which goes, each of hers there offered, and
/// the one she picks is the move; a plain move or a counter not
/// offered is refused.
#[test]
fn a_stack_dragged_without_a_token_asks_which_counter_goes() {
    let (mut g, legions, cataphracts) = crate::tests::contact_position_with(&["r-aux-1"]);
    let hex = |name: &str| Hex::parse(name).unwrap();
    let reserve = g
        .public()
        .holders
        .iter()
        .find(|h| h.hex == Some(hex("0303")))
        .unwrap()
        .id;
    g.play(Command::Move {
        id: reserve,
        to: hex("0505"),
    })
    .unwrap();
    let drag = |counter: Option<usize>| Drag {
        from: hex("0505"),
        path: vec![hex("0506")],
        counter,
    };
    let text = |values: &Form| {
        serde_json::to_string(&ledger(&g, &g.view(Side::South), Side::South, values)).unwrap()
    };
    let mut values = Form::new();
    assert!(dragged(&g, Side::South, &mut values, &drag(Some(reserve))));
    let one = text(&values);
    assert!(
        one.contains(&format!("Move force {reserve} from 0505 to 0506?")),
        "{one}"
    );
    assert!(!one.contains("Several"), "{one}");
    for beside in [None, Some(cataphracts)] {
        let mut values = Form::new();
        assert!(dragged(&g, Side::South, &mut values, &drag(beside)));
        let asked = text(&values);
        assert!(
            asked.contains("Several of your counters stand in 0505: which goes to 0506?"),
            "{asked}"
        );
        for id in [legions, reserve] {
            assert!(
                asked.contains(&format!("Move force {id} to 0506")),
                "{asked}"
            );
        }
        let reply = |command: LedgerAct| Reply {
            command,
            values: values.clone(),
        };
        assert!(answer(&g, Side::South, &reply(LedgerAct::MapMove)).is_err());
        assert!(
            answer(
                &g,
                Side::South,
                &reply(LedgerAct::StackMove { id: cataphracts })
            )
            .is_err()
        );
        assert_eq!(
            answer(
                &g,
                Side::South,
                &reply(LedgerAct::StackMove { id: legions })
            )
            .unwrap(),
            Command::Move {
                id: legions,
                to: hex("0506")
            }
        );
    }
}

/// Ann's Agent examines Bob's off-map area (A2a): what it holds is on
/// her ledger (her phone's), marked, and on nobody else's screen.
#[test]
fn an_agents_findings_are_on_the_examiners_ledger_alone() {
    let (mut g, _, _) = crate::tests::contact_position();
    let off = g.public().area(Side::North, Area::OffMap).unwrap().id;
    g.play(Command::SpendAgent {
        by: Side::South,
        id: off,
    })
    .unwrap();
    let cataphract = g.setup().scenario.sides[Side::North]
        .unit("p-cat-2")
        .unwrap()
        .name
        .clone();
    let ann = serde_json::to_string(&ledger(&g, &g.view(Side::South), Side::South, &Form::new()))
        .unwrap();
    assert!(ann.contains(&cataphract) && ann.contains("examined by your Agent"));
    let table = serde_json::to_string(&g.table_view()).unwrap();
    assert!(!table.contains("p-cat-2"), "the table sees nothing of it");
    let log = g.log_lines().join("\n");
    assert!(log.contains("shown to them alone"), "{log}");
    assert!(!log.contains(&cataphract), "{log}");
}

/// A force's regroup offers only what the rules take: counters in its
/// own hex and a new force, never one in another hex or an Exercitus
/// off the map; each offer, sent, is accepted.
#[test]
fn a_regroup_offers_only_the_counters_the_rules_take() {
    let mut g = game();
    let a = deploy(&mut g, Side::South, "0505", &["r-leg-3"]);
    let b = deploy(&mut g, Side::South, "0505", &["r-leg-6"]);
    let far = deploy(&mut g, Side::South, "0909", &["r-aux-1"]);
    let screen = ledger(
        &g,
        &g.view(Side::South),
        Side::South,
        &form(&[(LedgerField::From, &[&a.to_string()])]),
    );
    let Some(Block::Form { fields, .. }) = form_block(&screen) else {
        panic!("{screen:?}");
    };
    let to = fields.iter().find(|f| f.name == LedgerField::To).unwrap();
    let Input::Choice { options, .. } = &to.input else {
        panic!("{to:?}");
    };
    let offered: Vec<&str> = options.iter().map(|o| o.value.as_str()).collect();
    assert!(offered.contains(&b.to_string().as_str()), "{offered:?}");
    assert!(!offered.contains(&far.to_string().as_str()), "{offered:?}");
    assert!(
        options.iter().all(|o| !o.label.contains("Exercitus")),
        "no Exercitus off the map: {offered:?}"
    );
    g.play(Command::Transfer {
        side: Side::South,
        from: a,
        to: Target::Counter(b),
        units: vec!["r-leg-3".into()],
    })
    .unwrap();
}

/// The hex typed is checked as it is typed: the screen says what is
/// wrong with it before anything is sent.
#[test]
fn a_mistyped_hex_is_named_on_the_screen_at_once() {
    let g = game();
    let from = g
        .public()
        .area(Side::South, Area::OffMap)
        .unwrap()
        .id
        .to_string();
    let problem = |hex: &str| {
        let screen = ledger(
            &g,
            &g.view(Side::South),
            Side::South,
            &form(&[(LedgerField::From, &[&from]), (LedgerField::Hex, &[hex])]),
        );
        let Some(Block::Form { fields, .. }) = form_block(&screen) else {
            panic!("{screen:?}");
        };
        match &fields.last().unwrap().input {
            Input::Text { problem, .. } => problem.clone(),
            other => panic!("{other:?}"),
        }
    };
    assert!(problem("05x5").is_some_and(|p| p.contains("05x5")));
    assert_eq!(problem("0505"), None);
    assert_eq!(problem(""), None);
}

/// What the form sends back becomes the command the rules check; a
/// forged or half-filled form is refused in words, never a panic.
#[test]
fn the_form_answers_with_a_command_and_a_bad_one_is_refused_in_words() {
    let mut g = game();
    let off_map = g
        .public()
        .area(Side::South, Area::OffMap)
        .unwrap()
        .id
        .to_string();
    let screen = ledger(
        &g,
        &g.view(Side::South),
        Side::South,
        &form(&[(LedgerField::From, &[&off_map])]),
    );
    let Some(Block::Form { actions, .. }) = form_block(&screen) else {
        panic!("{screen:?}");
    };
    let reply = |v: Form| Reply {
        command: actions[0].command.clone(),
        values: v,
    };
    let good = form(&[
        (LedgerField::From, &[&off_map]),
        (LedgerField::Units, &["r-leg-3"]),
        (LedgerField::To, &["new"]),
        (LedgerField::Hex, &["0505"]),
    ]);
    let command = answer(&g, Side::South, &reply(good)).unwrap();
    g.play(command).unwrap();
    for (bad, why) in [
        (
            form(&[(LedgerField::Units, &["r-leg-6"])]),
            "where the units come from",
        ),
        (
            form(&[
                (LedgerField::From, &[&off_map]),
                (LedgerField::To, &["forty"]),
            ]),
            "\"to\" is no counter",
        ),
        (
            form(&[
                (LedgerField::From, &[&off_map]),
                (LedgerField::Hex, &["99999"]),
            ]),
            "99999",
        ),
    ] {
        let e = answer(&g, Side::South, &reply(bad)).unwrap_err();
        assert!(e.message.contains(why), "{e}");
    }
    // An action the ledger does not have, or Bob's regroup sent by
    // Ann's phone as a command of its own: not a ledger's answer.
    let forged = r#"{"command":{"delete_everything":{}}}"#;
    assert!(screen::read::<Reply>(forged).is_err());
    let as_bob = r#"{"command":{"cmd":"transfer","side":"north","from":1,"to":{"new_force":"0606"},"units":["p-cat-1"]}}"#;
    let refused = screen::read::<Reply>(as_bob).unwrap_err();
    assert!(refused.starts_with("command"), "{refused}");
}

/// In the other player's turn his ledger's regrouping is greyed beside
/// the button, with why; in his own it is not.
#[test]
fn regrouping_is_greyed_in_the_other_players_turn_with_why() {
    let (mut g, legions, _) = crate::tests::contact_position();
    let moves = |g: &Game| {
        let screen = ledger(
            g,
            &g.view(Side::South),
            Side::South,
            &form(&[(LedgerField::From, &[&legions.to_string()])]),
        );
        let Some(Block::Form { actions, .. }) = form_block(&screen) else {
            panic!("{screen:?}");
        };
        actions[0].refused.clone()
    };
    assert_eq!(moves(&g), None);
    g.play(Command::EndTurn).unwrap();
    assert_eq!(
        moves(&g).as_deref(),
        Some("It is Bob's (Parthia) turn: Ann (Rome) regroups in their own")
    );
}
