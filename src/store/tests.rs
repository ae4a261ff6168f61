use super::*;
use crate::battle::Command;
use crate::dice::DiceInput;
use crate::examples;
use crate::side::Side;
use proptest::prelude::*;

fn sample() -> Battle {
    let r = Ruleset::builtin();
    let mut b = Battle::new(r.clone(), 99);
    for (side, i) in [(Side::South, 0), (Side::North, 1)] {
        b.apply(Command::SetArmy {
            side,
            army: examples::army(i, &r),
        })
        .unwrap();
    }
    b.apply(Command::RollInitiative {
        side: Side::South,
        dice: DiceInput::app(),
    })
    .unwrap();
    b.apply(Command::RollInitiative {
        side: Side::North,
        dice: DiceInput::Typed(vec![4]),
    })
    .unwrap();
    b
}

#[test]
fn save_and_load_reproduce_the_battle() {
    let b = sample();
    let again = battle_from_json(&battle_to_json(&b)).unwrap();
    assert_eq!(again.state(), b.state());
    assert_eq!(again.log(), b.log());
    assert_eq!(again.seed(), 99);
}

#[test]
fn unknown_schema_is_refused() {
    let text = battle_to_json(&sample()).replacen("\"schema\": 2", "\"schema\": 3", 1);
    let e = battle_from_json(&text).unwrap_err();
    assert!(
        e.message
            .contains("schema version 3 (from a newer version of Muster)"),
        "{e}"
    );
    let roster = roster_to_json(&examples::army(0, &Ruleset::builtin()));
    let e = battle_from_json(&roster).unwrap_err();
    assert!(
        e.message
            .contains("\"muster-roster\" file, not a \"muster-battle\""),
        "{e}"
    );
}

#[test]
fn malformed_and_truncated_files_name_field_and_line() {
    let text = battle_to_json(&sample());
    let e = battle_from_json(&text[..text.len() / 2]).unwrap_err();
    assert!(e.message.contains("EOF"), "{e}");
    let bad = text.replacen("\"side\": \"south\"", "\"side\": \"east\"", 1);
    let e = battle_from_json(&bad).unwrap_err();
    assert!(
        e.message
            .starts_with("log[0].entry.command: unknown variant `east`"),
        "{e}"
    );
    assert!(e.message.contains(", line "), "{e}");
}

#[test]
fn a_failed_save_keeps_the_good_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("battle.json");
    let b = sample();
    save_battle(&path, &b).unwrap();
    let good = std::fs::read(&path).unwrap();
    let e = write_atomic(&path, b"{ broken", |w| {
        battle_from_json(std::str::from_utf8(w).unwrap()).map(|_| ())
    })
    .unwrap_err();
    assert!(e.message.starts_with("not saved"), "{e}");
    assert_eq!(std::fs::read(&path).unwrap(), good);
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temp file left"
    );
    assert_eq!(load_battle(&path).unwrap().state(), b.state());
}

#[test]
fn rosters_round_trip_and_check_ids() {
    let r = Ruleset::builtin();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("romans.json");
    let army = examples::army(0, &r);
    save_roster(&path, &army, &r).unwrap();
    assert_eq!(load_roster(&path, &r).unwrap(), army);
    let text = roster_to_json(&army).replacen("heavy_foot", "tanks", 1);
    let e = roster_from_json(&text, &r).unwrap_err();
    assert_eq!(
        e.message,
        "army.bgs[0].troop_type: unknown troop type \"tanks\""
    );
}

#[test]
fn missing_file_says_so() {
    let e = load_battle(Path::new("/nonexistent/battle.json")).unwrap_err();
    assert!(
        e.to_string().starts_with("/nonexistent/battle.json: "),
        "{e}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_bytes_never_panic_the_loader(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        prop_assert!(battle_from_json(&text).is_err());
    }

    #[test]
    fn mutated_saves_never_panic_the_loader(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4)
    ) {
        let mut bytes = battle_to_json(&sample()).into_bytes();
        for (at, byte) in edits {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        let text = String::from_utf8_lossy(&bytes);
        // Some edits (whitespace) leave the battle intact; none may panic.
        let _ = battle_from_json(&text);
    }
}

#[test]
fn a_schema_1_file_without_hashes_still_opens() {
    let b = sample();
    let mut v: serde_json::Value = serde_json::from_str(&battle_to_json(&b)).unwrap();
    v["schema"] = 1.into();
    let log: Vec<serde_json::Value> = v["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["entry"].clone())
        .collect();
    v["log"] = log.into();
    let again = battle_from_json(&serde_json::to_string_pretty(&v).unwrap()).unwrap();
    assert_eq!(again.state(), b.state());
}

#[test]
fn an_edited_entry_is_named_by_its_hash() {
    let text = battle_to_json(&sample());
    // A change the rules would accept: North's typed die, 4, made a 5.
    let die = "\"side\": \"north\",\n          \"dice\": [\n            4";
    assert!(text.contains(die));
    let bad = text.replacen(die, &die.replace('4', "5"), 1);
    let e = battle_from_json(&bad).unwrap_err();
    assert!(e.message.contains("does not match its hash"), "{e}");
    let spaced = text.replacen("\"seed\": 99", "\"seed\":  99", 1);
    let e = battle_from_json(&spaced).unwrap_err();
    assert!(e.message.contains("is not as Muster wrote it"), "{e}");
}

#[test]
fn every_single_byte_change_to_a_saved_battle_is_refused() {
    let text = battle_to_json(&sample());
    let bytes = text.as_bytes();
    for i in 0..bytes.len() {
        let mut changed = bytes.to_vec();
        // Flip the lowest bit: a different character (or invalid UTF-8).
        changed[i] ^= 1;
        let opened = std::str::from_utf8(&changed).ok().map(battle_from_json);
        assert!(
            !matches!(opened, Some(Ok(_))),
            "byte {i} ({:?}) changed and the file still opened",
            char::from(bytes[i])
        );
    }
}
