//! The tests of the dummy wings' screens (`screens.rs`).

use super::*;
use crate::wings::game::{Command, Setup, example_armies};
use muster_core::dice::AppDice;
use muster_core::screen::Drag;
use muster_core::side::Sides;

fn game() -> Game {
    let setup = Setup::example(Sides::default());
    Game::new(setup, Sides::default(), AppDice::seeded(1)).unwrap()
}

/// The French cuirassiers far off, so that play may begin (each side has
/// set up).
fn french(g: &mut Game) {
    let h = |name: &str| Hex::parse(name).unwrap();
    g.apply(Command::PlaceWing {
        side: Side::North,
        kind: crate::wings::scenario::Type::Cav,
        detachment: false,
        leader: h("3020"),
        dis: [h("3021"), h("3019")],
        composition: crate::wings::events::Composition {
            real: true,
            units: vec!["r-cur-1".into()],
            rating: 2,
            formation: crate::wings::formation::Formation::InColumn,
            detached: Vec::new(),
        },
    })
    .unwrap();
}

fn reply(act: CountersAct, values: &Form) -> Reply {
    Reply {
        command: act,
        values: values.clone(),
    }
}

/// Fritz's two dummies share a hex: the first's second Dis counter
/// stands on the second's leader. A drag begun on a token moves that
/// piece; begun beside them, his screen asks which piece he dragged,
/// offering both, and moves nothing until he says; his answer gives
/// that piece the path, and the move sent is that piece's.
#[test]
fn a_drag_from_a_stack_asks_which_piece_it_was() {
    let mut g = game();
    let h = |name: &str| Hex::parse(name).unwrap();
    for hexes in [["1005", "1004", "1006"], ["1006", "1007", "1106"]] {
        let mut values = Form::new();
        for hex in hexes {
            clicked(&g, &mut values, h(hex));
        }
        values.insert(CountersField::Real, vec!["false".into()]);
        let command = answer(&g, Side::South, &reply(CountersAct::Place, &values)).unwrap();
        g.apply(command).unwrap();
    }
    french(&mut g);
    g.apply(Command::Begin { first: Side::South }).unwrap();
    let drag = |counter: Option<usize>| Drag {
        from: h("1006"),
        path: vec![h("1105")],
        counter,
    };
    let screen = |values: &Form| {
        serde_json::to_string(&counters(&g, &g.view(Side::South), Side::South, values)).unwrap()
    };
    // On the second dummy's leader token: its leader moves.
    let mut values = Form::new();
    assert!(super::super::drag::dragged(
        &g,
        Side::South,
        &mut values,
        &drag(Some(1))
    ));
    assert_eq!(first(&values, CountersField::Moving), Some("1"));
    assert_eq!(first(&values, CountersField::LeaderPath), Some("1105"));
    // Beside them: asked, nothing moved yet.
    let mut values = Form::new();
    assert!(super::super::drag::dragged(
        &g,
        Side::South,
        &mut values,
        &drag(None)
    ));
    let asked = screen(&values);
    assert!(
        asked.contains("Several of your counters stand in 1006: which did you drag to 1105?"),
        "{asked}"
    );
    for piece in ["Counter 0's second Dis counter", "Counter 1's leader"] {
        assert!(asked.contains(piece), "{piece}: {asked}");
    }
    assert_eq!(first(&values, CountersField::Moving), None);
    assert!(answer(&g, Side::South, &reply(CountersAct::Move, &values)).is_err());
    // He says: the first dummy's second Dis counter.
    let dis = super::super::drag::board_id(0, 2);
    values.insert(CountersField::Piece, vec![dis.to_string()]);
    let answered = screen(&values);
    assert!(!answered.contains("Several of your counters"), "{answered}");
    assert_eq!(
        answer(&g, Side::South, &reply(CountersAct::Move, &values)).unwrap(),
        Command::Move {
            id: 0,
            leader: vec![],
            dis: [vec![], vec![h("1105")]],
        }
    );
}

/// A Dis hex typed in set-up and never sent stays in set-up: the move
/// form's paths are fields of their own.
#[test]
fn a_hex_typed_in_set_up_never_becomes_a_path() {
    let mut g = game();
    let values = screen::form(&[(CountersField::Dis2, &["2423"])]);
    french(&mut g);
    let place = screen::form(&[
        (CountersField::Leader, &["1005"]),
        (CountersField::Dis1, &["1004"]),
        (CountersField::Dis2, &["1006"]),
        (CountersField::Real, &["false"]),
    ]);
    let command = answer(&g, Side::South, &reply(CountersAct::Place, &place)).unwrap();
    g.apply(command).unwrap();
    g.apply(Command::Begin { first: Side::South }).unwrap();
    let screen = counters(&g, &g.view(Side::South), Side::South, &values);
    let json = serde_json::to_string(&screen).unwrap();
    assert!(json.contains("Second Dis path"), "{json}");
    assert!(!json.contains("2423"), "{json}");
}

/// Every hex clicked so far is drawn on the map before anything is
/// sent: the preview of a placement or a traced path.
#[test]
fn the_hexes_clicked_are_shown_before_they_are_sent() {
    let g = game();
    let mut values = Form::new();
    let seen = g.view(Side::South);
    assert!(
        board(&g, &seen, Some(Side::South), Some(&values))
            .highlight
            .is_empty()
    );
    for hex in ["1005", "1004"] {
        clicked(&g, &mut values, Hex::parse(hex).unwrap());
    }
    let shown: Vec<String> = board(&g, &seen, Some(Side::South), Some(&values))
        .highlight
        .iter()
        .map(|h| h.to_string())
        .collect();
    assert_eq!(shown, ["1005", "1004"]);
}

/// Fritz places a real Wing from his screen (map clicks fill the three
/// hexes); Charles's screen, serialised, names none of its units.
#[test]
fn a_wing_placed_from_the_screen_is_sealed_from_the_other_screen() {
    let mut g = game();
    let mut values = Form::new();
    for hex in ["1005", "1004", "1006"] {
        clicked(&g, &mut values, Hex::parse(hex).unwrap());
    }
    let units: Vec<String> = example_armies().south[..2]
        .iter()
        .map(|u| u.id.clone())
        .collect();
    values.insert(CountersField::Units, units.clone());
    let command = answer(&g, Side::South, &reply(CountersAct::Place, &values)).unwrap();
    g.apply(command).unwrap();
    let json = serde_json::to_string(&counters(
        &g,
        &g.view(Side::North),
        Side::North,
        &Form::new(),
    ))
    .unwrap();
    for unit in &example_armies().south[..2] {
        assert!(
            !json.contains(&unit.name),
            "{} on Charles's screen",
            unit.name
        );
    }
    let own = serde_json::to_string(&counters(
        &g,
        &g.view(Side::South),
        Side::South,
        &Form::new(),
    ))
    .unwrap();
    assert!(own.contains(&example_armies().south[0].name));
}

/// A half-filled or forged form is refused in words; a rating typed as
/// 12 is named on the screen before it is sent.
#[test]
fn a_bad_form_is_refused_in_words() {
    let g = game();
    let mut values = Form::new();
    values.insert(CountersField::Rating, vec!["12".into()]);
    let e = answer(&g, Side::South, &reply(CountersAct::Place, &values)).unwrap_err();
    assert!(e.message.contains("0 to 9"), "{e}");
    let screen =
        serde_json::to_string(&counters(&g, &g.view(Side::South), Side::South, &values)).unwrap();
    assert!(screen.contains("not \\\"12\\\""), "{screen}");
    values.insert(CountersField::Rating, vec!["3".into()]);
    let e = answer(&g, Side::South, &reply(CountersAct::Place, &values)).unwrap_err();
    assert!(e.message.contains("one hex for the leader"), "{e}");
    let e = answer(&g, Side::South, &reply(CountersAct::Move, &values)).unwrap_err();
    assert!(e.message.contains("choose the counter"), "{e}");
    // An action the screen has not, or Fritz's phone sending a command
    // of its own for Charles's side: not an answer of this screen.
    assert!(screen::read::<Reply>(r#"{"command":"teleport"}"#).is_err());
    let e = screen::read::<Reply>(r#"{"command":{"cmd":"end_turn"}}"#).unwrap_err();
    assert!(e.starts_with("command"), "{e}");
}
