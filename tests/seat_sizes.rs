//! What a message's size tells someone on the Wi-Fi: nothing. Each system's
//! smallest and largest screens (a hand of one card and a full hand with
//! every play; nothing to do and the ambush map; an empty and a full
//! ledger), sealed as the laptop sends them to a phone, are frames of one
//! length; so are a phone's shortest and longest answers.

use muster::core::dice::AppDice;
use muster::core::hexmap::Hex;
use muster::core::seat::{Desk, Screen, Seated, Sitting};
use muster::core::side::{Side, Sides};
use muster::seats::channel::{Channel, MAX_FRAME};
use muster::seats::protocol::{FromPage, MAX_DRAG, ToPage};

/// A screen as the server sends it, sealed.
fn sealed(screen: &impl serde::Serialize) -> usize {
    let message = ToPage::screen(screen);
    assert!(
        muster::seats::server::fits(&message),
        "{} bytes",
        message.len()
    );
    let mut laptop = Channel::laptop(&[7; 32], [1; 16], [2; 16], [3; 16]);
    laptop.seal(message.as_bytes()).unwrap().len()
}

/// The smallest and the largest screen of a system seal alike.
fn alike<G: Seated>(system: &str, small: Screen<G>, large: Screen<G>) {
    let (s, l) = (
        serde_json::to_string(&small).unwrap().len(),
        serde_json::to_string(&large).unwrap().len(),
    );
    assert!(l > 2 * s, "{system}: {s} and {l} bytes are not far apart");
    assert_eq!(sealed(&small), sealed(&large), "{system}");
    assert_eq!(sealed(&large), MAX_FRAME, "{system}");
}

#[test]
fn the_deck_a_hand_of_one_and_a_full_hand_with_every_play() {
    use muster::deck::{CardSet, Command, Game, Seat, Setup};
    let set = CardSet::example();
    let game = |hand_size: usize| {
        let seat = |side: Side| Seat {
            name: side.to_string(),
            army: set.armies[0].id.clone(),
            hand_size,
        };
        let setup = Setup {
            set: set.clone(),
            seats: Sides {
                south: seat(Side::South),
                north: seat(Side::North),
            },
            locks: Sides::default(),
            picks: Sides::default(),
        };
        let mut game = Game::new(setup, Sides::default()).unwrap();
        game.use_dealer(AppDice::seeded(4));
        game.apply(Command::ChooseFirst {
            active: Side::South,
        })
        .unwrap();
        game
    };
    let desk = Desk::default();
    let small = game(1).screen(Side::North, Sitting::laptop(&desk));
    let large = game(12).screen(Side::South, Sitting::laptop(&desk));
    alike::<Game>("deck", small, large);
}

#[test]
fn field_of_glory_nothing_to_do_and_the_ambush_map() {
    use muster::fog::battle::Battle;
    use muster::fog::screens::SecretField;
    let mut battle = muster::fog::examples::terrain_battle();
    let desk: Desk<Battle> = Desk::default();
    let small = battle.screen(Side::North, Sitting::laptop(&desk));
    let script: String = include_str!("../examples/scripts/deployment.jsonl")
        .lines()
        .take(7)
        .map(|l| format!("{l}\n"))
        .collect();
    muster::fog::script::run(&mut battle, script.as_bytes(), std::io::sink()).unwrap();
    let key = battle
        .seal_key(Side::South, muster::fog::examples::EXAMPLE_PASSPHRASE)
        .unwrap();
    let mut desk: Desk<Battle> = Desk::default();
    desk.key = Some(key);
    desk.form.insert(SecretField::Content, vec!["bg 6".into()]);
    let large = battle.screen(Side::South, Sitting::laptop(&desk));
    assert!(
        serde_json::to_string(&large).unwrap().contains("\"cells\""),
        "the legality map is on his screen"
    );
    alike::<Battle>("Field of Glory", small, large);
}

#[test]
fn hidden_forces_a_ledger_before_and_after_set_up() {
    use muster::map_intel::{Game, Scenario, Setup};
    let scenario = Scenario::example();
    let setup = Setup {
        scenario,
        players: Sides {
            south: "Ann".into(),
            north: "Bob".into(),
        },
        locks: Sides::default(),
    };
    let game = Game::new(setup, Sides::default()).unwrap();
    let desk = Desk::default();
    let small = game.screen(Side::North, Sitting::laptop(&desk));
    let large = game.screen(Side::South, Sitting::laptop(&desk));
    assert_eq!(sealed(&small), sealed(&large));
    assert_eq!(sealed(&large), MAX_FRAME);
}

#[test]
fn dummy_wings_the_counters_of_each_side() {
    use muster::map_intel::wings::game::{Game, Setup};
    let battle = muster::map_intel::wings::scenario::builtin().remove(0);
    let setup = Setup {
        battle,
        players: Sides {
            south: "Fritz".into(),
            north: "Charles".into(),
        },
        armies: muster::map_intel::wings::setup::example_armies(),
        activated: Sides::default(),
        detachments: Sides::default(),
        locks: Sides::default(),
    };
    let game = Game::new(setup, Sides::default(), AppDice::seeded(1)).unwrap();
    let desk = Desk::default();
    let small = game.screen(Side::North, Sitting::laptop(&desk));
    let large = game.screen(Side::South, Sitting::laptop(&desk));
    assert_eq!(sealed(&small), sealed(&large));
    assert_eq!(sealed(&large), MAX_FRAME);
}

/// A phone's shortest answer and its longest (a traced path across the
/// largest map) are frames of one length; what does not fit is not sent.
#[test]
fn a_phones_answers_are_one_size() {
    let mut phone = Channel::phone(&[7; 32], [1; 16], [2; 16], [3; 16]);
    let short = phone.seal(FromPage::Printout.text().as_bytes()).unwrap();
    let hexes: Vec<Hex> = (1..=99)
        .flat_map(|c| [format!("{c:02}01"), format!("{c:02}02")])
        .map(|h| Hex::parse(&h).unwrap())
        .take(MAX_DRAG)
        .collect();
    assert_eq!(hexes.len(), MAX_DRAG);
    let drag = FromPage::Drag {
        hexes,
        counter: None,
    }
    .text();
    let long = phone.seal(drag.as_bytes()).unwrap();
    assert_eq!(short.len(), long.len());
    assert!(phone.seal(&[b' '; 5000]).is_err());
}
