//! The connection between a remote game's two machines, kept up on a
//! thread of its own so the window never waits on the network (docs:
//! "Playing remotely"): the host's endpoint admits the one joiner whose
//! ticket it made; the joiner's dials the host and dials again when the
//! connection drops. Messages are numbered each way and kept until the
//! other end acknowledges them: after a drop, each end says how many it
//! has and the other sends the rest, so every message arrives exactly once
//! and in order. The window takes what happened with [`Link::next`].

use crate::admit;
use crate::frame::{self, Frame, PROTOCOL};
use crate::net::{ALPN, Net};
use crate::ticket::{Hosting, Ticket, Token};
use iroh::Endpoint;
use iroh::endpoint::{Connection, RecvStream, SendStream};
use muster_core::side::Side;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc as tmpsc;

/// What the program's version is, said in the greeting.
const PROGRAM: &str = concat!("Muster ", env!("CARGO_PKG_VERSION"));

/// What happened on the link, for the window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The other machine is connected (again), running `program`;
    /// `restarted` if its program restarted since it was last connected
    /// (what it held of the game in memory is gone: its player's copy is
    /// brought up to date from the log).
    Connected { program: String, restarted: bool },
    /// A message from the other machine, in order, once.
    Message(String),
    /// The connection dropped; the joiner's end dials again by itself.
    Dropped(String),
    /// A connection was refused, saying why (the wrong game, an old
    /// ticket, another protocol).
    Refused(String),
}

/// Called when an event waits, to wake the window.
pub type Wake = Arc<dyn Fn() + Send + Sync>;

/// A message the window gave to send, with how many restarts of the other
/// program the window had been told of then: one given before the latest
/// was for the program that is gone, and is dropped unsent (the new one
/// begins from the game's file, and a message before it would not read).
type Outgoing = (u64, String);

/// Both ends' bookkeeping of the numbered messages.
#[derive(Default)]
struct Numbers {
    /// How many messages the window gave to send.
    queued: u64,
    /// The number the next new message gets.
    next: u64,
    /// Sent and not yet acknowledged, oldest first.
    unacked: VecDeque<(u64, String)>,
    /// How many of the other end's messages arrived.
    received: u64,
    /// The other end's session, once met.
    peer: Option<u64>,
    /// How many times the other end's program was met restarted.
    restarts: u64,
}

impl Numbers {
    /// The other end's session met on a connection: another than before
    /// means its program restarted, and the count starts again both
    /// ways (what it had not acknowledged it will be brought up to date
    /// with by the game, not the link). Whether it restarted.
    fn meet(&mut self, session: u64) -> bool {
        let restarted = self.peer.is_some_and(|p| p != session);
        if restarted {
            self.restarts += 1;
            self.queued -= self.next;
            self.next = 0;
            self.unacked.clear();
            self.received = 0;
        }
        self.peer = Some(session);
        restarted
    }

    /// How many of ours the other end has: its count, if it is of this
    /// program's session (`met`); none if it met another (this program
    /// restarted).
    fn they_have(session: u64, met: Option<u64>, received: u64) -> u64 {
        if met == Some(session) { received } else { 0 }
    }
}

/// One end of a remote game's connection.
pub struct Link {
    outgoing: tmpsc::UnboundedSender<Outgoing>,
    events: mpsc::Receiver<Event>,
    endpoint: Endpoint,
    numbers: Arc<Mutex<Numbers>>,
    /// Told when the link is dropped: the thread closes the endpoint and
    /// ends.
    stop: Arc<tokio::sync::Notify>,
    /// Told to drop the connection now (the joiner's end dials again).
    cut: Arc<tokio::sync::Notify>,
    /// How many restarts of the other program the window was told of.
    told: AtomicU64,
}

/// What the task on the link's thread holds.
struct Task {
    endpoint: Endpoint,
    /// This program's session, drawn when the link started.
    session: u64,
    cut: Arc<tokio::sync::Notify>,
    numbers: Arc<Mutex<Numbers>>,
    events: mpsc::Sender<Event>,
    wake: Wake,
}

impl Task {
    fn say(&self, event: Event) {
        // A window that is gone no longer listens; nothing to do then.
        let _ = self.events.send(event);
        (self.wake)();
    }
}

impl Link {
    /// The host's end of `game`, seating the joiner as `seat`: the ticket
    /// to give him, once the endpoint is reachable.
    pub fn host(net: Net, game: String, seat: Side, wake: Wake) -> Result<(Link, Ticket), String> {
        Link::host_as(net, &Hosting::fresh(game, seat)?, wake)
    }

    /// The host's end of `hosting`'s seat: with the same endpoint key and
    /// token, its ticket is the one given before (a joiner holding it dials
    /// the same key, and the relay finds the host again).
    pub fn host_as(net: Net, hosting: &Hosting, wake: Wake) -> Result<(Link, Ticket), String> {
        let token = hosting.token;
        let (link, endpoint_addr) =
            Link::start(net, Some((hosting.secret_key(), hosting.port)), wake, {
                let game = hosting.game.clone();
                move |task, outgoing| Box::pin(host_loop(task, outgoing, game, token))
            })?;
        let ticket = Ticket {
            host: endpoint_addr,
            game: hosting.game.clone(),
            seat: hosting.seat,
            token,
        };
        Ok((link, ticket))
    }

    /// The joiner's end, dialing the ticket's host (again after a drop).
    pub fn join(net: Net, ticket: Ticket, wake: Wake) -> Result<Link, String> {
        Link::start(net, None, wake, move |task, outgoing| {
            Box::pin(join_loop(task, outgoing, ticket))
        })
        .map(|(link, _)| link)
    }

    /// A link on an endpoint of its own: the host's (`key`: it takes
    /// connections) or the joiner's.
    fn start(
        net: Net,
        key: Option<(iroh::SecretKey, Option<u16>)>,
        wake: Wake,
        run: impl FnOnce(
            Task,
            tmpsc::UnboundedReceiver<Outgoing>,
        ) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send>>
        + Send
        + 'static,
    ) -> Result<(Link, iroh::EndpointAddr), String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("the network thread could not start ({e})"))?;
        let endpoint = runtime.block_on(async {
            let port = key.as_ref().and_then(|(_, port)| *port).unwrap_or(0);
            let endpoint = net.endpoint(key.map(|(key, _)| key), port).await?;
            // Reachable before the ticket is given: its relay is known, or
            // without one, an address of its own on this network.
            let reachable = async {
                if matches!(net.relays, crate::net::Relays::Off) {
                    while endpoint.addr().addrs.is_empty() {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                } else {
                    endpoint.online().await;
                }
            };
            if tokio::time::timeout(Duration::from_secs(10), reachable)
                .await
                .is_err()
            {
                return Err(match net.relays {
                    crate::net::Relays::Off => {
                        "this machine has no network address within 10 seconds".into()
                    }
                    _ => "no relay answered within 10 seconds: is this machine online?".into(),
                });
            }
            Ok::<_, String>(endpoint)
        })?;
        let addr = endpoint.addr();
        let (outgoing, outgoing_rx) = tmpsc::unbounded_channel();
        let (events_tx, events) = mpsc::channel();
        let numbers = Arc::new(Mutex::new(Numbers::default()));
        let cut = Arc::new(tokio::sync::Notify::new());
        let session = u64::from_le_bytes(Token::fresh()?.0[..8].try_into().expect("8 bytes"));
        let task = Task {
            endpoint: endpoint.clone(),
            session,
            cut: cut.clone(),
            numbers: numbers.clone(),
            events: events_tx,
            wake,
        };
        let stop = Arc::new(tokio::sync::Notify::new());
        let (stopped, closing) = (stop.clone(), endpoint.clone());
        std::thread::Builder::new()
            .name("muster-remote".into())
            .spawn(move || {
                runtime.block_on(async move {
                    tokio::select! {
                        () = stopped.notified() => {}
                        () = run(task, outgoing_rx) => {}
                    }
                    closing.close().await;
                });
            })
            .map_err(|e| format!("the network thread could not start ({e})"))?;
        Ok((
            Link {
                outgoing,
                events,
                endpoint,
                numbers,
                stop,
                cut,
                told: AtomicU64::new(0),
            },
            addr,
        ))
    }

    /// Sends a message: numbered, kept until acknowledged, sent again
    /// after a drop.
    pub fn send(&self, body: String) {
        self.numbers.lock().expect("not poisoned").queued += 1;
        // The thread ends only with the link.
        let _ = self
            .outgoing
            .send((self.told.load(Ordering::Relaxed), body));
    }

    /// What happened, if anything, without waiting.
    pub fn next(&self) -> Option<Event> {
        self.events.try_recv().ok().inspect(|e| self.told(e))
    }

    /// What happened next, waiting up to `wait` (the command line and the
    /// tests; the window never waits).
    pub fn wait(&self, wait: Duration) -> Option<Event> {
        self.events
            .recv_timeout(wait)
            .ok()
            .inspect(|e| self.told(e))
    }

    /// Counts a restart of the other program the window is told of: what
    /// it sends from now on is for the new program.
    fn told(&self, event: &Event) {
        if matches!(
            event,
            Event::Connected {
                restarted: true,
                ..
            }
        ) {
            self.told.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Drops the connection as a failing network would: what was sent and
    /// not acknowledged goes again once it is back (the joiner's end dials
    /// again by itself).
    pub fn cut(&self) {
        self.cut.notify_one();
    }

    /// Whether every message sent has been acknowledged.
    pub fn settled(&self) -> bool {
        let numbers = self.numbers.lock().expect("not poisoned");
        numbers.unacked.is_empty() && numbers.next == numbers.queued
    }

    /// The endpoint (its addresses are checked by the tests).
    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        // A permit is kept if the thread is not waiting yet.
        self.stop.notify_one();
    }
}

/// The host's loop: admits the ticket's joiner, connection after connection.
async fn host_loop(
    task: Task,
    mut outgoing: tmpsc::UnboundedReceiver<Outgoing>,
    game: String,
    token: Token,
) {
    while let Some(incoming) = task.endpoint.accept().await {
        let Some((connection, mut send, recv, hello)) = admit::greeted(incoming).await else {
            continue;
        };
        if let Some(why) = admit::refusal(&hello, &game, &token) {
            admit::answer_and_close(connection, send, Frame::Refused { why: why.clone() }).await;
            task.say(Event::Refused(why));
            continue;
        }
        let Frame::Hello {
            program,
            received,
            session,
            met,
            ..
        } = hello
        else {
            unreachable!("refused above")
        };
        let (restarted, ours) = {
            let mut numbers = task.numbers.lock().expect("not poisoned");
            (numbers.meet(session), numbers.received)
        };
        let received = Numbers::they_have(task.session, met, received);
        let welcome = Frame::Welcome {
            protocol: PROTOCOL,
            program: PROGRAM.into(),
            session: task.session,
            // Its count is of his session now (started again if new).
            met: Some(session),
            received: ours,
        };
        if frame::write(&mut send, &welcome).await.is_err() {
            continue;
        }
        task.say(Event::Connected { program, restarted });
        // While the seat is held, another dial hears why it waits.
        let bouncer = tokio::spawn(admit::bounce(task.endpoint.clone(), game.clone(), token));
        let why = carry(&task, &connection, send, recv, &mut outgoing, received).await;
        bouncer.abort();
        task.say(Event::Dropped(why));
    }
}

/// The joiner's loop: dials the host, and again after a drop.
async fn join_loop(task: Task, mut outgoing: tmpsc::UnboundedReceiver<Outgoing>, ticket: Ticket) {
    loop {
        match join_once(&task, &mut outgoing, &ticket).await {
            Ok(why) => task.say(Event::Dropped(why)),
            Err(Refusal::Final(why)) => {
                task.say(Event::Refused(why));
                return;
            }
            Err(Refusal::Again(why)) => task.say(Event::Dropped(why)),
        }
        if task.endpoint.is_closed() {
            return;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Why a dial did not carry the game.
enum Refusal {
    /// Dial again: the host is not reachable now.
    Again(String),
    /// Do not: the host refused the ticket.
    Final(String),
}

/// One dial and, once welcomed, the connection carried until it drops.
async fn join_once(
    task: &Task,
    outgoing: &mut tmpsc::UnboundedReceiver<Outgoing>,
    ticket: &Ticket,
) -> Result<String, Refusal> {
    let again = |what: &str, e: &dyn std::fmt::Display| Refusal::Again(format!("{what} ({e})"));
    let connection = task
        .endpoint
        .connect(ticket.host.clone(), ALPN)
        .await
        .map_err(|e| again("the host's machine does not answer", &e))?;
    let (mut send, mut recv) = connection
        .open_bi()
        .await
        .map_err(|e| again("the connection ended", &e))?;
    let (met, received) = {
        let numbers = task.numbers.lock().expect("not poisoned");
        (numbers.peer, numbers.received)
    };
    let hello = Frame::Hello {
        protocol: PROTOCOL,
        program: PROGRAM.into(),
        game: ticket.game.clone(),
        token: ticket.token,
        session: task.session,
        met,
        received,
    };
    frame::write(&mut send, &hello)
        .await
        .map_err(|e| again("the connection ended", &e))?;
    match frame::read(&mut recv).await.map_err(Refusal::Again)? {
        Frame::Welcome {
            protocol, program, ..
        } if protocol != PROTOCOL => Err(Refusal::Final(format!(
            "the host runs {program}, which speaks remote protocol {protocol}; this one speaks {PROTOCOL}: both need the same Muster"
        ))),
        Frame::Welcome {
            program,
            received,
            session,
            met,
            ..
        } => {
            let restarted = task.numbers.lock().expect("not poisoned").meet(session);
            let received = Numbers::they_have(task.session, met, received);
            task.say(Event::Connected { program, restarted });
            Ok(carry(task, &connection, send, recv, outgoing, received).await)
        }
        Frame::Refused { why } => Err(Refusal::Final(why)),
        Frame::Busy { why } => Err(Refusal::Again(why)),
        _ => Err(Refusal::Final(
            "the host's machine did not answer as Muster does".into(),
        )),
    }
}

/// Carries messages both ways on a welcomed connection until it drops:
/// first what the other end has not had (`they_have` of ours arrived),
/// then each new one; each arriving message is acknowledged. Why it
/// dropped, in words.
async fn carry(
    task: &Task,
    connection: &Connection,
    mut send: SendStream,
    mut recv: RecvStream,
    outgoing: &mut tmpsc::UnboundedReceiver<Outgoing>,
    they_have: u64,
) -> String {
    let resend: Vec<(u64, String)> = {
        let mut numbers = task.numbers.lock().expect("not poisoned");
        numbers.unacked.retain(|(n, _)| *n >= they_have);
        numbers.unacked.iter().cloned().collect()
    };
    for (number, body) in resend {
        if let Err(e) = frame::write(&mut send, &Frame::Message { number, body }).await {
            return frame::ended(&e);
        }
    }
    // Frames are read on a task of their own: a read cut off halfway by
    // the select below would lose its bytes.
    let (frames_tx, mut frames) = tmpsc::channel(64);
    let reader = tokio::spawn(async move {
        loop {
            let read = frame::read(&mut recv).await;
            let end = read.is_err();
            if frames_tx.send(read).await.is_err() || end {
                return;
            }
        }
    });
    let why = loop {
        tokio::select! {
            () = task.cut.notified() => break "the connection was cut".to_string(),
            body = outgoing.recv() => {
                let Some((told, body)) = body else { break "this machine left the game".to_string() };
                let number = {
                    let mut numbers = task.numbers.lock().expect("not poisoned");
                    if told < numbers.restarts {
                        numbers.queued -= 1;
                        continue;
                    }
                    let number = numbers.next;
                    numbers.next += 1;
                    numbers.unacked.push_back((number, body.clone()));
                    number
                };
                if let Err(e) = frame::write(&mut send, &Frame::Message { number, body }).await {
                    break frame::ended(&e);
                }
            }
            frame = frames.recv() => {
                match frame {
                    Some(Ok(Frame::Message { number, body })) => {
                        let received = {
                            let mut numbers = task.numbers.lock().expect("not poisoned");
                            if number == numbers.received {
                                numbers.received += 1;
                                task.say(Event::Message(body));
                            } else if number > numbers.received {
                                break format!(
                                    "message {} arrived before message {}: the link is reset",
                                    number, numbers.received
                                );
                            }
                            // (An earlier one again, after a drop: had already.)
                            numbers.received
                        };
                        if let Err(e) = frame::write(&mut send, &Frame::Ack { received }).await {
                            break frame::ended(&e);
                        }
                    }
                    Some(Ok(Frame::Ack { received })) => {
                        let mut numbers = task.numbers.lock().expect("not poisoned");
                        numbers.unacked.retain(|(n, _)| *n >= received);
                    }
                    Some(Ok(Frame::Refused { why })) => break why,
                    Some(Ok(_)) => break "the other machine greeted again mid-game".into(),
                    Some(Err(why)) => break why,
                    None => break "the connection ended".into(),
                }
            }
        }
    };
    reader.abort();
    connection.close(0u32.into(), b"dropped");
    why
}
