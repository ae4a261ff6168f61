//! A relay on this machine and endpoints that use nothing else: every
//! test of the remote seat runs here. The relay is iroh's test relay on
//! 127.0.0.1 with a self-signed certificate; the endpoints bind 127.0.0.1
//! alone, publish nothing and look nothing up.

#![allow(dead_code)]

use muster_core::remote::{Happened, Replica};
use muster_remote::{Event, Link, Remote, Said, Wake};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[allow(unused_imports)]
pub use muster_testkit::relay::{LocalRelay, local_relay, ran_in_loopback_namespace};

/// A waker that does nothing (the tests wait on the link instead).
pub fn no_wake() -> Wake {
    Arc::new(|| {})
}

/// The next message on `link`, the link's other events gathered in
/// `seen`; `None` if none came within 20 seconds (a generous bound on a
/// loaded machine, not a measurement).
pub fn next_message(link: &Link, seen: &mut Vec<Event>) -> Option<String> {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        match link.wait(Duration::from_millis(100)) {
            Some(Event::Message(m)) => return Some(m),
            Some(other) => seen.push(other),
            None => {}
        }
    }
    None
}

/// Waits for the first event `want` picks, gathering the others.
pub fn wait_for(link: &Link, seen: &mut Vec<Event>, want: impl Fn(&Event) -> bool) -> bool {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        if let Some(event) = link.wait(Duration::from_millis(100)) {
            let found = want(&event);
            seen.push(event);
            if found {
                return true;
            }
        }
    }
    false
}

/// One machine of a remote game: its game, its end, and everything it
/// received, as its program would log it.
pub struct Machine<G: Replica> {
    pub game: G,
    pub remote: Remote<G>,
    pub received: Vec<String>,
    pub said: Vec<Said>,
}

impl<G: Replica> Machine<G> {
    pub fn new(game: G, remote: Remote<G>) -> Machine<G> {
        Machine {
            game,
            remote,
            received: Vec::new(),
            said: Vec::new(),
        }
    }

    /// Takes what arrived; whether anything did.
    pub fn poll(&mut self) -> bool {
        let mut any = false;
        while let Some(event) = self.remote.link().next() {
            if let Event::Message(body) = &event {
                self.received.push(body.clone());
            }
            let said = self.remote.take(&mut self.game, event);
            self.said.extend(said);
            any = true;
        }
        any
    }

    pub fn troubles(&self) -> Vec<&Said> {
        self.said
            .iter()
            .filter(|s| matches!(s, Said::Game(Happened::Trouble(_)) | Said::Overdue(_)))
            .collect()
    }
}

/// Carries messages until both machines are quiet: nothing arrived,
/// everything sent acknowledged, no move waiting.
pub fn settle<G: Replica>(host: &mut Machine<G>, joiner: &mut Machine<G>) {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let moved = host.poll() | joiner.poll();
        let quiet = !moved
            && host.remote.settled()
            && joiner.remote.settled()
            && !host.remote.busy()
            && !joiner.remote.busy();
        if quiet {
            return;
        }
        assert!(Instant::now() < until, "the machines did not settle");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The host's game (`host_game`, its player's key held) hosted for
/// `away`, whose machine has only the ticket: it receives the game and
/// plays it; both settled.
pub fn hosted<G: Replica>(
    relay: &LocalRelay,
    mut host_game: G,
    away: muster_core::side::Side,
) -> (Machine<G>, Machine<G>) {
    use muster_remote::opening::{self, Joining};
    let id = host_game.game_id().to_owned();
    let (host_link, ticket) =
        Link::host(relay.net.clone(), id, away, no_wake()).expect("the host's end");
    let host_remote = opening::host(&mut host_game, away, host_link).expect("commitments");
    let mut joining = Joining::new(Link::join(relay.net.clone(), ticket, no_wake()).unwrap());
    let until = Instant::now() + Duration::from_secs(20);
    let arrived = loop {
        match joining.poll::<G>().expect("the game reads") {
            Ok(arrived) => break arrived,
            Err(still) => joining = still,
        }
        assert!(Instant::now() < until, "the game did not arrive");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(arrived.seat, away);
    let (mut joiner_game, unlocking) = arrived.split();
    let (joiner_remote, _) = unlocking.play(&mut joiner_game);
    let mut host = Machine::new(host_game, host_remote);
    let mut joiner = Machine::new(joiner_game, joiner_remote);
    settle(&mut host, &mut joiner);
    (host, joiner)
}

/// `command` given on `side`'s machine (North's is the joiner's), then
/// carried until both are quiet; neither may refuse anything.
pub fn give<G: Replica>(
    host: &mut Machine<G>,
    joiner: &mut Machine<G>,
    side: muster_core::side::Side,
    command: G::Command,
) {
    let machine = if side == muster_core::side::Side::North {
        &mut *joiner
    } else {
        &mut *host
    };
    machine
        .remote
        .give(&mut machine.game, command)
        .unwrap_or_else(|e| panic!("{side}'s command refused: {e}"));
    settle(host, joiner);
    assert!(host.troubles().is_empty(), "{:?}", host.troubles());
    assert!(joiner.troubles().is_empty(), "{:?}", joiner.troubles());
}

/// Each machine has said the other's records, opened at the game's end,
/// hold.
pub fn both_audited<G: Replica>(host: &Machine<G>, joiner: &Machine<G>) {
    for machine in [host, joiner] {
        assert!(
            machine
                .said
                .iter()
                .any(|s| matches!(s, Said::Game(Happened::Audited(_)))),
            "{:?}",
            machine.said
        );
    }
}
