//! Files saved before sealed records were bound to their place (issue 21)
//! still open, and their sealed records still open for their owners: one
//! saved game of each system, written by the Muster of commit 94d2397 from
//! the example scripts of that commit (`tests/fixtures/before-binding/`).
//! What a player adds to such a game is sealed bound, and the mixed file
//! saves and opens again.

use muster_core::side::Side;

fn fixture(name: &str) -> std::path::PathBuf {
    muster_testkit::fixture(env!("CARGO_MANIFEST_DIR"), name)
}

#[test]
fn a_hidden_forces_game_opens_its_ledgers_and_goes_on_bound() {
    use muster_map_intel::files::{from_json, to_json};
    use muster_map_intel::{Area, Command, Contents, Hex, Target};
    let mut game = muster_map_intel::files::load(&fixture("forces.json")).unwrap();
    for side in Side::BOTH {
        let ledger = game.ledger(side, "").unwrap();
        assert!(
            ledger.holders.iter().any(|h| h.units.is_some()),
            "{side} reads his own holders"
        );
    }
    // The active player splits a unit off his off-map area into a new force:
    // a bound record in an old file.
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
        units: vec![unit],
    })
    .unwrap();
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
