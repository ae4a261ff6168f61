//! Field of Glory's pre-battle sequence (RULES, `docs/src/rules/fog.md`):
//! the ruleset as data, armies and rosters, the table's geometry and
//! visibility, the event-sourced battle, its files, its printouts and its
//! script.

pub mod army;
pub mod army_list;
pub mod battle;
pub mod examples;
pub mod export;
pub mod files;
pub mod geometry;
pub mod inventory;
pub mod palette;
pub mod ruleset;
pub mod screens;
pub mod script;
pub mod seat;
pub mod units;
pub mod visibility;
