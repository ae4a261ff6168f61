//! The phone as a player holds it (issue 33): every system's screen at
//! 360 x 740, 390 x 844 and 430 x 932 CSS pixels, each tap target at least
//! 44 pixels measured from the page's own layout, nothing wider than the
//! screen; a map pinched with two fingers and a counter dragged with one,
//! as touch events. The screenshots go to `target/phone/` (those of 390
//! are the manual's).

use crate::app::chromium::{Page, pair};
use crate::app::phone_kit::until;
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, PointerAction, TouchActions};
use muster::core::mapview::Rules;
use muster::core::side::Side;
use std::time::Duration;

/// The phones held: small, common, large.
const SIZES: [(u32, u32); 3] = [(360, 740), (390, 844), (430, 932)];

/// What on the page is too small to tap or wider than the screen, as the
/// page lays it out: every button, link, field, ticked row and summary.
const MEASURE: &str = "
    const bad = [];
    for (const e of document.querySelectorAll('button, a, input, select, summary, label.check')) {
      if (e.tagName === 'INPUT' && e.closest('label.check')) continue;
      const r = e.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const words = (e.innerText || e.value || e.getAttribute('aria-label') || '').trim().slice(0, 40);
      if (r.height < 44 || r.width < 44) bad.push(`${e.tagName} '${words}' ${Math.round(r.width)} x ${Math.round(r.height)}`);
    }
    // A chart's words: no two cover each other, nor its title.
    for (const bars of document.querySelectorAll('.bars')) {
      const words = [...bars.querySelectorAll('span')];
      if (bars.previousElementSibling) words.push(bars.previousElementSibling);
      const boxes = words.map((w) => [w.textContent, w.getBoundingClientRect()]);
      boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, q]) => {
        if (r.left < q.right - 0.5 && q.left < r.right - 0.5 && r.top < q.bottom - 0.5 && q.top < r.bottom - 0.5) bad.push(`'${a}' over '${b}'`);
      }));
      if (!words.length) bad.push('a chart without words');
    }
    // A phone is tapped, never clicked.
    const said = [...document.querySelectorAll('main *')].map((e) => [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join(' ')).concat([...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')));
    for (const words of said) if (/\\bclick/i.test(words)) bad.push(`says '${words.slice(0, 60)}'`);
    const wide = document.documentElement.scrollWidth - window.innerWidth;
    return JSON.stringify({ bad, wide });";

/// The page at `page` measured: its too-small targets and how far it
/// overflows the screen's width; photographed as `name`.
fn measured(page: &Page, name: &str) {
    let answer = page
        .runtime
        .block_on(page.client.execute(MEASURE, Vec::new()))
        .unwrap();
    let found: serde_json::Value = serde_json::from_str(answer.as_str().unwrap()).unwrap();
    // Photographed from its top, as a new screen opens.
    let _ = page
        .runtime
        .block_on(page.client.execute("window.scrollTo(0, 0)", Vec::new()));
    page.screenshot(&format!("target/phone/{name}.png"));
    assert_eq!(
        found["bad"],
        serde_json::json!([]),
        "{name}: tap targets under 44 px, or words over words"
    );
    assert!(
        found["wide"].as_i64().unwrap() <= 0,
        "{name}: wider than the screen by {} px",
        found["wide"]
    );
}

/// Each system's private screen on a phone of each size: the deck's hand,
/// hidden forces' ledger and map, dummy wings' counters and map, Field of
/// Glory's ambushes on the table from South's side.
#[test]
fn every_system_on_phones_of_360_390_and_430_has_44_px_targets() {
    let Some((_driver, port)) = crate::app::phone_kit::browser::driver() else {
        return;
    };
    for (width, height) in SIZES {
        let size = (width, height);
        let dir = tempfile::tempdir().unwrap();
        let mut h = crate::app::tests::new_small_deck_game(dir.path());
        crate::app::tests::click(&mut h, "South chosen");
        crate::app::tests::click(&mut h, "Start the game");
        let decius = Page::open_sized(port, &pair(&mut h, Side::South), "deck", size);
        decius.find(&mut h, "//h1[contains(., 'Decius')]");
        decius.find(
            &mut h,
            "//button[contains(., 'End the event phase, play the rally phase')]",
        );
        measured(&decius, &format!("deck-{width}"));
        drop(decius);

        let dir = tempfile::tempdir().unwrap();
        let mut h = crate::app::map_intel::tests::new_game(dir.path(), ["", ""]);
        let ann = Page::open_sized(port, &pair(&mut h, Side::South), "forces", size);
        ann.tap(&mut h, "off-map area");
        ann.find(&mut h, "//canvas");
        measured(&ann, &format!("forces-{width}"));
        drop(ann);

        let dir = tempfile::tempdir().unwrap();
        let mut h = crate::app::wings::tests::rossbach(dir.path());
        let fritz = Page::open_sized(port, &pair(&mut h, Side::South), "wings", size);
        fritz.find(&mut h, "//canvas");
        measured(&fritz, &format!("wings-{width}"));
        // Field of Glory: South's ambush screen, the table from his side.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("terrain.json");
        std::fs::write(&path, muster::fog::examples::TERRAIN_BATTLE).unwrap();
        let mut h = crate::app::tests::opened(dir.path(), path);
        crate::app::tests::click(&mut h, "Look at it read-only for now");
        let south = Page::open_sized(port, &pair(&mut h, Side::South), "fog", size);
        let north = Page::open_sized(port, &pair(&mut h, Side::North), "fog-north", size);
        south.type_into(
            &mut h,
            "//input[@type='password']",
            crate::app::fog::phones::PASS,
        );
        south.tap(&mut h, "Unlock");
        until(&mut h, |h| h.state().fog().battle.locked_sides().is_empty());
        crate::app::fog::phones::camps(&mut h);
        // North first: the table turned half round, his edge at the bottom.
        north.tap(&mut h, "Dummy");
        north.find(
            &mut h,
            "//canvas[contains(@aria-label, 'North edge at the bottom')]",
        );
        measured(&north, &format!("fog-north-{width}"));
        north.tap(&mut h, "Finish my ambushes");
        south.tap(&mut h, "Syrian archers");
        south.find(
            &mut h,
            "//canvas[contains(@aria-label, 'South edge at the bottom')]",
        );
        measured(&south, &format!("fog-{width}"));
    }
}

/// The view a page drew its first hex map with: the map point at its
/// centre and a hex's size (`data-view`).
pub(crate) fn view(page: &Page) -> (f64, f64, f64) {
    page.script("return document.querySelector('canvas').dataset.view.split(' ').map(Number)")
}

/// Two fingers pinch Ann's map open (hex numbers come), then one drags
/// her force to the next hex: the move is named on her screen, and made
/// when she taps it.
#[test]
fn a_map_pinched_open_and_a_force_dragged_on_the_phone() {
    let Some((_driver, port)) = crate::app::phone_kit::browser::driver() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut h = crate::app::map_intel::tests::new_game(dir.path(), ["", ""]);
    let ann = Page::open(port, &pair(&mut h, Side::South), "forces-pinch");
    let map = "//canvas[starts-with(@aria-label, 'Tap a hex for a new force or an Exercitus')]";
    // A force of hers in 0505, from her phone.
    ann.tap(&mut h, "off-map area");
    ann.click(&mut h, "//label[contains(., 'Legio III Gallica')]");
    ann.tap(&mut h, "into a new force");
    let at = crate::app::map_intel::tests::on_phone_map(&h, "0505");
    ann.tap_map(&mut h, map, at);
    ann.tap(&mut h, "Move the ticked units");
    until(&mut h, |h| {
        crate::app::map_intel::tests::in_hex(h, Side::South, "0505") == 1
    });
    crate::app::tests::click(&mut h, "Begin: Ann (Rome) first");

    // The pinch: two fingers from the map's middle outwards (the map
    // found again if a screen came meanwhile).
    let before = view(&ann);
    let mut pinched = None;
    for _ in 0..20 {
        let canvas = ann.find(&mut h, map);
        ann.show(&canvas, "center");
        let Ok([left, top, width, height]) = ann.viewport_box(&canvas) else {
            continue;
        };
        let (cx, cy) = ((left + width / 2.0).round(), (top + height / 2.0).round());
        let finger = |name: &str, from: f64, to: f64| {
            TouchActions::new(name.into())
                .then(PointerAction::MoveTo {
                    duration: None,
                    x: cx + from,
                    y: cy,
                })
                .then(PointerAction::Down {
                    button: MOUSE_BUTTON_LEFT,
                })
                .then(PointerAction::MoveTo {
                    duration: Some(Duration::from_millis(300)),
                    x: cx + to,
                    y: cy,
                })
                .then(PointerAction::Up {
                    button: MOUSE_BUTTON_LEFT,
                })
        };
        pinched = Some(
            ann.runtime.block_on(
                ann.client
                    .perform_actions(vec![finger("one", -20.0, -90.0), finger("two", 20.0, 90.0)]),
            ),
        );
        if matches!(pinched, Some(Ok(()))) {
            break;
        }
    }
    assert!(matches!(pinched, Some(Ok(()))), "{pinched:?}");
    let after = view(&ann);
    assert!(
        after.2 > 2.0 * before.2,
        "pinched from {before:?} to {after:?}"
    );
    ann.find(
        &mut h,
        "//canvas[contains(@aria-label, 'hex numbers shown')]",
    );
    ann.screenshot("target/phone/forces-pinched.png");
    // Back to the first view, by its button, for the drag.
    ann.tap(&mut h, "My counters");
    // Framed on her one force, in 0505, its label readable.
    let home = view(&ann);
    let force = crate::app::map_intel::tests::on_phone_map(&h, "0505");
    assert!(
        (home.0 - force.0).abs() < 1e-9 && (home.1 - force.1).abs() < 1e-9,
        "{home:?} {force:?}"
    );
    assert!(home.2 < after.2 && home.2 >= Rules::default().readable_radius);

    // One finger drags her force from 0505 to 0606.
    let points = [
        crate::app::map_intel::tests::on_phone_map(&h, "0505"),
        crate::app::map_intel::tests::on_phone_map(&h, "0506"),
        crate::app::map_intel::tests::on_phone_map(&h, "0606"),
    ];
    ann.drag_map(&mut h, map, &points);
    let proposal = ann.find(&mut h, "//p[contains(., 'from 0505 to 0606?')]");
    let words = ann.runtime.block_on(proposal.text()).unwrap();
    let force = words
        .trim_start_matches("Move ")
        .split(" from")
        .next()
        .unwrap()
        .to_string();
    ann.tap(&mut h, &format!("Move {force} to 0606"));
    until(&mut h, |h| {
        crate::app::map_intel::tests::in_hex(h, Side::South, "0606") == 1
    });
}
