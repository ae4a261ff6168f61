//! What the phone page's browser tests share: chromedriver on a free port
//! of 127.0.0.1 (or a skip, said by name, where Chromium is missing), a
//! phone's capabilities (390 x 844, the test hostname mapped to 127.0.0.1,
//! no background traffic), a WebDriver client, and waiting for what the
//! server tells the window. Included with `#[path]` by each test that
//! drives a browser.

#![allow(dead_code)]

use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use muster::seats::server::{FromPhone, Options, Server};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const DRIVER: &str = "/usr/bin/chromedriver";
/// The hostname the page is loaded from, mapped to 127.0.0.1 in Chromium
/// only: no request leaves this machine.
pub const HOST: &str = "table.muster.test";

pub struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Under CI (`CI=true`) a browser test that cannot start Chromium fails:
/// it never passes as skipped.
fn skip(why: &str) -> Option<(Driver, u16)> {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "CI=true and {why}: the browser tests must run (.ci/run installs chromium and chromium-driver)"
        );
    }
    eprintln!("skipped: {why} (.ci/run installs chromium and chromium-driver)");
    None
}

/// chromedriver on a free port of 127.0.0.1, or `None` (skipped, said by
/// name) where it or Chromium is missing; under CI, a failure.
pub fn driver() -> Option<(Driver, u16)> {
    for tool in [CHROMIUM, DRIVER] {
        if !std::path::Path::new(tool).exists() {
            return skip(&format!("{tool} is not installed"));
        }
    }
    // A free port may be taken again before chromedriver binds it (another
    // test's server): then it exits, and another port is tried. Ready is
    // its own answer on /status, not any answer on the port.
    for _ in 0..3 {
        let port = free_port();
        let child = Command::new(DRIVER)
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(child) = child else {
            return skip("chromedriver did not start");
        };
        let mut driver = Driver(child);
        for _ in 0..100 {
            if driver.0.try_wait().ok().flatten().is_some() {
                break;
            }
            if answers_status(port) {
                return Some((driver, port));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    skip("chromedriver did not answer")
}

/// Whether chromedriver on `port` says it is ready.
fn answers_status(port: u16) -> bool {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let request =
        format!("GET /status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut answer = String::new();
    let _ = stream.take(64 * 1024).read_to_string(&mut answer);
    answer.contains("\"ready\":true")
}

/// The phone most tests hold: 390 x 844 CSS pixels.
pub const PHONE: (u32, u32) = (390, 844);

pub fn capabilities(profile: &std::path::Path) -> serde_json::Map<String, serde_json::Value> {
    capabilities_sized(profile, PHONE)
}

/// A phone whose viewport is `width` x `height` CSS pixels.
pub fn capabilities_sized(
    profile: &std::path::Path,
    (width, height): (u32, u32),
) -> serde_json::Map<String, serde_json::Value> {
    let args = [
        "--headless=new".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-dev-shm-usage".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--no-first-run".into(),
        format!("--window-size={width},{height}"),
        format!("--host-resolver-rules=MAP {HOST} 127.0.0.1"),
        format!("--user-data-dir={}", profile.display()),
    ];
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": CHROMIUM,
            "args": args,
            "mobileEmulation": {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 1.0}}
        }),
    );
    caps
}

/// A server whose phones' events the test polls.
pub struct Polled {
    pub server: Server,
    pub inbox: std::sync::mpsc::Receiver<FromPhone>,
}

impl std::ops::Deref for Polled {
    type Target = Server;
    fn deref(&self) -> &Server {
        &self.server
    }
}

/// The server on 127.0.0.1, any free port.
pub fn polled() -> Polled {
    polled_on(0)
}

/// The server on 127.0.0.1 at `port` (0: any free one).
pub fn polled_on(port: u16) -> Polled {
    let mut options = Options::new(std::net::SocketAddr::from(([127, 0, 0, 1], port)));
    options.aliases.push(HOST.into());
    let (server, inbox) = Server::polled(options).unwrap();
    Polled { server, inbox }
}

/// Waits until the server tells of `what`.
pub fn told(server: &Polled, what: impl Fn(&FromPhone) -> bool) -> Vec<FromPhone> {
    let mut seen = Vec::new();
    for _ in 0..500 {
        seen.extend(server.inbox.try_iter());
        if seen.iter().any(&what) {
            return seen;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("never told; told {seen:?}");
}

/// A phone: a browser session on chromedriver at `port`, its profile in
/// `profile`.
pub async fn phone(port: u16, profile: &std::path::Path) -> Client {
    phone_sized(port, profile, PHONE).await
}

/// A phone of `size` CSS pixels.
pub async fn phone_sized(port: u16, profile: &std::path::Path, size: (u32, u32)) -> Client {
    ClientBuilder::new(HttpConnector::new())
        .capabilities(capabilities_sized(profile, size))
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("chromedriver answers")
}

/// A socket request as the page's own makes it: to `ws://HOST/ws/…`, its
/// `Origin` the page's `http://HOST` (the server refuses any other).
pub fn page_socket(url: &str) -> tokio_tungstenite::tungstenite::handshake::client::Request {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let host = url
        .strip_prefix("ws://")
        .and_then(|rest| rest.split('/').next())
        .expect("a ws:// address");
    let mut request = url.into_client_request().expect("a socket address");
    request.headers_mut().insert(
        "Origin",
        format!("http://{host}").parse().expect("an origin"),
    );
    request
}

/// A finger's tap at a point of the viewport: down and up there, through
/// WebDriver's touch input (the page sees `pointerdown`, `pointerup`, then
/// the click a browser makes of them).
pub fn finger_tap(x: f64, y: f64) -> fantoccini::actions::TouchActions {
    use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, PointerAction, TouchActions};
    TouchActions::new("finger".into())
        .then(PointerAction::MoveTo {
            duration: None,
            x,
            y,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        })
}
