//! A tap on a phone until both phones show its effect (issue 30; figures
//! in the README): the window itself (the app's shell, driven frame by
//! frame as eframe drives it: a frame when woken, none otherwise), its real
//! players' screens server on 127.0.0.1, and two phones' pages in headless
//! Chromium (the page loaded from a test hostname, so without WebCrypto, as
//! on a phone). A deck game is played from the phones: each active
//! player's *Play the … phase* and each passive player's *No interrupt*
//! changes both players' screens. For each tap the page itself notes the
//! time it was tapped and the time each page's screen changed: the median
//! and 90th percentile to the reply on the tapping phone and to the update
//! on the other. Drawing the window's pixels is not counted: a phone's new
//! screen leaves in the frame that applied the tap, before it is painted.
//!
//! `cargo bench --bench tap` (Chromium and chromedriver installed: `apt-get
//! install chromium chromium-driver`).

#![allow(dead_code, unused_imports, clippy::all)]

#[path = "../src/app/mod.rs"]
mod app;
#[path = "../tests/support/browser.rs"]
mod browser;
#[path = "../src/app/pairing.rs"]
mod pairing;
#[path = "../src/systems.rs"]
mod systems;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fantoccini::{Client, Locator};
use muster::core::side::Side;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// When the window is to be drawn next, as its repaint requests say.
#[derive(Default)]
struct Wake {
    next: Mutex<Option<Instant>>,
    ring: Condvar,
}

fn click(h: &mut Harness<'_, app::MusterApp>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

/// The window with an action-deck game started, Decius (South) active.
fn window() -> Harness<'static, app::MusterApp> {
    let config = app::AppConfig {
        autosave: None,
        inventory: None,
        open: None,
        seed: Some(7),
        viewer: app::Viewer::Off,
        settings: None,
        phone_names: vec![browser::HOST.into()],
    };
    let mut h = Harness::builder()
        .with_size([1280.0, 720.0])
        .with_max_steps(16)
        .renderer(pairing::Textures::new())
        .build_eframe(move |_| app::MusterApp::new(config));
    h.run();
    click(&mut h, "File");
    click(&mut h, "New");
    click(&mut h, "Action deck");
    for (label, name) in [("South player", "Decius"), ("North player", "Artagur")] {
        let field = h.get_by_label(label);
        field.focus();
        field.type_text(name);
        h.run();
    }
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    h
}

/// Runs the window as eframe does: a frame when a repaint is due, none
/// otherwise, until `stop`.
fn run(h: &mut Harness<'static, app::MusterApp>, wake: &Wake, stop: &AtomicBool) {
    while !stop.load(Ordering::SeqCst) {
        {
            let mut next = wake.next.lock().unwrap();
            loop {
                match *next {
                    Some(at) if at <= Instant::now() => break,
                    Some(at) => {
                        next = wake.ring.wait_timeout(next, at - Instant::now()).unwrap().0;
                    }
                    None => {
                        next = wake
                            .ring
                            .wait_timeout(next, Duration::from_millis(50))
                            .unwrap()
                            .0;
                        if stop.load(Ordering::SeqCst) {
                            return;
                        }
                    }
                }
            }
            *next = None;
        }
        h.step();
    }
}

const WATCH: &str = "
window.__changed = null;
if (window.__watch) window.__watch.disconnect();
window.__watch = new MutationObserver(() => { if (window.__changed === null) window.__changed = Date.now(); });
window.__watch.observe(document.getElementById('screen'), { childList: true, subtree: true, characterData: true });
return true;";

const TAP: &str = "
const b = [...document.querySelectorAll('button')].find((b) => b.textContent === arguments[0] && !b.disabled);
if (!b) return null;
const t = Date.now();
b.click();
return t;";

/// A phone's page.
struct Page {
    client: Client,
    _profile: tempfile::TempDir,
}

impl Page {
    async fn open(port: u16, url: &str) -> Page {
        let profile = tempfile::tempdir().unwrap();
        let client = browser::phone(port, profile.path()).await;
        client.goto(url).await.unwrap();
        Page {
            client,
            _profile: profile,
        }
    }

    /// Waits until a button says `label`.
    async fn has(&self, label: &str) {
        let xpath = format!("//button[text()=\"{label}\" and not(@disabled)]");
        for _ in 0..500 {
            if self.client.find(Locator::XPath(&xpath)).await.is_ok() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("{label} never showed");
    }

    /// The first button whose words hold `part`.
    async fn first(&self, part: &str) -> String {
        for _ in 0..500 {
            for b in self
                .client
                .find_all(Locator::Css("button"))
                .await
                .unwrap_or_default()
            {
                let text = b.text().await.unwrap_or_default();
                if text.contains(part) {
                    return text;
                }
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("no button with {part}");
    }

    async fn watch(&self) {
        self.client.execute(WATCH, vec![]).await.unwrap();
    }

    async fn changed(&self) -> u64 {
        for _ in 0..1000 {
            let at = self
                .client
                .execute("return window.__changed", vec![])
                .await
                .unwrap();
            if let Some(at) = at.as_u64() {
                return at;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        panic!("the screen never changed");
    }

    /// Taps `label`: when it was tapped.
    async fn tap(&self, label: &str) -> u64 {
        self.has(label).await;
        let at = self
            .client
            .execute(TAP, vec![serde_json::json!(label)])
            .await
            .unwrap();
        at.as_u64()
            .unwrap_or_else(|| panic!("{label} was not there"))
    }
}

/// A tap that changes both screens, timed: to the reply on the tapping
/// page, to the update on the other.
async fn timed(tapping: &Page, other: &Page, label: &str, times: &mut Vec<(u64, u64)>) {
    tapping.has(label).await;
    tapping.watch().await;
    other.watch().await;
    let at = tapping.tap(label).await;
    let (mine, theirs) = (tapping.changed().await, other.changed().await);
    times.push((mine - at, theirs - at));
}

/// Turns of the deck played from the phones until `samples` taps are
/// timed.
async fn play(pages: [Page; 2], samples: usize) -> Vec<(u64, u64)> {
    let mut times = Vec::new();
    let mut active = 0;
    while times.len() < samples {
        let (a, p) = (&pages[active], &pages[1 - active]);
        a.tap("End the event phase").await;
        for phase in ["rally", "shooting", "movement", "combat"] {
            timed(a, p, &format!("Play the {phase} phase"), &mut times).await;
            timed(p, a, "No interrupt", &mut times).await;
            a.tap(&format!("End the {phase} phase")).await;
        }
        let fatigue = a.first("(fatigue)").await;
        a.tap(&fatigue).await;
        let end = a.first("End turn").await;
        a.tap(&end).await;
        active = 1 - active;
    }
    times
}

fn percentile(mut values: Vec<u64>, p: f64) -> u64 {
    values.sort_unstable();
    values[((values.len() as f64 - 1.0) * p).round() as usize]
}

fn main() {
    // `cargo test --benches` runs each bench once to check it runs: this
    // one measures only when asked (`cargo bench`).
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let Some((_driver, port)) = browser::driver() else {
        return;
    };
    let mut h = window();
    let urls: Vec<String> = [(Side::South, "Decius"), (Side::North, "Artagur")]
        .into_iter()
        .map(|(side, name)| {
            pairing::pair(&mut h, side, name)
                .replace("http://127.0.0.1:", &format!("http://{}:", browser::HOST))
        })
        .collect();
    let wake = Arc::new(Wake::default());
    let rung = wake.clone();
    h.ctx.set_request_repaint_callback(move |info| {
        let at = Instant::now() + info.delay;
        let mut next = rung.next.lock().unwrap();
        if next.is_none_or(|n| at < n) {
            *next = Some(at);
        }
        rung.ring.notify_one();
    });
    *wake.next.lock().unwrap() = Some(Instant::now());
    let stop = Arc::new(AtomicBool::new(false));
    let done = stop.clone();
    let phones = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let times = runtime.block_on(async {
            let decius = Page::open(port, &urls[0]).await;
            let artagur = Page::open(port, &urls[1]).await;
            decius.has("End the event phase").await;
            // The pages settle before the first tap is timed.
            tokio::time::sleep(Duration::from_millis(500)).await;
            play([decius, artagur], 30).await
        });
        done.store(true, Ordering::SeqCst);
        times
    });
    run(&mut h, &wake, &stop);
    let times = phones.join().unwrap();
    let mine: Vec<u64> = times.iter().map(|t| t.0).collect();
    let theirs: Vec<u64> = times.iter().map(|t| t.1).collect();
    println!(
        "tap to redrawn, {} taps: this phone median {} ms, p90 {} ms; the other phone median {} ms, p90 {} ms",
        times.len(),
        percentile(mine.clone(), 0.5),
        percentile(mine, 0.9),
        percentile(theirs.clone(), 0.5),
        percentile(theirs, 0.9),
    );
}
