//! Hidden forces played from two machines over real iroh endpoints on
//! this machine, through the test's own relay on 127.0.0.1 (docs: "Playing
//! remotely"): the host begins the game with Ann's passphrase alone; Bob's
//! machine starts from the ticket, receives the game, and Bob sets his
//! passphrase there. Set-up, an entry answered from the other machine, an
//! Agent's look into a holding area, the game's end. Each program keeps
//! every byte it received: until the end, neither finds the other's
//! passphrase, key, or a unit his face-down counters hold; at the end each
//! finds the other's records hold, and still no key or passphrase crossed.

mod support;

use muster_core::intel::{Lock, PlayerKey};
use muster_core::remote::Replica;
use muster_core::seat::Seated;
use muster_core::side::{Side, Sides};
use muster_map_intel::{Area, Command, Game, Hex, Scenario, Setup, Target};
use support::{give, local_relay};

type Machine = support::Machine<Game>;

const ANN: &str = "lantern quarry heron bastion cider osprey";
const BOB: &str = "thistle comet harbor velvet otter brass";

/// Ann's machine with the game she began (her passphrase alone), and
/// Bob's, which has only the ticket: it receives the game, and Bob sets
/// his passphrase on it.
fn machines(relay: &support::LocalRelay) -> (Machine, Machine, PlayerKey) {
    let (ann_lock, ann_key) = Lock::create(ANN, &[]).unwrap();
    let setup = Setup {
        scenario: Scenario::example(),
        players: Sides {
            south: "Ann".into(),
            north: "Bob".into(),
        },
        locks: Sides {
            south: Some(ann_lock),
            north: None,
        },
    };
    let host_game = Game::new(
        setup,
        Sides {
            south: Some(ann_key),
            north: None,
        },
    )
    .unwrap();
    let (mut host, mut joiner) = support::hosted(relay, host_game, Side::North);
    // Bob sets his passphrase on his own machine.
    let (lock, key) = Lock::create(BOB, &[]).unwrap();
    let set = joiner
        .game
        .set_lock(Side::North, lock, key.clone())
        .unwrap();
    give(&mut host, &mut joiner, Side::North, set);
    (host, joiner, key)
}

/// A new force of `units` from `side`'s off-map area in `at`.
fn deploy(host: &mut Machine, joiner: &mut Machine, side: Side, at: &str, units: &[&str]) {
    let from = host.game.public().area(side, Area::OffMap).unwrap().id;
    let to = Target::NewForce(Hex::parse(at).unwrap());
    let units = units.iter().map(|u| u.to_string()).collect();
    let command = Command::Transfer {
        side,
        from,
        to,
        units,
    };
    give(host, joiner, side, command);
}

#[test]
fn hidden_forces_over_real_endpoints_send_no_secret_until_the_end() {
    if support::ran_in_loopback_namespace(
        "hidden_forces_over_real_endpoints_send_no_secret_until_the_end",
    ) {
        return;
    }
    let relay = local_relay();
    let (mut host, mut joiner, bob_key) = machines(&relay);
    deploy(
        &mut host,
        &mut joiner,
        Side::South,
        "0505",
        &["r-leg-3", "r-leg-6"],
    );
    deploy(&mut host, &mut joiner, Side::South, "0303", &["r-aux-1"]);
    deploy(&mut host, &mut joiner, Side::North, "0909", &["p-cat-1"]);
    deploy(
        &mut host,
        &mut joiner,
        Side::North,
        "1212",
        &["p-ha-2", "p-ha-3"],
    );
    give(
        &mut host,
        &mut joiner,
        Side::North,
        Command::Begin { first: Side::South },
    );
    // Ann's legions enter Bob's cataphracts: his machine answers.
    let legions = host
        .game
        .public()
        .in_hex(Hex::parse("0505").unwrap())
        .next()
        .unwrap()
        .id;
    let to = Hex::parse("0909").unwrap();
    give(
        &mut host,
        &mut joiner,
        Side::South,
        Command::Move { id: legions, to },
    );
    assert!(
        host.game
            .log_lines()
            .join("\n")
            .contains("Bob (Parthia) says their counters in 0909 hold units")
    );
    give(&mut host, &mut joiner, Side::South, Command::EndTurn);
    // Bob's Agent looks into Ann's off-map area: what it holds goes to his
    // machine alone.
    let off_map = host
        .game
        .public()
        .area(Side::South, Area::OffMap)
        .unwrap()
        .id;
    let look = Command::SpendAgent {
        by: Side::North,
        id: off_map,
    };
    give(&mut host, &mut joiner, Side::North, look);
    let seen = joiner.game.view(Side::North).holders[off_map].units.clone();
    assert!(seen.is_some_and(|u| u.contains(&"r-leg-10".to_string())));
    assert_eq!(host.game.entries(), joiner.game.entries());
    assert_eq!(
        host.game.link(host.game.entries()),
        joiner.game.link(joiner.game.entries())
    );

    // What each program received before the end: no passphrase, no key,
    // nothing the other's face-down counters hold.
    let to_ann = host.received.join("\n");
    let to_bob = joiner.received.join("\n");
    assert!(!to_ann.contains(BOB) && !to_bob.contains(ANN));
    assert!(!bob_key.seal_key().appears_in(&to_ann));
    for secret in ["p-ha-2", "p-ha-3", "p-cat-2", "p-inf-1"] {
        assert!(!to_ann.contains(secret), "{secret} reached Ann's machine");
    }
    assert!(
        !to_bob.contains("r-aux-1"),
        "what Ann's force in 0303 holds"
    );

    // The end: each machine's records cross opened, and each finds the
    // other's hold; still no key or passphrase.
    give(&mut host, &mut joiner, Side::North, Command::EndGame);
    support::both_audited(&host, &joiner);
    let to_ann = host.received.join("\n");
    assert!(!to_ann.contains(BOB) && !bob_key.seal_key().appears_in(&to_ann));
    assert!(to_ann.contains("p-ha-2"), "his records, opened at the end");
}
