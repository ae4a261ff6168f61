//! Files saved while sealed records' ciphertexts were written as hex still
//! open, byte for byte as they were written, and their records still open
//! for their owners: a game of each system played from the example scripts
//! by the Muster of commit 5995689 (`tests/fixtures/hex-era/`). What a
//! player seals in such a game is written as base64, and the mixed file
//! saves and opens again with its old records as they were.

use muster_core::side::Side;

fn hex_era(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hex-era")
        .join(name);
    std::fs::read_to_string(path).expect("the fixture is in the repository")
}

/// The ciphertexts of a file's text, in order, with whether each is flagged
/// base64 (a record's flag comes after its ciphertext, within its braces).
fn ciphertexts(text: &str) -> Vec<(String, bool)> {
    text.split("\"ciphertext\": \"")
        .skip(1)
        .map(|rest| {
            let (cipher, after) = rest.split_once('"').unwrap();
            let record = &after[..after.find('}').unwrap()];
            (cipher.to_string(), record.contains("\"base64\": true"))
        })
        .collect()
}

#[test]
fn a_hidden_forces_game_from_the_hex_era_opens_and_goes_on_in_base64() {
    use muster_map_intel::files::{from_json, to_json};
    use muster_map_intel::{Area, Command, Hex, Target};
    let text = hex_era("forces.json");
    let old = ciphertexts(&text);
    assert!(!old.is_empty() && old.iter().all(|(c, b64)| !b64 && c.len() % 2 == 0));
    let mut game = from_json(&text).unwrap();
    assert_eq!(to_json(&game), text, "written back as it was");
    for side in Side::BOTH {
        let ledger = game.ledger(side, "").unwrap();
        assert!(
            ledger.holders.iter().any(|h| h.units.is_some()),
            "{side} reads his own holders"
        );
    }
    // The active player splits a unit off his off-map area into a new
    // force: a record sealed now, in a file from before.
    let side = game.public().active.unwrap();
    let ledger = game.ledger(side, "").unwrap();
    let area = game.public().area(side, Area::OffMap).unwrap().id;
    let unit = ledger
        .holders
        .iter()
        .find(|h| h.id == area)
        .and_then(|h| h.units.as_ref()?.first().cloned())
        .expect("units wait off the map");
    game.apply(Command::Transfer {
        side,
        from: area,
        to: Target::NewForce(Hex::parse("0101").unwrap()),
        units: vec![unit.clone()],
    })
    .unwrap();
    let mixed = to_json(&game);
    let now = ciphertexts(&mixed);
    assert_eq!(now[..old.len()], old[..], "the old records as they were");
    assert!(now[old.len()..].iter().all(|(_, b64)| *b64), "{now:?}");
    let again = from_json(&mixed).unwrap();
    assert_eq!(again.public(), game.public());
    let moved = again.ledger(side, "").unwrap();
    assert!(
        moved
            .holders
            .iter()
            .any(|h| h.id != area && h.units.as_ref().is_some_and(|u| u.contains(&unit))),
        "the unit is read in its new force: {moved:?}"
    );
}

#[test]
fn a_dummy_wings_game_from_the_hex_era_opens_and_its_owner_reads_his_counters() {
    use muster_map_intel::wings::files::{from_json, to_json};
    let text = hex_era("wings.json");
    assert!(ciphertexts(&text).iter().all(|(_, b64)| !b64));
    let game = from_json(&text).unwrap();
    assert_eq!(to_json(&game), text, "written back as it was");
    for side in Side::BOTH {
        let seen = game.ledger(side, "").unwrap();
        let own: Vec<_> = seen.iter().filter(|s| s.side == side).collect();
        assert!(!own.is_empty(), "{side} has counters");
        assert!(own.iter().all(|s| s.composition.is_some()), "{own:?}");
    }
}
