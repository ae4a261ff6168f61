//! The action deck (RULES-deck, `docs/src/rules/deck.md`): each player's
//! deck of action cards, held by the laptop so that hands stay secret and
//! the card rules are kept: hand size, redraw, reshuffle only when the deck
//! runs out, discard or remove, one event per event phase, one interrupt
//! per turn at the start of its phase.

mod audit;
pub mod cards;
pub mod committed;
pub mod describe;
pub mod events;
pub mod export;
pub mod files;
pub mod game;
pub mod odds;
pub mod phase;
mod remote;
pub mod screens;
pub mod script;
pub mod seat;
pub mod setup;
pub mod turn;
pub mod zones;

pub use cards::{Card, CardSet, Kind};
pub use events::Event;
pub use game::{Command, Game, Pick};
pub use phase::{Letter, PhaseName};
pub use setup::{Seat, Setup};
pub use turn::{Destination, Stage, Use};

#[cfg(test)]
mod tests;
