//! The hex maps on the laptop as players read them (issue 38), at 1280 x
//! 720 and 1366 x 768: the log folds to its last line while a map game is
//! open, the map's drawing covers its pane (at least 90 % of its width or
//! height) and the pane most of the window's height, every counter's
//! label is at least 12 pixels high at the first view, and every counter
//! is named, inside its own hex or beside it, from the first view to the
//! whole map.

use crate::app::MusterApp;
use crate::app::hex_grid::HexGrid;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster::core::hexmap::HexMap;

/// South's passphrase in the shipped example battle.
const PASS: &str = muster::fog::examples::EXAMPLE_PASSPHRASE;

type H = Harness<'static, MusterApp>;

/// The grid a map game is drawn with, and its map.
fn forces(h: &H) -> (&HexGrid, HexMap) {
    let window = h
        .state()
        .system::<crate::app::map_intel::ForcesWindow>()
        .unwrap();
    let map = crate::app::map_intel::tests::game(h)
        .setup()
        .scenario
        .map
        .clone();
    (&window.table.grid, map)
}

fn wings(h: &H) -> (&HexGrid, HexMap) {
    let window = h
        .state()
        .system::<crate::app::wings::WingsWindow>()
        .unwrap();
    let map = crate::app::wings::tests::game(h).setup().battle.map.clone();
    (&window.table.grid, map)
}

type Case = (
    &'static str,
    fn(&std::path::Path) -> H,
    for<'a> fn(&'a H) -> (&'a HexGrid, HexMap),
);

/// Both map games, each with a counter or two of each side's on the map.
const CASES: [Case; 2] = [
    (
        "forces",
        crate::app::map_intel::tests::two_forces_each,
        forces,
    ),
    ("wings", crate::app::wings::tests::one_wing_each, wings),
];

#[test]
fn a_map_game_fills_a_small_laptop_screen_and_its_labels_read_at_12_px() {
    for (name, game, grid) in CASES {
        for size in [[1280.0, 720.0], [1366.0, 768.0]] {
            let dir = tempfile::tempdir().unwrap();
            let mut h = game(dir.path());
            h.set_size(egui::vec2(size[0], size[1]));
            h.run();
            let label = format!("{name} at {} x {}", size[0], size[1]);
            // The log is one line, unfolded by its button.
            h.get_by_label("Show the log");
            let (grid, map) = grid(&h);
            let (pane, wide, high) = grid.coverage(&map);
            assert!(
                wide >= 0.9 || high >= 0.9,
                "{label}: the map covers {wide} of its pane's width, {high} of its height"
            );
            assert!(
                pane.height() >= 0.6 * size[1],
                "{label}: the map's pane is {} high",
                pane.height()
            );
            let labels = grid.labels();
            assert!(labels.len() >= 2, "{label}: {labels:?}");
            for d in labels {
                // The text's own size, inside the token's padding.
                assert!(d.px >= 12.0, "{label}: a label {d:?}");
            }
        }
    }
}

// Issue 49: two ambush markers in a forest covered its name and each
// other's, and hid an axis number. Tables from random set-ups: the
// example battle's terrain, then two to four of South's ambush markers,
// each at a random place the rules allow for a random one of his battle
// groups or a dummy (most of them as near a piece of terrain's middle as
// the rules allow, so they crowd it and its name), read-only at 1280 x 720 and 1366 x 768, and
// South's own ambush screen at 1280 x 720: no label covers another, an axis number, a marker or a
// band's name.
proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 32,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]
    #[test]
    fn the_field_of_glory_tables_labels_never_cover_each_other_on_random_set_ups(
        picks in proptest::collection::vec((0usize..64, 0usize..1_000_000, proptest::bool::weighted(0.7)), 2..=5)
    ) {
        random_set_up_labels(&picks);
    }
}

/// The table of one random set-up (`picks`: each marker's content, place
/// among the legal ones, and whether it goes next to the last), checked.
fn random_set_up_labels(picks: &[(usize, usize, bool)]) {
    {
        let seed = picks;
        let (battle, placed) = muster::fog::examples::ambushes_battle(picks);
        assert!(placed >= 1, "{seed:?}: {placed} markers");
        let dir = tempfile::tempdir().unwrap();
        let saved = dir.path().join("ambushes.json");
        muster::fog::files::save_battle(&saved, &battle).unwrap();
        for size in [[1280.0, 720.0], [1366.0, 768.0]] {
            let mut h = crate::app::tests::opened(dir.path(), saved.clone());
            h.set_size(egui::vec2(size[0], size[1]));
            crate::app::tests::click(&mut h, "Look at it read-only for now");
            h.run();
            let label = format!("{seed:?} at {size:?}");
            let markers = no_label_covers_another(&label);
            assert_eq!(
                markers, placed,
                "{label}: {markers} markers named on the table"
            );
            // His own ambush screen's table, once he unlocked: his markers
            // named by what they hide, the legality grid under them.
            if size[0] == 1280.0 {
                crate::app::tests::click(&mut h, "Unlock…");
                assert_eq!(crate::app::tests::unlock(&mut h, "South", PASS), None);
                h.run();
                h.get_by_label("Finish my ambushes");
                let own = format!("{label}, South's own ambush screen");
                assert_eq!(no_label_covers_another(&own), placed, "{own}");
            }
        }
    }
}

/// The table's labels as last drawn: none covers another, an axis number,
/// a marker or a band's name. How many name an ambush marker.
fn no_label_covers_another(label: &str) -> usize {
    let labels: Vec<(egui::Rect, String)> =
        crate::app::fog::table_view::PLACED.with(|p| p.borrow().clone());
    let mut avoided: Vec<egui::Rect> = crate::app::fog::table_view::AVOIDED.with(|a| {
        a.borrow()
            .iter()
            .map(|t| egui::Rect::from_min_max(egui::pos2(t.x0, t.y0), egui::pos2(t.x1, t.y1)))
            .collect()
    });
    // The axes' numbers as drawn, whether or not they were avoided.
    let numbers = crate::app::fog::table_view::NUMBERS.with(|n| n.borrow().clone());
    assert!(numbers.len() >= 10, "{label}: {numbers:?}");
    avoided.extend(numbers);
    for (i, (a, x)) in labels.iter().enumerate() {
        let a = a.shrink(0.5);
        for (b, y) in &labels[i + 1..] {
            assert!(!a.intersects(b.shrink(0.5)), "{label}: '{x}' covers '{y}'");
        }
        for t in &avoided {
            assert!(
                !a.intersects(t.shrink(0.5)),
                "{label}: '{x}' at {a:?} covers {t:?}"
            );
        }
    }
    labels
        .iter()
        .filter(|(_, t)| t.starts_with("Ambush S"))
        .count()
}

/// Both map games zoomed out step by step from the first view to the whole
/// map, at 1280 x 720 and 1366 x 768: every counter is named (a player
/// test found them all dots at the whole map), its token inside its own
/// hex at `callout_px` (12 px) or more, or, on a hex too small, its name
/// at `callout_px` on the hex or beside it; no label covers another, and
/// no column or row number another.
#[test]
fn every_counter_is_named_readably_from_the_first_view_to_the_whole_map() {
    let rules = muster::core::mapview::Rules::default();
    for (name, game, grid) in CASES {
        let mut beside = 0;
        for size in [[1280.0, 720.0], [1366.0, 768.0]] {
            let dir = tempfile::tempdir().unwrap();
            let mut h = game(dir.path());
            h.set_size(egui::vec2(size[0], size[1]));
            h.run();
            for zooms in 0..=12 {
                let label = format!("{name} at {} x {}, {zooms} zooms out", size[0], size[1]);
                let (grid, map) = grid(&h);
                let labels = grid.labels();
                assert!(!labels.is_empty() && grid.dots() == 0, "{label}");
                for d in labels {
                    if d.beside {
                        beside += 1;
                        assert_eq!(d.px, rules.callout_px as f32, "{label}: {d:?}");
                        continue;
                    }
                    assert!(d.px >= rules.callout_px as f32 - 1e-3, "{label}: {d:?}");
                    let hex = |at: egui::Pos2| map.hex_at(grid.map_point(at));
                    let inner = d.rect.shrink(0.5);
                    let home = hex(inner.center());
                    for corner in [
                        inner.left_top(),
                        inner.right_top(),
                        inner.left_bottom(),
                        inner.right_bottom(),
                    ] {
                        assert_eq!(hex(corner), home, "{label}: a token {d:?} leaves its hex");
                    }
                }
                for (i, a) in labels.iter().enumerate() {
                    for b in &labels[i + 1..] {
                        assert!(
                            !a.rect.shrink(0.5).intersects(b.rect.shrink(0.5)),
                            "{label}: {a:?} covers {b:?}"
                        );
                    }
                }
                let numbers = grid.numbers();
                assert!(numbers.len() >= 8, "{label}: {numbers:?}");
                for (i, a) in numbers.iter().enumerate() {
                    for b in &numbers[i + 1..] {
                        assert!(!a.intersects(*b), "{label}: a number at {a:?} covers {b:?}");
                    }
                }
                crate::app::tests::click(&mut h, "Zoom out");
            }
        }
        // The forces' example map is whole at a readable size.
        assert!(
            name == "forces" || beside > 0,
            "{name}: never a name beside its hex"
        );
    }
}

/// Rossbach set up crowded, as a player test had it: Fritz's cavalry in
/// 1005 with the second cavalry's Dis counter on it, his dummy's leader in
/// 1105 beside it; Charles's two infantry Wings (counters 2 and 3) in 1008
/// and 1208 sharing a Dis counter's hex, 1108. Begun, saved.
fn crowded(dir: &std::path::Path) -> std::path::PathBuf {
    use muster::core::side::{Side, Sides};
    use muster::map_intel::wings::formation::Formation;
    use muster::map_intel::wings::game::{Composition, Game, Setup};
    use muster::map_intel::wings::scenario::Type;
    let setup = Setup::example(Sides::default());
    let game = Game::new(setup, Sides::default(), Default::default()).unwrap();
    let real = |units: &[&str]| Composition {
        real: true,
        units: units.iter().map(|u| u.to_string()).collect(),
        rating: 3,
        formation: Formation::Deployed,
        detached: Vec::new(),
    };
    let wings = vec![
        (
            Side::South,
            Type::Cav,
            ["1005", "1004", "1006"],
            real(&["p-cur-8", "p-cur-10", "p-dra-4", "p-hus-7", "seydlitz"]),
        ),
        (
            Side::South,
            Type::Cav,
            ["1105", "1005", "1104"],
            Composition::dummy(Formation::InColumn),
        ),
        (
            Side::North,
            Type::Inf,
            ["1008", "1009", "1108"],
            real(&["f-piemont", "f-mailly"]),
        ),
        (
            Side::North,
            Type::Inf,
            ["1208", "1108", "1209"],
            real(&["f-poitou", "f-provence"]),
        ),
    ];
    let path = dir.join("crowded.json");
    std::fs::write(&path, crate::app::wings::tests::begun(game, wings)).unwrap();
    path
}

/// A player test: a leader and a Dis counter in one hex covered each
/// other, and nothing said what the 6 of "I3 (6)" was. At the first view
/// both tokens of 1005 and of 1108 read whole, one under the other; the
/// map's key says what the labels mean, and pointing at a counter lists
/// what its hex holds with the key.
#[test]
fn a_leader_and_a_dis_counter_in_one_hex_both_read_and_the_key_says_what_a_label_means() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = crate::app::tests::opened(dir.path(), crowded(dir.path()));
    for size in [[1280.0, 720.0], [1366.0, 768.0]] {
        h.set_size(egui::vec2(size[0], size[1]));
        crate::app::tests::click(&mut h, "My counters");
        let (grid, _) = wings(&h);
        let labels = grid.labels();
        for texts in [["C0 ?", "d1"], ["d2", "d3"]] {
            let [a, b] = texts.map(|t| {
                labels
                    .iter()
                    .find(|d| d.text == t)
                    .unwrap_or_else(|| panic!("{size:?}: {t} in {labels:?}"))
            });
            assert!(!a.beside && !b.beside, "{size:?}: {a:?} {b:?}");
            assert!(
                !a.rect.shrink(0.5).intersects(b.rect.shrink(0.5)),
                "{size:?}: {a:?} covers {b:?}"
            );
        }
    }
    h.get_by_label("Map key").hover();
    h.run();
    h.get_by_label_contains("(6): your own real Wing, of 6 units");
    let at = wings(&h).0.label(0).center();
    h.hover_at(at);
    h.run();
    h.get_by_label_contains("In 1005: C0 ?, d1");
}

/// The Field of Glory table in play, a flank march arrived and revealed
/// (the example script run to its end by `muster script`'s own runner), at
/// 1280 x 720 and 1366 x 768: no label covers another.
#[test]
fn the_field_of_glory_tables_labels_never_cover_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let saved = dir.path().join("played.json");
    let args = crate::systems::ScriptArgs {
        file: root.join("examples/scripts/deployment.jsonl"),
        game: Some(root.join("assets/battles/terrain_laid.json")),
        seed: None,
        ruleset: None,
        print_state: false,
        save: Some(saved.clone()),
    };
    (crate::systems::fog().script)(&args).expect("the example script runs");
    for size in [[1280.0, 720.0], [1366.0, 768.0]] {
        let mut h = crate::app::tests::opened(dir.path(), saved.clone());
        h.set_size(egui::vec2(size[0], size[1]));
        crate::app::tests::click(&mut h, "Look at it read-only for now");
        h.run();
        let placed: Vec<egui::Rect> = crate::app::fog::table_view::PLACED
            .with(|p| p.borrow().iter().map(|(rect, _)| *rect).collect());
        assert!(placed.len() >= 5, "{size:?}: {placed:?}");
        for (i, a) in placed.iter().enumerate() {
            for b in &placed[i + 1..] {
                assert!(
                    !a.shrink(0.5).intersects(b.shrink(0.5)),
                    "{size:?}: a label at {a:?} covers one at {b:?}"
                );
            }
        }
    }
}

/// The ink of `text`'s first glyph at `font`, by pixel, from the font
/// atlas the window draws with: the pixels whose coverage is at least a
/// third, from the ink's left and bottom edges (the letter's shape, not
/// where it sits).
fn ink(
    ctx: &egui::Context,
    font: egui::FontId,
    text: &str,
) -> std::collections::HashSet<(i32, i32)> {
    let mut galley = None;
    let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
        galley = Some(
            ui.painter()
                .layout_no_wrap(text.into(), font.clone(), egui::Color32::WHITE),
        );
    });
    // The atlas is read below, not sent to a screen.
    out.textures_delta.clear();
    let galley = galley.unwrap();
    let glyph = galley.rows[0].glyphs[0];
    let atlas = ctx.fonts(|f| f.image());
    let uv = glyph.uv_rect;
    let mut out = std::collections::HashSet::new();
    for y in uv.min[1]..uv.max[1] {
        for x in uv.min[0]..uv.max[0] {
            if atlas[(usize::from(x), usize::from(y))].a() >= 85 {
                out.insert((i32::from(x), i32::from(y)));
            }
        }
    }
    let left = out.iter().map(|p| p.0).min().unwrap_or(0);
    let bottom = out.iter().map(|p| p.1).max().unwrap_or(0);
    out.into_iter()
        .map(|(x, y)| (x - left, bottom - y))
        .collect()
}

/// Issue 49: a Wing's "I1" read as "l1". A counter's label font draws
/// capital I and lower-case l with at least three tenths of their ink apart, at
/// the least, the crowded hex's and the usual label size; the window's proportional face,
/// which the labels were drawn in, does not.
#[test]
fn a_labels_capital_i_and_lower_case_l_differ() {
    let rules = muster::core::mapview::Rules::default();
    let ctx = egui::Context::default();
    let apart = |font: egui::FontId| {
        let (i, l) = (ink(&ctx, font.clone(), "I"), ink(&ctx, font, "l"));
        let both = i.union(&l).count() as f64;
        i.symmetric_difference(&l).count() as f64 / both
    };
    for px in [rules.min_label_px, rules.callout_px, rules.label_px] {
        let label = apart(crate::app::hex_grid::label_font(px as f32));
        let before = apart(egui::FontId::proportional(px as f32));
        assert!(label >= 0.3, "{px} px: I and l {label} apart");
        assert!(before < 0.3, "{px} px: the proportional face {before}");
    }
}
