//! A phone's seat socket as the page speaks it, in Rust, for the server's
//! tests (on 127.0.0.1 only): the hello, the channel, the device, screens.

use futures_util::{SinkExt, StreamExt};
use muster::seats::channel::Channel;
use muster::seats::protocol::{FromPage, Hello, ToPage, VERSION};
use muster::seats::server::{CLOSE_UNKNOWN, Pairing};
use std::net::SocketAddr;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex16(text: &str) -> [u8; 16] {
    let mut out = [0; 16];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).unwrap();
    }
    out
}

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// The next message that is not the server's heartbeat.
pub async fn next(socket: &mut Socket) -> Message {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .expect("an answer within 5 s")
            .expect("the socket is open")
            .expect("a message");
        if !matches!(message, Message::Ping(_) | Message::Pong(_)) {
            return message;
        }
    }
}

/// The address of `pairing`'s socket on the server at `addr`.
pub fn socket_url(addr: SocketAddr, pairing: &Pairing) -> String {
    format!(
        "ws://{addr}/ws/{}?c={}",
        hex(&pairing.token),
        hex(&[0x5a; 16])
    )
}

/// A socket opened and its hello read, nothing sent: the channel it
/// would speak.
pub async fn hello(addr: SocketAddr, pairing: &Pairing) -> (Socket, Channel) {
    let url = socket_url(addr, pairing);
    let (mut socket, _) = tokio_tungstenite::connect_async(crate::browser::page_socket(&url))
        .await
        .unwrap();
    let hello = match next(&mut socket).await {
        Message::Text(text) => serde_json::from_str::<Hello>(&text).unwrap(),
        other => panic!("{other:?}"),
    };
    let laptop = unhex16(&hello.laptop);
    let channel = Channel::phone(&pairing.key, pairing.token, [0x5a; 16], laptop);
    (socket, channel)
}

/// A phone opening its seat's socket: the hello, its channel, its device.
pub async fn join(addr: SocketAddr, pairing: &Pairing, device: [u8; 16]) -> (Socket, Channel) {
    let (mut socket, mut channel) = hello(addr, pairing).await;
    let first = FromPage::Join {
        version: VERSION,
        device: hex(&device),
    }
    .text();
    socket
        .send(Message::Binary(
            channel.seal(first.as_bytes()).unwrap().into(),
        ))
        .await
        .unwrap();
    (socket, channel)
}

/// The next message sent that is not the laptop's beat, opened.
pub async fn screen(socket: &mut Socket, channel: &mut Channel) -> serde_json::Value {
    loop {
        let message: serde_json::Value = match next(socket).await {
            Message::Binary(frame) => {
                serde_json::from_slice(&channel.open(&frame).unwrap()).unwrap()
            }
            other => panic!("{other:?}"),
        };
        if message["type"] != "beat" {
            return message;
        }
    }
}

/// A screen titled `title`, as the window sends it (`ToPage::Screen`).
pub fn titled(title: &str) -> String {
    let screen: muster::core::screen::Screen<(), ()> = muster::core::screen::Screen {
        title: title.into(),
        blocks: Vec::new(),
    };
    ToPage::screen(&screen)
}

/// Whether a socket for `pairing` opens nothing: refused before it opens,
/// or told at once that its code names no seat.
pub async fn opens_nothing(addr: SocketAddr, pairing: &Pairing) -> bool {
    let url = socket_url(addr, pairing);
    match tokio_tungstenite::connect_async(crate::browser::page_socket(&url)).await {
        Err(_) => true,
        // A code of no seat is told so at once, and nothing more.
        Ok((mut socket, _)) => {
            matches!(next(&mut socket).await, Message::Close(Some(f)) if u16::from(f.code) == CLOSE_UNKNOWN)
        }
    }
}

/// The close code the socket ends with, past anything else sent.
pub async fn closed_with(socket: &mut Socket) -> u16 {
    loop {
        match next(socket).await {
            Message::Close(Some(frame)) => return frame.code.into(),
            Message::Close(None) => return 0,
            _ => {}
        }
    }
}

/// A raw HTTP exchange: `request` sent as is, the whole answer read.
pub async fn raw(addr: SocketAddr, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

/// An answer's head (its status line and headers), the body not awaited:
/// an accepted socket stays open.
pub async fn head(addr: SocketAddr, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let mut byte = [0; 1];
    while !answer.ends_with(b"\r\n\r\n") && answer.len() < 16 * 1024 {
        match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut byte)).await {
            Ok(Ok(1)) => answer.push(byte[0]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&answer).into_owned()
}
