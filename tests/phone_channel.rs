//! The players' screens channel across both ends: frames the laptop seals
//! (Rust, RustCrypto) open in the page's script (`assets/phone/channel.js`
//! on the vendored noble-ciphers, run by node) and the page's answers open
//! on the laptop; one frame altered, replayed or sent the wrong way is
//! refused at either end. The vendored cipher files are pinned by SHA-256.

use muster::seats::channel::Channel;
use sha2::{Digest, Sha256};
use std::process::Command;

const KEY: [u8; 32] = [0x42; 32];
const TOKEN: [u8; 16] = [0x17; 16];
const PHONE: [u8; 16] = [0xa1; 16];
const LAPTOP: [u8; 16] = [0xb2; 16];

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

/// The page's side, run by node on the vendored files; `None` (the test
/// says so and is skipped) where node is not installed.
fn node(script: &str) -> Option<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/phone");
    let out = match Command::new("node")
        .arg("--input-type=module")
        .arg("-e")
        .arg(script)
        .current_dir(dir)
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            eprintln!("skipped: node is not installed here ({e})");
            return None;
        }
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).unwrap())
}

#[test]
fn the_page_opens_what_the_laptop_seals_and_the_laptop_opens_its_answer() {
    let mut laptop = Channel::laptop(&KEY, TOKEN, PHONE, LAPTOP);
    let screen = r#"{"screen":{"title":"Ann's hand","blocks":[]}}"#;
    let first = laptop.seal_with(screen.as_bytes(), [9; 24]).unwrap();
    let second = laptop.seal(br#"{"screen":2}"#).unwrap();
    let script = format!(
        r#"
import {{ Channel }} from './channel.js';
const h = (s) => Uint8Array.from(s.match(/../g).map((b) => parseInt(b, 16)));
const x = (b) => Array.from(b, (v) => v.toString(16).padStart(2, '0')).join('');
const c = new Channel(h('{key}'), h('{token}'), h('{phone}'), h('{laptop}'));
const dec = new TextDecoder();
let refused = [];
const altered = h('{first}'); altered[altered.length - 1] ^= 1;
try {{ c.open(altered); }} catch (e) {{ refused.push('altered'); }}
try {{ c.open(h('{second}')); }} catch (e) {{ refused.push('reordered'); }}
const one = dec.decode(c.open(h('{first}')));
try {{ c.open(h('{first}')); }} catch (e) {{ refused.push('replayed'); }}
const two = dec.decode(c.open(h('{second}')));
const reply = c.seal(new TextEncoder().encode('{{"reply":"play omens"}}'), new Uint8Array(24).fill(5));
console.log(JSON.stringify({{ one, two, refused, reply: x(reply) }}));
"#,
        key = hex(&KEY),
        token = hex(&TOKEN),
        phone = hex(&PHONE),
        laptop = hex(&LAPTOP),
        first = hex(&first),
        second = hex(&second),
    );
    let Some(out) = node(&script) else {
        return;
    };
    let out: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(out["one"], screen);
    assert_eq!(out["two"], r#"{"screen":2}"#);
    assert_eq!(
        out["refused"],
        serde_json::json!(["altered", "reordered", "replayed"])
    );
    let reply = unhex(out["reply"].as_str().unwrap());
    // The page's frame does not open as if it came from the laptop.
    let mut wrong_way = Channel::phone(&KEY, TOKEN, PHONE, LAPTOP);
    assert!(wrong_way.open(&reply).is_err());
    assert_eq!(laptop.open(&reply).unwrap(), br#"{"reply":"play omens"}"#);
}

/// The vendored cipher is the release it says it is: a changed file is
/// noticed here before any phone runs it.
#[test]
fn the_vendored_cipher_files_are_the_pinned_release() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/phone/noble-ciphers-2.3.0"
    );
    for (file, sum) in [
        (
            "_arx.js",
            "bcd2c8e9d3a9252022c74185340d69d724d2c2eed191f5599a2cec5005507d93",
        ),
        (
            "_poly1305.js",
            "5d2afd73b40dbafb7b6740c6e6388e7123c79a4e57306861b28c5734925fa84d",
        ),
        (
            "chacha.js",
            "5f1c00575e227b75163f4bac50b79442dec50ee3047c46c18887808ba8af0a69",
        ),
        (
            "utils.js",
            "08bce2a6b116205e0d114ed3da22490384d933c6549f0b1a43e2817349465147",
        ),
    ] {
        let bytes = std::fs::read(format!("{dir}/{file}")).unwrap();
        assert_eq!(hex(&Sha256::digest(&bytes)), sum, "{file}");
    }
}

/// The phone draws a hex map from the same geometry as the laptop: the
/// page's `hexmap.js` gives every hex of both orientations and shifts the
/// centre `muster_core::hexmap` gives, and finds the same hex under a point.
#[test]
fn the_page_draws_hex_maps_with_the_laptops_geometry() {
    use muster::core::hexmap::{Hex, HexMap, Orientation, Shifted};
    for (orientation, shifted) in [
        (Orientation::FlatTop, Shifted::Odd),
        (Orientation::FlatTop, Shifted::Even),
        (Orientation::PointyTop, Shifted::Odd),
        (Orientation::PointyTop, Shifted::Even),
    ] {
        let map = HexMap {
            columns: 7,
            rows: 5,
            first_column: 3,
            first_row: 1,
            orientation,
            shifted,
        };
        let json = serde_json::to_string(&map).unwrap();
        let script = format!(
            r#"
import {{ hexes, centre, name, hexAt }} from './hexmap.js';
const map = {json};
const out = {{}};
for (const hex of hexes(map)) {{
  const [x, y] = centre(map, hex);
  const at = hexAt(map, x + 0.3, y - 0.2);
  out[name(hex.column, hex.row)] = [x, y, at && name(at.column, at.row)];
}}
console.log(JSON.stringify(out));
"#
        );
        let Some(out) = node(&script) else {
            return;
        };
        let out: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        for hex in map.hexes() {
            let (x, y) = map.centre(hex);
            let page = &out[hex.to_string()];
            assert!((page[0].as_f64().unwrap() - x).abs() < 1e-9, "{hex}");
            assert!((page[1].as_f64().unwrap() - y).abs() < 1e-9, "{hex}");
            let under: Option<Hex> = map.hex_at((x + 0.3, y - 0.2));
            assert_eq!(page[2].as_str(), under.map(|h| h.to_string()).as_deref());
        }
    }
}

/// The phone's first view and zoom limits are the laptop's
/// (`muster_core::mapview`): the same focus in the same pane gives the same
/// centre and hex size, for a lone counter, a spread force, the whole map,
/// on both orientations and several panes.
#[test]
fn the_page_frames_a_map_as_the_laptop_does() {
    use muster::core::hexmap::{Hex, HexMap, Orientation, Shifted};
    use muster::core::mapview::Rules;
    let rules = Rules::default();
    let hex = |s: &str| Hex::parse(s).unwrap();
    for orientation in [Orientation::FlatTop, Orientation::PointyTop] {
        let map = HexMap {
            columns: 40,
            rows: 20,
            first_column: 1,
            first_row: 1,
            orientation,
            shifted: Shifted::Odd,
        };
        let cases: Vec<(Vec<Hex>, (f64, f64))> = vec![
            (vec![], (332.0, 400.0)),
            (vec![hex("0505")], (332.0, 400.0)),
            (vec![hex("0505"), hex("0707"), hex("0604")], (360.0, 420.0)),
            (vec![hex("0101"), hex("4020")], (402.0, 500.0)),
            (vec![hex("1010"), hex("1210")], (900.0, 500.0)),
        ];
        let json = serde_json::json!({
            "map": map,
            "rules": rules,
            "cases": cases.iter().map(|(f, p)| serde_json::json!({
                "focus": f.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "pane": [p.0, p.1],
            })).collect::<Vec<_>>(),
        });
        let script = format!(
            r#"
import {{ firstView, limits, numberAt }} from './hexmap.js';
const given = {json};
const out = given.cases.map((c) => [firstView(given.map, c.focus, c.pane, given.rules), limits(given.map, c.pane, given.rules), [8, 16, 30, 40, 60].map((r) => numberAt(given.map, r, given.rules))]);
console.log(JSON.stringify(out));
"#
        );
        let Some(out) = node(&script) else {
            return;
        };
        let out: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        for (k, (focus, pane)) in cases.iter().enumerate() {
            let view = rules.first_view(&map, focus, *pane);
            let page = &out[k][0];
            let near = |a: &serde_json::Value, b: f64| (a.as_f64().unwrap() - b).abs() < 1e-9;
            assert!(near(&page["x"], view.centre.0), "{k}: {page} {view:?}");
            assert!(near(&page["y"], view.centre.1), "{k}: {page} {view:?}");
            assert!(near(&page["radius"], view.radius), "{k}: {page} {view:?}");
            let (least, most) = rules.limits(&map, *pane);
            assert!(
                near(&out[k][1][0], least) && near(&out[k][1][1], most),
                "{k}"
            );
            // A hex's number, as large and as placed as on the laptop.
            for (j, radius) in [8.0, 16.0, 30.0, 40.0, 60.0].into_iter().enumerate() {
                let (px, top) = rules.number(radius, map.orientation);
                let page = &out[k][2][j];
                assert!(
                    near(&page[0], px) && near(&page[1], top),
                    "{radius}: {page}"
                );
            }
        }
    }
}

/// A hex's stack laid by the page's `hexmap.js` is the laptop's
/// (`mapview::Rules::stack`): labels of 2 to 11 characters, one to five
/// counters, hexes from 4 to 96 pixels, both orientations: the same size,
/// the same choice of whole labels, names alone or a dot, the same boxes.
#[test]
fn the_page_lays_a_stack_as_the_laptop_does() {
    use muster::core::hexmap::{HexMap, Orientation, Shifted};
    use muster::core::mapview::{Rules, short};
    let rules = Rules::default();
    let advance = 1233.0 / 2048.0;
    let ems = |label: &str| [label, short(label)].map(|t| t.chars().count() as f64 * advance);
    let mut cases = Vec::new();
    for orientation in [Orientation::FlatTop, Orientation::PointyTop] {
        for label in ["d1", "E1 ?", "#13 ?", "I1 (4)", "I10 placed", "#100 (12)"] {
            for count in 1..=5usize {
                for radius in [4.0, 9.5, 14.0, 20.0, 27.5, 35.0, 44.0, 96.0] {
                    let shown = vec![ems(label); count.min(rules.stack_shown)];
                    cases.push((orientation, shown, count, radius));
                }
            }
        }
    }
    let map = |orientation| HexMap {
        columns: 4,
        rows: 4,
        first_column: 1,
        first_row: 1,
        orientation,
        shifted: Shifted::Odd,
    };
    let json = serde_json::json!({
        "rules": rules,
        "cases": cases.iter().map(|(o, e, c, r)| serde_json::json!({
            "map": map(*o), "ems": e, "count": c, "radius": r,
        })).collect::<Vec<_>>(),
    });
    let script = format!(
        r#"
import {{ stack }} from './hexmap.js';
const given = {json};
console.log(JSON.stringify(given.cases.map((c) => stack(c.map, c.radius, c.ems, c.count, given.rules))));
"#
    );
    let Some(out) = node(&script) else {
        return;
    };
    let out: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let near = |a: &serde_json::Value, b: f64| (a.as_f64().unwrap() - b).abs() < 1e-9;
    for (k, (orientation, ems, count, radius)) in cases.iter().enumerate() {
        let laptop = rules.stack(*radius, *orientation, ems, *count);
        let page = &out[k];
        let Some(laptop) = laptop else {
            assert!(page.is_null(), "{k}: {page}");
            continue;
        };
        assert!(near(&page["px"], laptop.px), "{k}: {page} {laptop:?}");
        assert_eq!(page["short"].as_bool(), Some(laptop.short), "{k}");
        for (t, token) in laptop.tokens.iter().enumerate() {
            for i in 0..4 {
                assert!(
                    near(&page["tokens"][t][i], token[i]),
                    "{k}: {page} {laptop:?}"
                );
            }
        }
        match laptop.badge {
            Some(([x, y], r)) => assert!(
                near(&page["badge"][0][0], x)
                    && near(&page["badge"][0][1], y)
                    && near(&page["badge"][1], r),
                "{k}: {page} {laptop:?}"
            ),
            None => assert!(page["badge"].is_null(), "{k}: {page}"),
        }
    }
}
