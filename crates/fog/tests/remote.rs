//! Field of Glory played from two machines (docs: "Playing remotely"): the
//! example deployment, each command given on the machine of the side that
//! gives it, South's secrets sealed and opened on his machine alone with
//! his key, the rolls made by both machines. Both logs end the same, each
//! tagged by each player on his own machine; and the host's machine, which
//! logs every byte it received, finds nothing South sealed, nor his
//! passphrase, nor his key.

use muster_core::dice::DiceSource;
use muster_core::side::Side;
use muster_fog::battle::{Battle, Event};
use muster_fog::examples::{EXAMPLE_PASSPHRASE, TERRAIN_BATTLE, terrain_battle};
use muster_fog::files::battle_from_json;
use muster_fog::script::{command, run_line};
use muster_testkit::remote::Two;

const SCRIPT: &str = include_str!("../../../examples/scripts/deployment.jsonl");

/// The host plays North from the shipped battle, never unlocked for South:
/// South's key is on South's machine only.
fn two() -> Two<Battle> {
    let host = battle_from_json(TERRAIN_BATTLE).unwrap();
    let joiner = terrain_battle();
    Two::new(host, joiner, Side::South)
}

/// The side a script line is given by.
fn side_of(line: &str) -> Side {
    if line.contains("\"side\": \"south\"") {
        Side::South
    } else {
        Side::North
    }
}

/// Plays the example deployment through both machines, its typed dice for
/// who moves first made app dice (both machines'), up to `until` lines. A
/// line is refused on its machine exactly when one machine alone refuses it
/// (the example refuses some on purpose), and nothing of it crosses.
fn deploy(t: &mut Two<Battle>, until: &str) {
    let mut alone = terrain_battle();
    for (n, line) in SCRIPT.lines().enumerate() {
        if line.contains(until) {
            return;
        }
        let line = line.replace("\"dice\": [3]", "\"dice\": \"app\"");
        let line = line.replace("\"dice\": [5]", "\"dice\": \"app\"");
        let side = side_of(&line);
        let alone_took = run_line(&mut alone, &line, n + 1)["ok"] == true;
        let crossed = (t.to_host.len(), t.to_joiner.len());
        let (battle, _) = t.machine(side);
        let took = match command(battle, &line, n + 1) {
            Ok(Some(command)) => t.give(side, command).is_ok(),
            Ok(None) => true,
            Err(_) => false,
        };
        assert_eq!(took, alone_took, "line {}: {line}", n + 1);
        if !took {
            assert_eq!(crossed, (t.to_host.len(), t.to_joiner.len()));
        }
        assert!(
            t.troubles().is_empty(),
            "line {}: {:?}",
            n + 1,
            t.troubles()
        );
    }
}

#[test]
fn the_example_deployment_played_from_two_machines_makes_one_log() {
    let mut t = two();
    deploy(&mut t, "\"end_turn\"");
    assert!(t.same(), "the two logs differ");
    let host = &t.host.0;
    assert_eq!(host.phase(), t.joiner.0.phase());
    // Who moves first was rolled by both machines, and says so.
    let joint: Vec<_> = host
        .log()
        .iter()
        .flat_map(|e| e.events.iter().flat_map(Event::rolls))
        .filter(|r| matches!(r.source, DiceSource::Joint(_)))
        .collect();
    assert_eq!(joint.len(), 2, "both moves-first rolls");
    assert!(
        joint
            .iter()
            .all(|r| r.by().starts_with("both machines' dice"))
    );
    // Each machine holds the other player's tags: South's, made on his
    // machine, check when he unlocks the host's copy.
    let mut copy = host.clone();
    copy.unlock(Side::South, EXAMPLE_PASSPHRASE)
        .expect("every entry carries South's tag, made on his machine");
}

/// The attack, by the host's own program: it logs every byte it received.
/// Nothing South sealed is there (what his ambushes and his march hold),
/// nor his passphrase, nor his key.
#[test]
fn the_host_receives_no_secret_of_the_joiners() {
    let mut t = two();
    deploy(&mut t, "\"end_turn\"");
    let received = t.to_host.join("\n");
    assert!(!received.contains(EXAMPLE_PASSPHRASE));
    let key = t
        .joiner
        .0
        .seal_key(Side::South, EXAMPLE_PASSPHRASE)
        .unwrap();
    assert!(!key.appears_in(&received));
    let army = t.joiner.0.state().armies[Side::South].clone().unwrap();
    // His ambushes hold battle groups 0 and 6; his march 7 and 8: none is
    // named in what crossed while they were sealed.
    for bg in [0, 6, 7, 8] {
        let name = &army.bgs[bg].name;
        assert!(
            !received.contains(name.as_str()),
            "{name} crossed to the host"
        );
    }
    assert!(!received.contains("\"content\""));
    // What the host holds of them is sealed: its own copy cannot say.
    assert!(t.host.0.seal_key(Side::South, "a guess").is_err());
}

/// A changed host's roll of who moves first: it sends its entry with the
/// roll rewritten by `change`. What South's machine said, and whether his
/// log stayed as it was.
fn host_rewrites_its_roll(change: impl Fn(&mut muster_core::dice::Roll)) -> (Vec<String>, bool) {
    let mut t = two();
    deploy(&mut t, "\"roll_moves_first\", \"side\": \"north\"");
    let before = t.joiner.0.log().len();
    let line = r#"{"cmd": "roll_moves_first", "side": "north", "dice": "app"}"#;
    let command = command(&mut t.host.0, line, 1).unwrap().unwrap();
    let (game, play) = &mut t.host;
    play.give(game, command).unwrap();
    // The joiner's half goes; the host opens its round, then sends its
    // entry changed.
    loop {
        let from_joiner = t.joiner.1.outbox();
        for m in &from_joiner {
            let (g, p) = &mut t.host;
            p.receive(g, m.clone());
        }
        let mut from_host = t.host.1.outbox();
        if from_host.is_empty() && from_joiner.is_empty() {
            break;
        }
        for m in &mut from_host {
            if let muster_core::remote::Wire::Entry { entry, .. } = m {
                for event in &mut entry.events {
                    if let Event::MovesFirstRolled { roll, .. } = event {
                        change(roll);
                    }
                }
            }
            let (g, p) = &mut t.joiner;
            t.said.extend(p.receive(g, m.clone()));
        }
    }
    (t.troubles(), t.joiner.0.log().len() == before)
}

/// The attack: a changed host logs a die of its choosing for its own roll
/// of who moves first. South's machine derives the die from both halves
/// and names it, and takes nothing.
#[test]
fn a_die_the_host_chose_is_named_on_the_joiners_machine() {
    let (troubles, unchanged) = host_rewrites_its_roll(|roll| {
        roll.dice[0] = roll.dice[0] % 6 + 1;
        roll.total = i32::from(roll.dice[0]);
    });
    assert!(troubles.iter().any(|t| t.contains("chose")), "{troubles:?}");
    assert!(unchanged, "the chosen die is not taken");
}

/// The attack: a changed host logs its roll as drawn by its machine alone,
/// a face of its choosing. South's machine names it: every die of a remote
/// game is made by both.
#[test]
fn a_die_one_machine_drew_alone_is_named() {
    let (troubles, unchanged) = host_rewrites_its_roll(|roll| {
        roll.source = DiceSource::App {};
        roll.dice[0] = 6;
        roll.total = 6;
    });
    assert!(
        troubles
            .iter()
            .any(|t| t.contains("drawn by one machine alone")),
        "{troubles:?}"
    );
    assert!(unchanged, "the lone die is not taken");
}

/// The host gives a move of South's: its own machine refuses it, saying
/// South plays from his. The attack, by a changed host that sends it
/// anyway as an entry of its log: South's machine names it and takes
/// nothing.
#[test]
fn a_move_of_souths_given_on_the_host_is_refused_there_and_named_on_souths() {
    let mut t = two();
    deploy(
        &mut t,
        "\"deploy_batch\", \"side\": \"south\", \"bgs\": [1, 2, 3]",
    );
    let line = r#"{"cmd": "deploy_batch", "side": "south", "bgs": [1, 2]}"#;
    let command = command(&mut t.host.0, line, 1).unwrap().unwrap();
    let refused = t.give(Side::North, command.clone()).unwrap_err();
    assert!(
        refused.contains("plays from the other machine"),
        "{refused}"
    );
    // The changed host appends it to its own log and sends it.
    let before = t.joiner.0.log().len();
    let (game, _) = &mut t.host;
    let entry = muster_core::remote::Replica::decide(
        game,
        &command,
        &mut muster_core::dice::AppDice::Wanted,
    )
    .expect("legal for South");
    muster_core::remote::Replica::append(game, entry.clone()).unwrap();
    let position = t.host.0.log().len() - 1;
    let link = muster_core::remote::Replica::link(&t.host.0, position + 1).unwrap();
    let (g, p) = &mut t.joiner;
    let said = p.receive(
        g,
        muster_core::remote::Wire::Entry {
            position,
            entry,
            link: muster_core::remote::Hex32(link),
            answers: None,
        },
    );
    t.said.extend(said);
    let troubles = t.troubles();
    assert!(
        troubles
            .iter()
            .any(|t| t.contains("plays from the other machine") && t.contains("nothing was taken")),
        "{troubles:?}"
    );
    assert_eq!(t.joiner.0.log().len(), before);
}
