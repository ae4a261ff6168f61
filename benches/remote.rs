//! A remote game's move from a click on the joiner's window until both
//! windows have drawn it (issue 48; figures in the manual's speed chapter),
//! on the path the players take: the two Musters' shells as they run for
//! players (autosave on, each its own link on its own thread), joined by
//! a ticket through a relay on 127.0.0.1, directly or through the relay
//! alone. The move is South's camp, placed from his machine: his machine
//! decides it, the host's follows it by the rules and sends it back in
//! order, his follows it again. Each sample is a fresh pair of windows
//! (the camp is placed once a battle). Beside it, a frame of each window
//! with nothing new (what a click costs with no network at all).
//!
//! Both windows run in egui_kittest in this one process, stepped in turn:
//! a frame is built and tessellated as in the real window, but not handed
//! to the graphics card or shown; the network between two real machines
//! (its round trip, added once to a move) is not in it, nor a delay:
//! `tc netem` is not in this machine's kernel.
//!
//! `cargo bench --bench remote`.

#![allow(dead_code, unused_imports, clippy::all)]

#[path = "../src/app/mod.rs"]
mod app;
#[path = "../tests/support/browser.rs"]
mod browser;
#[path = "../src/app/pairing.rs"]
mod pairing;
#[path = "../src/systems.rs"]
mod systems;

use app::remote_tests::{H, entries, joined, same_log, until};
use app::tests::{click, click_table};
use egui_kittest::kittest::Queryable;
use std::time::{Duration, Instant};

/// The sample's move, timed: from the click to the first frame of each
/// window drawn after its log holds the move (joiner, host).
fn one(net: &muster_remote::Net) -> (Duration, Duration, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let (mut host, mut joiner, _) = joined(dir.path(), net);
    click_table(&mut host, [45.0, 45.0]);
    click(&mut host, "Place camp");
    until(&mut [&mut host, &mut joiner], "North's camp", same_log);
    // A frame with nothing new, for comparison.
    let bare = Instant::now();
    joiner.step();
    let bare = bare.elapsed();
    click_table(&mut joiner, [36.0, 6.0]);
    let n = entries(&host) + 1;
    let start = Instant::now();
    joiner.get_by_label("Place camp").click();
    let (mut on_joiner, mut on_host) = (None, None);
    while on_joiner.is_none() || on_host.is_none() {
        for (h, at) in [(&mut joiner, &mut on_joiner), (&mut host, &mut on_host)] {
            let had = entries(h) == n;
            h.step();
            // The frame after the one whose end took the move draws it.
            if had && at.is_none() {
                *at = Some(start.elapsed());
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the move did not cross"
        );
    }
    (on_joiner.unwrap(), on_host.unwrap(), bare)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    // `cargo test --benches` runs each bench once to check it runs: this
    // one measures only when asked (`cargo bench`).
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let relay = muster_testkit::relay::local_relay();
    for (what, direct) in [("direct", true), ("through the relay", false)] {
        let net = muster_remote::Net {
            direct,
            ..relay.net.clone()
        };
        let samples: Vec<_> = (0..9).map(|_| one(&net)).collect();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "remote move {what}: joiner's window {:.1} ms, host's window {:.1} ms (medians of {}); a bare frame {:.1} ms",
            ms(median(samples.iter().map(|s| s.0).collect())),
            ms(median(samples.iter().map(|s| s.1).collect())),
            samples.len(),
            ms(median(samples.iter().map(|s| s.2).collect())),
        );
    }
}
