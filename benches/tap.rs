//! A tap on a phone until both phones have painted its effect, on the path
//! a player's tap takes (issue 37; figures in the manual's speed chapter): the real eframe
//! window (under Xvfb, started here when no display is set), autosave on
//! (its writer's file and folder syncs included), its real players' screens
//! server on 127.0.0.1, and two phones' pages in headless Chromium (loaded
//! from a test hostname, so without WebCrypto, as on a phone).
//!
//! The game is set up and each phone paired in a test harness, by the
//! window's labels and its QR codes read back, as the tests do; the shell
//! is then moved into the real window, which runs as it does for players.
//! Each system in a run of its own (one window a process): a deck game
//! played from the phones (each active player's *Play the … phase* and
//! each passive player's *No interrupt* changes both screens); a Field of
//! Glory ambush point tapped on South's table; a hidden-forces counter
//! dragged on Ann's map (the move it proposes comes back to her phone); a
//! dummy-wings leader's path traced on Fritz's map, each where his first
//! view drew it. The map games start
//! from the shipped example scripts (`examples/scripts`), run by
//! `muster script` and opened in the window. Each tap is a finger's
//! (WebDriver touch actions); each page notes the tap's own `pointerdown`
//! and `pointerup` and the `requestAnimationFrame` after its screen's
//! change, the frame that paints it: the median and 90th percentile to the
//! tapping phone and (for the deck) to the other, first on a quiet machine,
//! then with the other core kept busy. A drag is timed from the finger's
//! lift, when the page sends it. The deck's run then times a bare page
//! (a button answered by an echo, no cipher, no laptop) the same way:
//! Chromium's own part of a tap answered over a socket. Not counted: the Wi-Fi (the pages are on
//! 127.0.0.1) and a phone's own slower CPU.
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

fn config(autosave: &std::path::Path, open: Option<std::path::PathBuf>) -> app::AppConfig {
    app::AppConfig {
        autosave: Some(autosave.to_path_buf()),
        inventory: None,
        open,
        seed: None,
        viewer: app::Viewer::Off,
        settings: None,
        phone_names: vec![browser::HOST.into()],
        net: muster_remote::Net::nowhere(),
        join: None,
    }
}

/// The game one run of the bench times.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Game {
    Deck,
    Fog,
    Forces,
    Wings,
}

impl Game {
    const ALL: [Game; 4] = [Game::Deck, Game::Fog, Game::Forces, Game::Wings];

    fn key(self) -> &'static str {
        match self {
            Game::Deck => "deck",
            Game::Fog => "fog",
            Game::Forces => "forces",
            Game::Wings => "wings",
        }
    }
}

/// The first `lines` of the shipped example script `script`, run by
/// `muster script` (from `battle`, if given) and saved at `save`.
fn scripted(
    system: &str,
    script: &str,
    lines: usize,
    battle: Option<&std::path::Path>,
    save: &std::path::Path,
) {
    use std::io::Write;
    let root = env!("CARGO_MANIFEST_DIR");
    let text: String = std::fs::read_to_string(format!("{root}/examples/scripts/{script}"))
        .unwrap()
        .lines()
        .take(lines)
        .map(|l| format!("{l}\n"))
        .collect();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_muster"));
    command.args(["script", "--system", system, "-", "--save"]);
    command.arg(save);
    if let Some(battle) = battle {
        command.arg("--battle").arg(battle);
    }
    let mut child = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("muster script runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success(), "{script}: a line refused");
}

/// `game` started in the window (a deck game from *File > New*, the map
/// games from their example scripts, opened), both seats paired from the
/// menu: the shell, and each seat's address for Chromium.
fn set_up(game: Game, dir: &std::path::Path) -> (app::MusterApp, Vec<String>) {
    let file = dir.join("game.json");
    let open = match game {
        Game::Deck => None,
        Game::Fog => {
            let battle = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/assets/battles/terrain_laid.json"
            );
            // Camps and fortifications placed, North's ambushes done.
            scripted("fog", "deployment.jsonl", 7, Some(battle.as_ref()), &file);
            Some(file)
        }
        // Set up, Ann's (South's) first turn begun.
        Game::Forces => {
            scripted("forces", "forces.jsonl", 6, None, &file);
            Some(file)
        }
        // Set up, Fritz's (South's) first turn begun.
        Game::Wings => {
            scripted("wings", "wings.jsonl", 6, None, &file);
            Some(file)
        }
    };
    let autosave = dir.join("autosaves");
    let mut h = Harness::builder()
        .with_size([1280.0, 720.0])
        .with_max_steps(16)
        .renderer(pairing::Textures::new())
        .build_eframe(move |_| app::MusterApp::new(config(&autosave, open)));
    h.run();
    match game {
        Game::Deck => {
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
        }
        // South unlocks on his phone.
        Game::Fog => click(&mut h, "Look at it read-only for now"),
        Game::Forces | Game::Wings => {}
    }
    let names = h.state_mut().seat_names();
    let urls = [Side::South, Side::North]
        .into_iter()
        .map(|side| {
            pairing::pair(&mut h, side, &names[side])
                .replace("http://127.0.0.1:", &format!("http://{}:", browser::HOST))
        })
        .collect();
    pairing::close(&mut h);
    let spare = config(&dir.join("spare"), None);
    let shell = std::mem::replace(h.state_mut(), app::MusterApp::new(spare));
    (shell, urls)
}

/// What the bench's thread shares with the window: its context once it
/// runs, and when to close it.
#[derive(Default)]
struct Probe {
    ctx: Mutex<Option<egui::Context>>,
    quit: AtomicBool,
}

/// Closes the window when dropped.
struct Closes(Arc<Probe>);

impl Drop for Closes {
    fn drop(&mut self) {
        self.0.quit.store(true, Ordering::SeqCst);
        if let Some(ctx) = self
            .0
            .ctx
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            ctx.request_repaint();
        }
    }
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
window.__afterUp = arguments[0];
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
  // A map's change counts once the finger lifted (what it drew under the
  // finger is its own).
  if (window.__seen || (window.__afterUp && window.__up === null)) return;
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

/// Where the first canvas whose label holds `arguments[0]` is, scrolled
/// into view: its box in the viewport, then what part of its drawing it
/// shows (`data-view`).
const CANVAS: &str = "
const c = [...document.querySelectorAll('canvas')].find((c) => (c.getAttribute('aria-label') || '').includes(arguments[0]));
if (!c) return null;
c.scrollIntoView({ block: 'center' });
const r = c.getBoundingClientRect();
return [r.left, r.top, r.width, r.height, ...c.dataset.view.split(' ').map(Number)];";

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

    /// Watches for the next tap and the change it brings (`after_up`:
    /// only a change after the finger lifted).
    async fn watch(&self, after_up: bool) {
        self.client
            .execute(WATCH, vec![serde_json::json!(after_up)])
            .await
            .unwrap();
    }

    /// Where the canvas whose label holds `part` is, scrolled into view:
    /// its left, top, width and height in the viewport, then its view (a
    /// hex map's centre and hex size, or a table's corners and turn).
    async fn canvas(&self, part: &str) -> Vec<f64> {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            let at = self
                .client
                .execute(CANVAS, vec![serde_json::json!(part)])
                .await
                .unwrap();
            if let Some(placed) = serde_json::from_value::<Option<Vec<f64>>>(at).unwrap() {
                return placed;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        panic!("no map saying {part:?}");
    }

    /// A finger on the map whose label holds `part`: a tap at one point, a
    /// drag through several (points of the drawing: a hex map's units, or
    /// the table's, y from the south edge), where the page drew them.
    async fn touch(&self, part: &str, points: &[[f64; 2]]) {
        let drawn = self.canvas(part).await;
        let at = |p: [f64; 2]| {
            let (sx, sy) = match drawn[4..] {
                [x, y, radius] => (
                    drawn[2] / 2.0 + (p[0] - x) * radius,
                    drawn[3] / 2.0 + (p[1] - y) * radius,
                ),
                [x0, y0, x1, y1, turned] if turned > 0.5 => (
                    (x1 - p[0]) / (x1 - x0) * drawn[2],
                    (p[1] - y0) / (y1 - y0) * drawn[3],
                ),
                [x0, y0, x1, y1, _] => (
                    (p[0] - x0) / (x1 - x0) * drawn[2],
                    (y1 - p[1]) / (y1 - y0) * drawn[3],
                ),
                _ => panic!("a drawing with no view: {drawn:?}"),
            };
            ((drawn[0] + sx).round(), (drawn[1] + sy).round())
        };
        let (x, y) = at(points[0]);
        let finger = if points.len() == 1 {
            browser::finger_tap(x, y)
        } else {
            let mut finger = TouchActions::new("finger".into())
                .then(PointerAction::MoveTo {
                    duration: None,
                    x,
                    y,
                })
                .then(PointerAction::Down {
                    button: MOUSE_BUTTON_LEFT,
                });
            for point in &points[1..] {
                let (x, y) = at(*point);
                finger = finger.then(PointerAction::MoveTo {
                    duration: Some(Duration::from_millis(60)),
                    x,
                    y,
                });
            }
            finger.then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            })
        };
        self.client.perform_actions(finger).await.unwrap();
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
    tapping.watch(false).await;
    other.watch(false).await;
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
        let mut ending = "event";
        for phase in ["rally", "shooting", "movement", "combat"] {
            let play = format!("End the {ending} phase, play the {phase} phase");
            timed(a, p, &play, by_script, &mut times).await;
            timed(p, a, "No interrupt", by_script, &mut times).await;
            ending = phase;
        }
        a.tap("End the combat phase").await;
        let fatigue = a.first("(fatigue)").await;
        a.tap(&fatigue).await;
        let end = a.first("End turn").await;
        a.tap(&end).await;
        *active = 1 - *active;
    }
    times
}

/// The gestures `game` times on South's phone, once he is ready for
/// them: the map's label (a part of it) and each gesture's points, points
/// of the drawing in his first view, taken in turn so that each changes
/// his screen.
async fn ready(game: Game, south: &Page) -> (&'static str, Vec<Vec<[f64; 2]>>) {
    let hex = |map: &muster::core::hexmap::HexMap, name: &str| {
        let (x, y) = map.centre(map.hex(name).unwrap());
        [x, y]
    };
    match game {
        Game::Deck => unreachable!("the deck is timed by its turns"),
        // He unlocks, picks his archers and taps the table where they may
        // hide, each tap a new point (a second tap on one point seals).
        Game::Fog => {
            let field = south
                .client
                .wait()
                .for_element(Locator::Css("input[type=password]"))
                .await
                .unwrap();
            field
                .send_keys(muster::fog::examples::EXAMPLE_PASSPHRASE)
                .await
                .unwrap();
            south.tap("Unlock").await;
            south.tap("Syrian archers").await;
            let on = |x: f64, y: f64| vec![[x, y]];
            ("tap to pick a point", vec![on(10.0, 10.0), on(18.0, 16.0)])
        }
        // His force 12 (in 0505) chosen, dragged a hex one way, then
        // another: each drag asks "Move force 12 from 0505 to …?".
        Game::Forces => {
            south.tap("force 12").await;
            let map = muster::map_intel::scenario::Scenario::example().map;
            let drag = |to: &str| vec![hex(&map, "0505"), hex(&map, to)];
            ("", vec![drag("0506"), drag("0605")])
        }
        // His second wing's leader (in 2005, where his first view is
        // centred) traced two hexes on, then three.
        Game::Wings => {
            let map = muster::map_intel::wings::scenario::builtin()
                .into_iter()
                .find(|b| b.id == "rossbach")
                .unwrap()
                .map;
            let path = |to: u32| (2005..=to).map(|n| hex(&map, &n.to_string())).collect();
            ("", vec![path(2007), path(2008)])
        }
    }
}

/// `samples` of the gestures on the map whose label holds `map`, each
/// timed to the frame that paints its answer on his phone.
async fn gestured(
    page: &Page,
    map: &str,
    gestures: &[Vec<[f64; 2]>],
    samples: usize,
) -> Vec<Timing> {
    let mut times = Vec::new();
    for k in 0..samples {
        page.watch(true).await;
        page.touch(map, &gestures[k % gestures.len()]).await;
        let mine = page.painted().await;
        let (down, up, _, changed) = page.noted().await;
        let (down, up) = (
            down.expect("the page saw its pointerdown"),
            up.expect("the page saw its pointerup"),
        );
        times.push(Timing {
            mine: mine - down,
            theirs: f64::NAN,
            held: up - down,
            mine_changed: changed.unwrap_or(mine) - down,
            theirs_changed: f64::NAN,
        });
        // As a player would, he looks before his next gesture.
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    times
}

/// The gestures' figures: from the finger's lift, when the page sends it,
/// to the frame painted on his phone.
fn report_map(what: &str, times: &[Timing]) {
    let lifted: Vec<f64> = times.iter().map(|t| t.mine - t.held).collect();
    let changed: Vec<f64> = times.iter().map(|t| t.mine_changed - t.held).collect();
    println!(
        "{what}, {} gestures, from the finger's lift to painted on his phone: median {:.1} ms, p90 {:.1} ms (his screen changed at a median {:.1} ms; the finger was down a median {:.1} ms)",
        times.len(),
        percentile(lifted.clone(), 0.5),
        percentile(lifted, 0.9),
        percentile(changed, 0.5),
        percentile(times.iter().map(|t| t.held).collect(), 0.5),
    );
}

/// The other core kept busy, as by a build or a browser, until dropped.
struct Busy {
    stop: Arc<AtomicBool>,
    spinner: Option<std::thread::JoinHandle<()>>,
}

impl Busy {
    fn start() -> Busy {
        let stop = Arc::new(AtomicBool::new(false));
        let spin = stop.clone();
        let spinner = std::thread::spawn(move || {
            let mut n = 0u64;
            while !spin.load(Ordering::Relaxed) {
                n = n.wrapping_mul(6364136223846793005).wrapping_add(1);
                std::hint::black_box(n);
            }
        });
        Busy {
            stop,
            spinner: Some(spinner),
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(spinner) = self.spinner.take() {
            let _ = spinner.join();
        }
    }
}

/// A bare page to set Muster's figures against: a button whose tap is sent
/// to an echo on 127.0.0.1 and whose answer is written into the page, no
/// cipher, no laptop, timed with the same finger and the same watch as
/// Muster's pages. What it measures is Chromium's and WebDriver's own part
/// of a tap answered over a socket: the finger's events, the frame the
/// browser draws after an input before it runs the page's next task (the
/// answer waits for it), and the frame that paints the change.
const BARE_PAGE: &str = "<!doctype html><html><head><meta charset=\"utf-8\">
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">
<style>button { display: block; width: 100%; min-height: 48px; }</style></head>
<body><main id=\"screen\"><button disabled>Echo</button><p id=\"said\">0</p></main>
<script>
const button = document.querySelector('button');
const socket = new WebSocket('ws://127.0.0.1:PORT/');
let n = 0;
socket.onopen = () => { button.disabled = false; };
button.onclick = () => socket.send(String(++n));
socket.onmessage = (event) => { document.getElementById('said').textContent = event.data; };
</script></body></html>";

/// Serves the bare page and its echo on 127.0.0.1 (threads ended with
/// the bench's process): the page's address.
fn bare_page() -> String {
    use std::io::{Read, Write};
    let http = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let echo = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let page = BARE_PAGE.replace("PORT", &echo.local_addr().unwrap().port().to_string());
    std::thread::spawn(move || {
        for stream in echo.incoming().flatten() {
            std::thread::spawn(move || {
                let _ = stream.set_nodelay(true);
                let Ok(mut socket) = tokio_tungstenite::tungstenite::accept(stream) else {
                    return;
                };
                while let Ok(message) = socket.read() {
                    if message.is_text() && socket.send(message).is_err() {
                        return;
                    }
                }
            });
        }
    });
    let address = format!("http://127.0.0.1:{}/", http.local_addr().unwrap().port());
    std::thread::spawn(move || {
        for mut stream in http.incoming().flatten() {
            let mut head = [0u8; 4096];
            let _ = stream.read(&mut head);
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
                page.len()
            );
        }
    });
    address
}

/// `samples` taps on the bare page.
async fn bare(page: &Page, samples: usize) -> Vec<Timing> {
    let mut times = Vec::new();
    while times.len() < samples {
        timed(page, page, "Echo", false, &mut times).await;
    }
    times
}

/// Times `game` on the two phones' pages, quiet then busy (the deck's
/// run times the bare page too, on chromedriver's `port`).
async fn measure(game: Game, pages: &[Page; 2], port: u16) {
    if game == Game::Deck {
        pages[0]
            .button("End the event phase, play the rally phase")
            .await;
        // The pages settle before the first tap is timed.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let mut active = 0;
        let quiet = play(pages, &mut active, 32, false).await;
        report("deck, quiet", &quiet);
        let quiet = play(pages, &mut active, 32, true).await;
        report("deck, quiet, taps dispatched by the page's script", &quiet);
        let busy = Busy::start();
        let loaded = play(pages, &mut active, 32, false).await;
        let scripted = play(pages, &mut active, 32, true).await;
        drop(busy);
        report("deck, the other core busy", &loaded);
        report(
            "deck, the other core busy, taps dispatched by the page's script",
            &scripted,
        );
        let page = Page::open(port, &bare_page()).await;
        page.button("Echo").await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        report_bare(
            "a bare page answered by an echo, quiet",
            &bare(&page, 32).await,
        );
        let busy = Busy::start();
        report_bare(
            "a bare page answered by an echo, the other core busy",
            &bare(&page, 32).await,
        );
        drop(busy);
        let _ = page.client.close().await;
        return;
    }
    let (map, gestures) = ready(game, &pages[0]).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let quiet = gestured(&pages[0], map, &gestures, 32).await;
    report_map(&format!("{}, quiet", game.key()), &quiet);
    let busy = Busy::start();
    let loaded = gestured(&pages[0], map, &gestures, 32).await;
    drop(busy);
    report_map(&format!("{}, the other core busy", game.key()), &loaded);
}

fn percentile(mut values: Vec<f64>, p: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    values[((values.len() as f64 - 1.0) * p).round() as usize]
}

fn report_bare(what: &str, times: &[Timing]) {
    let mine: Vec<f64> = times.iter().map(|t| t.mine).collect();
    let after: Vec<f64> = times.iter().map(|t| t.mine - t.held).collect();
    println!(
        "{what}, {} taps, pointerdown to painted: median {:.1} ms, p90 {:.1} ms (the finger down for a median {:.1} ms; from its release, median {:.1} ms, p90 {:.1} ms)",
        times.len(),
        percentile(mine.clone(), 0.5),
        percentile(mine, 0.9),
        percentile(times.iter().map(|t| t.held).collect(), 0.5),
        percentile(after.clone(), 0.5),
        percentile(after, 0.9),
    );
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
    // One window a process: each game is timed by a run of its own.
    let Ok(key) = std::env::var("MUSTER_TAP_GAME") else {
        for game in Game::ALL {
            let status = std::process::Command::new(std::env::current_exe().unwrap())
                .args(std::env::args().skip(1))
                .env("MUSTER_TAP_GAME", game.key())
                .status()
                .unwrap();
            assert!(status.success(), "the {} run failed", game.key());
        }
        return;
    };
    let game = *Game::ALL
        .iter()
        .find(|g| g.key() == key)
        .expect("MUSTER_TAP_GAME: deck, fog, forces or wings");
    let Some((_driver, port)) = browser::driver() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (shell, urls) = set_up(game, dir.path());
    let probe = Arc::new(Probe::default());
    let seen = probe.clone();
    let phones = std::thread::spawn(move || {
        // The window closes when the phones are done, or failed.
        let _closes = Closes(seen.clone());
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
            measure(game, &pages, port).await;
            // Their browsers closed with the run (left, they would keep
            // spending the machine's cores under the next run's figures).
            for page in pages {
                let _ = page.client.close().await;
            }
        });
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
