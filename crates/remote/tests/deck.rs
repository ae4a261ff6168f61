//! The action deck played from two machines over real iroh endpoints on
//! this machine, through the test's own relay on 127.0.0.1 (docs: "Playing
//! remotely"): the host begins the game with Decius's passphrase alone and
//! who is first left for later; Artagur's machine starts from the ticket,
//! receives the game, and Artagur sets his passphrase there. Then each hand
//! is drawn on its owner's machine, a turn is played, and both say the game
//! is over. Each program keeps every byte it received: until the end,
//! neither finds the other's passphrase, key or a card of his hand never
//! played; at the end each finds the other's cards hold.

mod support;

use muster_core::intel::Lock;
use muster_core::remote::Replica;
use muster_core::seat::Seated;
use muster_core::side::{Side, Sides};
use muster_deck::{Command, Game, Setup};
use support::{give, local_relay};

const DECIUS: &str = "lantern quarry heron bastion cider osprey";
const ARTAGUR: &str = "thistle comet harbor velvet otter brass";

#[test]
fn the_action_deck_over_real_endpoints_sends_no_card_of_a_hand() {
    if support::ran_in_loopback_namespace(
        "the_action_deck_over_real_endpoints_sends_no_card_of_a_hand",
    ) {
        return;
    }
    let relay = local_relay();
    let (decius_lock, decius_key) = Lock::create(DECIUS, &[]).unwrap();
    let setup = Setup::example(Sides {
        south: Some(decius_lock),
        north: None,
    });
    let keys = Sides {
        south: Some(decius_key.clone()),
        north: None,
    };
    let host_game = Game::new(setup, keys).unwrap();
    let (mut host, mut joiner) = support::hosted(&relay, host_game, Side::North);
    let (lock, artagur_key) = Lock::create(ARTAGUR, &[]).unwrap();
    let set = (joiner.game)
        .set_lock(Side::North, lock, artagur_key.clone())
        .unwrap();
    give(&mut host, &mut joiner, Side::North, set);
    let first = Command::ChooseFirst {
        active: Side::South,
    };
    give(&mut host, &mut joiner, Side::South, first);
    assert_eq!(host.game.zones(Side::South).unwrap().hand.len(), 7);
    assert_eq!(joiner.game.zones(Side::North).unwrap().hand.len(), 7);
    assert!(host.game.zones(Side::North).is_none());
    // Decius skips every phase, removes a card in his fatigue step and ends
    // his turn; Artagur redraws nothing (his hand is full).
    give(
        &mut host,
        &mut joiner,
        Side::South,
        Command::EndPhaseThen { plays: false },
    );
    for _ in 0..3 {
        give(
            &mut host,
            &mut joiner,
            Side::South,
            Command::Declare { plays: false },
        );
    }
    let card = host.game.zones(Side::South).unwrap().hand[0].clone();
    let fatigue = Command::Fatigue { card: Some(card) };
    give(&mut host, &mut joiner, Side::South, fatigue);
    give(&mut host, &mut joiner, Side::South, Command::EndTurn);
    assert_eq!(host.game.entries(), joiner.game.entries());
    assert_eq!(
        host.game.link(host.game.entries()),
        joiner.game.link(joiner.game.entries())
    );

    // What each program received before the end: no passphrase, no key,
    // no card of the other's hand (none was played).
    let to_decius = host.received.join("\n");
    let to_artagur = joiner.received.join("\n");
    assert!(!to_decius.contains(ARTAGUR) && !to_artagur.contains(DECIUS));
    assert!(!artagur_key.seal_key().appears_in(&to_decius));
    assert!(!decius_key.seal_key().appears_in(&to_artagur));
    let hand = |g: &Game, side: Side| g.zones(side).unwrap().hand.clone();
    let his = hand(&joiner.game, Side::North);
    let mine = hand(&host.game, Side::South);
    for card in &his {
        let quoted = format!("\"{card}\"");
        assert!(
            !to_decius.contains(&quoted),
            "{card} reached Decius's machine"
        );
    }
    for card in &mine {
        let quoted = format!("\"{card}\"");
        assert!(
            !to_artagur.contains(&quoted),
            "{card} reached Artagur's machine"
        );
    }

    // The end: each machine's cards cross opened, and each finds the
    // other's hold; still no key or passphrase.
    give(
        &mut host,
        &mut joiner,
        Side::South,
        Command::GameOver {
            player: Side::South,
        },
    );
    give(
        &mut host,
        &mut joiner,
        Side::North,
        Command::GameOver {
            player: Side::North,
        },
    );
    support::both_audited(&host, &joiner);
    let to_decius = host.received.join("\n");
    assert!(!to_decius.contains(ARTAGUR) && !artagur_key.seal_key().appears_in(&to_decius));
}
