//! Field of Glory's part of the window: its window behind the shell's
//! `SystemWindow` (the step list, the table, the step's panel, the log), a
//! panel per step of the sequence, the table to scale with each step's
//! overlay, and the terrain inventory editor.

pub mod inventory_editor;
#[cfg(test)]
pub(crate) mod phones;
mod printout;
mod remote;
mod rosters;
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

/// What Field of Glory's widgets ask for: put on the bus at the end of
/// the frame, carried out by `FogWindow::handle`.
pub enum FogCommand {
    Apply(Command),
    ShowStep(Step),
    /// A file to choose, for the shell's dialog.
    Dialog(FileAction),
    /// Put an army into a side's draft (a loaded or example roster).
    DraftArmy(Side, Box<Army>),
    /// Confirm a side's army and set the player's passphrase.
    ConfirmArmyWithPassphrase(Side, Box<Army>, Box<(Lock, PlayerKey)>),
    /// Load a roster from the library into a side's draft.
    LoadRosterFrom(Side, PathBuf),
    /// Save a side's draft army into the roster library.
    SaveRosterToLibrary(Side),
    /// A player's private screen, asked for from the table.
    Show(Side),
    /// The step a player put off with "Not now" is handed to him again.
    Resume(Side),
    /// The table asks a player to do something in private.
    Ask(Side, muster::fog::seat::Asked),
    /// The remote seat this battle had is hosted again, same ticket.
    HostAgain,
    /// The remote seat this battle had is forgotten: it is played here.
    PlayHere,
}
