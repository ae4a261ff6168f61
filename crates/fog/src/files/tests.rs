use super::*;
use crate::battle::Command;
use crate::examples;
use muster_core::dice::DiceInput;
use muster_core::side::{Side, Sides};
use proptest::prelude::*;

/// Both players' passphrases and keys, made once (Argon2id is slow on
/// purpose).
fn keys() -> &'static Sides<(muster_core::intel::Lock, muster_core::intel::PlayerKey)> {
    static KEYS: std::sync::OnceLock<
        Sides<(muster_core::intel::Lock, muster_core::intel::PlayerKey)>,
    > = std::sync::OnceLock::new();
    KEYS.get_or_init(|| Sides {
        south: muster_core::intel::Lock::create(SOUTH_PASS, &[]).unwrap(),
        north: muster_core::intel::Lock::create("gravel heron mint ivory crane yew", &[]).unwrap(),
    })
}

const SOUTH_PASS: &str = "walnut osprey bastion cider quarry fern";

/// Both armies entered, each player with his passphrase.
fn armies() -> Battle {
    let r = Ruleset::builtin();
    let mut b = Battle::new(r.clone());
    // Fixed dice, so every run forges the same file; a saved battle never
    // holds the seed.
    b.use_dice(muster_core::dice::AppDice::seeded(5));
    for (side, i) in [(Side::South, 0), (Side::North, 1)] {
        let (lock, key) = &keys()[side];
        b.hold_key(side, key).unwrap();
        b.apply(Command::SetArmy {
            side,
            army: examples::army(i, &r),
            lock: Some(lock.clone()),
        })
        .unwrap();
    }
    b
}

/// Armies with passphrases, and an initiative roll-off: South by the app's
/// dice, North typed.
fn sample() -> Battle {
    let mut b = armies();
    b.apply(Command::RollInitiative {
        side: Side::South,
        dice: DiceInput::app(),
    })
    .unwrap();
    // North types a die that does not tie, so someone has the initiative.
    let south = b.state().initiative.rolls.south.as_ref().unwrap().dice[0];
    b.apply(Command::RollInitiative {
        side: Side::North,
        dice: DiceInput::Typed(vec![if south == 4 { 3 } else { 4 }]),
    })
    .unwrap();
    b
}

/// Opens a saved battle and unlocks it for `side` with his key.
fn reopen_as(text: &str, side: Side) -> Result<Battle, String> {
    let mut b = battle_from_json(text).map_err(|e| e.message)?;
    b.hold_key(side, &keys()[side].1).map_err(|e| e.message)?;
    Ok(b)
}

#[test]
fn save_and_load_reproduce_the_battle() {
    let b = sample();
    let text = battle_to_json(&b);
    let again = battle_from_json(&text).unwrap();
    assert_eq!(again.state(), b.state());
    assert_eq!(again.log(), b.log());
    assert_eq!(again.id(), b.id());
    assert_eq!(again.tags(), b.tags());
    assert_eq!(again.locked_sides(), vec![Side::South, Side::North]);
    assert!(!text.contains("seed"), "no dice seed is stored");
    for side in Side::BOTH {
        reopen_as(&text, side).unwrap();
    }
}

#[test]
fn a_reopened_battle_is_read_only_until_every_player_unlocks() {
    let mut b = battle_from_json(&battle_to_json(&sample())).unwrap();
    let e = b
        .apply(Command::ChooseTerritory {
            side: Side::South,
            territory: "hilly".into(),
        })
        .unwrap_err();
    assert!(e.message.contains("South must unlock"), "{e}");
    assert!(!b.can_undo());
    let e = b
        .unlock(Side::South, "walnut osprey bastion cider quarry fen")
        .unwrap_err();
    assert!(e.message.contains("not the passphrase"), "{e}");
    b.unlock(Side::South, SOUTH_PASS).unwrap();
    b.hold_key(Side::North, &keys().north.1).unwrap();
    assert!(b.locked_sides().is_empty());
    // Each new entry carries both tags, and the file reopens for both.
    let initiative = b.state().initiative.winner.unwrap();
    let territory = b.state().armies[initiative.opponent()]
        .as_ref()
        .unwrap()
        .territories[0]
        .clone();
    b.apply(Command::ChooseTerritory {
        side: initiative,
        territory,
    })
    .unwrap();
    assert!(
        b.tags()
            .iter()
            .all(|t| t.south.is_some() && t.north.is_some())
    );
    let text = battle_to_json(&b);
    reopen_as(&text, Side::South).unwrap();
    reopen_as(&text, Side::North).unwrap();
}

/// Rewrites a saved battle as an opponent would: change the file's
/// contents, then recompute every hash exactly as the file format says, so
/// the file opens.
fn rechain(text: &str, edit: impl FnOnce(&mut BattleFile)) -> String {
    let mut file: BattleFile = serde_json::from_str(text).unwrap();
    edit(&mut file);
    let entries: Vec<Entry> = file.log.iter().map(|c| c.entry.clone()).collect();
    let links = crate::battle::chain(&file.id, &file.ruleset, &entries);
    for (chained, link) in file.log.iter_mut().zip(links) {
        chained.hash = to_hex(&link);
    }
    serde_json::to_string_pretty(&file).unwrap()
}

#[test]
fn a_rechained_edit_of_a_past_die_is_named_when_the_victim_unlocks() {
    let b = sample();
    let text = battle_to_json(&b);
    // North rewrites his typed initiative die (entry 4) to another face,
    // with the events Muster's own rules give for it, and re-chains.
    let before = Battle::replay(b.ruleset().clone(), b.id().to_string(), &b.log()[..3]).unwrap();
    let typed = match &b.log()[3].command {
        Command::RollInitiative {
            dice: DiceInput::Typed(d),
            ..
        } => d[0],
        other => panic!("{other:?}"),
    };
    let forged_command = Command::RollInitiative {
        side: Side::North,
        dice: DiceInput::Typed(vec![if typed == 6 { 1 } else { 6 }]),
    };
    let forged_events = before.check(&forged_command).unwrap();
    let forged = rechain(&text, |f| {
        f.log[3].entry = Entry {
            command: forged_command,
            events: forged_events,
        };
    });
    let mut opened = battle_from_json(&forged).expect("a re-chained legal edit opens");
    // North's own tags he can forge; South's he cannot.
    let e = opened.hold_key(Side::South, &keys().south.1).unwrap_err();
    assert!(
        e.message
            .starts_with("Log entry 4 (North rolls for initiative"),
        "{e}"
    );
    assert!(e.message.contains("without South's passphrase"), "{e}");
    // The app die of entry 3, made a 6, is named as entry 3.
    let forged = rechain(&text, |f| {
        if let crate::battle::Event::InitiativeRolled { roll, .. } = &mut f.log[2].entry.events[0] {
            roll.total += 6 - i32::from(roll.dice[0]);
            roll.dice[0] = 6;
        }
    });
    match battle_from_json(&forged) {
        Ok(mut opened) => {
            let e = opened.hold_key(Side::North, &keys().north.1).unwrap_err();
            assert!(e.message.starts_with("Log entry 3 ("), "{e}");
        }
        // Where the die was a 6 already, or the outcome no longer follows.
        Err(e) => assert!(e.message.contains("log entry"), "{e}"),
    }
}

/// Issue 21: `export-pdf --private-for` printed a victim's private page
/// from a re-chained file, unlocking his lock but never checking his tags.
#[test]
fn a_private_page_is_refused_from_a_file_changed_behind_its_owners_back() {
    let b = sample();
    let text = battle_to_json(&b);
    // North's typed die (entry 4) made another face, the events his rules
    // give for it, and the file re-chained: it opens.
    let before = Battle::replay(b.ruleset().clone(), b.id().to_string(), &b.log()[..3]).unwrap();
    let command = Command::RollInitiative {
        side: Side::North,
        dice: DiceInput::Typed(vec![1]),
    };
    let events = before.check(&command).unwrap();
    let forged = rechain(&text, |f| f.log[3].entry = Entry { command, events });
    let opened = battle_from_json(&forged).expect("a re-chained legal edit opens");
    let e = crate::export::private_page(&opened, Side::South, SOUTH_PASS).unwrap_err();
    assert!(e.message.starts_with("Log entry 4 (North rolls"), "{e}");
    assert!(e.message.contains("without South's passphrase"), "{e}");
    // The file as saved prints his page.
    let good = battle_from_json(&text).unwrap();
    assert!(crate::export::private_page(&good, Side::South, SOUTH_PASS).is_ok());
}

#[test]
fn a_rechained_ruleset_edit_is_named_as_the_header() {
    let text = battle_to_json(&sample());
    let forged = rechain(&text, |f| f.ruleset.flank_march.arrives_on = 2);
    let mut b = battle_from_json(&forged).expect("the forged file opens");
    assert_eq!(b.ruleset().flank_march.arrives_on, 2);
    let e = b.hold_key(Side::North, &keys().north.1).unwrap_err();
    assert!(
        e.message
            .starts_with("The battle's header (its id and ruleset)"),
        "{e}"
    );
    // Showing the fingerprint lets the players see it differs too.
    assert_ne!(b.ruleset().fingerprint(), Ruleset::builtin().fingerprint());
}

#[test]
fn stripped_or_appended_tags_are_named() {
    let b = sample();
    let text = battle_to_json(&b);
    let stripped = rechain(&text, |f| f.log[1].tags.south = None);
    let e = reopen_as(&stripped, Side::South).unwrap_err();
    assert!(
        e.starts_with("Log entry 2 (") && e.contains("carries no tag of South's"),
        "{e}"
    );
    // North appends an entry under his own key: South's tag is missing.
    let mut appended = battle_from_json(&text).unwrap();
    appended.hold_key(Side::North, &keys().north.1).unwrap();
    assert!(
        appended
            .apply(Command::ChooseTerritory {
                side: Side::North,
                territory: "hilly".into()
            })
            .is_err(),
        "read-only while South is locked"
    );
}

#[test]
fn unknown_schema_is_refused() {
    let text = battle_to_json(&sample()).replacen("\"schema\": 3", "\"schema\": 4", 1);
    let e = battle_from_json(&text).unwrap_err();
    assert!(
        e.message
            .starts_with("from a newer Muster: its schema is 4, this Muster reads up to schema 3"),
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
    let half = &text[..text.len() / 2];
    let e = battle_from_json(half).unwrap_err();
    assert!(
        e.message
            .starts_with(&format!("cut short: its text stops at byte {}", half.len())),
        "{e}"
    );
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
    // A schema 1 file had no id: it gets a new one, and all else is the same.
    let without_id = |s: &crate::battle::State| crate::battle::State {
        game: String::new(),
        ..s.clone()
    };
    assert_eq!(without_id(again.state()), without_id(b.state()));
}

#[test]
fn an_edited_entry_is_named_by_its_hash() {
    let text = battle_to_json(&sample());
    // A change the rules would accept: North's typed die made a 5.
    let die = "\"side\": \"north\",\n          \"dice\": [\n            ";
    let at = text.find(die).unwrap() + die.len();
    let bad = format!("{}5{}", &text[..at], &text[at + 1..]);
    let e = battle_from_json(&bad).unwrap_err();
    assert!(e.message.contains("does not match its hash"), "{e}");
    let spaced = text.replacen("\"schema\": 3", "\"schema\":  3", 1);
    let e = battle_from_json(&spaced).unwrap_err();
    assert!(e.message.contains("is not as Muster wrote it"), "{e}");
}

#[test]
fn every_single_byte_change_is_refused_at_open_or_at_unlock() {
    let text = battle_to_json(&sample());
    let bytes = text.as_bytes();
    for i in 0..bytes.len() {
        let mut changed = bytes.to_vec();
        // Flip the lowest bit: a different character (or invalid UTF-8).
        changed[i] ^= 1;
        let Ok(changed) = std::str::from_utf8(&changed) else {
            continue;
        };
        // A changed tag hurts only its owner, who finds it; anything else
        // is refused at open or by both players' unlocks.
        assert!(
            Side::BOTH.iter().any(|s| reopen_as(changed, *s).is_err()),
            "byte {i} ({:?}) changed and both players still unlocked the file",
            char::from(bytes[i])
        );
    }
}

#[test]
fn a_saved_battle_tells_nothing_of_the_next_app_die() {
    // The same file opened twice rolls unrelated dice: nothing in it (no
    // seed, no stream position) fixes what comes next.
    let text = battle_to_json(&armies());
    assert!(!text.contains("seed") && !text.contains("\"first\""));
    let next = |_: u8| {
        (0..20)
            .map(|_| {
                let mut b = battle_from_json(&text).unwrap();
                for side in Side::BOTH {
                    b.hold_key(side, &keys()[side].1).unwrap();
                }
                let events = b
                    .apply(Command::RollInitiative {
                        side: Side::South,
                        dice: DiceInput::app(),
                    })
                    .unwrap();
                format!("{:?}", events[0])
            })
            .collect::<Vec<_>>()
    };
    assert_ne!(next(0), next(1));
}

#[test]
fn sealed_records_of_a_kind_are_one_size_whatever_they_hold() {
    use crate::battle::{
        AMBUSH_RECORD_BYTES, AmbushContent, FLANK_MARCH_RECORD_BYTES, Flank, FlankMarchPlan,
    };
    use muster_core::intel::{SealKey, Sealed};
    let key = SealKey::unprotected();
    let size = |s: Sealed| s.ciphertext.len();
    // The place goes in as associated data: it does not change the size.
    let at = |owner| muster_core::intel::Place {
        game: "g",
        owner,
        kind: "record",
        slot: String::new(),
    };
    let ambush = |c: &AmbushContent| {
        size(Sealed::seal(&at(Side::South), c, &key, AMBUSH_RECORD_BYTES).unwrap())
    };
    let dummy = ambush(&AmbushContent::Dummy);
    for bg in [0, 9, 63] {
        assert_eq!(
            ambush(&AmbushContent::Bg { bg }),
            dummy,
            "a real ambush looks like a dummy"
        );
    }
    let march = |bgs: Vec<usize>, flank| {
        let plan = FlankMarchPlan {
            bgs,
            commander: 0,
            flank,
        };
        size(Sealed::seal(&at(Side::North), &plan, &key, FLANK_MARCH_RECORD_BYTES).unwrap())
    };
    let one_left = march(vec![3], Flank::Left);
    assert_eq!(march(vec![3], Flank::Right), one_left);
    assert_eq!(march((0..12).collect(), Flank::Right), one_left);
    assert_eq!(
        march((0..crate::army::MAX_BGS).collect(), Flank::Left),
        one_left
    );
}

#[test]
fn a_passphrase_undone_and_set_again_leaves_no_tag_of_the_old_one() {
    let r = Ruleset::builtin();
    let mut b = Battle::new(r.clone());
    let set = |b: &mut Battle, side: Side| {
        let (lock, key) = &keys()[side];
        b.hold_key(side, key).unwrap();
        b.apply(Command::SetArmy {
            side,
            army: examples::army(0, &r),
            lock: Some(lock.clone()),
        })
        .unwrap();
    };
    set(&mut b, Side::South);
    b.undo().unwrap();
    assert!(b.tags().iter().all(|t| t.south.is_none()));
    // South sets his passphrase again (North's key stands in for a new one).
    let (lock, key) = &keys().north;
    b.hold_key(Side::South, key).unwrap();
    b.apply(Command::SetArmy {
        side: Side::South,
        army: examples::army(0, &r),
        lock: Some(lock.clone()),
    })
    .unwrap();
    let mut again = battle_from_json(&battle_to_json(&b)).unwrap();
    again.hold_key(Side::South, key).unwrap();
}
