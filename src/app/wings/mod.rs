//! Dummy wings' part of the window (RULES-map-intel B): the setup form,
//! the hex grid with every leader and Dis counter, the questions and rolls
//! both players answer at the table (line of sight, the deployment roll
//! with its odds, the adjustment, the formations), and, behind the
//! hand-over screen, one player's own counters: setting them up, their
//! allowances, moving them.
//!
//! Widgets push `WingsAction`s, which `WingsWindow::drain_actions` carries
//! out in one place.

mod setup;
mod table;
#[cfg(test)]
mod tests;

use crate::app::Status;
use crate::app::file_dialog::{FileAction, PdfOptions, opener};
use crate::app::hex_grid::{HexGrid, Highlight};
use crate::app::players::PhoneForms;
use crate::app::privacy::{Clicked, PrivateRefusal, Screen, hand_over_screen};
use crate::app::system::{Players, SystemWindow, log_panel, players};
use crate::app::unlock::{self, Locked, UnlockWindow, Unlocking};
use eframe::egui;
use muster::core::dice::AppDice;
use muster::core::intel::PlayerKey;
use muster::core::screen::{Reply, Values};
use muster::core::side::{Side, Sides};
use muster::core::store::{Autosave, StoreError};
use muster::map_intel::wings::game::{Command, Game, Seen, Setup};
use muster::map_intel::wings::screens as wings_screens;
use setup::SetupForm;
#[cfg(test)]
use std::any::Any;
use std::path::{Path, PathBuf};

pub enum WingsAction {
    Start,
    Apply(Command),
    HandTo(Side),
    Hide,
    /// A player's key, worked out from his passphrase on his own screen.
    Unlock(Side, PlayerKey),
    ShowUnlock,
    /// Input the window itself found wrong (a hex name mistyped).
    Refused(String),
    /// What a player sent from his counters' screen.
    Answer(Side, Reply),
    /// What a player sent from his counters on his phone.
    PhoneAnswer(Side, Reply),
}

pub struct WingsWindow {
    form: SetupForm,
    game: Option<Game>,
    screen: Screen,
    selected: Option<usize>,
    /// What the player holding the screen entered in his counters' form.
    /// Each player's counters form as he left it: kept when he hides his
    /// counters (issue 25), drawn on his private screen only.
    ledgers: Sides<Values>,
    /// Typed deployment dice, and where an adjusted leader goes.
    table: table::Inputs,
    grid: HexGrid,
    queue: Vec<WingsAction>,
    unlock: UnlockWindow,
    seed: Option<u64>,
    private_refusal: PrivateRefusal,
    /// Who holds his seat on a phone, his counters' form there, and the
    /// refusal of his last answer (shown on his phone only).
    phones: Sides<bool>,
    phone_forms: PhoneForms,
    /// Where the game's map image is kept.
    map_images: crate::app::map_image::Keeper,
}

impl WingsWindow {
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
                // The counter placed or moved from his screen: its hexes and
                // units are spent.
                if let Screen::Private(side) = self.screen {
                    for field in ["leader", "dis1", "dis2", "next", "units", "detached"] {
                        self.ledgers[side].remove(field);
                    }
                }
            }
            Err(e) => *status = self.private_refusal.route(self.screen, e.to_string()),
        }
    }

    /// The setup form of a new game; `seed` fixes the app's dice in tests;
    /// map images are kept in `autosave`.
    pub fn new(seed: Option<u64>, autosave: Option<&std::path::Path>) -> WingsWindow {
        WingsWindow {
            map_images: crate::app::map_image::Keeper {
                dir: autosave.map(std::path::Path::to_path_buf),
            },
            form: SetupForm::default(),
            game: None,
            screen: Screen::Table,
            selected: None,
            ledgers: Sides::default(),
            table: table::Inputs::default(),
            grid: HexGrid::default(),
            queue: Vec::new(),
            unlock: UnlockWindow::default(),
            seed,
            private_refusal: PrivateRefusal::default(),
            phones: Sides::default(),
            phone_forms: PhoneForms::default(),
        }
    }

    /// A game read from a file, with its map image if one was kept.
    pub fn opened(game: Game, autosave: Option<&std::path::Path>) -> WingsWindow {
        let mut window = WingsWindow::new(None, autosave);
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
            battle: f.battle().clone(),
            players,
            armies: f.armies.clone(),
            activated: f.activated.clone(),
            detachments: f.detachments.clone(),
            locks,
        };
        let dice = self.seed.map_or_else(AppDice::default, AppDice::seeded);
        Game::new(setup, keys, dice).map_err(|e| e.to_string())
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
                WingsAction::Start => match self.start() {
                    Ok(game) => {
                        status = Some(Status::Info(
                            "Set-up: each player places his leader and dummy counters in private"
                                .into(),
                        ));
                        self.game = Some(game);
                        changed = true;
                    }
                    Err(e) => status = Some(Status::Error(format!("Not started: {e}"))),
                },
                WingsAction::Apply(command) => self.apply(command, &mut status, &mut changed),
                WingsAction::Answer(side, reply) => {
                    let Some(game) = &self.game else {
                        continue;
                    };
                    match wings_screens::answer(game, side, &reply) {
                        Ok(command) => self.apply(command, &mut status, &mut changed),
                        Err(e) => status = self.private_refusal.route(self.screen, e.to_string()),
                    }
                }
                WingsAction::PhoneAnswer(side, reply) => {
                    let Some(game) = &mut self.game else {
                        continue;
                    };
                    let result = wings_screens::answer(game, side, &reply)
                        .and_then(|command| game.apply(command).map(drop))
                        .map_err(|e| e.to_string());
                    // The counter placed or moved: its hexes and units are
                    // spent.
                    let spent = ["leader", "dis1", "dis2", "next", "units", "detached"];
                    changed |= self.phone_forms.answered(side, result, &spent);
                }
                WingsAction::HandTo(side) => self.screen = Screen::HandingTo(side),
                WingsAction::Hide => {
                    self.screen = self.screen.hide();
                    self.private_refusal.clear();
                }
                WingsAction::Unlock(side, key) => {
                    let Some(game) = &mut self.game else {
                        continue;
                    };
                    let result = game.unlock_key(side, &key);
                    if result.is_ok() {
                        status = Some(Status::Info(format!(
                            "{} unlocked the game: every entry carries his valid tag",
                            game.setup().name(side)
                        )));
                    }
                    self.unlock.answer(side, result);
                }
                WingsAction::ShowUnlock => self.unlock.reopen(),
                WingsAction::Refused(message) => {
                    status = self.private_refusal.route(self.screen, message);
                }
            }
        }
        (status, changed)
    }

    fn locked(&self) -> Vec<Locked> {
        unlock::locked_players(self.game.as_ref())
    }

    fn window(&mut self, ui: &mut egui::Ui) {
        match self.unlock.show(ui, "game", &self.locked()) {
            Unlocking::Covering => return,
            Unlocking::Key(side, key) => self.queue.push(WingsAction::Unlock(side, key)),
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
                .hand_over(name, "his counters are shown next", "show my counters")
        {
            if hand_over_screen(ui, &screen) == Clicked::Button {
                self.screen = self.screen.handed();
            }
            return;
        }
        let viewer = match self.screen {
            Screen::Private(side) => Some(side),
            _ => None,
        };
        let seen: Vec<Seen> = match viewer {
            Some(side) => game.view(side),
            None => game.table_view(),
        };
        log_panel(
            ui,
            "wings-log",
            150.0,
            game.log_lines(),
            (game.log().len(), &game.log_fingerprint()),
        );
        // His counters, when he holds the screen: their form in the panel,
        // their map in the centre.
        let mine = viewer.map(|side| {
            (
                side,
                wings_screens::counters(game, &seen, side, &self.ledgers[side]),
            )
        });
        let width = (ui.ctx().content_rect().width() * 0.38).clamp(420.0, 580.0);
        egui::Panel::right("wings-orders")
            .resizable(false)
            .exact_size(width)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .auto_shrink([false, false])
                    .show(ui, |ui| match &mine {
                        Some((side, screen)) => {
                            self.private_refusal.show(ui);
                            ui.horizontal(|ui| {
                                ui.heading(&screen.title);
                                if ui.button("Hide my counters").clicked() {
                                    self.queue.push(WingsAction::Hide);
                                }
                            });
                            if let Some(reply) = crate::app::screen::show(
                                ui,
                                screen,
                                *side,
                                &mut self.ledgers[*side],
                            ) {
                                self.queue.push(WingsAction::Answer(*side, reply));
                            }
                        }
                        None => table::ui(
                            ui,
                            game,
                            &seen,
                            &self.phones,
                            &mut self.selected,
                            &mut self.table,
                            &mut self.queue,
                        ),
                    });
            });
        egui::CentralPanel::default().show(ui, |ui| {
            let table;
            let board = match mine
                .as_ref()
                .and_then(|(_, s)| crate::app::screen::board(s))
            {
                Some(board) => board,
                None => {
                    table = wings_screens::board(game, &seen, None);
                    &table
                }
            };
            let highlight = Highlight {
                counter: self.selected,
                hex: None,
                destination: None,
            };
            let names = Sides {
                south: name(Side::South),
                north: name(Side::North),
            };
            let hint = board.clicks.clone().unwrap_or_else(|| {
                "Click a leader counter to select it, or the hex to shift a leader to".into()
            });
            let picked = self.grid.show(ui, board, &names, &highlight, &hint);
            if let (Some(side), Some((from, path))) = (viewer, &picked.dragged) {
                wings_screens::dragged(game, side, &mut self.ledgers[side], *from, path);
            }
            if let Some(hex) = picked.clicked {
                match viewer {
                    Some(side) => wings_screens::clicked(game, &mut self.ledgers[side], hex),
                    None => {
                        self.selected = seen.iter().find(|s| s.leader == hex).map(|s| s.id);
                        self.table.adjust_to = hex.to_string();
                    }
                }
            }
        });
    }
}

impl SystemWindow for WingsWindow {
    fn on_phones(&mut self, on: Sides<bool>) {
        self.phones = on.clone();
        self.form.passphrases.phones = on;
    }

    fn seat_name(&self, side: Side) -> String {
        self.game
            .as_ref()
            .map_or(side.to_string(), |g| g.setup().name(side))
    }

    /// His counters from his own view, his last refusal first.
    fn phone_screen(&mut self, side: Side) -> Option<muster::core::screen::Screen> {
        let game = self.game.as_ref()?;
        let seen = game.view(side);
        let counters = wings_screens::counters(game, &seen, side, self.phone_forms.form(side));
        Some(self.phone_forms.screen(side, counters))
    }

    fn phone_click(&mut self, side: Side, hex: muster::core::hexmap::Hex) {
        if let Some(game) = &self.game {
            wings_screens::clicked(game, self.phone_forms.form_mut(side), hex);
        }
    }

    fn phone_drag(
        &mut self,
        side: Side,
        from: muster::core::hexmap::Hex,
        path: &[muster::core::hexmap::Hex],
    ) {
        if let Some(game) = &self.game {
            wings_screens::dragged(game, side, self.phone_forms.form_mut(side), from, path);
        }
    }

    fn phone_values(&mut self, side: Side, values: Values) {
        self.phone_forms.merge(side, values);
    }

    fn phone_answer(&mut self, side: Side, reply: Reply) {
        let reply = self.phone_forms.reply(side, reply);
        self.queue.push(WingsAction::PhoneAnswer(side, reply));
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
        "Dummy wings"
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        self.window(ui);
    }

    fn status_line(&mut self, ui: &mut egui::Ui) {
        let unchecked = unlock::unchecked(self.game.as_ref());
        if unlock::read_only_banner(ui, "game", &self.locked(), &unchecked) {
            self.queue.push(WingsAction::ShowUnlock);
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
        muster::map_intel::wings::export::save_pdf(game, options.paper, private, path)
    }

    fn wants_file(&mut self) -> Option<FileAction> {
        self.grid.take_wants_image().then_some(FileAction::MapImage)
    }

    fn file_chosen(&mut self, action: FileAction, path: &Path) -> Status {
        match action {
            FileAction::MapImage => crate::app::map_image::Keeper::chosen(&mut self.grid, path),
            _ => Status::Error("Dummy wings imports no other file".into()),
        }
    }

    #[cfg(test)]
    fn as_any(&self) -> &dyn Any {
        self
    }
}
