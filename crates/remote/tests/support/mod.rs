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
