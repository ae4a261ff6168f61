//! Muster's rules engine: the Field of Glory pre-battle sequence as data
//! (the ruleset), dice, armies and an event-sourced battle. No UI code lives
//! here; the eframe app in `src/app/` and the CLI only send commands to it
//! and render views of it.

pub mod army;
pub mod army_list;
pub mod battle;
pub mod clock;
pub mod dice;
pub mod error;
pub mod examples;
pub mod export;
pub mod geometry;
pub mod intel;
pub mod inventory;
pub mod labels;
pub mod palette;
pub mod ruleset;
pub mod script;
pub mod side;
pub mod store;
pub mod units;
pub mod visibility;

pub use error::RuleError;
pub use side::{Side, Sides};
