//! Field of Glory played from two machines over real iroh endpoints on
//! this machine, through the test's own relay on 127.0.0.1 (docs: "Playing
//! remotely"): South's machine starts from the ticket alone, receives the
//! game and unlocks his side there; then the example deployment, each line
//! given on the machine of the side that gives it. Both logs end the same
//! and every move is in it once, across a connection cut mid-game; the
//! host's program, which keeps every byte it received, finds no
//! passphrase, key or sealed name of South's.

mod support;

use muster_core::remote::Replica;
use muster_core::side::Side;
use muster_fog::battle::Battle;
use muster_fog::examples::{EXAMPLE_PASSPHRASE, TERRAIN_BATTLE, terrain_battle};
use muster_fog::files::battle_from_json;
use muster_fog::script::{command, run_line};
use muster_remote::opening::{self, Joining};
use muster_remote::{Event, Link, Said};
use std::time::{Duration, Instant};
use support::{local_relay, no_wake, settle};

const SCRIPT: &str = include_str!("../../../examples/scripts/deployment.jsonl");

type Machine = support::Machine<Battle>;

/// The host's machine with the shipped battle (South's passphrase never
/// typed there), and South's, which has only the ticket: it receives the
/// game, and South unlocks his side on his own machine.
fn machines(relay: &support::LocalRelay) -> (Machine, Machine) {
    let mut host_game = battle_from_json(TERRAIN_BATTLE).unwrap();
    let id = host_game.game_id().to_owned();
    let (host_link, ticket) =
        Link::host(relay.net.clone(), id, Side::South, no_wake()).expect("the host's end");
    let host_remote = opening::host(&mut host_game, Side::South, host_link).expect("commitments");
    let joiner_link = Link::join(relay.net.clone(), ticket, no_wake()).expect("the joiner's end");
    let mut joining = Joining::new(joiner_link);
    let until = Instant::now() + Duration::from_secs(20);
    let arrived = loop {
        match joining.poll::<Battle>().expect("the game reads") {
            Ok(arrived) => break arrived,
            Err(still) => joining = still,
        }
        assert!(Instant::now() < until, "the game did not arrive");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(arrived.seat, Side::South);
    assert_eq!(arrived.game.log(), host_game.log());
    // South types his passphrase while the window goes on taking what the
    // link says, as it does every frame: the host's commitments to the
    // dice and its tags arrive meanwhile, and must not be lost (South's
    // first roll needs them).
    let (mut joiner_game, mut unlocking) = arrived.split();
    let typing = Instant::now() + Duration::from_millis(500);
    while Instant::now() < typing {
        while unlocking.news().is_some() {}
        std::thread::sleep(Duration::from_millis(10));
    }
    joiner_game
        .unlock(Side::South, EXAMPLE_PASSPHRASE)
        .expect("his passphrase, on his machine");
    let (joiner_remote, said) = unlocking.play(&mut joiner_game);
    assert!(said.iter().all(|s| matches!(s, Said::Game(_))), "{said:?}");
    let mut host = Machine::new(host_game, host_remote);
    let mut joiner = Machine::new(joiner_game, joiner_remote);
    settle(&mut host, &mut joiner);
    (host, joiner)
}

/// Plays the example deployment up to play, cutting the connection after
/// line `cut_at`; each line is refused exactly when one machine alone
/// refuses it.
fn deploy(host: &mut Machine, joiner: &mut Machine, cut_at: usize) -> Battle {
    play_lines(host, joiner, "\"end_turn\"", Some(cut_at))
}

/// Both machines with the example deployment played up to who moves
/// first.
fn at_who_moves_first(relay: &support::LocalRelay) -> (Machine, Machine) {
    let (mut host, mut joiner) = machines(relay);
    deploy_until(
        &mut host,
        &mut joiner,
        "\"roll_moves_first\", \"side\": \"north\"",
    );
    (host, joiner)
}

/// Plays the example deployment up to the line holding `until`.
fn deploy_until(host: &mut Machine, joiner: &mut Machine, until: &str) {
    play_lines(host, joiner, until, None);
}

fn play_lines(
    host: &mut Machine,
    joiner: &mut Machine,
    until: &str,
    cut_at: Option<usize>,
) -> Battle {
    let mut alone = terrain_battle();
    for (n, line) in SCRIPT.lines().enumerate() {
        if line.contains(until) {
            break;
        }
        let line = line
            .replace("\"dice\": [3]", "\"dice\": \"app\"")
            .replace("\"dice\": [5]", "\"dice\": \"app\"");
        let alone_took = run_line(&mut alone, &line, n + 1)["ok"] == true;
        let machine = if line.contains("\"side\": \"south\"") {
            &mut *joiner
        } else {
            &mut *host
        };
        let took = match command(&mut machine.game, &line, n + 1) {
            Ok(Some(command)) => machine.remote.give(&mut machine.game, command).is_ok(),
            Ok(None) => true,
            Err(_) => false,
        };
        assert_eq!(took, alone_took, "line {}: {line}", n + 1);
        if cut_at == Some(n) {
            joiner.remote.link().cut();
        }
        settle(host, joiner);
        assert!(host.troubles().is_empty(), "{:?}", host.troubles());
        assert!(joiner.troubles().is_empty(), "{:?}", joiner.troubles());
    }
    alone
}

#[test]
fn the_example_deployment_played_over_real_endpoints_makes_one_log_across_a_cut() {
    if support::ran_in_loopback_namespace(
        "the_example_deployment_played_over_real_endpoints_makes_one_log_across_a_cut",
    ) {
        return;
    }
    let relay = local_relay();
    let (mut host, mut joiner) = machines(&relay);
    let alone = deploy(&mut host, &mut joiner, 14);
    // One log on both machines, as long as one machine alone makes it
    // (where who moves first ended alike: the dice differ): nothing lost,
    // nothing applied twice.
    assert_eq!(host.game.entries(), joiner.game.entries());
    if host.game.phase() == alone.phase() {
        assert_eq!(host.game.entries(), alone.log().len());
    }
    for n in 0..host.game.entries() {
        assert_eq!(host.game.entry(n), joiner.game.entry(n), "entry {n}");
    }
    assert_eq!(
        host.game.link(host.game.entries()),
        joiner.game.link(joiner.game.entries())
    );
    assert_eq!(host.game.phase(), joiner.game.phase());
    // The drop was seen and the connection came back.
    assert!(
        joiner
            .said
            .iter()
            .any(|s| matches!(s, Said::Link(Event::Dropped(_))))
    );
    // South's tags, made on his machine, check on the host's copy.
    let mut copy = host.game.clone();
    copy.unlock(Side::South, EXAMPLE_PASSPHRASE)
        .expect("every entry carries South's tag");
    // The host's program kept every byte it received: none is a secret of
    // South's.
    let received = host.received.join("\n");
    assert!(!received.contains(EXAMPLE_PASSPHRASE));
    let key = joiner
        .game
        .seal_key(Side::South, EXAMPLE_PASSPHRASE)
        .unwrap();
    assert!(!key.appears_in(&received));
    let army = joiner.game.state().armies[Side::South].clone().unwrap();
    for bg in [0, 6, 7, 8] {
        let name = &army.bgs[bg].name;
        assert!(!received.contains(name.as_str()), "{name} crossed");
    }
}

/// The attack, by a joiner's program that withholds its half of the dice
/// (to stop a roll of the host's it would lose): the host's move waits,
/// and the players are told which machine holds it up and what it owes.
#[test]
fn a_joiner_that_withholds_his_half_of_the_dice_is_named() {
    if support::ran_in_loopback_namespace("a_joiner_that_withholds_his_half_of_the_dice_is_named") {
        return;
    }
    let relay = local_relay();
    let (mut host, joiner) = at_who_moves_first(&relay);
    host.remote.set_patience(Duration::from_millis(300));
    let line = r#"{"cmd": "roll_moves_first", "side": "north", "dice": "app"}"#;
    let roll = command(&mut host.game, line, 1).unwrap().unwrap();
    let before = host.game.entries();
    let waiting = host.remote.give(&mut host.game, roll).unwrap();
    assert_eq!(waiting, muster_core::remote::Happened::Waiting);
    // South's machine never takes what arrives: its half never goes.
    let until = Instant::now() + Duration::from_secs(20);
    while host.troubles().is_empty() && Instant::now() < until {
        host.poll();
        let said = host.remote.overdue();
        host.said.extend(said);
        std::thread::sleep(Duration::from_millis(20));
    }
    let troubles = host.troubles();
    assert!(
        matches!(troubles.first(), Some(Said::Overdue(t))
            if t.contains("has not sent its half of round") && t.contains("withholds")),
        "{troubles:?}"
    );
    assert_eq!(host.game.entries(), before, "no roll without both halves");
    assert!(host.remote.busy());
    drop(joiner);
}

/// The attack: a changed host sends a game whose log was edited (a die of
/// the initiative roll changed). South's machine reads it as a file from
/// the disk, by the rules, and refuses it, saying so; nothing is played.
#[test]
fn an_edited_game_from_the_host_is_refused_before_anything_is_played() {
    if support::ran_in_loopback_namespace(
        "an_edited_game_from_the_host_is_refused_before_anything_is_played",
    ) {
        return;
    }
    let relay = local_relay();
    let game = battle_from_json(TERRAIN_BATTLE).unwrap();
    let (host_link, ticket) = Link::host(
        relay.net.clone(),
        game.game_id().to_owned(),
        Side::South,
        no_wake(),
    )
    .unwrap();
    let file = game.file();
    let first_die = file
        .find("\"dice\": [")
        .or_else(|| file.find("\"dice\":["))
        .unwrap();
    let digit = file[first_die..]
        .find(|c: char| c.is_ascii_digit())
        .unwrap()
        + first_die;
    let mut edited = file.clone().into_bytes();
    edited[digit] = if edited[digit] == b'6' { b'1' } else { b'6' };
    let edited = String::from_utf8(edited).unwrap();
    host_link
        .send(serde_json::json!({"type": "start", "file": edited, "seat": "south"}).to_string());
    let mut joining = Joining::new(Link::join(relay.net.clone(), ticket, no_wake()).unwrap());
    let until = Instant::now() + Duration::from_secs(20);
    let refused = loop {
        match joining.poll::<Battle>() {
            Err(why) => break why,
            Ok(Ok(_)) => panic!("an edited game was taken"),
            Ok(Err(still)) => joining = still,
        }
        assert!(Instant::now() < until, "nothing arrived");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(refused.contains("does not read"), "{refused}");
}

/// The host's Muster stops while the joiner's move waits: his players are
/// told the connection dropped, never that the other machine withholds
/// the move (it is the connection the move waits on).
#[test]
fn a_move_waiting_on_a_dropped_connection_is_not_said_withheld() {
    if support::ran_in_loopback_namespace(
        "a_move_waiting_on_a_dropped_connection_is_not_said_withheld",
    ) {
        return;
    }
    let relay = local_relay();
    let (host, mut joiner) = at_who_moves_first(&relay);
    joiner.remote.set_patience(Duration::from_millis(300));
    drop(host);
    let until = Instant::now() + Duration::from_secs(30);
    while !joiner
        .said
        .iter()
        .any(|s| matches!(s, Said::Link(Event::Dropped(_))))
    {
        joiner.poll();
        assert!(Instant::now() < until, "the drop was never said");
        std::thread::sleep(Duration::from_millis(20));
    }
    let line = r#"{"cmd": "roll_moves_first", "side": "south", "dice": "app"}"#;
    let roll = command(&mut joiner.game, line, 1).unwrap().unwrap();
    let given = joiner.remote.give(&mut joiner.game, roll);
    assert!(given.is_ok(), "{given:?}");
    let waited = Instant::now() + Duration::from_secs(1);
    while Instant::now() < waited {
        joiner.poll();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !joiner.said.iter().any(|s| matches!(s, Said::Overdue(_))),
        "{:?}",
        joiner.said
    );
}
