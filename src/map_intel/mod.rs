//! Limited intelligence on a hex map (`RULES-map-intel.md`): the map
//! ledger both Part A and Part B stand on (the map, counters with sealed
//! contents, turns, reveals logged with their reason), and Part A's hidden
//! forces with Exercitus bluffs.

pub mod map;
pub mod scenario;

pub use map::{Hex, HexMap, Orientation, Shifted};
