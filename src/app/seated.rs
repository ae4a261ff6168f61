//! The seated window: one window for the systems whose private screen a
//! player opens when he likes (the action deck's hand, hidden forces'
//! ledger, dummy wings' counters). It holds what they share: the set-up
//! form until the game starts, the game and each player's desk, the log at
//! the foot, each seat's private screen beside the table when the laptop
//! shows it, and the commands applied by the rules with what they force.
//! Each system configures it with its `Table`: its form, its table, its
//! own actions, its printout.

use crate::app::action::{Action, SeatedAction};
use crate::app::bus::AppCommand;
use crate::app::bus::SeatMsg;
use crate::app::file_dialog::{FileAction, Offers, PdfOptions};
use crate::app::passphrase::NewPassphrases;
use crate::app::remote::RemoteEnd;
use crate::app::remote::kept::Kept;
use crate::app::seating::{Cx, Seats};
use crate::app::status::Status;
use crate::app::system::{ExportJob, Handled, Menu, SystemWindow, log_panel};
use eframe::egui;
use muster::core::chained_game::OnLedger;
use muster::core::hexmap::Hex;
use muster::core::seat::{self, Desk, Desked, Place, Screen, Seated};
use muster::core::side::{Side, Sides};
use muster::core::store::{Autosave, StoreError};
use std::path::{Path, PathBuf};

mod remote;

/// A player's private screen, when the laptop shows it: what the table
/// draws in its private place, and a copy of what he has entered in it
/// (what he changes goes to his seat on the bus, and comes back in his
/// screen).
pub struct Private<'a, G: Seated> {
    pub side: Side,
    pub screen: &'a Screen<G>,
    pub form: muster::core::screen::Form<G::Field>,
}

impl<'a, G: Seated> Private<'a, G> {
    /// `side`'s screen on the laptop as his desk has it, built once for
    /// each change.
    pub fn of(game: &G, desk: &'a mut Desk<G>, side: Side) -> Private<'a, G> {
        let form = desk.form.clone();
        Private {
            side,
            screen: desk.screen(game, side, Place::Laptop),
            form,
        }
    }

    /// His screen's hex map, when it has one: drawn where the table's map
    /// is.
    pub fn board(&self) -> Option<muster::core::screen::HexBoard> {
        crate::app::screen::board(self.screen).cloned()
    }

    /// What he changed in the form this frame (a tick, a point picked on
    /// the table), sent to his seat.
    pub fn send_changes(&self, before: &muster::core::screen::Form<G::Field>, cx: &Cx) {
        if self.form != *before {
            cx.bus.seat(self.side, SeatMsg::Typed(sent(&self.form)));
        }
    }

    /// A hex he clicked on the map his screen draws there.
    pub fn tap(&self, hex: Hex, cx: &Cx) {
        cx.bus.seat(self.side, SeatMsg::Tap(hex));
    }

    /// One of his counters he dragged on the map.
    pub fn drag(&self, drag: muster::core::screen::Drag, cx: &Cx) {
        cx.bus.seat(self.side, SeatMsg::Drag(drag));
    }
}

/// A reply or a form as it crosses to the seat (JSON, read there into the
/// screen's own types, as a device's).
fn sent(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).expect("a screen's answer always serializes")
}

/// The table's panel beside its map or cards: `share` of the window's
/// width, within `bounds`, scrolling.
pub fn side_panel(
    ui: &mut egui::Ui,
    id: &str,
    share: f32,
    bounds: (f32, f32),
    content: impl FnOnce(&mut egui::Ui),
) {
    let width = (ui.ctx().content_rect().width() * share).clamp(bounds.0, bounds.1);
    egui::Panel::right(id.to_string())
        .resizable(false)
        .exact_size(width)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, content);
        });
}

/// What a table's widgets ask for: a command for the game, or the words of
/// what the window itself found wrong (a hex name mistyped).
pub enum Order<C> {
    Apply(C),
    Refused(String),
}

/// Puts the orders a table's widgets gave this frame on the bus.
pub fn send_orders<T: Table>(out: Vec<Order<<T::Game as Seated>::Command>>, cx: &Cx) {
    for order in out {
        match order {
            Order::Apply(command) => cx.bus.system(T::action(SeatedAction::Apply(command))),
            Order::Refused(why) => cx.bus.app(AppCommand::Say(Status::Error(why))),
        }
    }
}

/// A seated system's set-up form: drawn until the game starts, with each
/// player's passphrase set on his own screen.
pub trait Form {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &Cx);
    fn passphrases(&mut self) -> &mut NewPassphrases;
    /// Why the game cannot start yet, if it cannot (the field at fault).
    fn problem(&self) -> Option<String> {
        None
    }
}

/// A seated system's action, in its engine's and its table's types.
pub type Act<T> = SeatedAction<<<T as Table>::Game as Seated>::Command, <T as Table>::Action>;

/// A table whose game takes back and does again what its ledger says
/// (`undoable`, `undo`, `redoable`, `redo` of the game itself).
macro_rules! undo_by_the_game {
    () => {
        fn undoable(&self, game: &Self::Game) -> Result<String, String> {
            game.undoable()
        }

        fn undo(&mut self, game: &mut Self::Game) -> Result<String, String> {
            game.undo().map_err(|e| e.to_string())
        }

        fn redoable(&self, game: &Self::Game) -> bool {
            game.redoable()
        }

        fn redo(&mut self, game: &mut Self::Game) -> Result<String, String> {
            game.redo().map_err(|e| e.to_string())
        }
    };
}
pub(crate) use remote::remote_table;
pub(crate) use undo_by_the_game;

/// What a seated system configures.
pub trait Table: 'static {
    type Game: Seated<Request = ()> + OnLedger + Autosave + Clone + Send + 'static;
    /// Its widgets' own actions, beyond `Start` and `Apply`.
    type Action: Send + 'static;
    /// Its name on the status line.
    const NAME: &'static str;
    /// Its chapter of the manual.
    const CHAPTER: crate::app::manual::Chapter;
    /// Its table is a map, which wants the window's height: on a short
    /// screen the log folds to its last line while it shows.
    const MAP: bool = false;

    /// Its actions as the bus carries them…
    fn action(action: Act<Self>) -> Action
    where
        Self: Sized;
    /// …and back: its own, or `None` for another system's.
    fn own(action: Action) -> Option<Act<Self>>
    where
        Self: Sized;
    /// What the status line says when its game starts.
    const STARTED: &'static str;

    /// The set-up form; `Start` begins the game.
    fn form(&mut self) -> &mut dyn Form;
    /// The game the form describes.
    fn start(&mut self) -> Result<Self::Game, String>;

    /// The table both players see, and `private` where the laptop shows a
    /// player's screen.
    fn table(
        &mut self,
        ui: &mut egui::Ui,
        game: &Self::Game,
        private: Option<Private<'_, Self::Game>>,
        cx: &Cx,
    );

    /// One of its own actions.
    fn act(&mut self, game: Option<&mut Self::Game>, action: Self::Action) -> Handled;

    /// After the game changed (a selection that left the map goes).
    fn changed(&mut self, _game: &Self::Game) {}

    /// What Edit > Undo takes back, or why nothing.
    fn undoable(&self, _game: &Self::Game) -> Result<String, String> {
        Err("the rules take nothing back here".into())
    }

    fn undo(&mut self, _game: &mut Self::Game) -> Result<String, String> {
        Err("the rules take nothing back here".into())
    }

    /// Whether Edit > Redo has something undone to do again.
    fn redoable(&self, _game: &Self::Game) -> bool {
        false
    }

    fn redo(&mut self, _game: &mut Self::Game) -> Result<String, String> {
        Err("nothing was taken back to do again".into())
    }

    fn menu(&mut self, _menu: Menu, _ui: &mut egui::Ui, _cx: &Cx) {}

    /// What its printout offers beyond the public pages: a player's
    /// private page, unless it says otherwise.
    fn printout_offers(&self) -> Offers {
        Offers {
            private: true,
            templates: false,
            ..Offers::default()
        }
    }

    /// Prints `game` (on a worker thread: from its own copy).
    fn export_pdf(
        game: &Self::Game,
        options: &PdfOptions,
        path: &Path,
    ) -> Result<Vec<PathBuf>, StoreError>;

    fn file_chosen(&mut self, action: FileAction, path: &Path) -> Status;

    /// Whether its games are played from two machines (`invite`).
    const REMOTE: bool = false;

    /// `game`'s remote end, `hosting`'s seat played from another machine
    /// through `net`, when `REMOTE`.
    fn invite(
        _game: &mut Self::Game,
        _hosting: muster_remote::Hosting,
        _net: muster_remote::Net,
        _wake: muster_remote::Wake,
    ) -> Result<Box<dyn RemoteEnd<Self::Game>>, String> {
        Err(crate::app::system::not_remote(Self::NAME))
    }

    /// The side whose player gives `command`, if it is one side's (a game
    /// played remotely before and reopened refuses the remote side's).
    fn given_by(_game: &Self::Game, _command: &<Self::Game as Seated>::Command) -> Option<Side> {
        None
    }
}

pub struct SeatedWindow<T: Table> {
    pub table: T,
    pub game: Option<T::Game>,
    desks: Sides<Desk<T::Game>>,
    /// Its remote end, when a player plays from another machine.
    pub remote: Option<Box<dyn RemoteEnd<T::Game>>>,
    /// Its remote seat kept, to host it again after a restart (systems
    /// played remotely only).
    pub kept: Option<Kept>,
    /// Whether the players unfolded or folded the log; until they do, the
    /// screen's height decides.
    log_open: Option<bool>,
}

impl<T: Table> SeatedWindow<T> {
    pub fn new(table: T) -> SeatedWindow<T> {
        SeatedWindow {
            table,
            game: None,
            desks: Sides::default(),
            remote: None,
            kept: None,
            log_open: None,
        }
    }

    pub fn opened(table: T, game: T::Game) -> SeatedWindow<T> {
        SeatedWindow {
            game: Some(game),
            ..SeatedWindow::new(table)
        }
    }

    #[cfg(test)]
    pub fn engine(&self) -> Option<&T::Game> {
        self.game.as_ref()
    }

    /// What `side` has entered on his private screen so far.
    #[cfg(test)]
    pub fn form(&self, side: Side) -> &muster::core::screen::Form<<T::Game as Seated>::Field> {
        &self.desks[side].form
    }

    /// How many times `side`'s screen was built (tests count a tap's
    /// work).
    #[cfg(test)]
    pub fn builds(&self, side: Side) -> u64 {
        self.desks[side].builds()
    }

    /// Edit > Undo (what the rules let be taken back) or Redo (what the
    /// last undo took back, done again), said on the status line.
    fn take_back(&mut self, redo: bool) -> Handled {
        // Whatever asked it (a menu, a key, a button on the table): the log
        // of a remote game is both machines'.
        if self.remote.is_some() {
            return Handled::status(Status::Error(crate::app::remote::NO_UNDO.into()));
        }
        let Some(game) = &mut self.game else {
            return Handled::default();
        };
        let (done, said) = if redo {
            (self.table.redo(game), "Done again")
        } else {
            (self.table.undo(game), "Taken back")
        };
        match done {
            Ok(what) => {
                self.table.changed(game);
                Handled {
                    status: Some(Status::Info(format!("{said}: {what}"))),
                    changed: true,
                    dialog: None,
                }
            }
            Err(why) => Handled::status(Status::Error(why)),
        }
    }

    /// Applies a command from the table; a refusal goes to the status
    /// line (a private screen's refusals stay on its desk).
    fn apply(&mut self, command: <T::Game as Seated>::Command) -> Handled {
        if let Some(refused) = self.kept_refusal(&command) {
            return refused;
        }
        let Some(game) = &mut self.game else {
            return Handled::default();
        };
        let before = game.record().log_lines().len();
        let mover = self.remote.as_mut().map(|r| r.mover());
        let played = seat::mover::give(mover, game, command);
        if played.as_ref().is_err_and(|refused| !refused.changed()) {
            let Err(refused) = played else {
                unreachable!("checked above")
            };
            return Handled::status(Status::Error(refused.to_string()));
        }
        if let Ok(false) = played {
            return Handled::status(Status::Info(crate::app::remote::WAITING.into()));
        }
        // The log's words without its entry numbers: the status line says
        // what just happened, not where it is filed; a stall, loudly.
        let lines: Vec<&str> = game.record().log_lines()[before..]
            .iter()
            .map(|l| muster::core::chained_game::words(l))
            .collect();
        self.table.changed(game);
        Handled {
            status: Some(match played {
                Ok(_) => Status::Info(lines.join(" · ")),
                Err(stalled) => Status::Error(stalled.to_string()),
            }),
            changed: true,
            dialog: None,
        }
    }
}

/// A private screen beside the table: its heading, the button that hides
/// it, and the screen; the player's answers go to his seat on the bus.
pub fn private_panel<G: Seated>(
    ui: &mut egui::Ui,
    private: &mut Private<'_, G>,
    secrets: &str,
    cx: &Cx,
) {
    let side = private.side;
    ui.horizontal(|ui| {
        ui.heading(&private.screen.title);
        let hide = format!("Hide {secrets}");
        if ui.button(hide).clicked() {
            cx.bus.seat(side, SeatMsg::Hide);
        }
    });
    ui.separator();
    let before = private.form.clone();
    let reply = crate::app::screen::show(ui, private.screen, side, &mut private.form);
    private.send_changes(&before, cx);
    if let Some(reply) = reply {
        cx.bus.seat(side, SeatMsg::Reply(sent(&reply)));
    }
}

/// How the table shows where each seat is: a line for a seat on (or
/// lost from) his phone, else the button that hands him the laptop.
pub fn seat_line(ui: &mut egui::Ui, cx: &Cx, side: Side, name: &str, show: &str) {
    let life = cx.lives[side];
    if life.away() {
        ui.weak(format!("{name}: {}", life.words()));
    } else if cx.private.is_none()
        && ui
            .button(format!(
                "Show {} {show}",
                muster_core::text::possessive(name)
            ))
            .clicked()
    {
        cx.bus.seat(side, SeatMsg::Show);
    }
}

impl<T: Table> Seats for SeatedWindow<T> {
    type Game = T::Game;

    fn desked(&mut self) -> Option<Desked<'_, T::Game>> {
        let game = self.game.as_mut()?;
        Some(Desked {
            game,
            desks: &mut self.desks,
            mover: self.remote.as_mut().map(|r| r.mover()),
        })
    }
}

impl<T: Table> SystemWindow for SeatedWindow<T> {
    fn name(&self) -> &'static str {
        T::NAME
    }

    fn chapter(&self) -> crate::app::manual::Chapter {
        T::CHAPTER
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &Cx) {
        let Some(game) = &self.game else {
            // *Start the game* in a footer, in sight whatever the form's
            // length (issue 39: at y = 721 on a 720 px screen).
            egui::Panel::bottom("start").show(ui, |ui| {
                ui.add_space(4.0);
                ui.horizontal(|ui| {
                    let problem = self.table.form().problem();
                    if ui
                        .add_enabled(problem.is_none(), egui::Button::new("Start the game"))
                        .clicked()
                    {
                        cx.bus.system(T::action(SeatedAction::Start));
                    }
                    if let Some(problem) = problem {
                        ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {problem}"));
                    }
                });
                ui.add_space(4.0);
            });
            egui::CentralPanel::default().show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.table.form().ui(ui, cx));
            });
            return;
        };
        self.remote_line(ui, game, cx);
        // On a short screen the log folds while a map or a player's own
        // screen (his hand, whose last cards it hid) wants the height,
        // until the players unfold it.
        let tall = ui.ctx().content_rect().height() >= 800.0;
        let mut open = self
            .log_open
            .unwrap_or(tall || (!T::MAP && cx.private.is_none()));
        let was = open;
        log_panel(
            ui,
            "seated-log",
            160.0,
            game.record().log_lines(),
            (game.record().log().len(), &game.record().log_fingerprint()),
            &mut open,
        );
        if open != was {
            self.log_open = Some(open);
        }
        let private = cx
            .private
            .map(|side| Private::of(game, &mut self.desks[side], side));
        self.table.table(ui, game, private, cx);
    }

    fn handle(&mut self, action: Action, cx: &Cx) -> Handled {
        let action = match action {
            Action::PassphraseSet(side, lock, key) => {
                self.table.form().passphrases().keys[side] = Some((lock, key));
                return Handled::default();
            }
            Action::Undo => return self.take_back(false),
            Action::Redo => return self.take_back(true),
            other => match T::own(other) {
                Some(action) => action,
                // Another system's, sent before this window replaced it.
                None => return Handled::default(),
            },
        };
        match action {
            SeatedAction::Apply(command) => self.apply(command),
            SeatedAction::HostAgain => self.host_again(crate::app::remote::waker(&cx.bus)),
            SeatedAction::SetLock(side, lock, key) => self.set_lock(side, lock, key),
            SeatedAction::PlayHere => {
                if let Some(kept) = &mut self.kept {
                    kept.forget();
                }
                Handled::default()
            }
            SeatedAction::Own(action) => self.table.act(self.game.as_mut(), action),
            SeatedAction::Start => match self.table.start() {
                Ok(game) => {
                    self.game = Some(game);
                    self.desks = Sides::default();
                    Handled {
                        status: Some(Status::Info(T::STARTED.into())),
                        changed: true,
                        dialog: None,
                    }
                }
                Err(e) => Handled::status(Status::Error(format!("Not started: {e}"))),
            },
        }
    }

    fn game(&self) -> Option<&dyn Autosave> {
        self.game.as_ref().map(|g| g as &dyn Autosave)
    }

    fn undoable(&self) -> Result<String, String> {
        match &self.game {
            _ if self.remote.is_some() => Err(crate::app::remote::NO_UNDO.into()),
            Some(game) => self.table.undoable(game),
            None => Err("the game has not started yet".into()),
        }
    }

    fn redoable(&self) -> bool {
        self.remote.is_none() && self.game.as_ref().is_some_and(|g| self.table.redoable(g))
    }

    fn remote(&self) -> Option<crate::app::remote::invite::RemoteView> {
        self.remote.as_ref().map(|r| r.view())
    }

    fn can_invite(&self) -> Result<(), String> {
        self.invitable()
    }

    fn invite(
        &mut self,
        away: Side,
        net: muster_remote::Net,
        relay: Option<String>,
        wake: muster_remote::Wake,
    ) -> Result<(), String> {
        self.invite_to(away, net, relay, wake)
    }

    fn kept_seat(&self) -> Option<Side> {
        self.kept.as_ref().and_then(Kept::seat)
    }

    fn poll_remote(&mut self) -> Handled {
        self.poll_end()
    }

    fn menu(&mut self, menu: Menu, ui: &mut egui::Ui, cx: &Cx) {
        self.table.menu(menu, ui, cx);
    }

    fn printout_offers(&self) -> Offers {
        self.table.printout_offers()
    }

    fn export_job(&self, options: &PdfOptions, path: &Path) -> Result<ExportJob, StoreError> {
        let game = self
            .game
            .clone()
            .ok_or_else(|| StoreError::new("the game has not started yet"))?;
        let (options, path) = (options.clone(), path.to_path_buf());
        Ok(Box::new(move || T::export_pdf(&game, &options, &path)))
    }

    fn file_chosen(&mut self, action: FileAction, path: &Path) -> Status {
        self.table.file_chosen(action, path)
    }
}
