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
                text: "Your face-up counters that may go face down again (A3, A5)".into(),
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
        // Every marker keeps its button, one placed greyed: the others do
        // not slide under the finger as markers go on the map.
        for marker in own.iter().filter(|m| matches!(m.kind, Kind::Exercitus(_))) {
            if let Kind::Exercitus(number) = marker.kind {
                let mut place = Action::new(
                    format!("Place Exercitus {number}"),
                    LedgerAct::PlaceExercitus { number },
                )
                .hint("Set-up: an Exercitus goes on the map with the ticked units, or with none (a bluff)");
                if let Some(hex) = marker.hex {
                    place.refused = Some(format!(
                        "Exercitus {number} is on the map already, in {hex}"
                    ));
                }
                actions.push(place);
            }
        }
    }
    // Regrouping is his own turn's (A3-A5): greyed in the other's, with
    // why, where his finger is rather than at the top of the ledger.
    if let Some(active) = view.active.filter(|a| *a != side) {
        let why = format!(
            "It is {} turn: {name} regroups in their own",
            muster_core::text::possessive(&game.setup().name(active))
        );
        for action in &mut actions {
            action.refused = Some(why.clone());
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
mod tests;
