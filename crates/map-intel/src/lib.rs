//! Limited intelligence on a hex map (RULES-map-intel,
//! `docs/src/rules/map-intel.md`): the map ledger both Part A and Part B
//! stand on (the map, counters with sealed contents, turns, reveals logged
//! with their reason), and Part A's hidden forces with Exercitus bluffs.

mod audit;
mod conservation;
pub mod describe;
pub mod events;
pub mod export;
pub mod files;
pub mod game;
mod opened;
pub mod owed;
pub mod print;
mod remote;
pub mod scenario;
pub mod screens;
pub mod script;
pub mod seat;
pub mod setup;
pub mod view;
pub mod wings;

pub use events::{Area, Contents, Event, Kind, Reason};
pub use game::{Command, Game, Target};
pub use map::{Hex, HexMap, Orientation, Shifted};
/// The hex map, which the core keeps (a private screen may show one).
pub use muster_core::hexmap as map;
pub use scenario::{Army, Scenario, Status, Unit};
pub use setup::Setup;
pub use view::{SeenHolder, View};

#[cfg(test)]
pub(crate) mod tests;
