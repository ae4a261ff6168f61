//! Hidden forces' part of the window (RULES-map-intel 0 and A): the setup
//! form, then the numbered hex grid standing in for the printed map, the
//! turn's orders both players watch, and, behind the hand-over screen, one
//! player's ledger of what his counters and holding areas hold.
//!
//! The table shows the game's table view (no side's face-down contents);
//! a private screen shows that player's own view. Widgets push
//! `ForcesAction`s, which `ForcesWindow::drain_actions` carries out in one
//! place.

mod orders;
mod setup;
#[cfg(test)]
mod tests;

use crate::app::Status;
use crate::app::file_dialog::{FileAction, PdfOptions, opener};
use crate::app::hex_grid::{HexGrid, Highlight};
use crate::app::players::PhoneForms;
use crate::app::privacy::{Clicked, PrivateRefusal, Screen, hand_over_screen};
use crate::app::system::{Players, SystemWindow, imported, log_panel, players};
use crate::app::unlock::{self, Locked, UnlockWindow, Unlocking};
use eframe::egui;
use muster::core::intel::PlayerKey;
use muster::core::screen::{Reply, Values};
use muster::core::side::{Side, Sides};
use muster::core::store::{self, Autosave, StoreError};
use muster::map_intel::game::{Command, Game};
use muster::map_intel::map::Hex;
use muster::map_intel::scenario::{Army, Scenario};
use muster::map_intel::{Setup, View};
use setup::SetupForm;
#[cfg(test)]
use std::any::Any;
use std::path::{Path, PathBuf};

/// What the hidden-forces widgets ask for.
pub enum ForcesAction {
    Start,
    /// A scenario, or one side's roster, from a file.
    Import(FileAction),
    Apply(Command),
    HandTo(Side),
    Hide,
    /// A player's key, worked out from his passphrase on his own screen.
    Unlock(Side, PlayerKey),
    ShowUnlock,
    /// What a player sent from his ledger on his phone.
    PhoneAnswer(Side, Reply),
    /// Input the window itself found wrong (a hex name mistyped).
    Refused(String),
    /// What a player sent from his ledger.
    Answer(Side, Reply),
}

/// The counter and hex the players picked on the map or in the lists.
#[derive(Default)]
pub struct Selection {
    pub counter: Option<usize>,
    pub hex: Option<Hex>,
    /// Where the selected counter goes, as printed (`0607`), filled by a
    /// click on the map or typed.
    pub to: String,
}

pub struct ForcesWindow {
    form: SetupForm,
    game: Option<Game>,
    screen: Screen,
    selection: Selection,
    grid: HexGrid,
    /// What the player holding the screen entered in his ledger's form.
    ledger: Values,
    queue: Vec<ForcesAction>,
    unlock: UnlockWindow,
    wants_file: Option<FileAction>,
    private_refusal: PrivateRefusal,
    /// Who holds his seat on a phone, his ledger's form there, and the
    /// refusal of his last answer (shown on his phone only).
    phones: Sides<bool>,
    phone_forms: PhoneForms,
    /// Where the game's map image is kept.
    map_images: crate::app::map_image::Keeper,
}

impl ForcesWindow {
    pub fn new() -> ForcesWindow {
        ForcesWindow {
            map_images: Default::default(),
            form: SetupForm::default(),
            game: None,
            screen: Screen::Table,
            selection: Selection::default(),
            grid: HexGrid::default(),
            ledger: Values::new(),
            queue: Vec::new(),
            unlock: UnlockWindow::default(),
            wants_file: None,
            private_refusal: PrivateRefusal::default(),
            phones: Sides::default(),
            phone_forms: PhoneForms::default(),
        }
    }

    /// A new game's form; map images kept in `autosave`.
    pub fn in_folder(autosave: Option<&Path>) -> ForcesWindow {
        ForcesWindow {
            map_images: crate::app::map_image::Keeper {
                dir: autosave.map(Path::to_path_buf),
            },
            ..ForcesWindow::new()
        }
    }

    /// A game read from a file, with its map image if one was kept.
    pub fn opened(game: Game, autosave: Option<&Path>) -> ForcesWindow {
        let mut window = ForcesWindow::in_folder(autosave);
        window.map_images.restore(&mut window.grid, game.id());
        window.game = Some(game);
        window
    }

    #[cfg(test)]
    pub fn engine(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    fn start(&self) -> Result<Game, String> {
        let f = &self.form;
        let Players {
            names: players,
            locks,
            keys,
        } = players(&f.names, &f.passphrases.keys)?;
        let setup = Setup {
            scenario: f.scenario.clone(),
            players,
            locks,
        };
        Game::new(setup, keys).map_err(|e| e.to_string())
    }

    fn drain_actions(&mut self) -> (Option<Status>, bool) {
        // The map image aligned or removed on the grid this frame.
        let mut status = self
            .game
            .as_ref()
            .and_then(|game| self.map_images.after(&mut self.grid, game.id()));
        let mut changed = false;
        for action in std::mem::take(&mut self.queue) {
            match action {
                ForcesAction::Start => match self.start() {
                    Ok(game) => {
                        status = Some(Status::Info(
                            "Set-up: each player places his forces and Exercitus markers in private".into(),
                        ));
                        self.game = Some(game);
                        changed = true;
                    }
                    Err(e) => status = Some(Status::Error(format!("Not started: {e}"))),
                },
                ForcesAction::Import(action) => self.wants_file = Some(action),
                ForcesAction::Apply(command) => self.apply(command, &mut status, &mut changed),
                ForcesAction::Answer(side, reply) => {
                    let Some(game) = &self.game else {
                        continue;
                    };
                    match muster::map_intel::screens::answer(game, side, &reply) {
                        Ok(command) => self.apply(command, &mut status, &mut changed),
                        Err(e) => status = self.private_refusal.route(self.screen, e.to_string()),
                    }
                }
                ForcesAction::PhoneAnswer(side, reply) => {
                    let Some(game) = &mut self.game else {
                        continue;
                    };
                    let result = muster::map_intel::screens::answer(game, side, &reply)
                        .and_then(|command| game.apply(command).map(drop))
                        .map_err(|e| e.to_string());
                    // The units moved are no longer where they were ticked.
                    if self.phone_forms.answered(side, result, &["units"]) {
                        changed = true;
                        self.after_change();
                    }
                }
                ForcesAction::HandTo(side) => self.screen = Screen::HandingTo(side),
                ForcesAction::Hide => {
                    self.screen = self.screen.hide();
                    // What he picked in private (a counter, a hex) would
                    // stay highlighted on the shared map.
                    self.selection = Selection::default();
                    self.ledger.clear();
                    self.private_refusal.clear();
                }
                ForcesAction::Unlock(side, key) => {
                    let Some(game) = &mut self.game else {
                        continue;
                    };
                    let result = game.unlock_key(side, &key);
                    if result.is_ok() {
                        status = Some(Status::Info(format!(
                            "{} unlocked the game: every entry carries his valid tag, and each unit was in one place at every step",
                            game.setup().name(side)
                        )));
                    }
                    self.unlock.answer(side, result);
                }
                ForcesAction::ShowUnlock => self.unlock.reopen(),
                ForcesAction::Refused(message) => {
                    status = self.private_refusal.route(self.screen, message);
                }
            }
        }
        (status, changed)
    }

    /// A selected counter that left the map is no longer selected; the
    /// ledger's ticked units follow the contents.
    /// Applies a command; a refusal goes to the private screen it came
    /// from, if one is up.
    fn apply(&mut self, command: Command, status: &mut Option<Status>, changed: &mut bool) {
        let Some(game) = &mut self.game else {
            return;
        };
        match game.apply(command) {
            Ok(events) => {
                let lines = game.log_lines();
                let last = &lines[lines.len().saturating_sub(events.len())..];
                *status = Some(Status::Info(last.join(" · ")));
                *changed = true;
                self.after_change();
            }
            Err(e) => *status = self.private_refusal.route(self.screen, e.to_string()),
        }
    }

    fn after_change(&mut self) {
        let Some(game) = &self.game else {
            return;
        };
        if let Some(id) = self.selection.counter
            && game.public().holder(id).is_ok_and(|h| h.gone)
        {
            self.selection.counter = None;
        }
        // The units moved are no longer where they were ticked.
        self.ledger.remove("units");
    }

    fn locked(&self) -> Vec<Locked> {
        unlock::locked_players(self.game.as_ref())
    }

    fn window(&mut self, ui: &mut egui::Ui) {
        match self.unlock.show(ui, "game", &self.locked()) {
            Unlocking::Covering => return,
            Unlocking::Key(side, key) => self.queue.push(ForcesAction::Unlock(side, key)),
            Unlocking::Nothing => {}
        }
        // A player setting his passphrase for a new game has the window.
        if self.game.is_none() && self.form.passphrases.covering(ui) {
            return;
        }
        let Some(game) = &self.game else {
            egui::CentralPanel::default().show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.form.ui(ui, &mut self.queue));
            });
            return;
        };
        let name = |side: Side| game.setup().name(side);
        if let Some(screen) =
            self.screen
                .hand_over(name, "his ledger is shown next", "show my ledger")
        {
            if hand_over_screen(ui, &screen) == Clicked::Button {
                self.screen = self.screen.handed();
            }
            return;
        }
        let view: View = match self.screen {
            Screen::Private(side) => game.view(side),
            _ => game.table_view(),
        };
        log_panel(
            ui,
            "forces-log",
            150.0,
            game.log_lines(),
            (game.log().len(), &game.log_fingerprint()),
        );
        // His ledger, when he holds the screen: its form in the panel, its
        // map in the centre.
        let ledger = match self.screen {
            Screen::Private(side) => Some((
                side,
                muster::map_intel::screens::ledger(game, &view, side, &self.ledger),
            )),
            _ => None,
        };
        let width = (ui.ctx().content_rect().width() * 0.36).clamp(400.0, 560.0);
        egui::Panel::right("forces-orders")
            .resizable(false)
            .exact_size(width)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        if let Some((side, screen)) = &ledger {
                            self.private_refusal.show(ui);
                            ui.horizontal(|ui| {
                                ui.heading(&screen.title);
                                if ui.button("Hide my ledger").clicked() {
                                    self.queue.push(ForcesAction::Hide);
                                }
                            });
                            if let Some(reply) =
                                crate::app::screen::show(ui, screen, *side, &mut self.ledger)
                            {
                                self.queue.push(ForcesAction::Answer(*side, reply));
                            }
                            ui.separator();
                        }
                        orders::ui(
                            ui,
                            game,
                            &view,
                            self.screen,
                            &self.phones,
                            &mut self.selection,
                            &mut self.queue,
                        );
                    });
            });
        egui::CentralPanel::default().show(ui, |ui| {
            let table;
            let board = match ledger
                .as_ref()
                .and_then(|(_, s)| crate::app::screen::board(s))
            {
                Some(board) => board,
                None => {
                    table = muster::map_intel::screens::board(game, &view, &Values::new());
                    &table
                }
            };
            let map = &game.setup().scenario.map;
            let highlight = Highlight {
                counter: self.selection.counter,
                hex: self.selection.hex,
                destination: map.hex(&self.selection.to).ok(),
            };
            let hint = "Click a hex to pick it; drag a counter to move it (or right-click where the selected one goes)";
            let names = game.setup().names();
            let picked = self.grid.show(ui, board, &names, &highlight, hint);
            orders::picked(&view, &picked, &mut self.selection, &mut self.queue);
            if let Some(hex) = picked.clicked {
                self.ledger.insert("hex".into(), vec![hex.to_string()]);
            }
        });
    }

    fn import(&mut self, action: FileAction, path: &Path) -> Status {
        let text = match store::read_text(path) {
            Ok(text) => text,
            Err(e) => return Status::Error(format!("Not imported: {e}")),
        };
        match action {
            FileAction::ImportRoster(side) => imported(
                "Roster",
                Army::from_roster(&text).map_err(|e| e.to_string()),
                |army| {
                    let message = format!(
                        "{side}'s units imported: {} ({} units)",
                        army.name,
                        army.units.len()
                    );
                    self.form.scenario.sides[side] = army;
                    message
                },
            ),
            _ => imported(
                "Scenario",
                Scenario::from_json(&text).map_err(|e| e.to_string()),
                |scenario| {
                    let message = format!("Scenario {} imported", scenario.name);
                    self.form.scenario = scenario;
                    message
                },
            ),
        }
    }
}

impl SystemWindow for ForcesWindow {
    fn on_phones(&mut self, on: Sides<bool>) {
        self.phones = on.clone();
        self.form.passphrases.phones = on;
    }

    fn seat_name(&self, side: Side) -> String {
        self.game
            .as_ref()
            .map_or(side.to_string(), |g| g.setup().name(side))
    }

    /// His ledger from his own view, his last refusal first.
    fn phone_screen(&mut self, side: Side) -> Option<muster::core::screen::Screen> {
        let game = self.game.as_ref()?;
        let view = game.view(side);
        let ledger =
            muster::map_intel::screens::ledger(game, &view, side, self.phone_forms.form(side));
        Some(self.phone_forms.screen(side, ledger))
    }

    fn phone_click(&mut self, side: Side, hex: Hex) {
        self.phone_forms
            .form_mut(side)
            .insert("hex".into(), vec![hex.to_string()]);
    }

    fn phone_values(&mut self, side: Side, values: Values) {
        self.phone_forms.merge(side, values);
    }

    fn phone_answer(&mut self, side: Side, reply: Reply) {
        let reply = self.phone_forms.reply(side, reply);
        self.queue.push(ForcesAction::PhoneAnswer(side, reply));
    }

    fn new_game_passphrases(
        &mut self,
    ) -> Option<(&mut crate::app::passphrase::NewPassphrases, Sides<String>)> {
        if self.game.is_some() {
            return None;
        }
        Some((&mut self.form.passphrases, self.form.names.clone()))
    }

    fn locked_seats(&self) -> Vec<Locked> {
        self.locked()
    }

    fn unlock_with(&mut self, side: Side, key: PlayerKey) -> Result<(), String> {
        let game = self.game.as_mut().ok_or("the game has not started yet")?;
        game.unlock_key(side, &key).map_err(|e| e.to_string())
    }

    fn name(&self) -> &'static str {
        "Hidden forces"
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        self.window(ui);
    }

    fn status_line(&mut self, ui: &mut egui::Ui) {
        let unchecked = unlock::unchecked(self.game.as_ref());
        if unlock::read_only_banner(ui, "game", &self.locked(), &unchecked) {
            self.queue.push(ForcesAction::ShowUnlock);
        }
    }

    fn drain(&mut self) -> (Option<Status>, bool) {
        self.drain_actions()
    }

    fn game(&self) -> Option<&dyn Autosave> {
        self.game.as_ref().map(|g| g as &dyn Autosave)
    }

    fn private_lock(&self, side: Side) -> Option<(String, muster::core::intel::Lock)> {
        unlock::private_lock(self.game.as_ref(), side)
    }

    fn export_pdf(&self, options: &PdfOptions, path: &Path) -> Result<Vec<PathBuf>, StoreError> {
        let game = self
            .game
            .as_ref()
            .ok_or_else(|| StoreError::new("the game has not started yet"))?;
        let private = options.private.map(|side| (side, opener(options)));
        muster::map_intel::export::save_pdf(game, options.paper, private, path)
    }

    fn wants_file(&mut self) -> Option<FileAction> {
        self.wants_file
            .take()
            .or_else(|| self.grid.take_wants_image().then_some(FileAction::MapImage))
    }

    fn file_chosen(&mut self, action: FileAction, path: &Path) -> Status {
        match action {
            FileAction::MapImage => crate::app::map_image::Keeper::chosen(&mut self.grid, path),
            action => self.import(action, path),
        }
    }

    #[cfg(test)]
    fn as_any(&self) -> &dyn Any {
        self
    }
}
