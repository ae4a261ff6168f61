//! The dummy-wings file (`"format": "muster-dummy-wings-game"`): the game's
//! id, its setup (battle, players, armies, locks) and its chained log with
//! the players' tags. Compositions are only ever in it sealed until
//! flipped.

use super::game::Game;

pub const FORMAT: &str = "muster-dummy-wings-game";
pub const SCHEMA: u32 = 1;

muster_core::chained_files!(Game);
