//! Action cards and card sets (RULES-deck 1): a card set is data, a JSON
//! file of cards with their laurels, rally flags, kind, phase letter, trash
//! symbol and army stripes, and of the armies that draw from it with their
//! hand sizes. A deck is the set filtered to one army, each card as many
//! times as its `count`.
//!
//! A set is checked when it loads: every error names its field and line.

use super::phase::{Letter, PhaseName};
use muster_core::locate::DataError;
use muster_core::store::{check_header, parse};
use muster_core::text::{look_alikes, name_fault};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// The example card set, written for Muster (titles and texts are ours).
pub const EXAMPLE_JSON: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../..",
    "/terrain_tables/deck_example.json"
));

const FORMAT: &str = "muster-card-set";
const SCHEMA: u32 = 1;
/// Card ids are short so that a sealed draw has one size (see `zones`).
pub const MAX_ID_CHARS: usize = 24;
/// The largest hand a set may give an army.
pub const MAX_HAND_SIZE: usize = 12;
/// The most copies of one card in a deck, and the most cards in a deck.
const MAX_COUNT: u32 = 12;
const MAX_DECK: usize = 200;

/// What a card does when played for its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Event,
    Interrupt,
    None,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub id: String,
    pub title: String,
    pub laurels: u32,
    /// White flags.
    pub rally: u32,
    pub kind: Kind,
    /// An interrupt's phase letter; nothing for other cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<Letter>,
    /// The trash-can symbol: removed when played for its text.
    #[serde(default)]
    pub trash: bool,
    /// The armies whose stripe it bears; empty for a common card.
    #[serde(default)]
    pub armies: Vec<String>,
    /// Played as an event, no interrupt may follow in that turn.
    #[serde(default)]
    pub blocks_interrupts: bool,
    /// Copies in each deck that may use it.
    #[serde(default = "one")]
    pub count: u32,
    pub text: String,
}

fn one() -> u32 {
    1
}

fn seven() -> usize {
    7
}

fn yes() -> bool {
    true
}

fn all_phases() -> Vec<PhaseName> {
    PhaseName::ALL.to_vec()
}

/// An army that draws from the set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyEntry {
    pub id: String,
    pub name: String,
    #[serde(default = "seven")]
    pub hand_size: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardSet {
    pub format: String,
    pub schema: u32,
    pub id: String,
    pub name: String,
    /// Cards played for rally are removed (RULES-deck 4, "usually").
    #[serde(default = "yes")]
    pub rally_removes: bool,
    /// Each player draws up to his hand size when the game starts.
    #[serde(default = "yes")]
    pub opening_draw: bool,
    /// A turn's phases in order (RULES-deck 6), each once.
    #[serde(default = "all_phases")]
    pub phases: Vec<PhaseName>,
    pub armies: Vec<ArmyEntry>,
    pub cards: Vec<Card>,
}

fn good_id(id: &str) -> bool {
    !id.is_empty()
        && id.chars().count() <= MAX_ID_CHARS
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

impl CardSet {
    pub fn example() -> CardSet {
        CardSet::from_json(EXAMPLE_JSON).expect("the example card set is checked by tests")
    }

    /// Reads and checks a card set.
    pub fn from_json(text: &str) -> Result<CardSet, DataError> {
        check_header(text, FORMAT, SCHEMA, SCHEMA)?;
        let set: CardSet = parse(text)?;
        set.check()
            .map_err(|(field, message)| DataError::at(text, field, message))?;
        Ok(set)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a card set always serializes")
    }

    /// The first rule the set breaks, as (field, message).
    pub fn check(&self) -> Result<(), (String, String)> {
        let err = |field: String, message: &str| Err((field, message.to_string()));
        if let Some(why) = name_fault(&self.name) {
            return err("name".into(), &format!("the card set's name {why}"));
        }
        for phase in PhaseName::ALL {
            if self.phases.iter().filter(|p| **p == phase).count() != 1 {
                return Err((
                    "phases".into(),
                    format!("each phase is listed once; {phase} is not"),
                ));
            }
        }
        if self.armies.is_empty() {
            return err("armies".into(), "a card set needs at least one army");
        }
        let mut armies = BTreeSet::new();
        for (i, a) in self.armies.iter().enumerate() {
            if !good_id(&a.id) {
                return err(
                    format!("armies[{i}].id"),
                    "an id is 1 to 24 letters, digits, - or _",
                );
            }
            if !armies.insert(a.id.as_str()) {
                return err(format!("armies[{i}].id"), "two armies have this id");
            }
            if let Some(why) = name_fault(&a.name) {
                return err(
                    format!("armies[{i}].name"),
                    &format!("the army's name {why}"),
                );
            }
            if a.hand_size == 0 || a.hand_size > MAX_HAND_SIZE {
                return err(
                    format!("armies[{i}].hand_size"),
                    "a hand size is 1 to 12 cards",
                );
            }
        }
        let mut ids = BTreeSet::new();
        for (i, c) in self.cards.iter().enumerate() {
            let at = |f: &str| format!("cards[{i}].{f}");
            if !good_id(&c.id) {
                return err(at("id"), "an id is 1 to 24 letters, digits, - or _");
            }
            if !ids.insert(c.id.as_str()) {
                return err(at("id"), "two cards have this id");
            }
            if let Some(why) = name_fault(&c.title) {
                return err(at("title"), &format!("the card's title {why}"));
            }
            if let Some(why) = muster_core::text::unprintable(&c.text) {
                return err(at("text"), &format!("the card's text {why}"));
            }
            match (c.kind, c.phase) {
                (Kind::Interrupt, None) => {
                    return err(
                        at("phase"),
                        "an interrupt needs its phase letter (R, S, M or C)",
                    );
                }
                (Kind::Event | Kind::None, Some(_)) => {
                    return err(at("phase"), "only an interrupt has a phase letter");
                }
                _ => {}
            }
            if c.blocks_interrupts && c.kind != Kind::Event {
                return err(
                    at("blocks_interrupts"),
                    "only an event can forbid interrupts for its turn",
                );
            }
            if c.count == 0 || c.count > MAX_COUNT {
                return err(at("count"), "a card is in a deck 1 to 12 times");
            }
            for (k, army) in c.armies.iter().enumerate() {
                if !armies.contains(army.as_str()) {
                    return err(
                        at(&format!("armies[{k}]")),
                        "no army of the set has this id",
                    );
                }
            }
        }
        for (i, a) in self.armies.iter().enumerate() {
            let size = self.deck_of(&a.id).len();
            if size < a.hand_size {
                return err(
                    format!("armies[{i}].hand_size"),
                    "the army's deck has fewer cards than its hand size",
                );
            }
            if size > MAX_DECK {
                return err(
                    format!("armies[{i}]"),
                    "the army's deck has more than 200 cards",
                );
            }
            // Its player's hand and the log name his cards by title.
            let deck: Vec<(usize, &str)> = (self.cards.iter().enumerate())
                .filter(|(_, c)| c.armies.is_empty() || c.armies.contains(&a.id))
                .map(|(j, c)| (j, c.title.as_str()))
                .collect();
            let titles: Vec<&str> = deck.iter().map(|d| d.1).collect();
            if let Some((first, second)) = look_alikes(&titles) {
                let j = deck.iter().rev().find(|d| d.1 == second).map_or(0, |d| d.0);
                return Err((
                    format!("cards[{j}].title"),
                    format!(
                        "\"{second}\" looks like \"{first}\", a card of the same deck ({}): its player and the log could not tell them apart",
                        a.name
                    ),
                ));
            }
        }
        let names: Vec<&str> = self.armies.iter().map(|a| a.name.as_str()).collect();
        if let Some((first, second)) = look_alikes(&names) {
            let i = names.iter().rposition(|n| *n == second).unwrap_or(0);
            return Err((
                format!("armies[{i}].name"),
                format!(
                    "\"{second}\" looks like \"{first}\": the players could not tell the armies apart"
                ),
            ));
        }
        Ok(())
    }

    pub fn card(&self, id: &str) -> Option<&Card> {
        self.cards.iter().find(|c| c.id == id)
    }

    pub fn army(&self, id: &str) -> Option<&ArmyEntry> {
        self.armies.iter().find(|a| a.id == id)
    }

    /// The army's deck: every card it may use, `count` times, sorted by id.
    pub fn deck_of(&self, army: &str) -> Vec<String> {
        let mut deck: Vec<String> = self
            .cards
            .iter()
            .filter(|c| c.armies.is_empty() || c.armies.iter().any(|a| a == army))
            .flat_map(|c| std::iter::repeat_n(c.id.clone(), c.count as usize))
            .collect();
        deck.sort();
        deck
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_set_loads_and_each_army_has_a_deck_larger_than_its_hand() {
        let set = CardSet::example();
        assert!(set.armies.len() >= 2);
        for a in &set.armies {
            assert!(set.deck_of(&a.id).len() > a.hand_size + 5, "{}", a.id);
        }
        for letter in Letter::ALL {
            assert!(
                set.cards.iter().any(|c| c.phase == Some(letter)),
                "an interrupt for {letter}"
            );
        }
        assert!(set.cards.iter().any(|c| c.blocks_interrupts));
        assert!(set.cards.iter().any(|c| c.trash));
    }

    fn broken(from: &str, to: &str) -> DataError {
        assert!(EXAMPLE_JSON.contains(from), "{from}");
        CardSet::from_json(&EXAMPLE_JSON.replacen(from, to, 1)).unwrap_err()
    }

    #[test]
    fn errors_name_the_field_and_line() {
        let e = broken(
            "\"kind\": \"interrupt\",\n      \"phase\": \"M\"",
            "\"kind\": \"interrupt\"",
        );
        assert!(
            e.field.starts_with("cards[") && e.field.ends_with("].phase"),
            "{e}"
        );
        assert!(e.line.is_some(), "{e}");
        let e = broken("\"laurels\": 2", "\"laurels\": -2");
        assert!(
            e.to_string().contains("laurels") && e.to_string().contains("line"),
            "{e}"
        );
        let e = broken("\"hand_size\": 7", "\"hand_size\": 40");
        assert_eq!(e.field, "armies[0].hand_size", "{e}");
        assert_eq!(e.line, Some(13), "{e}");
        let e = broken("\"count\": 2", "\"count\": 0");
        assert!(e.field.ends_with(".count"), "{e}");
        let e = broken("\"armies\": [\"romans\"]", "\"armies\": [\"carthage\"]");
        assert!(e.message.contains("no army"), "{e}");
    }

    #[test]
    fn a_duplicate_id_and_a_foreign_file_are_refused() {
        let set = CardSet::example();
        let mut twice = set.clone();
        twice.cards.push(set.cards[0].clone());
        assert!(
            CardSet::from_json(&twice.to_json())
                .unwrap_err()
                .message
                .contains("two cards")
        );
        let e = CardSet::from_json("{\"format\": \"muster-battle\", \"schema\": 3}").unwrap_err();
        assert!(e.message.contains("muster-battle"), "{e}");
    }

    #[test]
    fn a_deck_holds_common_cards_and_its_own_stripe_only() {
        let set = CardSet::example();
        let romans = set.deck_of("romans");
        for id in &romans {
            let card = set.card(id).unwrap();
            assert!(card.armies.is_empty() || card.armies.contains(&"romans".to_string()));
        }
        let striped = set
            .cards
            .iter()
            .find(|c| !c.armies.is_empty() && !c.armies.contains(&"romans".to_string()))
            .unwrap();
        assert!(!romans.contains(&striped.id));
    }
}
