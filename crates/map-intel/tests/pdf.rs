//! The hex maps' printouts as a reader sees them: the PDF parsed back.

use muster_core::pdf::Paper;
use muster_testkit::pdf::{assert_clear, text_of, words};

/// A hidden-forces game: Ann (with a passphrase) and Bob set up, Ann's
/// legions meet Bob's cataphracts (both revealed), her Exercitus 1 stays a
/// face-down bluff, and a second force of hers stays face down.
fn forces_game() -> muster_map_intel::game::Game {
    let script = r#"{"cmd": "new", "south": {"name": "Ann", "passphrase": "ann's quarry heron lantern 7"}, "north": {"name": "Bob"}}
{"cmd": "transfer", "side": "south", "from": 0, "to": {"new_force": "0505"}, "units": ["r-leg-3"]}
{"cmd": "transfer", "side": "south", "from": 0, "to": {"new_force": "1210"}, "units": ["r-leg-10", "r-aux-2"]}
{"cmd": "place_exercitus", "side": "south", "number": 1, "hex": "0707", "units": []}
{"cmd": "transfer", "side": "north", "from": 6, "to": {"new_force": "0606"}, "units": ["p-cat-1"]}
{"cmd": "begin", "first": "south"}
{"cmd": "move", "id": 12, "to": "0606"}
"#;
    let mut game = None;
    let failed = muster_map_intel::script::run(&mut game, script.as_bytes(), std::io::sink());
    assert_eq!(failed.unwrap(), 0);
    game.unwrap()
}

#[test]
fn the_hidden_forces_map_prints_question_marks_and_codes_and_only_the_owner_prints_his_ledger() {
    use muster_map_intel::export::{ledger_pdf, pdf};
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
            text.contains("#12 (1) Ann's (Rome) force 12, in 0606, face up: Legio III Gallica")
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
    let south = muster_core::side::Side::South;
    assert!(ledger_pdf(&game, south, "a guess".into(), Paper::A4).is_err());
    let bytes = ledger_pdf(
        &game,
        south,
        "ann's quarry heron lantern 7".into(),
        Paper::A4,
    )
    .unwrap();
    let doc = lopdf::Document::load_mem(&bytes).unwrap();
    assert_eq!(doc.get_pages().len(), 1);
    assert_clear(&doc, 1, (841.89, 595.28));
    let ledger = words(&text_of(&doc, 1));
    assert!(ledger.contains("Ann's (Rome) private ledger"), "{ledger}");
    assert!(ledger.contains("force 13, in 1210, face down"), "{ledger}");
    assert!(
        ledger.contains("Ala II Thracum, Legio X Fretensis"),
        "{ledger}"
    );
    assert!(
        ledger.contains("Exercitus 1, in 0707, face down"),
        "{ledger}"
    );
    let bytes = ledger_pdf(&game, muster_core::side::Side::North, "".into(), Paper::A4).unwrap();
    let doc = lopdf::Document::load_mem(&bytes).unwrap();
    let all = words(&text_of(&doc, 1));
    assert!(all.contains("Cataphracts of Suren"), "{all}");
    for secret in hidden {
        assert!(!all.contains(secret), "{secret} in Bob's printout");
    }
}

/// The dummy-wings example: Seydlitz's cavalry spots the French wing, the
/// roll, both placed; two Prussian dummies never flipped.
fn wings_game() -> muster_map_intel::wings::game::Game {
    let script =
        std::fs::read_to_string(format!("{}/wings.jsonl", muster_testkit::scripts::EXAMPLES))
            .unwrap();
    let mut game = None;
    let failed =
        muster_map_intel::wings::script::run(&mut game, None, script.as_bytes(), std::io::sink());
    assert_eq!(failed.unwrap(), 2, "the example's two refusals");
    game.unwrap()
}

#[test]
fn the_dummy_wings_map_never_tells_a_dummy_before_it_is_flipped() {
    use muster_map_intel::wings::export::{ledger_pdf, pdf};
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
        // Both Wings the example places are drawn where their leaders are.
        let placed: Vec<_> = game
            .table_view()
            .into_iter()
            .filter(|s| s.deployed.is_some())
            .collect();
        assert_eq!(placed.len(), 2);
        for s in &placed {
            let mark = format!("{}{} placed", s.kind.initial(), s.id);
            assert_eq!(muster_map_intel::wings::export::marker(s), mark);
            assert!(map.contains(&mark), "the map lacks {mark:?}: {map}");
        }
        for s in game.table_view().iter().filter(|s| !s.face_up) {
            assert!(text.contains(&s.code), "code of counter {}", s.id);
        }
        assert!(text.contains("a real Wing, rating 4, in column (IC): Cuirassiers 8"));
        assert!(!text.contains("a dummy"), "an unflipped dummy is named");
    }
    let doc = lopdf::Document::load_mem(
        &ledger_pdf(&game, muster_core::side::Side::South, "".into(), Paper::A4).unwrap(),
    )
    .unwrap();
    assert_clear(&doc, 1, (841.89, 595.28));
    let own = words(&text_of(&doc, 1));
    assert_eq!(own.matches("a dummy").count(), 2, "{own}");
}
