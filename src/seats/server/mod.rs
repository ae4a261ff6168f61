//! The players' screens server (issues 23 and 31): a small HTTP + WebSocket
//! server inside the app, started only when the players ask and stopped
//! with them, built for a hostile Wi-Fi. It serves the phone page (embedded
//! in the binary) and, for each seat, its socket: the page opens it on its
//! own origin with the seat's token, every message both ways crosses the
//! seat's `Channel`, a device that proves the key holds the seat, and keeps
//! it once it proved to be its player's (`Server::proved`: a second is
//! refused until the seat is paired again; before, a second takes it, and
//! the first is told so), the seat's latest
//! screen is sent at once on every (re)connect and again whenever it
//! changes, and what the phone answers is delivered to the window as it
//! comes, read into `protocol::FromPage`. A bad, oversized, replayed or
//! wrongly keyed message closes that socket with its reason noted, never
//! the game.
//!
//! A seat is held by one socket, named (issue 37): each socket has its own
//! number, and this server's record is the one place that says which socket
//! holds the seat. Only the holder's end tells the window the phone left; a
//! socket that never proved the key changes nothing (it is refused and
//! counted); a second tab of the same device takes the seat over in the
//! open and the older one is told so (`CLOSE_MOVED`). The laptop's
//! heartbeat reaches the page sealed (`ToPage::Beat`), so a page that stops
//! hearing it knows the table went quiet.
//!
//! Against whoever else is on the network: a request's headers must come
//! within `Limits::headers` and stay small; the first sealed frame within
//! `Limits::first_frame` of the upgrade; a paired socket is pinged and
//! closed when it goes quiet (its phone is gone: the seat is lost); every
//! connection, every connection of one address and every socket of a seat
//! holds a slot counted by a guard that gives it back on every path (a
//! reset before the upgrade, a failed upgrade, a task's end); a request
//! whose `Host` is not the laptop's address (or a name the players chose),
//! or a socket whose `Origin` is not the page's own, is refused with 403;
//! every answer carries the page's security headers; and stopping never
//! waits on a client: the window's thread only signals, and the server's
//! own thread drops whatever is left after a short deadline.

use super::protocol::{FilePart, FromPage, Hello, ToPage, VERSION};
use crate::seats::channel::{Channel, MAX_FRAME};
use axum::Router;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use muster_core::side::{Side, Sides};
use serde::Deserialize;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{Semaphore, watch};

mod addresses;
mod files;
mod http;
mod pairing;
mod socket;

pub use addresses::{Address, Kind, local_addresses};
pub use files::{FILE_PARTS, MAX_FILE, file_messages, fits};
use http::{accept, host_name};
pub use pairing::Pairing;
use pairing::{hex, same, unhex};
use socket::{seat_of, socket};

/// What the server tolerates.
#[derive(Clone, Debug)]
pub struct Limits {
    /// A request's headers arrive within this.
    pub headers: Duration,
    /// A socket's first sealed frame arrives within this of its upgrade.
    pub first_frame: Duration,
    /// A paired socket is pinged, and its page sent the laptop's beat,
    /// this often…
    pub heartbeat: Duration,
    /// …and closed when it has sent nothing (a pong included) for this
    /// long: its phone is gone.
    pub silence: Duration,
    /// Connections open at once, all addresses together…
    pub connections: usize,
    /// …and from one address.
    pub per_address: usize,
    /// Sockets of one seat at once that have not proved its key yet (its
    /// phone coming back, its second tab); the socket that holds the seat
    /// needs none.
    pub sockets_per_seat: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            headers: Duration::from_secs(5),
            first_frame: Duration::from_secs(5),
            heartbeat: Duration::from_secs(3),
            silence: Duration::from_secs(12),
            connections: 64,
            per_address: 16,
            sockets_per_seat: 4,
        }
    }
}

/// How the server is started.
#[derive(Clone, Debug)]
pub struct Options {
    /// The laptop's address the players chose, and a port (0: any free).
    pub bind: SocketAddr,
    /// Names the page may be reached by besides that address (tests: a
    /// name mapped to 127.0.0.1 in their browser).
    pub aliases: Vec<String>,
    pub limits: Limits,
}

impl Options {
    pub fn new(bind: SocketAddr) -> Options {
        Options {
            bind,
            aliases: Vec::new(),
            limits: Limits::default(),
        }
    }
}

/// The largest request head kept: a phone's requests are short.
const MAX_HEAD: usize = 16 * 1024;
/// How long the server's thread waits for its tasks once stopped.
const STOP_DEADLINE: Duration = Duration::from_millis(300);

/// The page, its scripts and the face its maps' labels are drawn in (the
/// laptop's own Hack, whose I and l differ), compiled in: nothing is
/// fetched at run time.
const PAGE: &str = include_str!("../../../assets/phone/index.html");
const ASSETS: [(&str, &str, &[u8]); 9] = [
    (
        "app.js",
        "text/javascript",
        include_bytes!("../../../assets/phone/app.js"),
    ),
    (
        "hexmap.js",
        "text/javascript",
        include_bytes!("../../../assets/phone/hexmap.js"),
    ),
    (
        "channel.js",
        "text/javascript",
        include_bytes!("../../../assets/phone/channel.js"),
    ),
    (
        "style.css",
        "text/css",
        include_bytes!("../../../assets/phone/style.css"),
    ),
    (
        "noble-ciphers-2.3.0/chacha.js",
        "text/javascript",
        include_bytes!("../../../assets/phone/noble-ciphers-2.3.0/chacha.js"),
    ),
    (
        "noble-ciphers-2.3.0/_arx.js",
        "text/javascript",
        include_bytes!("../../../assets/phone/noble-ciphers-2.3.0/_arx.js"),
    ),
    (
        "noble-ciphers-2.3.0/_poly1305.js",
        "text/javascript",
        include_bytes!("../../../assets/phone/noble-ciphers-2.3.0/_poly1305.js"),
    ),
    (
        "noble-ciphers-2.3.0/utils.js",
        "text/javascript",
        include_bytes!("../../../assets/phone/noble-ciphers-2.3.0/utils.js"),
    ),
    (
        "Hack-Regular.ttf",
        "font/ttf",
        epaint_default_fonts::HACK_REGULAR,
    ),
];

/// Close codes the page understands.
pub const CLOSE_REFUSED: u16 = 4000;
/// The seat was paired again: this device stops trying.
pub const CLOSE_REPAIRED: u16 = 4001;
/// Another device holds the seat.
pub const CLOSE_TAKEN: u16 = 4002;
/// The seat was let go: its player is back on the laptop's hand-over
/// screen.
pub const CLOSE_RELEASED: u16 = 4003;
/// The table stopped the players' screens (Stop, a new game, quitting):
/// the page says to ask for a new code.
pub const CLOSE_STOPPED: u16 = 4004;
/// The same device opened the seat in another tab, which holds it now:
/// this tab says so and waits until it is looked at again.
pub const CLOSE_MOVED: u16 = 4005;
/// The page is from another build of Muster: it reloads.
pub const CLOSE_VERSION: u16 = 4006;
/// The code the page was opened with names no seat of this sitting (the
/// laptop restarted, or its screens were started anew): the page stops
/// and says to scan a new code, rather than retry a seat that is gone.
pub const CLOSE_UNKNOWN: u16 = 4007;

/// What a phone sent, for the window's thread.
#[derive(Clone, Debug, PartialEq)]
pub enum FromPhone {
    /// A browser asked for its seat's page (its code was scanned).
    Opened(Side),
    /// A socket of its device proved the key and holds the seat now (the
    /// phone came, came back, or moved to another tab).
    Joined(Side),
    /// The socket that held the seat ended (no other socket's end is
    /// reported: only the holder's says the phone left).
    Left(Side),
    /// A message of the holder's page: a reply to his screen, the values
    /// he typed so far, a tap or a drag on his map.
    Message(Side, FromPage),
}

/// One seat: its pairing (bumped by a new pairing), the device that owns
/// it and the socket that holds it now, its latest screen as JSON, and the
/// slots of its sockets still proving the key.
struct Seat {
    pairing: Option<Pairing>,
    generation: u64,
    device: Option<[u8; 16]>,
    /// Its device proved to be its player's (`Server::proved`): no other
    /// device takes the seat from it. Until then another device with the
    /// code does, and must prove it in turn.
    proved: bool,
    /// The number of the socket that holds the seat, if one does.
    holder: Option<u64>,
    screen: watch::Sender<Option<Arc<String>>>,
    /// The last private printout sent to the seat, as its messages.
    file: watch::Sender<Option<Arc<Vec<String>>>>,
    sockets: Arc<Semaphore>,
}

/// What the server was refused lately, for the players' window.
#[derive(Clone, Debug, Default)]
pub struct Refusals {
    pub count: usize,
    /// The last few reasons, newest last.
    pub last: Vec<String>,
}

struct Shared {
    seats: Mutex<Sides<Seat>>,
    limits: Limits,
    /// The `Host` values and socket `Origin`s the page's own requests carry.
    hosts: Vec<String>,
    origins: Vec<String>,
    /// Connections open now, by address.
    per_address: Mutex<HashMap<IpAddr, usize>>,
    /// Why sockets closed, newest last (a short list).
    log: Mutex<Vec<String>>,
    refusals: Mutex<Refusals>,
    /// The window's end: what a phone did, delivered as it happens.
    deliver: Box<dyn Fn(FromPhone) + Send + Sync>,
    /// The close code every socket gets once the server stops.
    stopped: AtomicU16,
    /// Numbers each socket.
    sockets: AtomicU64,
    /// Sockets upgraded and not yet ended, for a stop's goodbyes.
    open: std::sync::atomic::AtomicUsize,
    /// Tests of a page that stops hearing the table: nothing is sent
    /// while set, as from a laptop that went quiet.
    hushed: AtomicBool,
    /// Tests of a network that drops: every socket ends at once with no
    /// goodbye, as when the laptop's Wi-Fi goes.
    cut: watch::Sender<u64>,
}

/// The most lines kept of each list.
const KEPT: usize = 100;

impl Shared {
    fn note(&self, line: String) {
        let mut log = self.log.lock().expect("the log lock");
        log.push(line);
        let excess = log.len().saturating_sub(KEPT);
        log.drain(..excess);
    }

    /// Something refused: counted, and its reason kept (briefly).
    fn refuse(&self, why: String) {
        let mut refusals = self.refusals.lock().expect("the refusals lock");
        refusals.count += 1;
        refusals.last.push(why);
        let excess = refusals.last.len().saturating_sub(KEPT);
        refusals.last.drain(..excess);
    }

    fn send(&self, event: FromPhone) {
        (self.deliver)(event);
    }

    /// `socket`'s end: whether it held `side`'s seat (then nobody does).
    fn let_go(&self, side: Side, generation: u64, socket: u64) -> bool {
        let mut seats = self.seats.lock().expect("the seats lock");
        let seat = &mut seats[side];
        let held = seat.generation == generation && seat.holder == Some(socket);
        if held {
            seat.holder = None;
        }
        held
    }
}

/// A connection's slot for its address, given back when dropped.
struct AddressSlot {
    shared: Arc<Shared>,
    ip: IpAddr,
}

impl AddressSlot {
    fn take(shared: &Arc<Shared>, ip: IpAddr) -> Option<AddressSlot> {
        let mut open = shared.per_address.lock().expect("the address lock");
        let n = open.entry(ip).or_default();
        if *n >= shared.limits.per_address {
            return None;
        }
        *n += 1;
        Some(AddressSlot {
            shared: shared.clone(),
            ip,
        })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut open = self
            .shared
            .per_address
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// The running server: stopped (or dropped), it ends on its own thread.
pub struct Server {
    addr: SocketAddr,
    shared: Arc<Shared>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Server {
    /// Starts serving as `options` say; `deliver` gets what each phone
    /// does, as it happens, on the server's thread.
    pub fn start(
        options: Options,
        deliver: impl Fn(FromPhone) + Send + Sync + 'static,
    ) -> Result<Server, String> {
        let bind = options.bind;
        let listener = std::net::TcpListener::bind(bind)
            .map_err(|e| format!("cannot listen on {bind}: {e}"))?;
        listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let limits = options.limits.clone();
        let seat = || Seat {
            pairing: None,
            generation: 0,
            device: None,
            proved: false,
            holder: None,
            screen: watch::channel(None).0,
            file: watch::channel(None).0,
            sockets: Arc::new(Semaphore::new(limits.sockets_per_seat)),
        };
        let names: Vec<String> = std::iter::once(host_name(addr.ip()))
            .chain(options.aliases.iter().cloned())
            .collect();
        let hosts: Vec<String> = names
            .iter()
            .map(|n| format!("{n}:{}", addr.port()))
            .collect();
        let shared = Arc::new(Shared {
            seats: Mutex::new(Sides {
                south: seat(),
                north: seat(),
            }),
            origins: hosts.iter().map(|h| format!("http://{h}")).collect(),
            hosts,
            limits,
            per_address: Mutex::new(HashMap::new()),
            log: Mutex::new(Vec::new()),
            refusals: Mutex::new(Refusals::default()),
            deliver: Box::new(deliver),
            stopped: AtomicU16::new(0),
            sockets: AtomicU64::new(0),
            open: Default::default(),
            hushed: AtomicBool::new(false),
            cut: watch::channel(0).0,
        });
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let state = shared.clone();
        std::thread::Builder::new()
            .name("players' screens".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime on its own thread");
                runtime.block_on(accept(listener, state, stopped));
                // Whatever a client still holds goes with the runtime.
                runtime.shutdown_timeout(STOP_DEADLINE);
            })
            .map_err(|e| e.to_string())?;
        Ok(Server {
            addr,
            shared,
            stop: Some(stop),
        })
    }

    /// A server whose phones' events queue up for a caller that polls
    /// (the benches and the server's own tests).
    pub fn polled(
        options: Options,
    ) -> Result<(Server, std::sync::mpsc::Receiver<FromPhone>), String> {
        let (send, receive) = std::sync::mpsc::channel();
        let send = Mutex::new(send);
        let server = Server::start(options, move |event| {
            let _ = send.lock().expect("the events lock").send(event);
        })?;
        Ok((server, receive))
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Pairs `side`'s seat anew: a new token and key, the device that held
    /// it let go (its socket is closed as re-paired).
    pub fn pair(&self, side: Side) -> Result<Pairing, String> {
        let pairing = Pairing::new()?;
        self.let_go(side, Some(pairing.clone()));
        Ok(pairing)
    }

    /// Lets the device holding `side`'s seat go and leaves `pairing` as
    /// the only code that opens it (none: no code does).
    fn let_go(&self, side: Side, pairing: Option<Pairing>) {
        let mut seats = self.shared.seats.lock().expect("the seats lock");
        let seat = &mut seats[side];
        seat.pairing = pairing;
        seat.generation += 1;
        seat.device = None;
        seat.proved = false;
        seat.holder = None;
        // A new device never gets the last one's printout.
        seat.file.send_replace(None);
        // Wakes every socket of the seat, which finds itself superseded.
        seat.screen.send_modify(|_| {});
    }

    /// Lets `side`'s seat go: no device holds it and no code opens it (its
    /// socket is closed as released); his secrets go back to the laptop's
    /// hand-over screen.
    pub fn release(&self, side: Side) {
        self.let_go(side, None);
    }

    /// Sends `side`'s phone his private printout (`file_messages`).
    pub fn send_file(&self, side: Side, messages: Vec<String>) {
        let seats = self.shared.seats.lock().expect("the seats lock");
        seats[side].file.send_replace(Some(Arc::new(messages)));
    }

    /// The device that holds `side`'s seat proved to be its player's (his
    /// passphrase given on it, or none to give): it keeps the seat, and
    /// another device with the code is refused.
    pub fn proved(&self, side: Side) {
        let mut seats = self.shared.seats.lock().expect("the seats lock");
        let seat = &mut seats[side];
        seat.proved = seat.device.is_some();
    }

    /// Whether a socket holds `side`'s seat now.
    pub fn held(&self, side: Side) -> bool {
        self.shared.seats.lock().expect("the seats lock")[side]
            .holder
            .is_some()
    }

    /// `side`'s screen for his phone (`ToPage::Screen`, as JSON): sent now
    /// if it changed.
    pub fn show(&self, side: Side, message: String) {
        let seats = self.shared.seats.lock().expect("the seats lock");
        seats[side].screen.send_if_modified(|now| {
            if now.as_deref().is_some_and(|s| *s == message) {
                return false;
            }
            *now = Some(Arc::new(message));
            true
        });
    }

    /// Tests: the laptop goes quiet (nothing sent, the sockets kept open)
    /// while `on`, as a laptop asleep or a Wi-Fi that stopped carrying.
    pub fn hush(&self, on: bool) {
        self.shared.hushed.store(on, Ordering::SeqCst);
    }

    /// Tests: every socket ends now with no goodbye, as when the laptop's
    /// network drops; the seats and their codes stay.
    pub fn cut(&self) {
        self.shared.cut.send_modify(|n| *n += 1);
    }

    /// Why sockets were closed, newest last.
    pub fn log(&self) -> Vec<String> {
        self.shared.log.lock().expect("the log lock").clone()
    }

    /// What was refused, and the last reasons.
    pub fn refusals(&self) -> Refusals {
        self.shared
            .refusals
            .lock()
            .expect("the refusals lock")
            .clone()
    }

    /// Connections open now from `ip` (tests of the slots).
    pub fn connections_from(&self, ip: IpAddr) -> usize {
        self.shared
            .per_address
            .lock()
            .expect("the address lock")
            .get(&ip)
            .copied()
            .unwrap_or(0)
    }

    /// Free socket slots of `side`'s seat (tests of the slots).
    pub fn free_sockets(&self, side: Side) -> usize {
        self.shared.seats.lock().expect("the seats lock")[side]
            .sockets
            .available_permits()
    }

    /// Stops serving: every phone's socket is closed with `code` (the page
    /// says why), and the server ends on its own thread. Returns at once,
    /// whatever the clients do.
    pub fn stop(mut self, code: u16) {
        self.shared.stopped.store(code, Ordering::SeqCst);
        let seats = self.shared.seats.lock().expect("the seats lock");
        for side in Side::BOTH {
            seats[side].screen.send_modify(|_| {});
        }
        drop(seats);
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            self.shared.stopped.store(CLOSE_STOPPED, Ordering::SeqCst);
            let _ = stop.send(());
        }
    }
}

#[cfg(test)]
mod tests;
