//! The window of each game system: Field of Glory's battle, the action
//! deck, hidden forces, dummy wings. Each owns its state and its queue of
//! actions behind this small trait, so that the shell's menus, status line,
//! files, autosave and printout serve them all alike (the pattern of egui's
//! demo app).

use crate::app::Status;
use crate::app::file_dialog::{FileAction, Offers, PdfOptions};
use eframe::egui;
use muster::core::intel::trail::Locks;
use muster::core::intel::{Lock, PlayerKey};
use muster::core::side::{Side, Sides};
use muster::core::store::{Autosave, StoreError};
#[cfg(test)]
use std::any::Any;
use std::path::{Path, PathBuf};

/// What the shell gives every system's window as it opens: the seed of
/// test runs' dice, Muster's own folder, the group's terrain pieces.
#[derive(Clone)]
pub struct Start {
    pub seed: Option<u64>,
    /// The folder of autosaves (rosters are kept beside it).
    pub autosave: Option<PathBuf>,
    pub inventory: muster::fog::inventory::Inventory,
    pub inventory_path: Option<PathBuf>,
}

pub trait SystemWindow {
    /// Its name on the status line when nothing else is said.
    fn name(&self) -> &'static str;

    /// The game's title, once it has started: its players as File > Recent
    /// names them; the window's title and its file's name.
    fn title(&self) -> Option<String> {
        Some(self.game()?.recent(0).players)
    }

    fn ui(&mut self, ui: &mut egui::Ui);

    /// The reminder that a reopened game is read-only until unlocked.
    fn status_line(&mut self, ui: &mut egui::Ui);

    /// Carries out what its widgets asked for this frame: the status to
    /// show, and whether the game changed (to autosave).
    fn drain(&mut self) -> (Option<Status>, bool);

    /// The game to save, autosave and print, once it has started.
    fn game(&self) -> Option<&dyn Autosave>;

    /// The last entry in words when the rules let it be taken back (Edit >
    /// Undo, Ctrl+Z); `None` for a system without undo.
    fn undoable(&self) -> Option<String> {
        None
    }

    /// Takes it back, with the window's other actions.
    fn undo(&mut self) {}

    /// Whether something undone can be done again (Edit > Redo,
    /// Ctrl+Shift+Z).
    fn redoable(&self) -> bool {
        false
    }

    fn redo(&mut self) {}

    /// Its own entries in the File, Edit and View menus.
    fn file_menu(&mut self, _ui: &mut egui::Ui) {}
    fn edit_menu(&mut self, _ui: &mut egui::Ui) {}
    fn view_menu(&mut self, _ui: &mut egui::Ui) {}

    /// The step Help's how-to is about, for a system with steps.
    fn help_step(&self) -> Option<muster::fog::battle::Step> {
        None
    }

    /// Which players hold their seat on a phone now: their private screens
    /// go there, and no hand-over screen is shown for them.
    fn on_phones(&mut self, _on: Sides<bool>) {}

    /// The players who must still unlock a reopened game, each by name
    /// with his lock: a paired one unlocks on his phone.
    fn locked_seats(&self) -> Vec<crate::app::unlock::Locked> {
        Vec::new()
    }

    /// Unlocks for `side` with the key his passphrase gave (worked out off
    /// the window's thread): his tags and sealed records are checked as
    /// the unlock window checks them; why not, if refused.
    fn unlock_with(&mut self, _side: Side, _key: PlayerKey) -> Result<(), String> {
        Err("this game has no lock to open".into())
    }

    /// How the players call `side`'s player.
    fn seat_name(&self, side: Side) -> String {
        side.to_string()
    }

    /// `side`'s private screen for his phone, when the system has one.
    fn phone_screen(&mut self, _side: Side) -> Option<muster::core::screen::Screen> {
        None
    }

    /// A new game's passphrases, with the players' names as typed, while
    /// its form is open: a paired player sets his on his phone.
    fn new_game_passphrases(
        &mut self,
    ) -> Option<(&mut crate::app::passphrase::NewPassphrases, Sides<String>)> {
        None
    }

    /// What `side` answered on his phone.
    fn phone_answer(&mut self, _side: Side, _reply: muster::core::screen::Reply) {}

    /// A hex `side` tapped on his phone's map: it goes into his form as a
    /// click on the laptop's map would.
    fn phone_click(&mut self, _side: Side, _hex: muster::core::hexmap::Hex) {}

    /// A counter `side` dragged on his phone's map from `from` through
    /// `path`: it goes into his form as a drag on the laptop's map would.
    fn phone_drag(
        &mut self,
        _side: Side,
        _from: muster::core::hexmap::Hex,
        _path: &[muster::core::hexmap::Hex],
    ) {
    }

    /// What `side` has typed or chosen on his phone's form so far, for its
    /// live checks.
    fn phone_values(&mut self, _side: Side, _values: muster::core::screen::Values) {}

    /// A refusal in the words of the game's chosen units.
    fn speak(&self, text: &str) -> String {
        text.to_string()
    }

    /// What its printout offers beyond the public pages (a player's
    /// private page by default).
    fn printout_offers(&self) -> Offers {
        Offers {
            private: true,
            templates: false,
        }
    }

    /// `side`'s name and lock, when he has one: his private page is opened
    /// on his own screen first.
    fn private_lock(&self, _side: Side) -> Option<(String, Lock)> {
        None
    }

    /// Prints the game; returns the files written.
    fn export_pdf(&self, options: &PdfOptions, path: &Path) -> Result<Vec<PathBuf>, StoreError>;

    /// A file its widgets asked for (an import), taken once.
    fn wants_file(&mut self) -> Option<FileAction>;

    /// The file chosen for that action; what to tell the players.
    fn file_chosen(&mut self, action: FileAction, path: &Path) -> Status;

    /// For tests, which look at the engine behind the window.
    #[cfg(test)]
    fn as_any(&self) -> &dyn Any;
}

/// The public log at the foot of a game's window, newest line in view,
/// with its length and fingerprint to compare with the printout or a copy
/// of the file (an older copy has an older fingerprint).
pub fn log_panel(
    ui: &mut egui::Ui,
    id: &str,
    height: f32,
    lines: &[String],
    (entries, fingerprint): (usize, &str),
) {
    egui::Panel::bottom(id.to_string())
        .resizable(true)
        .default_size(height)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.strong("Log (what both players may see)");
                ui.weak(format!("{entries} entries, fingerprint {fingerprint}"))
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
