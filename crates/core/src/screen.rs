//! A player's private screen as data: what a system shows one player and
//! what he may answer, described once, so the laptop draws it with egui and
//! a phone's page draws the same description. A screen is computed from
//! what that player may see and nothing else: it is stripped, not hidden,
//! and may be serialised and sent to his device as it is.
//!
//! A screen is typed by the system that makes it: `A`, what its buttons
//! answer (a serde enum of the system's, never a command built by the
//! device), and `F`, the names of its form's fields (a serde enum too). A
//! device sends back one of the actions it was shown and what the fields
//! hold; the seat reads that into the system's own types, so an answer the
//! system does not know fails to compile, and a device's message that is
//! not one is refused naming the field at fault.

use crate::hexmap::{Hex, HexMap};
use crate::side::Side;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Debug;

/// What a system's buttons answer: one of its own serde enums.
pub trait Act: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + 'static {}
impl<T: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + 'static> Act for T {}

/// The names of a system's form fields: a serde enum of its own, each
/// name a string on the wire (a field's key in a form).
pub trait FieldName: Copy + Ord + Debug + Serialize + DeserializeOwned + Send + 'static {}
impl<T: Copy + Ord + Debug + Serialize + DeserializeOwned + Send + 'static> FieldName for T {}

/// What the player has entered in a screen's forms, by field: the values
/// chosen, ticked or typed (a form is text, as on paper; the system reads
/// each value, and says which field is wrong).
pub type Form<F> = BTreeMap<F, Vec<String>>;

/// A form as written by hand: each field with what it holds.
pub fn form<F: FieldName>(pairs: &[(F, &[&str])]) -> Form<F> {
    pairs
        .iter()
        .map(|(k, v)| (*k, v.iter().map(|s| s.to_string()).collect()))
        .collect()
}

/// The first value of a field, if any.
pub fn first<F: FieldName>(form: &Form<F>, field: F) -> Option<&str> {
    form.get(&field)?.first().map(String::as_str)
}

/// A player's answer: the action he chose, with what he entered in the
/// screen's forms (the system turns a form's action into its command,
/// checking each value).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    bound(
        deserialize = "A: Act, F: FieldName",
        serialize = "A: Act, F: FieldName"
    )
)]
pub struct Reply<A, F> {
    pub command: A,
    #[serde(default = "BTreeMap::new")]
    pub values: Form<F>,
}

impl<A, F: FieldName> Reply<A, F> {
    /// A button's answer, with an empty form.
    pub fn button(command: A) -> Reply<A, F> {
        Reply {
            command,
            values: Form::new(),
        }
    }
}

/// Reads a device's message (a reply, a form) into a system's types; why
/// not, naming the field at fault ("command.card: unknown variant").
pub fn read<T: DeserializeOwned>(json: &str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(json);
    serde_path_to_error::deserialize(&mut de).map_err(|e| format!("{}: {}", e.path(), e.inner()))
}

/// One option of a choice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    pub value: String,
    pub label: String,
}

/// How a field is answered. The screen carries what is entered now, so a
/// device that reconnects draws the same form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "input", rename_all = "snake_case", deny_unknown_fields)]
pub enum Input<F> {
    /// One of the options, or (`many`) any number of them, as ticks.
    /// Choosing another empties the fields named in `resets`.
    Choice {
        options: Vec<Choice>,
        #[serde(default)]
        many: bool,
        #[serde(default)]
        selected: Vec<String>,
        #[serde(default = "Vec::new", skip_serializing_if = "Vec::is_empty")]
        resets: Vec<F>,
    },
    /// A line of text (a hex, a name), with what the rules say of what is
    /// typed so far (checked as he types, before he sends it).
    Text {
        #[serde(default)]
        hint: String,
        #[serde(default)]
        value: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        problem: Option<String>,
    },
    /// A secret (a passphrase): never echoed on screen, and never carried
    /// back in the screen once typed; what he types travels only in his
    /// `Reply`. `fill` is what the system itself offers to put in it (a
    /// suggested passphrase, already shown to him), empty otherwise.
    Secret {
        #[serde(default)]
        hint: String,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        fill: String,
    },
}

/// A form's field: its name in the `Form`, its label on screen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field<F> {
    pub name: F,
    pub label: String,
    pub input: Input<F>,
}

/// One private screen: a title and its blocks, top to bottom.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Screen<A, F> {
    pub title: String,
    pub blocks: Vec<Block<A, F>>,
}

/// Something the player can do: a button. A refused one is shown with the
/// rule's reason instead of being left out, so he sees why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action<A> {
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// What the button answers, in the system's own terms.
    pub command: A,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// Asked before it is sent (an act that cannot be taken back): the
    /// question; the laptop and the phone each ask it, and only a second
    /// "yes" sends the command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirm: Option<String>,
}

/// A bar of a chart: its x value and its height.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bar {
    pub x: f64,
    pub y: f64,
}

/// A piece on a table, as its outline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outline {
    pub name: String,
    pub points: Vec<[f64; 2]>,
    /// Its colour, red, green, blue.
    pub fill: [u8; 3],
}

/// What one kind of cell of a grid means, and its colour.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Legend {
    /// The character that stands for it in `CellGrid::cells`.
    pub key: char,
    /// Red, green, blue, alpha.
    pub colour: [u8; 4],
    pub meaning: String,
    /// How its cells are drawn: a pattern, for what must never be taken
    /// for terrain.
    #[serde(default)]
    pub pattern: Pattern,
}

/// How a grid's cells of one meaning are drawn over the terrain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// The colour laid over the cell.
    #[default]
    Tint,
    /// Diagonal lines of the colour.
    Hatch,
    /// A dot of the colour in each cell.
    Dots,
}

/// A colour a table's pieces are drawn in, and what it stands for: the
/// key beside the drawing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Swatch {
    pub fill: [u8; 3],
    pub meaning: String,
}

/// A grid over the table, a verdict per cell (where a marker may hide):
/// `cells` holds one character per cell, row by row from the south edge,
/// each a `Legend` key (a space for a cell left clear).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellGrid {
    /// A cell's side, in the table's unit.
    pub cell: f64,
    pub columns: usize,
    pub rows: usize,
    pub cells: String,
    pub legend: Vec<Legend>,
}

impl CellGrid {
    /// What the cell under `at` means, if anything.
    pub fn at(&self, at: [f64; 2]) -> Option<&Legend> {
        if !(at[0] >= 0.0 && at[1] >= 0.0) {
            return None;
        }
        let (i, j) = ((at[0] / self.cell) as usize, (at[1] / self.cell) as usize);
        if i >= self.columns || j >= self.rows {
            return None;
        }
        let key = self.cells.chars().nth(j * self.columns + i)?;
        self.legend.iter().find(|l| l.key == key)
    }
}

/// A point marked on a table, with its words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mark {
    pub at: [f64; 2],
    pub label: String,
}

/// The point a player picks on a table: the form field it fills (as
/// "x y"), the point picked now, and what the rules say of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pick<A, F> {
    pub field: F,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<[f64; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    #[serde(default)]
    pub legal: bool,
    /// What a second tap on the legal point picked answers (place the
    /// marker there), as the form's button would.
    #[serde(default = "none", skip_serializing_if = "Option::is_none")]
    pub confirm: Option<A>,
}

fn none<A>() -> Option<A> {
    None
}

/// A point as a pick's field holds it ("x y"), if it is one.
pub fn read_point<F: FieldName>(values: &Form<F>, field: F) -> Option<[f64; 2]> {
    let text = values.get(&field)?.first()?;
    let mut parts = text.split_whitespace().map(str::parse::<f64>);
    match (parts.next(), parts.next(), parts.next()) {
        (Some(Ok(x)), Some(Ok(y)), None) if x.is_finite() && y.is_finite() => Some([x, y]),
        _ => None,
    }
}

/// A point as a pick's field holds it.
pub fn write_point(at: [f64; 2]) -> String {
    format!("{} {}", at[0], at[1])
}

/// A picture of the table to scale, in the system's unit (MU for Field of
/// Glory, y from the south edge up), with what the player may pick on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table<A, F> {
    /// Width and depth.
    pub size: [f64; 2],
    pub pieces: Vec<Outline>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<CellGrid>,
    /// What each colour of the pieces stands for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub key: Vec<Swatch>,
    pub marks: Vec<Mark>,
    #[serde(default = "none", skip_serializing_if = "Option::is_none")]
    pub pick: Option<Pick<A, F>>,
    /// Whose screen it is: his own long edge is drawn at the bottom
    /// (North sees the table turned half round).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub viewer: Option<Side>,
}

/// A counter on a hex map, as its viewer may see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counter {
    pub id: usize,
    pub side: Side,
    pub hex: Hex,
    pub text: String,
    /// Face up (framed), or face down.
    pub face_up: bool,
}

/// A drag on a hex map from a hex with counters: the hex, the hexes it
/// entered in order, and the counter whose token it began on (`id` on
/// the board), if it began on one; `None` in a stack means the player is
/// asked which of his counters there goes.
#[derive(Clone, Debug, PartialEq)]
pub struct Drag {
    pub from: Hex,
    pub path: Vec<Hex>,
    pub counter: Option<usize>,
}

/// A numbered hex map with the counters its viewer may see, the hexes
/// highlighted (his choice so far) and, when `clicks` says what a click
/// does, the hexes he picks by clicking: each click goes to the system,
/// which fills his form with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexBoard {
    pub map: HexMap,
    pub counters: Vec<Counter>,
    #[serde(default)]
    pub highlight: Vec<Hex>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clicks: Option<String>,
    /// Whose screen it is: his own counters are marked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub viewer: Option<Side>,
    /// What his first view frames (`mapview::focus`).
    #[serde(default)]
    pub focus: Vec<Hex>,
    /// How every screen draws it (`mapview`).
    #[serde(default)]
    pub rules: crate::mapview::Rules,
    /// What its labels' words and numbers mean, a line each (the map's
    /// key): shown beside the map and over a pointed counter.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub key: Vec<String>,
}

impl HexBoard {
    /// A board of `counters` on `map` for `viewer`, with what his first
    /// view frames and the drawing rules.
    pub fn new(
        map: HexMap,
        counters: Vec<Counter>,
        highlight: Vec<Hex>,
        clicks: Option<String>,
        viewer: Option<Side>,
    ) -> HexBoard {
        let placed: Vec<(Side, Hex)> = counters.iter().map(|c| (c.side, c.hex)).collect();
        let focus = crate::mapview::focus(&placed, &highlight, viewer);
        HexBoard {
            map,
            counters,
            highlight,
            clicks,
            viewer,
            focus,
            rules: crate::mapview::Rules::default(),
            key: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "block", rename_all = "snake_case", deny_unknown_fields)]
pub enum Block<A, F> {
    Heading {
        text: String,
    },
    Text {
        text: String,
    },
    /// Text to read first (a question put to him).
    Strong {
        text: String,
    },
    /// Why what he asked for was refused (a rule, a mistyped value).
    Refusal {
        text: String,
    },
    /// A row of buttons.
    Actions {
        actions: Vec<Action<A>>,
    },
    /// An item with its own actions: a card in a hand, a force in a ledger.
    Item {
        title: String,
        text: String,
        actions: Vec<Action<A>>,
        /// A word to catch their eye ("new": a card he has just drawn).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        badge: Option<String>,
    },
    /// A bar chart (odds): `y` in percent.
    Chart {
        title: String,
        x_label: String,
        y_label: String,
        bars: Vec<Bar>,
    },
    /// A list folded shut until opened (a discard pile).
    List {
        title: String,
        items: Vec<String>,
    },
    /// Fields and the actions that send them.
    Form {
        fields: Vec<Field<F>>,
        actions: Vec<Action<A>>,
    },
    /// The table to scale, and the point he picks on it.
    Table {
        table: Box<Table<A, F>>,
    },
    /// A hex map with his counters, and the hexes he picks on it.
    HexMap {
        board: Box<HexBoard>,
    },
    /// His private printout, made by the laptop and sent to his phone
    /// sealed (the seat's own offer, no system's command): only a phone
    /// shows it; the laptop prints from *Export PDF*.
    Printout {
        label: String,
        hint: String,
    },
}

impl<A> Action<A> {
    /// A button answering `command`.
    pub fn new(label: impl Into<String>, command: A) -> Action<A> {
        Action {
            label: label.into(),
            hint: None,
            command,
            refused: None,
            confirm: None,
        }
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Action<A> {
        self.hint = Some(hint.into());
        self
    }

    /// Asks `question` before the command is sent.
    pub fn confirm(mut self, question: impl Into<String>) -> Action<A> {
        self.confirm = Some(question.into());
        self
    }
}

impl<A: PartialEq, F> Screen<A, F> {
    /// Whether `command` is one its actions send, and not refused: what a
    /// player's device may answer with. Anything else it sends is forged
    /// (a command for the other player, or one the screen never offered).
    pub fn offers(&self, command: &A) -> bool {
        self.open_actions().any(|a| a.command == *command)
    }

    /// Every action of the screen that is not refused.
    fn open_actions(&self) -> impl Iterator<Item = &Action<A>> {
        self.blocks
            .iter()
            .flat_map(|block| match block {
                Block::Actions { actions }
                | Block::Item { actions, .. }
                | Block::Form { actions, .. } => actions.as_slice(),
                _ => &[],
            })
            .filter(|a| a.refused.is_none())
    }

    /// Every text the screen shows, for tests that search a player's view
    /// for what he may not see.
    pub fn texts(&self) -> Vec<&str> {
        fn actions<A>(a: &[Action<A>]) -> Vec<&str> {
            a.iter()
                .flat_map(|a| {
                    [
                        Some(a.label.as_str()),
                        a.hint.as_deref(),
                        a.refused.as_deref(),
                    ]
                })
                .flatten()
                .collect()
        }
        let mut out = vec![self.title.as_str()];
        for block in &self.blocks {
            match block {
                Block::Heading { text }
                | Block::Text { text }
                | Block::Strong { text }
                | Block::Refusal { text } => out.push(text),
                Block::Actions { actions: a } => out.extend(actions(a)),
                Block::Item {
                    title,
                    text,
                    actions: a,
                    badge,
                } => {
                    out.extend([title.as_str(), text.as_str()]);
                    out.extend(badge.as_deref());
                    out.extend(actions(a));
                }
                Block::Chart {
                    title,
                    x_label,
                    y_label,
                    ..
                } => out.extend([title.as_str(), x_label.as_str(), y_label.as_str()]),
                Block::List { title, items } => {
                    out.push(title);
                    out.extend(items.iter().map(String::as_str));
                }
                Block::Form { fields, actions: a } => {
                    for field in fields {
                        out.push(&field.label);
                        match &field.input {
                            Input::Choice { options, .. } => {
                                out.extend(options.iter().map(|o| o.label.as_str()))
                            }
                            Input::Text {
                                hint,
                                value,
                                problem,
                            } => {
                                out.extend([hint.as_str(), value]);
                                out.extend(problem.as_deref());
                            }
                            Input::Secret { hint, fill } => out.extend([hint.as_str(), fill]),
                        }
                    }
                    out.extend(actions(a));
                }
                Block::HexMap { board } => {
                    out.extend(board.counters.iter().map(|c| c.text.as_str()));
                    out.extend(board.clicks.as_deref());
                }
                Block::Printout { label, hint } => out.extend([label.as_str(), hint]),
                Block::Table { table } => {
                    out.extend(table.pieces.iter().map(|p| p.name.as_str()));
                    out.extend(table.marks.iter().map(|m| m.label.as_str()));
                    if let Some(grid) = &table.grid {
                        out.extend(grid.legend.iter().map(|l| l.meaning.as_str()));
                    }
                    out.extend(table.pick.iter().filter_map(|p| p.verdict.as_deref()));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Play {
        Card { card: String },
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Field {
        Cards,
    }

    #[test]
    fn a_screen_reads_back_from_its_json_exactly() {
        let screen: Screen<Play, Field> = Screen {
            title: "Ann's hand".into(),
            blocks: vec![
                Block::Strong {
                    text: "Do you interrupt?".into(),
                },
                Block::Item {
                    title: "Omens".into(),
                    text: "Play at the start of a turn.".into(),
                    actions: vec![
                        Action::new(
                            "Play Omens",
                            Play::Card {
                                card: "omens".into(),
                            },
                        )
                        .hint("now"),
                    ],
                    badge: Some("new".into()),
                },
                Block::Chart {
                    title: "laurels".into(),
                    x_label: "N".into(),
                    y_label: "%".into(),
                    bars: vec![Bar { x: 1.0, y: 62.5 }],
                },
            ],
        };
        let json = serde_json::to_string(&screen).unwrap();
        assert_eq!(
            serde_json::from_str::<Screen<Play, Field>>(&json).unwrap(),
            screen
        );
        assert!(screen.texts().contains(&"Play Omens"));
        let unknown = json.replace("\"title\":\"Ann's hand\"", "\"title\":\"x\",\"spy\":1");
        assert!(serde_json::from_str::<Screen<Play, Field>>(&unknown).is_err());
    }

    /// A reply is read into the system's types, or refused naming the
    /// field at fault: an action it does not know, a field it has not.
    #[test]
    fn a_reply_is_read_into_its_types_or_refused_naming_the_field() {
        type R = Reply<Play, Field>;
        let ok: R =
            read(r#"{"command":{"card":{"card":"omens"}},"values":{"cards":["a"]}}"#).unwrap();
        assert_eq!(ok.values, form(&[(Field::Cards, &["a"])]));
        let wrong = read::<R>(r#"{"command":{"discard":{}}}"#).unwrap_err();
        assert!(wrong.starts_with("command"), "{wrong}");
        let field =
            read::<R>(r#"{"command":{"card":{"card":"x"}},"values":{"spy":["1"]}}"#).unwrap_err();
        assert!(field.contains("values") && field.contains("spy"), "{field}");
    }
}
