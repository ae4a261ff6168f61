//! The eframe app: the step list on the left, the table in the centre, the
//! current step's panel on the right, the log at the bottom.
//!
//! Panels never change the battle: they push `AppCommand`s, which
//! `MusterApp::drain` carries out in one place after the frame is laid out
//! (the pattern of rerun's viewer). Everything the panels draw is read from
//! the engine's `Battle`.

pub mod deck;
mod dice_input;
mod file_dialog;
mod fog;
mod help;
mod hex_grid;
mod log_view;
pub mod map_intel;
mod passphrase;
mod privacy;
mod screen;
pub mod system;
mod unlock;
pub mod wings;

use crate::systems::{self, System};
use eframe::egui;
use egui::{Key, KeyboardShortcut, Modifiers};
use file_dialog::{DialogOutcome, FileAction, FileDialog};
use fog::steps::Panels;
use fog::{inventory_editor, table_view};
use muster::core::side::Side;
use muster::core::store::{self, Autosaves};
use muster::fog::army::Army;
use muster::fog::battle::{Battle, Command, Step};
use muster::fog::files;
use muster::fog::ruleset::Ruleset;
use std::path::{Path, PathBuf};

/// Opens the window; `open` is a battle file to load at start.
pub fn run(open: Option<PathBuf>) -> Result<(), String> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Muster")
            .with_inner_size([1360.0, 860.0])
            .with_min_inner_size([900.0, 600.0]),
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

/// What the UI asks for. Drained once per frame by `MusterApp::drain`.
pub enum AppCommand {
    Apply(Command),
    /// A command sent from a player's private session (a sealed ambush or
    /// flank march): a refusal is shown in that session only.
    Private(Command),
    Undo,
    Redo,
    ShowStep(Step),
    Dialog(FileAction),
    /// Open an autosaved battle by its id.
    OpenRecent(String),
    /// Put an army into a side's draft (a loaded or example roster).
    DraftArmy(Side, Box<Army>),
    /// Confirm a side's army and set the player's passphrase.
    ConfirmArmyWithPassphrase(
        Side,
        Box<Army>,
        Box<(muster::core::intel::Lock, muster::core::intel::PlayerKey)>,
    ),
    /// A player unlocks the battle with the key his passphrase gave, worked
    /// out on his own screen.
    Unlock(Side, muster::core::intel::PlayerKey),
    /// Load a roster from the library into a side's draft.
    LoadRosterFrom(Side, PathBuf),
    /// Save a side's draft army into the roster library.
    SaveRosterToLibrary(Side),
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
    battle: Battle,
    /// Another system's game (action deck, hidden forces), when one is
    /// open instead of the battle.
    system: Option<Box<dyn system::SystemWindow>>,
    /// The open game's system: its files' name and ending, its help.
    kind: &'static System,
    /// The window's title as last sent, to send it only when it changes.
    title: String,
    /// The file the battle was last opened from or saved to.
    path: Option<PathBuf>,
    autosaves: Option<Autosaves>,
    /// The group's saved rosters, beside the autosaves.
    library: Option<files::RosterLibrary>,
    /// The seed of test runs' dice, given to every new battle.
    seed: Option<u64>,
    unlock: unlock::UnlockWindow,
    /// A printout with a player's private page, waiting for him to open it
    /// on his own screen: the screen, the dialog's choices and the path.
    private_export: Option<(
        passphrase::PassphraseScreen,
        file_dialog::PdfOptions,
        PathBuf,
    )>,
    help: help::HelpWindow,
    log_view: log_view::LogView,
    /// The step whose panel is shown (the current step unless the players
    /// clicked another).
    shown: Option<Step>,
    panels: Panels,
    /// The group's terrain pieces, and where they are kept.
    inventory: muster::fog::inventory::Inventory,
    inventory_path: Option<PathBuf>,
    viewer: bool,
    table: table_view::TableView,
    inventory_editor: inventory_editor::InventoryEditor,
    dialog: Option<FileDialog>,
    status: Option<Status>,
    /// The last roll(s) in words, shown large above the step's panel until
    /// the next action, so a result never vanishes as the step moves on.
    last_rolls: Vec<String>,
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
        let mut app = MusterApp {
            battle: Battle::new(ruleset),
            system: None,
            kind: systems::fog(),
            title: String::new(),
            path: None,
            library: config.autosave.as_deref().map(files::RosterLibrary::beside),
            autosaves: config.autosave.map(Autosaves::new),
            seed: config.seed,
            unlock: Default::default(),
            private_export: None,
            help: Default::default(),
            log_view: Default::default(),
            shown: None,
            panels: Panels::new(inventory.clone()),
            inventory,
            inventory_path: config.inventory,
            viewer: config.viewer,
            table: table_view::TableView::default(),
            inventory_editor: Default::default(),
            dialog: None,
            status,
            last_rolls: Vec::new(),
            queue: Vec::new(),
        };
        app.seed_dice();
        if let Some(path) = config.open {
            app.open(&path);
        } else if app.status.is_none() && !app.recent().is_empty() {
            app.status = Some(Status::Info(
                "Battles in progress are autosaved: File > Recent battles reopens them.".into(),
            ));
        }
        app
    }

    /// Test runs draw dice from a fixed seed; the app from the system.
    fn seed_dice(&mut self) {
        if let Some(seed) = self.seed {
            self.battle
                .use_dice(muster::core::dice::AppDice::seeded(seed));
        }
    }

    /// The open system's window, for tests that look at its engine.
    #[cfg(test)]
    fn system<T: 'static>(&self) -> Option<&T> {
        self.system.as_ref()?.as_any().downcast_ref()
    }

    /// The export dialog's choices for the game open: Field of Glory's
    /// printout has templates and a private page, each system says its own.
    fn pdf_options(&self) -> file_dialog::PdfOptions {
        let offers = match &self.system {
            Some(system) => system.printout_offers(),
            None => file_dialog::Offers {
                private: true,
                templates: true,
            },
        };
        file_dialog::PdfOptions {
            offers,
            ..Default::default()
        }
    }

    fn recent(&self) -> Vec<store::Recent> {
        self.autosaves.as_ref().map_or(Vec::new(), |a| a.recent())
    }

    fn shown_step(&self) -> Step {
        self.shown
            .unwrap_or_else(|| self.battle.state().current_step(self.battle.ruleset()))
    }

    /// After the battle changed: back to its current step, and autosaved
    /// under its own id (an empty battle is not worth a place in the list).
    fn after_change(&mut self) {
        self.shown = None;
        if let Some(saves) = &self.autosaves
            && !self.battle.log().is_empty()
            && let Err(e) = saves.save(&self.battle)
        {
            self.status = Some(Status::Error(format!(
                "Autosave failed ({e}); the battle is still open: use File > Save as…"
            )));
        }
    }

    /// Starts a new battle, dropping drafts and the file name.
    fn start(&mut self, ruleset: Ruleset, message: String) {
        self.replace_battle(Battle::new(ruleset), None, message);
    }

    /// Puts `battle` in the window with fresh panels, nothing of the last
    /// battle's rolls, drafts or unlock attempts left over.
    fn replace_battle(&mut self, battle: Battle, path: Option<PathBuf>, message: String) {
        self.battle = battle;
        self.system = None;
        self.kind = systems::fog();
        self.seed_dice();
        self.last_rolls.clear();
        self.panels = Panels::new(self.inventory.clone());
        self.unlock = Default::default();
        self.path = path;
        self.shown = None;
        self.status = Some(Status::Info(message));
    }

    /// Opens a battle file; the battle in memory is kept if it fails. The
    /// file is not autosaved until it changes, so opening an older copy
    /// never overwrites the autosave of a battle further along.
    fn open(&mut self, path: &Path) {
        let kind = systems::of_file(path).ok();
        let opened = kind
            .and_then(|system| system.window.as_ref())
            .map(|window| (window.open)(path));
        if let Some(opened) = opened {
            match opened {
                Ok(window) => {
                    let message = window.game().map_or_else(
                        || format!("Opened {}", path.display()),
                        |g| self.opened_note(path, g.id(), g.recent(0).entries),
                    );
                    self.system = Some(window);
                    self.kind = kind.expect("a window is of a system");
                    self.path = Some(path.to_path_buf());
                    self.status = Some(Status::Info(message));
                }
                Err(e) => self.status = Some(Status::Error(format!("Not opened: {e}"))),
            }
            return;
        }
        match files::load_battle(path) {
            Ok(battle) => {
                let message = self.opened_note(path, battle.id(), battle.log().len());
                self.replace_battle(battle, Some(path.to_path_buf()), message);
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
        let saved = match self.system.as_ref().map(|s| s.game()) {
            Some(Some(game)) => game.save_to(path),
            Some(None) => Err(store::StoreError::new("the game has not started yet")),
            None => files::save_battle(path, &self.battle),
        };
        match saved {
            Ok(()) => {
                self.path = Some(path.to_path_buf());
                self.status = Some(Status::Info(format!("Saved to {}", path.display())));
            }
            Err(e) => self.status = Some(Status::Error(format!("Not saved: {e}"))),
        }
    }

    /// Keeps the words of the entry just logged if it rolled dice: rolls
    /// made in one frame (*Roll for both*) are shown together.
    fn remember_rolls(&mut self, same_frame: bool) {
        let Some(entry) = self.battle.log().last() else {
            return;
        };
        if !same_frame {
            self.last_rolls.clear();
        }
        if entry.has_roll() {
            let lines = self.battle.log_lines();
            let new = &lines[lines.len() - entry.events.len()..];
            let settings = &self.battle.state().settings;
            self.last_rolls
                .extend(new.iter().map(|(text, _)| settings.speak(text)));
        }
    }

    /// Applies a command; a refusal of one sent from a private session
    /// (`private`) is shown in that session only. `applied` says whether
    /// another command was applied this frame (their rolls show together).
    fn apply(&mut self, command: Command, private: bool, applied: &mut bool) {
        match self.battle.apply(command) {
            Ok(_) => {
                self.status = None;
                self.remember_rolls(*applied);
                *applied = true;
                self.after_change();
            }
            Err(e) if private => {
                self.status = self
                    .panels
                    .refused_in_private(e.to_string())
                    .err()
                    .map(Status::Error)
            }
            Err(e) => self.status = Some(Status::Error(e.to_string())),
        }
    }

    /// Carries out everything the UI asked for this frame.
    fn drain(&mut self) {
        let mut applied = false;
        for command in std::mem::take(&mut self.queue) {
            match command {
                AppCommand::Apply(command) => self.apply(command, false, &mut applied),
                AppCommand::Private(command) => self.apply(command, true, &mut applied),
                AppCommand::Undo => match self.battle.undo() {
                    Ok(()) => {
                        self.last_rolls.clear();
                        self.status = Some(Status::Info("Undone".into()));
                        self.after_change();
                    }
                    Err(e) => self.status = Some(Status::Error(e.to_string())),
                },
                AppCommand::Redo => match self.battle.redo() {
                    Ok(()) => {
                        self.status = Some(Status::Info("Redone".into()));
                        self.after_change();
                    }
                    Err(e) => self.status = Some(Status::Error(e.to_string())),
                },
                AppCommand::NewGame(system) => match &system.window {
                    Some(window) => {
                        self.system = Some((window.new)(self.seed));
                        self.kind = system;
                        self.path = None;
                        self.status = Some(Status::Info(window.started.into()));
                    }
                    None => self.start(self.battle.ruleset().clone(), "New battle".into()),
                },
                AppCommand::Save => match self.path.clone() {
                    Some(path) => self.save(&path),
                    None => self.queue_save_as(),
                },
                AppCommand::ShowStep(step) => {
                    // Leaving a step ends any private session on it: the
                    // key and the opened secrets are dropped.
                    if step != self.shown_step() {
                        self.panels.end_private_sessions();
                    }
                    self.shown = Some(step);
                }
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
                AppCommand::DraftArmy(side, army) => self.panels.armies.set_draft(side, *army),
                AppCommand::LoadRosterFrom(side, path) => {
                    self.finish_dialog(FileAction::LoadRoster(side), path);
                }
                AppCommand::SaveRosterToLibrary(side) => {
                    let army = self.panels.armies.draft(side).clone();
                    let saved = match &self.library {
                        Some(library) => library.save(&army, self.battle.ruleset()),
                        None => Err(store::StoreError::new("this system has no data directory")),
                    };
                    self.status = Some(match saved {
                        Ok(path) => Status::Info(format!(
                            "{} saved to the roster library ({})",
                            army.name,
                            path.display()
                        )),
                        Err(e) => Status::Error(format!("Roster not saved: {e}")),
                    });
                }
                AppCommand::ConfirmArmyWithPassphrase(side, army, lock) => {
                    let (lock, key) = *lock;
                    let set = self.battle.hold_key(side, &key).and_then(|()| {
                        self.battle.apply(Command::SetArmy {
                            side,
                            army: *army,
                            lock: Some(lock),
                        })
                    });
                    match set {
                        Ok(_) => {
                            self.status = Some(Status::Info(format!(
                                "{side}'s army is entered and his passphrase set: every log entry now carries his tag"
                            )));
                            self.panels.armies.passphrase_set(side);
                            self.after_change();
                        }
                        Err(e) => self.status = Some(Status::Error(e.to_string())),
                    }
                }
                AppCommand::Unlock(side, key) => {
                    let result = self.battle.unlock_key(side, &key);
                    if result.is_ok() {
                        self.status = Some(Status::Info(format!(
                            "{side} unlocked the battle: every entry carries his valid tag"
                        )));
                    }
                    self.unlock.answer(side, result);
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
        let ruleset = self.battle.ruleset().clone();
        let files_of_system = !matches!(action, FileAction::OpenGame | FileAction::SaveGame(_));
        if let Some(system) = self.system.as_mut().filter(|_| files_of_system) {
            self.status = Some(match action {
                FileAction::ExportPdf(options) => match system.export_pdf(&options, &path) {
                    Ok(written) => {
                        if self.viewer {
                            written.iter().for_each(|p| {
                                open_in_viewer(p);
                            });
                        }
                        let names: Vec<String> =
                            written.iter().map(|p| p.display().to_string()).collect();
                        Status::Info(format!("PDF written to {}", names.join(" and ")))
                    }
                    Err(e) => Status::Error(format!("PDF not written: {e}")),
                },
                action => system.file_chosen(action, &path),
            });
            return;
        }
        match action {
            FileAction::ImportCardSet
            | FileAction::ImportScenario
            | FileAction::ImportRoster(_) => {}
            FileAction::OpenGame => self.open(&path),
            FileAction::SaveGame(_) => self.save(&path),
            FileAction::NewWithRuleset => {
                let loaded = std::fs::read_to_string(&path)
                    .map_err(|e| e.to_string())
                    .and_then(|text| Ruleset::from_json(&text).map_err(|e| e.to_string()));
                match loaded {
                    Ok(ruleset) => {
                        let message =
                            format!("New battle under {} from {}", ruleset.name, path.display());
                        self.start(ruleset, message);
                    }
                    Err(e) => {
                        self.status = Some(Status::Error(format!(
                            "Ruleset not loaded: {}: {e}",
                            path.display()
                        )));
                    }
                }
            }
            FileAction::LoadRoster(side) => match files::load_roster(&path, &ruleset) {
                Ok(army) => {
                    self.panels.armies.set_draft(side, army);
                    self.status = Some(Status::Info(format!(
                        "Loaded roster {} into {side}'s draft; confirm it to enter it",
                        path.display()
                    )));
                }
                Err(e) => self.status = Some(Status::Error(format!("Roster not loaded: {e}"))),
            },
            FileAction::ExportPdf(options) => {
                let date = muster::fog::export::today();
                let private = match options.private {
                    Some(side) => {
                        match muster::fog::export::private_page(
                            &self.battle,
                            side,
                            file_dialog::opener(&options),
                        ) {
                            Ok(page) => Some(page),
                            Err(e) => {
                                self.status = Some(Status::Error(format!("PDF not written: {e}")));
                                return;
                            }
                        }
                    }
                    None => None,
                };
                let mut written = Vec::new();
                let mut result =
                    muster::fog::export::save_pdf(&self.battle, options.paper, &date, &path)
                        .map(|()| written.push(path.clone()));
                if let (Ok(()), Some(page)) = (&result, &private) {
                    let private_path = muster::fog::export::private_path(&path, page.side);
                    result = muster::fog::export::save_private_pdf(
                        &self.battle,
                        page,
                        options.paper,
                        &private_path,
                    )
                    .map(|()| written.push(private_path));
                }
                if result.is_ok() && options.templates {
                    let templates = muster::fog::export::templates_path(&path);
                    result = muster::fog::export::save_templates_pdf(
                        &self.battle,
                        options.paper,
                        &templates,
                    )
                    .map(|()| written.push(templates));
                }
                match result {
                    Ok(()) => {
                        let opened = self.viewer && written.iter().all(|p| open_in_viewer(p));
                        let how = if opened {
                            ", opening it in your PDF viewer"
                        } else {
                            ""
                        };
                        let names: Vec<String> =
                            written.iter().map(|p| p.display().to_string()).collect();
                        self.status = Some(Status::Info(format!(
                            "PDF written to {}{how}",
                            names.join(" and ")
                        )));
                    }
                    Err(e) => self.status = Some(Status::Error(format!("PDF not written: {e}"))),
                }
            }
            FileAction::SaveRoster(army) => match files::save_roster(&path, &army, &ruleset) {
                Ok(()) => {
                    self.status = Some(Status::Info(format!("Roster saved to {}", path.display())));
                }
                Err(e) => self.status = Some(Status::Error(format!("Roster not saved: {e}"))),
            },
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        let cmd = |key| KeyboardShortcut::new(Modifiers::COMMAND, key);
        let cmd_shift = |key| KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, key);
        let battle = self.system.is_none();
        ctx.input_mut(|i| {
            // The shifted ones first: Ctrl+Shift+Z also matches Ctrl+Z.
            if battle && i.consume_shortcut(&cmd_shift(Key::Z)) {
                self.queue.push(AppCommand::Redo);
            } else if i.consume_shortcut(&cmd(Key::Z)) {
                match &mut self.system {
                    None => self.queue.push(AppCommand::Undo),
                    Some(system) if system.undoable().is_some() => system.undo(),
                    Some(_) => {}
                }
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

    /// The open game's title: the battle's, or the players of another
    /// system's game once it has started.
    fn game_title(&self) -> Option<String> {
        match &self.system {
            Some(system) => system.title(),
            None => Some(self.battle.state().settings.title.clone()),
        }
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
        let title = self.game_title().unwrap_or_default();
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

    /// *File > Rosters*: each roster of the library, to load into either
    /// side, and each side's army to save into it.
    fn rosters_menu(&mut self, ui: &mut egui::Ui) {
        let Some(library) = &self.library else {
            return;
        };
        let rosters = library.list(self.battle.ruleset());
        let dir = library.dir().display().to_string();
        ui.menu_button("Rosters", |ui| {
            if rosters.is_empty() {
                ui.weak("No saved rosters yet");
            }
            for roster in rosters {
                ui.menu_button(&roster.name, |ui| {
                    for side in Side::BOTH {
                        if ui.button(format!("Load into {side}")).clicked() {
                            self.queue
                                .push(AppCommand::LoadRosterFrom(side, roster.path.clone()));
                        }
                    }
                });
            }
            ui.separator();
            for side in Side::BOTH {
                if ui
                    .button(format!("Save {side}'s army to the library"))
                    .on_hover_text(format!("Kept in {dir}"))
                    .clicked()
                {
                    self.queue.push(AppCommand::SaveRosterToLibrary(side));
                }
            }
        });
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
                        if system.window.is_none()
                            && ui
                                .button("Field of Glory battle with ruleset file…")
                                .on_hover_text("A battle under another ruleset file (terrain tables, dice rules), checked when it loads")
                                .clicked()
                        {
                            self.queue
                                .push(AppCommand::Dialog(FileAction::NewWithRuleset));
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
                    self.queue
                        .push(AppCommand::Dialog(FileAction::ExportPdf(self.pdf_options())));
                }
                if self.system.is_none() {
                    self.rosters_menu(ui);
                }
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
            if let Some(system) = &mut self.system {
                ui.menu_button("Edit", |ui| {
                    let what = system.undoable();
                    let label = what.as_ref().map_or("Undo".to_string(), |w| format!("Undo: {w}"));
                    let undo = egui::Button::new(label).shortcut_text("Ctrl+Z");
                    if ui.add_enabled(what.is_some(), undo).clicked() {
                        system.undo();
                    }
                });
                ui.menu_button("View", |ui| {
                    egui::widgets::global_theme_preference_buttons(ui);
                });
                self.help_menu(ui);
                return;
            }
            ui.menu_button("Edit", |ui| {
                let undo = egui::Button::new("Undo").shortcut_text("Ctrl+Z");
                if ui.add_enabled(self.battle.can_undo(), undo).clicked() {
                    self.queue.push(AppCommand::Undo);
                }
                let redo = egui::Button::new("Redo").shortcut_text("Ctrl+Shift+Z");
                if ui.add_enabled(self.battle.can_redo(), redo).clicked() {
                    self.queue.push(AppCommand::Redo);
                }
                ui.separator();
                if ui.button("Terrain inventory…").clicked() {
                    self.inventory_editor.open = true;
                }
            });
            ui.menu_button("View", |ui| {
                let mut settings = self.battle.state().settings.clone();
                for unit in muster::fog::units::LengthUnit::ALL {
                    if ui
                        .radio(
                            settings.units == unit,
                            format!("Lengths in {}", unit.name()),
                        )
                        .clicked()
                        && settings.units != unit
                    {
                        settings.units = unit;
                        self.queue.push(AppCommand::Apply(Command::Configure {
                            settings: settings.clone(),
                        }));
                    }
                }
                ui.separator();
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

    fn step_list(&mut self, ui: &mut egui::Ui) {
        ui.heading("Sequence");
        ui.add_space(4.0);
        let state = self.battle.state();
        let ruleset = self.battle.ruleset();
        let shown = self.shown_step();
        for step in Step::ALL {
            let status = state.step_status(ruleset, step);
            let mark = match status {
                muster::fog::battle::StepStatus::Done => "✔",
                muster::fog::battle::StepStatus::Current => "▶",
                muster::fog::battle::StepStatus::Locked => "🔒",
            };
            let text = format!("{mark} {}", step.title());
            let enabled = status != muster::fog::battle::StepStatus::Locked;
            let button = egui::Button::selectable(shown == step, text);
            if ui.add_enabled(enabled, button).clicked() {
                self.queue.push(AppCommand::ShowStep(step));
            }
        }
    }

    /// The window when another system's game is open: the shell's menu
    /// and status line around the system's own window.
    fn system_ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.shortcuts(&ctx);
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        self.help.show(&ctx, self.kind, None);
        let Some(system) = &mut self.system else {
            return;
        };
        egui::Panel::top("status").show(ui, |ui| {
            system.status_line(ui);
            match &self.status {
                Some(Status::Error(text)) => {
                    ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {text}"));
                }
                Some(Status::Info(text)) => {
                    ui.label(text);
                }
                None => {
                    ui.weak(system.name());
                }
            }
        });
        system.ui(ui);
        let (status, changed) = system.drain();
        if status.is_some() || changed {
            self.status = status;
        }
        if let Some(action) = system.wants_file() {
            self.queue.push(AppCommand::Dialog(action));
        }
        if changed
            && let (Some(saves), Some(game)) = (&self.autosaves, system.game())
            && let Err(e) = saves.save(game)
        {
            self.status = Some(Status::Error(format!(
                "Autosave failed ({e}); the game is still open: use File > Save as…"
            )));
        }
        self.show_dialog(&ctx);
        self.drain();
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
                            if let Some((name, lock)) =
                                options.private.and_then(|side| self.private_lock(side)) =>
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

    /// `side`'s name and lock in the game open, when he has one.
    fn private_lock(&self, side: Side) -> Option<(String, muster::core::intel::Lock)> {
        match &self.system {
            Some(system) => system.private_lock(side),
            None => {
                let state = self.battle.state();
                let lock = state.locks[side].clone()?;
                let name = state.armies[side]
                    .as_ref()
                    .map_or(side.to_string(), |a| format!("{side} ({})", a.player));
                Some((name, lock))
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

    /// The players still to unlock a reopened battle, each called by his
    /// side and player.
    fn locked(&self) -> Vec<unlock::Locked> {
        let state = self.battle.state();
        self.battle
            .locked_sides()
            .into_iter()
            .filter_map(|side| {
                let who = state.armies[side]
                    .as_ref()
                    .map_or(side.to_string(), |a| format!("{side} ({})", a.player));
                Some((side, who, state.locks[side].clone()?))
            })
            .collect()
    }

    /// The unlock window over a reopened battle; true while a player's own
    /// passphrase screen covers the window.
    fn show_unlock(&mut self, ui: &mut egui::Ui) -> bool {
        let locked = self.locked();
        match self.unlock.show(ui, "battle", &locked) {
            unlock::Unlocking::Covering => true,
            unlock::Unlocking::Key(side, key) => {
                self.queue.push(AppCommand::Unlock(side, key));
                false
            }
            unlock::Unlocking::Nothing => false,
        }
    }

    fn status_line(&mut self, ui: &mut egui::Ui) {
        let locked = self.locked();
        // A battle's sealed records are opened by their owner's own session
        // or reveal; his unlock checks his tags.
        let unchecked: Vec<String> = locked
            .iter()
            .map(|(_, who, _)| format!("Until {who} unlocks: his tag on every entry"))
            .collect();
        if unlock::read_only_banner(ui, "battle", &locked, &unchecked) {
            self.unlock.reopen();
        }
        match &self.status {
            Some(Status::Error(text)) => {
                let text = self.battle.state().settings.speak(text);
                ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {text}"));
            }
            Some(Status::Info(text)) => {
                ui.label(text);
            }
            None => {}
        }
    }
}

impl eframe::App for MusterApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        let title = match self.game_title() {
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
        if self.system.is_some() {
            self.system_ui(ui);
            return;
        }
        // A player unlocking the battle, or setting his passphrase, has the
        // whole window.
        if self.show_unlock(ui) || self.panels.armies.covering(ui) {
            self.drain();
            return;
        }
        // A secret is being handed over: the whole window is the privacy
        // screen, so nothing of the other player's inputs shows.
        if let Some((step, mut screen)) = self.panels.hand_over(self.shown_step(), &self.battle) {
            match privacy::hand_over_screen(ui, &screen) {
                privacy::Clicked::Button => self.panels.handed_over(step, &self.battle),
                privacy::Clicked::OpenChoice => {
                    if let Some((_, command)) = screen.open_choice.take() {
                        self.queue.push(command);
                    }
                }
                privacy::Clicked::Wait => self.queue.push(AppCommand::ShowStep(Step::Battle)),
                privacy::Clicked::Nothing => {}
            }
            self.drain();
            return;
        }
        self.shortcuts(&ctx);
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        self.help.show(&ctx, self.kind, Some(self.shown_step()));
        egui::Panel::bottom("log")
            .resizable(true)
            .default_size(170.0)
            .show(ui, |ui| {
                self.status_line(ui);
                ui.separator();
                self.log_view.show(ui, &self.battle);
            });
        egui::Panel::left("steps")
            .resizable(false)
            .default_size(210.0)
            .show(ui, |ui| self.step_list(ui));
        // One width for every step and player, so the table never rescales
        // as the panel changes: a share of the window, within bounds.
        let width = (ctx.content_rect().width() * 0.38).clamp(440.0, 640.0);
        egui::Panel::right("step")
            .resizable(false)
            .exact_size(width)
            .show(ui, |ui| {
                let step = self.shown_step();
                if !self.last_rolls.is_empty() {
                    egui::Frame::group(ui.style()).show(ui, |ui| {
                        ui.set_width(ui.available_width());
                        for line in &self.last_rolls {
                            ui.label(egui::RichText::new(line).size(17.0).strong());
                        }
                    });
                }
                // The panel scrolls above a footer of fixed height, so the
                // step's main action stays in one place and in view.
                let footer = 44.0;
                let body = (ui.available_height() - footer).max(120.0);
                egui::ScrollArea::vertical()
                    .auto_shrink([false, false])
                    .max_height(body)
                    .min_scrolled_height(body)
                    .show(ui, |ui| {
                        self.panels.ui(ui, step, &self.battle, &mut self.queue);
                    });
                ui.separator();
                self.panels.footer(ui, step, &self.battle, &mut self.queue);
            });
        let overlay: Option<&mut dyn table_view::Overlay> = match self.shown_step() {
            Step::TerrainPlacement => Some(&mut self.panels.placement),
            Step::CampsAndFortifications => Some(&mut self.panels.camps),
            Step::Ambushes => Some(&mut self.panels.ambushes),
            Step::Deployment => Some(&mut self.panels.deployment),
            Step::Play => Some(&mut self.panels.play),
            _ => None,
        };
        egui::CentralPanel::default().show(ui, |ui| self.table.show(ui, &self.battle, overlay));
        let mu = self.battle.state().settings.mu;
        let ruleset = self.battle.ruleset();
        let path = self.inventory_path.as_deref();
        if let Some(inventory) =
            self.inventory_editor
                .show(&ctx, ruleset, mu, &self.inventory, path)
        {
            self.panels.placement.set_inventory(inventory.clone());
            self.inventory = inventory;
        }
        self.show_dialog(&ctx);
        self.drain();
    }
}

#[cfg(test)]
mod tests;
