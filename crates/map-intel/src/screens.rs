//! A player's ledger (RULES-map-intel 0, A1, A3-A5) as a private screen:
//! what each of his counters and holding areas holds, and the regrouping
//! of units between them (to another of his counters, to a new force in a
//! hex, or in set-up to an Exercitus placed with 0 or more units, a bluff
//! when none). Built from his own view only; `answer` turns what he sent
//! back into a command, which the rules then check like any other.

use super::describe::{marker, place, units};
use super::events::{Area, Kind, noun};
use super::game::{Command, Game, Target};
use super::scenario::Status;
use super::view::{SeenHolder, View};
use muster_core::error::RuleError;
use muster_core::hexmap::Hex;
use muster_core::screen::{self, Block, Choice, Counter, Drag, HexBoard, Input, first};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};

/// What a button of a ledger answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LedgerAct {
    /// The move his last drag proposes.
    MapMove,
    /// His drag began beside the tokens of a stack of his: this counter of
    /// it is the one that goes.
    StackMove { id: usize },
    /// One of his revealed counters goes face down again (A3).
    TurnDown { id: usize },
    /// The ticked units regroup (A3-A5).
    Move,
    /// Set-up: an Exercitus marker placed, with the ticked units or none.
    PlaceExercitus { number: u8 },
}

/// The fields of a ledger's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LedgerField {
    /// Where the units come from: a counter or holding area, by its id.
    From,
    /// The units ticked, by id.
    Units,
    /// Where they go: a counter's id, or "new" for a new force.
    To,
    /// The hex of a new force or an Exercitus.
    Hex,
    /// The counters his last drag may move (one, or a stack's when it
    /// began on no token of theirs), then the hex it goes to.
    Drag,
}

/// A ledger, as its player's screen.
pub type Screen = screen::Screen<LedgerAct, LedgerField>;
/// What he entered in its form.
pub type Form = screen::Form<LedgerField>;
/// An answer to it.
pub type Reply = screen::Reply<LedgerAct, LedgerField>;
type Action = screen::Action<LedgerAct>;
type Field = screen::Field<LedgerField>;

fn short(h: &SeenHolder) -> String {
    noun(h.kind, h.id)
}

/// The move his last drag proposes, if it is his to make now: the
/// counters of his it may move (one, or a stack's to choose from), all in
/// one hex on the map, and the hex they would go to.
fn drag<'v>(view: &'v View, side: Side, values: &Form) -> Option<(Vec<&'v SeenHolder>, Hex)> {
    let (to, ids) = values.get(&LedgerField::Drag)?.split_last()?;
    let to = Hex::parse(to).ok()?;
    let which: Option<Vec<&SeenHolder>> = ids
        .iter()
        .map(|id| {
            view.holders
                .iter()
                .find(|h| h.id.to_string() == *id && h.side == side && h.hex.is_some())
        })
        .collect();
    let which = which?;
    let from = which.first()?.hex;
    let fine = view.active == Some(side) && from != Some(to) && which.iter().all(|h| h.hex == from);
    fine.then_some((which, to))
}

/// One of `side`'s counters dragged on his map: the move to the path's last
/// hex is proposed on his ledger, of the counter whose token the drag began
/// on, or of the only one of his in the hex; from a stack of his begun on
/// no token, he is asked which goes. False out of his turn, or when none of
/// his counters stood there.
pub fn dragged(game: &Game, side: Side, values: &mut Form, drag: &Drag) -> bool {
    let view = game.view(side);
    let Some(to) = drag.path.last().copied().filter(|to| *to != drag.from) else {
        return false;
    };
    let here: Vec<usize> = view
        .holders
        .iter()
        .filter(|h| h.side == side && h.hex == Some(drag.from))
        .map(|h| h.id)
        .collect();
    if here.is_empty() || view.active != Some(side) {
        return false;
    }
    let which = match drag.counter.filter(|c| here.contains(c)) {
        Some(id) => vec![id],
        None => here,
    };
    let mut value: Vec<String> = which.iter().map(ToString::to_string).collect();
    value.push(to.to_string());
    values.insert(LedgerField::Drag, value);
    true
}

/// What a ledger's heading asks of him in set-up, in his turn and in the
/// other's.
const TURNS: [&str; 3] = [
    "put your forces on the map and place your Exercitus markers",
    "move at the table or drag on the map below; regroup here",
    "your counters wait for yours",
];

/// `side`'s ledger from his own `view` (`Game::view`), with the
/// regrouping form as `values` has it.
pub fn ledger(game: &Game, view: &View, side: Side, values: &Form) -> Screen {
    let name = game.setup().name(side);
    let own: Vec<&SeenHolder> = view.holders.iter().filter(|h| h.side == side).collect();
    // Where the game is and what is asked of him, first.
    let mut blocks = vec![
        crate::seat::whose_turn(
            view.active,
            view.turn,
            side,
            |s| game.setup().name(s),
            TURNS,
        ),
        Block::Text {
            text: format!(
                "Only {name} looks: what each of their counters and holding areas holds."
            ),
        },
    ];
    for h in &own {
        let held = h
            .units
            .as_deref()
            .map_or("locked".into(), |u| units(game.setup(), u));
        blocks.push(Block::Item {
            title: format!("{}, {}", short(h), place(h)),
            text: held,
            actions: Vec::new(),
            badge: None,
        });
    }
    // What his Agents found (A2a): enemy counters still face down whose
    // contents he examined, on his own screen only.
    for h in view
        .holders
        .iter()
        .filter(|h| h.side != side && !h.face_up && h.units.is_some())
    {
        blocks.push(Block::Item {
            title: format!(
                "{} {}, {} (examined by your Agent)",
                game.setup().name(h.side),
                short(h),
                place(h)
            ),
            text: h
                .units
                .as_deref()
                .map_or(String::new(), |u| units(game.setup(), u)),
            actions: Vec::new(),
            badge: Some("examined".into()),
        });
    }
    // A counter he dragged on his map: the move named, sent only once he
    // says so (a drag that went astray moves nothing); asked right under
    // whose turn it is, so his phone shows it by the map.
    if let Some((which, to)) = drag(view, side, values) {
        let from = which[0].hex.map_or(String::new(), |x| x.to_string());
        let hint = "Both players see the move; a reveal it causes cannot be taken back";
        let (text, actions) = match which.as_slice() {
            [h] => (
                format!("Move {} from {from} to {to}?", short(h)),
                vec![
                    Action::new(format!("Move {} to {to}", short(h)), LedgerAct::MapMove)
                        .hint(hint),
                ],
            ),
            _ => (
                format!("Several of your counters stand in {from}: which goes to {to}?"),
                which
                    .iter()
                    .map(|h| {
                        Action::new(
                            format!("Move {} to {to}", short(h)),
                            LedgerAct::StackMove { id: h.id },
                        )
                        .hint(hint)
                    })
                    .collect(),
            ),
        };
        blocks.insert(1, Block::Strong { text });
        blocks.insert(2, Block::Actions { actions });
    }
    // From the start of his turn: his revealed counters may go face down
    // again (A3), from his ledger as from the table.
    if view.viewer == Some(side) {
        let down: Vec<Action> = view
            .may_turn_down(&game.setup().scenario, side)
            .into_iter()
            .map(|h| {
                Action::new(
                    format!("Turn {} face down", short(h)),
                    LedgerAct::TurnDown { id: h.id },
                )
            })
            .collect();
        if !down.is_empty() {
            blocks.push(Block::Strong {
                text: "Start of your turn: revealed counters may go face down again (A3)".into(),
            });
            blocks.push(Block::Actions { actions: down });
        }
    }
    blocks.push(Block::Strong {
        text: "Regroup units (A3-A5)".into(),
    });
    let from =
        first(values, LedgerField::From).and_then(|id| own.iter().find(|h| h.id.to_string() == id));
    let mut fields = vec![Field {
        name: LedgerField::From,
        label: "From:".into(),
        input: Input::Choice {
            options: own
                .iter()
                .filter(|h| {
                    h.kind == Kind::Area(Area::OffMap)
                        || h.units.as_ref().is_some_and(|u| !u.is_empty())
                })
                .map(|h| Choice {
                    value: h.id.to_string(),
                    label: short(h),
                })
                .collect(),
            many: false,
            selected: from.map(|h| vec![h.id.to_string()]).unwrap_or_default(),
            resets: vec![LedgerField::Units],
        },
    }];
    let Some(from) = from else {
        blocks.push(Block::Form {
            fields,
            actions: Vec::new(),
        });
        // The map he moves on, before he picks what to regroup.
        blocks.push(Block::HexMap {
            board: Box::new(board(game, view, values)),
        });
        return Screen {
            title: format!("{} ledger", muster_core::text::possessive(&name)),
            blocks,
        };
    };
    let army = &game.setup().scenario.sides[side];
    fields.push(Field {
        name: LedgerField::Units,
        label: String::new(),
        input: Input::Choice {
            options: from
                .units
                .as_deref()
                .unwrap_or_default()
                .iter()
                .filter_map(|id| army.unit(id))
                .map(|unit| {
                    let status = match unit.status {
                        Status::Regular => String::new(),
                        Status::Civis => ", Civis".into(),
                        Status::Client => ", Client".into(),
                    };
                    Choice {
                        value: unit.id.clone(),
                        label: format!("{} ({}{status})", unit.name, unit.kind),
                    }
                })
                .collect(),
            many: true,
            selected: values.get(&LedgerField::Units).cloned().unwrap_or_default(),
            resets: Vec::new(),
        },
    });
    // Only where the rules let the units go (map-intel 0, A4): within one
    // hex on the map, never an Exercitus off it (issue 25).
    let may_take = |h: &SeenHolder| {
        let exercitus_off = matches!(h.kind, Kind::Exercitus(_)) && h.hex.is_none();
        let elsewhere = from.hex.is_some() && h.hex.is_some() && from.hex != h.hex;
        h.id != from.id && !exercitus_off && !elsewhere
    };
    let mut to: Vec<Choice> = own
        .iter()
        .filter(|h| may_take(h))
        .map(|h| Choice {
            value: h.id.to_string(),
            label: format!("into {}", short(h)),
        })
        .collect();
    to.push(Choice {
        value: "new".into(),
        label: "into a new force".into(),
    });
    fields.push(Field {
        name: LedgerField::To,
        label: "To:".into(),
        input: Input::Choice {
            options: to,
            many: false,
            selected: vec![first(values, LedgerField::To).unwrap_or("new").to_string()],
            resets: Vec::new(),
        },
    });
    let typed = first(values, LedgerField::Hex).unwrap_or_default();
    fields.push(Field {
        name: LedgerField::Hex,
        label: "Hex for a new force or an Exercitus".into(),
        input: Input::Text {
            hint: "click the map".into(),
            value: typed.to_string(),
            problem: (!typed.is_empty())
                .then(|| game.setup().scenario.map.hex(typed).err())
                .flatten()
                .map(|e| e.message),
        },
    });
    let mut actions = vec![Action::new("Move the ticked units", LedgerAct::Move)];
    if view.active.is_none() && from.kind == Kind::Area(Area::OffMap) {
        for marker in own
            .iter()
            .filter(|m| matches!(m.kind, Kind::Exercitus(_)) && m.hex.is_none())
        {
            if let Kind::Exercitus(number) = marker.kind {
                actions.push(
                    Action::new(
                        format!("Place Exercitus {number}"),
                        LedgerAct::PlaceExercitus { number },
                    )
                    .hint("Set-up: an Exercitus goes on the map with the ticked units, or with none (a bluff)"),
                );
            }
        }
    }
    blocks.push(Block::Form { fields, actions });
    blocks.push(Block::HexMap {
        board: Box::new(board(game, view, values)),
    });
    Screen {
        title: format!("{} ledger", muster_core::text::possessive(&name)),
        blocks,
    }
}

/// The map as `view`'s viewer sees it: every counter on it ("?" for the
/// other side's face-down ones), and the hex the form holds; a click puts
/// a hex in the form.
pub fn board(game: &Game, view: &View, values: &Form) -> HexBoard {
    let map = &game.setup().scenario.map;
    HexBoard::new(
        map.clone(),
        view.holders
            .iter()
            .filter_map(|h| {
                Some(Counter {
                    id: h.id,
                    side: h.side,
                    hex: h.hex?,
                    text: marker(h),
                    face_up: h.face_up,
                })
            })
            .collect(),
        first(values, LedgerField::Hex)
            .and_then(|hex| map.hex(hex).ok())
            .into_iter()
            .collect(),
        Some("Click a hex for a new force or an Exercitus".into()),
        view.viewer,
    )
}

/// The command `side` sent from his ledger: a regrouping or an Exercitus
/// placed from the form, always as `side`. Nothing else is taken: a reply
/// is never a command as it is, which could act for the other player.
pub fn answer(game: &Game, side: Side, reply: &Reply) -> Result<Command, RuleError> {
    let wrong = |what: &str| RuleError::new("map-intel 0", format!("The ledger's form: {what}"));
    let values = &reply.values;
    let units = values.get(&LedgerField::Units).cloned().unwrap_or_default();
    let hex = || {
        game.setup()
            .scenario
            .map
            .hex(first(values, LedgerField::Hex).unwrap_or_default())
    };
    let from = || {
        first(values, LedgerField::From)
            .and_then(|id| id.parse::<usize>().ok())
            .ok_or_else(|| wrong("choose where the units come from"))
    };
    match reply.command {
        LedgerAct::Move => {
            let from = from()?;
            let to = match first(values, LedgerField::To).unwrap_or("new") {
                "new" => Target::NewForce(hex()?),
                id => Target::Counter(id.parse().map_err(|_| wrong("\"to\" is no counter"))?),
            };
            Ok(Command::Transfer {
                side,
                from,
                to,
                units,
            })
        }
        LedgerAct::PlaceExercitus { number } => Ok(Command::PlaceExercitus {
            side,
            number,
            hex: hex()?,
            units,
        }),
        LedgerAct::MapMove | LedgerAct::StackMove { .. } => {
            let view = game.view(side);
            let (which, to) =
                drag(&view, side, values).ok_or_else(|| wrong("drag a counter first"))?;
            let chosen = match (reply.command.clone(), which.as_slice()) {
                (LedgerAct::MapMove, [h]) => Some(h.id),
                (LedgerAct::StackMove { id }, _) => which.iter().find(|h| h.id == id).map(|h| h.id),
                _ => None,
            };
            let id = chosen.ok_or_else(|| wrong("choose which of the stack's counters goes"))?;
            Ok(Command::Move { id, to })
        }
        // Only one of his own counters that may go face down now.
        LedgerAct::TurnDown { id } => {
            let view = game.view(side);
            view.may_turn_down(&game.setup().scenario, side)
                .into_iter()
                .find(|h| h.id == id)
                .map(|h| Command::TurnDown { id: h.id })
                .ok_or_else(|| wrong("that counter may not go face down now"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_core::screen::form;

    fn form_block(screen: &Screen) -> Option<&Block<LedgerAct, LedgerField>> {
        screen
            .blocks
            .iter()
            .find(|b| matches!(b, Block::Form { .. }))
    }
    use crate::tests::{deploy, game};

    /// The attack: Bob's ledger, serialised as it would go to his phone, is
    /// searched for Ann's face-down units. None is in it to find.
    #[test]
    fn a_ledger_holds_nothing_of_the_other_sides_face_down_units() {
        let mut g = game();
        deploy(&mut g, Side::South, "0505", &["r-leg-3"]);
        let json =
            serde_json::to_string(&ledger(&g, &g.view(Side::North), Side::North, &Form::new()))
                .unwrap();
        let south = &g.setup().scenario.sides[Side::South];
        for unit in &south.units {
            assert!(!json.contains(&unit.id), "{} in Bob's ledger", unit.id);
            assert!(!json.contains(&unit.name), "{} in Bob's ledger", unit.name);
        }
        let own =
            serde_json::to_string(&ledger(&g, &g.view(Side::South), Side::South, &Form::new()))
                .unwrap();
        assert!(own.contains(&south.unit("r-leg-3").unwrap().name));
    }

    /// From the start of his next turn Ann's revealed legions may go face
    /// down again from her ledger (A3): offered there, taken when sent;
    /// a counter not hers, or not yet allowed, is refused.
    #[test]
    fn a_revealed_force_is_turned_face_down_from_its_owners_ledger() {
        let (mut g, legions, _) = crate::tests::contact_position();
        g.apply(Command::Reveal { id: legions }).unwrap();
        let turn_down = LedgerAct::TurnDown { id: legions };
        let offered = |g: &Game| {
            ledger(g, &g.view(Side::South), Side::South, &Form::new()).offers(&turn_down)
        };
        assert!(!offered(&g), "not in the turn it was revealed");
        let as_reply = Reply {
            command: turn_down.clone(),
            values: Form::new(),
        };
        assert!(answer(&g, Side::South, &as_reply).is_err());
        g.apply(Command::EndTurn).unwrap();
        g.apply(Command::EndTurn).unwrap();
        assert!(offered(&g));
        assert!(answer(&g, Side::North, &as_reply).is_err(), "not Bob's");
        let command = answer(&g, Side::South, &as_reply).unwrap();
        assert_eq!(command, Command::TurnDown { id: legions });
        g.apply(command).unwrap();
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
        g.apply(command).unwrap();
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
        g.apply(Command::Move {
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
        g.apply(Command::SpendAgent {
            by: Side::South,
            id: off,
        })
        .unwrap();
        let cataphract = g.setup().scenario.sides[Side::North]
            .unit("p-cat-2")
            .unwrap()
            .name
            .clone();
        let ann =
            serde_json::to_string(&ledger(&g, &g.view(Side::South), Side::South, &Form::new()))
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
        g.apply(Command::Transfer {
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
        g.apply(command).unwrap();
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
}
