//! The hidden-forces file (`"format": "muster-hidden-forces-game"`): the
//! game's id, its setup (scenario, players, locks) and its chained log
//! with the players' tags. Face-down contents are only ever in it as
//! sealed records.

use super::game::Game;

pub const FORMAT: &str = "muster-hidden-forces-game";
pub const SCHEMA: u32 = 1;

muster_core::chained_files!(Game);
