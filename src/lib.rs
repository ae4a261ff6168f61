//! Muster's engines: one shared core and one folder per game system. No UI
//! code lives here; the eframe app in `src/app/` and the CLI only send
//! commands to the engines and render views of them.
//!
//! - `core`: dice, sealed records and keys, the log's hashes and tags,
//!   files and autosaves, printing, the two players.
//! - `fog`: Field of Glory's pre-battle sequence (`RULES.md`).
//! - `deck`: the action deck (`RULES-deck.md`).
//! - `map_intel`: hidden forces on a hex map (`RULES-map-intel.md`).

pub mod core;
pub mod deck;
pub mod fog;
pub mod map_intel;

pub use crate::core::error::RuleError;
pub use crate::core::side::{Side, Sides};
