//! The printout as a reader sees it: the PDF parsed back (lopdf), its pages
//! and their size, and the text on them.

use muster::battle::Battle;
use muster::export::{Paper, private_pdf, table_pdf};

/// The shipped example battle: terrain placed, adjusted, and a road.
fn example_battle() -> Battle {
    muster::examples::terrain_battle()
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
    assert_eq!(pages.len(), 2);
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
        "Forest (S)",
        "Forest (N)",
        "Large brush (N)",
        "Village (S)",
        "River (S), rough",
        "Scale: 1 MU = 25.4 mm on the table",
        "South edge (Ann)",
        "Legend",
        "Road",
    ] {
        assert!(
            text.contains(expected),
            "page 1 lacks {expected:?}:\n{text}"
        );
    }
    let log = text_of(&pdf, 2);
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
        .apply(muster::battle::Command::Configure { settings })
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
    muster::examples::deployed_battle()
}

#[test]
fn camps_fortifications_and_ambush_markers_print_but_never_what_a_marker_is() {
    let battle = deployed_battle();
    assert_eq!(battle.phase(), muster::battle::Phase::Play);
    let bytes = table_pdf(&battle, Paper::A4, "2026-11-22");
    let pdf = lopdf::Document::load_mem(&bytes).unwrap();
    let table = text_of(&pdf, 1);
    for expected in [
        "Moves first: South",
        "Camp (S)",
        "Camp (N)",
        "Field fortification",
        "Ambush marker (sealed)",
        "Ambush S1: 3.0 in from S, 14.0 in from E, sealed ",
        "Ambush S3",
        "Flank marches (sealed)",
        "South march 1: commitment ",
    ] {
        assert!(
            table.contains(expected),
            "page 1 lacks {expected:?}:\n{table}"
        );
    }
    let pages = pdf.get_pages().len() as u32;
    let all: String = (1..=pages).map(|p| text_of(&pdf, p)).collect();
    assert!(all.contains("South places an ambush marker at (18.0, 16.0)"));
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
    let e = muster::export::private_page(&battle, muster::Side::South, "alea iacta").unwrap_err();
    assert!(e.message.contains("not the passphrase"), "{e}");
    let page =
        muster::export::private_page(&battle, muster::Side::South, "alea iacta est").unwrap();
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
        "Ambush S1 at (58.0, 3.0) MU, sealed ",
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
    let path =
        muster::export::private_path(std::path::Path::new("/tmp/table.pdf"), muster::Side::South);
    assert_eq!(path, std::path::Path::new("/tmp/table-private-south.pdf"));
}
