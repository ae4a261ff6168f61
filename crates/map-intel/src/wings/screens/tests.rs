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

/// A random legal set-up of Rossbach with the example armies: each side's
/// units in Wings of one to four by `picks` (each: the Wing's size, its
/// leader's hex among the map's, whether it goes beside the last one's,
/// and its Dis counters' hexes among the leader's neighbours), then
/// South's dummies the same way; whatever the rules refuse is left out.
/// Begun.
fn random_set_up(picks: &[(usize, usize, bool, usize)]) -> Game {
    use crate::wings::events::Composition;
    use crate::wings::formation::Formation;
    use crate::wings::scenario::Type;
    let mut g = game();
    let map = g.setup().battle.map.clone();
    let hexes: Vec<Hex> = map.hexes().collect();
    let mut picks = picks.iter().cycle();
    let mut last = hexes[hexes.len() / 2];
    for side in Side::BOTH {
        let units = g.setup().armies[side].clone();
        let mut wings: Vec<(Type, Composition)> = Vec::new();
        let mut rest = units.as_slice();
        while !rest.is_empty() {
            let (size, ..) = picks.next().expect("cycled");
            let (wing, after) = rest.split_at((1 + size % 4).min(rest.len()));
            rest = after;
            let composition = Composition {
                real: true,
                units: wing.iter().map(|u| u.id.clone()).collect(),
                rating: 3,
                formation: Formation::Deployed,
                detached: Vec::new(),
            };
            wings.push((Type::Inf, composition));
        }
        for kind in [Type::Inf, Type::Cav, Type::Inf, Type::Cav] {
            wings.push((kind, Composition::dummy(Formation::InColumn)));
        }
        for (kind, composition) in wings {
            let &(_, at, beside, dis) = picks.next().expect("cycled");
            let leader = if beside {
                let near: Vec<Hex> = hexes
                    .iter()
                    .copied()
                    .filter(|h| map.distance(*h, last) == 2)
                    .collect();
                near[at % near.len()]
            } else {
                hexes[at % hexes.len()]
            };
            let around: Vec<Hex> = hexes
                .iter()
                .copied()
                .filter(|h| map.distance(*h, leader) == 1)
                .collect();
            let placed = g.apply(Command::PlaceWing {
                side,
                kind,
                detachment: false,
                leader,
                dis: [around[dis % around.len()], around[(dis / 7) % around.len()]],
                composition,
            });
            if placed.is_ok() {
                last = leader;
            }
        }
    }
    g.apply(Command::Begin { first: Side::South }).unwrap();
    g
}

/// The labels of `board` laid at `radius`, as the laptop lays them (a
/// label's width: Hack's advance, 0.602 of its size a character): every
/// hex's counters named, inside it or beside it, never a dot; no label
/// meets another hex's or covers another crowded hex's centre; each read
/// at `callout_px` or more.
fn labels_read(board: &HexBoard, radius: f64, label: &str) -> usize {
    use muster_core::mapview::How;
    let rules = &board.rules;
    let map = &board.map;
    let counters: Vec<(Hex, [f64; 2], &str)> = board
        .counters
        .iter()
        .map(|c| {
            let (x, y) = map.centre(c.hex);
            (c.hex, [x * radius, y * radius], c.text.as_str())
        })
        .collect();
    let measure = |text: &str| text.chars().count() as f64 * 1233.0 / 2048.0;
    let laid = rules.lay(map.orientation, radius, &counters, &measure);
    let mut boxes: Vec<(usize, [f64; 4])> = Vec::new();
    let mut beside = 0;
    for (k, l) in laid.iter().enumerate() {
        match &l.how {
            How::Dot => panic!("{label} at {radius}: a dot in {}", counters[l.shown[0]].0),
            How::Inside(stack) => {
                assert!(stack.px >= rules.callout_px, "{label}: {stack:?}");
                boxes.extend(stack.boxes(l.centre).into_iter().map(|b| (k, b)));
            }
            How::Beside(tokens) => {
                beside += 1;
                assert_eq!(tokens.len(), l.shown.len(), "{label}");
                boxes.extend(tokens.iter().map(|t| (k, *t)));
            }
        }
    }
    let meet = |a: &[f64; 4], b: &[f64; 4]| {
        a[0] < b[2] - 1e-6 && b[0] < a[2] - 1e-6 && a[1] < b[3] - 1e-6 && b[1] < a[3] - 1e-6
    };
    for (i, (a, p)) in boxes.iter().enumerate() {
        for (b, q) in &boxes[i + 1..] {
            assert!(
                a == b || !meet(p, q),
                "{label} at {radius}: {:?} {p:?} meets {:?} {q:?}",
                laid[*a].shown,
                laid[*b].shown
            );
        }
        for (k, l) in laid.iter().enumerate() {
            let [x, y] = l.centre;
            let covered = p[0] < x && x < p[2] && p[1] < y && y < p[3];
            assert!(
                k == *a || !matches!(l.how, How::Beside(_)) || !covered,
                "{label} at {radius}: {p:?} covers the centre of {}",
                counters[l.shown[0]].0
            );
        }
    }
    beside
}

// A player test: at the whole map every counter of the Rossbach map shrank
// to a dot. Random legal set-ups, the table's map and each player's own,
// at every zoom from the whole map in a 1280 x 720 window's pane to the
// first view's: every counter named, none covering another.
proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 24,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]
    #[test]
    fn every_counter_is_named_at_every_zoom_of_random_set_ups(
        picks in proptest::collection::vec(
            (0usize..4, 0usize..10_000, proptest::bool::weighted(0.6), 0usize..42),
            4..=12,
        )
    ) {
        let g = random_set_up(&picks);
        let placed = g.public().counters.len();
        proptest::prop_assert!(placed >= 6, "{placed} leaders placed");
        let boards = [
            ("the table", board(&g, &g.table_view(), None, None)),
            ("South's", board(&g, &g.view(Side::South), Some(Side::South), None)),
            ("North's", board(&g, &g.view(Side::North), Some(Side::North), None)),
        ];
        let mut beside = 0;
        for (name, board) in &boards {
            let rules = &board.rules;
            let (mut radius, _) = rules.limits(&board.map, (712.0, 480.0));
            while radius <= rules.readable_radius {
                beside += labels_read(board, radius, name);
                radius *= 1.25;
            }
        }
        proptest::prop_assert!(beside > 0, "no name was drawn beside its hex");
    }
}
