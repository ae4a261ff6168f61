//! The eframe app: the shell around whichever game system is open. It keeps
//! the menus, the file dialogs (titled and named per system), the status
//! line, autosave, the shortcuts and Help for every system alike; each
//! system's window (Field of Glory's battle, the action deck, hidden forces,
//! dummy wings) runs behind `SystemWindow`.
//!
//! The shell's own widgets push `AppCommand`s, which `MusterApp::drain`
//! carries out in one place after the frame is laid out (the pattern of
//! rerun's viewer); each system drains its own the same way.

#[cfg(test)]
mod chromium;
pub mod deck;
mod dice_input;
mod file_dialog;
pub mod fog;
mod guard;
mod help;
mod hex_grid;
mod log_view;
mod map_image;
pub mod map_intel;
mod passphrase;
mod players;
mod privacy;
mod screen;
pub mod system;
mod unlock;
#[cfg(test)]
mod walk_tests;
pub mod wings;

use crate::systems::{self, System};
use eframe::egui;
use egui::{Key, KeyboardShortcut, Modifiers};
use file_dialog::{DialogOutcome, FileAction, FileDialog};
use muster::core::side::{Side, Sides};
use muster::core::store::{self, Autosaves};
use muster::fog::ruleset::Ruleset;
use std::path::{Path, PathBuf};
use system::{Start, SystemWindow};

/// Opens the window; `open` is a battle file to load at start.
pub fn run(open: Option<PathBuf>) -> Result<(), String> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Muster")
            .with_inner_size([1360.0, 860.0])
            .with_min_inner_size([900.0, 600.0])
            // Opened to fit the screen, whatever its size (issue 25); the
            // size above is what it comes back to.
            .with_maximized(true),
        ..Default::default()
    };
    let config = AppConfig {
        autosave: store::autosave_dir(),
        inventory: muster::fog::inventory::config_path(),
        open,
        seed: None,
        viewer: true,
    };
    eframe::run_native(
        "Muster",
        options,
        Box::new(move |_cc| Ok(Box::new(MusterApp::new(config)))),
    )
    .map_err(|e| e.to_string())
}

/// Start-up choices, so tests can keep the autosaves away from the user's.
pub struct AppConfig {
    /// The folder of autosaves, one per battle.
    pub autosave: Option<PathBuf>,
    /// Where the terrain inventory is kept.
    pub inventory: Option<PathBuf>,
    pub open: Option<PathBuf>,
    /// A fixed seed for the app's dice, for tests only; `None` (the app)
    /// rolls from the operating system.
    pub seed: Option<u64>,
    /// Open exported PDFs in the system viewer.
    pub viewer: bool,
}

/// What the shell's own widgets ask for. Drained once per frame by
/// `MusterApp::drain`.
pub enum AppCommand {
    Dialog(FileAction),
    /// Open an autosaved game by its id.
    OpenRecent(String),
    /// *File > New > (a system)*: its setup form.
    NewGame(&'static System),
    /// *File > Save*: to the game's file, or Save as the first time.
    Save,
}

/// The last outcome worth telling the players.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Info(String),
    Error(String),
}

pub struct MusterApp {
    /// The open game's window.
    system: Box<dyn SystemWindow>,
    /// The open game's system: its files' name and ending, its help.
    kind: &'static System,
    /// What every window is given as it opens.
    start: Start,
    /// The window's title as last sent, to send it only when it changes.
    title: String,
    /// The file the game was last opened from or saved to.
    path: Option<PathBuf>,
    autosaves: Option<Autosaves>,
    /// A printout with a player's private page, waiting for him to open it
    /// on his own screen: the screen, the dialog's choices and the path.
    private_export: Option<(
        passphrase::PassphraseScreen,
        file_dialog::PdfOptions,
        PathBuf,
    )>,
    help: help::HelpWindow,
    players: players::PlayersWindow,
    viewer: bool,
    dialog: Option<FileDialog>,
    status: Option<Status>,
    queue: Vec<AppCommand>,
}

/// Opens a file with the desktop's viewer; whether one could be started.
fn open_in_viewer(path: &Path) -> bool {
    let mut command = if cfg!(target_os = "windows") {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else {
        std::process::Command::new("xdg-open")
    };
    command.arg(path).spawn().is_ok()
}

impl MusterApp {
    pub fn new(config: AppConfig) -> MusterApp {
        let ruleset = Ruleset::builtin();
        // A missing or unreadable inventory falls back to the shipped pieces;
        // the status line says why when there was a file.
        let mut status = None;
        let inventory = match config.inventory.as_deref().filter(|p| p.exists()) {
            Some(path) => {
                muster::fog::inventory::Inventory::load(path, &ruleset).unwrap_or_else(|e| {
                    status = Some(Status::Error(format!(
                        "Terrain inventory not loaded, using the shipped pieces: {}: {e}",
                        path.display()
                    )));
                    muster::fog::inventory::Inventory::builtin()
                })
            }
            None => muster::fog::inventory::Inventory::builtin(),
        };
        // Temporary files of a save killed last time go at start, in
        // Muster's folders and in those the players saved into.
        if let Some(dir) = &config.autosave {
            Autosaves::new(dir.clone()).folders().sweep();
        }
        for dir in [
            config.autosave.as_deref(),
            config.inventory.as_deref().and_then(Path::parent),
        ]
        .into_iter()
        .flatten()
        {
            store::sweep_temps(dir);
        }
        let start = Start {
            seed: config.seed,
            autosave: config.autosave.clone(),
            inventory,
            inventory_path: config.inventory,
        };
        let kind = systems::fog();
        let mut app = MusterApp {
            system: (kind.window.new)(&start),
            kind,
            start,
            title: String::new(),
            path: None,
            autosaves: config.autosave.map(Autosaves::new),
            private_export: None,
            help: Default::default(),
            players: Default::default(),
            viewer: config.viewer,
            dialog: None,
            status,
            queue: Vec::new(),
        };
        if let Some(path) = config.open {
            app.open(&path);
        } else if app.status.is_none() && !app.recent().is_empty() {
            app.status = Some(Status::Info(
                "Battles in progress are autosaved: File > Recent battles reopens them.".into(),
            ));
        }
        app
    }

    /// The open system's window, for tests that look at its engine.
    #[cfg(test)]
    fn system<T: 'static>(&self) -> Option<&T> {
        self.system.as_any().downcast_ref()
    }

    /// The battle's window, for tests of Field of Glory.
    #[cfg(test)]
    fn fog(&self) -> &fog::FogWindow {
        self.system().expect("a Field of Glory battle is open")
    }

    /// The export dialog's choices for the game open: each system says
    /// what its printout holds beyond the public pages.
    fn pdf_options(&self) -> file_dialog::PdfOptions {
        file_dialog::PdfOptions {
            offers: self.system.printout_offers(),
            ..Default::default()
        }
    }

    fn recent(&self) -> Vec<store::Recent> {
        self.autosaves.as_ref().map_or(Vec::new(), |a| a.recent())
    }

    /// Puts a system's window in place of the game open.
    fn replace(
        &mut self,
        window: Box<dyn SystemWindow>,
        kind: &'static System,
        path: Option<PathBuf>,
        message: String,
    ) {
        self.system = window;
        self.kind = kind;
        self.path = path;
        self.status = Some(Status::Info(message));
        // A seat is paired for a game: the players' screens stop with it.
        self.players = Default::default();
    }

    /// Opens a saved game of any system; the game open is kept if it
    /// fails. The file is not autosaved until it changes, so opening an
    /// older copy never overwrites the autosave of a game further along.
    fn open(&mut self, path: &Path) {
        let opened = systems::of_file(path)
            .map_err(|e| e.to_string())
            .and_then(|kind| {
                (kind.window.open)(path, &self.start)
                    .map(|window| (kind, window))
                    .map_err(|e| e.to_string())
            });
        match opened {
            Ok((kind, window)) => {
                let message = window.game().map_or_else(
                    || format!("Opened {}", path.display()),
                    |g| self.opened_note(path, g.id(), g.recent(0).entries),
                );
                self.replace(window, kind, Some(path.to_path_buf()), message);
            }
            Err(e) => self.status = Some(Status::Error(format!("Not opened: {e}"))),
        }
    }

    /// What opening `path` tells the players: whether Muster's autosave of
    /// the same game is further along, so an older copy (perhaps restored
    /// by one player) is not taken for the game they left.
    fn opened_note(&self, path: &Path, id: &str, entries: usize) -> String {
        match self
            .recent()
            .into_iter()
            .find(|r| r.id == id && r.entries > entries)
        {
            Some(newer) => format!(
                "Opened {}. Note: Muster's autosave of this game is further along ({} log entries against {entries} in this file). If nobody meant to go back, reopen it from File > Recent battles.",
                path.display(),
                newer.entries,
            ),
            None => format!("Opened {}", path.display()),
        }
    }

    fn save(&mut self, path: &Path) {
        let saved = match self.system.game() {
            Some(game) => game.save_to(path),
            None => Err(store::StoreError::new("the game has not started yet")),
        };
        match saved {
            Ok(()) => {
                self.path = Some(path.to_path_buf());
                self.status = Some(Status::Info(format!("Saved to {}", path.display())));
            }
            Err(e) => self.status = Some(Status::Error(format!("Not saved: {e}"))),
        }
    }

    /// Carries out everything the shell's widgets asked for this frame.
    fn drain(&mut self) {
        for command in std::mem::take(&mut self.queue) {
            match command {
                AppCommand::NewGame(system) => {
                    let window = (system.window.new)(&self.start);
                    self.replace(window, system, None, system.window.started.into());
                }
                AppCommand::Save => match self.path.clone() {
                    Some(path) => self.save(&path),
                    None => self.queue_save_as(),
                },
                AppCommand::Dialog(action) => {
                    let suggested = self.suggested_path(&action);
                    self.dialog = Some(FileDialog::new(action, suggested));
                }
                AppCommand::OpenRecent(id) => {
                    if let Some(path) = self.autosaves.as_ref().map(|a| a.path(&id)) {
                        self.open(&path);
                        self.path = None;
                    }
                }
            }
        }
    }

    fn finish_dialog(&mut self, action: FileAction, path: PathBuf) {
        // Muster writes there now or may later (Ctrl+S): a save killed in
        // that folder is cleaned at the next start.
        if let Some(saves) = &self.autosaves
            && let Err(e) = saves.folders().remember(&path)
        {
            self.status = Some(Status::Error(format!("Muster's folder list: {e}")));
        }
        self.status = Some(match action {
            FileAction::OpenGame => return self.open(&path),
            FileAction::SaveGame(_) => return self.save(&path),
            FileAction::NewFromFile(system) => {
                let Some(from_file) = &system.window.from_file else {
                    return;
                };
                match (from_file.new)(&path, &self.start) {
                    Ok(started) => {
                        return self.replace(started.window, system, None, started.message);
                    }
                    Err(e) => Status::Error(e),
                }
            }
            FileAction::ExportPdf(options) => match self.system.export_pdf(&options, &path) {
                Ok(written) => {
                    let opened = self.viewer && written.iter().all(|p| open_in_viewer(p));
                    let how = if opened {
                        ", opening it in your PDF viewer"
                    } else {
                        ""
                    };
                    let names: Vec<String> =
                        written.iter().map(|p| p.display().to_string()).collect();
                    Status::Info(format!("PDF written to {}{how}", names.join(" and ")))
                }
                Err(e) => Status::Error(format!("PDF not written: {e}")),
            },
            action => self.system.file_chosen(action, &path),
        });
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        let cmd = |key| KeyboardShortcut::new(Modifiers::COMMAND, key);
        let cmd_shift = |key| KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, key);
        ctx.input_mut(|i| {
            // The shifted ones first: Ctrl+Shift+Z also matches Ctrl+Z.
            if i.consume_shortcut(&cmd_shift(Key::Z)) {
                if self.system.redoable() {
                    self.system.redo();
                }
            } else if i.consume_shortcut(&cmd(Key::Z)) && self.system.undoable().is_some() {
                self.system.undo();
            }
            if i.consume_shortcut(&cmd_shift(Key::S)) {
                self.queue
                    .push(AppCommand::Dialog(FileAction::SaveGame(self.kind.noun)));
            } else if i.consume_shortcut(&cmd(Key::S)) {
                self.queue.push(AppCommand::Save);
            }
            if i.consume_shortcut(&cmd(Key::O)) {
                self.queue.push(AppCommand::Dialog(FileAction::OpenGame));
            }
            if i.consume_shortcut(&cmd(Key::P)) {
                self.queue.push(AppCommand::Dialog(FileAction::ExportPdf(
                    self.pdf_options(),
                )));
            }
            if i.consume_shortcut(&cmd(Key::N)) {
                self.queue.push(AppCommand::NewGame(self.kind));
            }
            if i.consume_key(Modifiers::NONE, Key::F1) {
                self.help.open = !self.help.open;
            }
        });
    }

    /// Save as, asked from the shortcut or the menu.
    fn queue_save_as(&mut self) {
        self.queue
            .push(AppCommand::Dialog(FileAction::SaveGame(self.kind.noun)));
    }

    /// Where a dialog starts: a game is saved beside its own file, under
    /// its title and its system's ending; a printout beside it as PDF.
    fn suggested_path(&self, action: &FileAction) -> Option<PathBuf> {
        let dir = self
            .path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok())?;
        let title = self.system.title().unwrap_or_default();
        match action {
            FileAction::OpenGame => self.path.clone(),
            FileAction::SaveGame(_) => Some(
                self.path
                    .clone()
                    .unwrap_or_else(|| dir.join(systems::file_name(&title, self.kind.extension))),
            ),
            FileAction::ExportPdf(_) => Some(dir.join(systems::file_name(&title, "pdf"))),
            _ => None,
        }
    }

    fn menu_bar(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                ui.menu_button("New", |ui| {
                    for system in &systems::ALL {
                        let mut button = egui::Button::new(system.name);
                        if std::ptr::eq(system, self.kind) {
                            button = button.shortcut_text("Ctrl+N");
                        }
                        if ui.add(button).on_hover_text(system.about).clicked() {
                            self.queue.push(AppCommand::NewGame(system));
                        }
                        if let Some(from_file) = &system.window.from_file
                            && ui
                                .button(from_file.label)
                                .on_hover_text(from_file.about)
                                .clicked()
                        {
                            self.queue
                                .push(AppCommand::Dialog(FileAction::NewFromFile(system)));
                        }
                    }
                });
                if ui
                    .add(egui::Button::new("Open…").shortcut_text("Ctrl+O"))
                    .clicked()
                {
                    self.queue.push(AppCommand::Dialog(FileAction::OpenGame));
                }
                if ui
                    .add(egui::Button::new("Save").shortcut_text("Ctrl+S"))
                    .clicked()
                {
                    self.queue.push(AppCommand::Save);
                }
                if ui
                    .add(egui::Button::new("Save as…").shortcut_text("Ctrl+Shift+S"))
                    .clicked()
                {
                    self.queue_save_as();
                }
                let export = egui::Button::new("Export PDF…").shortcut_text("Ctrl+P");
                if ui.add(export).clicked() {
                    self.queue.push(AppCommand::Dialog(FileAction::ExportPdf(
                        self.pdf_options(),
                    )));
                }
                if ui
                    .button("Players' screens…")
                    .on_hover_text(
                        "Each player pairs his phone: his secrets show there, never here",
                    )
                    .clicked()
                {
                    self.players.open = true;
                }
                self.system.file_menu(ui);
                let recent = self.recent();
                ui.add_enabled_ui(!recent.is_empty(), |ui| {
                    ui.menu_button("Recent battles", |ui| {
                        for battle in recent {
                            let button = egui::Button::new(battle.describe())
                                .wrap_mode(egui::TextWrapMode::Extend);
                            if ui.add(button).clicked() {
                                self.queue.push(AppCommand::OpenRecent(battle.id));
                            }
                        }
                    });
                });
                ui.separator();
                if ui.button("Quit").clicked() {
                    ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                }
            });
            ui.menu_button("Edit", |ui| {
                let what = self.system.undoable();
                let label = match what.as_deref() {
                    Some(w) if !w.is_empty() => format!("Undo: {w}"),
                    _ => "Undo".to_string(),
                };
                let undo = egui::Button::new(label).shortcut_text("Ctrl+Z");
                if ui.add_enabled(what.is_some(), undo).clicked() {
                    self.system.undo();
                }
                let redo = egui::Button::new("Redo").shortcut_text("Ctrl+Shift+Z");
                if self.system.redoable() && ui.add(redo).clicked() {
                    self.system.redo();
                }
                self.system.edit_menu(ui);
            });
            ui.menu_button("View", |ui| {
                self.system.view_menu(ui);
                egui::widgets::global_theme_preference_buttons(ui);
            });
            self.help_menu(ui);
        });
    }

    fn help_menu(&mut self, ui: &mut egui::Ui) {
        ui.menu_button("Help", |ui| {
            if ui
                .add(egui::Button::new("Shortcuts and how-to…").shortcut_text("F1"))
                .clicked()
            {
                self.help.open = true;
            }
        });
    }

    /// The open file dialog, and what its answer does.
    fn show_dialog(&mut self, ctx: &egui::Context) {
        if let Some(dialog) = &mut self.dialog {
            match dialog.show(ctx) {
                DialogOutcome::Open => {}
                DialogOutcome::Cancel => self.dialog = None,
                DialogOutcome::Confirm(path) => {
                    let action = self.dialog.take().expect("shown above").into_action();
                    match action {
                        // His page is opened on his own screen first.
                        FileAction::ExportPdf(options)
                            if let Some((name, lock)) = options
                                .private
                                .and_then(|side| self.system.private_lock(side)) =>
                        {
                            let side = options.private.expect("checked above");
                            let screen = passphrase::PassphraseScreen::new(
                                side,
                                name,
                                passphrase::Purpose::Unlock(lock),
                            );
                            self.private_export = Some((screen, options, path));
                        }
                        action => self.finish_dialog(action, path),
                    }
                }
            }
        }
    }

    /// A private printout's owner on his own screen; true while it covers
    /// the window. The printout is written once his key is worked out; a
    /// refusal (a changed log) is shown to him there.
    fn show_private_export(&mut self, ui: &mut egui::Ui) -> bool {
        let Some((screen, options, path)) = &mut self.private_export else {
            return false;
        };
        match screen.show(ui) {
            passphrase::Shown::Open => {}
            passphrase::Shown::Closed => self.private_export = None,
            passphrase::Shown::Finished(passphrase::Outcome::Unlocked(key)) => {
                let options = file_dialog::PdfOptions {
                    key: Some(key),
                    ..options.clone()
                };
                let path = path.clone();
                self.finish_dialog(FileAction::ExportPdf(options), path);
                let refusal = match &self.status {
                    Some(Status::Error(e)) => Some(e.clone()),
                    _ => None,
                };
                if let Some((screen, ..)) = &mut self.private_export {
                    match refusal {
                        Some(e) => screen.refused(e),
                        None => screen.accepted(),
                    }
                }
            }
            passphrase::Shown::Finished(passphrase::Outcome::Set(..)) => {
                unreachable!("a private page sets no lock")
            }
        }
        true
    }
}

impl eframe::App for MusterApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        guard::note_enter(&ctx);
        let title = match self.system.title() {
            Some(game) => format!("{game} - Muster"),
            None => "Muster".to_string(),
        };
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        if self.show_private_export(ui) {
            self.drain();
            return;
        }
        self.shortcuts(&ctx);
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        self.help.show(&ctx, self.kind, self.system.help_step());
        egui::Panel::top("status").show(ui, |ui| {
            self.system.status_line(ui);
            match &self.status {
                Some(Status::Error(text)) => {
                    let text = self.system.speak(text);
                    ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {text}"));
                }
                Some(Status::Info(text)) => {
                    ui.label(text);
                }
                None => {
                    ui.weak(self.system.name());
                }
            }
        });
        let names = Side::BOTH.map(|side| self.system.seat_name(side));
        self.players.show(
            &ctx,
            &Sides {
                south: names[0].clone(),
                north: names[1].clone(),
            },
        );
        self.players.carry(self.system.as_mut());
        self.system.ui(ui);
        let (status, changed) = self.system.drain();
        if status.is_some() || changed {
            self.status = status;
        }
        if changed {
            guard::arm(&ctx);
        }
        if let Some(action) = self.system.wants_file() {
            self.queue.push(AppCommand::Dialog(action));
        }
        if changed
            && let (Some(saves), Some(game)) = (&self.autosaves, self.system.game())
            && let Err(e) = saves.save(game)
        {
            self.status = Some(Status::Error(format!(
                "Autosave failed ({e}); the game is still open: use File > Save as…"
            )));
        }
        self.show_dialog(&ctx);
        self.drain();
    }
}

#[cfg(test)]
mod tests;
