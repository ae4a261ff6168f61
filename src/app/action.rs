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
    /// A game played remotely before, reopened: hosted again with the
    /// same ticket…
    HostAgain,
    /// …or played at this table.
    PlayHere,
    /// The passphrase of a player who began without one, set on his own
    /// screen once the game is under way (a remote game's).
    SetLock(Side, Lock, PlayerKey),
}

/// `$action` as the `Action::$own` variant's content, or `None` for
/// another system's or the shell's (sent just before *New* replaced the
/// window, or handled before). Every variant is named, once, here: one
/// added to `Action` fails to compile until it says whose it is.
macro_rules! own_action {
    ($action:expr, $own:ident) => {{
        use $crate::app::action::Action::*;
        #[allow(unreachable_patterns)]
        match $action {
            $own(action) => Some(action),
            Undo | Redo | PassphraseSet(..) | Fog(_) | Deck(_) | Forces(_) | Wings(_) => None,
        }
    }};
}
pub(crate) use own_action;

/// A seated table's two ways between its actions and the bus's: wrapped as
/// `Action::$own`, and back.
macro_rules! table_actions {
    ($own:ident) => {
        fn action(action: $crate::app::seated::Act<Self>) -> $crate::app::action::Action {
            $crate::app::action::Action::$own(action)
        }

        fn own(action: $crate::app::action::Action) -> Option<$crate::app::seated::Act<Self>> {
            $crate::app::action::own_action!(action, $own)
        }
    };
}
pub(crate) use table_actions;

/// What the deck's own widgets ask for.
pub enum DeckAction {
    /// Both players agreed: every card of the log is shown.
    OpenEverything,
}
