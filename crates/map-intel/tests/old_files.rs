//! Files saved by earlier Musters still open, and their sealed records
//! still open for their owners:
//! - saved before sealed records were bound to their place (issue 21): one
//!   game of each system written by the Muster of commit 94d2397 from the
//!   example scripts of that commit (`tests/fixtures/before-binding/`);
//!   what a player adds to such a game is sealed bound;
//! - saved while ciphertexts were written as hex: the same, written by the
//!   Muster of commit 5995689 (`tests/fixtures/hex-era/`), which open and
//!   write back byte for byte as they were; what a player seals in such a
//!   game is written as base64, the old records staying as they were.
//!
//! The mixed files save and open again.

use muster_core::side::Side;
use muster_map_intel::{Area, Command, Contents, Game, Hex, Target};

fn fixture(name: &str) -> std::path::PathBuf {
    muster_testkit::fixture(env!("CARGO_MANIFEST_DIR"), name)
}

fn hex_era(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hex-era")
        .join(name);
    std::fs::read_to_string(path).expect("the fixture is in the repository")
}

/// Each player reads his own holders; then the active player splits a
/// unit off his off-map area into a new force (a record sealed now, in a
/// file from before). Returns the player, the unit and its old holder.
fn both_read_and_one_splits_off_a_unit(game: &mut Game) -> (Side, String, usize) {
    for side in Side::BOTH {
        let ledger = game.ledger(side, "").unwrap();
        assert!(
            ledger.holders.iter().any(|h| h.units.is_some()),
            "{side} reads his own holders"
        );
    }
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
    (side, unit, area)
}

#[test]
fn a_hidden_forces_game_opens_its_ledgers_and_goes_on_bound() {
    use muster_map_intel::files::{from_json, to_json};
    let mut game = muster_map_intel::files::load(&fixture("forces.json")).unwrap();
    both_read_and_one_splits_off_a_unit(&mut game);
    let new = game.public().holders.last().unwrap();
    assert!(matches!(&new.contents, Contents::Sealed(s) if s.bound));
    let again = from_json(&to_json(&game)).unwrap();
    assert_eq!(again.public(), game.public());
}

#[test]
fn a_dummy_wings_game_opens_and_its_owner_reads_his_counters() {
    let game = muster_map_intel::wings::files::load(&fixture("wings.json")).unwrap();
    let seen = game.ledger(Side::South, "").unwrap();
    assert!(seen.iter().all(|s| s.composition.is_some()), "{seen:?}");
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
    let text = hex_era("forces.json");
    let old = ciphertexts(&text);
    assert!(!old.is_empty() && old.iter().all(|(c, b64)| !b64 && c.len() % 2 == 0));
    let mut game = from_json(&text).unwrap();
    assert_eq!(to_json(&game), text, "written back as it was");
    let (side, unit, area) = both_read_and_one_splits_off_a_unit(&mut game);
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
fn a_dummy_wings_game_from_the_hex_era_opens_and_its_owners_read_their_counters() {
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
