//! A tap on a phone until both phones have painted its effect, on the path
//! a player's tap takes (issue 37; figures in the README): the real eframe
//! window (under Xvfb, started here when no display is set), autosave on
//! (its writer's file and folder syncs included), its real players' screens
//! server on 127.0.0.1, and two phones' pages in headless Chromium (loaded
//! from a test hostname, so without WebCrypto, as on a phone).
//!
//! The game is set up and each phone paired in a test harness, by the
//! window's labels and its QR codes read back, as the tests do; the shell
//! is then moved into the real window, which runs as it does for players.
//! A deck game is played from the phones: each active player's *Play the
//! … phase* and each passive player's *No interrupt* changes both screens.
//! Each tap is a finger's (WebDriver touch actions); each page notes the
//! tap's own `pointerdown` time and the `requestAnimationFrame` after its
//! screen's change, the frame that paints it: the median and 90th
//! percentile to the tapping phone and to the other, first on a quiet
//! machine, then with the other core kept busy. Not counted: the Wi-Fi
//! (the pages are on 127.0.0.1) and a phone's own slower CPU.
//!
//! `cargo bench --bench tap` (Chromium, chromedriver and Xvfb installed:
//! `apt-get install chromium chromium-driver xvfb`).

#![allow(dead_code, unused_imports, clippy::all)]

#[path = "../src/app/mod.rs"]
mod app;
#[path = "../tests/support/browser.rs"]
mod browser;
#[path = "../src/app/pairing.rs"]
mod pairing;
#[path = "../src/systems.rs"]
mod systems;

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, PointerAction, TouchActions};
use fantoccini::{Client, Locator};
use muster::core::side::Side;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn click(h: &mut Harness<'_, app::MusterApp>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

fn config(autosave: Option<std::path::PathBuf>) -> app::AppConfig {
    app::AppConfig {
        autosave,
        inventory: None,
        open: None,
        seed: None,
        viewer: app::Viewer::Off,
        settings: None,
        phone_names: vec![browser::HOST.into()],
    }
}

/// An action-deck game started, Decius (South) active, both seats paired
/// from the menu: the shell, and each seat's address for Chromium.
fn set_up(autosave: &std::path::Path) -> (app::MusterApp, Vec<String>) {
    let dir = autosave.to_path_buf();
    let mut h = Harness::builder()
        .with_size([1280.0, 720.0])
        .with_max_steps(16)
        .renderer(pairing::Textures::new())
        .build_eframe(move |_| app::MusterApp::new(config(Some(dir))));
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
    let urls = [(Side::South, "Decius"), (Side::North, "Artagur")]
        .into_iter()
        .map(|(side, name)| {
            pairing::pair(&mut h, side, name)
                .replace("http://127.0.0.1:", &format!("http://{}:", browser::HOST))
        })
        .collect();
    pairing::close(&mut h);
    let shell = std::mem::replace(h.state_mut(), app::MusterApp::new(config(None)));
    (shell, urls)
}

/// What the bench's thread shares with the window: its context once it
/// runs, and when to close it.
#[derive(Default)]
struct Probe {
    ctx: Mutex<Option<egui::Context>>,
    quit: AtomicBool,
}

/// The real window around the shell.
struct Window {
    shell: app::MusterApp,
    probe: Arc<Probe>,
}

impl eframe::App for Window {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        self.probe
            .ctx
            .lock()
            .unwrap()
            .get_or_insert_with(|| ui.ctx().clone());
        if self.probe.quit.load(Ordering::SeqCst) {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        eframe::App::ui(&mut self.shell, ui, frame);
    }

    fn on_exit(&mut self, gl: Option<&eframe::glow::Context>) {
        eframe::App::on_exit(&mut self.shell, gl);
    }
}

/// Notes, in the page, the next tap's `pointerdown` and `pointerup` and
/// the frame after its screen's next change, on the machine's clock
/// (epoch milliseconds: two pages' own high-resolution clocks start at
/// different origins and cannot be compared).
const WATCH: &str = "
window.__down = null; window.__up = null; window.__painted = null; window.__seen = false;
const epoch = (stamp) => Date.now() - (performance.now() - stamp);
if (!window.__listening) {
  window.__listening = true;
  document.addEventListener('pointerdown', (e) => {
    if (window.__down === null) window.__down = epoch(e.timeStamp);
  }, true);
  document.addEventListener('pointerup', (e) => {
    if (window.__up === null) window.__up = epoch(e.timeStamp);
  }, true);
}
if (window.__watch) window.__watch.disconnect();
window.__watch = new MutationObserver(() => {
  if (window.__seen) return;
  window.__seen = true;
  window.__changed = Date.now();
  requestAnimationFrame(() => { window.__painted = Date.now(); });
});
window.__watch.observe(document.getElementById('screen'), { childList: true, subtree: true, characterData: true });
return true;";

/// Where the enabled button saying `arguments[0]` is, scrolled into view:
/// its centre in the viewport.
const FIND: &str = "
const b = [...document.querySelectorAll('button')].find((b) => b.textContent === arguments[0] && !b.disabled);
if (!b) return null;
b.scrollIntoView({ block: 'center' });
const r = b.getBoundingClientRect();
return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];";

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

    /// Where the button `label` is, once it is there and enabled.
    async fn button(&self, label: &str) -> (f64, f64) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            let at = self
                .client
                .execute(FIND, vec![serde_json::json!(label)])
                .await
                .unwrap();
            if let Some([x, y]) = serde_json::from_value::<Option<[f64; 2]>>(at).unwrap() {
                return (x, y);
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        panic!("{label} never showed");
    }

    /// The first button whose words hold `part`.
    async fn first(&self, part: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
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
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        panic!("no button with {part}");
    }

    async fn watch(&self) {
        self.client.execute(WATCH, vec![]).await.unwrap();
    }

    /// What the page noted: (`pointerdown`, `pointerup`, painted).
    async fn noted(&self) -> (Option<f64>, Option<f64>, Option<f64>, Option<f64>) {
        let v = self
            .client
            .execute(
                "return [window.__down, window.__up, window.__painted, window.__changed]",
                vec![],
            )
            .await
            .unwrap();
        serde_json::from_value(v).unwrap()
    }

    /// The frame that painted the next change, once it came.
    async fn painted(&self) -> f64 {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let (_, _, Some(at), _) = self.noted().await {
                return at;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        panic!("the screen never changed");
    }

    /// A finger's tap on the button `label`: down and up at its centre,
    /// through WebDriver's touch input, or dispatched by the page's own
    /// script (`by_script`: the same events, without the automation's
    /// input pipeline).
    async fn tap_by(&self, label: &str, by_script: bool) {
        let (x, y) = self.button(label).await;
        if by_script {
            self.client
                .execute(SCRIPT_TAP, vec![serde_json::json!(label)])
                .await
                .unwrap();
            return;
        }
        self.client
            .perform_actions(browser::finger_tap(x, y))
            .await
            .unwrap();
    }

    async fn tap(&self, label: &str) {
        self.tap_by(label, false).await;
    }
}

/// A tap dispatched in the page: `pointerdown`, `pointerup`, `click` on the
/// button saying `arguments[0]`.
const SCRIPT_TAP: &str = "
const b = [...document.querySelectorAll('button')].find((b) => b.textContent === arguments[0] && !b.disabled);
const r = b.getBoundingClientRect();
const at = { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true, pointerType: 'touch', isPrimary: true, pointerId: 1 };
b.dispatchEvent(new PointerEvent('pointerdown', at));
b.dispatchEvent(new PointerEvent('pointerup', at));
b.click();
return true;";

/// A tap that changes both screens, timed from its `pointerdown` to each
/// page's painted change, and how long the finger was down (milliseconds).
async fn timed(
    tapping: &Page,
    other: &Page,
    label: &str,
    by_script: bool,
    times: &mut Vec<Timing>,
) {
    tapping.button(label).await;
    tapping.watch().await;
    other.watch().await;
    tapping.tap_by(label, by_script).await;
    let (mine, theirs) = (tapping.painted().await, other.painted().await);
    let (down, up, _, changed) = tapping.noted().await;
    let (down, up) = (
        down.expect("the page saw its pointerdown"),
        up.expect("the page saw its pointerup"),
    );
    let (.., theirs_changed) = other.noted().await;
    times.push(Timing {
        mine: mine - down,
        theirs: theirs - down,
        held: up - down,
        mine_changed: changed.unwrap_or(mine) - down,
        theirs_changed: theirs_changed.unwrap_or(theirs) - down,
    });
}

/// One tap: from its `pointerdown` to each phone's frame, and how long the
/// finger was down (the page acts on the release, as a button does).
#[derive(Clone, Copy)]
struct Timing {
    mine: f64,
    theirs: f64,
    held: f64,
    /// When each page's screen changed (before the frame that paints it).
    mine_changed: f64,
    theirs_changed: f64,
}

/// Turns of the deck played from the phones until `samples` taps are
/// timed.
async fn play(
    pages: &[Page; 2],
    active: &mut usize,
    samples: usize,
    by_script: bool,
) -> Vec<Timing> {
    let mut times = Vec::new();
    while times.len() < samples {
        let (a, p) = (&pages[*active], &pages[1 - *active]);
        a.tap("End the event phase").await;
        for phase in ["rally", "shooting", "movement", "combat"] {
            let play = format!("Play the {phase} phase");
            timed(a, p, &play, by_script, &mut times).await;
            timed(p, a, "No interrupt", by_script, &mut times).await;
            a.tap(&format!("End the {phase} phase")).await;
        }
        let fatigue = a.first("(fatigue)").await;
        a.tap(&fatigue).await;
        let end = a.first("End turn").await;
        a.tap(&end).await;
        *active = 1 - *active;
    }
    times
}

fn percentile(mut values: Vec<f64>, p: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    values[((values.len() as f64 - 1.0) * p).round() as usize]
}

fn report(what: &str, times: &[Timing]) {
    let of = |f: fn(&Timing) -> f64| times.iter().map(f).collect::<Vec<f64>>();
    let (mine, theirs, held) = (of(|t| t.mine), of(|t| t.theirs), of(|t| t.held));
    let after: Vec<f64> = times.iter().map(|t| t.mine - t.held).collect();
    let (mine_changed, theirs_changed) = (of(|t| t.mine_changed), of(|t| t.theirs_changed));
    println!(
        "{what}: the screens changed (before their frames) at a median {:.1} ms on this phone, {:.1} ms on the other",
        percentile(mine_changed, 0.5),
        percentile(theirs_changed, 0.5)
    );
    println!(
        "{what}, {} taps, pointerdown to painted: this phone median {:.1} ms, p90 {:.1} ms; the other phone median {:.1} ms, p90 {:.1} ms (the finger down for a median {:.1} ms; from its release, this phone median {:.1} ms, p90 {:.1} ms)",
        times.len(),
        percentile(mine.clone(), 0.5),
        percentile(mine, 0.9),
        percentile(theirs.clone(), 0.5),
        percentile(theirs, 0.9),
        percentile(held, 0.5),
        percentile(after.clone(), 0.5),
        percentile(after, 0.9),
    );
}

/// Xvfb on a display of its own, when none is set: ended with the bench.
struct Display(Option<std::process::Child>);

impl Display {
    fn ensure() -> Display {
        if std::env::var_os("DISPLAY").is_some() {
            return Display(None);
        }
        let child = std::process::Command::new("Xvfb")
            .args([":93", "-screen", "0", "1366x768x24", "-nolisten", "tcp"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("Xvfb (apt-get install xvfb)");
        std::thread::sleep(Duration::from_millis(500));
        // Set before any thread starts.
        unsafe { std::env::set_var("DISPLAY", ":93") };
        Display(Some(child))
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn main() {
    // `cargo test --benches` runs each bench once to check it runs: this
    // one measures only when asked (`cargo bench`).
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let _display = Display::ensure();
    let Some((_driver, port)) = browser::driver() else {
        return;
    };
    let autosave = tempfile::tempdir().unwrap();
    let (shell, urls) = set_up(autosave.path());
    let probe = Arc::new(Probe::default());
    let seen = probe.clone();
    let phones = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            while seen.ctx.lock().unwrap().is_none() {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            let pages = [
                Page::open(port, &urls[0]).await,
                Page::open(port, &urls[1]).await,
            ];
            pages[0].button("End the event phase").await;
            // The pages settle before the first tap is timed.
            tokio::time::sleep(Duration::from_millis(500)).await;
            let mut active = 0;
            let quiet = play(&pages, &mut active, 32, false).await;
            report("quiet", &quiet);
            let quiet = play(&pages, &mut active, 32, true).await;
            report("quiet, taps dispatched by the page's script", &quiet);
            // The other core kept busy, as by a build or a browser.
            let stop = Arc::new(AtomicBool::new(false));
            let spin = stop.clone();
            let busy = std::thread::spawn(move || {
                let mut n = 0u64;
                while !spin.load(Ordering::Relaxed) {
                    n = n.wrapping_mul(6364136223846793005).wrapping_add(1);
                    std::hint::black_box(n);
                }
            });
            let loaded = play(&pages, &mut active, 32, false).await;
            let scripted = play(&pages, &mut active, 32, true).await;
            stop.store(true, Ordering::SeqCst);
            busy.join().unwrap();
            report("the other core busy", &loaded);
            report(
                "the other core busy, taps dispatched by the page's script",
                &scripted,
            );
        });
        seen.quit.store(true, Ordering::SeqCst);
        if let Some(ctx) = seen.ctx.lock().unwrap().as_ref() {
            ctx.request_repaint();
        }
    });
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Muster (tap bench)")
            .with_inner_size([1280.0, 720.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Muster tap bench",
        options,
        Box::new(move |_| Ok(Box::new(Window { shell, probe }))),
    )
    .expect("the window runs");
    phones.join().unwrap();
}
