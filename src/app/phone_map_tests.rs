//! The hex maps on a phone as a player reads and taps them (issue 38), in
//! headless Chromium at 360 x 740, 390 x 844 and 430 x 932, paired from the
//! menu by the QR code: at the first view every counter's label is drawn at
//! least 12 CSS pixels high (measured from the page's own text-drawing
//! calls) and hex numbers are shown; the map's top is in the first screen,
//! under its question; a tap at the centre of a hex picks that hex at
//! three zooms; a new screen from the laptop, his own tap's answer
//! included, leaves his view where it was. The screenshots of the first
//! views go to `target/phone/`.

use crate::app::MusterApp;
use crate::app::chromium::{Page, pair};
use crate::app::phone_kit::until;
use crate::app::phone_layout_tests::view;
use egui_kittest::Harness;
use muster::core::hexmap::HexMap;
use muster::core::side::Side;

type H = Harness<'static, MusterApp>;

/// The phones held: small, common, large.
const SIZES: [(u32, u32); 3] = [(360, 740), (390, 844), (430, 932)];

/// Notes every text the page draws on a canvas from now on, with its font
/// size in CSS pixels (the page draws in CSS pixels, scaled once for the
/// screen's density).
const NOTE_TEXTS: &str = "
window.__texts = [];
if (!window.__noting) {
  window.__noting = true;
  const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
    const px = Number((/([0-9.]+)px/.exec(this.font) || [])[1]);
    window.__texts.push([String(text), px, /bold/.test(this.font)]);
    return fill.call(this, text, x, y, ...rest);
  };
}
return true;";

/// What the page drew since `NOTE_TEXTS`: (text, font size, bold).
fn texts(page: &Page) -> Vec<(String, f64, bool)> {
    page.script("return window.__texts")
}

/// Where the map's top is at the page's top, and how tall the screen is.
fn map_top(page: &Page) -> (f64, f64) {
    page.script(
        "window.scrollTo(0, 0); return [document.querySelector('canvas').getBoundingClientRect().top, window.innerHeight];",
    )
}

/// A map system's game with counters of his on the map, his seat on a
/// phone of `size`: the window, its folder, his page, the map and the
/// hex a tap fills in his form.
struct Case {
    name: &'static str,
    game: fn(&std::path::Path) -> H,
    map: fn(&H) -> HexMap,
    /// What his form holds of the last hex he tapped.
    tapped: fn(&Harness<'_, MusterApp>) -> Option<String>,
    /// Two hexes near his counters, to tap in turn.
    targets: [&'static str; 2],
}

fn forces_map(h: &H) -> HexMap {
    crate::app::map_intel::tests::game(h)
        .setup()
        .scenario
        .map
        .clone()
}

fn forces_tapped(h: &Harness<'_, MusterApp>) -> Option<String> {
    let window = h.state().system::<crate::app::map_intel::ForcesWindow>()?;
    window
        .form(Side::South)
        .get(&muster::map_intel::screens::LedgerField::Hex)?
        .first()
        .cloned()
}

fn wings_map(h: &H) -> HexMap {
    crate::app::wings::tests::game(h).setup().battle.map.clone()
}

fn wings_tapped(h: &Harness<'_, MusterApp>) -> Option<String> {
    let window = h.state().system::<crate::app::wings::WingsWindow>()?;
    let path = window
        .form(Side::South)
        .get(&muster::map_intel::wings::screens::CountersField::LeaderPath)?
        .first()?
        .clone();
    path.split_whitespace().last().map(str::to_string)
}

const CASES: [Case; 2] = [
    Case {
        name: "forces",
        game: crate::app::map_intel::tests::two_forces_each,
        map: forces_map,
        tapped: forces_tapped,
        targets: ["0404", "0405"],
    },
    Case {
        name: "wings",
        game: crate::app::wings::tests::one_wing_each,
        map: wings_map,
        tapped: wings_tapped,
        targets: ["1006", "1105"],
    },
];

#[test]
fn hex_maps_on_phones_read_at_12_px_and_take_taps_where_aimed_without_moving() {
    let Some((_driver, port)) = crate::app::phone_kit::browser::driver() else {
        return;
    };
    for case in CASES {
        for size in SIZES {
            let dir = tempfile::tempdir().unwrap();
            let mut h = (case.game)(dir.path());
            let label = format!("{}-map-{}", case.name, size.0);
            let page = Page::open_sized(port, &pair(&mut h, Side::South), &label, size);
            let map_xpath = "//canvas";
            page.find(&mut h, map_xpath);
            crate::app::pairing::close(&mut h);
            // The first view, drawn again as it was, its words noted.
            let _: bool = page.script(NOTE_TEXTS);
            let first = view(&page);
            page.tap(&mut h, "My counters");
            assert_eq!(
                view(&page),
                first,
                "{label}: the first view is his counters'"
            );
            let drawn = texts(&page);
            let labels: Vec<_> = drawn
                .iter()
                .filter(|(text, _, bold)| {
                    let number = text.len() == 4 && text.chars().all(|c| c.is_ascii_digit());
                    !(*bold || number)
                })
                .collect();
            assert!(labels.len() >= 2, "{label}: {drawn:?}");
            for (text, px, _) in &labels {
                assert!(*px >= 12.0, "{label}: {text:?} drawn {px} px high");
            }
            page.find(
                &mut h,
                "//canvas[contains(@aria-label, 'hex numbers shown')]",
            );
            let (top, screen) = map_top(&page);
            assert!(
                top < screen * 0.5,
                "{label}: the map begins {top} px down a {screen} px screen"
            );
            page.screenshot(&format!("target/phone/{label}.png"));

            // A tap at a hex's centre picks it, at three zooms; his view
            // stays as he left it when the laptop's answer comes.
            let map = (case.map)(&h);
            for (k, pluses) in [0, 2, 4].into_iter().enumerate() {
                for _ in 0..pluses {
                    page.click(&mut h, "//button[@aria-label='Zoom the map in']");
                }
                let target = case.targets[k % 2];
                let at = map.centre(map.hex(target).unwrap());
                page.tap_map(&mut h, map_xpath, at);
                let before = view(&page);
                let tapped = case.tapped;
                until(&mut h, move |h| tapped(h).as_deref() == Some(target));
                // His phone drew the answer: the hex his form names.
                page.find(
                    &mut h,
                    &format!("//canvas[contains(concat(' ', @data-picked, ' '), ' {target} ')]"),
                );
                assert_eq!(view(&page), before, "{label}: the answer moved his view");
                page.tap(&mut h, "My counters");
            }
        }
    }
}

/// Notes every line the page strokes from now on: its colour and width.
const NOTE_STROKES: &str = "
window.__strokes = [];
if (!window.__stroking) {
  window.__stroking = true;
  const stroke = CanvasRenderingContext2D.prototype.stroke;
  CanvasRenderingContext2D.prototype.stroke = function (...args) {
    window.__strokes.push([String(this.strokeStyle), this.lineWidth]);
    return stroke.apply(this, args);
  };
}
return true;";

/// Fritz traces his leader's path with a finger on his phone: while the
/// finger moves the page draws the path under it, again at each step (a
/// line of the rules' path colour, wider than a hex's outline, which the
/// page draws only while a finger is down), and when it lifts the path
/// reaches the laptop's form.
#[test]
fn a_path_is_drawn_under_the_finger_as_it_grows() {
    let Some((_driver, port)) = crate::app::phone_kit::browser::driver() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut h = crate::app::wings::tests::one_wing_each(dir.path());
    let page = Page::open_sized(port, &pair(&mut h, Side::South), "wings-trace", (360, 740));
    page.find(&mut h, "//canvas");
    crate::app::pairing::close(&mut h);
    let map = wings_map(&h);
    let points: Vec<(f64, f64)> = ["1005", "1006", "1007"]
        .iter()
        .map(|hex| map.centre(map.hex(hex).unwrap()))
        .collect();
    let _: bool = page.script(NOTE_STROKES);
    page.drag_map(&mut h, "//canvas", &points);
    until(&mut h, |h| wings_tapped(h).as_deref() == Some("1007"));
    let strokes: Vec<(String, f64)> = page.script("return window.__strokes");
    let path = muster::core::mapview::Rules::default().colours.path;
    let drawn = strokes
        .iter()
        .filter(|(colour, width)| *colour == path && *width >= 4.0)
        .count();
    assert!(
        drawn >= 2,
        "the path drawn {drawn} times under the finger: {strokes:?}"
    );
}

/// Ann's two forces stacked in 0505: her phone draws both tokens, one
/// under the other, each label whole (no count: every counter of it is
/// in sight), and a tap on the stack lists both.
#[test]
fn a_stack_shows_its_count_and_a_tap_lists_its_counters() {
    let Some((_driver, port)) = crate::app::phone_kit::browser::driver() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut h = crate::app::map_intel::tests::two_forces_each(dir.path());
    crate::app::map_intel::tests::drag_to(&mut h, "0303", "0505");
    let page = Page::open_sized(port, &pair(&mut h, Side::South), "forces-stack", (390, 844));
    page.find(&mut h, "//canvas");
    crate::app::pairing::close(&mut h);
    let _: bool = page.script(NOTE_TEXTS);
    page.tap(&mut h, "My counters");
    let drawn = texts(&page);
    for label in ["#13 (1)", "#12 (2)"] {
        assert!(
            drawn.iter().any(|(text, ..)| text == label),
            "{label} not drawn: {drawn:?}"
        );
    }
    assert!(
        !drawn.iter().any(|(text, _, bold)| *bold && text == "2"),
        "a count where both are shown: {drawn:?}"
    );
    let map = forces_map(&h);
    page.tap_map(&mut h, "//canvas", map.centre(map.hex("0505").unwrap()));
    // Read again if the laptop's answer redrew it meanwhile: the list
    // stays through the answer.
    let words = (0..20)
        .find_map(|_| {
            let listed = page.find(&mut h, "//p[starts-with(., 'In 0505: ')]");
            page.runtime.block_on(listed.text()).ok()
        })
        .expect("the stack listed");
    assert_eq!(words.matches('#').count(), 2, "{words}");
    until(&mut h, |h| forces_tapped(h).as_deref() == Some("0505"));
    page.find(
        &mut h,
        "//canvas[contains(concat(' ', @data-picked, ' '), ' 0505 ')]",
    );
    page.find(&mut h, "//p[starts-with(., 'In 0505: ')]");
    page.screenshot("target/phone/forces-stack.png");
}

/// Issue 49: at the whole map a phone drew counters wider than a hex, and
/// a finger dragging a stack moved its top counter without asking. On a
/// 360 px phone, Ann's stack in 0505 and her other force: from her first
/// view out to the whole map, every token lies inside its own hex; a drag
/// begun in 0505 beside the tokens asks which of her counters goes.
#[test]
fn a_phones_tokens_stay_in_their_hex_and_a_stack_dragged_beside_them_asks() {
    let Some((_driver, port)) = crate::app::phone_kit::browser::driver() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut h = crate::app::map_intel::tests::two_forces_each(dir.path());
    crate::app::map_intel::tests::drag_to(&mut h, "0303", "0505");
    let page = Page::open_sized(
        port,
        &pair(&mut h, Side::South),
        "forces-tokens",
        (360, 740),
    );
    page.find(&mut h, "//canvas");
    crate::app::pairing::close(&mut h);
    let map = forces_map(&h);
    page.tap(&mut h, "My counters");
    for zoom in 0..8 {
        let (x, y, r) = view(&page);
        let (width, height): (f64, f64) = page.script(
            "const c = document.querySelector('canvas'); return [c.clientWidth, c.clientHeight]",
        );
        let tokens: Vec<(String, f64, f64, f64, f64)> = serde_json::from_str(
            &page.script::<String>("return document.querySelector('canvas').dataset.tokens"),
        )
        .unwrap();
        assert!(!tokens.is_empty() || zoom > 0, "no token at the first view");
        let hex = |sx: f64, sy: f64| {
            map.hex_at(((sx - width / 2.0) / r + x, (sy - height / 2.0) / r + y))
                .map(|h| h.to_string())
        };
        for (at, x0, y0, x1, y1) in &tokens {
            // Half a pixel in, for rounding at a hex's edge.
            let (x0, y0, x1, y1) = (x0 + 0.5, y0 + 0.5, x1 - 0.5, y1 - 0.5);
            for (sx, sy) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
                assert_eq!(
                    hex(sx, sy).as_deref(),
                    Some(at.as_str()),
                    "zoom {zoom}: a token of {at} at {x0} {y0} {x1} {y1}"
                );
            }
        }
        page.click(&mut h, "//button[@aria-label='Zoom the map out']");
    }
    page.screenshot("target/phone/forces-tokens-whole.png");
    page.tap(&mut h, "My counters");
    let (x, y, r) = view(&page);
    assert!(r > 0.0 && x.is_finite() && y.is_finite());
    // Above the tokens, in the room the hex's number leaves.
    let (cx, cy) = map.centre(map.hex("0505").unwrap());
    let points = [(cx, cy - 0.7), map.centre(map.hex("0506").unwrap())];
    page.drag_map(&mut h, "//canvas", &points);
    page.find(
        &mut h,
        "//p[contains(., 'Several of your counters stand in 0505: which goes to 0506?')]",
    );
    page.screenshot("target/phone/forces-stack-asks.png");
}

/// Issue 49: a Wing's "I1" read as "l1". Ann's phone draws her counters'
/// labels in the face the laptop draws them in, Hack, served with the page
/// (whose I and l the laptop's test `a_labels_capital_i_and_lower_case_l_differ`
/// tells apart), once it has come; not in the page's sans-serif.
#[test]
fn a_phones_labels_are_drawn_in_the_laptops_face() {
    let Some((_driver, port)) = crate::app::phone_kit::browser::driver() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut h = crate::app::map_intel::tests::two_forces_each(dir.path());
    let page = Page::open_sized(port, &pair(&mut h, Side::South), "forces-i-l", (360, 740));
    page.find(&mut h, "//canvas");
    crate::app::pairing::close(&mut h);
    let _: bool = page.script(
        "window.__fonts = [];
        const fill = CanvasRenderingContext2D.prototype.fillText;
        CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
          window.__fonts.push([String(text), this.font]);
          return fill.call(this, text, ...rest);
        };
        return true;",
    );
    let loaded = (0..50).any(|_| {
        h.run();
        std::thread::sleep(std::time::Duration::from_millis(50));
        page.script::<bool>("return [...document.fonts].some((f) => f.family.replace(/\"/g, '') === 'Hack' && f.status === 'loaded')")
    });
    assert!(loaded, "the page has Hack");
    page.tap(&mut h, "My counters");
    let drawn: Vec<(String, String)> = page.script("return window.__fonts");
    let label = drawn
        .iter()
        .find(|(text, _)| text.starts_with('#'))
        .map(|(_, font)| font.split_once("px ").expect("a size in px").1.to_string())
        .unwrap_or_else(|| panic!("no label drawn: {drawn:?}"));
    assert!(label.starts_with("Hack"), "labels drawn in {label}");
}
