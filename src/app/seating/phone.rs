//! The phones, the seats' first transport (docs: "Players' screens"): the
//! players' screens server started and stopped with its address and
//! settings (`Phones`), a seat paired to a phone and let go, what a phone
//! does (joins, leaves, taps, types, answers, asks for its printout), and
//! each phone's screen sent to it when what it shows changed.

use super::life::{self, Life};
use super::transport::Transport;
use super::{Outcome, Seating};
use crate::app::bus::{Bus, SeatMsg};
use muster::core::screen::{self, Block};
use muster::core::seat::{Desked, Seated};
use muster::core::side::Side;
use muster::seats::protocol::{FromPage, ToPage};
use muster::seats::server::{self, FromPhone, Limits, Options, Server};
use std::net::{IpAddr, SocketAddr};

/// The port the players' screens try first; the next ones (then one the
/// system picks) when it is taken.
pub const PORT: u16 = 7878;

/// The players' screens server, when started, and how it is reached.
#[derive(Default)]
pub struct Phones {
    server: Option<Server>,
    /// The address the codes name.
    pub host: Option<IpAddr>,
    /// The last error of the players' screens, for their window.
    pub error: Option<String>,
    /// Names the page may be reached by besides the address (tests: a
    /// name their browser maps to 127.0.0.1).
    pub aliases: Vec<String>,
    pub limits: Limits,
    /// The port tried first (`PORT` unless a test says otherwise).
    pub first_port: Option<u16>,
    /// Where the players' chosen address is kept between runs.
    pub settings: Option<std::path::PathBuf>,
}

impl Phones {
    pub fn addr(&self) -> Option<SocketAddr> {
        self.server.as_ref().map(Server::addr)
    }

    /// What the server refused lately, and why.
    pub fn refusals(&self) -> server::Refusals {
        self.server
            .as_ref()
            .map_or_else(Default::default, Server::refusals)
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

    /// The address the players chose last time, if this laptop still has
    /// it.
    pub fn recall(&mut self) {
        let Some(path) = &self.settings else { return };
        let Ok(text) = muster::core::store::read_text(path) else {
            return;
        };
        let remembered = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v.get("address")?.as_str()?.parse::<IpAddr>().ok());
        if let Some(ip) = remembered
            && server::local_addresses().iter().any(|a| a.ip == ip)
        {
            self.host = Some(ip);
        }
    }

    /// Keeps the address the players chose for next time (best effort: a
    /// settings file that cannot be written changes nothing else).
    fn remember(&self, ip: IpAddr) {
        if let Some(path) = &self.settings {
            let text = serde_json::json!({ "address": ip.to_string() }).to_string();
            let _ = muster::core::store::write_atomic(path, text.as_bytes(), |_| Ok(()));
        }
    }

    /// Starts on `ip`, the usual port or the next free one, or any; what
    /// the phones do comes to the bus as their seats' messages.
    pub fn start(&mut self, ip: IpAddr, bus: &Bus) {
        let mut started = Err(String::new());
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
        match started {
            Ok(server) => {
                self.remember(ip);
                self.host.get_or_insert(server.addr().ip());
                self.server = Some(server);
                self.error = None;
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Stops, if started: every phone is told the players' screens
    /// stopped.
    pub fn stop_all(&mut self) {
        self.stop(server::CLOSE_STOPPED);
    }
}

impl Transport for Phones {
    fn running(&self) -> bool {
        self.server.is_some()
    }

    fn pair(&mut self, side: Side) -> Result<String, String> {
        let server = self
            .server
            .as_ref()
            .ok_or("start the players' screens first")?;
        let pairing = server.pair(side)?;
        let host = SocketAddr::new(
            self.host.unwrap_or(server.addr().ip()),
            server.addr().port(),
        );
        Ok(pairing.url(&host.to_string()))
    }

    fn proved(&mut self, side: Side) {
        if let Some(server) = &self.server {
            server.proved(side);
        }
    }

    fn release(&mut self, side: Side) {
        if let Some(server) = &self.server {
            server.release(side);
        }
    }

    fn show(&mut self, side: Side, message: String) {
        if let Some(server) = &self.server {
            server.show(side, message);
        }
    }

    fn send_file(&mut self, side: Side, parts: Vec<String>) {
        if let Some(server) = &self.server {
            server.send_file(side, parts);
        }
    }

    fn stop(&mut self, code: u16) {
        if let Some(server) = self.server.take() {
            server.stop(code);
        }
    }
}

impl Seating {
    /// Pairs `side`'s seat anew: its code, on the chosen address.
    pub fn pair(&mut self, side: Side) -> Result<String, String> {
        if self.seats[side].life == Life::Remote {
            return Err(format!(
                "{side} plays from their own Muster on their machine: their screens are there, not on a phone of this table"
            ));
        }
        let url = self.phones.pair(side)?;
        let seat = &mut self.seats[side];
        seat.paired += 1;
        seat.code = Some(url.clone());
        seat.shown_at = Some(std::time::Instant::now());
        seat.opened = false;
        let life = seat.life.after(life::Event::Paired);
        self.live(side, life);
        Ok(url)
    }

    /// What his phone did.
    pub(super) fn phone<G: Seated + Clone + Send + 'static>(
        &mut self,
        side: Side,
        event: FromPhone,
        bus: &Bus,
        desked: Option<&mut Desked<'_, G>>,
    ) -> Outcome {
        match event {
            FromPhone::Joined(_) => {
                let life = self.seats[side].life.after(life::Event::Joined);
                self.live(side, life);
                // A player with no passphrase has nothing to prove: his
                // seat is the first device's. Else it is the device's
                // that proves it (his key, below).
                if desked
                    .as_ref()
                    .is_none_or(|d| d.game.lock_of(side).is_none())
                {
                    self.phones.proved(side);
                }
                if life == Life::OnPhone {
                    self.seats[side].code = None;
                    if self.showing == Some(side) {
                        self.showing = None;
                    }
                }
            }
            FromPhone::Left(_) => {
                let life = self.seats[side].life.after(life::Event::Left);
                self.live(side, life);
            }
            FromPhone::Opened(_) => self.seats[side].opened = true,
            FromPhone::Message(_, message) if self.seats[side].life.on_phone() => {
                #[cfg(test)]
                self.heard.push((side, message.text()));
                return self.phone_message(side, message, bus, desked);
            }
            FromPhone::Message(..) => {}
        }
        Outcome::default()
    }

    /// A message of his page: a reply, what he typed so far, a hex he
    /// tapped or a counter he dragged on his map, his printout asked for.
    fn phone_message<G: Seated + Clone + Send + 'static>(
        &mut self,
        side: Side,
        message: FromPage,
        bus: &Bus,
        desked: Option<&mut Desked<'_, G>>,
    ) -> Outcome {
        match message {
            FromPage::Tap { hex } => {
                if let Some(desked) = desked {
                    desked.tapped(side, hex);
                }
            }
            FromPage::Drag { hexes, counter } => {
                if let ([from, path @ ..], Some(desked)) = (hexes.as_slice(), desked)
                    && !path.is_empty()
                {
                    let drag = muster::core::screen::Drag {
                        from: *from,
                        path: path.to_vec(),
                        counter,
                    };
                    desked.dragged(side, &drag);
                }
            }
            // What he typed so far, for the live checks; never a secret
            // (the page keeps those until it sends its reply).
            FromPage::Values { values } => {
                if self.seats[side].pass.kind().is_none() {
                    self.typed(side, values.get(), desked);
                }
            }
            FromPage::Reply { reply } => return self.reply(side, reply.get(), bus, desked),
            FromPage::Printout => self.send_printout(side, bus, desked.as_deref()),
            // The server takes a join, never the window.
            FromPage::Join { .. } => {}
        }
        Outcome::default()
    }

    /// `side`'s screen for his phone, as the protocol's message.
    fn phone_screen<G: Seated>(&self, side: Side, desked: Option<&mut Desked<'_, G>>) -> String {
        let name = self.pass_name(side, desked.as_deref());
        if let Some(screen) = self.seats[side].pass.screen(&name) {
            return ToPage::screen(&screen);
        }
        let Some(desked) = desked else {
            let waiting: screen::Screen<(), ()> = screen::Screen {
                title: format!("{name}: my screen"),
                blocks: vec![Block::Text {
                    text: "The table is setting up the game: nothing for you to decide yet.".into(),
                }],
            };
            return ToPage::screen(&waiting);
        };
        let place = self.place(side);
        let other = side.opponent();
        let theirs = desked.game.due(other, desked.at(other, self.place(other)));
        let mine = desked.game.due(side, desked.at(side, place)).is_some();
        let prints = desked.prints(side);
        let mut screen = desked.screen(side, place).clone();
        // His private printout, made on the laptop and sent to this phone
        // sealed: never written or shown on the laptop for him.
        let seat = &self.seats[side];
        if let Some(why) = &seat.printout_refused {
            screen.blocks.push(Block::Refusal {
                text: format!("✖ No printout: {why}"),
            });
        }
        if seat.printing.is_some() {
            screen.blocks.push(Block::Strong {
                text: "Making your private printout…".into(),
            });
        } else if prints {
            screen.blocks.push(Block::Printout {
                label: "Send me my private printout (PDF)".into(),
                hint: "Made by the laptop for you alone and sent sealed to this phone; nothing of it is written or shown there".into(),
            });
        }
        if !mine && let Some(what) = theirs {
            screen.blocks.insert(
                0,
                Block::Strong {
                    text: format!(
                        "Waiting: {} {what}. Nothing for you to decide now.",
                        desked.game.seat_name(other)
                    ),
                },
            );
        }
        ToPage::screen(&screen)
    }

    /// Sends each phone its screen, once what it shows may have changed
    /// (his desk's version or his seat's): right after the frame's
    /// messages were carried out, so both phones see a tap's effect in the
    /// frame it was applied.
    pub fn send_screens<G: Seated>(&mut self, mut desked: Option<&mut Desked<'_, G>>) {
        if !self.phones.running() {
            return;
        }
        for side in Side::BOTH {
            if self.seats[side].life != Life::OnPhone {
                continue;
            }
            let versions = (
                desked.as_deref().map_or(0, |d| d.desks[side].version()),
                self.seats[side].version,
            );
            if self.seats[side].sent == Some(versions) {
                continue;
            }
            let mut json = self.phone_screen(side, desked.as_deref_mut());
            if !server::fits(&json) {
                // Larger than any message may be (a scenario with
                // thousands of units): said, never cut.
                let screen: screen::Screen<(), ()> = screen::Screen {
                    title: "Too large for the phone".into(),
                    blocks: vec![Block::Strong {
                        text: "This screen is larger than a phone's message may be: use the laptop's hand-over screen for it (Players' screens, let your seat go).".into(),
                    }],
                };
                json = ToPage::screen(&screen);
            }
            // The server sends it only if it differs from what his
            // device has (a new device, a new server, gets it whole).
            self.phones.show(side, json);
            self.seats[side].sent = Some(versions);
        }
    }

    /// His private printout, made on a worker and sent to his phone
    /// sealed; why not, on his phone's screen.
    fn send_printout<G: Seated + Clone + Send + 'static>(
        &mut self,
        side: Side,
        bus: &Bus,
        desked: Option<&Desked<'_, G>>,
    ) {
        let Some(desked) = desked.filter(|_| self.phones.running()) else {
            return;
        };
        let seat = &mut self.seats[side];
        if seat.printing.is_some() {
            return;
        }
        let job = match desked.printout(side) {
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
    pub(super) fn printed(
        &mut self,
        side: Side,
        paired: u64,
        made: Result<(String, Vec<u8>), String>,
    ) {
        let seat = &mut self.seats[side];
        if seat.printing == Some(paired) {
            seat.printing = None;
        }
        if seat.paired != paired || !seat.life.on_phone() || !self.phones.running() {
            return;
        }
        match made.and_then(|(title, pdf)| server::file_messages(&title, &pdf)) {
            Ok(messages) => {
                self.phones.send_file(side, messages);
                self.seats[side].printout_refused = None;
            }
            Err(why) => self.seats[side].printout_refused = Some(why),
        }
    }
}
