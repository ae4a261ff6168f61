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
mod files;
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
mod menus;
#[cfg(test)]
mod pairing;
#[cfg(test)]
mod part_tests;
mod passphrase;
#[cfg(test)]
mod phone_kit;
#[cfg(test)]
mod phone_layout_tests;
#[cfg(test)]
mod phone_map_tests;
mod players;
mod privacy;
#[cfg(test)]
mod proof_tests;
pub mod remote;
#[cfg(test)]
pub(crate) mod remote_tests;
mod screen;
#[cfg(test)]
mod screen_builds_tests;
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
use file_dialog::{FileAction, FileDialog};
use muster::core::side::Sides;
use muster::core::store::{self, Autosaves};
use muster::fog::ruleset::Ruleset;
use seating::Seating;
use status::Status;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Receiver;
use system::{Start, SystemWindow};

/// Opens the window; `open` is a battle file to load at start, `viewer`
/// what opens an exported printout.
pub fn run(open: Option<PathBuf>, viewer: Viewer, remote: RemoteStart) -> Result<(), String> {
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
        net: remote.net,
        join: remote.join,
    };
    // Made before the window, so what the file named on the command line
    // holds wrong reaches the terminal even where no window can open.
    let app = MusterApp::new(config);
    eframe::run_native("Muster", options, Box::new(move |_cc| Ok(Box::new(app))))
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

/// What the command line says of remote games: the relays, and a ticket
/// to join at once (`muster join`, or a `muster://` link opened).
pub struct RemoteStart {
    pub net: muster_remote::Net,
    pub join: Option<String>,
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
    /// How remote games reach the other machine (tests: their own relay).
    pub net: muster_remote::Net,
    /// A ticket to join as the window opens.
    pub join: Option<String>,
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
    invite: remote::invite::InviteWindow,
    join: remote::join::JoinWindow,
    /// The ticket each game was joined by, to join it again.
    rejoin: remote::rejoin::Rejoin,
    /// File > Quit was clicked during a remote game: asked again.
    quit_asked: bool,
    /// Where each player's private screens are, and his answers.
    seating: Seating,
    bus: Bus,
    inbox: Receiver<Msg>,
    viewer: Viewer,
    dialog: Option<FileDialog>,
    status: Option<Status>,
    /// A file that could not be opened while no game was open: said over
    /// the window, with nothing opened in its place.
    not_opened: Option<files::NotOpened>,
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
            net: config.net,
        };
        let kind = systems::fog();
        let (bus, inbox) = Bus::new();
        let mut seating = Seating::default();
        seating.phones.aliases = config.phone_names;
        seating.phones.settings = config.settings;
        seating.phones.recall();
        let rejoin = remote::rejoin::Rejoin::new(config.autosave.as_ref());
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
            invite: Default::default(),
            join: Default::default(),
            rejoin,
            quit_asked: false,
            seating,
            bus,
            inbox,
            viewer: config.viewer,
            dialog: None,
            status,
            not_opened: None,
        };
        if let Some(ticket) = config.join {
            app.join.open = true;
            app.join.text = ticket.clone();
            if let Err(why) = app.join.join(&ticket, &app.start.net, &app.bus) {
                eprintln!("muster: {why}");
                app.status = Some(Status::Error(why));
            }
        } else if let Some(path) = config.open {
            // Said on the terminal that named it too, before any window.
            if let Some(refused) = app.open(&path) {
                eprintln!("muster: {refused}");
            }
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

    /// The battle's window, changed by a test (a remote game's patience).
    #[cfg(test)]
    fn fog_mut(&mut self) -> &mut fog::FogWindow {
        let any: &mut dyn std::any::Any = &mut *self.system;
        any.downcast_mut().expect("a Field of Glory battle is open")
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

    /// Carries out everything sent on the bus since the last frame, in
    /// order: the shell's commands, the window's actions, the seats'
    /// messages. Then what the seats do by themselves, the autosave, and
    /// each phone's new screen, all in this frame.
    fn drain(&mut self, ctx: &egui::Context) {
        let mut changed = false;
        let mut carried = 0;
        self.remote_frame(&mut changed);
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
                    let cx = self.system.cx(&self.seating, &self.bus);
                    let handled = self.system.handle(action, &cx);
                    self.take(handled, &mut changed);
                }
                Msg::Seat(side, msg) => {
                    let outcome = self
                        .system
                        .seat_msg(&mut self.seating, side, msg, &self.bus);
                    self.told(outcome, &mut changed);
                }
                Msg::Players(msg) => self.system.players_msg(&mut self.seating, msg, &self.bus),
            }
        }
        if changed {
            // Every screen shows the change, and each seat does what it
            // does by itself (a march's word): said if it goes wrong.
            let outcome = self.system.game_changed(&mut self.seating);
            if outcome.status.is_some() {
                self.status = outcome.status;
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
        // Once a frame, after its messages: who has the laptop, and each
        // device's screen if what it shows changed (so both phones see a
        // tap's effect in the frame it was applied).
        if let Some(said) = self.system.prepare_seats(&mut self.seating) {
            self.status = Some(said);
        }
        self.system.send_screens(&mut self.seating);
    }

    /// What a seat's message did: a change made on a private screen or a
    /// phone makes the last outcome stale, as one made on the table does
    /// ("The game begins" into turn 1).
    fn told(&mut self, outcome: seating::Outcome, changed: &mut bool) {
        *changed |= outcome.changed;
        if outcome.status.is_some() || outcome.changed {
            self.status = outcome.status;
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
                // An autosave is not the players' file: Save asks where.
                if let Some(path) = self.autosaves.as_ref().map(|a| a.path(&id))
                    && self.open(&path).is_none()
                {
                    self.path = None;
                }
            }
            AppCommand::Undo | AppCommand::Redo => {
                let cx = self.system.cx(&self.seating, &self.bus);
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

    /// How the seats are called, for the players' screens window.
    pub(crate) fn seat_names(&mut self) -> Sides<String> {
        self.system.roster().names
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
        let cx = self.system.cx(&self.seating, &self.bus);
        let covering = self.system.cover(&mut self.seating, ui, &self.bus);
        if !covering {
            self.shortcuts(&ctx);
            egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui, &cx));
            self.help.show(&ctx, self.kind, self.system.help_step());
            let settings = self.start.inventory_path.as_deref().and_then(Path::parent);
            self.about
                .show(&ctx, self.start.autosave.as_deref(), settings);
            self.manual.show(&ctx);
            egui::Panel::top("status").show(ui, |ui| self.status_line(ui));
            self.rejoin_offer(ui);
            let names = self.seat_names();
            self.players
                .show(&ctx, &mut self.seating, &names, &self.bus);
            let roster = self.system.roster();
            let kept = self.system.kept_seat().or(self.rejoin.host_side());
            self.unlock.show(&ctx, &roster, kept, &cx, &self.bus);
            if !self.not_opened_ui(ui) {
                self.system.ui(ui, &cx);
            }
            self.remote_windows(&ctx);
            self.quit_question(&ctx);
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
pub(crate) mod tests;
