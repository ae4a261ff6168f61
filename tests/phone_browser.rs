//! The phone page in a real browser: headless Chromium at 390 x 844, driven
//! through chromedriver (WebDriver), loading the page through a test
//! hostname mapped to 127.0.0.1 so that it runs, as on a phone on the
//! local network, in an insecure context (no `crypto.subtle`: the page's
//! cipher is the vendored one). The test plays the laptop through the
//! server itself. Where Chromium or chromedriver is not installed the
//! test says so and is skipped; `.ci/run` installs both.

use fantoccini::{ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use muster::core::side::Side;
use muster::seats::server::{FromPhone, Server};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const CHROMIUM: &str = "/usr/bin/chromium";
const DRIVER: &str = "/usr/bin/chromedriver";
/// The hostname the page is loaded from, mapped to 127.0.0.1 in Chromium
/// only: no request leaves this machine.
const HOST: &str = "table.muster.test";

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// chromedriver on a free port of 127.0.0.1, or `None` (skipped) where it
/// or Chromium is missing.
fn driver() -> Option<(Driver, u16)> {
    for tool in [CHROMIUM, DRIVER] {
        if !std::path::Path::new(tool).exists() {
            eprintln!(
                "skipped: {tool} is not installed (.ci/run installs chromium and chromium-driver)"
            );
            return None;
        }
    }
    let port = free_port();
    let child = Command::new(DRIVER)
        .arg(format!("--port={port}"))
        .arg("--allowed-ips=127.0.0.1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let driver = Driver(child);
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Some((driver, port));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!("skipped: chromedriver did not start");
    None
}

fn capabilities(profile: &std::path::Path) -> serde_json::Map<String, serde_json::Value> {
    let args = [
        "--headless=new".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-dev-shm-usage".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--no-first-run".into(),
        "--window-size=390,844".into(),
        format!("--host-resolver-rules=MAP {HOST} 127.0.0.1"),
        format!("--user-data-dir={}", profile.display()),
    ];
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": CHROMIUM,
            "args": args,
            // A phone's viewport: 390 x 844 CSS pixels.
            "mobileEmulation": {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 1.0}}
        }),
    );
    caps
}

/// Waits until the server tells of `what`.
fn told(server: &Server, what: impl Fn(&FromPhone) -> bool) -> Vec<FromPhone> {
    let mut seen = Vec::new();
    for _ in 0..500 {
        seen.extend(server.drain());
        if seen.iter().any(&what) {
            return seen;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("never told; told {seen:?}");
}

#[test]
fn a_phone_pairs_shows_its_screen_answers_and_comes_back_after_a_reload() {
    let Some((_driver, port)) = driver() else {
        return;
    };
    let server = Server::start("127.0.0.1:0".parse().unwrap(), || {}).unwrap();
    let south = server.pair(Side::South).unwrap();
    server.pair(Side::North).unwrap();
    let screen = serde_json::json!({
        "title": "Decius's hand (2 of 7)",
        "blocks": [
            {"block": "strong", "text": "Artagur declared the rally phase."},
            {"block": "item", "title": "Omens", "text": "Play at the start of a turn.",
             "actions": [{"label": "Play Omens", "command": {"cmd": "play_event", "card": "omens"}}]},
            {"block": "actions", "actions": [{"label": "Play Alpha for rally", "command": {"cmd": "x"},
             "refused": "Rally flags are played in the rally phase"}]}
        ]
    });
    server.show(Side::South, screen.to_string());
    server.show(
        Side::North,
        r#"{"title":"Artagur's hand","blocks":[]}"#.into(),
    );
    let profile = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities(profile.path()))
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("chromedriver answers");
        let url = south.url(&format!("{HOST}:{}", server.addr().port()));
        client.goto(&url).await.unwrap();
        let play = client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::XPath("//button[text()='Play Omens']"))
            .await
            .expect("the screen is drawn");
        // The page runs as on a phone on the network: no WebCrypto.
        let subtle = client
            .execute("return typeof crypto.subtle", vec![])
            .await
            .unwrap();
        assert_eq!(subtle, "undefined", "an insecure context, as on a phone");
        // A refused play is shown with its reason, and cannot be tapped.
        let refused = client
            .find(Locator::XPath("//button[text()='Play Alpha for rally']"))
            .await
            .unwrap();
        assert_eq!(refused.attr("disabled").await.unwrap().as_deref(), Some("true"));
        client
            .find(Locator::XPath(
                "//p[text()='Rally flags are played in the rally phase']",
            ))
            .await
            .unwrap();
        std::fs::create_dir_all("target/phone").unwrap();
        let png = client.screenshot().await.unwrap();
        std::fs::write("target/phone/deck-hand.png", png).unwrap();
        play.click().await.unwrap();
        let events = told(&server, |e| matches!(e, FromPhone::Message(..)));
        assert!(events.contains(&FromPhone::Message(
            Side::South,
            serde_json::json!({"reply": {"command": {"cmd": "play_event", "card": "omens"}, "values": {}}})
        )));
        // North's screen never reached South's page.
        let text = client.source().await.unwrap();
        assert!(!text.contains("Artagur's hand"));
        // A reload: the same device, back on its seat, its screen again.
        client.refresh().await.unwrap();
        client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::XPath("//button[text()='Play Omens']"))
            .await
            .expect("back after a reload");
        client.close().await.unwrap();
    });
}

/// A hex map on the phone: drawn from the board the laptop sends, and a
/// tap on a hex sends that hex (sealed) to the laptop.
#[test]
fn a_tap_on_the_phones_map_sends_the_hex() {
    use muster::core::hexmap::{Hex, HexMap, Orientation, Shifted};
    let Some((_driver, port)) = driver() else {
        return;
    };
    let server = Server::start("127.0.0.1:0".parse().unwrap(), || {}).unwrap();
    let south = server.pair(Side::South).unwrap();
    let map = HexMap {
        columns: 8,
        rows: 6,
        first_column: 1,
        first_row: 1,
        orientation: Orientation::FlatTop,
        shifted: Shifted::Odd,
    };
    let screen = serde_json::json!({
        "title": "Fritz (Prussian)'s counters",
        "blocks": [{"block": "hex_map", "board": {
            "map": map,
            "counters": [{"id": 0, "side": "south", "hex": "0302", "text": "C0 dummy", "face_up": false}],
            "highlight": ["0403"],
            "clicks": "Click the leader's hex, then the two Dis counters'"
        }}]
    });
    server.show(Side::South, screen.to_string());
    let profile = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities(profile.path()))
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .unwrap();
        client
            .goto(&south.url(&format!("{HOST}:{}", server.addr().port())))
            .await
            .unwrap();
        client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css("canvas"))
            .await
            .expect("the map is drawn");
        // A tap at the centre of hex 0605, as the laptop's geometry puts it.
        let target = Hex::parse("0605").unwrap();
        let (x, y) = map.centre(target);
        let (width, _) = map.extent();
        client
            .execute(
                "const c = document.querySelector('canvas'); const b = c.getBoundingClientRect(); \
                 const s = b.width / arguments[2]; \
                 c.dispatchEvent(new MouseEvent('click', {clientX: b.left + arguments[0] * s, clientY: b.top + arguments[1] * s, bubbles: true}));",
                vec![x.into(), y.into(), width.into()],
            )
            .await
            .unwrap();
        std::fs::create_dir_all("target/phone").unwrap();
        let png = client.screenshot().await.unwrap();
        std::fs::write("target/phone/wings-map.png", png).unwrap();
        let events = told(&server, |e| matches!(e, FromPhone::Message(..)));
        assert!(events.contains(&FromPhone::Message(
            Side::South,
            serde_json::json!({"click": "0605"})
        )));
        client.close().await.unwrap();
    });
}
