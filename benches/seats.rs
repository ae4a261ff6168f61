//! The players' screens are fast (`cargo bench --bench seats`; figures in
//! the manual's speed chapter): through the real server and socket on 127.0.0.1, a screen
//! from the laptop until the phone has opened it, and a tap on the phone
//! until the window has it (goal: under 50 ms each); a tap on the ambush
//! table answered: the legality map for one battle group worked out anew,
//! the screen with it sent until the phone has opened it (goal: under
//! 100 ms).

use criterion::{Criterion, criterion_group, criterion_main};
use futures_util::{SinkExt, StreamExt};
use muster::core::side::Side;
use muster::seats::channel::Channel;
use muster::seats::protocol::{FromPage, Hello, ToPage, VERSION};
use muster::seats::server::FromPhone;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

#[path = "../tests/support/browser.rs"]
mod browser;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The phone's side: the next screen off its socket, opened.
fn receive(runtime: &tokio::runtime::Runtime, socket: &mut Socket, channel: &mut Channel) {
    runtime.block_on(async {
        // Past the server's pings and the laptop's beats.
        loop {
            match socket.next().await {
                Some(Ok(Message::Binary(frame))) => {
                    let message: ToPage =
                        serde_json::from_slice(&channel.open(&frame).unwrap()).unwrap();
                    if matches!(message, ToPage::Screen { .. }) {
                        return;
                    }
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                _ => panic!("no screen"),
            }
        }
    });
}

fn benches(c: &mut Criterion) {
    let server = browser::polled();
    let inbox = &server.inbox;
    let pairing = server.pair(Side::South).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let phone = [1; 16];
    let url = format!(
        "ws://{}/ws/{}?c={}",
        server.addr(),
        hex(&pairing.token),
        hex(&phone)
    );
    // A hand of seven cards, as the deck's screen describes it.
    let screen = |n: u64| {
        let cards: Vec<serde_json::Value> = (0..7)
            .map(|i| serde_json::json!({"block": "item", "title": format!("Card {i}"),
                "text": "Play at the start of a turn; one unit moves at once.",
                "actions": [{"label": format!("Play Card {i} for laurels"), "command": {"cmd": "play", "n": i}}]}))
            .collect();
        let screen =
            serde_json::json!({"title": format!("Decius's hand, version {n}"), "blocks": cards});
        ToPage::screen(&screen)
    };
    server.show(Side::South, screen(0));
    let (mut socket, mut channel) = runtime.block_on(async {
        let (mut socket, _) = tokio_tungstenite::connect_async(browser::page_socket(&url))
            .await
            .unwrap();
        let Some(Ok(Message::Text(hello))) = socket.next().await else {
            panic!("no hello");
        };
        let hello: Hello = serde_json::from_str(&hello).unwrap();
        let text = &hello.laptop;
        let mut laptop = [0; 16];
        for (i, b) in laptop.iter_mut().enumerate() {
            *b = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).unwrap();
        }
        let mut channel = Channel::phone(&pairing.key, pairing.token, phone, laptop);
        let join = FromPage::Join {
            version: VERSION,
            device: "0101010101010101010101010101010a".into(),
        };
        let device = channel.seal(join.text().as_bytes()).unwrap();
        socket.send(Message::Binary(device.into())).await.unwrap();
        let Some(Ok(Message::Binary(first))) = socket.next().await else {
            panic!("no screen");
        };
        channel.open(&first).unwrap();
        (socket, channel)
    });
    let mut group = c.benchmark_group("players' screens");
    let mut version = 0;
    group.bench_function(
        "a hand from the laptop until the phone has opened it",
        |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    version += 1;
                    let start = Instant::now();
                    server.show(Side::South, screen(version));
                    receive(&runtime, &mut socket, &mut channel);
                    total += start.elapsed();
                }
                total
            })
        },
    );
    group.bench_function("a tap on the phone until the window has it", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                let reply = channel
                    .seal(
                        br#"{"type":"reply","reply":{"command":{"cmd":"play","n":3},"values":{}}}"#,
                    )
                    .unwrap();
                runtime
                    .block_on(socket.send(Message::Binary(reply.into())))
                    .unwrap();
                while !inbox
                    .try_iter()
                    .any(|e| matches!(e, FromPhone::Message(..)))
                {
                    std::thread::yield_now();
                }
                total += start.elapsed();
            }
            total
        })
    });
    // The shipped battle; South picks his Syrian archers and a point.
    let battle =
        muster::fog::files::battle_from_json(muster::fog::examples::TERRAIN_BATTLE).unwrap();
    let key = battle
        .seal_key(Side::South, muster::fog::examples::EXAMPLE_PASSPHRASE)
        .unwrap();
    let archers = battle
        .state()
        .armies
        .south
        .as_ref()
        .unwrap()
        .bgs
        .iter()
        .position(|b| b.name == "Syrian archers")
        .unwrap();
    // Each tap a point of its own: a screen the phone has is not sent again.
    let tap = |n: u64| -> muster::fog::screens::Form {
        use muster::fog::screens::SecretField;
        [
            (SecretField::Content, vec![format!("bg {archers}")]),
            (
                SecretField::At,
                vec![format!("18 {}", 10.0 + (n % 100) as f64 / 10.0)],
            ),
        ]
        .into_iter()
        .collect()
    };
    let mut taps = 0;
    group.bench_function(
        "a tap on the ambush table answered: a battle group's legality map, to the phone",
        |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let start = Instant::now();
                    // A fresh cache: the map is worked out, as for a new pick.
                    let mut maps = muster::fog::battle::AmbushMaps::default();
                    taps += 1;
                    let screen = muster::fog::screens::ambushes(
                        &battle,
                        Side::South,
                        &key,
                        &tap(taps),
                        &mut maps,
                    )
                    .unwrap();
                    server.show(Side::South, ToPage::screen(&screen));
                    receive(&runtime, &mut socket, &mut channel);
                    total += start.elapsed();
                }
                total
            })
        },
    );
    group.finish();
}

criterion_group!(seats_benches, benches);
criterion_main!(seats_benches);
