//! Flank marches (RULES 8.4, 10): recorded sealed during deployment, rolled
//! for at the start of each of the owner's turns from his turn 2 on (data:
//! `flank_march.first_roll_turn`), revealed on arrival, when each battle
//! group takes its straggling test.
//!
//! The arrival modifier depends on what the march is, so the record states
//! it openly when sealed (the dice show it anyway) and the reveal checks it
//! against the contents. The chances are `odds`; recording a march is
//! `recording`; its rolls, word and reveal are `arrival`.

use super::State;
use crate::ruleset::Ruleset;
use muster_core::dice::Roll;
use muster_core::intel::{Place, Revealed, Sealed};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};

/// Which flank a march arrives on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flank {
    Left,
    Right,
}

impl Flank {
    pub fn name(self) -> &'static str {
        match self {
            Flank::Left => "left",
            Flank::Right => "right",
        }
    }

    /// The side edge a march on this flank of `side` enters by (RULES 10):
    /// each player faces the enemy across the table, so South's left is
    /// the west edge and North's left the east.
    pub fn edge(self, side: Side) -> crate::geometry::SideEdge {
        use crate::geometry::SideEdge;
        match (side, self) {
            (Side::South, Flank::Left) | (Side::North, Flank::Right) => SideEdge::West,
            _ => SideEdge::East,
        }
    }
}

/// What a flank march is: the secret its record seals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlankMarchPlan {
    /// Battle groups, by index in the army.
    pub bgs: Vec<usize>,
    /// The commander leading it, by index in the army's commanders.
    pub commander: usize,
    pub flank: Flank,
}

/// A battle group's straggling test on arrival.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Straggle {
    pub bg: usize,
    pub roll: Roll,
    pub straggles: bool,
}

/// A recorded flank march and what has happened to it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FlankMarch {
    pub side: Side,
    pub sealed: Sealed,
    /// The arrival modifier the record states openly; `None` when it is
    /// sealed with the march and added on its owner's phone.
    pub modifier: Option<i32>,
    /// Arrival rolls: the owner's turn each was made in, and the roll.
    pub rolls: Vec<(u32, Roll)>,
    /// With a sealed modifier: the owner's word on each roll, arrives or
    /// not, checked at the reveal.
    pub said: Vec<bool>,
    pub revealed: Option<Revealed<FlankMarchPlan>>,
    pub straggling: Vec<Straggle>,
}

impl FlankMarch {
    pub fn new(side: Side, sealed: Sealed, modifier: Option<i32>) -> FlankMarch {
        FlankMarch {
            side,
            sealed,
            modifier,
            rolls: Vec::new(),
            said: Vec::new(),
            revealed: None,
            straggling: Vec::new(),
        }
    }

    /// Whether its last arrival roll brought it on (by its owner's word,
    /// for a sealed modifier).
    pub fn arrived(&self, ruleset: &Ruleset) -> bool {
        match self.modifier {
            Some(_) => self
                .rolls
                .last()
                .is_some_and(|(_, r)| r.total >= ruleset.flank_march.arrives_on),
            None => !self.awaits_word() && self.said.last() == Some(&true),
        }
    }

    /// A roll of a march with a sealed modifier waits for its owner's word.
    pub fn awaits_word(&self) -> bool {
        self.modifier.is_none() && self.said.len() < self.rolls.len()
    }
}

/// Where flank march `march` (its index among all marches) is sealed.
fn place(state: &State, side: Side, march: usize) -> Place<'_> {
    Place {
        game: &state.game,
        owner: side,
        kind: "flank-march",
        slot: format!("march {march}"),
    }
}

mod arrival;
mod odds;
mod recording;

pub(super) use arrival::{decide_reveal, decide_roll, decide_say};
pub use arrival::{due, reveal_plan, to_reveal, word};
pub use odds::{
    arrival_by_turn, arrival_chance, arrival_modifiers, straggle_chance, straggle_modifiers,
};
pub(crate) use recording::seal_plan;
pub use recording::{FLANK_MARCH_RECORD_BYTES, check_plan, open_marches};
pub(super) use recording::{decide_finish, decide_record};
