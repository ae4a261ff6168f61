//! A remote game's speed over the wire, on this machine (`cargo bench -p
//! muster-remote --bench wire`; figures in the manual's speed chapter):
//! a bare round trip on the link (a message there and its answer back),
//! beside a command given on the joiner's machine until its entry is back
//! in his log in order (his machine decides it, the host's follows it by
//! the rules and sends it back in order, his follows it again), through
//! the test relay on 127.0.0.1 and directly between the two endpoints'
//! loopback sockets. No delay is added: a kernel's netem is needed for
//! that, which this machine lacks (the chapter says so).

#[path = "../tests/support/mod.rs"]
mod support;

use criterion::{Criterion, criterion_group, criterion_main};
use muster_core::remote::{Happened, Play, Replica};
use muster_core::side::Side;
use muster_fog::battle::Command;
use muster_fog::examples::{TERRAIN_BATTLE, terrain_battle};
use muster_fog::files::battle_from_json;
use muster_remote::{Event, Link, Net, Remote, Said};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use support::{local_relay, no_wake};

/// The two endpoints through the relay alone, or also directly.
fn net(relay: &support::LocalRelay, direct: bool) -> Net {
    let mut net = relay.net.clone();
    net.direct = direct;
    net
}

/// The message's wait: long, as the link answers at once.
const WAIT: Duration = Duration::from_secs(10);

fn round_trip(c: &mut Criterion) {
    let relay = local_relay();
    for (name, direct) in [("direct", true), ("relay", false)] {
        let (host, ticket) =
            Link::host(net(&relay, direct), "bench".into(), Side::South, no_wake()).unwrap();
        let joiner = Link::join(net(&relay, direct), ticket, no_wake()).unwrap();
        // Connected, and (direct) on the direct path.
        host.send("warm".into());
        while !matches!(joiner.wait(WAIT), Some(Event::Message(_))) {}
        std::thread::sleep(Duration::from_millis(500));
        let echo = Arc::new(AtomicBool::new(true));
        let running = echo.clone();
        let echoer = std::thread::spawn(move || {
            while running.load(Ordering::Relaxed) {
                if let Some(Event::Message(m)) = joiner.wait(Duration::from_millis(50)) {
                    joiner.send(m);
                }
            }
        });
        c.bench_function(&format!("wire/round_trip/{name}"), |b| {
            b.iter_custom(|n| {
                let start = Instant::now();
                for i in 0..n {
                    host.send(i.to_string());
                    while !matches!(host.wait(WAIT), Some(Event::Message(_))) {}
                }
                start.elapsed()
            })
        });
        echo.store(false, Ordering::Relaxed);
        echoer.join().unwrap();
    }
}

/// A command given on the joiner's machine, until it is back in his log.
fn command(c: &mut Criterion) {
    let relay = local_relay();
    for (name, direct) in [("direct", true), ("relay", false)] {
        let mut host_game = battle_from_json(TERRAIN_BATTLE).unwrap();
        let mut game = terrain_battle();
        let (host_link, ticket) = Link::host(
            net(&relay, direct),
            host_game.game_id().into(),
            Side::South,
            no_wake(),
        )
        .unwrap();
        let host_play = Play::host(&mut host_game, Side::South).unwrap();
        let link = Link::join(net(&relay, direct), ticket, no_wake()).unwrap();
        let mut remote = Remote::new(Play::joiner(&mut game, Side::South), link);
        let running = Arc::new(AtomicBool::new(true));
        let still = running.clone();
        let host = std::thread::spawn(move || {
            let mut host = Remote::new(host_play, host_link);
            while still.load(Ordering::Relaxed) {
                if let Some(event) = host.link().wait(Duration::from_millis(50)) {
                    host.take(&mut host_game, event);
                }
            }
        });
        // Until the host's commitments and tags have arrived.
        let until = Instant::now() + Duration::from_secs(2);
        while Instant::now() < until {
            remote.poll(&mut game);
            std::thread::sleep(Duration::from_millis(10));
        }
        let mut settings = game.state().settings.clone();
        let mut turn = 0u64;
        c.bench_function(&format!("wire/command/{name}"), |b| {
            b.iter_custom(|n| {
                let start = Instant::now();
                for _ in 0..n {
                    turn += 1;
                    settings.title = format!("Bench {turn}");
                    let given = Command::Configure {
                        settings: settings.clone(),
                    };
                    assert_eq!(
                        remote.give(&mut game, given),
                        Ok(Happened::Waiting),
                        "the joiner's own move waits for the host"
                    );
                    'back: loop {
                        let event = remote.link().wait(WAIT).expect("the host answers");
                        for said in remote.take(&mut game, event) {
                            if said == Said::Game(Happened::Appended) {
                                break 'back;
                            }
                        }
                    }
                }
                start.elapsed()
            })
        });
        running.store(false, Ordering::Relaxed);
        host.join().unwrap();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    targets = round_trip, command
}
criterion_main!(benches);
