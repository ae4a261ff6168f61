//! The phone page in a real browser: headless Chromium at 390 x 844, driven
//! through chromedriver (WebDriver), loading the page through a test
//! hostname mapped to 127.0.0.1 so that it runs, as on a phone on the
//! local network, in an insecure context (no `crypto.subtle`: the page's
//! cipher is the vendored one). The test plays the laptop through the
//! server itself. Where Chromium or chromedriver is not installed the
//! test says so and is skipped; `.ci/run` installs both.

#[path = "support/browser.rs"]
mod browser;

use browser::{HOST, driver, phone, polled, polled_on, told};
use fantoccini::Locator;
use muster::core::side::Side;
use muster::seats::protocol::{FromPage, ToPage};
use muster::seats::server::FromPhone;
use std::time::Duration;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A phone (headless Chromium through the driver on `port`, its profile
/// in `profile`) on the page at `url`.
async fn on_page(port: u16, profile: &std::path::Path, url: &str) -> fantoccini::Client {
    let client = phone(port, profile).await;
    client.goto(url).await.unwrap();
    client
}

/// A screen written by hand, as the window sends it.
fn shown(screen: serde_json::Value) -> String {
    ToPage::screen(&screen)
}

#[test]
fn a_phone_pairs_shows_its_screen_answers_and_comes_back_after_a_reload() {
    let Some((_driver, port)) = driver() else {
        return;
    };
    let server = polled();
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
    server.show(Side::South, shown(screen));
    server.show(
        Side::North,
        shown(serde_json::json!({"title": "Artagur's hand", "blocks": []})),
    );
    let profile = tempfile::tempdir().unwrap();
    runtime().block_on(async {
        let url = south.url(&format!("{HOST}:{}", server.addr().port()));
        let client = on_page(port, profile.path(), &url).await;
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
        assert_eq!(
            refused.attr("disabled").await.unwrap().as_deref(),
            Some("true")
        );
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
        let reply =
            serde_json::json!({"command": {"cmd": "play_event", "card": "omens"}, "values": {}});
        assert!(events.iter().any(|e| match e {
            FromPhone::Message(Side::South, FromPage::Reply { reply: sent }) => {
                serde_json::from_str::<serde_json::Value>(sent.get()).ok() == Some(reply.clone())
            }
            _ => false,
        }));
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
    let server = polled();
    let south = server.pair(Side::South).unwrap();
    let map = HexMap {
        columns: 8,
        rows: 6,
        first_column: 1,
        first_row: 1,
        orientation: Orientation::FlatTop,
        shifted: Shifted::Odd,
    };
    let board = muster::core::screen::HexBoard::new(
        map.clone(),
        vec![muster::core::screen::Counter {
            id: 0,
            side: Side::South,
            hex: Hex::parse("0302").unwrap(),
            text: "C0 dummy".into(),
            face_up: false,
        }],
        vec![Hex::parse("0403").unwrap()],
        Some("Click the leader's hex, then the two Dis counters'".into()),
        Some(Side::South),
    );
    let screen = serde_json::json!({
        "title": "Fritz (Prussian)'s counters",
        "blocks": [{"block": "hex_map", "board": board}]
    });
    server.show(Side::South, shown(screen));
    let profile = tempfile::tempdir().unwrap();
    runtime().block_on(async {
        let url = south.url(&format!("{HOST}:{}", server.addr().port()));
        let client = on_page(port, profile.path(), &url).await;
        client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css("canvas"))
            .await
            .expect("the map is drawn");
        // A tap (a finger down and up) at the centre of hex 0405, as the
        // laptop's geometry puts it and the page's view (`data-view`: the
        // map point at its centre, a hex's size) draws it.
        let target = Hex::parse("0405").unwrap();
        let (x, y) = map.centre(target);
        client
            .execute(
                "const c = document.querySelector('canvas'); const b = c.getBoundingClientRect(); \
                 const [vx, vy, r] = c.dataset.view.split(' ').map(Number); \
                 const at = {clientX: b.left + b.width / 2 + (arguments[0] - vx) * r, clientY: b.top + b.height / 2 + (arguments[1] - vy) * r, bubbles: true, pointerId: 1}; \
                 c.dispatchEvent(new PointerEvent('pointerdown', at)); \
                 c.dispatchEvent(new PointerEvent('pointerup', at));",
                vec![x.into(), y.into()],
            )
            .await
            .unwrap();
        std::fs::create_dir_all("target/phone").unwrap();
        let png = client.screenshot().await.unwrap();
        std::fs::write("target/phone/wings-map.png", png).unwrap();
        let events = told(&server, |e| matches!(e, FromPhone::Message(..)));
        assert!(events.contains(&FromPhone::Message(
            Side::South,
            FromPage::Tap { hex: target }
        )));
        client.close().await.unwrap();
    });
}

/// The laptop restarted while a phone held its seat (its network gone
/// with no goodbye, then Muster started again on the same port): the
/// phone's next try is told its code is from an earlier sitting, the page
/// says how to pair again and stops trying, so one refusal is counted,
/// not one every few seconds for ever.
#[test]
fn a_phone_after_the_laptop_restarts_is_told_its_code_is_from_an_earlier_sitting() {
    let Some((_driver, port)) = driver() else {
        return;
    };
    let before = polled();
    let south = before.pair(Side::South).unwrap();
    before.show(
        Side::South,
        shown(serde_json::json!({"title": "Ann's hand", "blocks": []})),
    );
    let at = before.addr().port();
    let profile = tempfile::tempdir().unwrap();
    runtime().block_on(async {
        let client = on_page(port, profile.path(), &south.url(&format!("{HOST}:{at}"))).await;
        client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::XPath(r#"//h1[text()="Ann's hand"]"#))
            .await
            .expect("the screen is drawn");
        // The laptop goes with no goodbye; the page retries (1 s first).
        before.cut();
        tokio::time::sleep(Duration::from_millis(200)).await;
        let browser::Polled { server, .. } = before;
        server.stop(muster::seats::server::CLOSE_STOPPED);
        tokio::time::sleep(Duration::from_millis(500)).await;
        // Muster again, on the same port, a new sitting with new codes.
        let after = polled_on(at);
        after.pair(Side::South).unwrap();
        let told = client
            .wait()
            .at_most(Duration::from_secs(20))
            .for_element(Locator::XPath(
                "//p[starts-with(text(), 'This code is from an earlier sitting')]",
            ))
            .await
            .expect("the page says its code is from an earlier sitting");
        assert!(
            told.text()
                .await
                .unwrap()
                .contains("ask at the table for a new code")
        );
        // It tries no more: long past its longest wait, one refusal.
        tokio::time::sleep(Duration::from_secs(10)).await;
        assert_eq!(after.refusals().count, 1, "{:?}", after.refusals());
        assert!(
            client.find(Locator::XPath("//button")).await.is_err(),
            "its buttons are gone"
        );
        client.close().await.unwrap();
    });
}
