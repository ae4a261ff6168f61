//! Issue 39, as the opponent holding the shared laptop tries it: a
//! player's private screen opens only with its owner's proof, every time,
//! in every system. His hand-over screen has no button that opens it: his
//! passphrase, or the hand-over PIN he chose beside it this sitting, is
//! asked on it, and three wrong PINs fall back to the passphrase.

use super::MusterApp;
use super::tests::{click, deck_started_by_north, every_text, press_and_wait, type_into};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster::core::text::possessive;

type H = Harness<'static, MusterApp>;

const DECIUS: &str = "lantern quarry thistle ember falcon";
const ARTAGUR: &str = "harbour nettle saffron copper willow";
const PIN: &str = "4719";

/// Nothing of a private screen shows: no button of one, nor one that
/// would open it without a proof ("I am …"), nothing of `words`.
fn sees_nothing_of(h: &H, words: &[&str]) {
    assert!(
        h.query_by_label_contains("Hide my").is_none(),
        "a private screen is open: {:?}",
        every_text(h)
    );
    assert!(
        h.query_by_label_contains("I am ").is_none(),
        "a button takes the laptop without a proof: {:?}",
        every_text(h)
    );
    let shown = every_text(h).join("\n");
    for word in words {
        assert!(!shown.contains(word), "{word:?} shows:\n{shown}");
    }
}

/// `name` types his passphrase on the laptop, and a PIN beside it.
pub(crate) fn open_with_pin(h: &mut H, name: &str, passphrase: &str, pin: &str) {
    type_into(h, &format!("{} passphrase", possessive(name)), passphrase);
    if !pin.is_empty() {
        type_into(
            h,
            &format!(
                "{} hand-over PIN for this sitting (optional)",
                possessive(name)
            ),
            pin,
        );
    }
    press_and_wait(h, "Open my secrets");
}

/// `name` types his hand-over PIN.
pub(crate) fn give_pin(h: &mut H, name: &str, pin: &str) {
    type_into(h, &format!("{} hand-over PIN", possessive(name)), pin);
    click(h, "Open with my PIN");
}

/// The deck's hand: *Show Artagur's cards*, and nothing of his opens
/// until he proves it on his hand-over screen; then his PIN, and three
/// wrong ones drop it.
#[test]
fn artagurs_hand_opens_only_with_his_proof_every_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = deck_started_by_north(dir.path(), [DECIUS, ARTAGUR]);
    // Decius, holding the laptop, asks for Artagur's cards.
    click(&mut h, "Show Artagur's cards");
    h.get_by_label_contains("Artagur's passphrase opens it");
    sees_nothing_of(&h, &["Sudden Halt", "Artagur's hand:"]);
    // A guess opens nothing, and says so on that screen only.
    open_with_pin(&mut h, "Artagur", DECIUS, "");
    h.get_by_label_contains("not the passphrase this player set");
    sees_nothing_of(&h, &["Sudden Halt"]);
    // Artagur himself, with a PIN for the sitting.
    open_with_pin(&mut h, "Artagur", ARTAGUR, PIN);
    h.get_by_label("Hide my cards");
    click(&mut h, "Hide my cards");
    // Again: his PIN is asked, not nothing.
    click(&mut h, "Show Artagur's cards");
    h.get_by_label_contains("Artagur's hand-over PIN opens it");
    h.get_by_label("Lock Artagur's screens: drop the PIN, ask the passphrase");
    sees_nothing_of(&h, &["Sudden Halt"]);
    for (guess, said) in [
        ("0000", "Wrong PIN: 2 tries left"),
        ("4710", "Wrong PIN: 1 try left"),
    ] {
        give_pin(&mut h, "Artagur", guess);
        h.get_by_label_contains(said);
        sees_nothing_of(&h, &["Sudden Halt"]);
    }
    give_pin(&mut h, "Artagur", "7194");
    h.get_by_label_contains("3 wrong PINs: the PIN is dropped. Type your passphrase");
    // The right PIN now is no use: it is gone.
    assert!(h.query_by_label("Artagur's hand-over PIN").is_none());
    sees_nothing_of(&h, &["Sudden Halt"]);
    open_with_pin(&mut h, "Artagur", ARTAGUR, "");
    h.get_by_label("Hide my cards");
}

/// Issue 49, item 5: an empty proof is no try, a wrong one is. A click
/// on *Open my secrets* with nothing typed works out no key and says what
/// to do; a click on *Open with my PIN* with nothing typed (or only
/// spaces) spends none of his three tries, and the wrong PIN that follows
/// still leaves two.
#[test]
fn an_empty_proof_spends_no_try_and_a_wrong_one_does() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = deck_started_by_north(dir.path(), ["", ARTAGUR]);
    click(&mut h, "Show Artagur's cards");
    click(&mut h, "Open my secrets");
    h.get_by_label_contains("Type your passphrase first");
    assert!(
        h.query_by_label_contains("Working out the key").is_none(),
        "a key is worked out from nothing"
    );
    sees_nothing_of(&h, &["Sudden Halt"]);
    open_with_pin(&mut h, "Artagur", ARTAGUR, PIN);
    click(&mut h, "Hide my cards");
    click(&mut h, "Show Artagur's cards");
    for nothing in ["", "   "] {
        give_pin(&mut h, "Artagur", nothing);
        h.get_by_label_contains("Type your PIN first");
        sees_nothing_of(&h, &["Sudden Halt"]);
    }
    give_pin(&mut h, "Artagur", "0000");
    h.get_by_label_contains("Wrong PIN: 2 tries left");
    give_pin(&mut h, "Artagur", "");
    h.get_by_label_contains("Type your PIN first");
    give_pin(&mut h, "Artagur", "4710");
    h.get_by_label_contains("Wrong PIN: 1 try left");
    give_pin(&mut h, "Artagur", PIN);
    h.get_by_label("Hide my cards");
}

/// The hand-over screen puts the typing into his proof's field at once,
/// and again after a wrong PIN: he types without first clicking a field.
#[test]
fn his_proof_is_typed_without_a_click_on_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = deck_started_by_north(dir.path(), ["", ARTAGUR]);
    let blind = |h: &mut H, text: &str| {
        h.run();
        h.input_mut().events.push(egui::Event::Text(text.into()));
        h.run();
        h.key_press(egui::Key::Enter);
        h.run();
    };
    click(&mut h, "Show Artagur's cards");
    h.get_by_label("Artagur's passphrase");
    blind(&mut h, ARTAGUR);
    super::tests::worked(&mut h);
    h.get_by_label("Hide my cards");
    click(&mut h, "Hide my cards");
    click(&mut h, "Show Artagur's cards");
    // With a PIN chosen: the PIN field takes the typing, a wrong PIN is
    // refused, and the right one typed at once after it opens.
    open_with_pin(&mut h, "Artagur", ARTAGUR, PIN);
    click(&mut h, "Hide my cards");
    click(&mut h, "Show Artagur's cards");
    blind(&mut h, "0000");
    h.get_by_label_contains("Wrong PIN: 2 tries left");
    blind(&mut h, PIN);
    h.get_by_label("Hide my cards");
}

/// He locks his screens (he leaves the table a while): his PIN is dropped.
#[test]
fn a_locked_pin_opens_nothing_and_the_passphrase_is_asked() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = deck_started_by_north(dir.path(), ["", ARTAGUR]);
    click(&mut h, "Show Artagur's cards");
    open_with_pin(&mut h, "Artagur", ARTAGUR, PIN);
    click(&mut h, "Hide my cards");
    click(&mut h, "Show Artagur's cards");
    click(
        &mut h,
        "Lock Artagur's screens: drop the PIN, ask the passphrase",
    );
    h.get_by_label_contains("Artagur's passphrase opens it");
    assert!(h.query_by_label("Artagur's hand-over PIN").is_none());
    h.get_by_label("Artagur's passphrase");
    sees_nothing_of(&h, &["Sudden Halt"]);
}

/// A PIN an onlooker guesses first is refused before the key is worked
/// out, and nothing opens.
#[test]
fn a_pin_anyone_would_guess_is_refused_with_why() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = deck_started_by_north(dir.path(), ["", ARTAGUR]);
    click(&mut h, "Show Artagur's cards");
    type_into(&mut h, "Artagur's passphrase", ARTAGUR);
    type_into(
        &mut h,
        "Artagur's hand-over PIN for this sitting (optional)",
        "1234",
    );
    click(&mut h, "Open my secrets");
    h.get_by_label_contains("the first an onlooker tries");
    sees_nothing_of(&h, &["Sudden Halt"]);
    // The refused PIN is gone from its field, which takes his next try
    // without a click; his passphrase stays typed.
    h.run();
    h.input_mut().events.push(egui::Event::Text("5829".into()));
    h.run();
    h.key_press(egui::Key::Enter);
    super::tests::worked(&mut h);
    h.get_by_label("Hide my cards");
}

/// A player who set no passphrase is told his screen is open to whoever
/// holds the laptop, before anyone clicks.
#[test]
fn without_a_passphrase_the_hand_over_says_whoever_holds_the_laptop_sees() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = deck_started_by_north(dir.path(), ["", ""]);
    click(&mut h, "Show Decius's cards");
    h.get_by_label_contains(
        "Decius set no passphrase: their screen opens for whoever holds the laptop",
    );
}

/// Hidden forces: Bob, holding the laptop, asks for Ann's ledger.
#[test]
fn anns_ledger_opens_only_with_her_proof() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = crate::app::map_intel::tests::new_game(dir.path(), [DECIUS, ARTAGUR]);
    click(&mut h, "Show Ann's (Rome) ledger");
    sees_nothing_of(&h, &["Ann's (Rome) ledger"]);
    h.get_by_label("Ann's (Rome) passphrase");
    open_with_pin(&mut h, "Ann (Rome)", DECIUS, PIN);
    h.get_by_label("Hide my ledger");
    click(&mut h, "Hide my ledger");
    click(&mut h, "Show Ann's (Rome) ledger");
    sees_nothing_of(&h, &["Ann's (Rome) ledger"]);
    give_pin(&mut h, "Ann (Rome)", PIN);
    h.get_by_label("Hide my ledger");
}

/// Dummy wings: Charles, holding the laptop, asks for Fritz's counters.
#[test]
fn fritzs_counters_open_only_with_his_proof() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = crate::app::wings::tests::rossbach_with(dir.path(), [DECIUS, ""]);
    click(&mut h, "Show Fritz's (Prussian) counters");
    sees_nothing_of(&h, &[]);
    h.get_by_label("Fritz's (Prussian) passphrase");
    click(&mut h, "Cancel: back to the table");
    // Back at the table, nothing of his.
    sees_nothing_of(&h, &[]);
    click(&mut h, "Show Fritz's (Prussian) counters");
    open_with_pin(&mut h, "Fritz (Prussian)", DECIUS, "");
    h.get_by_label("Hide my counters");
}

/// Issue 49, item 4: whoever scans a seat's code holds the seat, so the
/// code shows only after its player's proof. Decius, holding the laptop,
/// asks for Artagur's code: he gets Artagur's hand-over screen, and a
/// guess shows no code; Artagur's passphrase does. Another device that
/// scanned it (Decius's phone, over his shoulder) holds the seat only
/// until his own phone comes, since it never gave his passphrase; and
/// with his proof a new code ends whatever device held it.
#[test]
fn a_seats_code_shows_only_after_its_players_proof_and_he_takes_his_seat_back() {
    use crate::app::phone_kit::{Phone, until};
    use crate::app::seating::Life;
    use muster::core::side::Side;
    let dir = tempfile::tempdir().unwrap();
    let mut h = deck_started_by_north(dir.path(), [DECIUS, ARTAGUR]);
    crate::app::pairing::start(&mut h);
    click(&mut h, "Pair Artagur's phone (new code)");
    h.get_by_label_contains("Whoever scans this code holds Artagur's seat");
    assert!(h.query_by_label("Artagur's code").is_none());
    open_with_pin(&mut h, "Artagur", DECIUS, "");
    h.get_by_label_contains("not the passphrase this player set");
    assert!(h.query_by_label("Artagur's code").is_none());
    assert!(crate::app::pairing::read_code(&h, Side::North).is_none());
    open_with_pin(&mut h, "Artagur", ARTAGUR, PIN);
    h.get_by_label("Artagur's code");
    let first = crate::app::pairing::read_code(&h, Side::North).expect("readable");
    let mut other = Phone::join_as(&first, [7; 16]);
    until(&mut h, |h| {
        h.state().seating.life(Side::North) == Life::OnPhone
    });
    // His own phone on the same code takes the seat from the other, which
    // never gave his passphrase.
    let mut his = Phone::join_as(&first, [8; 16]);
    assert_eq!(other.closed_with(), muster::seats::server::CLOSE_TAKEN);
    // His seat on a device: his proof still comes first for a new code.
    click(&mut h, "Pair Artagur's phone (new code)");
    assert!(h.query_by_label("Artagur's code").is_none());
    give_pin(&mut h, "Artagur", "0000");
    h.get_by_label_contains("Wrong PIN: 2 tries left");
    give_pin(&mut h, "Artagur", PIN);
    h.get_by_label("Artagur's code");
    let second = crate::app::pairing::read_code(&h, Side::North).expect("readable");
    assert_ne!(first, second, "a new code");
    assert_eq!(his.closed_with(), muster::seats::server::CLOSE_REPAIRED);
    let mut his = Phone::join_as(&second, [8; 16]);
    until(&mut h, |h| {
        h.state().seating.life(Side::North) == Life::OnPhone
    });
    his.look();
    // The other seat's code asks its own player's proof.
    click(&mut h, "Pair Decius's phone (new code)");
    h.get_by_label_contains("Whoever scans this code holds Decius's seat");
    assert!(h.query_by_label("Decius's code").is_none());
}
