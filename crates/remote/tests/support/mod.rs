//! A relay on this machine and endpoints that use nothing else: every
//! test of the remote seat runs here. The relay is iroh's test relay on
//! 127.0.0.1 with a self-signed certificate; the endpoints bind 127.0.0.1
//! alone, publish nothing and look nothing up.

#![allow(dead_code)]

use muster_remote::{Event, Link, Wake};
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
