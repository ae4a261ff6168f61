//! Issue 49, item 3, as players meet it on the shared laptop: a private
//! screen the table opened closes by itself once the play moves on to a
//! part that is not its owner's (his turn ends, the phase he plays laurels
//! in ends), and the status line says why; it never stays open into the
//! other player's turn.

use super::MusterApp;
use super::status::Status;
use super::tests::{click, deck_game, label_of, new_small_deck_game, shows_none, take_laptop};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster::core::side::Side;

type H = Harness<'static, MusterApp>;

/// The titles of the cards in either hand that the table has not seen.
fn sealed_titles(h: &H) -> Vec<String> {
    let game = deck_game(h);
    Side::BOTH
        .into_iter()
        .flat_map(|side| game.zones(side).unwrap().hand.clone())
        .filter(|id| !game.public().shown.iter().any(|s| s.card == *id))
        .filter_map(|id| game.set().card(&id).map(|c| c.title.clone()))
        .collect()
}

fn says(h: &H, words: &str) {
    assert!(
        matches!(&h.state().status, Some(Status::Info(said)) if said == words),
        "{:?}",
        h.state().status
    );
}

/// The turn: Decius skips his phases, removes a card for fatigue
/// and ends his turn, all from his open hand. Turn 2 is Artagur's, and
/// Decius's cards are gone from the laptop with it.
#[test]
fn deciuss_hand_closes_when_his_turn_passes_to_artagur() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = new_small_deck_game(dir.path());
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    click(&mut h, "Show Decius's cards");
    take_laptop(&mut h, "Decius", "my cards");
    for step in [
        "End the event phase, skip the rally phase",
        "Skip the shooting phase",
        "Skip the movement phase",
        "Skip the combat phase",
    ] {
        click(&mut h, step);
        // Every phase of his turn is his: his hand stays open.
        h.get_by_label("Hide my cards");
    }
    let fatigue = label_of(&h, "Remove ", "(fatigue)");
    click(&mut h, &fatigue);
    h.get_by_label("Hide my cards");
    click(&mut h, "End turn 1");
    let turn = deck_game(&h).public().turn.clone().unwrap();
    assert_eq!((turn.number, turn.active), (2, Side::North));
    assert!(
        h.query_by_label("Hide my cards").is_none(),
        "his hand stayed open into Artagur's turn"
    );
    shows_none(&h, &sealed_titles(&h));
    says(
        &h,
        "Decius's screen closed by itself: the play moved on to Artagur's turn 2, the event phase",
    );
    // Artagur's turn is played from the table, with nothing of Decius's.
    h.get_by_label("End the event phase, play the rally phase");
}

/// Artagur, passive, keeps his hand open to play laurels in Decius's
/// shooting phase; Decius, on his phone, ends it: shooting was Artagur's
/// part, the next phase is not, and his hand closes on the laptop.
#[test]
fn artagurs_hand_closes_when_the_phase_he_plays_in_ends() {
    use crate::app::phone_kit::{phones, until};
    let dir = tempfile::tempdir().unwrap();
    let mut h = new_small_deck_game(dir.path());
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    let mut decius = phones(&mut h, &[Side::South]).remove(0);
    decius.tap("End the event phase, skip the rally phase");
    until(&mut h, |h| {
        h.query_by_label("Skip the shooting phase").is_some()
    });
    click(&mut h, "Play the shooting phase");
    take_laptop(&mut h, "Artagur", "my cards");
    click(&mut h, "No interrupt");
    // Shooting lets him play laurels: his hand stays open.
    h.get_by_label("Hide my cards");
    decius.tap("End the shooting phase, skip the movement phase");
    until(&mut h, |h| h.query_by_label("Hide my cards").is_none());
    shows_none(&h, &sealed_titles(&h));
    says(
        &h,
        "Artagur's screen closed by itself: the play moved on to Decius's turn 1, the combat phase",
    );
}

/// Hidden forces: Ann ends her turn at the table with her ledger open
/// beside it; Bob's turn begins with it closed.
#[test]
fn anns_ledger_closes_when_her_turn_ends() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = crate::app::map_intel::tests::new_game(dir.path(), ["", ""]);
    click(&mut h, "Begin: Ann (Rome) first");
    click(&mut h, "Show Ann's (Rome) ledger");
    take_laptop(&mut h, "Ann (Rome)", "my ledger");
    h.get_by_label("Hide my ledger");
    click(&mut h, "End Ann's (Rome) turn");
    assert!(
        h.query_by_label("Hide my ledger").is_none(),
        "her ledger stayed open into Bob's turn"
    );
    says(
        &h,
        "Ann's (Rome) screen closed by itself: the play moved on to Bob's (Parthia) turn 2",
    );
}
