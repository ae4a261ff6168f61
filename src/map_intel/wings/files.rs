//! The dummy-wings file (`"format": "muster-dummy-wings-game"`): the game's
//! id, its setup (battle, players, armies, locks) and its chained log with
//! the players' tags. Compositions are only ever in it sealed until
//! flipped.

use super::game::{Entry, Game, Setup, genesis};
use crate::core::side::Side;
use crate::core::store::chained::{self, Parts};
use crate::core::store::{Autosave, Recent, StoreError, as_written, read_text, save_read_back};
use std::path::Path;

pub const FORMAT: &str = "muster-dummy-wings-game";
pub const SCHEMA: u32 = 1;

pub fn to_json(game: &Game) -> String {
    let parts = Parts {
        id: game.id().to_string(),
        setup: game.setup(),
        log: game.log().iter().collect(),
        tags: game.tags().to_vec(),
    };
    chained::write(FORMAT, SCHEMA, parts, game.links())
}

pub fn from_json(text: &str) -> Result<Game, StoreError> {
    let parts: Parts<Setup, Entry> = chained::read(text, FORMAT, SCHEMA, genesis)?;
    let game = Game::replay(parts.id, parts.setup, parts.log, parts.tags)
        .map_err(|e| StoreError::new(e.message))?;
    as_written(&to_json(&game), text)?;
    Ok(game)
}

pub fn save(path: &Path, game: &Game) -> Result<(), StoreError> {
    save_read_back(path, &to_json(game), from_json, |again| {
        again.log() == game.log() && again.tags() == game.tags()
    })
}

pub fn load(path: &Path) -> Result<Game, StoreError> {
    from_json(&read_text(path)?).map_err(|e| e.at(path))
}

impl Autosave for Game {
    fn id(&self) -> &str {
        Game::id(self)
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
