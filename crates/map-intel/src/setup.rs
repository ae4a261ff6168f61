//! What a hidden-forces game is played with (RULES-map-intel 0): the
//! scenario, the players and their locks, checked the same way for a new
//! game and a file.

use super::scenario::{Scenario, Status};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::trail::Locks;
use muster_core::side::{Side, Sides};
use serde::{Deserialize, Serialize};

/// What the game is played with: the scenario, the players, their locks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub scenario: Scenario,
    pub players: Sides<String>,
    pub locks: Locks,
}

impl Setup {
    pub fn check(&self) -> Result<(), RuleError> {
        self.scenario.check().map_err(|(field, message)| {
            RuleError::new("map-intel 0", format!("{field}: {message}"))
        })?;
        for side in Side::BOTH {
            if let Some(why) = muster_core::text::name_fault(&self.players[side]) {
                return refuse("map-intel 0", format!("{side}'s player's name {why}"));
            }
            if let Some(lock) = &self.locks[side] {
                lock.well_formed()?;
            }
        }
        let (south, north) = (&self.players.south, &self.players.north);
        if muster_core::text::confusable(south, north) {
            return refuse(
                "map-intel 0",
                format!(
                    "The players' names \"{south}\" and \"{north}\" look alike: the log could not tell them apart"
                ),
            );
        }
        Ok(())
    }

    /// "Ann (Rome)".
    pub fn name(&self, side: Side) -> String {
        format!(
            "{} ({})",
            self.players[side], self.scenario.sides[side].name
        )
    }

    pub fn names(&self) -> Sides<String> {
        Sides {
            south: self.name(Side::South),
            north: self.name(Side::North),
        }
    }

    pub(crate) fn status(&self, unit: &str) -> Status {
        self.scenario
            .owner_of(unit)
            .and_then(|s| self.scenario.sides[s].unit(unit))
            .map_or(Status::Regular, |u| u.status)
    }

    pub(crate) fn unit_name(&self, unit: &str) -> String {
        self.scenario
            .owner_of(unit)
            .and_then(|s| self.scenario.sides[s].unit(unit))
            .map_or(unit.to_string(), |u| u.name.clone())
    }
}
