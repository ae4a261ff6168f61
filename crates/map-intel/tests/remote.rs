//! Hidden forces from two machines, talking in memory as their links do
//! (docs: "Playing remotely"): each machine holds its own player's key
//! only; each command is decided on the machine whose key it needs, the
//! steps the rules force on the machine of the side that owes them; the
//! other follows. And the attacks of a machine whose program was changed.

use muster_core::intel::Lock;
use muster_core::remote::{Happened, Replica, Wire};
use muster_core::seat::Seated;
use muster_core::side::{Side, Sides};
use muster_map_intel::game::Entry;
use muster_map_intel::{Command, Event, Game, Hex, Scenario, Setup, Target};

use muster_testkit::remote::{PASSES, keys};

fn hex(name: &str) -> Hex {
    Hex::parse(name).unwrap()
}

type Two = muster_testkit::remote::Two<Game>;

/// The game begun at one table (both passphrases set there), then hosted
/// by South's machine for North's.
fn two() -> Two {
    two_with(true)
}

/// `two`, North's passphrase set at the table (`north_locks`) or left for
/// him to set on his own machine.
fn two_with(north_locks: bool) -> Two {
    let k = keys();
    let north = north_locks.then_some(&k.north);
    let setup = Setup {
        scenario: Scenario::example(),
        players: Sides {
            south: "Ann".into(),
            north: "Bob".into(),
        },
        locks: Sides {
            south: Some(k.south.0.clone()),
            north: north.map(|n| n.0.clone()),
        },
    };
    let begun = Game::new(
        setup,
        Sides {
            south: Some(k.south.1.clone()),
            north: north.map(|n| n.1.clone()),
        },
    )
    .unwrap();
    let file = begun.file();
    let mut h = Game::from_file(&file).unwrap();
    h.unlock_key(Side::South, &k.south.1).unwrap();
    let mut j = Game::from_file(&file).unwrap();
    if let Some(n) = north {
        j.unlock_key(Side::North, &n.1).unwrap();
    }
    Two::new(h, j, Side::North)
}

/// South ends the game in his turn; each machine finds the other's
/// records hold.
fn ended_and_both_audited(t: &mut Two) {
    give(t, Side::South, Command::EndGame);
    let audited = t
        .said
        .iter()
        .filter(|h| matches!(h, Happened::Audited(_)))
        .count();
    assert_eq!(audited, 2, "{:?}", t.troubles());
}

/// `command` given on `side`'s machine; it must be taken.
fn give(t: &mut Two, side: Side, command: Command) {
    t.give(side, command).unwrap();
}

/// Both machines hold one log, chained alike.
fn one_log(t: &Two) {
    assert!(t.same(), "the two logs differ");
}

/// A new force of `units` from `side`'s off-map area in `at`, given on his
/// machine.
fn deploy(t: &mut Two, side: Side, at: &str, units: &[&str]) -> usize {
    let from = t
        .host
        .0
        .public()
        .area(side, muster_map_intel::Area::OffMap)
        .unwrap()
        .id;
    give(
        t,
        side,
        Command::Transfer {
            side,
            from,
            to: Target::NewForce(hex(at)),
            units: units.iter().map(|u| u.to_string()).collect(),
        },
    );
    t.host.0.public().holders.len() - 1
}

/// A set-up: South's legions in 0505; North's cataphracts in 0909 and his
/// horse archers, never revealed, in 1212. South begins.
fn contact(t: &mut Two) -> (usize, usize) {
    let legions = deploy(t, Side::South, "0505", &["r-leg-3", "r-leg-6"]);
    let cataphracts = deploy(t, Side::North, "0909", &["p-cat-1"]);
    deploy(t, Side::North, "1212", &["p-ha-2", "p-ha-3"]);
    give(t, Side::North, Command::Begin { first: Side::South });
    (legions, cataphracts)
}

/// The whole path of an entry into enemy counters, and a combat: each step
/// on the machine whose key it needs, both logs one, each machine holding
/// its own key only; and nothing of North's never-revealed force nor of
/// his off-map area ever crosses to South's machine.
#[test]
fn an_entry_and_a_combat_are_decided_each_on_the_owners_machine() {
    let mut t = two();
    let (legions, cataphracts) = contact(&mut t);
    one_log(&t);
    assert!(t.host.0.keys()[Side::North].is_none());
    assert!(t.joiner.0.keys()[Side::South].is_none());

    give(
        &mut t,
        Side::South,
        Command::Move {
            id: legions,
            to: hex("0909"),
        },
    );
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    one_log(&t);
    let reasons: Vec<(usize, muster_map_intel::Reason)> = t
        .host
        .0
        .log()
        .iter()
        .flat_map(|e| &e.events)
        .filter_map(|e| match e {
            Event::Revealed { id, reason, .. } => Some((*id, *reason)),
            _ => None,
        })
        .collect();
    use muster_map_intel::Reason::*;
    assert_eq!(
        reasons,
        vec![(cataphracts, EnemyEntered), (legions, EnteredEnemy)]
    );
    assert_eq!(t.host.0.forced(), None);

    give(&mut t, Side::South, Command::Combat { hex: hex("0909") });
    one_log(&t);
    give(&mut t, Side::South, Command::EndTurn);
    one_log(&t);
    assert_eq!(t.host.0.public().active, Some(Side::North));

    // North's Agent on South's off-map area: the log says it was examined;
    // what it holds comes from South's machine to North's alone, checked
    // there against its record, and shows on his ledger only.
    let off_map = t
        .host
        .0
        .public()
        .area(Side::South, muster_map_intel::Area::OffMap)
        .unwrap()
        .id;
    give(
        &mut t,
        Side::North,
        Command::SpendAgent {
            by: Side::North,
            id: off_map,
        },
    );
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    one_log(&t);
    let seen = t.joiner.0.view(Side::North).holders[off_map].units.clone();
    assert_eq!(
        seen.as_deref().map(|u| u.contains(&"r-leg-10".to_string())),
        Some(true),
        "{seen:?}"
    );
    assert_eq!(t.joiner.0.table_view().holders[off_map].units, None);
    assert!(t.host.0.log_lines().join("\n").contains("examines"));
    // North's Muster restarts (and the host's hosts again): what his Agent
    // saw is shown to him again, since it still holds.
    let k = keys();
    let mut host = Game::from_file(&t.host.0.file()).unwrap();
    host.unlock_key(Side::South, &k.south.1).unwrap();
    let mut joiner = Game::from_file(&t.joiner.0.file()).unwrap();
    joiner.unlock_key(Side::North, &k.north.1).unwrap();
    let again = Two::new(host, joiner, Side::North);
    assert!(again.troubles().is_empty(), "{:?}", again.troubles());
    assert_eq!(
        again.joiner.0.view(Side::North).holders[off_map].units,
        seen
    );
    // The attack: South's machine, changed, shows other units than its
    // record holds. North's machine refuses them, naming the counter.
    let private = t
        .to_joiner
        .iter()
        .rev()
        .find(|m| m.contains(r#""type":"private""#))
        .expect("the examination crossed")
        .replace("r-leg-10", "r-aux-2");
    let (g, p) = &mut t.joiner;
    let said = p.receive(g, serde_json::from_str(&private).unwrap());
    let _ = p.outbox();
    assert!(
        said.iter().any(|h| matches!(h, Happened::Trouble(why)
            if why.contains(&format!("counter {off_map}")))),
        "{said:?}"
    );

    // North's face-down horse archers and what his off-map area holds
    // never crossed to South's machine.
    for secret in [
        "p-ha-2", "p-ha-3", "p-cat-2", "p-inf-1", "Hyrcania", "Margiana",
    ] {
        assert!(
            t.to_host.iter().all(|m| !m.contains(secret)),
            "{secret} reached South's machine"
        );
    }
    // Nor any passphrase.
    for m in t.to_host.iter().chain(&t.to_joiner) {
        assert!(!PASSES.iter().any(|p| m.contains(p)));
    }
}

/// The attacks, by North's machine running a changed program: it sends
/// an entry in South's turn, one that moves a counter of South's, and one
/// that seals a record of his as South's. Each is named on South's machine
/// and nothing is taken.
#[test]
fn a_changed_joiner_cannot_play_out_of_turn_or_touch_what_is_not_his() {
    let mut t = two();
    let (legions, cataphracts) = contact(&mut t);
    // His own machine refuses the move out of turn, by the rules.
    let refused = Replica::decide(
        &t.joiner.0,
        &Command::Move {
            id: cataphracts,
            to: hex("0808"),
        },
        &mut muster_core::dice::AppDice::Wanted,
    )
    .unwrap_err();
    assert!(refused.message.contains("It is Ann"), "{refused}");

    let forged = |t: &Two, events: Vec<Event>| t.forged(Entry { events });
    let out_of_turn = forged(
        &t,
        vec![Event::Moved {
            id: cataphracts,
            from: hex("0909"),
            to: hex("0808"),
        }],
    );
    t.refused_by_host(out_of_turn, "it is Ann's (Rome) turn");

    give(&mut t, Side::South, Command::EndTurn);
    // A move of South's counter alone is not North's move at all; with
    // one of his own first, it is his entry touching what is not his.
    let souths_move = Event::Moved {
        id: legions,
        from: hex("0505"),
        to: hex("0606"),
    };
    let alone = forged(&t, vec![souths_move.clone()]);
    t.refused_by_host(alone, "that move is theirs, given on their machine");
    let behind_his = forged(
        &t,
        vec![
            Event::Moved {
                id: cataphracts,
                from: hex("0909"),
                to: hex("0808"),
            },
            souths_move,
        ],
    );
    t.refused_by_host(
        behind_his,
        &format!("changes counter {legions}, which is not theirs"),
    );

    let public = t.host.0.public();
    let souths = public
        .area(Side::South, muster_map_intel::Area::OffMap)
        .unwrap();
    let norths = public
        .area(Side::North, muster_map_intel::Area::OffMap)
        .unwrap()
        .id;
    let sealed_as_south = forged(
        &t,
        vec![Event::Changed {
            id: norths,
            contents: souths.contents.clone(),
        }],
    );
    t.refused_by_host(sealed_as_south, "a record sealed as Ann's (Rome)");
}

/// North's machine, changed, keeps from South's what it cannot see during
/// the game: a false word on what his counters hold, never shown, and a
/// regrouping that copies a unit, sealed under his own key. South's
/// machine takes both then. At the game's end each machine sends its
/// player's records opened (no key crosses), and South's names both;
/// North's finds South's records all hold.
#[test]
fn at_the_games_end_each_machine_checks_what_the_other_kept_hidden() {
    let mut t = two();
    deploy(&mut t, Side::South, "0505", &["r-leg-3"]);
    give(
        &mut t,
        Side::South,
        Command::PlaceExercitus {
            side: Side::South,
            number: 1,
            hex: hex("0707"),
            units: vec![],
        },
    );
    deploy(&mut t, Side::North, "0909", &["p-cat-1"]);
    let archers = deploy(&mut t, Side::North, "1212", &["p-ha-2", "p-ha-3"]);
    give(&mut t, Side::North, Command::Begin { first: Side::South });
    let bluff = t.host.0.public().exercitus(Side::South, 1).unwrap().id;

    // South's empty Exercitus enters the cataphracts' hex; North's machine
    // answers that his counters there hold no units, which nothing shows.
    let (g, p) = &mut t.host;
    p.give(
        g,
        Command::Move {
            id: bluff,
            to: hex("0909"),
        },
    )
    .unwrap();
    t.sent_changed(Side::South, |_| {});
    t.sent_changed(Side::North, |m| {
        if let Wire::Decided { entry, .. } = m {
            for e in &mut entry.events {
                if let Event::Answered { holds, .. } = e {
                    assert_eq!(*holds, Some(true), "the honest answer");
                    *holds = Some(false);
                }
            }
        }
    });
    t.pump();
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    one_log(&t);
    assert_eq!(t.host.0.public().claims.len(), 2, "both words unchecked");
    give(&mut t, Side::South, Command::EndTurn);

    // North's horse archers split, the first record still holding both.
    let seals = t.host.0.public().holders[archers].seals;
    let game_id = t.host.0.id().to_string();
    let (g, p) = &mut t.joiner;
    p.give(
        g,
        Command::Transfer {
            side: Side::North,
            from: archers,
            to: Target::NewForce(hex("1212")),
            units: vec!["p-ha-3".into()],
        },
    )
    .unwrap();
    let key = keys().north.1.seal_key();
    t.sent_changed(Side::North, |m| {
        if let Wire::Decided { entry, .. } = m {
            for e in &mut entry.events {
                if let Event::Changed { id, contents } = e
                    && *id == archers
                {
                    let place = muster_core::intel::Place {
                        game: &game_id,
                        owner: Side::North,
                        kind: "holder",
                        slot: format!("holder {archers} seal {}", seals + 1),
                    };
                    let both = vec!["p-ha-2".to_string(), "p-ha-3".to_string()];
                    let sealed = muster_core::intel::Sealed::seal(
                        &place,
                        &both,
                        &key,
                        muster_map_intel::scenario::SEALED_BYTES,
                    )
                    .unwrap();
                    *contents = muster_map_intel::Contents::Sealed(sealed.into());
                }
            }
        }
    });
    t.pump();
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    one_log(&t);

    give(&mut t, Side::North, Command::EndGame);
    one_log(&t);
    let troubles = t.troubles().join("\n");
    assert!(
        troubles.contains("Horse archers") || troubles.contains("p-ha-3"),
        "{troubles}"
    );
    assert!(troubles.contains("two places"), "{troubles}");
    assert!(
        troubles
            .contains("FALSE CLAIM: Bob (Parthia) had said their counters in 0909 held no units"),
        "{troubles}"
    );
    assert!(
        t.said
            .iter()
            .any(|h| matches!(h, Happened::Audited(words) if words.starts_with("Ann's (Rome)"))),
        "{:?}",
        t.said
    );
    // Nothing more is played.
    assert!(t.give(Side::South, Command::EndTurn).is_err());
    // His records crossed opened; no key did, nor any passphrase.
    assert!(t.to_host.iter().any(|m| m.contains(r#""type":"records""#)));
    for m in t.to_host.iter().chain(&t.to_joiner) {
        assert!(!key.appears_in(m) && !keys().south.1.seal_key().appears_in(m));
        assert!(!PASSES.iter().any(|p| m.contains(p)));
    }
}

/// An honest game ended: each machine finds the other's records hold.
/// Records changed on the way, or sent before the end, are refused.
#[test]
fn records_changed_on_the_way_or_sent_early_are_refused() {
    let mut t = two();
    contact(&mut t);
    let (g, p) = &mut t.joiner;
    let early = g.file();
    let said = p.receive(g, Wire::Records { body: early });
    let _ = p.outbox();
    assert!(
        said.iter().any(
            |h| matches!(h, Happened::Trouble(why) if why.contains("before the game is over"))
        ),
        "{said:?}"
    );
    ended_and_both_audited(&mut t);
    let records = t
        .to_joiner
        .iter()
        .find(|m| m.contains(r#""type":"records""#))
        .unwrap()
        .replace("r-leg-6", "r-leg-7");
    let (g, p) = &mut t.joiner;
    let said = p.receive(g, serde_json::from_str(&records).unwrap());
    assert!(
        said.iter()
            .any(|h| matches!(h, Happened::Trouble(why) if why.contains("is not what was sealed"))),
        "{said:?}"
    );
}

/// A game begun with Ann's passphrase alone and hosted for Bob, who sets
/// his on his own machine once he has joined: his records are sealed anew
/// under it there, he tags every entry from the first, and Ann's machine
/// never holds his key or passphrase. Both machines' files reopen under
/// his passphrase, his records before it and after it check, and at the
/// game's end each machine finds the other's hold.
#[test]
fn a_joiner_sets_his_passphrase_on_his_own_machine() {
    let k = keys();
    let mut t = two_with(false);
    // Before his passphrase, what he holds is open to any Muster.
    deploy(&mut t, Side::North, "0909", &["p-cat-1"]);

    // The host's machine cannot set one of its own choosing for him.
    let (lock, key) = Lock::create("kestrel bison chestnut cliff pine falcon", &[]).unwrap();
    let (g, p) = &mut t.host;
    let theirs = muster_core::seat::Seated::set_lock(g, Side::North, lock, key).unwrap();
    let refused = p.give(g, theirs).unwrap_err();
    assert!(
        refused.message.contains("plays from the other machine"),
        "{refused}"
    );

    let (g, _) = &mut t.joiner;
    let command =
        muster_core::seat::Seated::set_lock(g, Side::North, k.north.0.clone(), k.north.1.clone())
            .unwrap();
    give(&mut t, Side::North, command);
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    one_log(&t);
    assert_eq!(
        muster_core::seat::Seated::lock_of(&t.host.0, Side::North),
        Some(k.north.0.clone())
    );
    assert!(t.host.0.keys()[Side::North].is_none());
    assert!(
        t.host
            .0
            .log_lines()
            .join("\n")
            .contains("Bob (Parthia) sets a passphrase on their own machine")
    );
    deploy(&mut t, Side::North, "1212", &["p-ha-2", "p-ha-3"]);
    deploy(&mut t, Side::South, "0505", &["r-leg-3"]);
    give(&mut t, Side::North, Command::Begin { first: Side::South });
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    one_log(&t);
    // It is set once.
    let (g, _) = &mut t.joiner;
    assert!(
        muster_core::seat::Seated::set_lock(g, Side::North, k.north.0.clone(), k.north.1.clone())
            .is_err()
    );

    // Each machine's file opens under his passphrase: every tag of his
    // holds, from the first entry, and his records before and after it.
    for copy in [t.host.0.file(), t.joiner.0.file()] {
        let mut reopened = Game::from_file(&copy).unwrap();
        assert_eq!(reopened.locked_sides(), vec![Side::South, Side::North]);
        reopened.unlock_key(Side::North, &k.north.1).unwrap();
    }
    // Ann's machine never received his key, his passphrase, or what his
    // horse archers hold.
    let his = k.north.1.seal_key();
    for m in &t.to_host {
        assert!(!his.appears_in(m) && !m.contains(PASSES[1]) && !m.contains("p-ha-2"));
    }

    ended_and_both_audited(&mut t);
}

/// Bob's Muster stops after sending his move and before it comes back:
/// the host took it, with his tag of it sent beside it. Restarted on his
/// older copy, his machine takes the host's game (the move proven his by
/// his own tag), and he unlocks and plays on. A move of his the host made
/// up carries no tag of his, or one his unlock refuses.
#[test]
fn a_joiner_stopped_before_his_move_came_back_finds_it_his() {
    use muster_core::remote::Hex32;
    let k = keys();
    // His move reaches the host's machine, its tag changed on the way by
    // `change`; nothing comes back. His older copy, and the host's game
    // as its file holds it.
    let stopped = |change: &dyn Fn(&mut Option<Hex32>)| -> (Game, Game) {
        let mut t = two();
        let (_, cataphracts) = contact(&mut t);
        give(&mut t, Side::South, Command::EndTurn);
        let older = t.joiner.0.clone();
        let (g, p) = &mut t.joiner;
        let step = Command::Move {
            id: cataphracts,
            to: hex("0808"),
        };
        p.give(g, step).unwrap();
        for mut m in t.joiner.1.outbox() {
            if let Wire::Decided { tag, .. } = &mut m {
                change(tag);
            }
            let (g, p) = &mut t.host;
            let said = p.receive(g, m);
            assert!(
                !said.iter().any(|h| matches!(h, Happened::Trouble(_))),
                "{said:?}"
            );
        }
        (older, Game::from_file(&t.host.0.file()).unwrap())
    };
    let back = |older: &Game, mut fresh: Game| -> Result<Game, String> {
        muster_core::remote::arrived(&mut fresh, Some(older), Side::North)?;
        fresh
            .unlock_key(Side::North, &k.north.1)
            .map_err(|e| e.message)?;
        Ok(fresh)
    };

    let (older, host) = stopped(&|_| {});
    let fresh = back(&older, host).expect("his own move, proven by his tag");
    assert_eq!(fresh.log().len(), older.log().len() + 1);

    let (older, host) = stopped(&|tag| *tag = None);
    let why = back(&older, host).unwrap_err();
    assert!(
        why.contains("a move of Bob's (Parthia) this machine never made"),
        "{why}"
    );

    let (older, host) = stopped(&|tag| *tag = Some(Hex32([7; 32])));
    let why = back(&older, host).unwrap_err();
    assert!(why.contains("does not carry a valid tag of"), "{why}");
}

/// An empty Exercitus revealed in the other player's turn is its owner's
/// to place again or leave off at once, from his own machine (A4 ruling):
/// Bob's in Ann's turn, then Ann's in Bob's. Each machine takes the
/// other's step, and play goes on.
#[test]
fn an_empty_exercitus_is_placed_again_by_its_owner_in_the_other_players_turn() {
    let mut t = two();
    let legions = deploy(&mut t, Side::South, "0505", &["r-leg-3"]);
    for (side, at) in [(Side::South, "0707"), (Side::North, "0606")] {
        give(
            &mut t,
            side,
            Command::PlaceExercitus {
                side,
                number: 1,
                hex: hex(at),
                units: vec![],
            },
        );
    }
    let cataphracts = deploy(&mut t, Side::North, "0909", &["p-cat-1"]);
    give(&mut t, Side::North, Command::Begin { first: Side::South });

    give(
        &mut t,
        Side::South,
        Command::Move {
            id: legions,
            to: hex("0606"),
        },
    );
    assert_eq!(t.host.0.public().may_replace, vec![(Side::North, 1)]);
    give(
        &mut t,
        Side::North,
        Command::ToExercitus {
            id: cataphracts,
            number: 1,
        },
    );
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    one_log(&t);
    give(&mut t, Side::South, Command::EndTurn);

    let replaced = t.host.0.public().exercitus(Side::North, 1).unwrap().id;
    give(
        &mut t,
        Side::North,
        Command::Move {
            id: replaced,
            to: hex("0707"),
        },
    );
    assert_eq!(t.host.0.public().may_replace, vec![(Side::South, 1)]);
    give(
        &mut t,
        Side::South,
        Command::DeclineReplace {
            side: Side::South,
            number: 1,
        },
    );
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    one_log(&t);
    give(&mut t, Side::North, Command::EndTurn);
    one_log(&t);
}
