//! The seats (DESIGN, "The seat"): where each player's private screens
//! appear and how his answers come back, for every system alike. A seat is
//! on this laptop, behind its hand-over screen, or on his phone; its life
//! (`Life`) is one state machine the table shows by his name. The game's
//! engine says what he sees and what his answers become (`SeatHost`); the
//! laptop's private screen, his phone's page and the tests draw that one
//! description and send back the same replies, which arrive here as
//! messages on the window's bus. His passphrase screens (set, unlock, open)
//! are his seat's too, wherever it is (`pass`).
//!
//! On the laptop, a step the sequence brings a player (`due`) hands him
//! the screen by itself; what he may look at when he likes (his cards) is
//! asked for from the table. Either way his private screen opens only with
//! his proof, every time (issue 39: whoever clicks "I am South" is not
//! South): his passphrase, or the hand-over PIN he chose beside it this
//! sitting (`muster_core::seat::pin`). A player without a passphrase is
//! told his screens open for whoever holds the laptop.

pub mod life;
pub mod pass;

pub use life::Life;
pub use muster::core::seat::{Desked, SeatHost};

use crate::app::bus::Bus;
use crate::app::bus::{Derived, KeyThen, PlayersMsg, SeatMsg, Then};
use crate::app::privacy::{self, HandOver};
use crate::app::status::Status;
use eframe::egui;
use muster::core::intel::SealKey;
use muster::core::screen::{Block, Reply, Screen};
use muster::core::seat::pin::{Pin, Tried};
use muster::core::side::{Side, Sides};
use muster::seats::protocol::{FromPage, ToPage};
use muster::seats::server::{self, FromPhone, Limits, Options, Server};
use pass::{Kind, Pass};
use std::net::SocketAddr;

/// Why the laptop is handed to a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Why {
    /// A step the sequence brings him.
    Due,
    /// The table asked for his screen.
    Request,
    /// A passphrase is asked of him.
    Passphrase,
}

/// Who has the laptop's screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Laptop {
    /// The table, as both players see it.
    #[default]
    Table,
    /// His hand-over screen.
    Handing(Side, Why),
    /// His private screen.
    Holding(Side, Why),
}

/// A new game's passphrase asked of a player.
struct SetAsk {
    name: String,
    context: Vec<String>,
    then: Then,
}

#[derive(Default)]
struct Seat {
    life: Life,
    pass: Pass,
    set: Option<SetAsk>,
    /// His key asked for something he asked of the table.
    key: Option<(muster::core::intel::Lock, KeyThen)>,
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
    /// Why his phone's last printout was not made, on his phone alone.
    printout_refused: Option<String>,
    /// Counts his pairings (a new code, a seat let go, a stop): a printout
    /// made for one is never sent to the next.
    paired: u64,
    /// His printout is being made, for the pairing it was asked on.
    printing: Option<u64>,
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

/// The port the players' screens try first; the next ones (then one the
/// system picks) when it is taken.
pub const PORT: u16 = 7878;

#[derive(Default)]
pub struct Seating {
    seats: Sides<Seat>,
    laptop: Laptop,
    server: Option<Server>,
    /// The address the codes name.
    pub host: Option<std::net::IpAddr>,
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
    /// The last error of the players' screens, for their window.
    pub error: Option<String>,
    /// Every message the phones sent, as the laptop opened it (tests look
    /// for what must cross once, or never).
    #[cfg(test)]
    pub heard: Vec<(Side, String)>,
    /// Names the page may be reached by besides the address (tests: a
    /// name their browser maps to 127.0.0.1).
    pub aliases: Vec<String>,
    pub limits: Limits,
    /// The port tried first (`PORT` unless a test says otherwise).
    pub first_port: Option<u16>,
    /// Where the players' chosen address is kept between runs.
    pub settings: Option<std::path::PathBuf>,
}

/// What handling a message did to the game.
#[derive(Default)]
pub struct Outcome {
    pub changed: bool,
    pub status: Option<Status>,
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

    pub fn server_addr(&self) -> Option<SocketAddr> {
        self.server.as_ref().map(Server::addr)
    }

    /// The address of `side`'s seat, while its code is shown.
    pub fn code(&self, side: Side) -> Option<&str> {
        self.seats[side].code.as_deref()
    }

    /// Why the server closed sockets lately (tests).
    #[cfg(test)]
    pub fn log(&self) -> Vec<String> {
        self.server.as_ref().map_or_else(Vec::new, Server::log)
    }

    /// Tests: the laptop goes quiet to the phones while `on`.
    #[cfg(test)]
    pub fn hush(&self, on: bool) {
        if let Some(server) = &self.server {
            server.hush(on);
        }
    }

    /// Tests: the phones' network drops every socket with no goodbye.
    #[cfg(test)]
    pub fn cut(&self) {
        if let Some(server) = &self.server {
            server.cut();
        }
    }

    /// What the server refused lately, and why.
    pub fn refusals(&self) -> server::Refusals {
        self.server
            .as_ref()
            .map_or_else(Default::default, Server::refusals)
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

    /// The address the players chose last time, if this laptop still has
    /// it.
    pub fn recall(&mut self) {
        let Some(path) = &self.settings else { return };
        let Ok(text) = muster::core::store::read_text(path) else {
            return;
        };
        let remembered = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v.get("address")?.as_str()?.parse::<std::net::IpAddr>().ok());
        if let Some(ip) = remembered
            && server::local_addresses().iter().any(|a| a.ip == ip)
        {
            self.host = Some(ip);
        }
    }

    /// Keeps the address the players chose for next time (best effort: a
    /// settings file that cannot be written changes nothing else).
    fn remember(&self, ip: std::net::IpAddr) {
        if let Some(path) = &self.settings {
            let text = serde_json::json!({ "address": ip.to_string() }).to_string();
            let _ = muster::core::store::write_atomic(path, text.as_bytes(), |_| Ok(()));
        }
    }

    /// Whether the laptop shows (or is about to show) `side`'s private
    /// screen: a step of his, or what the table asked of him.
    fn holding(&self, side: Side) -> bool {
        matches!(self.laptop, Laptop::Holding(s, Why::Due | Why::Request) if s == side)
    }

    /// Whether the laptop is handed (or held) for `side`'s private screen:
    /// his proof is asked on the hand-over screen itself.
    fn proving(&self, side: Side) -> bool {
        self.holding(side)
            || matches!(self.laptop, Laptop::Handing(s, Why::Due | Why::Request) if s == side)
    }

    /// The laptop goes to `side` for a private screen: nothing of his opens
    /// before he proves it is he, on the hand-over screen.
    fn hand(&mut self, side: Side, why: Why) {
        self.laptop = Laptop::Handing(side, why);
        self.seats[side].proved = false;
    }

    /// The laptop passed to `side` in a reopened game not yet unlocked:
    /// his unlocking comes first (the step opens with it), or the table is
    /// told who must unlock before anything opens. Whether it was so.
    fn unlock_first(
        &mut self,
        side: Side,
        host: Option<&(dyn SeatHost + '_)>,
        outcome: &mut Outcome,
    ) -> bool {
        let Some(host) = host else {
            return false;
        };
        let locked = host.locked();
        if locked.contains(&side) {
            self.seats[side].unlock = true;
        } else if let Some(first) = locked.first() {
            outcome.status = Some(Status::Info(format!(
                "Read-only until {} unlocks the game: nothing of it opens before",
                host.name(*first)
            )));
        }
        !locked.is_empty()
    }

    /// He proved it is he on his hand-over screen: he holds the laptop.
    fn taken(&mut self, side: Side) {
        if let Laptop::Handing(s, why) = self.laptop
            && s == side
        {
            self.laptop = Laptop::Holding(side, why);
        }
    }

    /// What his passphrase is asked for now, if anything.
    fn kind(&self, side: Side, host: Option<&(dyn SeatHost + '_)>) -> Option<Kind> {
        let seat = &self.seats[side];
        if let Some(set) = &seat.set {
            return Some(Kind::Set(set.context.clone()));
        }
        if let Some((lock, _)) = &seat.key {
            return Some(Kind::Key(lock.clone()));
        }
        let host = host?;
        if host.locked().contains(&side) {
            let asked = seat.life.on_phone() || seat.unlock;
            return asked
                .then(|| host.lock_of(side).map(Kind::Unlock))
                .flatten();
        }
        let holding = self.holding(side);
        // The laptop's holder proves he is this player, every time.
        if self.proving(side) && !seat.proved {
            if seat.pin.is_some() {
                return Some(Kind::Pin);
            }
            if let Some(lock) = host.needs_key(side) {
                return Some(Kind::Open(lock));
            }
            return host.lock_of(side).map(Kind::Prove);
        }
        if seat.life.on_phone() || holding {
            return host.needs_key(side).map(Kind::Open);
        }
        None
    }

    /// Brings the seats up to date before the frame is drawn: who is on
    /// his phone, what passphrase is asked of whom, and who has the laptop
    /// (a step the sequence brings a player hands him the screen).
    pub fn prepare(&mut self, mut host: Option<&mut (dyn SeatHost + '_)>) {
        for side in Side::BOTH {
            if let Some(host) = host.as_deref_mut() {
                host.place(side, self.seats[side].life.on_phone());
            }
            let kind = self.kind(side, host.as_deref());
            let seat = &mut self.seats[side];
            seat.pass.offer_pin = !seat.life.on_phone() && seat.pin.is_none();
            seat.pass.settle(kind);
            if let Some(why) = seat.dropped.take() {
                seat.pass.refuse(why);
            }
        }
        // A seat that went to a phone takes its screens with it.
        if let Laptop::Handing(side, _) | Laptop::Holding(side, _) = self.laptop
            && self.seats[side].life.on_phone()
        {
            self.laptop = Laptop::Table;
        }
        let dues = Sides {
            south: host.as_deref().and_then(|h| h.due(Side::South)),
            north: host.as_deref().and_then(|h| h.due(Side::North)),
        };
        for side in Side::BOTH {
            let seat = &mut self.seats[side];
            if seat.not_now.is_some() && seat.not_now != dues[side] {
                seat.not_now = None;
            }
        }
        // A step one player's own screen brought to the other (a phase
        // declared there asks the other whether they interrupt): his screen
        // closes, and the table hands the laptop on below.
        if let Laptop::Holding(side, Why::Request) = self.laptop {
            let other = side.opponent();
            if dues[side].is_none()
                && dues[other].is_some()
                && self.dues[other].is_none()
                && !self.seats[other].life.on_phone()
            {
                self.close(side, host.as_deref_mut());
            }
        }
        self.dues = dues.clone();
        match self.laptop {
            Laptop::Holding(side, Why::Due) if dues[side].is_none() => {
                if host.as_deref().is_some_and(|h| h.stays_open(side)) {
                    self.laptop = Laptop::Holding(side, Why::Request);
                } else {
                    // Done: the table, with nothing secret on it (a "done"
                    // screen would be a click that decides nothing).
                    self.close(side, host.as_deref_mut());
                }
            }
            Laptop::Holding(side, Why::Passphrase) | Laptop::Handing(side, Why::Passphrase)
                if self.seats[side].pass.kind().is_none() =>
            {
                self.laptop = Laptop::Table;
            }
            // What he was to be handed is done (or undone) meanwhile.
            Laptop::Handing(side, Why::Due) if dues[side].is_none() => {
                self.laptop = Laptop::Table;
            }
            _ => {}
        }
        // A reopened game is read-only until its players unlock it: no
        // step of it is brought to anyone before.
        let read_only = host.as_deref().is_some_and(|h| !h.locked().is_empty());
        if self.laptop == Laptop::Table {
            for side in Side::BOTH {
                let seat = &self.seats[side];
                if seat.life.on_phone() {
                    continue;
                }
                if seat.set.is_some() || seat.key.is_some() || seat.unlock {
                    self.laptop = Laptop::Handing(side, Why::Passphrase);
                    break;
                }
                if let Some(what) = &dues[side]
                    && seat.not_now.as_ref() != Some(what)
                    && !read_only
                {
                    self.hand(side, Why::Due);
                    break;
                }
            }
        }
    }

    /// The laptop leaves `side`'s private screen: his key goes from the
    /// desk (the sitting keeps its own), and his form with it.
    fn close(&mut self, side: Side, host: Option<&mut (dyn SeatHost + '_)>) {
        self.laptop = Laptop::Table;
        self.seats[side].proved = false;
        if let Some(host) = host {
            host.hold(side, None);
            host.forget(side);
        }
    }

    /// What the window's UI is told this frame.
    pub fn cx(&self, bus: &Bus) -> Cx {
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

    /// The full-window screens the seats put over the window: a hand-over
    /// screen, or a passphrase screen. True while one covers it.
    pub fn covering(
        &mut self,
        ui: &mut egui::Ui,
        bus: &Bus,
        host: Option<&(dyn SeatHost + '_)>,
    ) -> bool {
        match self.laptop {
            Laptop::Table => false,
            Laptop::Handing(side, why) => {
                let screen = self.hand_over(side, why, host);
                let name = self.pass_name(side, host);
                let pass = &mut self.seats[side].pass;
                let form = pass.on_hand_over(&name);
                let proof = form.as_ref().map(|form| privacy::Proof {
                    form,
                    side,
                    typed: &mut pass.typed,
                });
                match privacy::hand_over_screen(ui, &screen, proof) {
                    privacy::Clicked::Button => bus.seat(side, SeatMsg::Took),
                    privacy::Clicked::Proof(reply) => {
                        bus.seat(side, SeatMsg::Typed(pass.typed.clone()));
                        bus.seat(side, SeatMsg::Reply(reply));
                    }
                    privacy::Clicked::OpenChoice => {
                        if let Some((_, reply)) = screen.open_choice {
                            bus.seat(side, SeatMsg::Declared(reply));
                        }
                    }
                    privacy::Clicked::Wait => bus.seat(side, SeatMsg::NotNow),
                    privacy::Clicked::Lock => bus.seat(side, SeatMsg::Lock),
                    privacy::Clicked::Back => bus.seat(side, SeatMsg::Hide),
                    privacy::Clicked::Nothing => {}
                }
                true
            }
            Laptop::Holding(side, _) => {
                let name = self.pass_name(side, host);
                let seat = &mut self.seats[side];
                let Some(screen) = seat.pass.screen(&name) else {
                    return false;
                };
                let typed = &mut seat.pass.typed;
                if let Some(reply) = privacy::passphrase_column(ui, &screen, side, typed) {
                    bus.seat(side, SeatMsg::Typed(typed.clone()));
                    bus.seat(side, SeatMsg::Reply(reply));
                }
                true
            }
        }
    }

    /// How his passphrase screen calls him.
    fn pass_name(&self, side: Side, host: Option<&(dyn SeatHost + '_)>) -> String {
        match &self.seats[side].set {
            Some(set) => set.name.clone(),
            None => host.map_or(side.to_string(), |h| h.name(side)),
        }
    }

    /// The hand-over screen to `side`.
    fn hand_over(&self, side: Side, why: Why, host: Option<&(dyn SeatHost + '_)>) -> HandOver {
        let name = self.pass_name(side, host);
        let other = host.map_or(side.opponent().to_string(), |h| h.name(side.opponent()));
        let secrets = host.map_or("my screen", |h| h.secrets());
        let mut screen = HandOver {
            title: format!("Pass the laptop to {name}"),
            text: format!("Only {name} looks: {other} looks away until {name} is done."),
            button: format!("I am {name}: show {secrets}"),
            can_wait: false,
            open_choice: None,
            lock: None,
            // Before a game begins he came from its form, not a table.
            back: Some(
                if host.is_some() {
                    "Cancel: back to the table"
                } else {
                    "Cancel: back to the form"
                }
                .into(),
            ),
        };
        match why {
            Why::Passphrase => {
                screen.text = format!("Only {name} looks while they type their passphrase.");
                screen.button = format!("I am {name}: type my passphrase");
            }
            Why::Due => {
                let what = host.and_then(|h| h.due(side)).unwrap_or_default();
                screen.text =
                    format!("{name} {what} in secret. {other} looks away until {name} is done.");
                screen.back = None;
                screen.can_wait = true;
                screen.open_choice = host.and_then(|h| h.open_choice(side));
            }
            Why::Request => {}
        }
        if why != Why::Passphrase {
            let has_lock = host.is_some_and(|h| h.lock_of(side).is_some());
            screen.text += &if !has_lock {
                format!(
                    " {name} set no passphrase: their screen opens for whoever holds the laptop."
                )
            } else if self.seats[side].pin.is_some() {
                format!(
                    " {} hand-over PIN opens it.",
                    muster_core::text::possessive(&name)
                )
            } else {
                format!(
                    " {} passphrase opens it.",
                    muster_core::text::possessive(&name)
                )
            };
            if self.seats[side].pin.is_some() {
                screen.lock = Some(format!(
                    "Lock {} screens: drop the PIN, ask the passphrase",
                    muster_core::text::possessive(&name)
                ));
            }
        }
        screen
    }

    /// Carries out a message of `side`'s seat.
    pub fn handle(
        &mut self,
        side: Side,
        msg: SeatMsg,
        bus: &Bus,
        mut host: Option<&mut (dyn SeatHost + '_)>,
    ) -> Outcome {
        let mut outcome = Outcome::default();
        match msg {
            SeatMsg::Show => {
                if self.seats[side].life.on_phone() {
                    outcome.status =
                        Some(Status::Info(format!("{side}'s screen is on their phone")));
                } else if !self.unlock_first(side, host.as_deref(), &mut outcome)
                    && self.laptop == Laptop::Table
                {
                    self.hand(side, Why::Request);
                }
            }
            SeatMsg::Took => {
                if let Laptop::Handing(s, why) = self.laptop
                    && s == side
                {
                    self.laptop = Laptop::Holding(side, why);
                    // Nothing of his opens before he proves it is he.
                    self.seats[side].proved = false;
                    if let Some(host) = host.as_deref_mut() {
                        host.hold(side, None);
                    }
                }
            }
            SeatMsg::Hide => match self.laptop {
                Laptop::Holding(s, _) | Laptop::Handing(s, _) if s == side => {
                    let seat = &mut self.seats[side];
                    seat.unlock = false;
                    if let Laptop::Handing(_, Why::Passphrase) = self.laptop {
                        seat.set = None;
                        seat.key = None;
                    }
                    self.close(side, host);
                }
                _ => {}
            },
            SeatMsg::NotNow => {
                if self.laptop == Laptop::Handing(side, Why::Due) {
                    self.seats[side].not_now = host.as_deref().and_then(|h| h.due(side));
                    self.laptop = Laptop::Table;
                }
            }
            SeatMsg::Lock => {
                self.seats[side].pin = None;
            }
            SeatMsg::Resume => self.seats[side].not_now = None,
            SeatMsg::PassTo => {
                if !self.unlock_first(side, host.as_deref(), &mut outcome) {
                    self.seats[side].not_now = None;
                }
            }
            SeatMsg::Typed(values) => self.seats[side].pass.typed = values,
            SeatMsg::Declared(reply) => {
                // Only the choice his hand-over screen offers, while it
                // shows: anything else would skip his proof.
                if let Some(host) = host
                    && self.laptop == Laptop::Handing(side, Why::Due)
                    && host
                        .open_choice(side)
                        .is_some_and(|(_, offered)| offered == reply)
                    && let Ok(changed) = host.answer(side, &reply)
                {
                    outcome.changed = changed;
                }
            }
            SeatMsg::Reply(reply) => {
                let here = self.seats[side].life.on_phone()
                    || matches!(self.laptop, Laptop::Holding(s, _) | Laptop::Handing(s, _) if s == side);
                if here {
                    outcome = self.reply(side, &reply, bus, host);
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
                    outcome = self.derived(side, result, bus, host);
                }
            }
            SeatMsg::Phone(event) => outcome = self.phone(side, event, bus, host),
            SeatMsg::Printed { paired, made } => self.printed(side, paired, made),
        }
        outcome
    }

    /// His answer, to his passphrase screen or to the game's.
    fn reply(
        &mut self,
        side: Side,
        reply: &Reply,
        bus: &Bus,
        host: Option<&mut (dyn SeatHost + '_)>,
    ) -> Outcome {
        let mut outcome = Outcome::default();
        if self.seats[side].pass.kind().is_some() {
            self.generation += 1;
            let generation = self.generation;
            let busy = self.deriving[side].is_some();
            match self.seats[side]
                .pass
                .answer(side, reply, generation, busy, bus)
            {
                pass::Asked::Cancel => {
                    let seat = &mut self.seats[side];
                    seat.set = None;
                    seat.key = None;
                    seat.unlock = false;
                    if matches!(self.laptop, Laptop::Holding(s, _) if s == side) {
                        self.close(side, host);
                    }
                }
                pass::Asked::Deriving(generation) => self.deriving[side] = Some(generation),
                pass::Asked::Pin(typed) => return self.pin(side, &typed, host),
                pass::Asked::Forgot => {
                    self.seats[side].pin = None;
                }
                pass::Asked::Nothing => {}
            }
            return outcome;
        }
        let Some(host) = host else {
            return outcome;
        };
        // A refusal is shown on his own screen only (his desk keeps it):
        // its words may tell his secret.
        if let Ok(changed) = host.answer(side, reply) {
            outcome.changed = changed;
        }
        outcome
    }

    /// His hand-over PIN, typed to open his private screen: right, he has
    /// it, with what his passphrase opened; three wrong tries drop it.
    fn pin(&mut self, side: Side, typed: &str, host: Option<&mut (dyn SeatHost + '_)>) -> Outcome {
        let mut outcome = Outcome::default();
        let seat = &mut self.seats[side];
        match seat.pin.as_mut().map(|(pin, _)| pin.try_pin(typed)) {
            Some(Tried::Right) => {
                seat.proved = true;
                self.taken(side);
                let seat = &mut self.seats[side];
                if let (Some(host), Some((_, key))) = (host, &seat.pin) {
                    host.hold(side, key.clone());
                    outcome.changed = host.by_itself();
                }
            }
            Some(Tried::Wrong(left)) => seat.pass.refuse(format!(
                "Wrong PIN: {left} {} left",
                if left == 1 { "try" } else { "tries" }
            )),
            Some(Tried::Dropped) | None => {
                seat.pin = None;
                seat.dropped = Some(format!(
                    "{} wrong PINs: the PIN is dropped. Type your passphrase",
                    muster::core::seat::pin::TRIES
                ));
            }
        }
        outcome
    }

    /// His private printout, made on a worker and sent to his phone
    /// sealed; why not, on his phone's screen.
    fn send_printout(&mut self, side: Side, bus: &Bus, host: Option<&(dyn SeatHost + '_)>) {
        let (Some(_), Some(host)) = (&self.server, host) else {
            return;
        };
        let seat = &mut self.seats[side];
        if seat.printing.is_some() {
            return;
        }
        let job = match host.printout(side) {
            Ok(job) => job,
            Err(why) => {
                seat.printout_refused = Some(why);
                return;
            }
        };
        let (bus, paired) = (bus.clone(), seat.paired);
        seat.printing = Some(paired);
        let spawned = std::thread::Builder::new()
            .name("private printout".into())
            .spawn(move || {
                let made = job();
                bus.seat(side, SeatMsg::Printed { paired, made });
            });
        if let Err(e) = spawned {
            seat.printing = None;
            seat.printout_refused = Some(e.to_string());
        }
    }

    /// His printout made: sent to the phone it was asked from, if that
    /// phone still holds his seat.
    fn printed(&mut self, side: Side, paired: u64, made: Result<(String, Vec<u8>), String>) {
        let seat = &mut self.seats[side];
        if seat.printing == Some(paired) {
            seat.printing = None;
        }
        let Some(server) = &self.server else { return };
        if seat.paired != paired || !seat.life.on_phone() {
            return;
        }
        match made.and_then(|(title, pdf)| server::file_messages(&title, &pdf)) {
            Ok(messages) => {
                server.send_file(side, messages);
                seat.printout_refused = None;
            }
            Err(why) => seat.printout_refused = Some(why),
        }
    }

    /// A key worked out for `side`.
    fn derived(
        &mut self,
        side: Side,
        result: Result<Derived, String>,
        bus: &Bus,
        host: Option<&mut (dyn SeatHost + '_)>,
    ) -> Outcome {
        let mut outcome = Outcome::default();
        let proving = self.proving(side);
        let seat = &mut self.seats[side];
        let key = match result {
            Err(why) => {
                seat.pass.refuse(why);
                return outcome;
            }
            Ok(Derived::Set(lock, key)) => {
                if let Some(set) = seat.set.take() {
                    bus.send((set.then)(lock, key));
                }
                return outcome;
            }
            Ok(Derived::Key(key)) => key,
        };
        if let Some((_, then)) = seat.key.take() {
            bus.send(then(key));
            return outcome;
        }
        let Some(host) = host else {
            return outcome;
        };
        match seat.pass.kind().cloned() {
            Some(Kind::Unlock(_)) => match host.unlock(side, &key) {
                Ok(()) => {
                    seat.unlock = false;
                    outcome.status = Some(Status::Info(format!(
                        "{} unlocked the game: every entry carries their valid tag",
                        host.name(side)
                    )));
                    // His phone keeps the key for his private steps, so he
                    // types his passphrase once.
                    if seat.life.on_phone() {
                        let _ = host.open(side, &key);
                    }
                    // On the laptop, the PIN he chose beside it opens them
                    // instead, with what his key opens kept beside it (a
                    // game whose records are open keeps none: the PIN is
                    // his proof alone); his desk is cleared again until a
                    // step of his comes.
                    if seat.pass.chosen.is_some() {
                        let _ = host.open(side, &key);
                        if let Some(refused) = seat.keep_chosen_pin(host.held(side)) {
                            outcome.status = Some(refused);
                        }
                        host.hold(side, None);
                    }
                    // He has just proved it is he on this hand-over: a
                    // step of his that the unlocking brings (the game no
                    // longer read-only) opens at once, not after a second
                    // hand-over asking the same proof.
                    if !seat.life.on_phone()
                        && host.locked().is_empty()
                        && host.due(side).is_some()
                        // His key on his desk if the step needs it (a
                        // game whose records are open asks his proof only).
                        && (host.needs_key(side).is_none() || host.open(side, &key).is_ok())
                    {
                        seat.proved = true;
                        self.laptop = Laptop::Holding(side, Why::Due);
                        outcome.changed = host.by_itself();
                    }
                }
                Err(e) => seat.pass.refuse(e.message),
            },
            Some(kind @ (Kind::Open(_) | Kind::Prove(_))) => {
                // Proof alone (his cards, which the game opened already)
                // needs no key on his desk: a game that keeps none says so.
                if let (Err(e), Kind::Open(_)) = (host.open(side, &key), kind) {
                    seat.pass.refuse(e.message);
                    return outcome;
                }
                if proving {
                    seat.proved = true;
                    if let Some(refused) = seat.keep_chosen_pin(host.held(side)) {
                        outcome.status = Some(refused);
                    }
                    self.taken(side);
                }
                outcome.changed = host.by_itself();
            }
            _ => {}
        }
        outcome
    }

    /// What his phone did.
    fn phone(
        &mut self,
        side: Side,
        event: FromPhone,
        bus: &Bus,
        host: Option<&mut (dyn SeatHost + '_)>,
    ) -> Outcome {
        let seat = &mut self.seats[side];
        match event {
            FromPhone::Joined(_) => {
                seat.life = seat.life.after(life::Event::Joined);
                if seat.life == Life::OnPhone {
                    seat.code = None;
                    if self.showing == Some(side) {
                        self.showing = None;
                    }
                }
            }
            FromPhone::Left(_) => seat.life = seat.life.after(life::Event::Left),
            FromPhone::Opened(_) => seat.opened = true,
            FromPhone::Message(_, message) if seat.life.on_phone() => {
                #[cfg(test)]
                self.heard.push((side, message.text()));
                return self.phone_message(side, message, bus, host);
            }
            FromPhone::Message(..) => {}
        }
        Outcome::default()
    }

    /// A message of his page: a reply, what he typed so far, a hex he
    /// tapped or a counter he dragged on his map, his printout asked for.
    fn phone_message(
        &mut self,
        side: Side,
        message: FromPage,
        bus: &Bus,
        mut host: Option<&mut (dyn SeatHost + '_)>,
    ) -> Outcome {
        match message {
            FromPage::Tap { hex } => {
                if let Some(host) = host {
                    host.tapped(side, hex);
                }
            }
            FromPage::Drag { hexes } => {
                if let ([from, path @ ..], Some(host)) = (hexes.as_slice(), host)
                    && !path.is_empty()
                {
                    host.dragged(side, *from, path);
                }
            }
            // What he typed so far, for the live checks; never a secret
            // (the page keeps those until it sends its reply).
            FromPage::Values { values } => {
                if self.seats[side].pass.kind().is_none()
                    && let Some(host) = host.as_deref_mut()
                {
                    host.values(side).extend(values);
                }
            }
            FromPage::Reply { reply } => return self.reply(side, &reply, bus, host),
            FromPage::Printout => self.send_printout(side, bus, host.as_deref()),
            // The server takes a join, never the window.
            FromPage::Join { .. } => {}
        }
        Outcome::default()
    }

    /// `side`'s screen for his phone.
    fn phone_screen(&self, side: Side, host: Option<&(dyn SeatHost + '_)>) -> Screen {
        let name = self.pass_name(side, host);
        if let Some(screen) = self.seats[side].pass.screen(&name) {
            return screen;
        }
        let Some(host) = host else {
            return Screen {
                title: format!("{name}: my screen"),
                blocks: vec![Block::Text {
                    text: "The table is setting up the game: nothing for you to decide yet.".into(),
                }],
            };
        };
        let mut screen = host.screen(side);
        // His private printout, made on the laptop and sent to this phone
        // sealed: never written or shown on the laptop for him.
        if let Some(why) = &self.seats[side].printout_refused {
            screen.blocks.push(Block::Refusal {
                text: format!("✖ No printout: {why}"),
            });
        }
        if self.seats[side].printing.is_some() {
            screen.blocks.push(Block::Strong {
                text: "Making your private printout…".into(),
            });
        } else if host.prints(side) {
            screen.blocks.push(Block::Printout {
                label: "Send me my private printout (PDF)".into(),
                hint: "Made by the laptop for you alone and sent sealed to this phone; nothing of it is written or shown there".into(),
            });
        }
        let other = side.opponent();
        if host.due(side).is_none()
            && let Some(what) = host.due(other)
        {
            screen.blocks.insert(
                0,
                Block::Strong {
                    text: format!(
                        "Waiting: {} {what}. Nothing for you to decide now.",
                        host.name(other)
                    ),
                },
            );
        }
        screen
    }

    /// Sends each phone its screen as it is now: right after the frame's
    /// messages were carried out, so both phones see a tap's effect in
    /// the frame it was applied.
    pub fn send_screens(&self, host: Option<&(dyn SeatHost + '_)>) {
        let Some(server) = &self.server else {
            return;
        };
        for side in Side::BOTH {
            if self.seats[side].life != Life::OnPhone {
                continue;
            }
            let screen = self.phone_screen(side, host);
            let mut json = ToPage::Screen { screen }.text();
            if !server::fits(&json) {
                // Larger than any message may be (a scenario with
                // thousands of units): said, never cut.
                let screen = Screen {
                    title: "Too large for the phone".into(),
                    blocks: vec![Block::Strong {
                        text: "This screen is larger than a phone's message may be: use the laptop's hand-over screen for it (Players' screens, let your seat go).".into(),
                    }],
                };
                json = ToPage::Screen { screen }.text();
            }
            server.show(side, json);
        }
    }

    /// Carries out what the players' screens window asked for. A code is
    /// shown only over the table: a player's private screen open on the
    /// laptop is closed first (whoever leans in to scan it would see it).
    pub fn players(&mut self, msg: PlayersMsg, bus: &Bus, host: Option<&mut (dyn SeatHost + '_)>) {
        if matches!(msg, PlayersMsg::Pair(_) | PlayersMsg::ShowCode(Some(_)))
            && let Laptop::Handing(side, _) | Laptop::Holding(side, _) = self.laptop
        {
            self.close(side, host);
        }
        match msg {
            PlayersMsg::Start(ip) => {
                let mut started = Err(String::new());
                // The usual port, or the next free one, or any.
                let first = self.first_port.unwrap_or(PORT);
                for port in (first..first.saturating_add(10)).chain([0]) {
                    let bus = bus.clone();
                    let options = Options {
                        bind: SocketAddr::new(ip, port),
                        aliases: self.aliases.clone(),
                        limits: self.limits.clone(),
                    };
                    started = Server::start(options, move |event| {
                        let side = match &event {
                            FromPhone::Opened(s)
                            | FromPhone::Joined(s)
                            | FromPhone::Left(s)
                            | FromPhone::Message(s, _) => *s,
                        };
                        bus.seat(side, SeatMsg::Phone(event));
                    });
                    if started.is_ok() {
                        break;
                    }
                }
                if started.is_ok() {
                    self.remember(ip);
                }
                match started {
                    Ok(server) => {
                        self.host.get_or_insert(server.addr().ip());
                        self.server = Some(server);
                        self.error = None;
                    }
                    Err(e) => self.error = Some(e),
                }
            }
            PlayersMsg::Stop => self.stop(),
            PlayersMsg::Pair(side) => match self.pair(side) {
                Ok(_) => self.showing = Some(side),
                Err(e) => self.error = Some(e),
            },
            PlayersMsg::Release(side) => {
                if let Some(server) = &self.server {
                    server.release(side);
                }
                let seat = &mut self.seats[side];
                seat.life = seat.life.after(life::Event::Released);
                seat.paired += 1;
                seat.code = None;
                if self.showing == Some(side) {
                    self.showing = None;
                }
            }
            PlayersMsg::ShowCode(side) => self.showing = side,
        }
    }

    /// Pairs `side`'s seat anew: its address, on the chosen host.
    pub fn pair(&mut self, side: Side) -> Result<String, String> {
        let server = self
            .server
            .as_ref()
            .ok_or("start the players' screens first")?;
        let pairing = server.pair(side)?;
        let host = SocketAddr::new(
            self.host.unwrap_or(server.addr().ip()),
            server.addr().port(),
        );
        let url = pairing.url(&host.to_string());
        let seat = &mut self.seats[side];
        seat.life = seat.life.after(life::Event::Paired);
        seat.paired += 1;
        seat.code = Some(url.clone());
        seat.shown_at = Some(std::time::Instant::now());
        seat.opened = false;
        Ok(url)
    }

    /// The players' screens stop (Stop, New, Open, quitting): every phone
    /// is told so and every seat is back on the laptop at once.
    pub fn stop(&mut self) {
        if let Some(server) = self.server.take() {
            server.stop(server::CLOSE_STOPPED);
        }
        for side in Side::BOTH {
            let seat = &mut self.seats[side];
            if seat.life != Life::Unpaired {
                seat.life = seat.life.after(life::Event::Stopped);
                seat.paired += 1;
            }
            seat.code = None;
        }
        self.showing = None;
    }

    /// Another game opens: the players' screens stop, and nothing of the
    /// last game's seats (its keys, its asks) stays.
    pub fn reset(&mut self) {
        self.stop();
        for side in Side::BOTH {
            let life = self.seats[side].life;
            self.seats[side] = Seat {
                life,
                ..Seat::default()
            };
        }
        self.laptop = Laptop::Table;
    }
}

impl Drop for Seating {
    fn drop(&mut self) {
        self.stop();
    }
}
