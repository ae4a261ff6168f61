//! Dummy wings from two machines, talking in memory as their links do
//! (docs: "Playing remotely"): each machine holds its own player's key
//! only; the moving side calls the line and flips its Wing on its machine,
//! the stationary side shows its own on his, the roll is made by both;
//! and the attacks of a machine whose program was changed.

use muster_core::dice::{AppKeyword, DiceInput};
use muster_core::intel::{Place, Sealed};
use muster_core::remote::{Happened, Replica, Wire};
use muster_core::side::{Side, Sides};
use muster_map_intel::map::Hex;
use muster_map_intel::wings::events::Pending;
use muster_map_intel::wings::formation::Formation;
use muster_map_intel::wings::game::{Command, Composition, Entry, Event, Game, Setup, WingUnit};
use muster_map_intel::wings::placement::Arm;
use muster_map_intel::wings::scenario::{Type, builtin};

use muster_testkit::remote::{PASSES, keys};

fn hex(name: &str) -> Hex {
    Hex::parse(name).unwrap()
}

fn unit(id: &str, arm: Arm, ma: u32, ic: u32, rating: Option<u32>) -> WingUnit {
    WingUnit {
        id: id.into(),
        name: format!("{id} name"),
        arm,
        ma,
        ic,
        rating,
        commander: false,
    }
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

type Two = muster_testkit::remote::Two<Game>;

/// Seydlitz's cavalry Wing: real, rating 4, in column.
fn seydlitz() -> Composition {
    wing(
        &["p-cav-1", "p-cav-2", "p-cav-3", "p-cav-4", "seydlitz"],
        4,
        Formation::InColumn,
    )
}

/// The French infantry Wing: real, rating 4, deployed.
fn infantry() -> Composition {
    wing(
        &["f-inf-1", "f-inf-2", "f-inf-3", "f-inf-4"],
        4,
        Formation::Deployed,
    )
}

/// After a roll South's Wing won or lost: no shift, and each Wing placed
/// by its owner in the formation its rule gives (deployed where he may
/// choose).
fn placed_after_the_roll(t: &mut Two) {
    if matches!(t.host.0.public().pending, Some(Pending::Adjust { .. })) {
        give(t, Side::South, Command::Adjust { to: None });
    }
    let Some(Pending::Place { wings }) = t.host.0.public().pending.clone() else {
        panic!("{:?}", t.host.0.public().pending);
    };
    for (id, rule) in wings {
        let side = t.host.0.public().counters[id].side;
        let formation = rule.must.unwrap_or(Formation::Deployed);
        give(t, side, Command::Deploy { id, formation });
    }
}

/// Rossbach, begun at one table with both passphrases set, then hosted
/// by South's machine (Fritz) for North's (Charles).
fn two() -> Two {
    two_with(true)
}

/// `two`, North's passphrase set at the table (`north_locks`) or left for
/// him to set on his own machine.
fn two_with(north_locks: bool) -> Two {
    let k = keys();
    let north = north_locks.then_some(&k.north);
    let battle = builtin().into_iter().find(|b| b.id == "rossbach").unwrap();
    let setup = Setup {
        battle,
        players: Sides {
            south: "Fritz".into(),
            north: "Charles".into(),
        },
        armies: Sides {
            south: vec![
                unit("p-cav-1", Arm::Cavalry, 5, 9, None),
                unit("p-cav-2", Arm::Cavalry, 6, 10, None),
                unit("p-cav-3", Arm::Cavalry, 6, 10, None),
                unit("p-cav-4", Arm::Cavalry, 6, 10, None),
                unit("seydlitz", Arm::Leader, 8, 12, Some(5)),
                unit("p-inf-1", Arm::Infantry, 3, 6, None),
            ],
            north: vec![
                unit("f-inf-1", Arm::Infantry, 3, 6, None),
                unit("f-inf-2", Arm::Infantry, 3, 6, None),
                unit("f-inf-3", Arm::Infantry, 4, 7, None),
                unit("f-inf-4", Arm::Infantry, 3, 6, None),
                unit("f-cav-1", Arm::Cavalry, 5, 9, None),
            ],
        },
        activated: Sides {
            south: true,
            north: false,
        },
        detachments: Sides::default(),
        locks: Sides {
            south: Some(k.south.0.clone()),
            north: north.map(|n| n.0.clone()),
        },
    };
    let both = Sides {
        south: Some(k.south.1.clone()),
        north: north.map(|n| n.1.clone()),
    };
    let begun = Game::new(setup, both, Default::default()).unwrap();
    let file = begun.file();
    let mut h = Game::from_file(&file).unwrap();
    h.unlock_key(Side::South, &k.south.1).unwrap();
    let mut j = Game::from_file(&file).unwrap();
    if let Some(n) = north {
        j.unlock_key(Side::North, &n.1).unwrap();
    }
    Two::new(h, j, Side::North)
}

fn give(t: &mut Two, side: Side, command: Command) {
    t.give(side, command).unwrap();
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    assert!(t.same(), "the two logs differ");
}

fn place(t: &mut Two, side: Side, kind: Type, at: [&str; 3], c: Composition) -> usize {
    give(
        t,
        side,
        Command::PlaceWing {
            side,
            kind,
            detachment: false,
            leader: hex(at[0]),
            dis: [hex(at[1]), hex(at[2])],
            composition: c,
        },
    );
    t.host.0.public().counters.len() - 1
}

/// Seydlitz's cavalry (South, real, rating 4, in column) in 1005, a South
/// Inf dummy far off; the French infantry (North, real, rating 4,
/// deployed) in 1020 and the French cavalry, never met, in 3020. South
/// moves first.
struct Set {
    cav: usize,
    french: usize,
    french_cav: Composition,
    dummy: Composition,
}

fn set_up(t: &mut Two) -> Set {
    let seydlitz = seydlitz();
    let cav = place(
        t,
        Side::South,
        Type::Cav,
        ["1005", "1004", "1003"],
        seydlitz,
    );
    let dummy = Composition::dummy(Formation::InColumn);
    place(
        t,
        Side::South,
        Type::Inf,
        ["2005", "2004", "2006"],
        dummy.clone(),
    );
    let infantry = infantry();
    let french = place(
        t,
        Side::North,
        Type::Inf,
        ["1020", "1021", "1121"],
        infantry,
    );
    let french_cav = wing(&["f-cav-1"], 2, Formation::InColumn);
    place(
        t,
        Side::North,
        Type::Cav,
        ["3020", "3021", "3019"],
        french_cav.clone(),
    );
    give(t, Side::North, Command::Begin { first: Side::South });
    Set {
        cav,
        french,
        french_cav,
        dummy,
    }
}

/// `side`'s counter `id` moves its leader and Dis counters straight
/// toward `to`, given on his machine.
fn move_toward(t: &mut Two, side: Side, id: usize, to: [&str; 3]) {
    let c = t.host.0.public().counters[id].clone();
    let map = &t.host.0.setup().battle.map;
    let path = |from: Hex, to: &str| {
        let to = hex(to);
        let mut out = Vec::new();
        let mut at = from;
        while at != to {
            at = (map.neighbours(at).into_iter())
                .min_by_key(|n| map.distance(*n, to))
                .unwrap();
            out.push(at);
        }
        out
    };
    let command = Command::Move {
        id,
        leader: path(c.leader, to[0]),
        dis: [path(c.dis[0], to[1]), path(c.dis[1], to[2])],
    };
    give(t, side, command);
}

/// Seydlitz moves straight to 1013, its Dis counters to 1012 and 1011:
/// the French infantry is 7 hexes off.
fn advance(t: &mut Two, cav: usize) {
    move_toward(t, Side::South, cav, ["1013", "1012", "1011"]);
}

const APP: DiceInput = DiceInput::App(AppKeyword::App);

/// The whole path of a spotting, each step on the machine whose key it
/// needs: South calls the line clear and flips Seydlitz on his; North's
/// machine shows the French infantry on its own, as the step the rules
/// force; the roll is made by both machines; each Wing is placed by its
/// owner's. Each machine holds its own key only, and nothing of a Wing
/// the other never met crosses to him.
#[test]
fn a_spotting_is_decided_on_each_owners_machine_and_the_roll_by_both() {
    let mut t = two();
    let set = set_up(&mut t);
    assert!(t.host.0.keys()[Side::North].is_none());
    assert!(t.joiner.0.keys()[Side::South].is_none());
    advance(&mut t, set.cav);
    // North's machine does not answer for South's Wing.
    assert!(t.give(Side::North, Command::Sight { clear: true }).is_err());
    give(&mut t, Side::South, Command::Sight { clear: true });
    let public = t.host.0.public();
    assert!(public.counters[set.french].face.unwrap().real, "shown");
    let Some(Pending::Roll { moving, stationary }) = &public.pending else {
        panic!("{:?}", public.pending);
    };
    assert_eq!((*moving, stationary.clone()), (set.cav, vec![set.french]));
    // The odds need Seydlitz's record: shown on his machine alone.
    assert!(t.host.0.odds().is_some());
    assert!(t.joiner.0.odds().is_none());

    give(
        &mut t,
        Side::South,
        Command::Roll {
            moving: APP,
            stationary: APP,
        },
    );
    let rolled = (t.host.0.log().iter().rev())
        .flat_map(|e| &e.events)
        .find_map(|e| match e {
            Event::Rolled { moving_roll, .. } => Some(moving_roll.clone()),
            _ => None,
        })
        .unwrap();
    assert!(rolled.joint().is_some(), "made by both machines");
    placed_after_the_roll(&mut t);
    assert!(t.host.0.public().pending.is_none());
    give(&mut t, Side::South, Command::EndTurn);

    // Never met, never shown: the French cavalry's record and South's
    // dummy's never crossed opened, nor any key or passphrase.
    let french_cav = serde_json::to_string(&set.french_cav).unwrap();
    let dummy = serde_json::to_string(&set.dummy).unwrap();
    assert!(!t.to_host.iter().any(|m| m.contains(&french_cav)));
    assert!(!t.to_joiner.iter().any(|m| m.contains(&dummy)));
    t.no_passphrase_or_key_crossed();
}

/// North's machine, changed: it says the French infantry adds less to the
/// deployment roll than its record holds (nothing can check it then), and
/// South's machine takes the word; when the Wing is placed its record
/// opens, and South's machine names the lie and refuses the placing. Its
/// other tries are refused at once: a move that passes an enemy Wing by
/// without stopping, Seydlitz turned face down with a record North made,
/// and a die the host did not roll with it.
#[test]
fn a_changed_program_is_caught_in_what_it_said_and_what_it_moved() {
    let mut t = two();
    let set = set_up(&mut t);
    advance(&mut t, set.cav);
    let (g, p) = &mut t.host;
    p.give(g, Command::Sight { clear: true }).unwrap();
    t.sent_changed(Side::South, |_| {});
    t.sent_changed(Side::North, |m| {
        if let Wire::Decided { entry, .. } = m {
            for e in &mut entry.events {
                if let Event::Claimed { modifiers, .. } = e {
                    assert_eq!(modifiers[0].value, 4, "the honest word");
                    modifiers[0].value = 1;
                }
            }
        }
    });
    t.pump();
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    let (_, stationary) = t.host.0.roll_modifiers().unwrap();
    assert_eq!(stationary[0].value, 1, "taken on his word");
    give(
        &mut t,
        Side::South,
        Command::Roll {
            moving: APP,
            stationary: APP,
        },
    );
    if matches!(t.host.0.public().pending, Some(Pending::Adjust { .. })) {
        give(&mut t, Side::South, Command::Adjust { to: None });
    }
    // His placing opens the record: it holds +4.
    let c = t.host.0.public().counters[set.french].clone();
    let id = t.host.0.id().to_string();
    let place = Place {
        game: &id,
        owner: Side::North,
        kind: "wing",
        slot: format!("counter {} seal {}", set.french, c.seals),
    };
    let contents = c
        .sealed
        .open::<Composition>(&keys().north.1.seal_key(), &place)
        .unwrap();
    let placing = t.forged(Entry {
        events: vec![Event::Deployed {
            id: set.french,
            formation: Formation::Deployed,
            contents: Some(contents),
        }],
    });
    t.refused_by_host(
        placing,
        "Charles's (Franco-Imperial) Muster said what was not so",
    );
}

/// What a move shows of itself, checked at once by the other machine
/// though it cannot open the Wing: a counter that went farther than the
/// hexes it says it moved, one that moved more than its side's fastest
/// unit could, and a move that asks nothing yet leaves its Dis
/// counters more than 2 hexes behind.
#[test]
fn a_move_farther_than_it_says_or_any_wing_could_or_leaving_its_dis_behind_is_refused() {
    let mut t = two();
    let set = set_up(&mut t);
    give(&mut t, Side::South, Command::EndTurn);
    let fastest = t.host.0.setup().fastest(Side::North);
    let moved = |leader: &str, dis: [&str; 2], hexes: u32, dis_hexes: [u32; 2]| Entry {
        events: vec![Event::Moved {
            id: set.french,
            leader: hex(leader),
            dis: dis.map(hex),
            hexes,
            dis_hexes,
        }],
    };
    let far = t.forged(moved("1017", ["1018", "1019"], 2, [3, 2]));
    t.refused_by_host(
        far,
        "went from 1020 to 1017, 3 hexes, in a move it says was 2",
    );
    let long = t.forged(moved("1019", ["1021", "1121"], fastest + 1, [0, 0]));
    t.refused_by_host(
        long,
        &format!("has moved {} hexes this turn: no Wing of", fastest + 1),
    );
    let behind = t.forged(moved("1017", ["1021", "1121"], 3, [0, 0]));
    t.refused_by_host(behind, "Dis counters stay within 2");
    // The same Wing moved as the rules have it is taken.
    move_toward(&mut t, Side::North, set.french, ["1017", "1018", "1118"]);
    assert_eq!(t.host.0.public().counters[set.french].leader, hex("1017"));
}

/// A changed program's moves that the other machine refuses at once.
#[test]
fn moves_passing_an_enemy_by_or_turning_down_anothers_wing_are_refused() {
    let mut t = two();
    let set = set_up(&mut t);
    give(&mut t, Side::South, Command::EndTurn);
    let french = t.host.0.public().counters[set.french].clone();
    // The French infantry walks to within 7 hexes of Seydlitz and asks
    // nothing.
    let passing = t.forged(Entry {
        events: vec![Event::Moved {
            id: set.french,
            leader: hex("1012"),
            dis: [hex("1013"), hex("1113")],
            hexes: 8,
            dis_hexes: [8, 8],
        }],
    });
    t.refused_by_host(passing, "an enemy was passed by");
    // Seydlitz turned face down by North's machine, with a record sealed
    // as South's but not by him.
    let slot = format!("counter {} seal 2", set.cav);
    let id = t.host.0.id().to_string();
    let place = Place {
        game: &id,
        owner: Side::South,
        kind: "wing",
        slot,
    };
    let sealed = Sealed::seal(
        &place,
        &Composition::dummy(Formation::Deployed),
        &keys().north.1.seal_key(),
        muster_map_intel::wings::game::SEALED_BYTES,
    )
    .unwrap();
    let down = t.forged(Entry {
        events: vec![
            Event::Moved {
                id: set.french,
                leader: french.leader,
                dis: [french.dis[0], french.dis[1]],
                hexes: 0,
                dis_hexes: [0, 0],
            },
            Event::TurnedDown {
                id: set.cav,
                sealed,
            },
        ],
    });
    t.refused_by_host(down, &format!("changes counter {}", set.cav));
    // The infantry deploys of its own accord, in column: its record opens,
    // and 27.4 places such a Wing deployed.
    let id = t.host.0.id().to_string();
    let place = Place {
        game: &id,
        owner: Side::North,
        kind: "wing",
        slot: format!("counter {} seal 1", set.french),
    };
    let contents = (french.sealed)
        .open::<Composition>(&keys().north.1.seal_key(), &place)
        .unwrap();
    let in_column = t.forged(Entry {
        events: vec![Event::Deployed {
            id: set.french,
            formation: Formation::InColumn,
            contents: Some(contents),
        }],
    });
    t.refused_by_host(in_column, "could not deploy of its own accord");
}

/// A die the host's machine chose, not the one both halves make: the
/// joiner's machine names it and takes nothing.
#[test]
fn a_deployment_die_the_host_chose_is_named() {
    let mut t = two();
    let set = set_up(&mut t);
    advance(&mut t, set.cav);
    give(&mut t, Side::South, Command::Sight { clear: true });
    let (g, p) = &mut t.host;
    p.give(
        g,
        Command::Roll {
            moving: APP,
            stationary: APP,
        },
    )
    .unwrap();
    let before = t.joiner.0.log().len();
    // The halves cross both ways first; then the entry, changed.
    for _ in 0..4 {
        t.sent_changed(Side::South, |m| {
            if let Wire::Entry { entry, .. } = m {
                for e in &mut entry.events {
                    if let Event::Rolled { moving_roll, .. } = e {
                        moving_roll.dice[0] = moving_roll.dice[0] % 6 + 1;
                    }
                }
            }
        });
        t.sent_changed(Side::North, |_| {});
    }
    assert!(
        t.troubles().iter().any(|why| why.contains("joint round")),
        "{:?}",
        t.troubles()
    );
    assert_eq!(t.joiner.0.log().len(), before, "nothing was taken");
}

/// The French infantry (North's, the joiner's) meets a Prussian dummy:
/// North's machine calls the line clear and flips his Wing; South's shows
/// the dummy, removes it and turns the French face down again with the
/// record North's machine sealed for it, which opens with North's key
/// alone; the move may go on.
#[test]
fn a_real_wing_meeting_a_dummy_is_turned_down_with_its_owners_record() {
    let mut t = two();
    let dummy = place(
        &mut t,
        Side::South,
        Type::Inf,
        ["1010", "1009", "1011"],
        Composition::dummy(Formation::InColumn),
    );
    let infantry = infantry();
    let french = place(
        &mut t,
        Side::North,
        Type::Inf,
        ["1020", "1021", "1121"],
        infantry,
    );
    give(&mut t, Side::North, Command::Begin { first: Side::North });
    move_toward(&mut t, Side::North, french, ["1017", "1018", "1118"]);
    assert!(t.host.0.public().pending.is_some(), "within 7 hexes");
    let seals = t.host.0.public().counters[french].seals;
    give(&mut t, Side::North, Command::Sight { clear: true });
    let public = t.host.0.public();
    assert!(public.counters[dummy].gone, "the dummy is removed");
    let moved = &public.counters[french];
    assert!(moved.face.is_none(), "face down again");
    assert_eq!(moved.seals, seals + 1);
    assert!(public.pending.is_none(), "the move may go on");
    // The record it turned down under is North's own.
    let id = t.host.0.id().to_string();
    let place = Place {
        game: &id,
        owner: Side::North,
        kind: "wing",
        slot: format!("counter {french} seal {}", seals + 1),
    };
    let held = (moved.sealed)
        .open::<Composition>(&keys().north.1.seal_key(), &place)
        .unwrap();
    assert!(held.secret.real);
    let south = keys().south.1.seal_key();
    assert!(moved.sealed.open::<Composition>(&south, &place).is_err());
}

/// North joins without a passphrase and sets his on his own machine: his
/// records, sealed under the unprotected key until then, are sealed anew
/// under his; the host's machine never holds his key and cannot set one
/// for him.
#[test]
fn a_joiner_sets_his_passphrase_on_his_own_machine() {
    let mut t = two_with(false);
    let infantry = infantry();
    let french = place(
        &mut t,
        Side::North,
        Type::Inf,
        ["1020", "1021", "1121"],
        infantry,
    );
    let (lock, key) = keys().north.clone();
    // The host's machine cannot set it: it does not hold his key.
    let by_host = Replica::decide(
        &t.host.0,
        &Command::SetPassphrase {
            side: Side::North,
            lock: lock.clone(),
        },
        &mut muster_core::dice::AppDice::Wanted,
    );
    assert!(by_host.is_err());
    let command = {
        use muster_core::seat::Seated;
        let (g, _) = t.machine(Side::North);
        g.set_lock(Side::North, lock, key.clone()).unwrap()
    };
    give(&mut t, Side::North, command);
    assert!(t.host.0.keys()[Side::North].is_none());
    assert!(t.joiner.0.keys()[Side::North].is_some());
    let c = t.host.0.public().counters[french].clone();
    let id = t.host.0.id().to_string();
    let place = Place {
        game: &id,
        owner: Side::North,
        kind: "wing",
        slot: format!("counter {french} seal {}", c.seals),
    };
    assert_eq!(c.seals, 2, "sealed anew");
    assert!(
        c.sealed
            .open::<Composition>(&key.seal_key(), &place)
            .is_ok()
    );
    let unprotected = muster_core::intel::SealKey::unprotected();
    assert!(c.sealed.open::<Composition>(&unprotected, &place).is_err());
    for m in t.to_host.iter() {
        assert!(!key.seal_key().appears_in(m));
        assert!(!m.contains(PASSES[1]));
    }
}

/// An honest game ended by the active player: each machine sends its
/// player's records opened, and each finds the other's hold; nothing is
/// played after it, and no key or passphrase crossed.
#[test]
fn an_honest_game_ends_and_each_machine_finds_the_others_records_hold() {
    let mut t = two();
    let set = set_up(&mut t);
    advance(&mut t, set.cav);
    give(&mut t, Side::South, Command::Sight { clear: true });
    // Not while the roll is due.
    assert!(t.give(Side::South, Command::EndGame).is_err());
    give(
        &mut t,
        Side::South,
        Command::Roll {
            moving: APP,
            stationary: APP,
        },
    );
    placed_after_the_roll(&mut t);
    // Only the active player ends it.
    assert!(t.give(Side::North, Command::EndGame).is_err());
    give(&mut t, Side::South, Command::EndGame);
    let audited = (t.said.iter())
        .filter(|h| matches!(h, Happened::Audited(words) if words.contains("all hold")))
        .count();
    assert_eq!(audited, 2, "{:?}", t.said);
    assert!(
        t.give(Side::South, Command::EndTurn).is_err(),
        "nothing after it"
    );
    assert!(t.to_host.iter().any(|m| m.contains(r#""type":"records""#)));
    t.no_passphrase_or_key_crossed();
}

/// North's machine, changed, keeps from South's what nothing can check
/// during the game: its cuirassiers, deployed, move further than their
/// slowest unit allows (though no farther than the side's fastest unit
/// could, which is checked at once), and its infantry, meeting a Prussian dummy, is flipped as a
/// Wing of a higher rating than its record holds, then turned face down
/// and never placed. South's machine takes both then; at the game's end
/// its audit names both, and North's finds South's records hold.
#[test]
fn at_the_games_end_each_machine_checks_what_the_other_could_not() {
    let mut t = two();
    let seydlitz = seydlitz();
    place(
        &mut t,
        Side::South,
        Type::Cav,
        ["1005", "1004", "1003"],
        seydlitz,
    );
    let dummy = Composition::dummy(Formation::InColumn);
    place(
        &mut t,
        Side::South,
        Type::Inf,
        ["1010", "1009", "1011"],
        dummy,
    );
    let infantry = infantry();
    let french = place(
        &mut t,
        Side::North,
        Type::Inf,
        ["1020", "1021", "1121"],
        infantry,
    );
    let cuirassiers = wing(&["f-cav-1"], 2, Formation::Deployed);
    let cav = place(
        &mut t,
        Side::North,
        Type::Cav,
        ["3020", "3021", "3019"],
        cuirassiers,
    );
    give(&mut t, Side::North, Command::Begin { first: Side::North });

    // The cuirassiers may move 5 deployed: North's program moves them 8.
    let (g, p) = &mut t.joiner;
    let c = g.public().counters[cav].clone();
    let straight = |from: Hex, rows: u32| {
        let name = from.to_string();
        let (col, row) = name.split_at(2);
        let row: u32 = row.parse().unwrap();
        (1..=rows)
            .map(|k| hex(&format!("{col}{:02}", row - k)))
            .collect::<Vec<_>>()
    };
    let honest = Command::Move {
        id: cav,
        leader: straight(c.leader, 4),
        dis: [straight(c.dis[0], 4), straight(c.dis[1], 4)],
    };
    p.give(g, honest).unwrap();
    for _ in 0..4 {
        t.sent_changed(Side::North, |m| {
            if let Wire::Decided { entry, .. } = m {
                for e in &mut entry.events {
                    if let Event::Moved {
                        leader,
                        dis,
                        hexes,
                        dis_hexes,
                        ..
                    } = e
                    {
                        *leader = hex("3012");
                        *dis = [hex("3013"), hex("3011")];
                        *hexes = 8;
                        *dis_hexes = [8, 8];
                    }
                }
            }
        });
        t.sent_changed(Side::South, |_| {});
    }
    t.pump();
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    assert_eq!(t.host.0.public().counters[cav].leader, hex("3012"));

    // The infantry comes within 7 hexes of the dummy and is flipped as a
    // Wing of rating 6; the dummy is removed, the infantry turned down.
    move_toward(&mut t, Side::North, french, ["1017", "1018", "1118"]);
    let (g, p) = &mut t.joiner;
    p.give(g, Command::Sight { clear: true }).unwrap();
    for _ in 0..4 {
        t.sent_changed(Side::North, |m| {
            if let Wire::Decided { entry, .. } = m {
                for e in &mut entry.events {
                    if let Event::Flipped {
                        face: Some(face), ..
                    } = e
                    {
                        face.rating = 6;
                    }
                }
            }
        });
        t.sent_changed(Side::South, |_| {});
    }
    t.pump();
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    let public = t.host.0.public();
    assert!(public.counters[french].face.is_none(), "turned down");

    t.give(Side::North, Command::EndGame).unwrap();
    let troubles = t.troubles().join("\n");
    assert!(
        troubles.contains(&format!(
            "FALSE FLIP: Charles's (Franco-Imperial) counter {french} was flipped as a real Wing of command rating 6"
        )),
        "{troubles}"
    );
    assert!(
        troubles.contains(&format!(
            "counter {cav} moved 8 hexes in turn 1, but its slowest unit allows 5"
        )),
        "{troubles}"
    );
    assert!(
        t.said
            .iter()
            .any(|h| matches!(h, Happened::Audited(words) if words.starts_with("Fritz's (Prussian)") && words.contains("all hold"))),
        "{:?}",
        t.said
    );
}

/// The joiner's Wing spots the host's: the deployment roll is his to give,
/// made with both machines' dice, bound before they are known.
#[test]
fn the_joiners_moving_wing_rolls_with_both_machines_dice() {
    let mut t = two();
    let seydlitz = seydlitz();
    place(
        &mut t,
        Side::South,
        Type::Cav,
        ["1012", "1011", "1010"],
        seydlitz,
    );
    let infantry = infantry();
    let french = place(
        &mut t,
        Side::North,
        Type::Inf,
        ["1020", "1021", "1121"],
        infantry,
    );
    give(&mut t, Side::North, Command::Begin { first: Side::North });
    move_toward(&mut t, Side::North, french, ["1017", "1018", "1118"]);
    give(&mut t, Side::North, Command::Sight { clear: true });
    assert!(matches!(
        t.host.0.public().pending,
        Some(Pending::Roll { .. })
    ));
    give(
        &mut t,
        Side::North,
        Command::Roll {
            moving: APP,
            stationary: APP,
        },
    );
    assert!(t.host.0.public().last.is_some(), "rolled");
}
