//! The players' screens server (issue 23): a small HTTP + WebSocket server
//! inside the app, started only when the players ask and stopped with it.
//! It serves the phone page (embedded in the binary) and, for each seat,
//! one socket: the page opens it on its own origin with the seat's token,
//! every message both ways crosses the seat's `Channel`, the first device
//! that proves the key holds the seat (a second is refused until the seat
//! is paired again), the seat's latest screen is sent at once on every
//! (re)connect and again whenever it changes, and what the phone answers
//! is handed to the window's thread. A bad, oversized, replayed or wrongly
//! keyed message closes that socket with a logged reason, never the game.

use super::channel::{Channel, MAX_FRAME};
use axum::Router;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use muster_core::side::{Side, Sides};
use serde::Deserialize;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// No more sockets than this at once: two phones, their reconnections, and
/// nothing an intruder could pile up.
pub const MAX_SOCKETS: usize = 6;

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

/// Whether a screen (its JSON) fits the one size every message to a phone
/// has: one that does not is never sent as it is.
pub fn fits(screen: &str) -> bool {
    screen.len() + SCREEN_WRAPPING <= super::channel::MAX_SCREEN
}

/// What `{"screen": …}` adds around a screen's JSON.
const SCREEN_WRAPPING: usize = r#"{"screen":}"#.len();

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

/// What a phone sent, for the window's thread.
#[derive(Clone, Debug, PartialEq)]
pub enum FromPhone {
    /// Its device took the seat (or came back).
    Joined(Side),
    /// Its socket closed.
    Left(Side),
    /// A message of the page, as JSON (a reply to his screen, the values
    /// he typed so far): the window reads it as the system's screens say.
    Message(Side, serde_json::Value),
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

/// One seat: its pairing (bumped by a new pairing), the device holding it,
/// and its latest screen as JSON.
struct Seat {
    pairing: Option<Pairing>,
    generation: u64,
    device: Option<[u8; 16]>,
    screen: watch::Sender<Option<Arc<String>>>,
}

struct Shared {
    seats: Mutex<Sides<Seat>>,
    sockets: AtomicUsize,
    log: Mutex<Vec<String>>,
    /// The window's end: what a phone did, delivered as it happens.
    deliver: Box<dyn Fn(FromPhone) + Send + Sync>,
    /// The close code every socket gets once the server stops.
    stopped: std::sync::atomic::AtomicU16,
}

impl Shared {
    fn note(&self, line: String) {
        let mut log = self.log.lock().expect("the log lock");
        log.push(line);
        let excess = log.len().saturating_sub(100);
        log.drain(..excess);
    }

    fn send(&self, event: FromPhone) {
        (self.deliver)(event);
    }
}

/// The running server: dropped, it stops.
pub struct Server {
    addr: SocketAddr,
    shared: Arc<Shared>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Server {
    /// Starts serving on `bind` (port 0: any free port); `deliver` gets
    /// what each phone does, as it happens, on the server's thread.
    pub fn start(
        bind: SocketAddr,
        deliver: impl Fn(FromPhone) + Send + Sync + 'static,
    ) -> Result<Server, String> {
        let listener = std::net::TcpListener::bind(bind)
            .map_err(|e| format!("cannot listen on {bind}: {e}"))?;
        listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let seat = || Seat {
            pairing: None,
            generation: 0,
            device: None,
            screen: watch::channel(None).0,
        };
        let shared = Arc::new(Shared {
            seats: Mutex::new(Sides {
                south: seat(),
                north: seat(),
            }),
            sockets: AtomicUsize::new(0),
            log: Mutex::new(Vec::new()),
            deliver: Box::new(deliver),
            stopped: std::sync::atomic::AtomicU16::new(0),
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
                runtime.block_on(async move {
                    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                        return;
                    };
                    let app = router(state);
                    let _ = axum::serve(listener, app)
                        .with_graceful_shutdown(async {
                            let _ = stopped.await;
                        })
                        .await;
                });
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
        bind: SocketAddr,
    ) -> Result<(Server, std::sync::mpsc::Receiver<FromPhone>), String> {
        let (send, receive) = std::sync::mpsc::channel();
        let send = Mutex::new(send);
        let server = Server::start(bind, move |event| {
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
        seat.screen.send_modify(|_| {});
    }

    /// Whether a device holds `side`'s seat.
    pub fn paired(&self, side: Side) -> bool {
        self.shared.seats.lock().expect("the seats lock")[side]
            .device
            .is_some()
    }

    /// `side`'s screen (JSON) for his phone: sent now if it changed.
    pub fn show(&self, side: Side, screen: String) {
        let seats = self.shared.seats.lock().expect("the seats lock");
        seats[side].screen.send_if_modified(|now| {
            if now.as_deref().is_some_and(|s| *s == screen) {
                return false;
            }
            *now = Some(Arc::new(screen));
            true
        });
    }

    /// Why sockets were closed, newest last.
    pub fn log(&self) -> Vec<String> {
        self.shared.log.lock().expect("the log lock").clone()
    }
}

impl Server {
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
        // The sockets say goodbye first (a moment, off the window's
        // thread), then the server ends.
        if let Some(stop) = self.stop.take() {
            let shared = self.shared.clone();
            std::thread::spawn(move || {
                for _ in 0..50 {
                    if shared.sockets.load(Ordering::SeqCst) == 0 {
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                let _ = stop.send(());
            });
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

fn router(state: Arc<Shared>) -> Router {
    Router::new()
        .route("/seat/{token}", get(page))
        .route("/assets/{*file}", get(asset))
        .route("/ws/{token}", get(socket))
        .with_state(state)
}

/// Headers every answer carries: nothing from elsewhere, no framing, no
/// caching, no referrer.
fn guarded(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in [
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
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

async fn page() -> Response {
    guarded(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], PAGE).into_response())
}

async fn asset(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|(name, ..)| *name == file) {
        Some((_, kind, text)) => guarded(([(header::CONTENT_TYPE, *kind)], *text).into_response()),
        None => guarded(StatusCode::NOT_FOUND.into_response()),
    }
}

#[derive(Deserialize)]
struct Hello {
    /// The phone's random half of the connection, hex.
    c: String,
}

/// The seat whose token this is, with its pairing and generation.
fn seat_of(shared: &Shared, token: &str) -> Option<(Side, Pairing, u64)> {
    let token: [u8; 16] = unhex(token)?;
    let seats = shared.seats.lock().expect("the seats lock");
    Side::BOTH.into_iter().find_map(|side| {
        let seat = &seats[side];
        let pairing = seat.pairing.clone()?;
        same(&pairing.token, &token).then_some((side, pairing, seat.generation))
    })
}

async fn socket(
    ws: WebSocketUpgrade,
    Path(token): Path<String>,
    Query(hello): Query<Hello>,
    State(shared): State<Arc<Shared>>,
) -> Response {
    let (Some((side, pairing, generation)), Some(phone)) =
        (seat_of(&shared, &token), unhex::<16>(&hello.c))
    else {
        return guarded(StatusCode::NOT_FOUND.into_response());
    };
    if shared.sockets.fetch_add(1, Ordering::SeqCst) >= MAX_SOCKETS {
        shared.sockets.fetch_sub(1, Ordering::SeqCst);
        shared.note(format!(
            "{side}: a socket refused, {MAX_SOCKETS} are open already"
        ));
        return guarded(StatusCode::SERVICE_UNAVAILABLE.into_response());
    }
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| async move {
            let reason = serve(socket, &shared, side, pairing, generation, phone).await;
            shared.sockets.fetch_sub(1, Ordering::SeqCst);
            shared.note(format!("{side}: socket closed: {reason}"));
            shared.send(FromPhone::Left(side));
        })
}

async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        })))
        .await;
}

/// One phone's socket, to its end; returns why it ended.
async fn serve(
    mut socket: WebSocket,
    shared: &Shared,
    side: Side,
    pairing: Pairing,
    generation: u64,
    phone: [u8; 16],
) -> String {
    let mut laptop = [0; 16];
    if getrandom::fill(&mut laptop).is_err() {
        return "no randomness for the connection".into();
    }
    let hello = format!("{{\"hello\":\"{}\"}}", hex(&laptop));
    if socket.send(Message::Text(hello.into())).await.is_err() {
        return "gone before the hello".into();
    }
    let mut channel = Channel::laptop(&pairing.key, pairing.token, phone, laptop);
    // The first frame proves the key and names the device.
    let device = match socket.recv().await {
        Some(Ok(Message::Binary(frame))) => match channel.open(&frame) {
            Ok(body) => serde_json::from_slice::<serde_json::Value>(&body)
                .ok()
                .and_then(|v| unhex::<16>(v.get("device")?.as_str()?)),
            Err(e) => {
                close(&mut socket, CLOSE_REFUSED, "refused").await;
                return format!("first frame refused: {e}");
            }
        },
        _ => return "no first frame".into(),
    };
    let Some(device) = device else {
        close(&mut socket, CLOSE_REFUSED, "refused").await;
        return "the first frame names no device".into();
    };
    // Decided under the lock, answered after it (no lock across a wait).
    let taken = {
        let mut seats = shared.seats.lock().expect("the seats lock");
        let seat = &mut seats[side];
        if seat.generation != generation {
            Err((CLOSE_REPAIRED, "re-paired", "the seat was paired again"))
        } else if seat.device.is_some_and(|holder| holder != device) {
            Err((
                CLOSE_TAKEN,
                "another device holds this seat",
                "another device holds the seat",
            ))
        } else {
            seat.device = Some(device);
            Ok(seat.screen.subscribe())
        }
    };
    let mut screen = match taken {
        Ok(screen) => screen,
        Err((code, said, why)) => {
            close(&mut socket, code, said).await;
            return why.into();
        }
    };
    shared.send(FromPhone::Joined(side));
    screen.mark_changed();
    loop {
        tokio::select! {
            changed = screen.changed() => {
                let stopped = shared.stopped.load(Ordering::SeqCst);
                if changed.is_err() || stopped != 0 {
                    close(&mut socket, CLOSE_STOPPED, "stopped").await;
                    return "the server stopped".into();
                }
                let now = {
                    let seats = shared.seats.lock().expect("the seats lock");
                    (seats[side].generation != generation).then(|| seats[side].pairing.is_some())
                };
                match now {
                    Some(true) => {
                        close(&mut socket, CLOSE_REPAIRED, "re-paired").await;
                        return "the seat was paired again".into();
                    }
                    Some(false) => {
                        close(&mut socket, CLOSE_RELEASED, "released").await;
                        return "the seat was let go".into();
                    }
                    None => {}
                }
                let Some(json) = screen.borrow_and_update().clone() else {
                    continue;
                };
                let message = format!("{{\"screen\":{json}}}");
                let frame = match channel.seal(message.as_bytes()) {
                    Ok(frame) => frame,
                    Err(e) => return format!("screen not sent: {e}"),
                };
                if socket.send(Message::Binary(frame.into())).await.is_err() {
                    return "gone".into();
                }
            }
            message = socket.recv() => {
                let frame = match message {
                    Some(Ok(Message::Binary(frame))) => frame,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | None => return "closed by the phone".into(),
                    Some(Ok(Message::Text(_))) => {
                        close(&mut socket, CLOSE_REFUSED, "refused").await;
                        return "a message in the clear".into();
                    }
                    Some(Err(e)) => return format!("socket error: {e}"),
                };
                let body = match channel.open(&frame) {
                    Ok(body) => body,
                    Err(e) => {
                        close(&mut socket, CLOSE_REFUSED, "refused").await;
                        return format!("frame refused: {e}");
                    }
                };
                match serde_json::from_slice(&body) {
                    Ok(value) => shared.send(FromPhone::Message(side, value)),
                    Err(e) => {
                        close(&mut socket, CLOSE_REFUSED, "refused").await;
                        return format!("a message that is not JSON: {e}");
                    }
                }
            }
        }
    }
}

/// The addresses of this machine a phone on the same network may reach,
/// IPv4 first, loopback last.
pub fn local_addresses() -> Vec<std::net::IpAddr> {
    let mut found: Vec<std::net::IpAddr> = if_addrs::get_if_addrs()
        .map(|list| list.into_iter().map(|i| i.ip()).collect())
        .unwrap_or_default();
    found.sort_by_key(|ip| (ip.is_loopback(), ip.is_ipv6()));
    found.dedup();
    found
}
