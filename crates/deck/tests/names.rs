//! The one rule for names (issue 49) as a player meets it in the action
//! deck: a player's name, the card set's, an army's and a card's title are
//! each refused when blank, longer than 80 characters, or holding what
//! prints blank, naming the field; two cards of one deck may not pass for
//! each other; an emoji as a phone keyboard types it is a name.

use muster_core::side::Sides;
use muster_deck::{CardSet, Seat, Setup};
use serde_json::Value;

fn setup(south: &str, north: &str) -> Setup {
    let seat = |name: &str, army: &str| Seat {
        name: name.into(),
        army: army.into(),
        hand_size: 7,
    };
    Setup {
        set: CardSet::example(),
        seats: Sides {
            south: seat(south, "romans"),
            north: seat(north, "gauls"),
        },
        locks: Sides {
            south: None,
            north: None,
        },
        picks: Sides::default(),
    }
}

/// The example card set with `change` made to it, as a file.
fn set_with(change: impl FnOnce(&mut Value)) -> String {
    let mut set: Value = serde_json::from_str(muster_deck::cards::EXAMPLE_JSON).unwrap();
    change(&mut set);
    serde_json::to_string_pretty(&set).unwrap()
}

#[test]
fn a_braille_blank_does_not_make_another_name() {
    let e = setup("Ann", "Ann\u{2800}").check().unwrap_err().to_string();
    assert!(
        e.contains("North's player's name") && e.contains("U+2800"),
        "{e}"
    );
    setup("Ann", "Legio \u{2694}\u{fe0f}").check().unwrap();
}

#[test]
fn the_card_sets_name_and_a_cards_title_have_at_most_80_characters() {
    let e = CardSet::from_json(&set_with(|s| s["name"] = "x".repeat(10_000).into())).unwrap_err();
    assert_eq!(e.field, "name");
    assert!(e.message.contains("at most 80"), "{e}");
    let e = CardSet::from_json(&set_with(|s| s["cards"][2]["title"] = " ".into())).unwrap_err();
    assert_eq!(e.field, "cards[2].title");
    assert!(e.message.contains("blank"), "{e}");
    let e =
        CardSet::from_json(&set_with(|s| s["armies"][1]["name"] = "R\u{3164}".into())).unwrap_err();
    assert_eq!(e.field, "armies[1].name");
    assert!(e.message.contains("U+3164"), "{e}");
}

#[test]
fn two_cards_of_one_deck_may_not_look_alike() {
    let text = set_with(|s| {
        let first = s["cards"][0]["title"].as_str().unwrap().to_string();
        s["cards"][1]["title"] = first.to_uppercase().into();
        s["cards"][1]["armies"] = Value::Array(Vec::new());
        s["cards"][0]["armies"] = Value::Array(Vec::new());
    });
    let e = CardSet::from_json(&text).unwrap_err();
    assert_eq!(e.field, "cards[1].title", "{e}");
    assert!(e.message.contains("looks like"), "{e}");
}
