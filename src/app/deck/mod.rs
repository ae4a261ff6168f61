//! The action deck's part of the window (RULES-deck): the setup form, then
//! the table both players see (counts, the turn, the cards in play, the
//! public log) and, when the laptop shows it, one player's hand beside it.
//! The seated window (`seated`) holds what it shares with the other seated
//! systems; this says what the deck's table is.

#[cfg(test)]
mod phones;
#[cfg(test)]
mod remote_tests;
mod setup;

use crate::app::action::DeckAction;
use crate::app::action::{Action, SeatedAction};
use crate::app::file_dialog::{FileAction, Offers, PdfOptions};
use crate::app::remote::kept::Kept;
use crate::app::seated::{Form, Private, Table, private_panel, seat_line, side_panel};
use crate::app::seating::Cx;
use crate::app::seating::life::Life;
use crate::app::status::Status;
use crate::app::system::{Handled, Start, imported};
use eframe::egui;
use muster::core::dice::{AppDice, DiceInput};
use muster::core::side::{Side, Sides};
use muster::core::store::{self, StoreError};
use muster::deck::screens::HandAct;
use muster::deck::{CardSet, Command, Game, Seat, Setup, Stage};
use setup::{First, SetupForm};
use std::path::{Path, PathBuf};

/// The deck's table and form.
pub struct DeckTable {
    form: SetupForm,
    seed: Option<u64>,
    /// The full log, once both players opened everything.
    everything: Option<Vec<String>>,
}

/// The deck's window.
pub type DeckWindow = crate::app::seated::SeatedWindow<DeckTable>;

impl DeckTable {
    /// The setup form of a new game; `seed` fixes the dealer in tests.
    pub fn new(seed: Option<u64>) -> DeckTable {
        DeckTable {
            form: SetupForm::default(),
            seed,
            everything: None,
        }
    }

    /// A new game's window, its remote seat kept once it is invited.
    pub fn new_window(start: &Start) -> DeckWindow {
        let mut window = DeckWindow::new(DeckTable::new(start.seed));
        window.kept = Some(Kept::of(start));
        window
    }

    /// The window around a game read from a file, and its remote seat if
    /// it was played remotely.
    pub fn opened(game: Game, start: &Start) -> DeckWindow {
        let mut kept = Kept::of(start);
        kept.look_up(game.id());
        let mut window = DeckWindow::opened(DeckTable::new(None), game);
        window.kept = Some(kept);
        window
    }

    fn new_game(&mut self) -> Result<Game, String> {
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
            picks: Sides::default(),
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
            First::Later => return Ok(game),
        };
        // A tied roll is logged and rolled again.
        while game.public().turn.is_none() {
            game.apply(first.clone()).map_err(|e| e.to_string())?;
        }
        Ok(game)
    }
}

impl Table for DeckTable {
    type Game = Game;
    type Action = DeckAction;
    const NAME: &'static str = "Action deck";
    const CHAPTER: crate::app::manual::Chapter = crate::app::manual::Chapter::ActionDeck;
    const STARTED: &'static str = "The game begins: each player has drawn their hand";

    crate::app::action::table_actions!(Deck);

    fn form(&mut self) -> &mut dyn Form {
        &mut self.form
    }

    fn start(&mut self) -> Result<Game, String> {
        self.new_game()
    }

    fn table(
        &mut self,
        ui: &mut egui::Ui,
        game: &Game,
        private: Option<Private<'_, Game>>,
        cx: &Cx,
    ) {
        if let Some(mut private) = private {
            side_panel(ui, "deck-hand", 0.45, (420.0, 640.0), |ui| {
                private_panel(ui, &mut private, "my cards", cx);
            });
        }
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                table(ui, game, cx);
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

    fn act(&mut self, game: Option<&mut Game>, action: DeckAction) -> Handled {
        let Some(game) = game else {
            return Handled::default();
        };
        match action {
            DeckAction::OpenEverything => match game.open_everything() {
                Ok(lines) => {
                    self.everything = Some(lines);
                    Handled::status(Status::Info("Every draw, reshuffle and removal checked against the rules: the full log is open".into()))
                }
                Err(e) => Handled::status(Status::Error(e.to_string())),
            },
        }
    }

    fn undoable(&self, game: &Game) -> Result<String, String> {
        game.undoable().ok_or_else(|| {
            "only a declared, skipped or ended phase is taken back; a card drawn, played or removed stays".into()
        })
    }

    fn undo(&mut self, game: &mut Game) -> Result<String, String> {
        game.undo().map_err(|e| e.to_string())
    }

    fn redoable(&self, game: &Game) -> bool {
        game.redoable()
    }

    fn redo(&mut self, game: &mut Game) -> Result<String, String> {
        game.redo().map_err(|e| e.to_string())
    }

    /// The summary of cards played is public; a hand is never printed.
    fn printout_offers(&self) -> Offers {
        Offers::default()
    }

    fn export_pdf(
        game: &Game,
        options: &PdfOptions,
        path: &Path,
    ) -> Result<Vec<PathBuf>, StoreError> {
        muster::deck::export::save_summary_pdf(game, options.paper, path)?;
        Ok(vec![path.to_path_buf()])
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

    crate::app::seated::remote_table!();
}

/// What both players see, and the active player's public choices.
fn table(ui: &mut egui::Ui, game: &Game, cx: &Cx) {
    let public = game.public();
    let Some(turn) = &public.turn else {
        who_is_first(ui, game, cx);
        return;
    };
    if public.ended() {
        ui.heading(muster::deck::screens::over_after(game, turn));
        after_game(ui, game, cx);
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
            seat_line(col, cx, side, &name(side), "cards");
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
                "{} ({}): {} Then {} at the end of the turn.",
                card.title,
                name(c.owner),
                card.text,
                c.then.verb()
            ));
        }
    }
    ui.add_space(8.0);
    let passive = name(turn.passive());
    // The active player's choices, as his phone offers them too.
    let stage = muster::deck::screens::stage_actions(game, turn);
    // While the passive player has his cards open, the turn's buttons are
    // not his to press (issue 25).
    let passive_looks = cx.private == Some(turn.passive());
    // From two machines, the other's steps wait for his.
    let away = |side: Side| cx.lives[side] == Life::Remote;
    ui.horizontal_wrapped(|ui| match turn.stage {
        _ if public.to_draw.first().is_some_and(|(side, _)| away(*side)) => {
            let side = public.to_draw[0].0;
            crate::app::remote::waiting_for(ui, &name(side));
        }
        Stage::Events | Stage::Playing | Stage::Declaring | Stage::Ending if away(turn.active) => {
            crate::app::remote::waiting_for(ui, &name(turn.active));
            for action in stage {
                ui.add_enabled(false, egui::Button::new(&action.label));
            }
        }
        Stage::Events | Stage::Playing | Stage::Declaring | Stage::Ending if passive_looks => {
            ui.weak(format!(
                "{}'s choices show when {passive} hides their cards.",
                name(turn.active)
            ));
        }
        // His own screen carries the same buttons: one place to press them.
        Stage::Events | Stage::Playing | Stage::Declaring | Stage::Ending
            if cx.private == Some(turn.active) =>
        {
            ui.weak(format!(
                "{}'s choices are on their own screen while it is open.",
                name(turn.active)
            ));
        }
        Stage::Events | Stage::Playing | Stage::Declaring | Stage::Ending => {
            for action in stage {
                if crate::app::guard::button(ui, &action.label) {
                    match action.command {
                        HandAct::Play(command) => {
                            cx.bus.system(Action::Deck(SeatedAction::Apply(command)));
                        }
                        // A hand's own form, never among the turn's.
                        HandAct::UnitBreaks => {}
                    }
                }
            }
        }
        Stage::AskingInterrupt if cx.on_phone(turn.passive()) => {
            ui.label(format!(
                "Waiting for {passive}: they are asked on their phone whether they interrupt."
            ));
        }
        Stage::AskingInterrupt => {
            ui.label(format!("{passive} is asked whether they interrupt."));
        }
        // Drawn in the command that ended the phase before: never waits.
        Stage::Redraw => {}
        Stage::Fatigue => {
            ui.label(format!(
                "{} removes one card (fatigue) on their screen.",
                name(turn.active)
            ));
        }
    });
    // Nothing is taken back from two machines: the log is both's.
    let remote = Side::BOTH.iter().any(|s| cx.lives[*s] == Life::Remote);
    if let Some(what) = game.undoable().filter(|_| cx.private.is_none() && !remote) {
        let undo = ui.button(format!("Undo: {what}")).on_hover_text(
            "Declaring, skipping or ending a phase is taken back; a card drawn, played or removed stays",
        );
        if undo.clicked() {
            cx.bus.system(Action::Undo);
        }
    }
    ui.add_space(8.0);
    ui.collapsing("After the game", |ui| after_game(ui, game, cx));
}

/// Who is active first, settled on the table (the hands are then drawn,
/// each on its player's machine); not before a player who plays from his
/// own Muster has set his passphrase, or his hand could be read.
fn who_is_first(ui: &mut egui::Ui, game: &Game, cx: &Cx) {
    use muster::core::seat::Seated;
    ui.heading("Who is active first is not settled yet");
    let unprotected = Side::BOTH
        .into_iter()
        .find(|s| cx.lives[*s] == Life::Remote && game.lock_of(*s).is_none());
    if let Some(side) = unprotected {
        ui.weak(format!(
            "Waiting for {} to set a passphrase on their own Muster: their hand is drawn there after it.",
            game.setup().name(side)
        ));
    }
    let apply = |command| cx.bus.system(Action::Deck(SeatedAction::Apply(command)));
    ui.add_enabled_ui(unprotected.is_none(), |ui| {
        ui.horizontal_wrapped(|ui| {
            if crate::app::guard::button(ui, "Roll for who is active first") {
                apply(Command::RollFirst {
                    south: DiceInput::app(),
                    north: DiceInput::app(),
                });
            }
            for side in Side::BOTH {
                let name = game.setup().name(side);
                if crate::app::guard::button(ui, format!("{name} is active first")) {
                    apply(Command::ChooseFirst { active: side });
                }
            }
        });
    });
}

/// The end both players agree to, logged; only then *Open everything*,
/// which also needs both players unlocked (RULES-deck 7).
fn after_game(ui: &mut egui::Ui, game: &Game, cx: &Cx) {
    let public = game.public();
    // From two machines nobody holds both keys: each Muster checks the
    // other's cards, the result over the table.
    if public.ended() && Side::BOTH.iter().any(|s| cx.lives[*s] == Life::Remote) {
        ui.label("Each Muster sends the other its player's cards, opened (no passphrase or key crosses). Each checks the other's against what was sealed during the game, then that every card drawn is the one both machines' dice gave and every card played was in the hand. The result shows above the table.");
        return;
    }
    if public.ended() {
        ui.label("Both players agreed the game is over.");
        if ui
            .button("Open everything")
            .on_hover_text(
                "Every card drawn and removed, named, and each move checked against the rules",
            )
            .clicked()
        {
            cx.bus
                .system(Action::Deck(SeatedAction::Own(DeckAction::OpenEverything)));
        }
        return;
    }
    ui.label("When the game is over each player says so on their own screen (their hand); nothing is played after both have. Then every card drawn and removed can be shown.");
    for side in Side::BOTH {
        let name = game.setup().name(side);
        ui.label(if public.over[side] {
            format!("{name} has said the game is over.")
        } else {
            format!("{name} has not said the game is over.")
        });
    }
}
