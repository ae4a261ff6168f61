//! The action deck played from two windows, as two players would from
//! their own machines (docs: "Playing remotely"): the game begun at one
//! table, then hosted by Decius's Muster for Artagur's, through a relay on
//! 127.0.0.1, in a network namespace with loopback alone where one can be
//! made.

use crate::app::remote_tests::{H, config, invite, shows, start_joiner, until};
use crate::app::tests::{
    app, click, deck_game, done, set_passphrase, take_screen, type_into, unlock,
};
use egui_kittest::kittest::{NodeT, Queryable};
use muster::core::remote::Replica;
use muster::core::side::{Side, Sides};
use muster::deck::{Command, Game, Setup};
use muster_testkit::relay::{local_relay, ran_in_loopback_namespace};

const DECIUS: &str = "decius's quarry heron lantern 7";
const ARTAGUR: &str = "artagur's osprey cider bastion 9";

/// The example card set, Decius (South, Romans) against Artagur (North,
/// Gauls), both passphrases set and both hands dealt at one table; Decius
/// is active first.
fn begun() -> String {
    let (decius, decius_key) = muster::core::intel::Lock::create(DECIUS, &[]).unwrap();
    let (artagur, artagur_key) = muster::core::intel::Lock::create(ARTAGUR, &[]).unwrap();
    let setup = Setup::example(Sides {
        south: Some(decius),
        north: Some(artagur),
    });
    let keys = Sides {
        south: Some(decius_key),
        north: Some(artagur_key),
    };
    let mut game = Game::new(setup, keys).unwrap();
    game.apply(Command::ChooseFirst {
        active: Side::South,
    })
    .unwrap();
    muster::deck::files::to_json(&game)
}

fn same_log(windows: &[&mut H]) -> bool {
    let (a, b) = (deck_game(windows[0]), deck_game(windows[1]));
    a.log() == b.log() && Replica::link(a, a.log().len()) == Replica::link(b, b.log().len())
}

/// `label` clicked on window `i` of `w` once it shows there (a move of
/// the joiner's comes back from the host's machine first).
fn press(w: &mut [&mut H; 2], i: usize, label: &str) {
    until(w, label, |w| w[i].query_by_label(label).is_some());
    click(w[i], label);
}

/// The button that removes a card of the hand in the fatigue step, if
/// the window shows one.
fn removal(h: &H) -> Option<String> {
    h.query_all_by_label_contains("(fatigue)")
        .filter_map(|n| n.accesskit_node().label())
        .find(|l| l.starts_with("Remove "))
}

/// `name`'s fatigue step on his own window (`i` of `w`): his cards open
/// without a proof (nobody else sits at his Muster), the first card
/// offered is removed, his cards close.
fn fatigue(w: &mut [&mut H; 2], i: usize, name: &str) {
    until(w, "the fatigue step", |w| {
        shows(w[i], &format!("I am {name}: show my cards")) || removal(w[i]).is_some()
    });
    take_screen(w[i], name);
    assert!(w[i].query_by_label("Open my secrets").is_none());
    until(w, "a card to remove", |w| removal(w[i]).is_some());
    let remove = removal(w[i]).expect("checked");
    click(w[i], &remove);
    done(w[i]);
}

/// The active player on his window (`i` of `w`) skips every phase after
/// the event phase, does his fatigue step and ends his turn.
fn a_quiet_turn(w: &mut [&mut H; 2], i: usize, name: &str, number: u32) {
    press(w, i, "End the event phase, skip the rally phase");
    // A declaration is taken back at one table; from two machines nothing
    // is (the log is both's): no window offers it.
    until(w, "the declaration on both", same_log);
    for h in w.iter() {
        assert!(h.query_all_by_label_contains("Undo: ").next().is_none());
    }
    for phase in ["shooting", "movement", "combat"] {
        press(w, i, &format!("Skip the {phase} phase"));
    }
    fatigue(w, i, name);
    press(w, i, &format!("End turn {number}"));
}

/// The action deck from two windows: each player's turn is his own, the
/// other's greyed, saying for whom; Decius's redraw in Artagur's turn is
/// drawn on Decius's Muster with both machines' dice; neither window ever
/// holds the other's hand; both say the game is over, and each window says
/// the other's cards hold; the host's Muster then closes, and the
/// joiner's stops calling it.
#[test]
fn the_action_deck_is_played_from_two_windows() {
    if ran_in_loopback_namespace(
        "app::deck::remote_tests::the_action_deck_is_played_from_two_windows",
    ) {
        return;
    }
    let relay = local_relay();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deck.json");
    std::fs::write(&path, begun()).unwrap();
    let mut host = app(
        config(&dir.path().join("host"), &relay.net, Some(path)),
        [1500.0, 1000.0],
    );
    assert_eq!(unlock(&mut host, "Decius", DECIUS), None);
    let ticket = invite(&mut host, "Artagur");
    let mut joiner = start_joiner(dir.path(), &relay.net, &ticket);
    until(
        &mut [&mut host, &mut joiner],
        "the game on the joiner's",
        |w| shows(w[1], "You joined the game as North"),
    );
    assert_eq!(unlock(&mut joiner, "Artagur", ARTAGUR), None);
    until(&mut [&mut host, &mut joiner], "both connected", |w| {
        same_log(w) && w.iter().all(|h| shows(h, "; connected (Muster"))
    });
    assert!(deck_game(&host).zones(Side::North).is_none());
    assert!(deck_game(&joiner).zones(Side::South).is_none());
    assert!(shows(&joiner, "Waiting for Decius, on their own Muster"));
    assert!(
        joiner
            .get_by_label("End the event phase, skip the rally phase")
            .accesskit_node()
            .is_disabled()
    );

    a_quiet_turn(&mut [&mut host, &mut joiner], 0, "Decius", 1);
    until(
        &mut [&mut host, &mut joiner],
        "Artagur's turn on both",
        |w| same_log(w) && deck_game(w[1]).public().turn.as_ref().unwrap().active == Side::North,
    );
    a_quiet_turn(&mut [&mut host, &mut joiner], 1, "Artagur", 2);
    until(
        &mut [&mut host, &mut joiner],
        "Decius's turn on both",
        |w| same_log(w) && deck_game(w[0]).public().turn.as_ref().unwrap().active == Side::South,
    );
    // Decius redrew in Artagur's turn, on his own Muster, with both
    // machines' dice.
    let game = deck_game(&host);
    assert_eq!(game.zones(Side::South).unwrap().hand.len(), 7);
    let redrawn = (game.log().iter().flat_map(|e| &e.events)).any(|e| {
        matches!(
            e,
            muster::deck::Event::Drew {
                player: Side::South,
                joint: Some(_),
                ..
            }
        )
    });
    assert!(redrawn, "{}", game.log_lines().join("\n"));

    for (i, name) in [(0, "Decius"), (1, "Artagur")] {
        let w = &mut [&mut host, &mut joiner];
        let show = format!("Show {} cards", muster::core::text::possessive(name));
        press(w, i, &show);
        take_screen(w[i], name);
        // His own Muster: no proof asked again after his unlock.
        assert!(w[i].query_by_label("Open my secrets").is_none());
        press(w, i, "The game is over");
        press(w, i, "Yes: The game is over");
        done(w[i]);
    }
    until(&mut [&mut host, &mut joiner], "each audit said", |w| {
        shows(
            w[0],
            "Artagur's sealed records, opened by their machine at the game's end, all hold",
        ) && shows(
            w[1],
            "Decius's sealed records, opened by their machine at the game's end, all hold",
        )
    });
    // The host's Muster closes (its player may host another game): the
    // joiner's, the records checked, stops calling it, saying why.
    drop(host);
    until(&mut [&mut joiner], "the finished game's link closed", |w| {
        shows(
            w[0],
            "The game is over and its records were checked; the other Muster has gone, so the connection is closed",
        )
    });
    assert!(!shows(&joiner, "the connection dropped"));
    assert!(
        !shows(&joiner, "Remote game:"),
        "no line of a link dialed again"
    );
}

/// A deck game begun remotely: Decius starts it on his window with his
/// passphrase alone and who is first left for the table, and invites
/// Artagur; the table waits for Artagur's passphrase (his hand would be
/// readable) until he sets it on his own window; then Decius settles who
/// is first, and each hand is drawn on its owner's machine, neither
/// holding the other's.
#[test]
fn a_deck_game_begun_remotely_deals_each_hand_on_its_owners_machine() {
    if ran_in_loopback_namespace(
        "app::deck::remote_tests::a_deck_game_begun_remotely_deals_each_hand_on_its_owners_machine",
    ) {
        return;
    }
    let relay = local_relay();
    let dir = tempfile::tempdir().unwrap();
    let mut host = app(
        config(&dir.path().join("host"), &relay.net, None),
        [1500.0, 1000.0],
    );
    click(&mut host, "File");
    click(&mut host, "New");
    click(&mut host, "Action deck");
    type_into(&mut host, "South player", "Decius");
    type_into(&mut host, "North player", "Artagur");
    set_passphrase(&mut host, Side::South, "Decius", DECIUS);
    click(&mut host, "Later, on the table");
    click(&mut host, "Start the game");
    let ticket = invite(&mut host, "Artagur");
    let mut joiner = start_joiner(dir.path(), &relay.net, &ticket);
    until(
        &mut [&mut host, &mut joiner],
        "the game on the joiner's",
        |w| shows(w[1], "You joined the game as North"),
    );
    until(&mut [&mut host, &mut joiner], "both connected", |w| {
        w.iter().all(|h| shows(h, "; connected (Muster"))
    });
    // His hand is not drawn before he can seal it.
    host.get_by_label_contains("Waiting for Artagur to set a passphrase");
    assert!(
        host.get_by_label("Decius is active first")
            .accesskit_node()
            .is_disabled()
    );
    assert!(shows(&joiner, "Your side has no passphrase yet"));
    set_passphrase(&mut joiner, Side::North, "Artagur", ARTAGUR);
    until(
        &mut [&mut host, &mut joiner],
        "his passphrase on both",
        |w| same_log(w) && !shows(w[0], "Waiting for Artagur to set a passphrase"),
    );
    press(&mut [&mut host, &mut joiner], 0, "Decius is active first");
    until(&mut [&mut host, &mut joiner], "both hands drawn", |w| {
        let counts = deck_game(w[1]).public().counts;
        same_log(w) && counts.south.hand == 7 && counts.north.hand == 7
    });
    let (h, j) = (deck_game(&host), deck_game(&joiner));
    assert_eq!(h.zones(Side::South).unwrap().hand.len(), 7);
    assert_eq!(j.zones(Side::North).unwrap().hand.len(), 7);
    assert!(h.zones(Side::North).is_none() && j.zones(Side::South).is_none());
    assert!(
        h.keys()[Side::North].is_none(),
        "his key stays on his machine"
    );
}
