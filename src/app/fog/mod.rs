//! Field of Glory's part of the window: its window behind the shell's
//! `SystemWindow` (the step list, the table, the step's panel, the log), a
//! panel per step of the sequence, the table to scale with each step's
//! overlay, and the terrain inventory editor.

pub mod inventory_editor;
mod phones;
pub mod steps;
pub mod table_view;
mod window;

pub use window::FogWindow;

use crate::app::file_dialog::FileAction;
use muster::core::intel::{Lock, PlayerKey};
use muster::core::side::Side;
use muster::fog::army::Army;
use muster::fog::battle::{Command, Step};
use std::path::PathBuf;

/// What Field of Glory's widgets ask for. Drained once per frame by
/// `FogWindow::drain`.
pub enum FogCommand {
    Apply(Command),
    /// A command sent from a player's private session (a sealed ambush or
    /// flank march, a reveal): a refusal is shown in that session only.
    Private(Command),
    /// A command sent from a player's phone, and the fields of his form it
    /// used up: a refusal goes to his phone only.
    FromPhone(Side, Command, &'static [&'static str]),
    Undo,
    Redo,
    ShowStep(Step),
    /// A file to choose, for the shell's dialog.
    Dialog(FileAction),
    /// Put an army into a side's draft (a loaded or example roster).
    DraftArmy(Side, Box<Army>),
    /// Confirm a side's army and set the player's passphrase.
    ConfirmArmyWithPassphrase(Side, Box<Army>, Box<(Lock, PlayerKey)>),
    /// A player unlocks the battle with the key his passphrase gave, worked
    /// out on his own screen.
    Unlock(Side, PlayerKey),
    /// Load a roster from the library into a side's draft.
    LoadRosterFrom(Side, PathBuf),
    /// Save a side's draft army into the roster library.
    SaveRosterToLibrary(Side),
}
