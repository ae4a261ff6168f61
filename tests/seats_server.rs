//! The players' screens server as a phone uses it, on 127.0.0.1 only: the
//! page and its scripts are served with their guarding headers; a paired
//! phone proves the key, receives its screen at once and on every change,
//! and its answers reach the window; a second device, a re-pairing, a
//! message in the clear, a replayed or forged frame each close that socket
//! with its reason logged, and the other seat never gets this one's screen.

#[path = "support/browser.rs"]
mod browser;

use browser::{Polled, polled, told};
use futures_util::{SinkExt, StreamExt};
use muster::core::side::Side;
use muster::seats::channel::Channel;
use muster::seats::server::{
    CLOSE_REFUSED, CLOSE_RELEASED, CLOSE_REPAIRED, CLOSE_TAKEN, FromPhone, Pairing, Server,
};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex16(text: &str) -> [u8; 16] {
    let mut out = [0; 16];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).unwrap();
    }
    out
}

fn server() -> Polled {
    polled()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

async fn next(socket: &mut Socket) -> Message {
    tokio::time::timeout(Duration::from_secs(5), socket.next())
        .await
        .expect("an answer within 5 s")
        .expect("the socket is open")
        .expect("a message")
}

/// A phone opening its seat's socket: the hello, its channel, its device.
async fn join(server: &Server, pairing: &Pairing, device: [u8; 16]) -> (Socket, Channel) {
    let phone = [0x5a; 16];
    let url = format!(
        "ws://{}/ws/{}?c={}",
        server.addr(),
        hex(&pairing.token),
        hex(&phone)
    );
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let hello = match next(&mut socket).await {
        Message::Text(text) => serde_json::from_str::<serde_json::Value>(&text).unwrap(),
        other => panic!("{other:?}"),
    };
    let laptop = unhex16(hello["hello"].as_str().unwrap());
    let mut channel = Channel::phone(&pairing.key, pairing.token, phone, laptop);
    let first = format!(r#"{{"device":"{}"}}"#, hex(&device));
    socket
        .send(Message::Binary(
            channel.seal(first.as_bytes()).unwrap().into(),
        ))
        .await
        .unwrap();
    (socket, channel)
}

async fn screen(socket: &mut Socket, channel: &mut Channel) -> serde_json::Value {
    match next(socket).await {
        Message::Binary(frame) => serde_json::from_slice(&channel.open(&frame).unwrap()).unwrap(),
        other => panic!("{other:?}"),
    }
}

/// Whether `pairing`'s old code is refused at the socket.
async fn opens_nothing(server: &Server, pairing: &Pairing) -> bool {
    let url = format!(
        "ws://{}/ws/{}?c={}",
        server.addr(),
        hex(&pairing.token),
        hex(&[0x5a; 16])
    );
    tokio_tungstenite::connect_async(url).await.is_err()
}

async fn closed_with(socket: &mut Socket) -> u16 {
    loop {
        match next(socket).await {
            Message::Close(Some(frame)) => return frame.code.into(),
            Message::Close(None) => return 0,
            _ => {}
        }
    }
}

#[test]
fn a_paired_phone_gets_its_screen_and_its_answer_reaches_the_window() {
    let server = server();
    let south = server.pair(Side::South).unwrap();
    server.pair(Side::North).unwrap();
    server.show(Side::South, r#"{"title":"Ann's hand","blocks":[]}"#.into());
    server.show(
        Side::North,
        r#"{"title":"Bob's hand: Omens","blocks":[]}"#.into(),
    );
    runtime().block_on(async {
        let (mut socket, mut channel) = join(&server, &south, [1; 16]).await;
        let first = screen(&mut socket, &mut channel).await;
        assert_eq!(first["screen"]["title"], "Ann's hand");
        server.show(
            Side::South,
            r#"{"title":"Ann's hand, redrawn","blocks":[]}"#.into(),
        );
        let second = screen(&mut socket, &mut channel).await;
        assert_eq!(second["screen"]["title"], "Ann's hand, redrawn");
        let answer = br#"{"reply":{"command":{"cmd":"play"},"values":{}}}"#;
        socket
            .send(Message::Binary(channel.seal(answer).unwrap().into()))
            .await
            .unwrap();
        let events = told(&server, |e| matches!(e, FromPhone::Message(..)));
        assert!(events.contains(&FromPhone::Joined(Side::South)));
        assert!(events.contains(&FromPhone::Message(
            Side::South,
            serde_json::json!({"reply": {"command": {"cmd": "play"}, "values": {}}})
        )));
        assert!(server.paired(Side::South) && !server.paired(Side::North));
        // The same device comes back after a reload: its seat, its screen.
        drop(socket);
        let (mut socket, mut channel) = join(&server, &south, [1; 16]).await;
        let again = screen(&mut socket, &mut channel).await;
        assert_eq!(again["screen"]["title"], "Ann's hand, redrawn");
    });
}

/// Someone who photographed the QR code, on another device, while the
/// player's phone holds the seat: refused. A re-pairing then closes the
/// player's own socket and the old code opens nothing.
#[test]
fn a_second_device_is_refused_and_a_new_pairing_ends_the_old_one() {
    let server = server();
    let south = server.pair(Side::South).unwrap();
    server.show(Side::South, r#"{"title":"Ann's hand","blocks":[]}"#.into());
    runtime().block_on(async {
        let (mut phone, mut channel) = join(&server, &south, [1; 16]).await;
        screen(&mut phone, &mut channel).await;
        let (mut thief, _) = join(&server, &south, [2; 16]).await;
        assert_eq!(closed_with(&mut thief).await, CLOSE_TAKEN);
        server.pair(Side::South).unwrap();
        assert_eq!(closed_with(&mut phone).await, CLOSE_REPAIRED);
        assert!(opens_nothing(&server, &south).await);
    });
    assert!(
        server
            .log()
            .iter()
            .any(|l| l.contains("another device holds the seat")),
        "{:?}",
        server.log()
    );
}

/// A seat let go: its phone is closed as released, the seat is free, and
/// its old code opens nothing (the player is back on the hand-over screen).
#[test]
fn a_seat_let_go_closes_its_phone_and_its_code_opens_nothing() {
    let server = server();
    let south = server.pair(Side::South).unwrap();
    server.show(Side::South, r#"{"title":"Ann's hand","blocks":[]}"#.into());
    runtime().block_on(async {
        let (mut phone, mut channel) = join(&server, &south, [1; 16]).await;
        screen(&mut phone, &mut channel).await;
        assert!(server.paired(Side::South));
        server.release(Side::South);
        assert_eq!(closed_with(&mut phone).await, CLOSE_RELEASED);
        assert!(!server.paired(Side::South));
        assert!(opens_nothing(&server, &south).await);
    });
}

/// What an opponent on the Wi-Fi can send: a message in the clear, a
/// frame replayed, a frame under a guessed key. Each closes that socket,
/// the reason is logged, and the server goes on serving.
#[test]
fn a_message_in_the_clear_a_replay_or_a_wrong_key_closes_that_socket() {
    let server = server();
    let south = server.pair(Side::South).unwrap();
    server.show(Side::South, r#"{"title":"Ann's hand","blocks":[]}"#.into());
    runtime().block_on(async {
        let (mut socket, mut channel) = join(&server, &south, [1; 16]).await;
        screen(&mut socket, &mut channel).await;
        socket
            .send(Message::Text("{\"reply\":1}".into()))
            .await
            .unwrap();
        assert_eq!(closed_with(&mut socket).await, CLOSE_REFUSED);

        let (mut socket, mut channel) = join(&server, &south, [1; 16]).await;
        screen(&mut socket, &mut channel).await;
        let frame = channel.seal(b"{\"values\":{}}").unwrap();
        socket
            .send(Message::Binary(frame.clone().into()))
            .await
            .unwrap();
        socket.send(Message::Binary(frame.into())).await.unwrap();
        assert_eq!(closed_with(&mut socket).await, CLOSE_REFUSED);

        let guessed = Pairing {
            token: south.token,
            key: [0; 32],
        };
        let (mut socket, _) = join(&server, &guessed, [1; 16]).await;
        assert_eq!(closed_with(&mut socket).await, CLOSE_REFUSED);
    });
    let log = server.log().join("\n");
    assert!(log.contains("a message in the clear"), "{log}");
    assert!(log.contains("replayed or reordered"), "{log}");
    assert!(log.contains("first frame refused"), "{log}");
}

/// The page and its scripts come from the binary, with headers that keep
/// everything on this origin; an unknown seat or file is not found.
#[test]
fn the_page_is_served_with_its_guards_and_nothing_else_is() {
    let server = server();
    let south = server.pair(Side::South).unwrap();
    runtime().block_on(async {
        let get = |path: String| {
            let addr = server.addr();
            async move {
                use tokio::io::{AsyncReadExt, AsyncWriteExt};
                let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
                let request = format!(
                    "GET {path} HTTP/1.1\r\nHost: table.muster.test\r\nConnection: close\r\n\r\n"
                );
                stream.write_all(request.as_bytes()).await.unwrap();
                let mut answer = String::new();
                stream.read_to_string(&mut answer).await.unwrap();
                answer
            }
        };
        let page = get(format!("/seat/{}", hex(&south.token))).await;
        assert!(page.starts_with("HTTP/1.1 200"), "{page}");
        assert!(
            page.contains("content-security-policy: default-src 'self'"),
            "{page}"
        );
        assert!(page.contains("cache-control: no-store"));
        assert!(page.contains("/assets/app.js"));
        assert!(
            !page.contains(&hex(&south.key)),
            "the key is never in the page"
        );
        // Every script the page imports is served.
        for file in ["app.js", "channel.js", "hexmap.js", "style.css"] {
            let answer = get(format!("/assets/{file}")).await;
            assert!(answer.starts_with("HTTP/1.1 200"), "{file}: {answer}");
        }
        let script = get("/assets/noble-ciphers-2.3.0/chacha.js".into()).await;
        assert!(script.contains("xchacha20poly1305"));
        assert!(
            get("/assets/../Cargo.toml".into())
                .await
                .starts_with("HTTP/1.1 404")
        );
        // A socket of no seat is refused (a real upgrade too: see the
        // re-pairing test).
        let stranger = format!("/ws/{}?c={}", hex(&[7; 16]), hex(&[1; 16]));
        assert!(get(stranger).await.starts_with("HTTP/1.1 4"));
    });
}
