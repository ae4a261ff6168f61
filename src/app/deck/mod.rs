//! The action deck's part of the window: the setup form, then the table
//! both players see (counts, the turn, the cards in play, the public log)
//! and, behind the hand-over screen, one player's hand.
//!
//! Like the rest of the app it never changes the game: its widgets push
//! `DeckAction`s, which `DeckWindow::drain` carries out in one place.

#[cfg(test)]
pub(crate) mod phones;
mod setup;

use crate::app::Status;
use crate::app::file_dialog::{FileAction, Offers, PdfOptions};
use crate::app::players::PhoneForms;
use crate::app::privacy::{Clicked, HandOver, PrivateRefusal, Screen, hand_over_screen};
use crate::app::system::{SystemWindow, imported, log_panel};
use crate::app::unlock::{self, Locked, UnlockWindow, Unlocking};
use eframe::egui;
use muster::core::dice::{AppDice, DiceInput};
use muster::core::intel::PlayerKey;
use muster::core::side::{Side, Sides};
use muster::core::store::{self, Autosave, StoreError};
use muster::deck::{CardSet, Command, Game, Seat, Setup, Stage};
use setup::{First, SetupForm};
#[cfg(test)]
use std::any::Any;
use std::path::{Path, PathBuf};

/// What the deck's widgets ask for.
pub enum DeckAction {
    Start,
    ImportCardSet,
    Apply(Command),
    /// An answer from a player's private screen: his command as JSON.
    Answer(serde_json::Value),
    /// An answer from a player's phone.
    PhoneAnswer(Side, serde_json::Value),
    /// The hand-over screen for this player.
    HandTo(Side),
    /// The player holding the screen is done.
    Hide,
    /// Both players agreed: every card of the log is shown.
    OpenEverything,
    /// A player unlocks a reopened game with his passphrase.
    /// A player's key, worked out from his passphrase on his own screen.
    Unlock(Side, PlayerKey),
    /// Show the unlock window again.
    ShowUnlock,
    /// Take back the last declared, skipped or ended phase.
    Undo,
}

pub struct DeckWindow {
    form: SetupForm,
    game: Option<Game>,
    screen: Screen,
    seed: Option<u64>,
    queue: Vec<DeckAction>,
    /// The full log, once both players opened everything.
    everything: Option<Vec<String>>,
    unlock: UnlockWindow,
    /// The players asked to import a card set.
    wants_import: bool,
    private_refusal: PrivateRefusal,
    /// Who holds his seat on a phone, and the refusal of his last answer
    /// there (shown on his phone only).
    phones: Sides<bool>,
    phone_forms: PhoneForms,
}

impl DeckWindow {
    /// The setup form of a new game; `seed` fixes the dealer in tests.
    pub fn new(seed: Option<u64>) -> DeckWindow {
        DeckWindow {
            form: SetupForm::default(),
            game: None,
            screen: Screen::Table,
            seed,
            queue: Vec::new(),
            everything: None,
            unlock: UnlockWindow::default(),
            wants_import: false,
            private_refusal: PrivateRefusal::default(),
            phones: Sides::default(),
            phone_forms: PhoneForms::default(),
        }
    }

    /// A game read from a file.
    pub fn opened(game: Game) -> DeckWindow {
        DeckWindow {
            game: Some(game),
            ..DeckWindow::new(None)
        }
    }

    #[cfg(test)]
    pub fn engine(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    fn start(&mut self) -> Result<Game, String> {
        let f = &self.form;
        let mut locks = Sides::default();
        let mut keys = Sides::default();
        for side in Side::BOTH {
            if let Some((lock, key)) = f.passphrases.keys[side].clone() {
                locks[side] = Some(lock);
                keys[side] = Some(key);
            }
        }
        let seat = |side: Side| Seat {
            name: f.names[side].trim().to_string(),
            army: f.armies[side].clone(),
            hand_size: f.hand_sizes[side],
        };
        let setup = Setup {
            set: f.set.clone(),
            seats: Sides {
                south: seat(Side::South),
                north: seat(Side::North),
            },
            locks,
        };
        let mut game = Game::new(setup, keys).map_err(|e| e.to_string())?;
        if let Some(seed) = self.seed {
            game.use_dealer(AppDice::seeded(seed));
        }
        let first = match f.first {
            First::Chosen(active) => Command::ChooseFirst { active },
            First::Roll => Command::RollFirst {
                south: DiceInput::app(),
                north: DiceInput::app(),
            },
        };
        // A tied roll is logged and rolled again.
        while game.public().turn.is_none() {
            game.apply(first.clone()).map_err(|e| e.to_string())?;
        }
        Ok(game)
    }

    /// Applies a command; a refusal goes to the private screen it came
    /// from, if one is up.
    fn apply(&mut self, command: Command, status: &mut Option<Status>, changed: &mut bool) {
        let Some(game) = &mut self.game else {
            return;
        };
        let asking = game.public().turn.as_ref().map(|t| t.stage) == Some(Stage::AskingInterrupt);
        match game.apply(command) {
            Ok(_) => {
                *status = None;
                *changed = true;
                self.private_refusal.clear();
                self.after_change(asking);
            }
            Err(e) => *status = self.private_refusal.route(self.screen, e.to_string()),
        }
    }

    /// Carries out what the widgets asked for; returns the status to show
    /// and whether the game changed (to autosave).
    fn drain_actions(&mut self) -> (Option<Status>, bool) {
        let mut status = None;
        let mut changed = false;
        for action in std::mem::take(&mut self.queue) {
            match action {
                DeckAction::Start => match self.start() {
                    Ok(game) => {
                        status = Some(Status::Info(
                            "The game begins: each player has drawn his hand".into(),
                        ));
                        self.game = Some(game);
                        changed = true;
                    }
                    Err(e) => status = Some(Status::Error(format!("Not started: {e}"))),
                },
                DeckAction::ImportCardSet => self.wants_import = true,
                DeckAction::Apply(command) => self.apply(command, &mut status, &mut changed),
                // A private screen answers with the command it was given.
                DeckAction::Answer(value) => match serde_json::from_value(value) {
                    Ok(command) => self.apply(command, &mut status, &mut changed),
                    Err(e) => {
                        let why = format!("That answer is not a deck command: {e}");
                        status = self.private_refusal.route(self.screen, why);
                    }
                },
                DeckAction::PhoneAnswer(side, value) => {
                    let Some(game) = &mut self.game else {
                        continue;
                    };
                    let asking = game.public().turn.as_ref().map(|t| t.stage)
                        == Some(Stage::AskingInterrupt);
                    // Only what his own screen offers him now: a phone never
                    // plays, answers or ends anything for the other player.
                    let offered = muster::deck::screens::hand(game, side).offers(&value);
                    let result = if offered {
                        serde_json::from_value(value)
                            .map_err(|e| format!("That answer is not a deck command: {e}"))
                    } else {
                        Err("That is not one of the actions your screen offers now".into())
                    }
                    .and_then(|command| game.apply(command).map(drop).map_err(|e| e.to_string()));
                    if self.phone_forms.answered(side, result, &[]) {
                        status = None;
                        changed = true;
                        self.after_change(asking);
                    }
                }
                DeckAction::HandTo(side) => self.screen = Screen::HandingTo(side),
                DeckAction::Hide => {
                    self.screen = self.screen.hide();
                    self.private_refusal.clear();
                }
                DeckAction::Unlock(side, key) => {
                    let Some(game) = &mut self.game else {
                        continue;
                    };
                    let result = game.unlock_key(side, &key);
                    if result.is_ok() {
                        status = Some(Status::Info(format!(
                            "{} unlocked the game: every entry carries his valid tag, and his cards replay by the rules",
                            game.setup().name(side)
                        )));
                    }
                    self.unlock.answer(side, result);
                }
                DeckAction::ShowUnlock => self.unlock.reopen(),
                DeckAction::Undo => {
                    let Some(game) = &mut self.game else {
                        continue;
                    };
                    match game.undo() {
                        Ok(what) => {
                            status = Some(Status::Info(format!("Taken back: {what}")));
                            changed = true;
                        }
                        Err(e) => status = Some(Status::Error(e.to_string())),
                    }
                }
                DeckAction::OpenEverything => {
                    if let Some(game) = &self.game {
                        match game.open_everything() {
                            Ok(lines) => {
                                status = Some(Status::Info("Every draw, reshuffle and removal checked against the rules: the full log is open".into()));
                                self.everything = Some(lines);
                            }
                            Err(e) => status = Some(Status::Error(e.to_string())),
                        }
                    }
                }
            }
        }
        (status, changed)
    }

    /// After a command: the passive player is asked about an interrupt on
    /// his own screen; once he has answered (`asking`: the question was
    /// open before the command) his screen closes, unless the phase lets
    /// him play laurels (shooting, combat; issue 25): then he plays them
    /// and hides it himself. The phase decides, never his hand: the table
    /// learns nothing from his screen staying open.
    fn after_change(&mut self, asking: bool) {
        let Some(game) = self.game.as_ref() else {
            return;
        };
        let Some(turn) = game.public().turn.clone() else {
            return;
        };
        match self.screen {
            Screen::Private(side)
                if side == turn.passive()
                    && asking
                    && turn.stage != Stage::AskingInterrupt
                    && !muster::deck::screens::passive_plays(game, &turn) =>
            {
                self.screen = Screen::Table;
            }
            // Asked on his phone, if he has it there.
            Screen::Table
                if turn.stage == Stage::AskingInterrupt && !self.phones[turn.passive()] =>
            {
                self.screen = Screen::HandingTo(turn.passive());
            }
            _ => {}
        }
    }

    /// The full-window hand-over screen, when the laptop changes hands.
    fn hand_over(&self) -> Option<HandOver> {
        let game = self.game.as_ref()?;
        let name = |side: Side| game.setup().name(side).to_string();
        self.screen
            .hand_over(name, "his hand is shown next", "show my cards")
    }

    fn locked(&self) -> Vec<Locked> {
        unlock::locked_players(self.game.as_ref())
    }

    fn window(&mut self, ui: &mut egui::Ui) {
        match self.unlock.show(ui, "game", &self.locked()) {
            Unlocking::Covering => return,
            Unlocking::Key(side, key) => self.queue.push(DeckAction::Unlock(side, key)),
            Unlocking::Nothing => {}
        }
        // A player setting his passphrase for a new game has the window.
        if self.game.is_none() && self.form.passphrases.covering(ui) {
            return;
        }
        if let Some(screen) = self.hand_over() {
            if hand_over_screen(ui, &screen) == Clicked::Button {
                self.screen = self.screen.handed();
            }
            return;
        }
        let Some(game) = &self.game else {
            egui::CentralPanel::default().show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.form.ui(ui, &mut self.queue));
            });
            return;
        };
        log_panel(
            ui,
            "deck-log",
            170.0,
            game.log_lines(),
            (game.log().len(), &game.log_fingerprint()),
        );
        if let Screen::Private(side) = self.screen {
            egui::Panel::right("deck-hand")
                .resizable(false)
                .exact_size((ui.ctx().content_rect().width() * 0.45).clamp(420.0, 640.0))
                .show(ui, |ui| {
                    if ui.button("Hide my cards").clicked() {
                        self.queue.push(DeckAction::Hide);
                    }
                    ui.separator();
                    self.private_refusal.show(ui);
                    let hand = muster::deck::screens::hand(game, side);
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        let mut no_forms = Default::default();
                        if let Some(reply) =
                            crate::app::screen::show(ui, &hand, side, &mut no_forms)
                        {
                            self.queue.push(DeckAction::Answer(reply.command));
                        }
                    });
                });
        }
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                table(ui, game, self.screen, &self.phones, &mut self.queue);
                if let Some(lines) = &self.everything {
                    ui.separator();
                    ui.strong("Everything, opened by both players");
                    for line in lines {
                        ui.label(line);
                    }
                }
            });
        });
    }
}

impl SystemWindow for DeckWindow {
    fn undoable(&self) -> Option<String> {
        self.game.as_ref()?.undoable()
    }

    fn on_phones(&mut self, on: Sides<bool>) {
        self.phones = on.clone();
        self.form.passphrases.phones = on;
    }

    fn seat_name(&self, side: Side) -> String {
        self.game
            .as_ref()
            .map_or(side.to_string(), |g| g.setup().name(side).to_string())
    }

    /// His hand, with the plays the rules allow now, the interrupt question
    /// when he is asked, his odds; his last refusal first.
    fn phone_screen(&mut self, side: Side) -> Option<muster::core::screen::Screen> {
        let hand = muster::deck::screens::hand(self.game.as_ref()?, side);
        Some(self.phone_forms.screen(side, hand))
    }

    fn phone_answer(&mut self, side: Side, reply: muster::core::screen::Reply) {
        self.queue
            .push(DeckAction::PhoneAnswer(side, reply.command));
    }

    fn undo(&mut self) {
        self.queue.push(DeckAction::Undo);
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
        "Action deck"
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        self.window(ui);
    }

    fn status_line(&mut self, ui: &mut egui::Ui) {
        let unchecked = unlock::unchecked(self.game.as_ref());
        if unlock::read_only_banner(ui, "game", &self.locked(), &unchecked) {
            self.queue.push(DeckAction::ShowUnlock);
        }
    }

    fn drain(&mut self) -> (Option<Status>, bool) {
        self.drain_actions()
    }

    fn game(&self) -> Option<&dyn Autosave> {
        self.game.as_ref().map(|g| g as &dyn Autosave)
    }

    /// The summary of cards played is public; a hand is never printed.
    fn printout_offers(&self) -> Offers {
        Offers::default()
    }

    fn export_pdf(&self, options: &PdfOptions, path: &Path) -> Result<Vec<PathBuf>, StoreError> {
        let game = self
            .game
            .as_ref()
            .ok_or_else(|| StoreError::new("the game has not started yet"))?;
        muster::deck::export::save_summary_pdf(game, options.paper, path)?;
        Ok(vec![path.to_path_buf()])
    }

    fn wants_file(&mut self) -> Option<FileAction> {
        std::mem::take(&mut self.wants_import).then_some(FileAction::ImportCardSet)
    }

    fn file_chosen(&mut self, _action: FileAction, path: &Path) -> Status {
        let loaded = store::read_text(path)
            .map_err(|e| e.to_string())
            .and_then(|text| CardSet::from_json(&text).map_err(|e| e.to_string()));
        imported("Card set", loaded, |set| {
            let message = format!("Card set {} imported", set.name);
            self.form.use_set(set);
            message
        })
    }

    #[cfg(test)]
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// What both players see, and the active player's public choices.
fn table(
    ui: &mut egui::Ui,
    game: &Game,
    screen: Screen,
    phones: &Sides<bool>,
    out: &mut Vec<DeckAction>,
) {
    let public = game.public();
    let Some(turn) = &public.turn else {
        ui.label("Who is active first is not settled yet.");
        return;
    };
    if public.ended() {
        ui.heading(format!("The game is over after turn {}", turn.number));
        after_game(ui, game, out);
        return;
    }
    let name = |side: Side| game.setup().name(side).to_string();
    let phase = game.set().phases[turn.phase];
    ui.heading(format!(
        "Turn {}: {} is active, {phase} phase",
        turn.number,
        name(turn.active)
    ));
    let yes_no = |b: bool| if b { "used" } else { "not used" };
    ui.label(format!(
        "This turn's event: {}. This turn's interrupt: {}{}.",
        yes_no(turn.event_played),
        yes_no(turn.interrupt_played),
        if turn.blocked {
            " (forbidden by the event)"
        } else {
            ""
        }
    ));
    ui.add_space(6.0);
    ui.columns(2, |cols| {
        for (col, side) in cols.iter_mut().zip(Side::BOTH) {
            let c = public.counts[side];
            let army = game
                .set()
                .army(&game.setup().seats[side].army)
                .map_or("", |a| a.name.as_str());
            col.strong(format!("{} ({army})", name(side)));
            col.label(format!(
                "Deck {} · Hand {} · Discard {} · Removed {}",
                c.deck, c.hand, c.discard, c.removed
            ));
            if phones[side] {
                col.weak(format!("{}: on his phone", name(side)));
            } else if screen == Screen::Table
                && col.button(format!("Show {}'s cards", name(side))).clicked()
            {
                out.push(DeckAction::HandTo(side));
            }
        }
    });
    ui.add_space(6.0);
    ui.strong("In play");
    if turn.in_play.is_empty() {
        ui.weak("No card in play this turn");
    }
    for c in &turn.in_play {
        if let Some(card) = game.set().card(&c.card) {
            ui.label(format!(
                "{} ({}): {}; {} at the end of the turn",
                card.title,
                name(c.owner),
                card.text,
                c.then.verb()
            ));
        }
    }
    ui.add_space(8.0);
    let passive = name(turn.passive());
    let mut hand_to = None;
    // The active player's choices, as his phone offers them too.
    let stage = muster::deck::screens::stage_actions(game, turn);
    // While the passive player has his cards open, the turn's buttons are
    // not his to press (issue 25).
    let passive_looks = screen == Screen::Private(turn.passive());
    ui.horizontal_wrapped(|ui| match turn.stage {
        Stage::Events | Stage::Playing | Stage::Declaring | Stage::Ending if passive_looks => {
            ui.weak(format!(
                "{}'s choices show when {passive} hides his cards.",
                name(turn.active)
            ));
        }
        Stage::Events | Stage::Playing | Stage::Declaring | Stage::Ending => {
            for action in stage {
                if crate::app::guard::button(ui, &action.label) {
                    out.push(DeckAction::Answer(action.command));
                }
            }
        }
        Stage::AskingInterrupt if phones[turn.passive()] => {
            ui.label(format!(
                "Waiting for {passive}: he is asked on his phone whether he interrupts."
            ));
        }
        Stage::AskingInterrupt => {
            ui.label(format!("{passive} is asked whether he interrupts."));
            if screen == Screen::Table && ui.button(format!("Pass to {passive}")).clicked() {
                hand_to = Some(turn.passive());
            }
        }
        // Drawn in the command that ended the phase before: never waits.
        Stage::Redraw => {}
        Stage::Fatigue => {
            ui.label(format!(
                "{} removes one card (fatigue) on his screen.",
                name(turn.active)
            ));
        }
    });
    if let Some(side) = hand_to {
        out.push(DeckAction::HandTo(side));
    }
    if let Some(what) = game.undoable().filter(|_| !passive_looks) {
        let undo = ui.button(format!("Undo: {what}")).on_hover_text(
            "Declaring, skipping or ending a phase is taken back; a card drawn, played or removed stays",
        );
        if undo.clicked() {
            out.push(DeckAction::Undo);
        }
    }
    ui.add_space(8.0);
    ui.collapsing("After the game", |ui| after_game(ui, game, out));
}

/// The end both players agree to, logged; only then *Open everything*,
/// which also needs both players unlocked (RULES-deck 7).
fn after_game(ui: &mut egui::Ui, game: &Game, out: &mut Vec<DeckAction>) {
    let public = game.public();
    if public.ended() {
        ui.label("Both players agreed the game is over.");
        if ui
            .button("Open everything")
            .on_hover_text(
                "Every card drawn and removed, named, and each move checked against the rules",
            )
            .clicked()
        {
            out.push(DeckAction::OpenEverything);
        }
        return;
    }
    ui.label("When the game is over each player says so; nothing is played after both have. Then every card drawn and removed can be shown.");
    for side in Side::BOTH {
        let name = game.setup().name(side);
        if public.over[side] {
            ui.label(format!("{name} agrees the game is over."));
        } else if ui.button(format!("{name}: the game is over")).clicked() {
            out.push(DeckAction::Apply(Command::GameOver { player: side }));
        }
    }
}
