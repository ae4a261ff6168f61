//! The printout as a reader sees it: the PDF parsed back (lopdf), its pages
//! and their size, and the text on them.

use muster_fog::battle::Battle;
use muster_fog::export::{Paper, private_pdf, table_pdf};
use muster_testkit::pdf::{assert_clear, clash, clipped_path_points, text_of, words};

/// The shipped example battle: terrain placed, adjusted, and a road.
fn example_battle() -> Battle {
    muster_fog::examples::terrain_battle()
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
        "the rules' unit (25.4 mm on the table)",
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
        .apply(muster_fog::battle::Command::Configure { settings })
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
    muster_fog::examples::deployed_battle()
}

#[test]
fn camps_fortifications_and_ambush_markers_print_but_never_what_a_marker_is() {
    let battle = deployed_battle();
    assert_eq!(battle.phase(), muster_fog::battle::Phase::Play);
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
        "South's ambush marker S1, sealed, commitment",
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

/// Once South's flank march has come on and been revealed, the schedule
/// says what it was (not "sealed"); and the log is numbered by entry, so
/// its last number is the count the title gives (issue 25).
/// A revealed ambush is no longer "sealed" on the schedule: it names the
/// battle group it was.
#[test]
fn a_revealed_ambush_prints_as_revealed() {
    use muster_core::side::Side;
    use muster_fog::battle::{AmbushContent, Command, RevealReason, reveal_ambush};
    let mut battle = deployed_battle();
    let key = battle
        .seal_key(Side::South, muster_fog::examples::EXAMPLE_PASSPHRASE)
        .unwrap();
    let (marker, bg) = (0..)
        .map_while(|m| {
            reveal_ambush(
                battle.state(),
                Side::South,
                m,
                &key,
                RevealReason::OwnersChoice,
            )
            .ok()
            .map(|c| (m, c))
        })
        .find_map(|(m, c)| match &c {
            Command::RevealAmbush { revealed, .. } => match revealed.secret {
                AmbushContent::Bg { bg } => Some((m, bg)),
                AmbushContent::Dummy => None,
            },
            _ => None,
        })
        .expect("South ambushes with a battle group");
    let reveal = reveal_ambush(
        battle.state(),
        Side::South,
        marker,
        &key,
        RevealReason::OwnersChoice,
    )
    .unwrap();
    battle.apply(reveal).unwrap();
    let name = battle.state().armies[Side::South].as_ref().unwrap().bgs[bg]
        .name
        .clone();
    let pdf = lopdf::Document::load_mem(&table_pdf(&battle, Paper::A4, "2026-11-26")).unwrap();
    let schedule = words(&text_of(&pdf, 2));
    let tag = format!("S{}", marker + 1);
    assert!(
        schedule.contains(&format!("South's ambush marker {tag}, revealed: {name}")),
        "{schedule}"
    );
    assert!(
        !schedule.contains(&format!("marker {tag}, sealed")),
        "{schedule}"
    );
}

#[test]
fn a_revealed_march_prints_as_revealed_and_the_log_counts_entries() {
    use muster_core::dice::DiceInput;
    use muster_core::side::Side;
    use muster_fog::battle::Command;
    let mut battle = deployed_battle();
    let (s, n) = (Side::South, Side::North);
    for side in [s, n] {
        battle.apply(Command::EndTurn { side }).unwrap();
    }
    battle
        .apply(Command::RollArrival {
            side: s,
            march: 0,
            dice: DiceInput::Typed(vec![6, 6]),
        })
        .unwrap();
    let key = battle
        .seal_key(s, muster_fog::examples::EXAMPLE_PASSPHRASE)
        .unwrap();
    let reveal = muster_fog::battle::reveal_plan(
        battle.state(),
        s,
        0,
        &key,
        vec![DiceInput::Typed(vec![4, 4]); 2],
    )
    .unwrap();
    battle.apply(reveal).unwrap();
    let bytes = table_pdf(&battle, Paper::A4, "2026-11-25");
    let pdf = lopdf::Document::load_mem(&bytes).unwrap();
    let pages = pdf.get_pages().len() as u32;
    let all = words(&(1..=pages).map(|p| text_of(&pdf, p)).collect::<String>());
    assert!(
        all.contains("South flank march 1: revealed: Ala Petriana, Ala Indiana led by"),
        "{all}"
    );
    assert!(!all.contains("flank march 1: sealed"), "{all}");
    let entries = battle.log().len();
    assert!(all.contains(&format!("Log: {entries} entries")), "{all}");
    assert!(
        all.contains(&format!(" {entries}. ")),
        "the last entry's number"
    );
    assert!(
        !all.contains(&format!(" {}. ", entries + 1)),
        "no line past it"
    );
}

#[test]
fn the_owner_unlocks_a_private_page_of_his_sealed_records() {
    let battle = deployed_battle();
    let e = muster_fog::export::private_page(
        &battle,
        muster_core::side::Side::South,
        "copper heron lantern",
    )
    .unwrap_err();
    assert!(e.message.contains("not the passphrase"), "{e}");
    let page = muster_fog::export::private_page(
        &battle,
        muster_core::side::Side::South,
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
    let path = muster_fog::export::private_path(
        std::path::Path::new("/tmp/table.pdf"),
        muster_core::side::Side::South,
    );
    assert_eq!(path, std::path::Path::new("/tmp/table-private-south.pdf"));
}

#[test]
fn no_text_hides_another_and_none_leaves_the_page_on_either_paper() {
    for battle in [example_battle(), deployed_battle()] {
        every_page_clear(&battle);
    }
}

/// `battle`'s printed table on both papers: on every page, no text hides
/// another or leaves the page.
fn every_page_clear(battle: &Battle) {
    for (paper, size) in [
        (Paper::A4, (841.89, 595.28)),
        (Paper::Letter, (792.0, 612.0)),
    ] {
        let bytes = table_pdf(battle, paper, "2026-11-22");
        let pdf = lopdf::Document::load_mem(&bytes).unwrap();
        for page in 1..=pdf.get_pages().len() as u32 {
            assert_clear(&pdf, page, size);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 24,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]
    /// Random set-ups (issue 49): the example battle's terrain and two to
    /// five of South's ambush markers where the rules allow, most of them
    /// crowding a piece of terrain and its name; the printed table on both
    /// papers, every page: no text hides another or leaves the page.
    #[test]
    fn no_text_hides_another_on_random_set_ups(
        picks in proptest::collection::vec(
            (0usize..64, 0usize..1_000_000, proptest::bool::weighted(0.7)),
            2..=5,
        )
    ) {
        let (battle, placed) = muster_fog::examples::ambushes_battle(&picks);
        proptest::prop_assert!(placed >= 1, "{placed} markers");
        every_page_clear(&battle);
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
    let items = muster_fog::export::schedule::items(&battle);
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
    // Two different points of the outline (a rounded rectangle's corners
    // excepted: where its sides would meet), measured square.
    for item in items.iter().filter(|i| i.turn.is_some()) {
        let [(_, a), (_, b)] = [&item.fixes[0], &item.fixes[1]];
        assert_ne!(a.point, b.point, "{}: one point twice", item.name);
        if !item.size.starts_with("rounded") {
            for (_, fix) in &item.fixes {
                assert!(item.outline.contains(&fix.point), "{}", item.name);
            }
        }
    }
    // The river by its two banks where it meets a long edge; ovals by the
    // ends of their long axis.
    let river = items
        .iter()
        .find(|i| i.name.starts_with("River"))
        .expect("the river");
    let banks: Vec<&str> = river.fixes.iter().map(|(w, _)| w.as_str()).collect();
    assert_eq!(banks, ["bank (W)", "bank (E)"]);
    assert!(schedule.contains("long axis end (W): "), "{schedule}");
}

#[test]
fn the_scale_line_states_the_true_paper_scale_and_log_lines_wrap() {
    let mut battle = example_battle();
    let mut settings = battle.state().settings.clone();
    settings.title = format!("A battle whose title is long: {}", "very ".repeat(10));
    battle
        .apply(muster_fog::battle::Command::Configure { settings })
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

#[test]
fn piece_templates_print_at_one_to_one_across_joining_tiles() {
    let battle = deployed_battle();
    let bytes = muster_fog::export::templates_pdf(&battle, Paper::A4);
    let pdf = lopdf::Document::load_mem(&bytes).unwrap();
    let pages = pdf.get_pages().len() as u32;
    let items = muster_fog::export::schedule::items(&battle);
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

/// With centimetres chosen, every page speaks cm only: the table's scale
/// bar and deployment lines, the schedule's sizes and distances, the
/// log (issue 25).
#[test]
fn in_centimetres_no_page_says_mu() {
    let mut battle = deployed_battle();
    let mut settings = battle.state().settings.clone();
    settings.units = muster_fog::units::LengthUnit::Centimetres;
    settings.mu = muster_fog::units::MuScale::Mm25;
    battle
        .apply(muster_fog::battle::Command::Configure { settings })
        .unwrap();
    let bytes = table_pdf(&battle, Paper::A4, "2026-11-22");
    let pdf = lopdf::Document::load_mem(&bytes).unwrap();
    let pages = pdf.get_pages().len() as u32;
    let mut seen_cm = false;
    for p in 1..=pages {
        let text = text_of(&pdf, p);
        seen_cm |= text.contains(" cm");
        for line in text.lines() {
            assert!(
                !line
                    .split(|c: char| !c.is_alphanumeric())
                    .any(|w| w == "MU"),
                "page {p}: {line:?}"
            );
        }
    }
    assert!(seen_cm, "lengths are printed in cm");
    // The deployment lines of the table page, in cm.
    assert!(text_of(&pdf, 1).contains("30.0 cm"), "{}", text_of(&pdf, 1));
    // The edges numbered in cm: 72 x 48 MU of 25 mm is 180 x 120 cm.
    let table = text_of(&pdf, 1);
    let numbers: Vec<&str> = table.split_whitespace().collect();
    for cm in ["180", "120", "30", "60"] {
        assert!(numbers.contains(&cm), "no {cm} on the axes: {table}");
    }
    assert!(!numbers.contains(&"72"), "an axis still in MU: {table}");
}
