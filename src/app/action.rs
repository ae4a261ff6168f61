//! The actions a system's window puts on the bus for its own `handle`
//! (DESIGN, "one command bus"): the shell's (Undo, Redo, a new game's
//! passphrase), or one system's, in its own types. Each window matches its
//! own in full, so an action a system adds and does not handle is a compile
//! error; another system's (sent just before *New* replaced the window) is
//! dropped. This vocabulary names the engines' commands and each window's
//! own small enums, never a window: the bus that carries it imports nothing
//! that imports the bus.

use crate::app::fog::FogCommand;
use muster::core::intel::{Lock, PlayerKey};
use muster::core::side::Side;
use std::convert::Infallible;

pub enum Action {
    /// Edit > Undo, for every system: each window takes it back its own
    /// way.
    Undo,
    /// Edit > Redo.
    Redo,
    /// A new game's passphrase, set on its player's own screen (laptop or
    /// phone): the form keeps the lock and key until the game starts.
    PassphraseSet(Side, Lock, PlayerKey),
    Fog(FogCommand),
    Deck(SeatedAction<muster::deck::Command, DeckAction>),
    Forces(SeatedAction<muster::map_intel::game::Command, Infallible>),
    Wings(SeatedAction<muster::map_intel::wings::game::Command, Infallible>),
}

/// A seated system's action (`seated::Table`): `C` its engine's command,
/// `A` its table's own.
pub enum SeatedAction<C, A> {
    /// Starts the game from the form.
    Start,
    /// A command for the game, from the table's widgets: applied by the
    /// rules with what they force after it.
    Apply(C),
    /// One of the table's own.
    Own(A),
}

/// What the deck's own widgets ask for.
pub enum DeckAction {
    /// Both players agreed: every card of the log is shown.
    OpenEverything,
}
