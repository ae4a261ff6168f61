//! The players' phones in tests, for every system (tests only): a phone
//! that joins its seat from the code read back from the window, as a
//! phone's camera would, and speaks the page's sealed protocol over a
//! socket on 127.0.0.1 (`Phone`); the window run until a phone's message
//! has crossed (`until`); and the browser's own kit (`browser`, for the
//! headless Chromium tests in `chromium`).

#[path = "../../tests/support/browser.rs"]
pub(crate) mod browser;

use crate::app::MusterApp;
use egui_kittest::Harness;
use futures_util::{SinkExt, StreamExt};
use muster::core::hexmap::Hex;
use muster::core::screen::{Block, Screen};
use muster::core::side::Side;
use muster::seats::channel::Channel;
use muster::seats::protocol::{FromPage, Hello, Raw, ToPage};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// A screen as the page sees it: its answers and its fields' names as the
/// JSON they cross in, whatever system sent it.
pub(crate) type Seen = Screen<serde_json::Value, String>;

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
pub(crate) struct Phone {
    pub(crate) runtime: tokio::runtime::Runtime,
    pub(crate) socket: Socket,
    channel: Channel,
    /// Every screen it was sent, in order.
    pub(crate) seen: Vec<Seen>,
}

impl Phone {
    pub(crate) fn join(url: &str) -> Phone {
        Phone::join_as(url, [9; 16])
    }

    /// A phone of its own (`device`: the id its page keeps) on `url`.
    pub(crate) fn join_as(url: &str, device: [u8; 16]) -> Phone {
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
            let (mut socket, _) = tokio_tungstenite::connect_async(browser::page_socket(&ws))
                .await
                .unwrap();
            let Some(Ok(Message::Text(hello))) = socket.next().await else {
                panic!("no hello");
            };
            let hello: Hello = serde_json::from_str(&hello).unwrap();
            let laptop = bytes::<16>(&hello.laptop);
            let mut channel = Channel::phone(&key, token, phone, laptop);
            let join = FromPage::Join {
                version: hello.version,
                device: hex(&device),
            };
            let frame = channel.seal(join.text().as_bytes()).unwrap();
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
    pub(crate) fn look(&mut self) -> &Seen {
        let (socket, channel, seen) = (&mut self.socket, &mut self.channel, &mut self.seen);
        self.runtime.block_on(async {
            // Screens until 300 ms pass with none (the first may take
            // longer); the server's pings, answered by the socket itself,
            // do not count as one.
            let wait = |ms| tokio::time::Instant::now() + Duration::from_millis(ms);
            let mut quiet_until = wait(if seen.is_empty() { 5000 } else { 300 });
            while let Ok(Some(Ok(message))) =
                tokio::time::timeout_at(quiet_until, socket.next()).await
            {
                let Message::Binary(frame) = message else {
                    if message.is_ping() || message.is_pong() {
                        continue;
                    }
                    break;
                };
                let message: ToPage =
                    serde_json::from_slice(&channel.open(&frame).unwrap()).unwrap();
                // The laptop's beat says it is there, nothing new.
                if let ToPage::Screen { screen } = message {
                    seen.push(serde_json::from_str(screen.get()).unwrap());
                    quiet_until = wait(300);
                }
            }
        });
        self.seen.last().expect("a screen was sent")
    }

    /// The close code its socket ends with, past what else it is sent.
    pub(crate) fn closed_with(&mut self) -> u16 {
        let socket = &mut self.socket;
        self.runtime.block_on(async {
            loop {
                let next = tokio::time::timeout(Duration::from_secs(5), socket.next()).await;
                match next.expect("an answer within 5 s") {
                    Some(Ok(Message::Close(frame))) => return frame.map_or(0, |f| f.code.into()),
                    Some(Ok(_)) => {}
                    other => panic!("closed with no close frame: {other:?}"),
                }
            }
        })
    }

    /// Every screen his phone was sent so far, as it crossed the socket
    /// (opened), to search for what he must never see.
    pub(crate) fn everything_seen(&mut self) -> String {
        self.look();
        serde_json::to_string(&self.seen).unwrap()
    }

    /// Fills his form as the page does while he picks and types: the
    /// values go to the laptop, which sends the form back with its checks.
    pub(crate) fn fill(&mut self, values: serde_json::Value) {
        self.send(FromPage::Values {
            values: Raw::of(&values),
        });
    }

    /// Sends one message, sealed, as the page does.
    pub(crate) fn send(&mut self, message: FromPage) {
        let frame = self.channel.seal(message.text().as_bytes()).unwrap();
        self.runtime
            .block_on(self.socket.send(Message::Binary(frame.into())))
            .unwrap();
    }

    /// Drags a counter on his map through `hexes` (its own first), as the
    /// page sends a finger's trace.
    pub(crate) fn drag(&mut self, hexes: &[&str]) {
        let hexes = hexes.iter().map(|h| Hex::parse(h).unwrap()).collect();
        self.send(FromPage::Drag {
            hexes,
            counter: None,
        });
    }

    /// Sends `command` as his answer, whatever his screen offers: what a
    /// forged page would send.
    pub(crate) fn forge(&mut self, command: serde_json::Value) {
        let reply = serde_json::json!({ "command": command, "values": {} });
        self.send(FromPage::Reply {
            reply: Raw::of(&reply),
        });
    }

    /// Taps the button `label` of the screen he sees.
    pub(crate) fn tap(&mut self, label: &str) {
        self.tap_with(label, serde_json::json!({}));
    }

    /// Types `values` into the screen's fields, then taps `label`.
    pub(crate) fn tap_with(&mut self, label: &str, values: serde_json::Value) {
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
        let reply = serde_json::json!({ "command": command, "values": values });
        self.send(FromPage::Reply {
            reply: Raw::of(&reply),
        });
    }
}

/// Runs the window until `done` (the phone's answer crossed the server).
pub(crate) fn until(
    h: &mut Harness<'_, MusterApp>,
    done: impl Fn(&Harness<'_, MusterApp>) -> bool,
) {
    let deadline = std::time::Instant::now() + crate::app::chromium::WAIT;
    while std::time::Instant::now() < deadline {
        h.run();
        crate::app::chromium::every_message_was_typed(h);
        if done(h) {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the phone's answer never reached the window");
}

/// Starts the players' screens on 127.0.0.1 from the menu and pairs a
/// phone for each of `sides`, in order, each reading its code from the
/// window as a phone's camera would.
pub(crate) fn phones(h: &mut Harness<'_, MusterApp>, sides: &[Side]) -> Vec<Phone> {
    let phones = sides
        .iter()
        .map(|side| {
            let name = h.state_mut().seat_names()[*side].clone();
            let phone = Phone::join(&crate::app::pairing::pair(h, *side, &name));
            until(h, |h| {
                h.state().seating.life(*side) == crate::app::seating::Life::OnPhone
            });
            phone
        })
        .collect();
    crate::app::pairing::close(h);
    phones
}
