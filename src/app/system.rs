//! The window of each game system: Field of Glory's battle, and the seated
//! window the action deck, hidden forces and dummy wings configure. A
//! system's window says what it is (its name, its table, its game and its
//! seats); the shell owns everything common to them: menus, files, the
//! status line, autosave, the seats, the bus (the pattern of egui's demo
//! app). Its widgets send its own actions on the bus, typed (`action`),
//! which come back to its `handle` once per frame, after the UI.

use crate::app::action::Action;
use crate::app::file_dialog::{FileAction, Offers, PdfOptions};
use crate::app::seating::{Cx, SeatRoutes};
use crate::app::status::Status;
use eframe::egui;
use muster::core::intel::trail::Locks;
use muster::core::intel::{Lock, PlayerKey};
use muster::core::side::{Side, Sides};
use muster::core::store::{Autosave, StoreError};
use std::any::Any;
use std::path::{Path, PathBuf};

/// What the shell gives every system's window as it opens: the seed of
/// test runs' dice, Muster's own folder, the group's terrain pieces.
#[derive(Clone)]
pub struct Start {
    pub seed: Option<u64>,
    /// The folder of autosaves (rosters and map images are kept beside it).
    pub autosave: Option<PathBuf>,
    pub inventory: muster::fog::inventory::Inventory,
    pub inventory_path: Option<PathBuf>,
    /// How a remote game reaches the other machine: iroh's public relays,
    /// the club's relay named on the command line, or a test's own.
    pub net: muster_remote::Net,
}

/// A printout being made off the window's thread: the files it wrote.
pub type ExportJob = Box<dyn FnOnce() -> Result<Vec<PathBuf>, StoreError> + Send>;

/// Which of the shell's menus a system adds entries to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Menu {
    File,
    Edit,
    View,
}

/// What carrying out an action did: the status to show, and whether the
/// game changed (to autosave).
#[derive(Default)]
pub struct Handled {
    pub status: Option<Status>,
    pub changed: bool,
    /// A file it asks the players to choose, through the shell's dialog.
    pub dialog: Option<FileAction>,
}

impl Handled {
    pub fn status(status: Status) -> Handled {
        Handled {
            status: Some(status),
            ..Handled::default()
        }
    }
}

/// `Any`, so that tests may look at the window behind the trait; its
/// seats are reached by the shell's routes (`SeatRoutes`).
pub trait SystemWindow: Any + SeatRoutes {
    /// Its name on the status line when nothing else is said.
    fn name(&self) -> &'static str;

    /// Its chapter of the manual, which Help opens.
    fn chapter(&self) -> crate::app::manual::Chapter;

    /// Its table and panels (or its set-up form), with the seats' word on
    /// whose private screen the laptop shows now.
    fn ui(&mut self, ui: &mut egui::Ui, cx: &Cx);

    /// Carries out an action from the bus (its widgets', `Undo`, `Redo`,
    /// `PassphraseSet`).
    fn handle(&mut self, action: Action, cx: &Cx) -> Handled;

    /// The game to save, autosave and print, once it has started.
    fn game(&self) -> Option<&dyn Autosave>;

    /// The last entry in words when the rules let it be taken back (Edit >
    /// Undo, Ctrl+Z); `Err` says why not (greyed, with the reason).
    fn undoable(&self) -> Result<String, String>;

    /// Whether something undone can be done again (Edit > Redo).
    fn redoable(&self) -> bool;

    /// Its own entries in the File, Edit or View menu.
    fn menu(&mut self, _menu: Menu, _ui: &mut egui::Ui, _cx: &Cx) {}

    /// The step Help's how-to is about, for a system with steps.
    fn help_step(&self) -> Option<muster::fog::battle::Step> {
        None
    }

    /// What its printout offers beyond the public pages.
    fn printout_offers(&self) -> Offers;

    /// Printing the game, as work for a worker thread (the game's state
    /// taken now): it returns the files written.
    fn export_job(&self, options: &PdfOptions, path: &Path) -> Result<ExportJob, StoreError>;

    /// The file chosen for one of its dialog's actions; what to tell the
    /// players.
    fn file_chosen(&mut self, action: FileAction, path: &Path) -> Status;

    /// Its remote game, if one is open or being opened (docs: "Playing
    /// remotely").
    fn remote(&self) -> Option<crate::app::remote::invite::RemoteView> {
        None
    }

    /// The side whose seat this machine kept for another machine, when
    /// its game was played remotely and is not hosted again yet: he
    /// unlocks on his own machine, never here.
    fn kept_seat(&self) -> Option<Side> {
        None
    }

    /// Whether its game can be played remotely now, or why not.
    fn can_invite(&self) -> Result<(), String> {
        Err(not_remote(self.name()))
    }

    /// Invites a player to play `away` from his own machine, through `net`
    /// (with the club's `relay`, if the players named one).
    fn invite(
        &mut self,
        _away: Side,
        _net: muster_remote::Net,
        _relay: Option<String>,
        _wake: muster_remote::Wake,
    ) -> Result<(), String> {
        self.can_invite()
    }

    /// What the other machine sent since the last frame, taken.
    fn poll_remote(&mut self) -> Handled {
        Handled::default()
    }
}

/// Why a system's games are not played from two machines yet.
pub fn not_remote(name: &str) -> String {
    format!(
        "Playing remotely is not yet possible in {name}: Field of Glory battles and hidden forces games are played from two machines so far."
    )
}

/// The public log at the foot of a game's window, newest line in view,
/// with its length and fingerprint to compare with the printout or a copy
/// of the file (an older copy has an older fingerprint). Folded (`open`
/// false), it is one line: its newest entry, and a button to unfold it.
pub fn log_panel(
    ui: &mut egui::Ui,
    id: &str,
    height: f32,
    lines: &[String],
    (entries, fingerprint): (usize, &str),
    open: &mut bool,
) {
    let counted = format!(
        "{}, fingerprint {fingerprint}",
        muster_core::text::count(entries as u64, "entry", "entries")
    );
    if !*open {
        egui::Panel::bottom(format!("{id}-folded"))
            .resizable(false)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    if ui
                        .button("Show the log")
                        .on_hover_text("Unfold the log (what both players may see)")
                        .clicked()
                    {
                        *open = true;
                    }
                    ui.weak(&counted);
                    if let Some(last) = lines.last() {
                        ui.add(egui::Label::new(last.as_str()).truncate());
                    }
                });
            });
        return;
    }
    egui::Panel::bottom(id.to_string())
        .resizable(true)
        .default_size(height)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                if ui
                    .button("Fold the log")
                    .on_hover_text("Fold the log to its last line, for more of the table")
                    .clicked()
                {
                    *open = false;
                }
                ui.strong("Log (what both players may see)");
                ui.weak(counted)
                .on_hover_text("Note it when you stop: an older copy of the file would show an older fingerprint");
            });
            egui::ScrollArea::vertical()
                .stick_to_bottom(true)
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    for line in lines {
                        ui.label(line);
                    }
                });
        });
}

/// The status after a failed or successful import.
pub fn imported<T>(
    what: &str,
    loaded: Result<T, String>,
    take: impl FnOnce(T) -> String,
) -> Status {
    match loaded {
        Ok(value) => Status::Info(take(value)),
        Err(e) => Status::Error(format!("{what} not imported: {e}")),
    }
}

/// The players of a new game: their names as typed, and the lock and key
/// of each who set a passphrase.
pub struct Players {
    pub names: Sides<String>,
    pub locks: Locks,
    pub keys: Sides<Option<PlayerKey>>,
}

/// Each name is needed; a passphrase is optional, set on the player's own
/// screen (`NewPassphrases`).
pub fn players(
    names: &Sides<String>,
    passphrases: &Sides<Option<(Lock, PlayerKey)>>,
) -> Result<Players, String> {
    let mut players = Sides::default();
    let mut locks = Sides::default();
    let mut keys = Sides::default();
    for side in Side::BOTH {
        let name = names[side].trim();
        if name.is_empty() {
            return Err(format!("{side} player: enter a name"));
        }
        players[side] = name.to_string();
        if let Some((lock, key)) = passphrases[side].clone() {
            locks[side] = Some(lock);
            keys[side] = Some(key);
        }
    }
    Ok(Players {
        names: players,
        locks,
        keys,
    })
}
