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
fn a_deck_game_opens_and_each_hand_replays() {
    let game = muster_deck::files::load(&fixture("deck.json")).unwrap();
    for side in Side::BOTH {
        let lines = game.private_log(side).unwrap();
        assert!(lines.iter().any(|l| l.contains("draws")), "{lines:?}");
    }
}
