//! The hidden-forces file (`"format": "muster-hidden-forces-game"`): the
//! game's id, its setup (scenario, players, locks) and its chained log
//! with the players' tags. Face-down contents are only ever in it as
//! sealed records.

use super::game::Game;
use muster_core::store::StoreError;
use muster_core::store::chained;
use std::path::Path;

pub const FORMAT: &str = "muster-hidden-forces-game";
pub const SCHEMA: u32 = 1;

pub fn to_json(game: &Game) -> String {
    chained::to_json(game)
}

pub fn from_json(text: &str) -> Result<Game, StoreError> {
    chained::from_json(text)
}

pub fn save(path: &Path, game: &Game) -> Result<(), StoreError> {
    chained::save(path, game)
}

pub fn load(path: &Path) -> Result<Game, StoreError> {
    chained::load(path)
}
