//! The window's players' screens driven in headless Chromium (tests only):
//! the server started on 127.0.0.1, each seat's page loaded from the test
//! hostname mapped to 127.0.0.1 (no WebCrypto, as on a phone on the
//! network), and a phone's page found, tapped and photographed while the
//! window runs frame by frame.

use crate::app::MusterApp;
use crate::app::phone_kit::browser::{HOST, PHONE, finger_tap, phone_sized};
use egui_kittest::Harness;
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, PointerAction, TouchActions};
use fantoccini::elements::Element;
use fantoccini::{Client, Locator};
use muster::core::side::Side;
use std::time::Duration;

/// `side`'s seat paired anew from the menu, its code read from the
/// window: its address on the test hostname (mapped to 127.0.0.1), so the
/// page runs, as on a phone, without WebCrypto.
pub(crate) fn pair(h: &mut Harness<'_, MusterApp>, side: Side) -> String {
    let name = h.state_mut().seat_names()[side].clone();
    let url = crate::app::pairing::pair(h, side, &name);
    url.replace("http://127.0.0.1:", &format!("http://{HOST}:"))
}

/// Fails the test at once when the server refused a message of a page as
/// not one of the protocol's types (`FromPage`): every message the real
/// page sends, in every browser test, is read against the Rust types.
pub(crate) fn every_message_was_typed(h: &Harness<'_, MusterApp>) {
    let refusals = h.state().seating.phones.refusals();
    if let Some(why) = refusals
        .last
        .iter()
        .find(|why| why.contains(muster::seats::protocol::NOT_THE_PAGES))
    {
        panic!("the page sent a message the protocol refuses: {why}");
    }
}

/// How long a page is waited for: a condition, never a sleep, bounded by
/// the clock (not by a count of tries, which a busy machine runs through
/// faster than its pages are drawn).
pub(crate) const WAIT: Duration = Duration::from_secs(30);

/// One phone's page in Chromium.
pub(crate) struct Page {
    pub runtime: tokio::runtime::Runtime,
    pub client: Client,
    /// Its own browser profile, gone with it.
    _profile: tempfile::TempDir,
    /// Where a screenshot of a failed wait goes.
    name: String,
}

impl Page {
    /// A phone at 390 x 844 on chromedriver's `port`, at `url`.
    pub(crate) fn open(port: u16, url: &str, name: &str) -> Page {
        Page::open_sized(port, url, name, PHONE)
    }

    /// A phone of `size` CSS pixels.
    pub(crate) fn open_sized(port: u16, url: &str, name: &str, size: (u32, u32)) -> Page {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let profile = tempfile::tempdir().unwrap();
        let client = runtime.block_on(async {
            let client = phone_sized(port, profile.path(), size).await;
            client.goto(url).await.unwrap();
            client
        });
        Page {
            runtime,
            client,
            _profile: profile,
            name: name.into(),
        }
    }

    /// The element at `xpath` once the laptop has sent it to the page,
    /// within `WAIT` whatever the machine's load; the page is photographed
    /// when it never comes, to see why.
    pub(crate) fn find(&self, h: &mut Harness<'_, MusterApp>, xpath: &str) -> Element {
        let deadline = std::time::Instant::now() + WAIT;
        while std::time::Instant::now() < deadline {
            h.run();
            every_message_was_typed(h);
            let found = self.runtime.block_on(async {
                tokio::time::timeout(
                    Duration::from_millis(50),
                    self.client.find(Locator::XPath(xpath)),
                )
                .await
                .ok()
                .and_then(Result::ok)
            });
            if let Some(element) = found {
                return element;
            }
        }
        let failed = format!("target/phone/{}-failed.png", self.name);
        self.screenshot(&failed);
        panic!("{xpath} never showed on {}'s phone ({failed})", self.name);
    }

    /// Taps the button that says `label`, once it is there and enabled.
    pub(crate) fn tap(&self, h: &mut Harness<'_, MusterApp>, label: &str) {
        self.click(h, &format!("//button[text()='{label}' and not(@disabled)]"));
    }

    /// Clicks the element at `xpath`; found again if the page redrew it
    /// between finding and clicking (a screen from the laptop came).
    pub(crate) fn click(&self, h: &mut Harness<'_, MusterApp>, xpath: &str) {
        let mut last = None;
        for _ in 0..20 {
            let element = self.find(h, xpath);
            // Clear of the page's sticky header, as a thumb would find it.
            self.show(&element, "center");
            match self.runtime.block_on(element.click()) {
                Ok(_) => return,
                Err(e) => last = Some(e),
            }
        }
        panic!("{xpath} on {}'s phone: {last:?}", self.name);
    }

    /// Types `text` into the field at `xpath`.
    pub(crate) fn type_into(&self, h: &mut Harness<'_, MusterApp>, xpath: &str, text: &str) {
        let field = self.find(h, xpath);
        self.runtime.block_on(field.send_keys(text)).unwrap();
    }

    /// Scrolls `element` into view (`block`: "center", "end"), if it is
    /// still there.
    pub(crate) fn show(&self, element: &Element, block: &str) {
        let arg = serde_json::to_value(element).unwrap();
        let script = format!("arguments[0].scrollIntoView({{block: '{block}'}})");
        let _ = self
            .runtime
            .block_on(self.client.execute(&script, vec![arg]));
    }

    /// Where `element` is in the viewport now: left, top, width, height.
    pub(crate) fn viewport_box(
        &self,
        element: &Element,
    ) -> Result<[f64; 4], fantoccini::error::CmdError> {
        let arg = serde_json::to_value(element).unwrap();
        let script = "const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height];";
        let found = self
            .runtime
            .block_on(self.client.execute(script, vec![arg]))?;
        let v: Vec<f64> = serde_json::from_value(found).unwrap_or_default();
        Ok([v[0], v[1], v[2], v[3]])
    }

    /// A finger's tap on the table drawn at `xpath`, at the point `at` of
    /// the table (its unit, y from the south edge), by the part of the
    /// table the page drew (`data-view`: its corners, and whether it is
    /// turned half round for North); found again if the page redrew it.
    pub(crate) fn tap_table(&self, h: &mut Harness<'_, MusterApp>, xpath: &str, at: [f64; 2]) {
        let mut last = None;
        for _ in 0..20 {
            let canvas = self.find(h, xpath);
            self.show(&canvas, "center");
            let arg = serde_json::to_value(&canvas).unwrap();
            let script = "const c = arguments[0]; const r = c.getBoundingClientRect(); return [r.left, r.top, r.width, r.height, ...c.dataset.view.split(' ').map(Number)];";
            let tapped = self.runtime.block_on(async {
                let v: Vec<f64> =
                    serde_json::from_value(self.client.execute(script, vec![arg]).await?)
                        .unwrap_or_default();
                let [left, top, width, height, x0, y0, x1, y1, turned] = v[..] else {
                    panic!("{xpath}: no view drawn on {}'s phone: {v:?}", self.name);
                };
                let (sx, sy) = if turned > 0.5 {
                    ((x1 - at[0]) / (x1 - x0), (at[1] - y0) / (y1 - y0))
                } else {
                    ((at[0] - x0) / (x1 - x0), (y1 - at[1]) / (y1 - y0))
                };
                let (x, y) = (left + sx * width, top + sy * height);
                self.client
                    .perform_actions(finger_tap(x.round(), y.round()))
                    .await
            });
            match tapped {
                Ok(()) => return,
                Err(e) => last = Some(e),
            }
        }
        panic!("{xpath} on {}'s phone: {last:?}", self.name);
    }

    /// Where a point of the hex map at `xpath` (map units,
    /// `HexMap::centre`) is in the viewport now, by the view the page drew
    /// (`data-view`: the map point at the pane's centre and a hex's size),
    /// and the map's own box.
    fn on_map(
        &self,
        h: &mut Harness<'_, MusterApp>,
        xpath: &str,
        at: (f64, f64),
    ) -> Result<((f64, f64), [f64; 4]), fantoccini::error::CmdError> {
        let canvas = self.find(h, xpath);
        self.show(&canvas, "center");
        let arg = serde_json::to_value(&canvas).unwrap();
        let script = "const c = arguments[0]; const r = c.getBoundingClientRect(); return [r.left, r.top, r.width, r.height, ...c.dataset.view.split(' ').map(Number)];";
        let v: Vec<f64> = serde_json::from_value(
            self.runtime
                .block_on(self.client.execute(script, vec![arg]))?,
        )
        .unwrap_or_default();
        let [left, top, width, height, x, y, radius] = v[..] else {
            panic!("{xpath}: no view drawn on {}'s phone: {v:?}", self.name);
        };
        let point = (
            left + width / 2.0 + (at.0 - x) * radius,
            top + height / 2.0 + (at.1 - y) * radius,
        );
        Ok((point, [left, top, width, height]))
    }

    /// Brings the point `at` of the hex map into view as a player does,
    /// moving the map with two fingers (which never trace a path or tap),
    /// and says where it is then.
    fn reveal(&self, h: &mut Harness<'_, MusterApp>, xpath: &str, at: (f64, f64)) -> (f64, f64) {
        for _ in 0..12 {
            let Ok(((x, y), [left, top, width, height])) = self.on_map(h, xpath, at) else {
                continue;
            };
            let room = 28.0;
            if x > left + room
                && x < left + width - room
                && y > top + room
                && y < top + height - room
            {
                return (x, y);
            }
            // Towards the middle, by at most most of the map's size.
            let (mx, my) = (left + width / 2.0, top + height / 2.0);
            let (reach_x, reach_y) = (width / 2.0 - room, height / 2.0 - room);
            let dx = (mx - x).clamp(-reach_x, reach_x);
            let dy = (my - y).clamp(-reach_y, reach_y);
            let finger = |name: &str, from: (f64, f64)| {
                TouchActions::new(name.into())
                    .then(PointerAction::MoveTo {
                        duration: None,
                        x: from.0.round(),
                        y: from.1.round(),
                    })
                    .then(PointerAction::Down {
                        button: MOUSE_BUTTON_LEFT,
                    })
                    .then(PointerAction::MoveTo {
                        duration: Some(std::time::Duration::from_millis(150)),
                        x: (from.0 + dx).round(),
                        y: (from.1 + dy).round(),
                    })
                    .then(PointerAction::Up {
                        button: MOUSE_BUTTON_LEFT,
                    })
            };
            // Two fingers side by side at the middle, moved together.
            let (a, b) = (
                (mx - dx / 2.0 - 20.0, my - dy / 2.0),
                (mx - dx / 2.0 + 20.0, my - dy / 2.0),
            );
            let _ = self.runtime.block_on(
                self.client
                    .perform_actions(vec![finger("finger", a), finger("thumb", b)]),
            );
        }
        panic!("{at:?} never came into view on {}'s phone", self.name);
    }

    /// A finger's tap at the point `at` of the hex map at `xpath` (map
    /// units), brought into view first.
    pub(crate) fn tap_map(&self, h: &mut Harness<'_, MusterApp>, xpath: &str, at: (f64, f64)) {
        let mut last = None;
        for _ in 0..20 {
            let (x, y) = self.reveal(h, xpath, at);
            match self.runtime.block_on(
                self.client
                    .perform_actions(finger_tap(x.round(), y.round())),
            ) {
                Ok(()) => return,
                Err(e) => last = Some(e),
            }
        }
        panic!("{xpath} on {}'s phone: {last:?}", self.name);
    }

    /// Drags a finger on the hex map at `xpath` through `points` (map
    /// units), as he traces a counter's path; the path's middle brought
    /// into view first.
    pub(crate) fn drag_map(
        &self,
        h: &mut Harness<'_, MusterApp>,
        xpath: &str,
        points: &[(f64, f64)],
    ) {
        let n = points.len() as f64;
        let middle = (
            points.iter().map(|p| p.0).sum::<f64>() / n,
            points.iter().map(|p| p.1).sum::<f64>() / n,
        );
        let mut last = None;
        for _ in 0..20 {
            self.reveal(h, xpath, middle);
            let mut on = Vec::new();
            let mut outside = false;
            for point in points {
                match self.on_map(h, xpath, *point) {
                    Ok(((x, y), [left, top, width, height])) => {
                        outside |= x < left + 4.0
                            || x > left + width - 4.0
                            || y < top + 4.0
                            || y > top + height - 4.0;
                        on.push((x, y));
                    }
                    Err(e) => last = Some(e),
                }
            }
            if on.len() < points.len() {
                continue;
            }
            // A path longer than the map shows: zoomed out, as he would.
            if outside {
                self.click(h, "//button[@aria-label='Zoom the map out']");
                continue;
            }
            let to = |(x, y): (f64, f64)| PointerAction::MoveTo {
                duration: Some(std::time::Duration::from_millis(60)),
                x: x.round(),
                y: y.round(),
            };
            let mut finger =
                TouchActions::new("finger".into())
                    .then(to(on[0]))
                    .then(PointerAction::Down {
                        button: MOUSE_BUTTON_LEFT,
                    });
            for at in &on[1..] {
                finger = finger.then(to(*at));
            }
            let finger = finger.then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
            match self.runtime.block_on(self.client.perform_actions(finger)) {
                Ok(()) => return,
                Err(e) => last = Some(e),
            }
        }
        panic!("{xpath} on {}'s phone: {last:?}", self.name);
    }

    /// What the page's script `js` returns, read as `T`.
    pub(crate) fn script<T: serde::de::DeserializeOwned>(&self, js: &str) -> T {
        let value = self
            .runtime
            .block_on(self.client.execute(js, Vec::new()))
            .unwrap_or_else(|e| panic!("{js} on {}'s phone: {e}", self.name));
        serde_json::from_value(value)
            .unwrap_or_else(|e| panic!("{js} on {}'s phone: {e}", self.name))
    }

    /// What the page says now, as its reader sees it.
    pub(crate) fn text(&self) -> String {
        let text = self.runtime.block_on(
            self.client
                .execute("return document.body.innerText", Vec::new()),
        );
        text.ok()
            .and_then(|t| t.as_str().map(str::to_string))
            .unwrap_or_default()
    }

    /// The private printout the page was sent, as he would open it: its
    /// link found on the page, its file read back through the browser
    /// (the page may redraw meanwhile: the link is looked up in the page).
    pub(crate) fn printout(&self, h: &mut Harness<'_, MusterApp>) -> Vec<u8> {
        use base64::Engine as _;
        self.find(h, "//a[text()='Open my private printout (PDF)']");
        let script = "const done = arguments[arguments.length - 1];
            const link = document.querySelector('a[download]');
            fetch(link.href).then((r) => r.arrayBuffer()).then((b) => {
              let text = '';
              for (const byte of new Uint8Array(b)) text += String.fromCharCode(byte);
              done(btoa(text));
            }).catch((e) => done('failed: ' + e));";
        let read = self
            .runtime
            .block_on(self.client.execute_async(script, Vec::new()))
            .unwrap();
        let text = read.as_str().unwrap_or_default();
        base64::engine::general_purpose::STANDARD
            .decode(text)
            .unwrap_or_else(|e| panic!("the printout did not read back ({e}): {text}"))
    }

    pub(crate) fn screenshot(&self, path: &str) {
        let png = self
            .runtime
            .block_on(self.client.screenshot())
            .unwrap_or_default();
        let _ = std::fs::create_dir_all("target/phone");
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        let _ = self.runtime.block_on(self.client.clone().close());
    }
}
