//! What every game system shares: dice nobody can foresee, sealed records
//! and player keys, the authenticated log's building blocks, files written
//! atomically and autosaved, printing, and the two players.

pub mod chained_game;
pub mod clock;
pub mod dice;
pub mod error;
pub mod hexmap;
pub mod intel;
pub mod labels;
pub mod locate;
pub mod mapview;
pub mod passphrase_screen;
pub mod pdf;
pub mod remote;
pub mod screen;
pub mod script;
pub mod seat;
pub mod side;
pub mod store;
pub mod text;
