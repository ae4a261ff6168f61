//! A player's private screen as data: what a system shows one player and
//! what he may answer, described once, so the laptop draws it with egui and
//! a phone's page draws the same description. A screen is computed from
//! what that player may see and nothing else: it is stripped, not hidden,
//! and may be serialised and sent to his device as it is.
//!
//! An answer is an `Action`'s command, the system's own command as JSON;
//! the system reads it back with its command type, so a forged or stale
//! answer is refused by the rules like any other command.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// What the player has entered in a screen's forms, by field name: the
/// values chosen, ticked or typed.
pub type Values = BTreeMap<String, Vec<String>>;

/// A player's answer: the command of the action he chose, with what he
/// entered in the screen's forms (the system turns a form's action into
/// its command, checking each value).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reply {
    pub command: Value,
    #[serde(default)]
    pub values: Values,
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
pub enum Input {
    /// One of the options, or (`many`) any number of them, as ticks.
    /// Choosing another empties the fields named in `resets`.
    Choice {
        options: Vec<Choice>,
        #[serde(default)]
        many: bool,
        #[serde(default)]
        selected: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        resets: Vec<String>,
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

/// A form's field: its name in `Values`, its label on screen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    pub name: String,
    pub label: String,
    pub input: Input,
}

/// One private screen: a title and its blocks, top to bottom.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Screen {
    pub title: String,
    pub blocks: Vec<Block>,
}

/// Something the player can do: a button. A refused one is shown with the
/// rule's reason instead of being left out, so he sees why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The system's command this answers with.
    pub command: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// A bar of a chart: its x value and its height.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bar {
    pub x: f64,
    pub y: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "block", rename_all = "snake_case", deny_unknown_fields)]
pub enum Block {
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
        actions: Vec<Action>,
    },
    /// An item with its own actions: a card in a hand, a force in a ledger.
    Item {
        title: String,
        text: String,
        actions: Vec<Action>,
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
        fields: Vec<Field>,
        actions: Vec<Action>,
    },
}

impl Action {
    /// An action with this command, which must serialize (every system's
    /// command does).
    pub fn new(label: impl Into<String>, command: &impl Serialize) -> Action {
        Action {
            label: label.into(),
            hint: None,
            command: serde_json::to_value(command).expect("a command always serializes"),
            refused: None,
        }
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Action {
        self.hint = Some(hint.into());
        self
    }
}

impl Screen {
    /// Every text the screen shows, for tests that search a player's view
    /// for what he may not see.
    pub fn texts(&self) -> Vec<&str> {
        fn actions(a: &[Action]) -> Vec<&str> {
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
                } => {
                    out.extend([title.as_str(), text.as_str()]);
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
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_screen_reads_back_from_its_json_exactly() {
        let screen = Screen {
            title: "Ann's hand".into(),
            blocks: vec![
                Block::Strong {
                    text: "Do you interrupt?".into(),
                },
                Block::Item {
                    title: "Omens".into(),
                    text: "Play at the start of a turn.".into(),
                    actions: vec![
                        Action::new("Play Omens", &serde_json::json!({"cmd": "x"})).hint("now"),
                    ],
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
        assert_eq!(serde_json::from_str::<Screen>(&json).unwrap(), screen);
        assert!(screen.texts().contains(&"Play Omens"));
        let unknown = json.replace("\"title\":\"Ann's hand\"", "\"title\":\"x\",\"spy\":1");
        assert!(serde_json::from_str::<Screen>(&unknown).is_err());
    }
}
