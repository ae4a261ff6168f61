//! Muster's engines under the names the app, the CLI, the tests and the
//! benches use: one shared core and one crate per game system, none of
//! which depends on egui (their crates are under `crates/`). The eframe app
//! in `src/app/` and the CLI only send commands to the engines and render
//! views of them.
//!
//! - `core` (`muster-core`): dice, sealed records and keys, the log's
//!   hashes and tags, files and autosaves, printing, the two players.
//! - `fog` (`muster-fog`): Field of Glory's pre-battle sequence (RULES).
//! - `deck` (`muster-deck`): the action deck (RULES-deck).
//! - `map_intel` (`muster-map-intel`): hidden forces and dummy wings on a
//!   hex map (RULES-map-intel).
//!
//! The rules each implements, and every ruling, are in the rules reference
//! (`docs/src/rules`), numbered as the code cites them.
//! - `seats`: the players' screens' encrypted channel (the app's, UI-free).

pub mod seats;

pub use muster_core as core;
pub use muster_deck as deck;
pub use muster_fog as fog;
pub use muster_map_intel as map_intel;

pub use muster_core::error::RuleError;
pub use muster_core::side::{Side, Sides};
