//! A game's cards opened to the players (RULES-deck 7, `docs/src/rules/deck.md`):
//! after the game, *Open everything* with both players' keys (every draw,
//! reshuffle and removal replayed against the rules, every card named);
//! during it, a player's own log with the cards he drew and removed named.

use super::{Game, open_hidden, place, replay_zones};
use muster_core::error::{RuleError, refuse};
use muster_core::side::{Side, Sides};

impl Game {
    /// *Open everything*, after the game: with both players' zones open,
    /// every draw, reshuffle and removal has been replayed against the
    /// rules; returns the full log in words, every card named.
    pub fn open_everything(&self) -> Result<Vec<String>, RuleError> {
        if !self.public().ended() {
            return refuse(
                "RULES-deck 7",
                "Everything is opened after the game: both players first agree it is over",
            );
        }
        let keys = Sides {
            south: self.key(Side::South)?,
            north: self.key(Side::North)?,
        };
        for side in Side::BOTH {
            let keys = self.keys_of(side, keys[side]);
            let zones = replay_zones(self.id(), self.setup(), self.log(), side, &keys)?;
            let in_play = self.in_play_of(side);
            if zones.all(&in_play) != self.setup().deck(side) {
                return refuse(
                    "RULES-deck 2",
                    format!(
                        "{}'s cards do not add up to their deck",
                        self.setup().name(side)
                    ),
                );
            }
        }
        let mut lines = Vec::new();
        for (i, entry) in self.log().iter().enumerate() {
            for (j, event) in entry.events.iter().enumerate() {
                let opened = match event.sealed() {
                    Some((owner, sealed)) => Some(open_hidden(
                        &place(self.id(), owner, i, j),
                        sealed,
                        keys[owner],
                    )?),
                    None => None,
                };
                lines.push(format!(
                    "{}. {}",
                    i + 1,
                    crate::describe::event(event, self.setup(), opened.as_deref())
                ));
            }
        }
        Ok(lines)
    }

    fn in_play_of(&self, side: Side) -> Vec<String> {
        self.public()
            .turn
            .iter()
            .flat_map(|t| &t.in_play)
            .filter(|c| c.owner == side)
            .map(|c| c.card.clone())
            .collect()
    }

    /// `side`'s own log: the public log with the cards he drew and
    /// removed named, opened with his key.
    pub fn private_log(&self, side: Side) -> Result<Vec<String>, RuleError> {
        let key = self.key(side)?;
        let mut lines = Vec::new();
        for (i, entry) in self.log().iter().enumerate() {
            for (j, event) in entry.events.iter().enumerate() {
                let opened = match event.sealed() {
                    Some((owner, sealed)) if owner == side => {
                        Some(open_hidden(&place(self.id(), side, i, j), sealed, key)?)
                    }
                    _ => None,
                };
                lines.push(format!(
                    "{}. {}",
                    i + 1,
                    crate::describe::event(event, self.setup(), opened.as_deref())
                ));
            }
        }
        Ok(lines)
    }
}
