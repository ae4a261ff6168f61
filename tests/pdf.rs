//! The printout as a reader sees it: the PDF parsed back (lopdf), its pages
//! and their size, and the text on them.

use muster::fog::battle::Battle;
use muster::fog::export::{Paper, private_pdf, table_pdf};

/// The shipped example battle: terrain placed, adjusted, and a road.
fn example_battle() -> Battle {
    muster::fog::examples::terrain_battle()
}

/// Text with every run of white space (a wrapped line's break) one space.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn text_of(pdf: &lopdf::Document, page: u32) -> String {
    pdf.extract_text(&[page]).unwrap()
}

#[test]
fn the_table_page_and_the_log_page() {
    let battle = example_battle();
    let bytes = table_pdf(&battle, Paper::A4, "2026-11-22");
    assert!(bytes.len() < 300_000, "{} bytes", bytes.len());
    let pdf = lopdf::Document::load_mem(&bytes).unwrap();
    let pages = pdf.get_pages();
    assert_eq!(pages.len(), 3, "the table, the schedule, the log");
    let first = pdf.get_object(pages[&1]).unwrap().as_dict().unwrap();
    let media: Vec<f32> = first
        .get(b"MediaBox")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_float().unwrap())
        .collect();
    assert!(
        (media[2] - 841.89).abs() < 0.5 && (media[3] - 595.28).abs() < 0.5,
        "{media:?}"
    );
    let text = text_of(&pdf, 1);
    let fingerprints = format!(
        "Ruleset fog_am_v3.1 fingerprint {}   Log: {} entries, fingerprint {}",
        battle.ruleset().fingerprint(),
        battle.log().len(),
        battle.log_fingerprint()
    );
    for expected in [
        fingerprints.as_str(),
        "Mons Graupius",
        "2026-11-22",
        "South: Ann (Early Imperial Roman)",
        "North: Bob (Ancient British)",
        "Territory: Woodlands",
        "Initiative: South",
        "Forest",
        "Large brush",
        "Village",
        "River",
        "Scale 1:",
        "1 MU (25.4 mm on the table)",
        "South edge (Ann)",
        "Legend",
        "Road",
    ] {
        assert!(
            text.contains(expected),
            "page 1 lacks {expected:?}:\n{text}"
        );
    }
    let schedule = text_of(&pdf, 2);
    for expected in [
        "Forest (S)",
        "Forest (N)",
        "Large brush (N)",
        "Village (S)",
        "River (S), rough",
    ] {
        assert!(
            schedule.contains(expected),
            "the schedule lacks {expected:?}:\n{schedule}"
        );
    }
    let log = text_of(&pdf, 3);
    assert!(log.contains("Setup log"));
    assert!(
        log.contains("South has the initiative (South 6, North 5)"),
        "{log}"
    );
}

#[test]
fn letter_paper_and_accented_names() {
    let mut battle = example_battle();
    let mut settings = battle.state().settings.clone();
    settings.title = "Bataille de Gergovie, été".into();
    battle
        .apply(muster::fog::battle::Command::Configure { settings })
        .unwrap();
    let bytes = table_pdf(&battle, Paper::Letter, "2026-11-22");
    let pdf = lopdf::Document::load_mem(&bytes).unwrap();
    let pages = pdf.get_pages();
    let first = pdf.get_object(pages[&1]).unwrap().as_dict().unwrap();
    let media = first.get(b"MediaBox").unwrap().as_array().unwrap();
    assert!((media[2].as_float().unwrap() - 792.0).abs() < 0.5);
    assert!(text_of(&pdf, 1).contains("Bataille de Gergovie, été"));
}

fn deployed_battle() -> Battle {
    muster::fog::examples::deployed_battle()
}

#[test]
fn camps_fortifications_and_ambush_markers_print_but_never_what_a_marker_is() {
    let battle = deployed_battle();
    assert_eq!(battle.phase(), muster::fog::battle::Phase::Play);
    let bytes = table_pdf(&battle, Paper::A4, "2026-11-22");
    let pdf = lopdf::Document::load_mem(&bytes).unwrap();
    let table = text_of(&pdf, 1);
    for expected in [
        "Moves first: South",
        "C-S",
        "C-N",
        "Field fortification",
        "Ambush marker, sealed",
        "S1",
        "S3",
    ] {
        assert!(
            table.contains(expected),
            "page 1 lacks {expected:?}:\n{table}"
        );
    }
    let schedule = words(&text_of(&pdf, 2));
    for expected in [
        "South's ambush marker S1, sealed",
        "marker: 3.0 in from S, 14.0 in from E",
        "South's camp",
        "South flank march 1: sealed, commitment ",
    ] {
        assert!(
            schedule.contains(expected),
            "the schedule lacks {expected:?}:\n{schedule}"
        );
    }
    let pages = pdf.get_pages().len() as u32;
    let all: String = (1..=pages).map(|p| text_of(&pdf, p)).collect();
    assert!(words(&all).contains("South places an ambush marker 16.0 in from S, 18.0 in from W"));
    // Battle groups deployed in the open are named in the log...
    assert!(all.contains("Legio V"), "{all}");
    // ...but not those in ambush or marching: Legio I, the Syrian archers,
    // a dummy, the two alae.
    for secret in ["Syrian archers", "Legio I\n", "Legio I ", "ummy", "Ala "] {
        assert!(!all.contains(secret), "the printout names {secret:?}");
    }
}

#[test]
fn the_owner_unlocks_a_private_page_of_his_sealed_records() {
    let battle = deployed_battle();
    let e = muster::fog::export::private_page(&battle, muster::Side::South, "copper heron lantern")
        .unwrap_err();
    assert!(e.message.contains("not the passphrase"), "{e}");
    let page = muster::fog::export::private_page(
        &battle,
        muster::Side::South,
        "copper heron lantern thistle",
    )
    .unwrap();
    let bytes = private_pdf(&battle, &page, Paper::A4);
    let pdf = lopdf::Document::load_mem(&bytes).unwrap();
    assert_eq!(
        pdf.get_pages().len(),
        1,
        "the private page is a file of its own"
    );
    let private = text_of(&pdf, 1);
    for expected in [
        "South (Ann): private page, sealed records",
        "Ambush S1 at 3.0 in from S, 14.0 in from E, sealed ",
        ": Legio I",
        ": Syrian archers",
        ": a dummy",
        "Ala Petriana, Ala Indiana, led by Caecina, left flank, arrival modifier +0",
    ] {
        assert!(
            private.contains(expected),
            "the private page lacks {expected:?}:\n{private}"
        );
    }
    // The shared printout has no secret and no private page.
    let shared = lopdf::Document::load_mem(&table_pdf(&battle, Paper::A4, "2026-11-22")).unwrap();
    let shared: String = (1..=shared.get_pages().len() as u32)
        .map(|p| text_of(&shared, p))
        .collect();
    assert!(!shared.contains("Syrian archers") && !shared.contains("private page"));
    // The private page's file is named apart from the printout's.
    let path = muster::fog::export::private_path(
        std::path::Path::new("/tmp/table.pdf"),
        muster::Side::South,
    );
    assert_eq!(path, std::path::Path::new("/tmp/table-private-south.pdf"));
}

/// One piece of text as a reader sees it on a page: its string (decoded by
/// lopdf, for messages) and its box in points, computed from the content
/// stream's text position and font size and the embedded font's own
/// widths (`/W`), ascent and descent.
#[derive(Debug)]
struct TextBox {
    text: String,
    rect: [f32; 4],
}

/// The font metrics a page's text is set in: per glyph widths, ascent and
/// descent, all in thousandths of an em.
struct FontMetrics {
    widths: std::collections::HashMap<u16, f32>,
    default: f32,
    ascent: f32,
    descent: f32,
}

fn font_metrics(pdf: &lopdf::Document, font: &lopdf::Dictionary) -> FontMetrics {
    let deref = |o: &lopdf::Object| pdf.dereference(o).unwrap().1.clone();
    let descendants = deref(font.get(b"DescendantFonts").unwrap());
    let cid = deref(&descendants.as_array().unwrap()[0]);
    let cid = cid.as_dict().unwrap();
    let mut widths = std::collections::HashMap::new();
    let w = deref(cid.get(b"W").unwrap());
    let w = w.as_array().unwrap();
    let mut k = 0;
    while k + 1 < w.len() {
        let first = w[k].as_i64().unwrap() as u16;
        for (n, width) in w[k + 1].as_array().unwrap().iter().enumerate() {
            widths.insert(first + n as u16, width.as_float().unwrap());
        }
        k += 2;
    }
    let default = cid.get(b"DW").map_or(1000.0, |d| d.as_float().unwrap());
    let descriptor = deref(cid.get(b"FontDescriptor").unwrap());
    let descriptor = descriptor.as_dict().unwrap();
    FontMetrics {
        widths,
        default,
        ascent: descriptor.get(b"Ascent").unwrap().as_float().unwrap(),
        descent: descriptor.get(b"Descent").unwrap().as_float().unwrap(),
    }
}

fn text_boxes(pdf: &lopdf::Document, page: u32) -> Vec<TextBox> {
    let id = pdf.get_pages()[&page];
    let fonts: std::collections::HashMap<Vec<u8>, FontMetrics> = pdf
        .get_page_fonts(id)
        .unwrap()
        .into_iter()
        .map(|(name, dict)| (name, font_metrics(pdf, dict)))
        .collect();
    let content = pdf.get_and_decode_page_content(id).unwrap();
    let (mut x, mut y, mut size) = (0.0f32, 0.0f32, 0.0f32);
    let mut font: Option<&FontMetrics> = None;
    let mut boxes = Vec::new();
    for op in &content.operations {
        let num = |k: usize| op.operands[k].as_float().unwrap();
        match op.operator.as_str() {
            "BT" => (x, y) = (0.0, 0.0),
            "Tf" => {
                font = fonts.get(op.operands[0].as_name().unwrap());
                size = num(1);
            }
            "Td" => (x, y) = (x + num(0), y + num(1)),
            "Tm" => (x, y) = (num(4), num(5)),
            "Tj" | "TJ" => {
                let f = font.expect("text shown with a font set");
                let parts = match &op.operands[0] {
                    lopdf::Object::Array(a) => a.clone(),
                    other => vec![other.clone()],
                };
                let mut advance = 0.0;
                for part in &parts {
                    match part {
                        lopdf::Object::String(bytes, _) => {
                            for g in bytes.chunks(2) {
                                let gid = u16::from_be_bytes([g[0], g[1]]);
                                advance += f.widths.get(&gid).copied().unwrap_or(f.default);
                            }
                        }
                        n => advance -= n.as_float().unwrap(),
                    }
                }
                let w = advance / 1000.0 * size;
                boxes.push(TextBox {
                    text: String::new(),
                    rect: [
                        x,
                        y + f.descent / 1000.0 * size,
                        x + w,
                        y + f.ascent / 1000.0 * size,
                    ],
                });
            }
            _ => {}
        }
    }
    // The strings as lopdf reads them, in the same order, for messages.
    let text = pdf.extract_text(&[page]).unwrap();
    for (b, line) in boxes.iter_mut().zip(text.lines()) {
        b.text = line.to_string();
    }
    boxes
}

/// The first two texts whose boxes share area (by more than `slack`
/// points), or the first text outside the page.
fn clash(pdf: &lopdf::Document, page: u32, (pw, ph): (f32, f32)) -> Option<String> {
    let boxes = text_boxes(pdf, page);
    assert!(!boxes.is_empty());
    let slack = 0.05;
    for b in &boxes {
        let [x0, y0, x1, y1] = b.rect;
        if !(x0 >= 0.0 && y0 >= 0.0 && x1 <= pw && y1 <= ph) {
            return Some(format!(
                "page {page}: {:?} {:?} leaves the {pw} x {ph} pt page",
                b.text, b.rect
            ));
        }
    }
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let overlap_x = a.rect[2].min(b.rect[2]) - a.rect[0].max(b.rect[0]);
            let overlap_y = a.rect[3].min(b.rect[3]) - a.rect[1].max(b.rect[1]);
            if overlap_x > slack && overlap_y > slack {
                return Some(format!(
                    "page {page}: {:?} {:?} overlaps {:?} {:?}",
                    a.text, a.rect, b.text, b.rect
                ));
            }
        }
    }
    None
}

fn assert_clear(pdf: &lopdf::Document, page: u32, size: (f32, f32)) {
    if let Some(clash) = clash(pdf, page, size) {
        panic!("{clash}");
    }
}

#[test]
fn no_text_hides_another_and_none_leaves_the_page_on_either_paper() {
    for battle in [example_battle(), deployed_battle()] {
        for (paper, size) in [
            (Paper::A4, (841.89, 595.28)),
            (Paper::Letter, (792.0, 612.0)),
        ] {
            let bytes = table_pdf(&battle, paper, "2026-11-22");
            let pdf = lopdf::Document::load_mem(&bytes).unwrap();
            for page in 1..=pdf.get_pages().len() as u32 {
                assert_clear(&pdf, page, size);
            }
        }
    }
}

#[test]
fn the_box_check_catches_text_set_over_text() {
    // The check itself must be able to fail: two strings at one spot.
    let mut doc = lopdf::Document::load_mem(&table_pdf(&example_battle(), Paper::A4, "d")).unwrap();
    let id = doc.get_pages()[&1];
    let mut content = doc.get_and_decode_page_content(id).unwrap();
    let shown: Vec<lopdf::content::Operation> = content
        .operations
        .iter()
        .skip_while(|o| o.operator != "BT")
        .take_while(|o| o.operator != "ET")
        .cloned()
        .collect();
    content
        .operations
        .push(lopdf::content::Operation::new("BT", vec![]));
    content.operations.extend(shown.into_iter().skip(1));
    content
        .operations
        .push(lopdf::content::Operation::new("ET", vec![]));
    doc.change_page_content(id, content.encode().unwrap())
        .unwrap();
    assert!(clash(&doc, 1, (841.89, 595.28)).is_some());
}

#[test]
fn every_item_has_its_turn_and_two_reference_points_and_the_road_its_bends() {
    let battle = deployed_battle();
    let settings = &battle.state().settings;
    let items = muster::fog::export::schedule::items(&battle);
    let standing = battle.state().placement.standing().count();
    assert!(items.len() >= standing + 3, "pieces, the road, camps");
    let bytes = table_pdf(&battle, Paper::A4, "2026-11-22");
    let pdf = lopdf::Document::load_mem(&bytes).unwrap();
    let schedule: String = text_of(&pdf, 2)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(schedule.contains("Laying out the table"), "{schedule}");
    for item in &items {
        assert!(schedule.contains(&format!("{}  ", item.tag).trim_end().to_string()));
        for (what, fix) in &item.fixes {
            let words = format!("{what}: {}", settings.fix(fix));
            assert!(
                schedule.contains(&words),
                "the schedule lacks {words:?}:\n{schedule}"
            );
        }
        if item.turn.is_some() {
            assert!(
                schedule.contains(&item.turn_words()),
                "{} has no turn",
                item.name
            );
            assert_eq!(item.fixes.len(), 2, "{}", item.name);
        }
    }
    let road = items.iter().find(|i| i.tag == "R").expect("the road");
    let line = battle.state().placement.road.as_ref().unwrap();
    assert_eq!(road.fixes.len(), line.len(), "each end and bend");
    // A reference point is a point of the outline, measured square.
    for item in items.iter().filter(|i| i.turn.is_some()) {
        for (_, fix) in &item.fixes {
            assert!(item.outline.contains(&fix.point), "{}", item.name);
        }
    }
}

#[test]
fn the_scale_line_states_the_true_paper_scale_and_log_lines_wrap() {
    let mut battle = example_battle();
    let mut settings = battle.state().settings.clone();
    settings.title = format!("A battle whose title is long: {}", "very ".repeat(40));
    battle
        .apply(muster::fog::battle::Command::Configure { settings })
        .unwrap();
    let bytes = table_pdf(&battle, Paper::A4, "2026-11-22");
    let pdf = lopdf::Document::load_mem(&bytes).unwrap();
    let page = text_of(&pdf, 1);
    let scale = page
        .lines()
        .find(|l| l.starts_with("Scale 1:"))
        .expect("the scale line");
    // "... is 2.958 mm on paper": three decimals, not a rounded 3.0.
    let mm: f32 = scale
        .split(" is ")
        .nth(1)
        .and_then(|r| r.split(" mm").next())
        .unwrap()
        .parse()
        .unwrap();
    let ratio: f32 = scale["Scale 1:".len()..]
        .split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((25.4 / mm - ratio).abs() / ratio < 0.002, "{scale}");
    // The long title wraps inside the page instead of running off it.
    assert_clear(&pdf, 1, (841.89, 595.28));
    let pages = pdf.get_pages().len() as u32;
    for p in 2..=pages {
        assert_clear(&pdf, p, (841.89, 595.28));
    }
}

/// The points of the first path drawn after the clip on a page, in mm.
fn clipped_path_points(pdf: &lopdf::Document, page: u32) -> Vec<(f32, f32)> {
    let id = pdf.get_pages()[&page];
    let content = pdf.get_and_decode_page_content(id).unwrap();
    let mut after_clip = false;
    let mut points = Vec::new();
    for op in &content.operations {
        let num = |k: usize| op.operands[k].as_float().unwrap() * 25.4 / 72.0;
        match op.operator.as_str() {
            "W" => after_clip = true,
            "m" | "l" if after_clip => points.push((num(0), num(1))),
            "c" if after_clip => points.push((num(4), num(5))),
            "f" | "B" | "b" | "S" | "s" if after_clip && !points.is_empty() => break,
            _ => {}
        }
    }
    points
}

#[test]
fn piece_templates_print_at_one_to_one_across_joining_tiles() {
    let battle = deployed_battle();
    let bytes = muster::fog::export::templates_pdf(&battle, Paper::A4);
    let pdf = lopdf::Document::load_mem(&bytes).unwrap();
    let pages = pdf.get_pages().len() as u32;
    let items = muster::fog::export::schedule::items(&battle);
    let outlined = items.iter().filter(|i| i.turn.is_some()).count() as u32;
    assert!(pages >= outlined, "{pages} pages for {outlined} items");
    // South's turned forest (11 x 7 MU at 25.4 mm): two tiles across that
    // join to its true width.
    let tiles: Vec<u32> = (1..=pages)
        .filter(|p| text_of(&pdf, *p).contains("2 Forest (S): template at 1:1, tile"))
        .collect();
    assert_eq!(tiles.len(), 2, "two tiles across");
    let tile_w = 297.0 - 2.0 * 10.0;
    let xs: Vec<f32> = tiles
        .iter()
        .enumerate()
        .flat_map(|(col, p)| {
            clipped_path_points(&pdf, *p)
                .into_iter()
                .map(move |(x, _)| x + col as f32 * tile_w)
        })
        .collect();
    let width =
        xs.iter().copied().fold(f32::MIN, f32::max) - xs.iter().copied().fold(f32::MAX, f32::min);
    assert!((width - 11.0 * 25.4).abs() < 0.5, "{width} mm");
    assert!(text_of(&pdf, 1).contains("the bar below must measure 10 cm"));
    for p in 1..=pages {
        assert_clear(&pdf, p, (841.89, 595.28));
    }
}

/// An action-deck game of many turns, each with a rally card shown, with a
/// player's name long enough to wrap.
fn long_deck_game() -> (muster::deck::Game, u32) {
    use muster::deck::{Command, Pick, Stage, Use};
    let new = r#"{"cmd": "new", "south": {"name": "Decius Iunius Brutus Albinus, legate of the Ninth and of every cohort that ever marched north of the Wall", "army": "romans"}, "north": {"name": "Artagur", "army": "gauls"}}
{"cmd": "choose_first", "active": "south"}
"#;
    let mut game = None;
    let failed = muster::deck::script::run(&mut game, Some(5), new.as_bytes(), std::io::sink());
    assert_eq!(failed.unwrap(), 0);
    let mut g = game.unwrap();
    let first_of = |g: &muster::deck::Game, side| g.zones(side).unwrap().hand.first().cloned();
    let mut turns = 0;
    'game: for _ in 0..60 {
        let turn = g.public().turn.clone().unwrap();
        let (active, passive) = (turn.active, turn.passive());
        let mut commands = vec![
            Command::EndPhase,
            Command::Declare { plays: true },
            Command::Interrupt {
                player: passive,
                card: None,
            },
        ];
        if let Some(card) = first_of(&g, active) {
            commands.push(Command::Play {
                player: active,
                card: Pick::Hand(card),
                use_: Use::Rally,
                to: None,
            });
        }
        commands.push(Command::EndPhase);
        for command in commands {
            if g.apply(command).is_err() {
                break 'game;
            }
        }
        while g.public().turn.as_ref().unwrap().stage == Stage::Declaring {
            g.apply(Command::Declare { plays: false }).unwrap();
        }
        g.apply(Command::Redraw).unwrap();
        let card = first_of(&g, active);
        if g.apply(Command::Fatigue { card }).is_err() {
            break;
        }
        g.apply(Command::EndTurn).unwrap();
        turns += 1;
    }
    (g, turns)
}

#[test]
fn the_deck_summary_lists_every_turn_on_clear_pages_on_either_paper() {
    let (game, turns) = long_deck_game();
    assert!(turns >= 20, "only {turns} turns");
    for (paper, size) in [
        (Paper::A4, (841.89, 595.28)),
        (Paper::Letter, (792.0, 612.0)),
    ] {
        let bytes = muster::deck::export::summary_pdf(&game, paper);
        let pdf = lopdf::Document::load_mem(&bytes).unwrap();
        let pages = pdf.get_pages().len() as u32;
        assert!(pages >= 2, "{turns} turns on {pages} page");
        let mut text = String::new();
        for page in 1..=pages {
            assert_clear(&pdf, page, size);
            text.push_str(&words(&text_of(&pdf, page)));
            text.push(' ');
        }
        assert!(text.contains("every cohort that ever marched north of the Wall"));
        for number in 1..=turns {
            assert!(text.contains(&format!("Turn {number} ")), "turn {number}");
        }
        // Each rally card shown is printed under its turn; no hand is.
        let public = game.public();
        for shown in &public.shown {
            let title = &game.set().card(&shown.card).unwrap().title;
            assert!(
                text.contains(&format!("played {title} for rally")),
                "{title}"
            );
        }
        for side in muster::Side::BOTH {
            for id in &game.zones(side).unwrap().hand {
                let seen = public.shown.iter().any(|s| &s.card == id);
                let title = &game.set().card(id).unwrap().title;
                assert!(
                    seen || !text.contains(title.as_str()),
                    "hand card {title} printed"
                );
            }
        }
    }
}

/// A hidden-forces game: Ann (with a passphrase) and Bob set up, Ann's
/// legions meet Bob's cataphracts (both revealed), her Exercitus 1 stays a
/// face-down bluff, and a second force of hers stays face down.
fn forces_game() -> muster::map_intel::game::Game {
    let script = r#"{"cmd": "new", "south": {"name": "Ann", "passphrase": "ann's long passphrase 7"}, "north": {"name": "Bob"}}
{"cmd": "transfer", "side": "south", "from": 0, "to": {"new_force": "0505"}, "units": ["r-leg-3"]}
{"cmd": "transfer", "side": "south", "from": 0, "to": {"new_force": "1210"}, "units": ["r-leg-10", "r-aux-2"]}
{"cmd": "place_exercitus", "side": "south", "number": 1, "hex": "0707", "units": []}
{"cmd": "transfer", "side": "north", "from": 6, "to": {"new_force": "0606"}, "units": ["p-cat-1"]}
{"cmd": "begin", "first": "south"}
{"cmd": "move", "id": 12, "to": "0606"}
"#;
    let mut game = None;
    let failed = muster::map_intel::script::run(&mut game, script.as_bytes(), std::io::sink());
    assert_eq!(failed.unwrap(), 0);
    game.unwrap()
}

#[test]
fn the_hidden_forces_map_prints_question_marks_and_codes_and_only_the_owner_prints_his_ledger() {
    use muster::map_intel::export::{ledger_pdf, pdf};
    let game = forces_game();
    let hidden = ["Legio X Fretensis", "Ala II Thracum", "r-leg-10"];
    for (paper, size) in [
        (Paper::A4, (841.89, 595.28)),
        (Paper::Letter, (792.0, 612.0)),
    ] {
        let bytes = pdf(&game, paper);
        let doc = lopdf::Document::load_mem(&bytes).unwrap();
        let pages = doc.get_pages().len() as u32;
        let mut text = String::new();
        for page in 1..=pages {
            assert_clear(&doc, page, size);
            text.push_str(&words(&text_of(&doc, page)));
            text.push(' ');
        }
        let map = words(&text_of(&doc, 1));
        for expected in [
            "Hidden forces: Example: Rome and Parthia on the Euphrates",
            "South: Ann (Rome) · North: Bob (Parthia) · turn 1, Ann (Rome) active",
            "0101",
            "2014",
            "#12 (1)",
            "#14 (1)",
            "#13 ?",
            "E1 ?",
        ] {
            assert!(map.contains(expected), "the map lacks {expected:?}:\n{map}");
        }
        // Every sealed record's code is listed; the face-up forces' units too.
        let view = game.table_view();
        for h in view.holders.iter().filter(|h| !h.face_up) {
            let code = h.code.as_ref().unwrap();
            assert!(text.contains(code.as_str()), "code {code} of {}", h.id);
        }
        assert!(
            text.contains("#12 (1) Ann (Rome)'s force 12, in 0606, face up: Legio III Gallica")
        );
        assert!(text.contains("Cataphracts of Suren"));
        for secret in hidden {
            assert!(
                !text.contains(secret),
                "{secret} printed on the public pages"
            );
        }
    }
    // Ann's ledger only with her passphrase, in a document of its own;
    // Bob's never shows Ann's units.
    let south = muster::Side::South;
    assert!(ledger_pdf(&game, south, "a guess".into(), Paper::A4).is_err());
    let bytes = ledger_pdf(&game, south, "ann's long passphrase 7".into(), Paper::A4).unwrap();
    let doc = lopdf::Document::load_mem(&bytes).unwrap();
    assert_eq!(doc.get_pages().len(), 1);
    assert_clear(&doc, 1, (841.89, 595.28));
    let ledger = words(&text_of(&doc, 1));
    assert!(ledger.contains("Ann (Rome)'s private ledger"), "{ledger}");
    assert!(ledger.contains("force 13, in 1210, face down"), "{ledger}");
    assert!(
        ledger.contains("Ala II Thracum, Legio X Fretensis"),
        "{ledger}"
    );
    assert!(
        ledger.contains("Exercitus 1, in 0707, face down"),
        "{ledger}"
    );
    let bytes = ledger_pdf(&game, muster::Side::North, "".into(), Paper::A4).unwrap();
    let doc = lopdf::Document::load_mem(&bytes).unwrap();
    let all = words(&text_of(&doc, 1));
    assert!(all.contains("Cataphracts of Suren"), "{all}");
    for secret in hidden {
        assert!(!all.contains(secret), "{secret} in Bob's printout");
    }
}

/// The dummy-wings example: Seydlitz's cavalry spots the French wing, the
/// roll, both placed; two Prussian dummies never flipped.
fn wings_game() -> muster::map_intel::wings::game::Game {
    let script = std::fs::read_to_string("examples/scripts/wings.jsonl").unwrap();
    let mut game = None;
    let failed =
        muster::map_intel::wings::script::run(&mut game, None, script.as_bytes(), std::io::sink());
    assert_eq!(failed.unwrap(), 2, "the example's two refusals");
    game.unwrap()
}

#[test]
fn the_dummy_wings_map_never_tells_a_dummy_before_it_is_flipped() {
    use muster::map_intel::wings::export::{ledger_pdf, pdf};
    let game = wings_game();
    for (paper, size) in [
        (Paper::A4, (841.89, 595.28)),
        (Paper::Letter, (792.0, 612.0)),
    ] {
        let doc = lopdf::Document::load_mem(&pdf(&game, paper)).unwrap();
        let pages = doc.get_pages().len() as u32;
        let mut text = String::new();
        for page in 1..=pages {
            assert_clear(&doc, page, size);
            text.push_str(&words(&text_of(&doc, page)));
            text.push(' ');
        }
        let map = words(&text_of(&doc, 1));
        for expected in ["Dummy wings: Rossbach", "C1 ?", "I2 ?", "d1", "d2", "2014"] {
            assert!(map.contains(expected), "the map lacks {expected:?}");
        }
        for s in game.table_view().iter().filter(|s| !s.face_up) {
            assert!(text.contains(&s.code), "code of counter {}", s.id);
        }
        assert!(text.contains("a real Wing, rating 4, in column (IC): Cuirassiers 8"));
        assert!(!text.contains("a dummy"), "an unflipped dummy is named");
    }
    let doc = lopdf::Document::load_mem(
        &ledger_pdf(&game, muster::Side::South, "".into(), Paper::A4).unwrap(),
    )
    .unwrap();
    assert_clear(&doc, 1, (841.89, 595.28));
    let own = words(&text_of(&doc, 1));
    assert_eq!(own.matches("a dummy").count(), 2, "{own}");
}
