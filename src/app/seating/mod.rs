//! The seats (docs: the design's "seat"): where each player's private
//! screens appear and how his answers come back, for every system alike.
//! Each seat is one record here (`Seat`): who holds it (`Life`, the one
//! place that says so), his passphrase screens, his hand-over PIN, his
//! proof on the laptop. The game's engine says what he sees and what his
//! answers become (`Seated`, reached through `Desked`); the laptop's
//! hand-over screen (`laptop`) and a device of a transport (`transport`,
//! the phones' first: `phone`) draw that one description and send back
//! the same replies, which arrive here as messages on the window's bus,
//! read into the game's own types (`read`).
//!
//! On the laptop, a step the sequence brings a player (`due`) hands him
//! the screen by itself; what he may look at when he likes (his cards) is
//! asked for from the table. Either way his private screen opens only with
//! his proof, every time (whoever clicks "I am South" is not South): his
//! passphrase, or the hand-over PIN he chose beside it this sitting
//! (`muster_core::seat::pin`). A player without a passphrase is told his
//! screens open for whoever holds the laptop.
//!
//! Screens are built on change, not per frame: a seat's screen is built
//! when the game or his desk changed (`Desked::screen`), and sent to his
//! device only when what it shows changed.

mod keys;
mod laptop;
pub mod life;
pub mod pass;
mod phone;
pub mod routes;
pub mod transport;

pub use life::Life;
pub use phone::Phones;
pub use routes::{Roster, SeatRoutes, Seats};

use crate::app::bus::{Bus, PlayersMsg, SeatMsg, Then};
use crate::app::status::Status;
use laptop::{Laptop, Why};
use muster::core::intel::{Lock, PlayerKey, SealKey};
use muster::core::screen;
use muster::core::seat::pin::Pin;
use muster::core::seat::{Desked, Part, Place, Seated};
use muster::core::side::{Side, Sides};
use pass::Pass;
use transport::Transport;

/// A new game's passphrase asked of a player.
struct SetAsk {
    name: String,
    context: Vec<String>,
    then: Then,
}

#[derive(Default)]
struct Seat {
    /// Who holds the seat: the one record of it.
    life: Life,
    /// Where his desk was made for: a desk serves one holder, and is made
    /// anew for the next (his key is asked again).
    desk_for: Place,
    pass: Pass,
    set: Option<SetAsk>,
    /// His key asked for something he asked of the table.
    key: Option<(Lock, crate::app::bus::KeyThen)>,
    /// The laptop's unlock was asked for him.
    unlock: bool,
    /// What he put off with "Not now": the table shows until it changes.
    not_now: Option<String>,
    /// His hand-over PIN of the sitting, as its salted hash, and the
    /// sealing key his passphrase opened beside it: the PIN opens his
    /// private screens on the laptop with that key. Never saved; gone with
    /// the game, his lock or three wrong tries.
    pin: Option<(Pin, Option<SealKey>)>,
    /// Whoever holds the laptop on his private screen proved to be him
    /// (his passphrase or his PIN), since he took it.
    proved: bool,
    /// Why his PIN was dropped, for his passphrase screen that follows.
    dropped: Option<String>,
    /// His seat's address, while its code may be shown, and since when.
    code: Option<String>,
    shown_at: Option<std::time::Instant>,
    /// A browser asked for his seat's page since its code was made.
    opened: bool,
    /// Why his device's last printout was not made, on his device alone.
    printout_refused: Option<String>,
    /// Counts his pairings (a new code, a seat let go, a stop): a printout
    /// made for one is never sent to the next.
    paired: u64,
    /// His printout is being made, for the pairing it was asked on.
    printing: Option<u64>,
    /// Counts the changes of his seat (a message of his, his life): his
    /// device's screen is built again only for a new one.
    version: u64,
    /// The versions (his desk's, his seat's) his device's screen was last
    /// built for.
    sent: Option<(u64, u64)>,
    /// On his own machine in a remote game (the other plays from his own
    /// Muster): the key his last unlock gave, so that the game the host's
    /// restarted Muster sends again is unlocked with it, not by typing his
    /// passphrase once more. Never saved; gone with the game.
    kept: Option<PlayerKey>,
}

impl Seat {
    /// The hand-over PIN he chose beside his passphrase, if any, kept with
    /// what his desk holds (`held`); why not, if it is refused.
    fn keep_chosen_pin(&mut self, held: Option<SealKey>) -> Option<Status> {
        let typed = self.pass.chosen.take()?;
        match Pin::choose(&typed) {
            Ok(pin) => {
                self.pin = Some((pin, held));
                None
            }
            Err(why) => Some(Status::Error(why)),
        }
    }
}

/// What the window's UI is told of the seats this frame.
#[derive(Clone)]
pub struct Cx {
    pub bus: Bus,
    /// The side whose private screen the laptop shows now, if any.
    pub private: Option<Side>,
    pub lives: Sides<Life>,
    /// Who is setting a passphrase now (on his phone or the laptop).
    pub setting: Sides<bool>,
}

impl Cx {
    pub fn on_phone(&self, side: Side) -> bool {
        self.lives[side].on_phone()
    }
}

#[derive(Default)]
pub struct Seating {
    seats: Sides<Seat>,
    laptop: Laptop,
    /// The players' screens: the phones' transport.
    pub phones: Phones,
    /// The seat whose code the laptop shows now.
    pub showing: Option<Side>,
    /// Numbers each key derivation, so a stale one is dropped.
    generation: u64,
    /// Each seat's derivation still running, if any (64 MiB or more
    /// each): one at a time, whatever screen asked, across games.
    deriving: Sides<Option<u64>>,
    /// What each player was due to do last frame: a step that becomes due
    /// to one player while the other holds his own screen is handed on.
    dues: Sides<Option<String>>,
    /// The part of play under way last frame: a screen the table opened
    /// closes when the play moves on to a part that is not its owner's.
    part: Option<Part>,
    /// Every message the phones sent, as the laptop opened it (tests look
    /// for what must cross once, or never).
    #[cfg(test)]
    pub heard: Vec<(Side, String)>,
}

/// What handling a message did to the game.
#[derive(Default)]
pub struct Outcome {
    pub changed: bool,
    pub status: Option<Status>,
}

impl Outcome {
    /// What a seat did by itself, and what went wrong there, said.
    fn by_itself<G: Seated>(desked: &mut Desked<'_, G>, places: Sides<Place>) -> Outcome {
        let (changed, wrong) = desked.by_itself(places);
        Outcome {
            changed,
            status: wrong.into_iter().next().map(|(side, why)| {
                Status::Error(format!("{}: {why}", desked.game.seat_name(side)))
            }),
        }
    }
}

impl Seating {
    pub fn life(&self, side: Side) -> Life {
        self.seats[side].life
    }

    pub fn lives(&self) -> Sides<Life> {
        Sides {
            south: self.seats.south.life,
            north: self.seats.north.life,
        }
    }

    /// Where `side`'s screen is drawn, as who holds his seat says.
    fn place(&self, side: Side) -> Place {
        self.seats[side].life.place()
    }

    fn places(&self) -> Sides<Place> {
        Sides {
            south: self.place(Side::South),
            north: self.place(Side::North),
        }
    }

    /// The address of `side`'s seat, while its code is shown.
    pub fn code(&self, side: Side) -> Option<&str> {
        self.seats[side].code.as_deref()
    }

    /// How long `side`'s code has been shown with no browser opening its
    /// page, if it has.
    pub fn unscanned(&self, side: Side) -> Option<std::time::Duration> {
        let seat = &self.seats[side];
        seat.code.as_ref()?;
        (!seat.opened).then(|| seat.shown_at.map(|at| at.elapsed()))?
    }

    /// Pretends `side`'s code was shown `by` earlier (tests of what the
    /// window says after a minute, without waiting it).
    #[cfg(test)]
    pub fn backdate_code(&mut self, side: Side, by: std::time::Duration) {
        let seat = &mut self.seats[side];
        seat.shown_at = seat.shown_at.and_then(|at| at.checked_sub(by));
    }

    /// `side`'s seat changed: his device is sent his screen again.
    fn touched(&mut self, side: Side) {
        self.seats[side].version += 1;
    }

    /// His seat goes to `life`; a desk made for another holder is made
    /// anew when the seats are next prepared.
    fn live(&mut self, side: Side, life: Life) {
        let seat = &mut self.seats[side];
        if seat.life != life {
            seat.life = life;
            seat.version += 1;
        }
    }

    /// Who plays from another machine (a remote game): his seat is his
    /// machine's, and a seat that was so and is no longer (the remote
    /// game ended) is back on this laptop.
    pub fn remote(&mut self, away: Option<Side>) {
        for side in Side::BOTH {
            let life = self.seats[side].life;
            if away == Some(side) && life != Life::Remote {
                if life.on_phone() || life == Life::CodeShown {
                    self.phones.release(side);
                }
                self.seats[side].code = None;
                self.live(side, Life::Remote);
            } else if away != Some(side) && life == Life::Remote {
                self.live(side, Life::Unpaired);
            }
        }
    }

    /// The game changed (on the table, on a seat, by undo): every screen
    /// shows it, a refusal speaks of a screen that is gone, and each seat
    /// does what it does by itself with its desk.
    pub fn game_changed<G: Seated>(&mut self, desked: &mut Desked<'_, G>) -> Outcome {
        desked.changed();
        for side in Side::BOTH {
            desked.forget(side);
        }
        Outcome::by_itself(desked, self.places())
    }

    /// Brings the seats up to date, once a frame after its messages: each
    /// desk serves its seat's holder, what passphrase is asked of whom,
    /// and who has the laptop (a step the sequence brings a player hands
    /// him the screen). What the table is told of a screen that closed by
    /// itself.
    pub fn prepare<G: Seated>(&mut self, mut desked: Option<&mut Desked<'_, G>>) -> Option<Status> {
        for side in Side::BOTH {
            let place = self.place(side);
            if let Some(desked) = desked.as_deref_mut()
                && self.seats[side].desk_for != place
            {
                desked.fresh(side);
            }
            self.seats[side].desk_for = place;
            let kind = self.kind(side, desked.as_deref());
            let seat = &mut self.seats[side];
            seat.pass.offer_pin = !seat.life.on_phone() && seat.pin.is_none();
            if seat.pass.settle(kind) {
                seat.version += 1;
            }
            if let Some(why) = seat.dropped.take() {
                seat.pass.refuse(why);
            }
        }
        let dues = Sides {
            south: desked.as_deref().and_then(|d| self.due(Side::South, d)),
            north: desked.as_deref().and_then(|d| self.due(Side::North, d)),
        };
        for side in Side::BOTH {
            let seat = &mut self.seats[side];
            if seat.not_now.is_some() && seat.not_now != dues[side] {
                seat.not_now = None;
            }
        }
        let said = self.hand_on(&dues, desked);
        self.dues = dues;
        said
    }

    /// What the table waits for `side` to do in private now.
    fn due<G: Seated>(&self, side: Side, desked: &Desked<'_, G>) -> Option<String> {
        desked.game.due(side, desked.at(side, self.place(side)))
    }

    /// Carries out a message of `side`'s seat.
    pub fn handle<G: Seated + Clone + Send + 'static>(
        &mut self,
        side: Side,
        msg: SeatMsg,
        bus: &Bus,
        desked: Option<&mut Desked<'_, G>>,
    ) -> Outcome {
        self.touched(side);
        let mut outcome = Outcome::default();
        match msg {
            SeatMsg::Show => self.show(side, desked.as_deref(), &mut outcome),
            SeatMsg::Took => self.took(side, desked),
            SeatMsg::Hide => self.hide(side, desked),
            SeatMsg::NotNow => {
                if self.laptop == Laptop::Handing(side, Why::Due) {
                    self.seats[side].not_now = desked.as_deref().and_then(|d| self.due(side, d));
                    self.laptop = Laptop::Table;
                }
            }
            SeatMsg::Lock => self.seats[side].pin = None,
            SeatMsg::Resume => self.seats[side].not_now = None,
            SeatMsg::PassTo => {
                if !self.unlock_first(side, desked.as_deref(), &mut outcome) {
                    self.seats[side].not_now = None;
                }
            }
            SeatMsg::Typed(sent) => self.typed(side, &sent, desked),
            SeatMsg::Tap(hex) => {
                if let (true, Some(desked)) = (self.holding(side), desked) {
                    desked.tapped(side, hex);
                }
            }
            SeatMsg::Drag(drag) => {
                if let (true, Some(desked)) = (self.holding(side), desked) {
                    desked.dragged(side, &drag);
                }
            }
            SeatMsg::Declared => outcome = self.declared(side, desked),
            SeatMsg::Reply(sent) => {
                let here = self.seats[side].life.on_phone()
                    || matches!(self.laptop, Laptop::Holding(s, _) | Laptop::Handing(s, _) if s == side);
                if here {
                    outcome = self.reply(side, &sent, bus, desked);
                }
            }
            SeatMsg::SetPassphrase {
                name,
                context,
                then,
            } => {
                self.seats[side].set = Some(SetAsk {
                    name,
                    context,
                    then,
                });
            }
            SeatMsg::Unlock => self.seats[side].unlock = true,
            SeatMsg::AskKey { lock, then } => self.seats[side].key = Some((lock, then)),
            SeatMsg::Derived { generation, result } => {
                if self.deriving[side] == Some(generation) {
                    self.deriving[side] = None;
                }
                if self.seats[side].pass.worked(generation) {
                    outcome = self.derived(side, result, bus, desked);
                }
            }
            SeatMsg::Phone(event) => outcome = self.phone(side, event, bus, desked),
            SeatMsg::Printed { paired, made } => self.printed(side, paired, made),
        }
        outcome
    }

    /// What `side` typed so far on his screen (the laptop's or his
    /// device's), read into the screen's own types: his passphrase
    /// screen's (kept there), or his game screen's, for the live checks.
    /// A message that is not one is dropped: nothing of the form changes.
    fn typed<G: Seated>(&mut self, side: Side, sent: &str, desked: Option<&mut Desked<'_, G>>) {
        if self.seats[side].pass.kind().is_some() {
            if let Ok(form) = screen::read(sent) {
                self.seats[side].pass.typed = form;
            }
            return;
        }
        if let Some(desked) = desked
            && let Ok(form) = screen::read::<screen::Form<G::Field>>(sent)
        {
            desked.typed(side, form);
        }
    }

    /// His answer, to his passphrase screen or to the game's, read into
    /// that screen's types; one that is not is refused on his screen,
    /// naming the field at fault.
    fn reply<G: Seated + Clone + Send + 'static>(
        &mut self,
        side: Side,
        sent: &str,
        bus: &Bus,
        desked: Option<&mut Desked<'_, G>>,
    ) -> Outcome {
        if self.seats[side].pass.kind().is_some() {
            return match screen::read(sent) {
                Ok(reply) => self.pass_reply(side, &reply, bus, desked),
                Err(why) => {
                    self.seats[side].pass.refuse(not_an_answer(&why));
                    Outcome::default()
                }
            };
        }
        let mut outcome = Outcome::default();
        let Some(desked) = desked else {
            return outcome;
        };
        match screen::read(sent) {
            // A refusal is shown on his own screen only (his desk keeps
            // it): its words may tell his secret.
            Ok(reply) => match desked.answer(side, self.place(side), &reply) {
                Ok(changed) => outcome.changed = changed,
                Err((_, changed)) => outcome.changed = changed,
            },
            Err(why) => {
                desked.desks[side].refusal = Some(not_an_answer(&why));
                desked.desks[side].touch();
            }
        }
        outcome
    }

    /// The choice his hand-over screen offers in the open, made there: it
    /// needs no proof, so it is taken only while that screen shows it.
    fn declared<G: Seated>(&mut self, side: Side, desked: Option<&mut Desked<'_, G>>) -> Outcome {
        let mut outcome = Outcome::default();
        let place = self.place(side);
        if let Some(desked) = desked
            && self.laptop == Laptop::Handing(side, Why::Due)
            && let Some((_, act)) = desked.game.open_choice(side, desked.at(side, place))
            && let Ok(changed) = desked.answer(side, place, &screen::Reply::button(act))
        {
            outcome.changed = changed;
        }
        outcome
    }

    /// What the window's UI is told this frame.
    pub fn cx<G: Seated>(&self, bus: &Bus, _desked: Option<&Desked<'_, G>>) -> Cx {
        let private = match self.laptop {
            Laptop::Holding(side, Why::Due | Why::Request)
                if self.seats[side].pass.kind().is_none() =>
            {
                Some(side)
            }
            _ => None,
        };
        Cx {
            bus: bus.clone(),
            private,
            lives: self.lives(),
            setting: Sides {
                south: self.seats.south.set.is_some(),
                north: self.seats.north.set.is_some(),
            },
        }
    }

    /// Carries out what the players' screens window asked for. A code is
    /// shown only over the table: a player's private screen open on the
    /// laptop is closed first (whoever leans in to scan it would see it),
    /// and only after its player's proof, if he has one to give.
    pub fn players<G: Seated>(
        &mut self,
        msg: PlayersMsg,
        bus: &Bus,
        mut desked: Option<&mut Desked<'_, G>>,
    ) {
        if matches!(msg, PlayersMsg::Pair(_) | PlayersMsg::ShowCode(Some(_)))
            && let Laptop::Handing(side, _) | Laptop::Holding(side, _) = self.laptop
        {
            self.close(side, desked.as_deref_mut());
        }
        // His code opens his seat to whoever scans it: his proof first.
        let code = match msg {
            PlayersMsg::Pair(side) => Some((side, true)),
            PlayersMsg::ShowCode(Some(side)) => Some((side, false)),
            _ => None,
        };
        if let Some((side, new)) = code
            && self.laptop == Laptop::Table
            && self.code_asked(side, new, desked.as_deref())
        {
            return;
        }
        match msg {
            PlayersMsg::Start(ip) => self.phones.start(ip, bus),
            PlayersMsg::Stop => self.stop(),
            PlayersMsg::Pair(side) => match self.pair(side) {
                Ok(_) => self.showing = Some(side),
                Err(e) => self.phones.error = Some(e),
            },
            PlayersMsg::Release(side) => {
                self.phones.release(side);
                let seat = &mut self.seats[side];
                seat.paired += 1;
                seat.code = None;
                let life = seat.life.after(life::Event::Released);
                self.live(side, life);
                if self.showing == Some(side) {
                    self.showing = None;
                }
            }
            PlayersMsg::ShowCode(side) => self.showing = side,
        }
    }

    /// The players' screens stop (Stop, New, Open, quitting): every phone
    /// is told so and every seat is back on the laptop at once.
    pub fn stop(&mut self) {
        self.phones.stop_all();
        for side in Side::BOTH {
            let seat = &mut self.seats[side];
            seat.code = None;
            if seat.life != Life::Unpaired {
                seat.paired += 1;
                let life = seat.life.after(life::Event::Stopped);
                self.live(side, life);
            }
        }
        self.showing = None;
    }

    /// Another game opens: the players' screens stop, and nothing of the
    /// last game's seats (its keys, its asks) stays; but the same game
    /// joined again (`same_game`) keeps the key a player's unlock gave on
    /// his own machine, which unlocks the game as it comes.
    pub fn reset(&mut self, same_game: bool) {
        self.stop();
        for side in Side::BOTH {
            let life = self.seats[side].life;
            let kept = self.seats[side].kept.take().filter(|_| same_game);
            self.seats[side] = Seat {
                life,
                kept,
                ..Seat::default()
            };
        }
        self.laptop = Laptop::Table;
        self.part = None;
    }
}

/// The words of a message that is not an answer of the screen it was
/// sent to.
fn not_an_answer(why: &str) -> String {
    format!("That answer is not one of this screen's ({why})")
}

impl Drop for Seating {
    fn drop(&mut self) {
        self.stop();
    }
}
