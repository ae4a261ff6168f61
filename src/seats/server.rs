//! The players' screens server (issues 23 and 31): a small HTTP + WebSocket
//! server inside the app, started only when the players ask and stopped
//! with them, built for a hostile Wi-Fi. It serves the phone page (embedded
//! in the binary) and, for each seat, its socket: the page opens it on its
//! own origin with the seat's token, every message both ways crosses the
//! seat's `Channel`, the first device that proves the key owns the seat (a
//! second is refused until the seat is paired again), the seat's latest
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

use super::channel::{Channel, MAX_FRAME};
use super::protocol::{FilePart, FromPage, Hello, ToPage, VERSION};
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

/// The page and its scripts, compiled in: nothing is fetched at run time.
const PAGE: &str = include_str!("../../assets/phone/index.html");
const ASSETS: [(&str, &str, &str); 8] = [
    (
        "app.js",
        "text/javascript",
        include_str!("../../assets/phone/app.js"),
    ),
    (
        "hexmap.js",
        "text/javascript",
        include_str!("../../assets/phone/hexmap.js"),
    ),
    (
        "channel.js",
        "text/javascript",
        include_str!("../../assets/phone/channel.js"),
    ),
    (
        "style.css",
        "text/css",
        include_str!("../../assets/phone/style.css"),
    ),
    (
        "noble-ciphers-2.3.0/chacha.js",
        "text/javascript",
        include_str!("../../assets/phone/noble-ciphers-2.3.0/chacha.js"),
    ),
    (
        "noble-ciphers-2.3.0/_arx.js",
        "text/javascript",
        include_str!("../../assets/phone/noble-ciphers-2.3.0/_arx.js"),
    ),
    (
        "noble-ciphers-2.3.0/_poly1305.js",
        "text/javascript",
        include_str!("../../assets/phone/noble-ciphers-2.3.0/_poly1305.js"),
    ),
    (
        "noble-ciphers-2.3.0/utils.js",
        "text/javascript",
        include_str!("../../assets/phone/noble-ciphers-2.3.0/utils.js"),
    ),
];

/// Whether a message to a phone (`ToPage`, as JSON) fits the one size
/// every such message has: one that does not is never sent as it is.
pub fn fits(message: &str) -> bool {
    message.len() <= super::channel::MAX_SCREEN
}

/// A private printout crosses in this many messages, whatever it holds:
/// with every message of one size, the Wi-Fi learns nothing of the file
/// from their number or their length.
pub const FILE_PARTS: usize = 4;
/// The bytes of the file each message carries (in base64, with its
/// wrapping, it fills one message).
const FILE_PART: usize = 46 * 1024;
/// The largest printout a phone is sent.
pub const MAX_FILE: usize = FILE_PARTS * FILE_PART;

/// A private printout (a PDF) as the messages its owner's page puts back
/// together: `FILE_PARTS` of them, the file padded with zeros to fill
/// them and its true length said inside, sealed like any message.
pub fn file_messages(title: &str, pdf: &[u8]) -> Result<Vec<String>, String> {
    use base64::Engine as _;
    if pdf.len() > MAX_FILE {
        return Err(format!(
            "the printout is {} KiB, more than a phone is sent ({} KiB): print it on the laptop",
            pdf.len().div_ceil(1024),
            MAX_FILE / 1024
        ));
    }
    let mut padded = pdf.to_vec();
    padded.resize(MAX_FILE, 0);
    padded
        .chunks(FILE_PART)
        .enumerate()
        .map(|(part, bytes)| {
            let message = ToPage::File {
                file: FilePart {
                    name: "muster-private.pdf".into(),
                    title: title.into(),
                    part,
                    parts: FILE_PARTS,
                    length: pdf.len(),
                    data: base64::engine::general_purpose::STANDARD.encode(bytes),
                },
            }
            .text();
            if !fits(&message) {
                return Err("the printout's title is too long to send".into());
            }
            Ok(message)
        })
        .collect()
}

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

/// A seat's pairing: what its QR code carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub token: [u8; 16],
    pub key: [u8; 32],
}

impl Pairing {
    fn new() -> Result<Pairing, String> {
        let mut token = [0; 16];
        let mut key = [0; 32];
        getrandom::fill(&mut token).map_err(|e| e.to_string())?;
        getrandom::fill(&mut key).map_err(|e| e.to_string())?;
        Ok(Pairing { token, key })
    }

    /// The seat's address on `host` (an address and port): the token in
    /// the path, the key in the fragment, which a browser never sends.
    pub fn url(&self, host: &str) -> String {
        format!(
            "http://{host}/seat/{}#k={}",
            hex(&self.token),
            hex(&self.key)
        )
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != 2 * N || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0; N];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// Compares without stopping at the first difference, so the time a
/// refusal takes tells nothing of a token.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// One seat: its pairing (bumped by a new pairing), the device that owns
/// it and the socket that holds it now, its latest screen as JSON, and the
/// slots of its sockets still proving the key.
struct Seat {
    pairing: Option<Pairing>,
    generation: u64,
    device: Option<[u8; 16]>,
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
        let mut seats = self.shared.seats.lock().expect("the seats lock");
        let seat = &mut seats[side];
        seat.pairing = Some(pairing.clone());
        seat.generation += 1;
        seat.device = None;
        seat.holder = None;
        // A new device never gets the last one's printout.
        seat.file.send_replace(None);
        // Wakes every socket of the seat, which finds itself superseded.
        seat.screen.send_modify(|_| {});
        Ok(pairing)
    }

    /// Lets `side`'s seat go: no device holds it and no code opens it (its
    /// socket is closed as released); his secrets go back to the laptop's
    /// hand-over screen.
    pub fn release(&self, side: Side) {
        let mut seats = self.shared.seats.lock().expect("the seats lock");
        let seat = &mut seats[side];
        seat.pairing = None;
        seat.generation += 1;
        seat.device = None;
        seat.holder = None;
        seat.file.send_replace(None);
        seat.screen.send_modify(|_| {});
    }

    /// Sends `side`'s phone his private printout (`file_messages`).
    pub fn send_file(&self, side: Side, messages: Vec<String>) {
        let seats = self.shared.seats.lock().expect("the seats lock");
        seats[side].file.send_replace(Some(Arc::new(messages)));
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

/// How a `Host` header names an address: an IPv6 one in brackets.
fn host_name(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

/// Takes connections until stopped; each holds a slot of all connections
/// and one of its address, given back when its task ends, whatever ends
/// it. A stop gives the sockets a moment to say goodbye.
async fn accept(
    listener: std::net::TcpListener,
    shared: Arc<Shared>,
    mut stopped: tokio::sync::oneshot::Receiver<()>,
) {
    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
        return;
    };
    let connections = Arc::new(Semaphore::new(shared.limits.connections));
    let app = router(shared.clone());
    loop {
        let accepted = tokio::select! {
            _ = &mut stopped => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of files, or a connection reset before it was
                // taken: wait a moment rather than spin.
                shared.refuse(format!("a connection not taken: {e}"));
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(slot) = connections.clone().try_acquire_owned() else {
            shared.refuse(format!(
                "{peer}: refused, {} connections are open",
                shared.limits.connections
            ));
            continue;
        };
        let Some(address) = AddressSlot::take(&shared, peer.ip()) else {
            shared.refuse(format!(
                "{}: refused, {} connections from it are open",
                peer.ip(),
                shared.limits.per_address
            ));
            continue;
        };
        // A screen is a whole 64 KiB frame, a little more than one segment
        // even on loopback: without this its last bytes wait for the
        // phone's delayed acknowledgement of the first (Nagle).
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let headers = shared.limits.headers;
        tokio::spawn(async move {
            let (_slot, _address) = (slot, address);
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(headers)
                .max_buf_size(MAX_HEAD);
            let connection = builder
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .with_upgrades();
            let _ = connection.await;
        });
    }
    // The sockets were told (each closes with the stop's code): a moment
    // for their goodbyes before the runtime drops what is left, long
    // enough for a busy machine (the server's own thread waits, never the
    // window's).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(2);
    while shared.open.load(Ordering::SeqCst) > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn router(state: Arc<Shared>) -> Router {
    Router::new()
        .route("/seat/{token}", get(page))
        .route("/assets/{*file}", get(asset))
        .route("/ws/{token}", get(socket))
        .fallback(|| async { StatusCode::NOT_FOUND })
        .layer(axum::middleware::from_fn_with_state(state.clone(), door))
        .with_state(state)
}

/// Every request's door: its `Host` must name the laptop as the page's
/// own address does (a page elsewhere, or a rebinding host name, is not
/// served), a socket's `Origin` must be the page's own; and every answer,
/// errors too, carries the page's security headers.
async fn door(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok());
    let socket = request.uri().path().starts_with("/ws/");
    let host_ok = host.is_some_and(|h| shared.hosts.iter().any(|ok| ok == h));
    let origin_ok = match origin {
        Some(origin) => shared.origins.iter().any(|ok| ok == origin),
        // A page's own load carries none; a browser's socket always does.
        None => !socket,
    };
    if !(host_ok && origin_ok) {
        shared.refuse(format!(
            "a request for {} from host {} and origin {}: refused (403)",
            request
                .uri()
                .path()
                .split('/')
                .take(2)
                .collect::<Vec<_>>()
                .join("/"),
            host.unwrap_or("(none)"),
            origin.unwrap_or("(none)"),
        ));
        return guarded(StatusCode::FORBIDDEN.into_response());
    }
    guarded(next.run(request).await)
}

/// Headers every answer carries: nothing from elsewhere, no framing, no
/// caching, no referrer.
fn guarded(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in [
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; connect-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        ),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// The page: the same for every seat (the key is in the fragment, never
/// sent); a known seat's page asked for is noted, so the table knows its
/// code reached a phone.
async fn page(Path(token): Path<String>, State(shared): State<Arc<Shared>>) -> Response {
    if let Some((side, ..)) = seat_of(&shared, &token) {
        shared.send(FromPhone::Opened(side));
    }
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], PAGE).into_response()
}

async fn asset(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|(name, ..)| *name == file) {
        Some((_, kind, text)) => ([(header::CONTENT_TYPE, *kind)], *text).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

#[derive(Deserialize)]
struct Connect {
    /// The phone's random half of the connection, hex.
    c: String,
}

/// The seat whose token this is, with its pairing and generation.
fn seat_of(shared: &Shared, token: &str) -> Option<(Side, Pairing, u64, Arc<Semaphore>)> {
    let token: [u8; 16] = unhex(token)?;
    let seats = shared.seats.lock().expect("the seats lock");
    Side::BOTH.into_iter().find_map(|side| {
        let seat = &seats[side];
        let pairing = seat.pairing.clone()?;
        same(&pairing.token, &token).then(|| (side, pairing, seat.generation, seat.sockets.clone()))
    })
}

async fn socket(
    ws: WebSocketUpgrade,
    Path(token): Path<String>,
    Query(hello): Query<Connect>,
    State(shared): State<Arc<Shared>>,
) -> Response {
    let (Some((side, pairing, generation, sockets)), Some(phone)) =
        (seat_of(&shared, &token), unhex::<16>(&hello.c))
    else {
        shared.refuse("a socket for no seat: refused (404)".into());
        return StatusCode::NOT_FOUND.into_response();
    };
    // A slot of the seat's while the socket proves the key, given back
    // however it ends: a failed upgrade drops the closure that holds it.
    let Ok(slot) = sockets.try_acquire_owned() else {
        shared.refuse(format!(
            "{side}: a socket refused (503), {} of the seat's are proving its key",
            shared.limits.sockets_per_seat
        ));
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    };
    let failed = shared.clone();
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_failed_upgrade(move |e| failed.refuse(format!("{side}: an upgrade failed: {e}")))
        .on_upgrade(move |mut socket| async move {
            let _open = OpenSocket::count(&shared);
            let id = shared.sockets.fetch_add(1, Ordering::SeqCst) + 1;
            let at = Place {
                side,
                generation,
                id,
            };
            let reason = match prove(&mut socket, &shared, at, &pairing, phone).await {
                Err(why) => {
                    // It never held the seat: nothing changes but the count.
                    let why = format!("{side}: socket {id} refused: {why}");
                    shared.note(why.clone());
                    shared.refuse(why);
                    return;
                }
                Ok(proved) => {
                    drop(slot);
                    hold(socket, &shared, at, proved).await
                }
            };
            shared.note(format!("{side}: socket {id} closed: {reason}"));
            if shared.let_go(side, generation, id) {
                shared.send(FromPhone::Left(side));
            }
        })
}

/// A socket counted open until dropped, however its task ends.
struct OpenSocket(Arc<Shared>);

impl OpenSocket {
    fn count(shared: &Arc<Shared>) -> OpenSocket {
        shared.open.fetch_add(1, Ordering::SeqCst);
        OpenSocket(shared.clone())
    }
}

impl Drop for OpenSocket {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Where a socket stands: its seat, the seat's pairing it came for, and
/// its own number.
#[derive(Clone, Copy)]
struct Place {
    side: Side,
    generation: u64,
    id: u64,
}

/// A socket that proved the key: its channel, and what it is sent.
struct Proved {
    channel: Channel,
    screen: watch::Receiver<Option<Arc<String>>>,
    file: watch::Receiver<Option<Arc<Vec<String>>>>,
}

async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        })))
        .await;
}

/// A socket's first steps: the hello, then its first frame, which must
/// open under the seat's key soon, speak this protocol and name its
/// device; that device must own the seat or be the first to come. Then
/// it holds the seat (a tab of the same device that held it is told it
/// moved). Why not, otherwise: the socket changed nothing.
async fn prove(
    socket: &mut WebSocket,
    shared: &Shared,
    at: Place,
    pairing: &Pairing,
    phone: [u8; 16],
) -> Result<Proved, String> {
    let mut laptop = [0; 16];
    getrandom::fill(&mut laptop).map_err(|_| "no randomness for the connection")?;
    let hello = Hello {
        version: VERSION,
        laptop: hex(&laptop),
    };
    let hello = serde_json::to_string(&hello).expect("a hello always serializes");
    if socket.send(Message::Text(hello.into())).await.is_err() {
        return Err("gone before the hello".into());
    }
    let mut channel = Channel::laptop(&pairing.key, pairing.token, phone, laptop);
    let first = tokio::time::timeout(shared.limits.first_frame, socket.recv()).await;
    let frame = match first {
        Err(_) => {
            close(socket, CLOSE_REFUSED, "too slow").await;
            return Err(format!(
                "no first frame within {:?}",
                shared.limits.first_frame
            ));
        }
        Ok(Some(Ok(Message::Binary(frame)))) => frame,
        Ok(Some(Ok(Message::Text(_)))) => {
            close(socket, CLOSE_REFUSED, "refused").await;
            return Err("a first message in the clear".into());
        }
        Ok(_) => return Err("closed before its first frame".into()),
    };
    let body = match channel.open(&frame) {
        Ok(body) => body,
        Err(e) => {
            close(socket, CLOSE_REFUSED, "refused").await;
            return Err(format!("a first frame that does not open: {e}"));
        }
    };
    let device = match FromPage::read(&body) {
        Ok(FromPage::Join { version, .. }) if version != VERSION => {
            close(socket, CLOSE_VERSION, "another version").await;
            return Err(format!(
                "a page of protocol {version}, this laptop speaks {VERSION}"
            ));
        }
        Ok(FromPage::Join { device, .. }) => unhex::<16>(&device),
        Ok(_) => None,
        Err(e) => {
            close(socket, CLOSE_REFUSED, "refused").await;
            return Err(e);
        }
    };
    let Some(device) = device else {
        close(socket, CLOSE_REFUSED, "refused").await;
        return Err("a first frame that names no device".into());
    };
    // Decided under the lock, answered after it (no lock across a wait).
    let taken = {
        let mut seats = shared.seats.lock().expect("the seats lock");
        let seat = &mut seats[at.side];
        if seat.generation != at.generation {
            Err((CLOSE_REPAIRED, "re-paired", "the seat was paired again"))
        } else if seat.device.is_some_and(|owner| owner != device) {
            Err((
                CLOSE_TAKEN,
                "another device holds this seat",
                "another device holds the seat",
            ))
        } else {
            seat.device = Some(device);
            let before = seat.holder.replace(at.id);
            let taken = (seat.screen.subscribe(), seat.file.subscribe());
            // The tab it moved from finds out as it wakes.
            if before.is_some() {
                seat.screen.send_modify(|_| {});
            }
            Ok((taken, before))
        }
    };
    match taken {
        Ok(((screen, file), before)) => {
            if let Some(before) = before {
                shared.note(format!(
                    "{}: socket {} took the seat over from socket {before} (same device)",
                    at.side, at.id
                ));
            }
            Ok(Proved {
                channel,
                screen,
                file,
            })
        }
        Err((code, said, why)) => {
            close(socket, code, said).await;
            Err(why.into())
        }
    }
}

/// Sends one message to the page, sealed; whether it went within `limit`
/// (a phone gone without closing stops reading: its buffers fill, and the
/// socket must not wait on it for good).
async fn seal_and_send(
    socket: &mut WebSocket,
    channel: &mut Channel,
    message: &str,
    limit: Duration,
) -> bool {
    let Ok(frame) = channel.seal(message.as_bytes()) else {
        return false;
    };
    matches!(
        tokio::time::timeout(limit, socket.send(Message::Binary(frame.into()))).await,
        Ok(Ok(()))
    )
}

/// The socket that holds a seat, to its end; returns why it ended.
async fn hold(mut socket: WebSocket, shared: &Shared, at: Place, proved: Proved) -> String {
    let Proved {
        mut channel,
        mut screen,
        mut file,
    } = proved;
    let limits = &shared.limits;
    let side = at.side;
    let beat = ToPage::Beat.text();
    shared.send(FromPhone::Joined(side));
    screen.mark_changed();
    let mut cut = shared.cut.subscribe();
    // The first beat after a period: a fresh socket has just been heard.
    let mut heartbeat = tokio::time::interval_at(
        tokio::time::Instant::now() + limits.heartbeat,
        limits.heartbeat,
    );
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut heard = Instant::now();
    // A screen not sent while hushed, sent at the first beat after.
    let mut owed = false;
    loop {
        tokio::select! {
            _ = cut.changed() => return "cut with no goodbye (a test's dropped network)".into(),
            changed = screen.changed() => {
                let stopped = shared.stopped.load(Ordering::SeqCst);
                if changed.is_err() || stopped != 0 {
                    close(&mut socket, CLOSE_STOPPED, "stopped").await;
                    return "the server stopped".into();
                }
                let now = {
                    let seats = shared.seats.lock().expect("the seats lock");
                    let seat = &seats[side];
                    if seat.generation != at.generation {
                        Some(if seat.pairing.is_some() {
                            (CLOSE_REPAIRED, "re-paired", "the seat was paired again")
                        } else {
                            (CLOSE_RELEASED, "released", "the seat was let go")
                        })
                    } else if seat.holder != Some(at.id) {
                        Some((CLOSE_MOVED, "moved to another tab", "its device's other tab took the seat"))
                    } else {
                        None
                    }
                };
                if let Some((code, said, why)) = now {
                    close(&mut socket, code, said).await;
                    return why.into();
                }
                let Some(json) = screen.borrow_and_update().clone() else {
                    continue;
                };
                if shared.hushed.load(Ordering::SeqCst) {
                    owed = true;
                    continue;
                }
                if !seal_and_send(&mut socket, &mut channel, &json, limits.silence).await {
                    return "gone".into();
                }
            }
            changed = file.changed() => {
                if changed.is_err() {
                    return "the server stopped".into();
                }
                let Some(parts) = file.borrow_and_update().clone() else {
                    continue;
                };
                for message in parts.iter() {
                    if !seal_and_send(&mut socket, &mut channel, message, limits.silence).await {
                        return "gone".into();
                    }
                }
            }
            _ = heartbeat.tick() => {
                if heard.elapsed() > limits.silence {
                    close(&mut socket, CLOSE_REFUSED, "silent").await;
                    return format!("nothing heard for {:?}: the phone is gone", limits.silence);
                }
                if shared.hushed.load(Ordering::SeqCst) {
                    continue;
                }
                let ping = socket.send(Message::Ping(Vec::new().into()));
                if !matches!(tokio::time::timeout(limits.silence, ping).await, Ok(Ok(())))
                    || !seal_and_send(&mut socket, &mut channel, &beat, limits.silence).await
                {
                    return "gone".into();
                }
                let latest = screen.borrow().clone();
                if std::mem::take(&mut owed)
                    && let Some(json) = latest
                    && !seal_and_send(&mut socket, &mut channel, &json, limits.silence).await
                {
                    return "gone".into();
                }
            }
            message = socket.recv() => {
                heard = Instant::now();
                let frame = match message {
                    Some(Ok(Message::Binary(frame))) => frame,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | None => return "closed by the phone".into(),
                    Some(Ok(Message::Text(_))) => {
                        close(&mut socket, CLOSE_REFUSED, "refused").await;
                        shared.refuse(format!("{side}: a message in the clear"));
                        return "a message in the clear".into();
                    }
                    Some(Err(e)) => return format!("socket error: {e}"),
                };
                let body = match channel.open(&frame) {
                    Ok(body) => body,
                    Err(e) => {
                        close(&mut socket, CLOSE_REFUSED, "refused").await;
                        shared.refuse(format!("{side}: {e}"));
                        return format!("frame refused: {e}");
                    }
                };
                match FromPage::read(&body) {
                    Ok(FromPage::Join { .. }) => {
                        close(&mut socket, CLOSE_REFUSED, "refused").await;
                        shared.refuse(format!("{side}: a second join on one socket"));
                        return "a second join".into();
                    }
                    Ok(message) => shared.send(FromPhone::Message(side, message)),
                    Err(e) => {
                        close(&mut socket, CLOSE_REFUSED, "refused").await;
                        shared.refuse(format!("{side}: {e}"));
                        return e;
                    }
                }
            }
        }
    }
}

/// What an address of the laptop is, as its interface's name tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    WiFi,
    Ethernet,
    Other,
    /// A virtual machine's or container's bridge: phones do not reach it.
    Virtual,
    /// A VPN's: phones on the Wi-Fi do not reach it.
    Vpn,
    /// This laptop only.
    Loopback,
}

impl Kind {
    fn of(interface: &str, ip: IpAddr) -> Kind {
        let starts = |prefixes: &[&str]| prefixes.iter().any(|p| interface.starts_with(p));
        if ip.is_loopback() {
            Kind::Loopback
        } else if starts(&["wl", "wlan", "wifi", "ath", "ra"]) {
            Kind::WiFi
        } else if starts(&["en", "eth", "em"]) {
            Kind::Ethernet
        } else if starts(&[
            "docker", "br-", "veth", "virbr", "vboxnet", "vmnet", "lxc", "lxd", "podman", "cni",
        ]) {
            Kind::Virtual
        } else if starts(&[
            "tun",
            "tap",
            "wg",
            "utun",
            "ppp",
            "tailscale",
            "zt",
            "ipsec",
        ]) {
            Kind::Vpn
        } else {
            Kind::Other
        }
    }

    pub fn words(self) -> &'static str {
        match self {
            Kind::WiFi => "Wi-Fi",
            Kind::Ethernet => "Ethernet",
            Kind::Other => "network",
            Kind::Virtual => "virtual: phones cannot reach it",
            Kind::Vpn => "VPN: phones on the Wi-Fi cannot reach it",
            Kind::Loopback => "this laptop only",
        }
    }
}

/// An address of this machine, with its interface and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    pub ip: IpAddr,
    pub interface: String,
    pub kind: Kind,
}

impl Address {
    /// "192.168.1.20 (Wi-Fi, wlan0)".
    pub fn describe(&self) -> String {
        format!("{} ({}, {})", self.ip, self.kind.words(), self.interface)
    }
}

/// The addresses of this machine a phone on the same network may reach,
/// the Wi-Fi's first, then Ethernet, other networks, virtual and VPN
/// adapters, this laptop's own last; IPv4 before IPv6 within each.
pub fn local_addresses() -> Vec<Address> {
    let mut found: Vec<Address> = if_addrs::get_if_addrs()
        .map(|list| {
            list.into_iter()
                .map(|i| Address {
                    ip: i.ip(),
                    kind: Kind::of(&i.name, i.ip()),
                    interface: i.name,
                })
                .collect()
        })
        .unwrap_or_default();
    found.sort_by_key(|a| (a.kind, a.ip.is_ipv6(), a.ip));
    found.dedup_by_key(|a| a.ip);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The attack: the Wi-Fi counts and measures the frames of a private
    /// printout. A one-page ledger and one many times its size cross as
    /// the same number of messages of the same length; a file past the
    /// limit is refused in words, never cut.
    #[test]
    fn a_printout_crosses_in_parts_of_one_size_whatever_it_holds() {
        let small = file_messages("Ann's ledger", &[7; 900]).unwrap();
        let large = file_messages("Ann's ledger", &vec![9; 150_000]).unwrap();
        assert_eq!(small.len(), FILE_PARTS);
        assert_eq!(large.len(), FILE_PARTS);
        // Each fits one message, which the channel pads to one frame of
        // `MAX_FRAME` bytes: sealed, every part is the same size.
        let key = [3; 32];
        let mut channel = Channel::laptop(&key, [1; 16], [2; 16], [4; 16]);
        for message in small.iter().chain(&large) {
            assert!(message.len() <= super::super::channel::MAX_SCREEN);
            assert_eq!(channel.seal(message.as_bytes()).unwrap().len(), MAX_FRAME);
        }
        // Put back together as the page does, it is the file.
        use base64::Engine as _;
        let pdf = b"%PDF-1.7 a ledger".repeat(3000);
        let mut whole = Vec::new();
        for message in file_messages("Ann's ledger", &pdf).unwrap() {
            let v: serde_json::Value = serde_json::from_str(&message).unwrap();
            let data = v["file"]["data"].as_str().unwrap();
            whole.extend(
                base64::engine::general_purpose::STANDARD
                    .decode(data)
                    .unwrap(),
            );
        }
        whole.truncate(pdf.len());
        assert_eq!(whole, pdf);
        let too_large = file_messages("Ann's ledger", &vec![0; MAX_FILE + 1]).unwrap_err();
        assert!(
            too_large.contains("more than a phone is sent"),
            "{too_large}"
        );
    }

    #[test]
    fn addresses_are_named_by_what_they_are_the_wifi_first() {
        let v4 = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(Kind::of("wlp3s0", v4("192.168.1.20")), Kind::WiFi);
        assert_eq!(Kind::of("enp0s31f6", v4("10.0.0.5")), Kind::Ethernet);
        assert_eq!(Kind::of("docker0", v4("172.17.0.1")), Kind::Virtual);
        assert_eq!(Kind::of("wg0", v4("10.8.0.2")), Kind::Vpn);
        assert_eq!(Kind::of("lo", v4("127.0.0.1")), Kind::Loopback);
        assert!(Kind::WiFi < Kind::Ethernet && Kind::Vpn < Kind::Loopback);
    }
}
