//! The dummy-wings file (`"format": "muster-dummy-wings-game"`): the game's
//! id, its setup (battle, players, armies, locks) and its chained log with
//! the players' tags. Compositions are only ever in it sealed until
//! flipped.

use super::game::Game;
use muster_core::chained_game::OnLedger;
use muster_core::side::Side;
use muster_core::store::chained;
use muster_core::store::{Autosave, Recent, StoreError};
use std::path::Path;

pub const FORMAT: &str = "muster-dummy-wings-game";
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

impl Autosave for Game {
    fn id(&self) -> &str {
        self.record().id()
    }

    fn recent(&self, saved: u64) -> Recent {
        let setup = self.setup();
        let step = match self.public().active {
            None => "dummy wings, set-up".to_string(),
            Some(side) => format!(
                "dummy wings, turn {} ({})",
                self.public().turn,
                setup.players[side]
            ),
        };
        Recent {
            id: self.id().to_string(),
            title: setup.battle.name.clone(),
            players: format!("{} v {}", setup.name(Side::South), setup.name(Side::North)),
            step,
            saved,
            entries: self.log().len(),
        }
    }

    fn save_to(&self, path: &Path) -> Result<(), StoreError> {
        save(path, self)
    }
}
