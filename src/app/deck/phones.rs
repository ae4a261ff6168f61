//! The action deck on the players' phones, driven as two players would: the
//! laptop starts the players' screens on 127.0.0.1, each player's phone
//! (a socket of the test, speaking the page's sealed protocol) joins its
//! seat, the passive player is asked on his phone and the active player
//! plays from his, with no hand-over screen at all.

use crate::app::MusterApp;
use crate::app::tests::{click, shows_none};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use futures_util::{SinkExt, StreamExt};
use muster::core::screen::{Block, Screen};
use muster::core::side::Side;
use muster::seats::channel::Channel;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn bytes<const N: usize>(hex: &str) -> [u8; N] {
    let mut out = [0; N];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap();
    }
    out
}

/// A player's phone on his seat's URL, as the page speaks to the laptop.
struct Phone {
    runtime: tokio::runtime::Runtime,
    socket: Socket,
    channel: Channel,
    /// Every screen it was sent, in order.
    seen: Vec<Screen>,
}

impl Phone {
    fn join(url: &str) -> Phone {
        let rest = url.strip_prefix("http://").unwrap();
        let (host, rest) = rest.split_once("/seat/").unwrap();
        let (token, key) = rest.split_once("#k=").unwrap();
        let (token, key) = (bytes::<16>(token), bytes::<32>(key));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let phone = [0x3c; 16];
        let hex = |b: &[u8]| b.iter().map(|b| format!("{b:02x}")).collect::<String>();
        let ws = format!("ws://{host}/ws/{}?c={}", hex(&token), hex(&phone));
        let (socket, channel) = runtime.block_on(async {
            let (mut socket, _) = tokio_tungstenite::connect_async(ws).await.unwrap();
            let Some(Ok(Message::Text(hello))) = socket.next().await else {
                panic!("no hello");
            };
            let hello: serde_json::Value = serde_json::from_str(&hello).unwrap();
            let laptop = bytes::<16>(hello["hello"].as_str().unwrap());
            let mut channel = Channel::phone(&key, token, phone, laptop);
            let device = format!(r#"{{"device":"{}"}}"#, hex(&[9; 16]));
            let frame = channel.seal(device.as_bytes()).unwrap();
            socket.send(Message::Binary(frame.into())).await.unwrap();
            (socket, channel)
        });
        Phone {
            runtime,
            socket,
            channel,
            seen: Vec::new(),
        }
    }

    /// The screens sent since the last look; the latest.
    fn look(&mut self) -> &Screen {
        let (socket, channel, seen) = (&mut self.socket, &mut self.channel, &mut self.seen);
        self.runtime.block_on(async {
            let wait = if seen.is_empty() { 5000 } else { 300 };
            while let Ok(Some(Ok(Message::Binary(frame)))) =
                tokio::time::timeout(Duration::from_millis(wait), socket.next()).await
            {
                let message: serde_json::Value =
                    serde_json::from_slice(&channel.open(&frame).unwrap()).unwrap();
                seen.push(serde_json::from_value(message["screen"].clone()).unwrap());
            }
        });
        self.seen.last().expect("a screen was sent")
    }

    /// Taps the button `label` of the screen he sees.
    fn tap(&mut self, label: &str) {
        let command = {
            let screen = self.look();
            let actions = screen.blocks.iter().flat_map(|b| match b {
                Block::Actions { actions } | Block::Item { actions, .. } => actions.clone(),
                Block::Form { actions, .. } => actions.clone(),
                _ => Vec::new(),
            });
            let mut actions = actions;
            let action = actions
                .find(|a| a.label == label)
                .unwrap_or_else(|| panic!("no {label:?} on {screen:?}"));
            assert!(action.refused.is_none(), "{label} is refused");
            action.command
        };
        let reply = serde_json::json!({"reply": {"command": command, "values": {}}});
        let frame = self.channel.seal(reply.to_string().as_bytes()).unwrap();
        self.runtime
            .block_on(self.socket.send(Message::Binary(frame.into())))
            .unwrap();
    }
}

/// Runs the window until `done` (the phone's answer crossed the server).
fn until(h: &mut Harness<'_, MusterApp>, done: impl Fn(&Harness<'_, MusterApp>) -> bool) {
    for _ in 0..300 {
        h.run();
        if done(h) {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the phone's answer never reached the window");
}

#[test]
fn a_deck_turn_played_from_both_phones_needs_no_hand_over() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = crate::app::tests::new_small_deck_game(dir.path());
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    let ctx = h.ctx.clone();
    let players = &mut h.state_mut().players;
    players.start("127.0.0.1:0".parse().unwrap(), &ctx).unwrap();
    let mut decius = Phone::join(&players.pair(Side::South).unwrap());
    let mut artagur = Phone::join(&players.pair(Side::North).unwrap());
    until(&mut h, |h| {
        h.query_by_label("Artagur: on his phone").is_some()
    });
    h.get_by_label("Decius: on his phone");
    assert!(decius.look().title.starts_with("Decius's hand"));
    assert!(artagur.look().title.starts_with("Artagur's hand"));

    // Rally: Artagur is asked on his phone; the laptop only waits.
    click(&mut h, "End the event phase");
    click(&mut h, "Play the rally phase");
    h.get_by_label_contains("Waiting for Artagur: he is asked on his phone");
    assert!(h.query_by_label_contains("Pass the laptop").is_none());
    h.run();
    artagur.tap("No interrupt");
    until(&mut h, |h| {
        h.query_by_label_contains("Waiting for Artagur").is_none()
    });
    h.run();
    decius.tap("Play Alpha for rally");
    until(&mut h, |h| {
        h.state()
            .system::<super::DeckWindow>()
            .and_then(|w| w.engine())
            .is_some_and(|g| {
                g.log_lines()
                    .iter()
                    .any(|l| l.contains("Decius plays Alpha"))
            })
    });
    // No hand-over screen was ever needed, the table names no card of a
    // hand, and each phone was only ever sent its own player's screens.
    assert!(h.query_by_label_contains("show my cards").is_none());
    let game = h
        .state()
        .system::<super::DeckWindow>()
        .unwrap()
        .engine()
        .unwrap();
    let hands: Vec<String> = Side::BOTH
        .into_iter()
        .flat_map(|side| game.zones(side).unwrap().hand.clone())
        .filter(|id| !game.public().shown.iter().any(|s| s.card == *id))
        .filter_map(|id| game.set().card(&id).map(|c| c.title.clone()))
        .collect();
    shows_none(&h, &hands);
    decius.look();
    artagur.look();
    assert!(decius.seen.iter().all(|s| s.title.starts_with("Decius")));
    assert!(artagur.seen.iter().all(|s| s.title.starts_with("Artagur")));
}
