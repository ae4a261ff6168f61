//! One player's own counters (RULES-map-intel B2-B4, B9) as a private
//! screen: what each leader counter stands for and how far it may still
//! move this turn; in set-up, a new real Wing (units, command rating,
//! formation, detachments) or dummy with its two Dis counters; in his turn,
//! a move along traced paths or a voluntary deployment. Built from his own
//! view only; `answer` turns what he sent into a command for the rules
//! (in its own module, with the map's clicks).

use super::formation::Formation;
use super::game::{Composition, Game, Seen};
use super::scenario::Type;
use crate::map::{Hex, HexMap};
use muster_core::error::RuleError;
use muster_core::screen::{self, Block, Choice, Counter, HexBoard, Input, first};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};

/// What a button of a player's counters screen answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CountersAct {
    /// Set-up: a new counter placed as the form describes it.
    Place,
    /// The counter chosen moves along its traced paths.
    Move,
    /// The counter chosen deploys now (27.4).
    Deploy,
}

/// The fields of a player's counters screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CountersField {
    /// Set-up: the leader's hex, then each Dis counter's.
    Leader,
    Dis1,
    Dis2,
    /// In play: each piece's path, fields of their own.
    LeaderPath,
    Dis1Path,
    Dis2Path,
    /// Which of the three the next map click goes to.
    Next,
    /// The counter that moves.
    Moving,
    /// A drag from several of his pieces begun on none of their tokens:
    /// the hex it began in, then its path (`drag`).
    Dragged,
    /// Which piece that drag moved, by its id on the board.
    Piece,
    Kind,
    Real,
    Detachment,
    Formation,
    Rating,
    Units,
    Detached,
}

impl CountersField {
    /// The piece a hex or path field is for, in words.
    fn piece(self) -> &'static str {
        match self {
            CountersField::Leader | CountersField::LeaderPath => "leader",
            CountersField::Dis1 | CountersField::Dis1Path => "first Dis counter",
            CountersField::Dis2 | CountersField::Dis2Path => "second Dis counter",
            _ => "counter",
        }
    }
}

/// A player's counters, as his screen.
pub type Screen = screen::Screen<CountersAct, CountersField>;
/// What he entered in its form.
pub type Form = screen::Form<CountersField>;
/// An answer to it.
pub type Reply = screen::Reply<CountersAct, CountersField>;
type Action = screen::Action<CountersAct>;
type Field = screen::Field<CountersField>;

const TYPES: [Type; 3] = [Type::Inf, Type::Cav, Type::InfCav];
const FORMATIONS: [(Formation, &str); 2] = [
    (Formation::Deployed, "Deployed"),
    (Formation::InColumn, "In column (IC)"),
];
/// The three hex fields: the leader's, then each Dis counter's.
pub const HEX_FIELDS: [CountersField; 3] = [
    CountersField::Leader,
    CountersField::Dis1,
    CountersField::Dis2,
];
/// The paths' fields in play: fields of their own, so nothing typed in
/// set-up carries into a move (a Dis hex left from set-up became a path).
pub const PATH_FIELDS: [CountersField; 3] = [
    CountersField::LeaderPath,
    CountersField::Dis1Path,
    CountersField::Dis2Path,
];

/// The fields the map's hexes go to now.
fn hex_fields(game: &Game) -> [CountersField; 3] {
    if tracing(game) {
        PATH_FIELDS
    } else {
        HEX_FIELDS
    }
}

/// A yes-or-no tick: its value is "yes" when ticked.
fn ticked(values: &Form, name: CountersField, default: bool) -> bool {
    values
        .get(&name)
        .map_or(default, |v| v.iter().any(|x| x == "yes"))
}

fn tick(name: CountersField, label: &str, on: bool) -> Field {
    Field {
        name,
        label: String::new(),
        input: Input::Choice {
            options: vec![Choice {
                value: "yes".into(),
                label: label.into(),
            }],
            many: true,
            selected: if on { vec!["yes".into()] } else { Vec::new() },
            resets: Vec::new(),
        },
    }
}

fn one_of(name: CountersField, label: &str, options: Vec<Choice>, selected: &str) -> Field {
    Field {
        name,
        label: label.into(),
        input: Input::Choice {
            options,
            many: false,
            selected: vec![selected.into()],
            resets: Vec::new(),
        },
    }
}

fn choice(value: impl Into<String>, label: impl Into<String>) -> Choice {
    Choice {
        value: value.into(),
        label: label.into(),
    }
}

fn kind(values: &Form) -> Type {
    first(values, CountersField::Kind)
        .and_then(|k| TYPES.into_iter().find(|t| t.name() == k))
        .unwrap_or(Type::Inf)
}

fn formation(values: &Form) -> Formation {
    first(values, CountersField::Formation)
        .and_then(|f| FORMATIONS.into_iter().find(|(_, l)| *l == f))
        .map_or(Formation::Deployed, |(f, _)| f)
}

/// What a counter stands for, in words.
fn describe(game: &Game, side: Side, c: &Composition) -> String {
    if !c.real {
        return format!("dummy, {}", c.formation.name());
    }
    let names: Vec<&str> = c
        .units
        .iter()
        .filter_map(|id| game.setup().armies[side].iter().find(|u| &u.id == id))
        .map(|u| u.name.as_str())
        .collect();
    format!(
        "real Wing, rating {}, {}: {}",
        c.rating,
        c.formation.name(),
        names.join(", ")
    )
}

/// Whether map clicks add to paths (in play) or fill hexes (set-up).
pub fn tracing(game: &Game) -> bool {
    game.public().active.is_some()
}

/// What a counters screen's heading asks of him in set-up, in his turn
/// and in the other's.
const TURNS: [&str; 3] = [
    "place your leader and dummy counters, each with its two Dis counters",
    "move your counters, each along its path",
    "nothing to move until yours",
];

/// `side`'s counters from his own view (`Game::view`), with the set-up or
/// move form as `values` has it.
pub fn counters(game: &Game, seen: &[Seen], side: Side, values: &Form) -> Screen {
    let values = &super::drag::settled(game, side, values);
    let name = game.setup().name(side);
    let own: Vec<&Seen> = seen.iter().filter(|s| s.side == side).collect();
    // Where the game is and what is asked of him, first.
    let public = game.public();
    let mut blocks = vec![
        crate::seat::whose_turn(
            public.active,
            public.turn,
            side,
            |s| game.setup().name(s),
            TURNS,
        ),
        Block::Text {
            text: format!("Only {name} looks."),
        },
    ];
    // A drag from a stack of his: which piece it was, asked first, by the
    // map on his phone.
    if let Some((text, field)) = super::drag::question(game, side, values) {
        blocks.push(Block::Strong { text });
        blocks.push(Block::Form {
            fields: vec![field],
            actions: Vec::new(),
        });
    }
    for s in &own {
        let what = s
            .composition
            .as_ref()
            .map_or("locked".into(), |c| describe(game, side, c));
        let left = s.allowance.map_or(String::new(), |a| {
            format!(
                "; may still move {}",
                muster_core::text::count(a, "hex", "hexes")
            )
        });
        let dis: Vec<String> = s.dis.iter().map(|d| d.to_string()).collect();
        // A counter with no Dis on the map says nothing of them.
        let dis = match dis.as_slice() {
            [] => String::new(),
            [one] => format!(" (Dis counter in {one})"),
            more => format!(" (Dis counters in {})", more.join(" and ")),
        };
        blocks.push(Block::Item {
            title: format!("{} counter {} in {}{dis}", s.kind.name(), s.id, s.leader),
            text: format!("{what}{left}"),
            actions: Vec::new(),
            badge: None,
        });
    }
    let tracing = tracing(game);
    blocks.push(Block::Text {
        text: if tracing {
            "Trace each counter's path on the map, hex by hex: spotting is checked at every hex entered (B4).".into()
        } else {
            "Click the map: the leader's hex, then the hexes of the two Dis counters.".into()
        },
    });
    let labels = if tracing {
        ["Leader's path", "First Dis path", "Second Dis path"]
    } else {
        ["Leader hex", "First Dis hex", "Second Dis hex"]
    };
    let map = &game.setup().battle.map;
    let mut fields: Vec<Field> = hex_fields(game)
        .iter()
        .zip(labels)
        .map(|(name, label)| {
            let typed = first(values, *name).unwrap_or_default();
            Field {
                name: *name,
                label: label.into(),
                input: Input::Text {
                    hint: String::new(),
                    value: typed.into(),
                    problem: hexes(map, typed).err().filter(|_| !typed.trim().is_empty()),
                },
            }
        })
        .collect();
    if tracing {
        fields.push(one_of(
            CountersField::Next,
            "Map clicks add to:",
            ["the leader's", "the first Dis", "the second Dis"]
                .iter()
                .enumerate()
                .map(|(k, l)| choice(k.to_string(), *l))
                .collect(),
            first(values, CountersField::Next).unwrap_or("0"),
        ));
    }
    let public = game.public();
    // Paths are asked only of a player who has a counter to move now
    // (issue 39: one with nothing left still got the path fields).
    let mut nothing = |text: &str| {
        blocks.push(Block::Text { text: text.into() });
        fields.clear();
        Vec::new()
    };
    let actions = if public.active.is_none() {
        set_up(game, &own, side, values, &mut fields)
    } else if public.active != Some(side) {
        nothing("Not your turn: your counters move in your own turn.")
    } else if public.pending.is_some() {
        nothing("Settle the spotting first: hide your counters and answer it beside the map.")
    } else if !own.is_empty() && own.iter().all(|s| s.deployed.is_some()) {
        nothing(
            "Every counter of yours is placed as units: nothing is left to move. End your turn at the table.",
        )
    } else {
        fields.push(one_of(
            CountersField::Moving,
            "Move a counter (27.1.4):",
            own.iter()
                .filter(|s| s.deployed.is_none())
                .map(|s| choice(s.id.to_string(), format!("Counter {}", s.id)))
                .collect(),
            first(values, CountersField::Moving).unwrap_or_default(),
        ));
        if first(values, CountersField::Moving).is_some() {
            vec![
                Action::new("Move along the paths", CountersAct::Move),
                Action::new("Deploy it now (27.4)", CountersAct::Deploy)
                    .hint("An active unspotted Wing that moved at most half its IC allowance"),
            ]
        } else {
            Vec::new()
        }
    };
    if !(fields.is_empty() && actions.is_empty()) {
        blocks.push(Block::Form { fields, actions });
    }
    blocks.push(Block::HexMap {
        board: Box::new(board(game, seen, Some(side), Some(values))),
    });
    Screen {
        title: format!("{} counters", muster_core::text::possessive(&name)),
        blocks,
    }
}

/// The map as `seen`'s viewer sees it: each leader counter not yet placed
/// as units and its Dis counters; with his form's `values`, the hex its
/// leader goes to, and what a click does.
pub fn board(game: &Game, seen: &[Seen], viewer: Option<Side>, values: Option<&Form>) -> HexBoard {
    let mut counters = Vec::new();
    // A Wing placed as units stays on the map where its leader stood, with
    // its formation (issue 25: it vanished); its Dis counters are gone.
    for s in seen.iter() {
        counters.push(Counter {
            id: s.id,
            side: s.side,
            hex: s.leader,
            text: super::export::marker(s),
            face_up: s.face_up || s.deployed.is_some(),
        });
        if s.deployed.is_some() {
            continue;
        }
        for (k, d) in s.dis.iter().enumerate() {
            counters.push(Counter {
                id: super::drag::board_id(s.id, k + 1),
                side: s.side,
                hex: *d,
                text: format!("d{}", s.id),
                face_up: false,
            });
        }
    }
    let clicks = values.map(|_| {
        if tracing(game) {
            "Click each hex the chosen path enters, in order"
        } else {
            "Click the leader's hex, then the hexes of the two Dis counters"
        }
        .to_string()
    });
    let mut board = HexBoard::new(
        game.setup().battle.map.clone(),
        counters,
        values.map_or(Vec::new(), |v| named_hexes(game, v)),
        clicks,
        viewer,
    );
    board.key = super::export::KEY.map(String::from).to_vec();
    board
        .key
        .push(super::export::placed("the Counters list says"));
    board
}

/// The set-up form's fields, after the hexes: a new counter.
fn set_up(
    game: &Game,
    own: &[&Seen],
    side: Side,
    values: &Form,
    fields: &mut Vec<Field>,
) -> Vec<Action> {
    fields.push(one_of(
        CountersField::Kind,
        "A new leader counter (27.1.1-27.1.2):",
        TYPES.iter().map(|t| choice(t.name(), t.name())).collect(),
        kind(values).name(),
    ));
    let real = ticked(values, CountersField::Real, true);
    fields.push(tick(
        CountersField::Real,
        "A real Wing (untick for a dummy)",
        real,
    ));
    fields.push(tick(
        CountersField::Detachment,
        "A Detachment stack",
        ticked(values, CountersField::Detachment, false),
    ));
    let chosen = formation(values);
    fields.push(one_of(
        CountersField::Formation,
        "Formation:",
        FORMATIONS.iter().map(|(_, l)| choice(*l, *l)).collect(),
        FORMATIONS
            .iter()
            .find(|(f, _)| *f == chosen)
            .map_or("", |(_, l)| l),
    ));
    if real {
        let rating = first(values, CountersField::Rating).unwrap_or("3");
        fields.push(Field {
            name: CountersField::Rating,
            label: "Command rating".into(),
            input: Input::Text {
                hint: "0 to 9".into(),
                value: rating.into(),
                problem: rating_of(rating).err().map(|e| e.message),
            },
        });
        let grouped: Vec<&String> = own
            .iter()
            .filter_map(|s| s.composition.as_ref())
            .flat_map(|c| &c.units)
            .collect();
        let army = &game.setup().armies[side];
        let units = values
            .get(&CountersField::Units)
            .cloned()
            .unwrap_or_default();
        fields.push(Field {
            name: CountersField::Units,
            label: String::new(),
            input: Input::Choice {
                options: army
                    .iter()
                    .filter(|u| !grouped.contains(&&u.id))
                    .map(|u| choice(&u.id, &u.name))
                    .collect(),
                many: true,
                selected: units.clone(),
                resets: Vec::new(),
            },
        });
        if army.iter().any(|u| u.commander && units.contains(&u.id)) {
            fields.push(Field {
                name: CountersField::Detached,
                label: "Detached to the Army Commander (at most 2 infantry/cavalry and 2 artillery, 27.1.1):".into(),
                input: Input::Choice {
                    options: army
                        .iter()
                        .filter(|u| units.contains(&u.id) && !u.commander)
                        .map(|u| choice(&u.id, format!("{} detached", u.name)))
                        .collect(),
                    many: true,
                    selected: values.get(&CountersField::Detached).cloned().unwrap_or_default(),
                    resets: Vec::new(),
                },
            });
        }
    }
    vec![Action::new("Place the counter", CountersAct::Place)]
}

fn rating_of(text: &str) -> Result<u32, RuleError> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|r| *r <= 9)
        .ok_or_else(|| {
            RuleError::new(
                "27.1.1",
                format!("A command rating is 0 to 9, not \"{text}\""),
            )
        })
}

/// Hexes entered in order, separated by spaces or commas, each on the map.
fn hexes(map: &HexMap, text: &str) -> Result<Vec<Hex>, String> {
    text.split([' ', ','])
        .filter(|w| !w.is_empty())
        .map(|w| map.hex(w).map_err(|e| e.message))
        .collect()
}

mod answer;

pub use answer::{answer, clicked, named_hexes};

#[cfg(test)]
mod tests;
