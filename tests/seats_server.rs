//! The players' screens server as a phone uses it, on 127.0.0.1 only: the
//! page and its scripts are served with their guarding headers; a paired
//! phone proves the key, receives its screen at once and on every change,
//! and its answers reach the window; a second device, a re-pairing, a
//! message in the clear, a replayed or forged frame each close that socket
//! with its reason logged, and the other seat never gets this one's screen.

#[path = "support/browser.rs"]
mod browser;
#[path = "support/phone_socket.rs"]
mod phone_socket;

use browser::{Polled, polled, told};
use futures_util::SinkExt;
use muster::core::side::Side;
use muster::seats::protocol::FromPage;
use muster::seats::server::{
    CLOSE_MOVED, CLOSE_REFUSED, CLOSE_RELEASED, CLOSE_REPAIRED, CLOSE_TAKEN, CLOSE_UNKNOWN,
    CLOSE_VERSION, FromPhone, Pairing,
};
use phone_socket::{closed_with, head, hex, join, opens_nothing, raw, runtime, screen, titled};
use tokio_tungstenite::tungstenite::Message;

fn server() -> Polled {
    polled()
}

#[test]
fn a_paired_phone_gets_its_screen_and_its_answer_reaches_the_window() {
    let server = server();
    let south = server.pair(Side::South).unwrap();
    server.pair(Side::North).unwrap();
    server.show(Side::South, titled("Ann's hand"));
    server.show(Side::North, titled("Bob's hand: Omens"));
    runtime().block_on(async {
        let (mut socket, mut channel) = join(server.addr(), &south, [1; 16]).await;
        let first = screen(&mut socket, &mut channel).await;
        assert_eq!(first["screen"]["title"], "Ann's hand");
        server.show(Side::South, titled("Ann's hand, redrawn"));
        let second = screen(&mut socket, &mut channel).await;
        assert_eq!(second["screen"]["title"], "Ann's hand, redrawn");
        let answer = br#"{"type":"reply","reply":{"command":{"cmd":"play"},"values":{}}}"#;
        socket
            .send(Message::Binary(channel.seal(answer).unwrap().into()))
            .await
            .unwrap();
        let events = told(&server, |e| matches!(e, FromPhone::Message(..)));
        assert!(events.contains(&FromPhone::Joined(Side::South)));
        assert!(replied(
            &events,
            serde_json::json!({"command": {"cmd": "play"}, "values": {}})
        ));
        assert!(server.held(Side::South) && !server.held(Side::North));
        // The same device comes back after a reload: its seat, its screen.
        drop(socket);
        let (mut socket, mut channel) = join(server.addr(), &south, [1; 16]).await;
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
    server.show(Side::South, titled("Ann's hand"));
    runtime().block_on(async {
        let (mut phone, mut channel) = join(server.addr(), &south, [1; 16]).await;
        screen(&mut phone, &mut channel).await;
        // Her passphrase given on it, as the window tells the server.
        server.proved(Side::South);
        let (mut thief, _) = join(server.addr(), &south, [2; 16]).await;
        assert_eq!(closed_with(&mut thief).await, CLOSE_TAKEN);
        server.pair(Side::South).unwrap();
        assert_eq!(closed_with(&mut phone).await, CLOSE_REPAIRED);
        assert!(opens_nothing(server.addr(), &south).await);
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
    server.show(Side::South, titled("Ann's hand"));
    runtime().block_on(async {
        let (mut phone, mut channel) = join(server.addr(), &south, [1; 16]).await;
        screen(&mut phone, &mut channel).await;
        assert!(server.held(Side::South));
        server.release(Side::South);
        assert_eq!(closed_with(&mut phone).await, CLOSE_RELEASED);
        assert!(!server.held(Side::South));
        assert!(opens_nothing(server.addr(), &south).await);
    });
}

/// What an opponent on the Wi-Fi can send: a message in the clear, a
/// frame replayed, a frame under a guessed key. Each closes that socket,
/// the reason is logged, and the server goes on serving.
#[test]
fn a_message_in_the_clear_a_replay_or_a_wrong_key_closes_that_socket() {
    let server = server();
    let south = server.pair(Side::South).unwrap();
    server.show(Side::South, titled("Ann's hand"));
    runtime().block_on(async {
        let (mut socket, mut channel) = join(server.addr(), &south, [1; 16]).await;
        screen(&mut socket, &mut channel).await;
        socket
            .send(Message::Text("{\"reply\":1}".into()))
            .await
            .unwrap();
        assert_eq!(closed_with(&mut socket).await, CLOSE_REFUSED);

        let (mut socket, mut channel) = join(server.addr(), &south, [1; 16]).await;
        screen(&mut socket, &mut channel).await;
        let frame = channel.seal(br#"{"type":"values","values":{}}"#).unwrap();
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
        let (mut socket, _) = join(server.addr(), &guessed, [1; 16]).await;
        assert_eq!(closed_with(&mut socket).await, CLOSE_REFUSED);
    });
    // The server logs a refusal as it closes the socket: the client may
    // see the close a moment before the line is written.
    let reasons = [
        "a message in the clear",
        "replayed or reordered",
        "a first frame that does not open",
    ];
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let log = loop {
        let log = server.log().join("\n");
        if reasons.iter().all(|r| log.contains(r)) || std::time::Instant::now() > until {
            break log;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    for reason in reasons {
        assert!(log.contains(reason), "{reason}: {log}");
    }
}

/// Every header that keeps the page on its own origin, on any answer.
fn guarded(answer: &str) -> bool {
    [
        "content-security-policy: default-src 'self'",
        "frame-ancestors 'none'",
        "x-content-type-options: nosniff",
        "referrer-policy: no-referrer",
        "cache-control: no-store",
    ]
    .iter()
    .all(|h| answer.contains(h))
}

/// The page and its scripts come from the binary, with headers that keep
/// everything on this origin; an unknown seat or file is not found, and
/// every error answer (404, 405, 400) carries the same headers.
#[test]
fn the_page_is_served_with_its_guards_and_nothing_else_is() {
    let server = server();
    let south = server.pair(Side::South).unwrap();
    let addr = server.addr();
    runtime().block_on(async {
        let get = |path: String| async move {
            raw(
                addr,
                &format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
            )
            .await
        };
        let page = get(format!("/seat/{}", hex(&south.token))).await;
        assert!(page.starts_with("HTTP/1.1 200"), "{page}");
        assert!(guarded(&page), "{page}");
        assert!(page.contains("/assets/app.js"));
        assert!(
            !page.contains(&hex(&south.key)),
            "the key is never in the page"
        );
        // Every script the page imports is served.
        for file in ["app.js", "channel.js", "hexmap.js", "style.css", "Hack-Regular.ttf"] {
            let answer = get(format!("/assets/{file}")).await;
            assert!(answer.starts_with("HTTP/1.1 200"), "{file}: {answer}");
        }
        let script = get("/assets/noble-ciphers-2.3.0/chacha.js".into()).await;
        assert!(script.contains("xchacha20poly1305"));
        let missing = get("/assets/../Cargo.toml".into()).await;
        assert!(missing.starts_with("HTTP/1.1 404") && guarded(&missing), "{missing}");
        // A socket of a code that is no code is not found; one of a
        // well-formed code of no seat is taken, only to be told so (see
        // the restart's test); one with no hello is a bad request.
        // (A socket's request, as a browser sends it from the page.)
        let socket = |path: String| async move {
            head(
                addr,
                &format!(
                    "GET {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n\
                     Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\
                     Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
                ),
            )
            .await
        };
        let stranger = socket(format!("/ws/{}?c={}", "zz".repeat(16), hex(&[1; 16]))).await;
        assert!(
            stranger.starts_with("HTTP/1.1 404") && guarded(&stranger),
            "{stranger}"
        );
        let earlier = socket(format!("/ws/{}?c={}", hex(&[7; 16]), hex(&[1; 16]))).await;
        assert!(earlier.starts_with("HTTP/1.1 101"), "{earlier}");
        let bad = socket(format!("/ws/{}", hex(&south.token))).await;
        assert!(bad.starts_with("HTTP/1.1 400") && guarded(&bad), "{bad}");
        let posted = raw(
            addr,
            &format!(
                "POST /seat/{} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                hex(&south.token)
            ),
        )
        .await;
        assert!(posted.starts_with("HTTP/1.1 405") && guarded(&posted), "{posted}");
    });
}

/// Issue 37: the server reported `Left` for whichever socket of a seat
/// ended, so a stranger opening the code's socket and closing it, or
/// another device refused, silenced the live phone. Now only the socket
/// that holds the seat says the phone left; the others are refused and
/// counted and change nothing: the phone gets its next screen. His own
/// second tab (the same device) takes the seat over, the first is told
/// it moved, and only that tab's end says he left.
#[test]
fn only_the_holders_end_says_the_phone_left_and_his_second_tab_takes_over() {
    let server = server();
    let south = server.pair(Side::South).unwrap();
    server.show(Side::South, titled("Ann's hand"));
    let addr = server.addr();
    runtime().block_on(async {
        let (mut phone, mut channel) = join(addr, &south, [1; 16]).await;
        screen(&mut phone, &mut channel).await;
        server.proved(Side::South);
        let (stranger, _) = phone_socket::hello(addr, &south).await;
        drop(stranger);
        let (mut thief, _) = join(addr, &south, [2; 16]).await;
        assert_eq!(closed_with(&mut thief).await, CLOSE_TAKEN);
        for _ in 0..100 {
            if server.refusals().count >= 2 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert_eq!(server.refusals().count, 2, "{:?}", server.refusals());
        assert!(server.held(Side::South));
        server.show(Side::South, titled("Ann's hand, redrawn"));
        let next = screen(&mut phone, &mut channel).await;
        assert_eq!(next["screen"]["title"], "Ann's hand, redrawn");
        // His second tab: the same device.
        let (mut tab, mut tab_channel) = join(addr, &south, [1; 16]).await;
        let there = screen(&mut tab, &mut tab_channel).await;
        assert_eq!(there["screen"]["title"], "Ann's hand, redrawn");
        assert_eq!(closed_with(&mut phone).await, CLOSE_MOVED);
        assert!(server.held(Side::South), "the tab holds it");
        drop(tab);
    });
    let events = told(&server, |e| *e == FromPhone::Left(Side::South));
    let lefts = events
        .iter()
        .filter(|e| **e == FromPhone::Left(Side::South))
        .count();
    assert_eq!(lefts, 1, "one Left, the tab's: {events:?}");
    assert!(!server.held(Side::South));
}

/// Issue 37: a page of another build (a tab left open across an upgrade)
/// is told to reload, never misread.
#[test]
fn a_page_of_another_protocol_is_told_to_reload() {
    let server = server();
    let south = server.pair(Side::South).unwrap();
    runtime().block_on(async {
        let (mut socket, mut channel) = phone_socket::hello(server.addr(), &south).await;
        let join = FromPage::Join {
            version: muster::seats::protocol::VERSION + 1,
            device: hex(&[1; 16]),
        };
        let frame = channel.seal(join.text().as_bytes()).unwrap();
        socket.send(Message::Binary(frame.into())).await.unwrap();
        assert_eq!(closed_with(&mut socket).await, CLOSE_VERSION);
    });
    assert!(!server.held(Side::South));
}

/// A sealed message that is not one of the protocol's types, first frame
/// or later, is refused in words that begin `NOT_THE_PAGES` (which every
/// browser test fails on) and naming the field.
#[test]
fn a_sealed_message_of_no_protocol_type_is_refused_naming_its_field() {
    use muster::seats::protocol::NOT_THE_PAGES;
    let server = server();
    let south = server.pair(Side::South).unwrap();
    server.show(Side::South, titled("Ann's hand"));
    runtime().block_on(async {
        let (mut socket, mut channel) = phone_socket::hello(server.addr(), &south).await;
        let frame = channel
            .seal(br#"{"type":"join","version":2,"devise":"01"}"#)
            .unwrap();
        socket.send(Message::Binary(frame.into())).await.unwrap();
        assert_eq!(closed_with(&mut socket).await, CLOSE_REFUSED);

        let (mut socket, mut channel) = join(server.addr(), &south, [1; 16]).await;
        screen(&mut socket, &mut channel).await;
        let frame = channel.seal(br#"{"type":"tap","hex":"zz"}"#).unwrap();
        socket.send(Message::Binary(frame.into())).await.unwrap();
        assert_eq!(closed_with(&mut socket).await, CLOSE_REFUSED);
    });
    // The server notes a refusal as it closes the socket: waited for,
    // within a bound, as the client may see the close first.
    let typed_of = |refused: &[String]| {
        refused
            .iter()
            .filter(|why| why.contains(NOT_THE_PAGES))
            .cloned()
            .collect::<Vec<_>>()
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while typed_of(&server.refusals().last).len() < 2 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let refused = server.refusals().last;
    let typed = typed_of(&refused);
    assert_eq!(typed.len(), 2, "{refused:?}");
    assert!(typed[0].contains("devise"), "{refused:?}");
    assert!(typed[1].contains("hex"), "{refused:?}");
}

/// Whether South's phone sent `reply`, as the server carried it.
fn replied(events: &[FromPhone], reply: serde_json::Value) -> bool {
    events.iter().any(|e| match e {
        FromPhone::Message(Side::South, FromPage::Reply { reply: sent }) => {
            serde_json::from_str::<serde_json::Value>(sent.get()).ok() == Some(reply.clone())
        }
        _ => false,
    })
}

/// After the laptop restarts, a phone's code names no seat: its socket is
/// taken only to be told so (`CLOSE_UNKNOWN`, before any hello, so the
/// page stops retrying), counted once, and no seat is touched.
#[test]
fn a_code_of_an_earlier_sitting_is_told_so_and_opens_nothing() {
    let before = server();
    let old = before.pair(Side::South).unwrap();
    let after = server();
    let new = after.pair(Side::South).unwrap();
    runtime().block_on(async {
        let url = phone_socket::socket_url(after.addr(), &old);
        let (mut socket, _) = tokio_tungstenite::connect_async(browser::page_socket(&url))
            .await
            .unwrap();
        assert_eq!(closed_with(&mut socket).await, CLOSE_UNKNOWN);
        // Its seat of this sitting is still there for its new code.
        after.show(Side::South, titled("Ann's hand"));
        let (mut phone, mut channel) = join(after.addr(), &new, [1; 16]).await;
        assert_eq!(
            screen(&mut phone, &mut channel).await["screen"]["title"],
            "Ann's hand"
        );
    });
    assert_eq!(after.refusals().count, 1, "{:?}", after.refusals());
    assert!(!after.held(Side::North));
}

/// Issue 49, item 4: until the device that holds a seat proves to be its
/// player's, another device with the code takes the seat (the first is
/// told another device holds it) and must prove it in turn; once one has
/// proved, any other is refused.
#[test]
fn the_device_that_proves_its_player_keeps_the_seat() {
    let server = server();
    let south = server.pair(Side::South).unwrap();
    server.show(Side::South, titled("Ann, your passphrase"));
    runtime().block_on(async {
        let (mut other, mut other_channel) = join(server.addr(), &south, [2; 16]).await;
        screen(&mut other, &mut other_channel).await;
        // Her own phone comes on the same code: the other never proved.
        let (mut hers, mut channel) = join(server.addr(), &south, [1; 16]).await;
        assert_eq!(
            screen(&mut hers, &mut channel).await["screen"]["title"],
            "Ann, your passphrase"
        );
        assert_eq!(closed_with(&mut other).await, CLOSE_TAKEN);
        server.proved(Side::South);
        let (mut again, _) = join(server.addr(), &south, [2; 16]).await;
        assert_eq!(closed_with(&mut again).await, CLOSE_TAKEN);
        assert!(server.held(Side::South));
        server.show(Side::South, titled("Ann's hand"));
        assert_eq!(
            screen(&mut hers, &mut channel).await["screen"]["title"],
            "Ann's hand"
        );
    });
}
