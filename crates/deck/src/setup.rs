//! What an action-deck game is played with (RULES-deck 1): the card set,
//! the players at the table with their armies and hand sizes, and their
//! locks; checked the same way for a new game and a file.

use super::cards::CardSet;
use super::events::Public;
use muster_core::dice::hidden::PickCommitment;
use muster_core::error::{RuleError, refuse};
use muster_core::intel::trail::Locks;
use muster_core::side::{Side, Sides};
use serde::{Deserialize, Serialize};

/// A player at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seat {
    pub name: String,
    /// The army's id in the card set.
    pub army: String,
    pub hand_size: usize,
}

/// What the game is played with: the card set, the players and their locks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub set: CardSet,
    pub seats: Sides<Seat>,
    pub locks: Locks,
    /// Each player's commitment to the secret his draws hang on when the
    /// game is played from two machines (`muster_core::dice::hidden`).
    /// Absent from games begun before such draws, which are played at one
    /// table.
    #[serde(default, skip_serializing_if = "no_picks")]
    pub picks: Sides<Option<PickCommitment>>,
}

fn no_picks(p: &Sides<Option<PickCommitment>>) -> bool {
    p.south.is_none() && p.north.is_none()
}

impl Setup {
    /// The example game: the example card set, Decius (South, Romans)
    /// against Artagur (North, Gauls), hands of 7; with `locks`.
    pub fn example(locks: Locks) -> Setup {
        let seat = |name: &str, army: &str| Seat {
            name: name.into(),
            army: army.into(),
            hand_size: 7,
        };
        Setup {
            set: CardSet::example(),
            seats: Sides {
                south: seat("Decius", "romans"),
                north: seat("Artagur", "gauls"),
            },
            locks,
            picks: Sides::default(),
        }
    }

    /// Checks the card set, and the players against it.
    pub fn check(&self) -> Result<(), RuleError> {
        self.set.check().map_err(|(field, message)| {
            RuleError::new("RULES-deck 1", format!("setup.set.{field}: {message}"))
        })?;
        for side in Side::BOTH {
            let seat = &self.seats[side];
            let who = &seat.name;
            if let Some(why) = muster_core::text::name_fault(who) {
                return refuse("RULES-deck 1", format!("{side}'s player's name {why}"));
            }
            if self.set.army(&seat.army).is_none() {
                return refuse(
                    "RULES-deck 1",
                    format!("{who}'s army \"{}\" is not in the card set", seat.army),
                );
            }
            let deck = self.deck(side).len();
            if seat.hand_size == 0 || seat.hand_size > super::cards::MAX_HAND_SIZE {
                return refuse(
                    "RULES-deck 1",
                    format!("{who}'s hand size is 1 to 12 cards"),
                );
            }
            if seat.hand_size > deck {
                return refuse(
                    "RULES-deck 1",
                    format!(
                        "{who}'s hand of {} is larger than their deck of {deck}",
                        seat.hand_size
                    ),
                );
            }
            if let Some(lock) = &self.locks[side] {
                lock.well_formed()?;
            }
        }
        let (south, north) = (self.name(Side::South), self.name(Side::North));
        if muster_core::text::confusable(south, north) {
            return refuse(
                "RULES-deck 1",
                format!(
                    "The players' names \"{south}\" and \"{north}\" look alike: the log could not tell them apart"
                ),
            );
        }
        Ok(())
    }

    pub fn name(&self, side: Side) -> &str {
        &self.seats[side].name
    }

    /// `side`'s whole deck as the game began: every card of his army.
    pub fn deck(&self, side: Side) -> Vec<String> {
        self.set.deck_of(&self.seats[side].army)
    }

    /// The public state before the first event: every card in its deck.
    pub(crate) fn opening(&self) -> Public {
        let mut public = Public::new(Sides {
            south: self.deck(Side::South).len(),
            north: self.deck(Side::North).len(),
        });
        public.picks = self.picks.clone();
        public
    }
}
