//! A player's zones (RULES-deck 2-3): deck, hand, discard pile and removed
//! box, each a multiset of card ids kept sorted. The deck has no order: a
//! draw picks uniformly among the cards left in it at that moment, so no
//! order exists anywhere to be read. Every move checks that the card is
//! where it is taken from, so a replayed log that moves a card it does not
//! hold is named.

use muster_core::error::{RuleError, refuse};
use serde::{Deserialize, Serialize};

/// Where a card is taken from or goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Zone {
    Deck,
    Hand,
    Discard,
    Removed,
}

impl Zone {
    pub fn name(self) -> &'static str {
        match self {
            Zone::Deck => "deck",
            Zone::Hand => "hand",
            Zone::Discard => "discard pile",
            Zone::Removed => "removed box",
        }
    }
}

/// How many cards each zone holds: what both players see.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub deck: usize,
    pub hand: usize,
    pub discard: usize,
    pub removed: usize,
}

impl Counts {
    pub fn get(&self, zone: Zone) -> usize {
        match zone {
            Zone::Deck => self.deck,
            Zone::Hand => self.hand,
            Zone::Discard => self.discard,
            Zone::Removed => self.removed,
        }
    }

    fn slot(&mut self, zone: Zone) -> &mut usize {
        match zone {
            Zone::Deck => &mut self.deck,
            Zone::Hand => &mut self.hand,
            Zone::Discard => &mut self.discard,
            Zone::Removed => &mut self.removed,
        }
    }

    /// Moves `n` cards' count from one zone to another, refusing to take
    /// what is not there.
    pub fn shift(&mut self, from: Zone, to: Option<Zone>, n: usize) -> Result<(), RuleError> {
        let have = self.get(from);
        if have < n {
            return refuse(
                "RULES-deck 2",
                format!("{n} cards taken from a {} of {have}", from.name()),
            );
        }
        *self.slot(from) -= n;
        if let Some(to) = to {
            *self.slot(to) += n;
        }
        Ok(())
    }
}

/// One player's cards, known to him alone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Zones {
    pub deck: Vec<String>,
    pub hand: Vec<String>,
    pub discard: Vec<String>,
    pub removed: Vec<String>,
    /// The cards of his latest draw still in his hand: marked new on his
    /// screen, so after a redraw he sees what came in. The marks last
    /// until the end of the turn after the draw.
    #[serde(default)]
    pub fresh: Vec<String>,
    /// A draw is under way (one draw may be split by a reshuffle).
    #[serde(skip)]
    pub(crate) drawing: bool,
    /// A turn has ended since the draw: the next end clears the marks.
    #[serde(skip)]
    pub(crate) marks_aged: bool,
}

impl Zones {
    /// A new game's zones: every card in the deck.
    pub fn new(deck: Vec<String>) -> Zones {
        let mut zones = Zones {
            deck,
            ..Zones::default()
        };
        zones.deck.sort();
        zones
    }

    pub fn counts(&self) -> Counts {
        Counts {
            deck: self.deck.len(),
            hand: self.hand.len(),
            discard: self.discard.len(),
            removed: self.removed.len(),
        }
    }

    pub fn zone(&self, zone: Zone) -> &[String] {
        match zone {
            Zone::Deck => &self.deck,
            Zone::Hand => &self.hand,
            Zone::Discard => &self.discard,
            Zone::Removed => &self.removed,
        }
    }

    fn zone_mut(&mut self, zone: Zone) -> &mut Vec<String> {
        match zone {
            Zone::Deck => &mut self.deck,
            Zone::Hand => &mut self.hand,
            Zone::Discard => &mut self.discard,
            Zone::Removed => &mut self.removed,
        }
    }

    /// Takes one `card` out of `from`; `to` receives it (`None`: it goes
    /// into play, out of every zone until the turn ends).
    pub fn take(&mut self, card: &str, from: Zone, to: Option<Zone>) -> Result<(), RuleError> {
        let source = self.zone_mut(from);
        let Some(i) = source.iter().position(|c| c == card) else {
            return refuse(
                "RULES-deck 2",
                format!("{card} is not in the {}", from.name()),
            );
        };
        source.remove(i);
        if from == Zone::Hand
            && let Some(i) = self.fresh.iter().position(|c| c == card)
        {
            self.fresh.remove(i);
        }
        if let Some(to) = to {
            self.put(card, to);
        }
        Ok(())
    }

    /// Puts `card` into `zone`, keeping it sorted.
    pub fn put(&mut self, card: &str, zone: Zone) {
        let target = self.zone_mut(zone);
        let at = target.partition_point(|c| c.as_str() <= card);
        target.insert(at, card.to_string());
    }

    /// `cards` came into his hand by one draw: they are the fresh ones,
    /// with those of the same draw before a reshuffle split it.
    pub fn drew(&mut self, cards: &[String]) {
        if !self.drawing {
            self.fresh.clear();
        }
        self.fresh.extend(cards.iter().cloned());
        self.drawing = true;
        self.marks_aged = false;
    }

    /// Something other than his draw happened: the next draw is a new one.
    pub fn draw_over(&mut self) {
        self.drawing = false;
    }

    /// A turn ended: marks of a draw before the turn now ended go.
    pub fn turn_ended(&mut self) {
        if self.marks_aged {
            self.fresh.clear();
        }
        self.marks_aged = true;
    }

    /// The discard pile becomes the deck (RULES-deck 3): only when the deck
    /// is empty.
    pub fn reshuffle(&mut self) -> Result<usize, RuleError> {
        if !self.deck.is_empty() {
            return refuse(
                "RULES-deck 3",
                format!(
                    "No voluntary reshuffle: the deck still holds {} card{}",
                    self.deck.len(),
                    if self.deck.len() == 1 { "" } else { "s" }
                ),
            );
        }
        let cards = self.discard.len();
        self.deck = std::mem::take(&mut self.discard);
        Ok(cards)
    }

    /// Every card the player owns, wherever it is, sorted; with `in_play`
    /// (his cards in play), the whole deck list it began as.
    pub fn all(&self, in_play: &[String]) -> Vec<String> {
        let mut all: Vec<String> = [&self.deck, &self.hand, &self.discard, &self.removed]
            .into_iter()
            .flatten()
            .chain(in_play)
            .cloned()
            .collect();
        all.sort();
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zones() -> Zones {
        Zones::new(vec!["b".into(), "a".into(), "a".into(), "c".into()])
    }

    #[test]
    fn a_card_moves_only_from_where_it_is() {
        let mut z = zones();
        z.take("a", Zone::Deck, Some(Zone::Hand)).unwrap();
        assert_eq!(z.hand, vec!["a"]);
        assert_eq!(z.deck, vec!["a", "b", "c"]);
        let e = z.take("c", Zone::Hand, Some(Zone::Discard)).unwrap_err();
        assert!(e.message.contains("c is not in the hand"), "{e}");
        assert_eq!(z.counts().hand, 1);
    }

    #[test]
    fn no_reshuffle_while_the_deck_holds_a_card() {
        let mut z = zones();
        z.take("b", Zone::Deck, Some(Zone::Discard)).unwrap();
        let e = z.reshuffle().unwrap_err();
        assert!(e.message.contains("No voluntary reshuffle") && e.message.contains("3 cards"));
        for card in ["a", "a", "c"] {
            z.take(card, Zone::Deck, Some(Zone::Hand)).unwrap();
        }
        assert_eq!(z.reshuffle().unwrap(), 1);
        assert_eq!(z.deck, vec!["b"]);
        assert!(z.discard.is_empty());
        assert_eq!(z.hand, vec!["a", "a", "c"], "the hand is never reshuffled");
    }

    #[test]
    fn counts_refuse_to_go_below_zero() {
        let mut c = Counts {
            deck: 2,
            ..Counts::default()
        };
        assert!(c.shift(Zone::Deck, Some(Zone::Hand), 3).is_err());
        c.shift(Zone::Deck, Some(Zone::Hand), 2).unwrap();
        assert_eq!((c.deck, c.hand), (0, 2));
    }

    #[test]
    fn a_draws_marks_last_through_the_next_turns_end() {
        let mut z = zones();
        z.take("a", Zone::Deck, Some(Zone::Hand)).unwrap();
        z.drew(&["a".into()]);
        // A reshuffle splits a draw: both halves are marked.
        z.take("b", Zone::Deck, Some(Zone::Hand)).unwrap();
        z.drew(&["b".into()]);
        assert_eq!(z.fresh, ["a", "b"]);
        z.turn_ended();
        assert_eq!(z.fresh, ["a", "b"], "the turn of the redraw ends");
        z.draw_over();
        z.take("a", Zone::Hand, Some(Zone::Discard)).unwrap();
        assert_eq!(z.fresh, ["b"], "a card played takes its mark");
        z.turn_ended();
        assert!(z.fresh.is_empty(), "the turn after ends");
        z.take("c", Zone::Deck, Some(Zone::Hand)).unwrap();
        z.drew(&["c".into()]);
        assert_eq!(z.fresh, ["c"], "a new draw replaces the marks");
    }
}
