//! Files saved before sealed records were bound to their place (issue 21)
//! still open, and their sealed records still open for their owners: one
//! saved game of each system, written by the Muster of commit 94d2397 from
//! the example scripts of that commit (`tests/fixtures/before-binding/`).
//! What a player adds to such a game is sealed bound, and the mixed file
//! saves and opens again.

use muster::core::side::Side;
use std::path::Path;

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new("tests/fixtures/before-binding").join(name)
}

/// The ambush and flank march South sealed under "alea iacta est".
#[test]
fn a_field_of_glory_battle_opens_and_its_owner_reads_his_private_page() {
    let mut battle = muster::fog::files::load_battle(&fixture("battle.json")).unwrap();
    battle.unlock(Side::South, "alea iacta est").unwrap();
    let page = muster::fog::export::private_page(&battle, Side::South, "alea iacta est").unwrap();
    let text = page.lines.join("\n");
    assert!(text.contains("Ambush S1"), "{text}");
    assert!(text.contains("Flank march"), "{text}");
    let state = battle.state();
    assert!(
        state.deployment.ambushes.iter().all(|a| !a.sealed.bound),
        "written before the binding"
    );
}

#[test]
fn a_deck_game_opens_and_each_hand_replays() {
    let game = muster::deck::files::load(&fixture("deck.json")).unwrap();
    for side in Side::BOTH {
        let lines = game.private_log(side).unwrap();
        assert!(lines.iter().any(|l| l.contains("draws")), "{lines:?}");
    }
}

#[test]
fn a_hidden_forces_game_opens_its_ledgers_and_goes_on_bound() {
    use muster::map_intel::files::{from_json, to_json};
    use muster::map_intel::{Area, Command, Contents, Hex, Target};
    let mut game = muster::map_intel::files::load(&fixture("forces.json")).unwrap();
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
    let game = muster::map_intel::wings::files::load(&fixture("wings.json")).unwrap();
    let seen = game.ledger(Side::South, "").unwrap();
    assert!(seen.iter().all(|s| s.composition.is_some()), "{seen:?}");
}
