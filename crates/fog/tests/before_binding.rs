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

/// The ambush and flank march South sealed under "alea iacta est".
#[test]
fn a_field_of_glory_battle_opens_and_its_owner_reads_his_private_page() {
    let mut battle = muster_fog::files::load_battle(&fixture("battle.json")).unwrap();
    battle.unlock(Side::South, "alea iacta est").unwrap();
    let page = muster_fog::export::private_page(&battle, Side::South, "alea iacta est").unwrap();
    let text = page.lines.join("\n");
    assert!(text.contains("Ambush S1"), "{text}");
    assert!(text.contains("Flank march"), "{text}");
    let state = battle.state();
    assert!(
        state.deployment.ambushes.iter().all(|a| !a.sealed.bound),
        "written before the binding"
    );
}
