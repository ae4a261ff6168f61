//! Dummy wings played from two machines over real iroh endpoints on this
//! machine, through the test's own relay on 127.0.0.1 (docs: "Playing
//! remotely"): the host begins Rossbach with Fritz's passphrase alone;
//! Charles's machine starts from the ticket, receives the game, and he
//! sets his passphrase there. Each places his Wings on his own machine;
//! Seydlitz spots the French infantry (the line called on Fritz's machine,
//! the French Wing shown on Charles's), the roll is made by both, each
//! Wing is placed by its owner. Each program keeps every byte it received:
//! neither finds the other's passphrase or key, nor what a Wing it never
//! met holds.

mod support;

use muster_core::dice::{AppKeyword, DiceInput};
use muster_core::intel::{Lock, PlayerKey};
use muster_core::remote::Replica;
use muster_core::seat::Seated;
use muster_core::side::{Side, Sides};
use muster_map_intel::map::Hex;
use muster_map_intel::wings::events::Pending;
use muster_map_intel::wings::formation::Formation;
use muster_map_intel::wings::game::{Command, Composition, Game, Setup};
use muster_map_intel::wings::scenario::Type;
use support::{give, local_relay};

type Machine = support::Machine<Game>;

const FRITZ: &str = "lantern quarry heron bastion cider osprey";
const CHARLES: &str = "thistle comet harbor velvet otter brass";

/// Fritz's machine with the game he began (his passphrase alone), and
/// Charles's, which has only the ticket: it receives the game, and Charles
/// sets his passphrase on it.
fn machines(relay: &support::LocalRelay) -> (Machine, Machine, PlayerKey, PlayerKey) {
    let (fritz_lock, fritz_key) = Lock::create(FRITZ, &[]).unwrap();
    let setup = Setup::example(Sides {
        south: Some(fritz_lock),
        north: None,
    });
    let keys = Sides {
        south: Some(fritz_key.clone()),
        north: None,
    };
    let host_game = Game::new(setup, keys, Default::default()).unwrap();
    let (mut host, mut joiner) = support::hosted(relay, host_game, Side::North);
    let (lock, key) = Lock::create(CHARLES, &[]).unwrap();
    let set = (joiner.game)
        .set_lock(Side::North, lock, key.clone())
        .unwrap();
    give(&mut host, &mut joiner, Side::North, set);
    (host, joiner, fritz_key, key)
}

fn hex(name: &str) -> Hex {
    Hex::parse(name).unwrap()
}

fn wing(units: &[&str], rating: u32, formation: Formation) -> Composition {
    Composition {
        real: true,
        units: units.iter().map(|u| u.to_string()).collect(),
        rating,
        formation,
        detached: Vec::new(),
    }
}

fn place(m: (&mut Machine, &mut Machine), side: Side, kind: Type, at: [&str; 3], c: Composition) {
    let command = Command::PlaceWing {
        side,
        kind,
        detachment: false,
        leader: hex(at[0]),
        dis: [hex(at[1]), hex(at[2])],
        composition: c,
    };
    give(m.0, m.1, side, command);
}

/// The hexes from `from` to `to`, each step into the neighbour nearest.
fn path(game: &Game, from: Hex, to: &str) -> Vec<Hex> {
    let map = &game.setup().battle.map;
    let (to, mut at, mut out) = (hex(to), from, Vec::new());
    while at != to {
        at = (map.neighbours(at).into_iter())
            .min_by_key(|n| map.distance(*n, to))
            .unwrap();
        out.push(at);
    }
    out
}

#[test]
fn dummy_wings_over_real_endpoints_send_no_secret_of_the_other() {
    if support::ran_in_loopback_namespace(
        "dummy_wings_over_real_endpoints_send_no_secret_of_the_other",
    ) {
        return;
    }
    let relay = local_relay();
    let (mut host, mut joiner, fritz_key, charles_key) = machines(&relay);
    let seydlitz = wing(
        &["p-cur-8", "p-cur-10", "p-dra-4", "p-hus-7", "seydlitz"],
        4,
        Formation::InColumn,
    );
    let (h, j) = (&mut host, &mut joiner);
    place(
        (h, j),
        Side::South,
        Type::Cav,
        ["1005", "1004", "1003"],
        seydlitz,
    );
    let dummy = Composition::dummy(Formation::InColumn);
    let (h, j) = (&mut host, &mut joiner);
    place(
        (h, j),
        Side::South,
        Type::Inf,
        ["2005", "2004", "2006"],
        dummy.clone(),
    );
    let infantry = wing(
        &["f-piemont", "f-mailly", "f-poitou", "f-provence"],
        3,
        Formation::Deployed,
    );
    let (h, j) = (&mut host, &mut joiner);
    place(
        (h, j),
        Side::North,
        Type::Inf,
        ["1020", "1021", "1121"],
        infantry,
    );
    let cuirassiers = wing(&["r-cur-1"], 2, Formation::InColumn);
    let (h, j) = (&mut host, &mut joiner);
    place(
        (h, j),
        Side::North,
        Type::Cav,
        ["3020", "3021", "3019"],
        cuirassiers.clone(),
    );
    let begin = Command::Begin { first: Side::South };
    give(&mut host, &mut joiner, Side::North, begin);

    // Seydlitz moves within 7 hexes of the French infantry.
    let c = host.game.public().counters[0].clone();
    let go = Command::Move {
        id: 0,
        leader: path(&host.game, c.leader, "1013"),
        dis: [
            path(&host.game, c.dis[0], "1012"),
            path(&host.game, c.dis[1], "1011"),
        ],
    };
    give(&mut host, &mut joiner, Side::South, go);
    give(
        &mut host,
        &mut joiner,
        Side::South,
        Command::Sight { clear: true },
    );
    assert!(matches!(
        joiner.game.public().pending,
        Some(Pending::Roll { .. })
    ));
    let app = || DiceInput::App(AppKeyword::App);
    let roll = Command::Roll {
        moving: app(),
        stationary: app(),
    };
    give(&mut host, &mut joiner, Side::South, roll);
    if matches!(host.game.public().pending, Some(Pending::Adjust { .. })) {
        give(
            &mut host,
            &mut joiner,
            Side::South,
            Command::Adjust { to: None },
        );
    }
    let Some(Pending::Place { wings }) = host.game.public().pending.clone() else {
        panic!("{:?}", host.game.public().pending);
    };
    for (id, rule) in wings {
        let side = host.game.public().counters[id].side;
        let formation = rule.must.unwrap_or(Formation::Deployed);
        give(
            &mut host,
            &mut joiner,
            side,
            Command::Deploy { id, formation },
        );
    }
    assert_eq!(host.game.entries(), joiner.game.entries());
    assert_eq!(
        host.game.link(host.game.entries()),
        joiner.game.link(joiner.game.entries())
    );

    // What each program received: no passphrase, no key, nothing of a
    // Wing it never met.
    let to_fritz = host.received.join("\n");
    let to_charles = joiner.received.join("\n");
    assert!(!to_fritz.contains(CHARLES) && !to_charles.contains(FRITZ));
    assert!(!charles_key.seal_key().appears_in(&to_fritz));
    assert!(!fritz_key.seal_key().appears_in(&to_charles));
    let never = serde_json::to_string(&cuirassiers).unwrap();
    assert!(!to_fritz.contains(&never), "the French cuirassiers");
    let never = serde_json::to_string(&dummy).unwrap();
    assert!(!to_charles.contains(&never), "the Prussian dummy");
    // What a placing opens crosses: the French infantry, placed.
    assert!(to_fritz.contains("f-piemont"));
}
