//! The eframe app: the shell around whichever game system is open. It keeps
//! the menus, the file dialogs (titled and named per system), the status
//! line, autosave, the shortcuts, Help and the players' seats for every
//! system alike; each system's window (Field of Glory's battle, the seated
//! window of the action deck, hidden forces and dummy wings) runs behind
//! `SystemWindow`.
//!
//! Everything that changes the game or the shell is a message on one bus
//! (`bus`): the widgets', the phones', the file dialog's, the key
//! workers'. `MusterApp::drain` carries them out in one place, once per
//! frame after the UI, in the order sent, then sends the phones their new
//! screens in the same frame (the pattern of rerun's viewer).

mod about;
pub mod action;
pub mod bus;
#[cfg(test)]
mod chromium;
pub mod deck;
mod dice_input;
pub mod file_dialog;
pub mod fog;
mod guard;
#[cfg(test)]
mod held_seat_tests;
mod help;
mod hex_grid;
mod image_read;
#[cfg(test)]
mod laptop_map_tests;
mod log_view;
mod manual;
mod map_image;
pub mod map_intel;
#[cfg(test)]
mod pairing;
mod passphrase;
#[cfg(test)]
mod phone_layout_tests;
#[cfg(test)]
mod phone_map_tests;
mod players;
mod privacy;
#[cfg(test)]
mod proof_tests;
mod screen;
#[cfg(test)]
mod seat_tests;
pub mod seated;
pub mod seating;
#[cfg(test)]
mod server_tests;
pub mod status;
pub mod system;
mod unlock;
#[cfg(test)]
mod walk_tests;
#[cfg(test)]
mod walker;
pub mod wings;
mod writer;

use crate::systems::{self, System};
use action::Action;
use bus::{AppCommand, Bus, Msg};
use eframe::egui;
use egui::{Key, KeyboardShortcut, Modifiers};
use file_dialog::{DialogOutcome, FileAction, FileDialog};
use muster::core::side::{Side, Sides};
use muster::core::store::{self, Autosaves};
use muster::fog::ruleset::Ruleset;
use seating::{Cx, Seating};
use status::Status;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Receiver;
use system::{Menu, Start, SystemWindow};

/// Opens the window; `open` is a battle file to load at start, `viewer`
/// what opens an exported printout.
pub fn run(open: Option<PathBuf>, viewer: Viewer) -> Result<(), String> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Muster")
            // Its own icon, not the toolkit's (issue 40).
            .with_icon(eframe::icon_data::from_png_bytes(about::ICON).expect("the icon is a PNG"))
            // Within a 1280 x 720 screen, its title bar and a panel too,
            // where maximising is not honoured.
            .with_inner_size([1240.0, 660.0])
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
        viewer,
        settings: muster::fog::inventory::config_path()
            .and_then(|p| Some(p.parent()?.join("players.json"))),
        phone_names: Vec::new(),
    };
    eframe::run_native(
        "Muster",
        options,
        Box::new(move |_cc| Ok(Box::new(MusterApp::new(config)))),
    )
    .map_err(|e| e.to_string())
}

/// How an exported printout is opened: by the desktop's viewer, by a
/// program of the caller's (tests record what they are asked to open), or
/// not at all.
#[derive(Clone, Debug)]
pub enum Viewer {
    Off,
    Desktop,
    Program(PathBuf),
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
    /// How an exported public printout is opened.
    pub viewer: Viewer,
    /// Where the players' screens keep the address chosen last (none in
    /// tests).
    pub settings: Option<PathBuf>,
    /// Names a phone may reach the laptop by besides its address (tests:
    /// a name their browser maps to 127.0.0.1).
    pub phone_names: Vec<String>,
}

/// The most messages carried out in one frame: the rest wait for the next
/// (a flood never freezes the window).
const MAX_MESSAGES: usize = 1000;

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
    /// Writes the autosaves off the window's thread.
    writer: writer::Writer,
    /// A printout is being made on its worker.
    exporting: bool,
    help: help::HelpWindow,
    about: about::AboutWindow,
    manual: manual::ManualWindow,
    players: players::PlayersWindow,
    unlock: unlock::UnlockWindow,
    /// Where each player's private screens are, and his answers.
    seating: Seating,
    bus: Bus,
    inbox: Receiver<Msg>,
    viewer: Viewer,
    dialog: Option<FileDialog>,
    status: Option<Status>,
}

/// Opens a file with `viewer`; whether one could be started. The viewer
/// is waited for on a thread of its own, so it leaves no defunct process
/// behind.
fn open_in_viewer(viewer: &Viewer, path: &Path) -> bool {
    let mut command = if let Viewer::Program(program) = viewer {
        std::process::Command::new(program)
    } else if matches!(viewer, Viewer::Off) {
        return false;
    } else if cfg!(target_os = "windows") {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else {
        std::process::Command::new("xdg-open")
    };
    match command.arg(path).spawn() {
        Ok(mut child) => {
            std::thread::spawn(move || child.wait());
            true
        }
        Err(_) => false,
    }
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
        let (bus, inbox) = Bus::new();
        let mut seating = Seating::default();
        seating.aliases = config.phone_names;
        seating.settings = config.settings;
        seating.recall();
        let mut app = MusterApp {
            system: (kind.window.new)(&start),
            kind,
            start,
            title: String::new(),
            path: None,
            autosaves: config.autosave.map(Autosaves::new),
            writer: writer::Writer::new(bus.clone()),
            exporting: false,
            help: Default::default(),
            about: Default::default(),
            manual: Default::default(),
            players: Default::default(),
            unlock: Default::default(),
            seating,
            bus,
            inbox,
            viewer: config.viewer,
            dialog: None,
            status,
        };
        if let Some(path) = config.open {
            app.open(&path);
        } else if app.status.is_none() && !app.recent().is_empty() {
            app.status = Some(Status::Info(
                "Games in progress are autosaved: File > Recent games reopens them.".into(),
            ));
        }
        app
    }

    /// The open system's window, for tests that look at its engine.
    #[cfg(test)]
    fn system<T: 'static>(&self) -> Option<&T> {
        let any: &dyn std::any::Any = &*self.system;
        any.downcast_ref()
    }

    /// The battle's window, for tests of Field of Glory.
    #[cfg(test)]
    fn fog(&self) -> &fog::FogWindow {
        self.system().expect("a Field of Glory battle is open")
    }

    /// The export dialog's choices for the game open: each system says
    /// what its printout holds beyond the public pages.
    fn pdf_options(&self) -> file_dialog::PdfOptions {
        let mut offers = self.system.printout_offers();
        let lives = self.seating.lives();
        offers.on_phone = muster::core::side::Sides {
            south: lives.south.on_phone(),
            north: lives.north.on_phone(),
        };
        file_dialog::PdfOptions {
            offers,
            ..Default::default()
        }
    }

    /// Waits until every autosave handed to the writer is on the disk
    /// (tests that read the autosaves' files).
    #[cfg(test)]
    pub fn autosaved(&self) {
        self.writer.flush();
    }

    fn recent(&self) -> Vec<store::Recent> {
        self.autosaves.as_ref().map_or(Vec::new(), |a| a.recent())
    }

    /// Puts a system's window in place of the game open: the players'
    /// screens stop with the old game, and its seats go with it.
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
        self.seating.reset();
        self.unlock = Default::default();
    }

    /// Opens a saved game of any system; the game open is kept if it
    /// fails. The file is not autosaved until it changes, so opening an
    /// older copy never overwrites the autosave of a game further along.
    fn open(&mut self, path: &Path) {
        // What it is compared with (Muster's autosave of the game) is on
        // the disk first.
        self.writer.flush();
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
                "Opened {}. Note: Muster's autosave of this game is further along ({} against {entries} in this file). If nobody meant to go back, reopen it from File > Recent games.",
                path.display(),
                muster_core::text::count(newer.entries as u64, "log entry", "log entries"),
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

    /// Carries out everything sent on the bus since the last frame, in
    /// order: the shell's commands, the window's actions, the seats'
    /// messages. Then what the seats do by themselves, the autosave, and
    /// each phone's new screen, all in this frame.
    fn drain(&mut self, ctx: &egui::Context) {
        let mut changed = false;
        let mut carried = 0;
        // What carrying one message out sends (a passphrase's form action)
        // is carried out in this frame too.
        while carried < MAX_MESSAGES {
            let Ok(msg) = self.inbox.try_recv() else {
                break;
            };
            carried += 1;
            match msg {
                Msg::App(command) => self.app_command(command, &mut changed),
                Msg::System(action) => {
                    let cx = self.seating.cx(&self.bus);
                    let handled = self.system.handle(action, &cx);
                    self.take(handled, &mut changed);
                }
                Msg::Seat(side, msg) => {
                    let mut host = self.system.seats();
                    let outcome = self
                        .seating
                        .handle(side, msg, &self.bus, host.as_deref_mut());
                    drop(host);
                    changed |= outcome.changed;
                    // A change made on a private screen or a phone makes
                    // the last outcome stale, as one made on the table
                    // does (issue 39: "The game begins" into turn 1).
                    if outcome.status.is_some() || outcome.changed {
                        self.status = outcome.status;
                    }
                }
                Msg::Players(msg) => {
                    let mut host = self.system.seats();
                    self.seating.players(msg, &self.bus, host.as_deref_mut());
                }
            }
        }
        if changed {
            if let Some(mut host) = self.system.seats() {
                host.by_itself();
            }
            guard::arm(ctx);
            // Written on the writer's thread; a failure comes back on the
            // bus and is said at once.
            if let (Some(saves), Some(game)) = (&self.autosaves, self.system.game()) {
                self.writer.write(saves.job(game));
            }
        }
        // The window shows what the messages did: drawn again at once.
        if carried > 0 {
            ctx.request_repaint();
        }
        // The phones see what this frame did at once. Their screens are
        // built only when a message came: nothing else changes them, and a
        // frame drawn for a pointer's move builds none.
        let mut host = self.system.seats();
        // A refusal speaks of the screen it was made on: once the game
        // moves on it goes (issue 39: "Name at least one unit to move"
        // stayed into the next turn).
        if changed && let Some(host) = host.as_deref_mut() {
            for side in Side::BOTH {
                host.forget(side);
            }
        }
        self.seating.prepare(host.as_deref_mut());
        if carried > 0 {
            self.seating.send_screens(host.as_deref());
        }
    }

    /// What a window's action did: its status, a change, a dialog.
    fn take(&mut self, handled: system::Handled, changed: &mut bool) {
        *changed |= handled.changed;
        if handled.status.is_some() || handled.changed {
            self.status = handled.status;
        }
        if let Some(action) = handled.dialog {
            self.bus.app(AppCommand::Dialog(action));
        }
    }

    fn app_command(&mut self, command: AppCommand, changed: &mut bool) {
        match command {
            AppCommand::NewGame(key) => {
                if let Some(system) = systems::by_key(key) {
                    let window = (system.window.new)(&self.start);
                    self.replace(window, system, None, system.window.started.into());
                }
            }
            AppCommand::Save => match self.path.clone() {
                Some(path) => self.save(&path),
                None => self
                    .bus
                    .app(AppCommand::Dialog(FileAction::SaveGame(self.kind.noun))),
            },
            AppCommand::Dialog(action) => {
                let suggested = self.suggested_path(&action);
                self.dialog = Some(FileDialog::new(action, suggested));
            }
            AppCommand::Chosen(action, path) => self.finish_dialog(action, path),
            AppCommand::OpenRecent(id) => {
                if let Some(path) = self.autosaves.as_ref().map(|a| a.path(&id)) {
                    self.open(&path);
                    self.path = None;
                }
            }
            AppCommand::Undo | AppCommand::Redo => {
                let cx = self.seating.cx(&self.bus);
                let action = match command {
                    AppCommand::Undo => Action::Undo,
                    _ => Action::Redo,
                };
                let handled = self.system.handle(action, &cx);
                self.take(handled, changed);
            }
            AppCommand::Say(status) => self.status = Some(status),
            AppCommand::Exported {
                path,
                private,
                result,
            } => self.status = Some(self.exported(&path, private, result)),
            AppCommand::Wake => {}
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
            FileAction::NewFromFile { key, .. } => {
                let Some(system) = systems::by_key(key) else {
                    return;
                };
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
            FileAction::ExportPdf(options) => self.export(&options, &path),
            action => self.system.file_chosen(action, &path),
        });
    }

    /// Prints the game on a worker thread (a PDF takes milliseconds to
    /// make and sync): the status line spins until it is written.
    fn export(&mut self, options: &file_dialog::PdfOptions, path: &Path) -> Status {
        if self.exporting {
            return Status::Error("A printout is still being written: wait for it".into());
        }
        let job = match self.system.export_job(options, path) {
            Ok(job) => job,
            Err(e) => return Status::Error(format!("PDF not written: {e}")),
        };
        self.exporting = true;
        let (bus, path, private) = (
            self.bus.clone(),
            path.to_path_buf(),
            options.private.is_some(),
        );
        let spawned = std::thread::Builder::new()
            .name("printout".into())
            .spawn(move || {
                let result = job().map_err(|e| e.to_string());
                bus.app(AppCommand::Exported {
                    path,
                    private,
                    result,
                });
            });
        if let Err(e) = spawned {
            self.exporting = false;
            return Status::Error(format!("PDF not written: {e}"));
        }
        Status::Info("Writing the PDF…".into())
    }

    /// A printout written. The public printout opens in the desktop's
    /// viewer; a player's private page never does (it would open on the
    /// shared screen): the status line says where it was written.
    fn exported(
        &mut self,
        path: &Path,
        private: bool,
        result: Result<Vec<PathBuf>, String>,
    ) -> Status {
        self.exporting = false;
        match result {
            Ok(written) => {
                let private = |p: &PathBuf| private && p != path;
                let opened = open_in_viewer(&self.viewer, path);
                let how = if opened {
                    ", opening it in your PDF viewer"
                } else {
                    ""
                };
                let mut said = format!("PDF written to {}{how}", path.display());
                for page in written.iter().filter(|p| p.as_path() != path) {
                    if private(page) {
                        said += &format!(
                            "; the private page to {} (Muster never opens it: its owner opens it themselves)",
                            page.display()
                        );
                    } else {
                        said += &format!(" and {}", page.display());
                    }
                }
                Status::Info(said)
            }
            Err(e) => Status::Error(format!("PDF not written: {e}")),
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        let cmd = |key| KeyboardShortcut::new(Modifiers::COMMAND, key);
        let cmd_shift = |key| KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, key);
        ctx.input_mut(|i| {
            // The shifted ones first: Ctrl+Shift+Z also matches Ctrl+Z.
            if i.consume_shortcut(&cmd_shift(Key::Z)) {
                if self.system.redoable() {
                    self.bus.app(AppCommand::Redo);
                }
            } else if i.consume_shortcut(&cmd(Key::Z)) && self.system.undoable().is_ok() {
                self.bus.app(AppCommand::Undo);
            }
            if i.consume_shortcut(&cmd_shift(Key::S)) {
                self.bus
                    .app(AppCommand::Dialog(FileAction::SaveGame(self.kind.noun)));
            } else if i.consume_shortcut(&cmd(Key::S)) {
                self.bus.app(AppCommand::Save);
            }
            if i.consume_shortcut(&cmd(Key::O)) {
                self.bus.app(AppCommand::Dialog(FileAction::OpenGame));
            }
            if i.consume_shortcut(&cmd(Key::P)) {
                self.bus.app(AppCommand::Dialog(FileAction::ExportPdf(
                    self.pdf_options(),
                )));
            }
            if i.consume_shortcut(&cmd(Key::N)) {
                self.bus.app(AppCommand::NewGame(self.kind.key));
            }
            if i.consume_key(Modifiers::NONE, Key::F1) {
                self.help.open = !self.help.open;
            }
        });
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
        let title = self.system.game().map(|g| g.headline()).unwrap_or_default();
        match action {
            FileAction::OpenGame => self.path.clone(),
            FileAction::SaveGame(_) => {
                Some(self.path.clone().unwrap_or_else(|| {
                    dir.join(systems::file_name(&title, systems::SAVE_EXTENSION))
                }))
            }
            FileAction::ExportPdf(_) => Some(dir.join(systems::file_name(&title, "pdf"))),
            _ => None,
        }
    }

    fn menu_bar(&mut self, ui: &mut egui::Ui, cx: &Cx) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                ui.menu_button("New", |ui| {
                    for system in &systems::ALL {
                        let mut button = egui::Button::new(system.name);
                        if std::ptr::eq(system, self.kind) {
                            button = button.shortcut_text("Ctrl+N");
                        }
                        if ui.add(button).on_hover_text(system.about).clicked() {
                            self.bus.app(AppCommand::NewGame(system.key));
                        }
                        if let Some(from_file) = &system.window.from_file
                            && ui
                                .button(from_file.label)
                                .on_hover_text(from_file.about)
                                .clicked()
                        {
                            self.bus.app(AppCommand::Dialog(FileAction::NewFromFile {
                                key: system.key,
                                noun: system.noun,
                            }));
                        }
                    }
                });
                if ui
                    .add(egui::Button::new("Open…").shortcut_text("Ctrl+O"))
                    .clicked()
                {
                    self.bus.app(AppCommand::Dialog(FileAction::OpenGame));
                }
                if ui
                    .add(egui::Button::new("Save").shortcut_text("Ctrl+S"))
                    .clicked()
                {
                    self.bus.app(AppCommand::Save);
                }
                if ui
                    .add(egui::Button::new("Save as…").shortcut_text("Ctrl+Shift+S"))
                    .clicked()
                {
                    self.bus
                        .app(AppCommand::Dialog(FileAction::SaveGame(self.kind.noun)));
                }
                let export = egui::Button::new("Export PDF…").shortcut_text("Ctrl+P");
                if ui.add(export).clicked() {
                    self.bus.app(AppCommand::Dialog(FileAction::ExportPdf(
                        self.pdf_options(),
                    )));
                }
                if ui
                    .button("Players' screens…")
                    .on_hover_text(
                        "Each player pairs their phone: their secrets show there, never here",
                    )
                    .clicked()
                {
                    self.players.open = true;
                }
                self.system.menu(Menu::File, ui, cx);
                let recent = self.recent();
                ui.add_enabled_ui(!recent.is_empty(), |ui| {
                    ui.menu_button("Recent games", |ui| {
                        for battle in recent {
                            let button = egui::Button::new(battle.describe())
                                .wrap_mode(egui::TextWrapMode::Extend);
                            if ui.add(button).clicked() {
                                self.bus.app(AppCommand::OpenRecent(battle.id));
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
                let label = match &what {
                    Ok(w) if !w.is_empty() => format!("Undo: {w}"),
                    _ => "Undo".to_string(),
                };
                let undo = egui::Button::new(label).shortcut_text("Ctrl+Z");
                let undo = ui.add_enabled(what.is_ok(), undo);
                let undo = match &what {
                    Err(why) => undo.on_disabled_hover_text(why),
                    Ok(_) => undo,
                };
                if undo.clicked() {
                    self.bus.app(AppCommand::Undo);
                }
                let redo = egui::Button::new("Redo").shortcut_text("Ctrl+Shift+Z");
                if self.system.redoable() && ui.add(redo).clicked() {
                    self.bus.app(AppCommand::Redo);
                }
                self.system.menu(Menu::Edit, ui, cx);
            });
            ui.menu_button("View", |ui| {
                self.system.menu(Menu::View, ui, cx);
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
            let chapter = self.system.chapter();
            if ui.button(format!("Manual: {}", chapter.title())).clicked() {
                self.manual.show_chapter(chapter);
            }
            if ui.button("About Muster").clicked() {
                self.about.open = true;
            }
        });
    }

    /// The open file dialog, and what its answer does. A private printout
    /// is written only with its owner's key, asked on his own screen.
    fn show_dialog(&mut self, ctx: &egui::Context) {
        let Some(dialog) = &mut self.dialog else {
            return;
        };
        match dialog.show(ctx) {
            DialogOutcome::Open => {}
            DialogOutcome::Cancel => self.dialog = None,
            DialogOutcome::Confirm(path) => {
                let action = self.dialog.take().expect("shown above").into_action();
                match action {
                    FileAction::ExportPdf(options)
                        if let Some(side) = options.private
                            && let Some(lock) =
                                self.system.seats().and_then(|s| s.lock_of(side)) =>
                    {
                        self.bus.seat(
                            side,
                            bus::SeatMsg::AskKey {
                                lock,
                                then: Box::new(move |key| {
                                    let options = file_dialog::PdfOptions {
                                        key: Some(key),
                                        ..options
                                    };
                                    Msg::App(AppCommand::Chosen(
                                        FileAction::ExportPdf(options),
                                        path,
                                    ))
                                }),
                            },
                        );
                    }
                    action => self.bus.app(AppCommand::Chosen(action, path)),
                }
            }
        }
    }

    /// The status line: the read-only reminder of a reopened game, then
    /// the last outcome worth telling.
    fn status_line(&mut self, ui: &mut egui::Ui) {
        // One line whatever it says (the whole text on hover): a status
        // that wrapped, or a read-only reminder on a row of its own (issue
        // 39), moved the map and the panel under a planned click.
        let text = match &self.status {
            Some(Status::Error(text)) => {
                egui::RichText::new(format!("⚠ {text}")).color(ui.visuals().error_fg_color)
            }
            Some(Status::Info(text)) => egui::RichText::new(text),
            None => egui::RichText::new(self.system.name()).weak(),
        };
        let mut reopen = false;
        ui.horizontal(|ui| {
            if let Some(host) = self.system.seats() {
                reopen = unlock::read_only_banner(ui, host.as_ref());
            }
            if self.exporting {
                ui.spinner();
            }
            ui.add(egui::Label::new(text).truncate());
        });
        if reopen {
            self.unlock.reopen();
        }
    }

    /// How the seats are called, for the players' screens window.
    pub(crate) fn seat_names(&mut self) -> Sides<String> {
        let host = self.system.seats();
        let name = |side: Side| host.as_ref().map_or(side.to_string(), |h| h.name(side));
        Sides {
            south: name(Side::South),
            north: name(Side::North),
        }
    }
}

/// Text a player reads at arm's length across the table: egui's 12.5 px
/// body text (capitals 9 px tall) made 14 px, the rest in proportion.
/// Set once per context; a style already set is left alone.
fn reading_sizes(ctx: &egui::Context) {
    const BODY: f32 = 14.0;
    if ctx.global_style().text_styles[&egui::TextStyle::Body].size == BODY {
        return;
    }
    ctx.all_styles_mut(|style| {
        use egui::TextStyle;
        for (text, size) in [
            (TextStyle::Body, BODY),
            (TextStyle::Button, BODY),
            (TextStyle::Monospace, 13.0),
            (TextStyle::Small, 11.0),
            (TextStyle::Heading, 20.0),
        ] {
            if let Some(font) = style.text_styles.get_mut(&text) {
                font.size = size;
            }
        }
    });
}

impl eframe::App for MusterApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.bus.attach(&ctx);
        reading_sizes(&ctx);
        guard::note_enter(&ctx);
        let title = match self.system.game() {
            Some(game) => format!("{} - Muster", game.headline()),
            None => "Muster".to_string(),
        };
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        {
            let mut host = self.system.seats();
            self.seating.prepare(host.as_deref_mut());
        }
        let cx = self.seating.cx(&self.bus);
        let covering = {
            let host = self.system.seats();
            self.seating.covering(ui, &self.bus, host.as_deref())
        };
        if !covering {
            self.shortcuts(&ctx);
            egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui, &cx));
            self.help.show(&ctx, self.kind, self.system.help_step());
            let settings = self.start.inventory_path.as_deref().and_then(Path::parent);
            self.about
                .show(&ctx, self.start.autosave.as_deref(), settings);
            self.manual.show(&ctx);
            egui::Panel::top("status").show(ui, |ui| self.status_line(ui));
            let names = self.seat_names();
            self.players
                .show(&ctx, &mut self.seating, &names, &self.bus);
            if let Some(host) = self.system.seats() {
                self.unlock.show(&ctx, host.as_ref(), &cx, &self.bus);
            }
            self.system.ui(ui, &cx);
            self.show_dialog(&ctx);
        }
        self.drain(&ctx);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.seating.stop();
        // Nothing lost: the last change is on the disk before the window
        // goes.
        self.writer.flush();
    }
}

/// Where a window of `width` opens: centred, clear of the menu bar (egui
/// would put it at the top left, over "File Edit View Help").
pub(crate) fn under_menu(ctx: &egui::Context, width: f32) -> egui::Pos2 {
    ctx.content_rect().center_top() + egui::vec2(-width / 2.0, 56.0)
}

#[cfg(test)]
mod tests;
