//! The dummy-wings game, each rule tried and broken: set-up distances and
//! counts, allowances, spotting with every real/dummy pairing, the roll and
//! its odds, the adjustment, formations, and what each side may see.

use super::*;
use crate::wings::events::Rest;
use crate::wings::roll::Role;
use crate::wings::scenario::builtin;
use crate::wings::spotting::InRange;

/// A command as the window gives it: then the step the rules force (a
/// Wing whose line was called clear, shown by its owner).
fn play(g: &mut Game, command: Command) -> Result<Vec<Event>, RuleError> {
    use muster_core::seat::Refused;
    muster_core::seat::play(g, command).map_err(|r| match r {
        Refused::Rule(e) => e,
        Refused::Stalled { why, .. } => why,
    })
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

/// Rossbach: the Prussians (South) with 2 Inf and 2 Cav dummies, the
/// Franco-Imperials (North) with none.
fn game() -> Game {
    game_with(|_| {})
}

/// The test game with its setup changed first.
fn game_with(edit: impl FnOnce(&mut Setup)) -> Game {
    let battle = builtin().into_iter().find(|b| b.id == "rossbach").unwrap();
    let armies = Sides {
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
    };
    let setup = Setup {
        battle,
        players: Sides {
            south: "Fritz".into(),
            north: "Charles".into(),
        },
        armies,
        activated: Sides {
            south: true,
            north: false,
        },
        detachments: Sides::default(),
        locks: Sides::default(),
    };
    let mut setup = setup;
    edit(&mut setup);
    Game::new(setup, Sides::default(), AppDice::seeded(3)).unwrap()
}

fn h(name: &str) -> Hex {
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

fn place(
    g: &mut Game,
    side: Side,
    kind: Type,
    at: [&str; 3],
    c: Composition,
) -> Result<usize, RuleError> {
    g.apply(Command::PlaceWing {
        side,
        kind,
        detachment: false,
        leader: h(at[0]),
        dis: [h(at[1]), h(at[2])],
        composition: c,
    })?;
    Ok(g.public().counters.len() - 1)
}

/// Seydlitz's cavalry Wing (real, rating 4, in column) in 1005, its Dis
/// counters in 1004 and 1003: the moving Wing of most cases.
fn seydlitz(g: &mut Game) -> usize {
    place(
        g,
        Side::South,
        Type::Cav,
        ["1005", "1004", "1003"],
        wing(
            &["p-cav-1", "p-cav-2", "p-cav-3", "p-cav-4", "seydlitz"],
            4,
            Formation::InColumn,
        ),
    )
    .unwrap()
}

/// Seydlitz's cavalry (real, IC) and a Prussian Inf dummy; the French
/// infantry wing (real, deployed) in 1020.
fn armies() -> (Game, usize, usize, usize) {
    let mut g = game();
    let cav = seydlitz(&mut g);
    let dummy = place(
        &mut g,
        Side::South,
        Type::Inf,
        ["2005", "2004", "2006"],
        Composition::dummy(Formation::InColumn),
    )
    .unwrap();
    let french = place(
        &mut g,
        Side::North,
        Type::Inf,
        ["1020", "1021", "1121"],
        wing(
            &["f-inf-1", "f-inf-2", "f-inf-3", "f-inf-4"],
            4,
            Formation::Deployed,
        ),
    )
    .unwrap();
    g.apply(Command::Begin { first: Side::South }).unwrap();
    (g, cav, dummy, french)
}

/// A path from `from` to `to`, each step into the neighbour nearest `to`.
fn path(g: &Game, from: Hex, to: Hex) -> Vec<Hex> {
    let map = &g.setup().battle.map;
    let mut out = Vec::new();
    let mut at = from;
    while at != to {
        at = map
            .neighbours(at)
            .into_iter()
            .min_by_key(|n| map.distance(*n, to))
            .unwrap();
        out.push(at);
    }
    out
}

/// Moves a counter's leader and Dis counters to `at`, each along a
/// straight path.
fn move_to(g: &mut Game, id: usize, at: [&str; 3]) -> Result<Vec<Event>, RuleError> {
    let c = g.public().counters[id].clone();
    let leader = path(g, c.leader, h(at[0]));
    let dis = [path(g, c.dis[0], h(at[1])), path(g, c.dis[1], h(at[2]))];
    g.apply(Command::Move { id, leader, dis })
}

#[test]
fn a_dummys_sealed_record_is_the_size_of_a_real_wings() {
    let (g, cav, dummy, _) = armies();
    let size = |id: usize| {
        serde_json::to_string(&g.public().counters[id].sealed)
            .unwrap()
            .len()
    };
    assert_eq!(size(cav), size(dummy));
}

#[test]
fn set_up_checks_dis_distances_dummy_counts_guns_and_one_wing_per_unit() {
    let mut g = game();
    let e = place(
        &mut g,
        Side::South,
        Type::Inf,
        ["1010", "1011", "1013"],
        Composition::dummy(Formation::Deployed),
    )
    .unwrap_err();
    assert_eq!(e.rule, "27.1.2");
    assert!(e.message.contains("3 hexes"), "{}", e.message);
    // Fewer than 4 units: Dis counters within 1 hex.
    let small = wing(&["p-cav-1", "p-cav-2"], 3, Formation::Deployed);
    assert!(
        place(
            &mut g,
            Side::South,
            Type::Cav,
            ["1010", "1011", "1012"],
            small.clone()
        )
        .is_err()
    );
    place(
        &mut g,
        Side::South,
        Type::Cav,
        ["1010", "1011", "1009"],
        small,
    )
    .unwrap();
    let again = wing(&["p-cav-2", "p-cav-3"], 3, Formation::Deployed);
    let e = place(
        &mut g,
        Side::South,
        Type::Cav,
        ["1510", "1511", "1509"],
        again,
    )
    .unwrap_err();
    assert!(
        e.message.contains("p-cav-2 is already in the Wing"),
        "{}",
        e.message
    );
    for k in 0..2 {
        place(
            &mut g,
            Side::South,
            Type::Inf,
            ["2010", "2011", "2012"],
            Composition::dummy(Formation::Deployed),
        )
        .unwrap_or_else(|e| panic!("dummy {k}: {e}"));
    }
    let e = place(
        &mut g,
        Side::South,
        Type::Inf,
        ["2510", "2511", "2512"],
        Composition::dummy(Formation::Deployed),
    )
    .unwrap_err();
    assert_eq!(e.rule, "27.6");
    // The French have no dummies at Rossbach.
    let e = place(
        &mut g,
        Side::North,
        Type::Inf,
        ["2520", "2521", "2522"],
        Composition::dummy(Formation::Deployed),
    )
    .unwrap_err();
    assert!(e.message.contains("0 Inf dummies"), "{}", e.message);
}

#[test]
fn moves_keep_to_the_slowest_unit_and_the_dis_trail_and_a_dummy_to_a_real_wings_pace() {
    let (mut g, cav, dummy, french) = armies();
    // IC cavalry: the slowest (5 + 4) moves 9.
    let e = move_to(&mut g, cav, ["1015", "1014", "1013"]).unwrap_err();
    assert_eq!(e.rule, "27.1.4");
    assert!(
        e.message.contains("its slowest unit allows 9"),
        "{}",
        e.message
    );
    let e = move_to(&mut g, cav, ["1008", "1005", "1007"]).unwrap_err();
    assert!(e.message.contains("within 2"), "{}", e.message);
    move_to(&mut g, cav, ["1008", "1007", "1006"]).unwrap();
    // The Inf dummy may move as the fastest real Inf Wing could, in column:
    // South's one infantry unit goes 6 IC, though no Inf Wing is on the map
    // (B4b).
    let e = move_to(&mut g, dummy, ["2012", "2011", "2013"]).unwrap_err();
    assert!(
        e.message
            .contains("the fastest real Wing of its type could move 6"),
        "{}",
        e.message
    );
    move_to(&mut g, dummy, ["2011", "2010", "2012"]).unwrap();
    // Not in the other side's turn.
    assert!(move_to(&mut g, french, ["1019", "1020", "1018"]).is_err());
    let own = g.view(Side::South);
    assert_eq!(own.iter().find(|s| s.id == cav).unwrap().allowance, Some(6));
    assert_eq!(
        g.view(Side::North)
            .iter()
            .find(|s| s.id == cav)
            .unwrap()
            .allowance,
        None
    );
}

#[test]
fn a_real_wing_spots_a_real_wing_then_the_roll_the_adjustment_and_the_formations() {
    let (mut g, cav, _, french) = armies();
    let events = move_to(&mut g, cav, ["1013", "1012", "1011"]).unwrap();
    let Some(Event::InRange { candidates, .. }) = events.last() else {
        panic!("{events:?}");
    };
    assert_eq!((candidates[0].wing, candidates[0].distance), (french, 7));
    // Nothing else until the line of sight is answered.
    assert!(g.apply(Command::EndTurn).is_err());
    play(&mut g, Command::Sight { clear: true }).unwrap();
    let public = g.public();
    // Flipped, each shows its face only (B5 ruling): real, and its rating.
    for id in [cav, french] {
        assert!(public.counters[id].face.unwrap().real);
        assert!(
            public.counters[id].shown.is_none(),
            "no units before placing"
        );
    }
    // Seydlitz 5 moving, against the French rating 4 (not Prussian, +0).
    let odds = g.odds().unwrap();
    assert!(odds.moving.is(21, 36), "{odds:?}");
    g.apply(Command::Roll {
        moving: DiceInput::Typed(vec![6]),
        stationary: DiceInput::Typed(vec![2]),
    })
    .unwrap();
    let last = g.public().last.unwrap();
    assert_eq!(
        (last.winner, last.difference, last.adjustment),
        (Role::Moving, 5, 3)
    );
    let e = g
        .apply(Command::Adjust {
            to: Some(h("1017")),
        })
        .unwrap_err();
    assert_eq!(e.rule, "27.2.2");
    g.apply(Command::Adjust {
        to: Some(h("1016")),
    })
    .unwrap();
    // The French army is not activated: deployed, whatever it wants.
    let e = g
        .apply(Command::Deploy {
            id: french,
            formation: Formation::InColumn,
        })
        .unwrap_err();
    assert_eq!(e.rule, "27.2.3");
    g.apply(Command::Deploy {
        id: french,
        formation: Formation::Deployed,
    })
    .unwrap();
    // The winning IC cavalry chooses.
    g.apply(Command::Deploy {
        id: cav,
        formation: Formation::InColumn,
    })
    .unwrap();
    assert_eq!(g.public().pending, None);
    assert_eq!(g.public().counters[cav].leader, h("1016"));
    // Placed, their records open for both: the units, checked against the
    // commitment and against what each flip said (B8).
    let cav_units = &g.public().counters[cav].shown.as_ref().unwrap().units;
    assert!(cav_units.contains(&"p-cav-1".to_string()));
    let lines = g.log_lines().join("\n");
    assert!(
        lines.contains(
            "is placed on the map in column (IC): a real Wing, command rating 4, recorded"
        ),
        "{lines}"
    );
    // The French, placed deployed, were recorded in another formation:
    // the line says which is which (issue 39).
    assert!(
        lines.contains(
            "is placed on the map deployed: a real Wing, command rating 4, recorded deployed"
        ),
        "{lines}"
    );
    // Both Wings stay on the map where placed, with their formation and
    // without Dis counters (issue 25: they vanished).
    let board = crate::wings::screens::board(&g, &g.table_view(), None, None);
    let placed: Vec<(Hex, &str)> = board
        .counters
        .iter()
        .filter(|c| c.id == cav || c.id == french)
        .map(|c| (c.hex, c.text.as_str()))
        .collect();
    assert_eq!(placed.len(), 2, "{:?}", board.counters);
    assert!(
        placed.contains(&(h("1016"), format!("C{cav} placed").as_str())),
        "{placed:?}"
    );
    assert!(
        placed.contains(&(h("1020"), format!("I{french} placed").as_str())),
        "{placed:?}"
    );
    assert!(!board.counters.iter().any(|c| c.text == format!("d{cav}")));
    // The state is a fold of the log alone: what a reopened file replays.
    let mut replay = Public::default();
    for event in g.log().iter().flat_map(|e| &e.events) {
        replay.fold(event, g.setup()).unwrap();
    }
    assert_eq!(&replay, g.public());
}

#[test]
fn a_moving_dummy_is_removed_and_the_enemy_stays_hidden() {
    let mut g = game();
    let real_inf = place(
        &mut g,
        Side::South,
        Type::Inf,
        ["3005", "3004", "3007"],
        wing(&["p-inf-1"], 3, Formation::InColumn),
    );
    assert!(real_inf.is_err(), "one unit: Dis within 1 hex");
    place(
        &mut g,
        Side::South,
        Type::Inf,
        ["3005", "3004", "3105"],
        wing(&["p-inf-1"], 3, Formation::InColumn),
    )
    .unwrap();
    let dummy = place(
        &mut g,
        Side::South,
        Type::Inf,
        ["1005", "1004", "1006"],
        Composition::dummy(Formation::InColumn),
    )
    .unwrap();
    let french = place(
        &mut g,
        Side::North,
        Type::Inf,
        ["1016", "1017", "1018"],
        wing(
            &["f-inf-1", "f-inf-2", "f-inf-3", "f-inf-4"],
            4,
            Formation::Deployed,
        ),
    )
    .unwrap();
    g.apply(Command::Begin { first: Side::South }).unwrap();
    // The dummy may move as the real Inf Wing could (IC 6).
    move_to(&mut g, dummy, ["1011", "1010", "1012"]).unwrap();
    play(&mut g, Command::Sight { clear: true }).unwrap();
    let public = g.public();
    assert!(public.counters[dummy].gone);
    assert!(public.counters[french].shown.is_none());
    assert!(public.pending.is_none());
    let seen = serde_json::to_string(&g.view(Side::South)).unwrap();
    assert!(!seen.contains("f-inf-1"), "the French wing leaked: {seen}");
}

#[test]
fn a_sides_own_counters_never_spot_each_other() {
    let mut g = game();
    let cav = place(
        &mut g,
        Side::South,
        Type::Cav,
        ["1005", "1004", "1003"],
        wing(
            &["p-cav-1", "p-cav-2", "p-cav-3", "p-cav-4"],
            4,
            Formation::InColumn,
        ),
    )
    .unwrap();
    let dummy = place(
        &mut g,
        Side::South,
        Type::Cav,
        ["1016", "1017", "1018"],
        Composition::dummy(Formation::Deployed),
    )
    .unwrap();
    let cuirassiers = wing(&["f-cav-1"], 2, Formation::InColumn);
    place(
        &mut g,
        Side::North,
        Type::Cav,
        ["3020", "3021", "3019"],
        cuirassiers,
    )
    .unwrap();
    g.apply(Command::Begin { first: Side::North }).unwrap();
    g.apply(Command::EndTurn).unwrap();
    // Two Prussian counters 6 hexes apart: nothing to spot.
    move_to(&mut g, cav, ["1010", "1009", "1008"]).unwrap();
    assert!(g.public().pending.is_none());
    assert!(!g.public().counters[dummy].gone);
}

#[test]
fn a_prussian_wing_meets_a_dummy_and_line_of_sight_refusals() {
    // North (French) has no dummies at Rossbach, so the Prussians are the
    // stationary dummies here: the French real wing moves into them.
    let mut g = game();
    let dummy = place(
        &mut g,
        Side::South,
        Type::Cav,
        ["1010", "1011", "1009"],
        Composition::dummy(Formation::Deployed),
    )
    .unwrap();
    let far = place(
        &mut g,
        Side::South,
        Type::Inf,
        ["1210", "1211", "1209"],
        Composition::dummy(Formation::Deployed),
    )
    .unwrap();
    let french = place(
        &mut g,
        Side::North,
        Type::Inf,
        ["1020", "1021", "1022"],
        wing(
            &["f-inf-1", "f-inf-2", "f-inf-3", "f-inf-4"],
            4,
            Formation::Deployed,
        ),
    )
    .unwrap();
    g.apply(Command::Begin { first: Side::North }).unwrap();
    assert!(
        play(&mut g, Command::Sight { clear: true }).is_err(),
        "nothing is asked yet"
    );
    // The move stops at the first hex within 7 of the Cav dummy (B4c): its
    // leader in 1018, 7 from the dummy's Dis counter in 1011.
    let events = move_to(&mut g, french, ["1017", "1018", "1019"]).unwrap();
    let Some(Event::InRange { candidates, .. }) = events.last() else {
        panic!("{events:?}");
    };
    assert_eq!(g.public().counters[french].leader, h("1018"));
    assert_eq!(
        candidates.iter().map(|c| c.wing).collect::<Vec<_>>(),
        vec![dummy]
    );
    // Blocked: it goes on along its path by itself, and the next hex
    // entered is checked again.
    let events = play(&mut g, Command::Sight { clear: false }).unwrap();
    assert_eq!(g.public().counters[french].leader, h("1017"));
    let Some(Event::InRange { candidates, .. }) = events.last() else {
        panic!("{events:?}");
    };
    // Nearest first: the Cav dummy in 1010/1011 before the Inf one.
    assert_eq!(
        candidates.iter().map(|c| c.wing).collect::<Vec<_>>(),
        vec![dummy, far]
    );
    // A wood blocks the line to the nearest: nothing is revealed; the next
    // is asked.
    play(&mut g, Command::Sight { clear: false }).unwrap();
    assert!(g.public().counters[french].shown.is_none());
    play(&mut g, Command::Sight { clear: true }).unwrap();
    let public = g.public();
    assert!(public.counters[far].gone, "the dummy is removed");
    assert!(
        public.counters[french].shown.is_none(),
        "the French wing is face down again"
    );
    assert!(!public.counters[dummy].gone);
    assert!(public.pending.is_none());
    let log: Vec<&Event> = g.log().iter().flat_map(|e| &e.events).collect();
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::Sighted { clear: false, .. }))
    );
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::TurnedDown { id, .. } if *id == french))
    );
}

/// The French Wing traced three hexes for its leader and each Dis
/// counter towards a Prussian dummy behind a wood. Each time the players
/// call the line blocked, nothing is spotted and the Wing goes on along
/// its path by itself, the line asked again at the next hex that keeps the
/// dummy in range (27.1.6, B4c), until it ends where it was traced to; a
/// clear line instead ends the move where it stands, the rest of its path
/// dropped. The rest waits in the game's file with the question.
#[test]
fn a_blocked_line_of_sight_lets_the_wing_go_on_along_its_path() {
    let start = || {
        let mut g = game();
        let dummy = place(
            &mut g,
            Side::South,
            Type::Cav,
            ["1010", "1011", "1009"],
            Composition::dummy(Formation::Deployed),
        )
        .unwrap();
        let french = place(
            &mut g,
            Side::North,
            Type::Inf,
            ["1020", "1021", "1022"],
            wing(
                &["f-inf-1", "f-inf-2", "f-inf-3", "f-inf-4"],
                4,
                Formation::Deployed,
            ),
        )
        .unwrap();
        g.apply(Command::Begin { first: Side::North }).unwrap();
        move_to(&mut g, french, ["1017", "1018", "1019"]).unwrap();
        // Stopped at the first hex in range, short of where it was traced.
        assert_eq!(g.public().counters[french].leader, h("1018"));
        assert!(matches!(g.public().pending, Some(Pending::Sight { .. })));
        (g, dummy, french)
    };
    let (mut g, dummy, french) = start();
    let files = |g: &Game| crate::wings::files::from_json(&crate::wings::files::to_json(g));
    assert_eq!(files(&g).unwrap().public().pending, g.public().pending);
    let mut asked = 1;
    while matches!(g.public().pending, Some(Pending::Sight { .. })) {
        play(&mut g, Command::Sight { clear: false }).unwrap();
        asked += 1;
        assert!(asked < 10, "asked for ever");
    }
    let public = g.public();
    let c = &public.counters[french];
    assert_eq!(
        (c.leader, c.dis.clone()),
        (h("1017"), vec![h("1018"), h("1019")]),
        "the Wing ends where its paths end"
    );
    assert_eq!((c.moved, c.dis_moved), (3, [3, 3]));
    assert!(asked >= 3, "asked again as it went on: {asked}");
    assert!(!public.counters[dummy].gone && c.face.is_none());
    assert!(public.pending.is_none());
    let lines = g.log_lines().join("\n");
    assert!(
        lines.contains("if every line is blocked, it goes on along its path"),
        "{lines}"
    );
    // A clear line: the dummy is removed, the Wing turns face down and
    // stays where it was spotted; the rest of its path is dropped.
    let (mut g, dummy, french) = start();
    play(&mut g, Command::Sight { clear: true }).unwrap();
    let public = g.public();
    assert!(public.counters[dummy].gone);
    assert_eq!(public.counters[french].leader, h("1018"));
    assert!(public.pending.is_none());
}

#[test]
fn the_opponents_view_holds_no_unflipped_composition() {
    let (g, cav, dummy, _) = armies();
    let seen = g.view(Side::North);
    let north = serde_json::to_string(&seen).unwrap();
    for id in ["p-cav-1", "seydlitz"] {
        assert!(!north.contains(id), "{id} in North's view");
    }
    for s in seen.iter().filter(|s| s.side == Side::South) {
        assert_eq!(s.composition, None, "real or dummy shows for {}", s.id);
    }
    let south = g.view(Side::South);
    assert!(south[cav].composition.as_ref().unwrap().real);
    assert!(!south[dummy].composition.as_ref().unwrap().real);
}

#[test]
fn a_die_typed_as_7_is_refused_and_nothing_changes() {
    let (mut g, cav, _, _) = armies();
    move_to(&mut g, cav, ["1013", "1012", "1011"]).unwrap();
    play(&mut g, Command::Sight { clear: true }).unwrap();
    let before = g.public().clone();
    let e = g
        .apply(Command::Roll {
            moving: DiceInput::Typed(vec![7]),
            stationary: DiceInput::Typed(vec![1]),
        })
        .unwrap_err();
    assert!(e.message.contains("7"), "{e}");
    assert_eq!(g.public(), &before);
}

#[test]
fn the_file_replays_to_the_same_state_and_its_log_names_no_face_down_unit() {
    let (mut g, cav, _, french) = armies();
    move_to(&mut g, cav, ["1008", "1007", "1006"]).unwrap();
    let text = super::super::files::to_json(&g);
    let log = &text[text.find("\"log\"").unwrap()..];
    for id in ["p-cav-1", "seydlitz", "f-inf-1"] {
        assert!(!log.contains(id), "{id} in the file's log");
    }
    // A setup without Torgau Detachments is written as before the field
    // existed, so its genesis hash, and every saved game, stay valid.
    assert!(!text.contains("detachments"));
    let again = super::super::files::from_json(&text).unwrap();
    assert_eq!(again.public(), g.public());
    assert_eq!(again.log_lines(), g.log_lines());
    // Edited in the file: Seydlitz's counter "moved" further. The chain
    // names it.
    let edited = text.replacen("\"hexes\": 3", "\"hexes\": 1", 1);
    assert_ne!(edited, text);
    assert!(super::super::files::from_json(&edited).is_err());
    let _ = french;
}

#[test]
fn the_log_reads_the_line_of_sight_answers_and_flips() {
    let (mut g, cav, _, _) = armies();
    move_to(&mut g, cav, ["1013", "1012", "1011"]).unwrap();
    play(&mut g, Command::Sight { clear: true }).unwrap();
    let lines = g.log_lines().join("\n");
    assert!(
        lines
            .contains("comes within 7 hexes of Charles's (Franco-Imperial) Inf counter 2 (7 hexes"),
        "{lines}"
    );
    assert!(lines.contains("Line of sight from Fritz's (Prussian) Cav counter 0 to Charles's (Franco-Imperial) Inf counter 2: clear; Charles (Franco-Imperial) shows what it is (27.1.6)"), "{lines}");
    assert!(
        lines.contains(
            "Charles's (Franco-Imperial) Inf counter 2 is spotted by Fritz's (Prussian) Cav counter 0"
        ),
        "{lines}"
    );
    // Issue 32, ruling B5: a flip shows the leader counter and its rating,
    // never the Wing's units (they show when they are placed, B8).
    assert!(
        lines.contains(
            "is flipped: a real Wing, command rating 4 (its units show when they are placed, B5)"
        ),
        "{lines}"
    );
    assert!(
        !lines.contains("p-cav-1") && !lines.contains("p-inf-1"),
        "{lines}"
    );
    let file = super::super::files::to_json(&g);
    let log = &file[file.find("\"log\"").unwrap()..];
    assert!(
        !log.contains("p-cav-1"),
        "the file's log holds no flipped unit"
    );
    let north = serde_json::to_string(&g.view(Side::North)).unwrap();
    assert!(!north.contains("p-cav-1"), "nor North's view");
    assert_eq!(
        g.view(Side::North)[cav].face,
        Some(Face {
            real: true,
            rating: 4
        })
    );
}

#[test]
fn the_example_armies_load_and_a_bad_arm_is_named_with_its_line() {
    let armies = super::example_armies();
    assert!(
        armies
            .south
            .iter()
            .any(|u| u.id == "seydlitz" && u.rating == Some(5))
    );
    assert!(!armies.north.is_empty());
    let bad = EXAMPLE_ARMIES_JSON.replacen("\"arm\": \"cavalry\"", "\"arm\": \"camels\"", 1);
    let e = super::armies_from_json(&bad).unwrap_err().to_string();
    assert!(e.contains("line"), "{e}");
}

#[test]
fn units_detach_only_to_the_army_commander_two_and_two() {
    let mut g = game_with(|s| {
        s.armies.south.push(WingUnit {
            commander: true,
            ..unit("fritz", Arm::Leader, 8, 12, Some(4))
        });
        s.armies
            .south
            .push(unit("p-art-1", Arm::Artillery, 2, 6, None));
    });
    let mut c = wing(
        &["p-cav-1", "p-cav-2", "p-cav-3", "p-inf-1"],
        3,
        Formation::Deployed,
    );
    c.detached = vec!["p-cav-1".into()];
    let e = place(
        &mut g,
        Side::South,
        Type::Cav,
        ["1010", "1011", "1012"],
        c.clone(),
    )
    .unwrap_err();
    assert!(e.message.contains("Army Commander"), "{}", e.message);
    c.units.push("fritz".into());
    c.detached = vec!["p-cav-1".into(), "p-cav-2".into(), "p-inf-1".into()];
    let e = place(
        &mut g,
        Side::South,
        Type::Cav,
        ["1010", "1011", "1012"],
        c.clone(),
    )
    .unwrap_err();
    assert_eq!(e.rule, "27.1.1");
    assert!(e.message.contains("3 infantry/cavalry"), "{}", e.message);
    c.detached = vec!["p-cav-1".into(), "p-inf-1".into()];
    place(&mut g, Side::South, Type::Cav, ["1010", "1011", "1012"], c).unwrap();
}

#[test]
fn torgau_detachments_decide_the_false_leaders_and_keep_their_spacing() {
    let battle = builtin().into_iter().find(|b| b.id == "torgau").unwrap();
    let with = |detachments| {
        let battle = battle.clone();
        game_with(move |s| {
            s.battle = battle;
            s.detachments.north = detachments;
        })
    };
    let mut g = with(1);
    let det = |g: &mut Game, kind: Type, at: [&str; 3]| {
        g.apply(Command::PlaceWing {
            side: Side::North,
            kind,
            detachment: true,
            leader: h(at[0]),
            dis: [h(at[1]), h(at[2])],
            composition: Composition::dummy(Formation::Deployed),
        })
    };
    // One Detachment: no Von Loudon, so no Inf/Cav dummy at all.
    let e = det(&mut g, Type::InfCav, ["1010", "1011", "1012"]).unwrap_err();
    assert_eq!(e.rule, "27.6");
    let mut g = with(2);
    det(&mut g, Type::InfCav, ["1010", "1011", "1012"]).unwrap();
    // A second stack whose Dis counter is 3 hexes from the first's.
    let e = det(&mut g, Type::Cav, ["1017", "1016", "1015"]).unwrap_err();
    assert_eq!(e.rule, "27.6.4.4");
    assert!(
        e.message.contains("1012") && e.message.contains("1015"),
        "{}",
        e.message
    );
    det(&mut g, Type::Cav, ["1018", "1017", "1016"]).unwrap();
}

#[test]
fn leuthens_von_loudon_goes_within_5_hexes_of_2114() {
    let battle = builtin().into_iter().find(|b| b.id == "leuthen").unwrap();
    let mut g = game_with(|s| s.battle = battle);
    let loudon = |g: &mut Game, at: [&str; 3]| {
        place(
            g,
            Side::North,
            Type::InfCav,
            at,
            Composition::dummy(Formation::Deployed),
        )
    };
    let e = loudon(&mut g, ["2120", "2121", "2119"]).unwrap_err();
    assert!(
        e.message.contains("within 5 hexes of 2114: 2120 is 6 away"),
        "{}",
        e.message
    );
    loudon(&mut g, ["2119", "2120", "2118"]).unwrap();
}

/// The opponent edits the file and recomputes every hash: a flip made to
/// show other units fails its commitment, and a move of a player with a
/// passphrase is named when that player unlocks.
#[test]
fn a_forged_flip_and_a_rechained_move_are_caught() {
    use super::super::files::{FORMAT, SCHEMA, from_json, to_json};
    use muster_core::intel::Lock;
    use muster_core::store::chained::{Parts, rechain};
    const PASS: &str = "lantern quarry thistle ember falcon";
    let (lock, key) = Lock::create(PASS, &[]).unwrap();
    let mut g = game();
    let mut setup = g.setup().clone();
    setup.locks.south = Some(lock);
    g = Game::new(
        setup,
        Sides {
            south: Some(key),
            north: None,
        },
        AppDice::seeded(5),
    )
    .unwrap();
    let cav = seydlitz(&mut g);
    place(
        &mut g,
        Side::North,
        Type::Inf,
        ["1020", "1021", "1121"],
        wing(
            &["f-inf-1", "f-inf-2", "f-inf-3", "f-inf-4"],
            4,
            Formation::Deployed,
        ),
    )
    .unwrap();
    g.apply(Command::Begin { first: Side::South }).unwrap();
    move_to(&mut g, cav, ["1013", "1012", "1011"]).unwrap();
    play(&mut g, Command::Sight { clear: true }).unwrap();
    let text = to_json(&g);
    let mut opened = from_json(&text).unwrap();
    opened.unlock(Side::South, PASS).unwrap();

    // North raises the French wing's flipped rating in the file: South's
    // tag on that entry refuses it at his unlock (and the Wing's record,
    // opened when it is placed, would refuse it again).
    let forged = rechain(
        &text,
        FORMAT,
        SCHEMA,
        genesis,
        |p: &mut Parts<Setup, Entry>| {
            for e in p.log.iter_mut().flat_map(|e| e.events.iter_mut()) {
                if let Event::Flipped {
                    face: Some(face), ..
                } = e
                {
                    face.rating = 9;
                }
            }
        },
    )
    .expect("a good file");
    let mut opened = from_json(&forged).expect("a re-chained edit opens");
    let e = opened.unlock(Side::South, PASS).unwrap_err();
    assert!(e.message.contains("valid tag of South's"), "{e:?}");

    // North moves Seydlitz's counter back out of range in the file.
    let forged = rechain(
        &text,
        FORMAT,
        SCHEMA,
        genesis,
        |p: &mut Parts<Setup, Entry>| {
            for e in p.log.iter_mut().flat_map(|e| e.events.iter_mut()) {
                if let Event::Moved { hexes, .. } = e {
                    *hexes = 2;
                }
            }
        },
    )
    .expect("a good file");
    let mut opened = from_json(&forged).expect("a re-chained edit opens");
    // His private printout is refused too, naming the entry (issue 21).
    let e = opened.ledger(Side::South, PASS).unwrap_err();
    assert!(e.message.contains("Log entry 4 (2 events)"), "{e:?}");
    let e = opened.unlock(Side::South, PASS).unwrap_err();
    assert!(
        e.message
            .contains("Log entry 4 (2 events) does not carry a valid tag of South's"),
        "{e:?}"
    );
}

fn hexes(names: &[&str]) -> Vec<Hex> {
    names.iter().map(|n| h(n)).collect()
}

#[test]
fn a_dis_counter_is_held_to_the_wings_allowance_along_its_path() {
    // Issue 21: a Dis counter moved 6 hexes on an allowance of 2. The
    // cavalry's allowance is 9 IC; this Dis counter wanders 10 hexes and
    // ends beside its leader.
    let (mut g, cav, _, _) = armies();
    let mut wander = path(&g, h("1004"), h("1010"));
    wander.extend(path(&g, h("1010"), h("1006")));
    assert_eq!(wander.len(), 10);
    let e = g
        .apply(Command::Move {
            id: cav,
            leader: hexes(&["1006", "1007", "1008"]),
            dis: [wander, Vec::new()],
        })
        .unwrap_err();
    assert_eq!(e.rule, "27.1.4");
    assert!(
        e.message.contains(
            "counter 0's first Dis counter has moved 0 and would move 10 more: its slowest unit allows 9"
        ),
        "{}",
        e.message
    );
    // A path that jumps is no path.
    let e = g
        .apply(Command::Move {
            id: cav,
            leader: hexes(&["1007"]),
            dis: [Vec::new(), Vec::new()],
        })
        .unwrap_err();
    assert!(
        e.message.contains("from 1005 to 1007, 2 hexes"),
        "{}",
        e.message
    );
    // What each Dis counter moved counts for the rest of the turn.
    g.apply(Command::Move {
        id: cav,
        leader: Vec::new(),
        dis: [path(&g, h("1004"), h("1006")), Vec::new()],
    })
    .unwrap();
    assert_eq!(g.public().counters[cav].dis_moved, [2, 0]);
    let e = g
        .apply(Command::Move {
            id: cav,
            leader: Vec::new(),
            dis: [
                {
                    let mut p = path(&g, h("1006"), h("1001"));
                    p.extend(path(&g, h("1001"), h("1005")));
                    p
                },
                Vec::new(),
            ],
        })
        .unwrap_err();
    assert!(
        e.message.contains("has moved 2 and would move 9 more"),
        "{}",
        e.message
    );
}

#[test]
fn a_wing_passing_within_seven_hexes_is_stopped_and_asked_there() {
    // Issue 21: a Wing passing within 7 hexes of the French but stopping 8
    // away was never spotted. The leader enters 1013 (7 from 1020) on its
    // way to 1012: the move stops there.
    let (mut g, cav, _, french) = armies();
    let leader = hexes(&[
        "1006", "1007", "1008", "1009", "1010", "1011", "1012", "1013", "1012",
    ]);
    let events = g
        .apply(Command::Move {
            id: cav,
            leader,
            dis: [
                path(&g, h("1004"), h("1010")),
                path(&g, h("1003"), h("1011")),
            ],
        })
        .unwrap();
    let Some(Event::Moved {
        leader, hexes: 8, ..
    }) = events.first()
    else {
        panic!("{events:?}");
    };
    assert_eq!(*leader, h("1013"));
    let Some(Event::InRange { candidates, .. }) = events.last() else {
        panic!("{events:?}");
    };
    assert_eq!((candidates[0].wing, candidates[0].distance), (french, 7));
    assert!(matches!(g.public().pending, Some(Pending::Sight { .. })));
}

#[test]
fn leaders_do_not_count_as_units_for_the_dis_distance() {
    // Three cavalry units and Seydlitz: fewer than 4 units, so the Dis
    // counters go within 1 hex (B3 ruling).
    let mut g = game();
    let e = place(
        &mut g,
        Side::South,
        Type::Cav,
        ["1005", "1004", "1003"],
        wing(
            &["p-cav-1", "p-cav-2", "p-cav-3", "seydlitz"],
            4,
            Formation::InColumn,
        ),
    )
    .unwrap_err();
    assert!(
        e.message.contains("place it 1 to 1 hex away"),
        "{}",
        e.message
    );
    place(
        &mut g,
        Side::South,
        Type::Cav,
        ["1005", "1004", "1006"],
        wing(
            &["p-cav-1", "p-cav-2", "p-cav-3", "seydlitz"],
            4,
            Formation::InColumn,
        ),
    )
    .unwrap();
}

/// Issue 21: a re-chained file whose spotting has no one to spot made the
/// next `sight` panic, and a setup read from a file skipped what `new`
/// checks (a huge map, a huge dummy count). Each is refused at load, with
/// the entry or field named.
#[test]
fn a_rechained_file_the_rules_could_not_make_is_refused_at_load() {
    use super::super::files::{FORMAT, SCHEMA, from_json, to_json};
    use muster_core::store::chained::{Parts, rechain};
    let (mut g, cav, _, _) = armies();
    move_to(&mut g, cav, ["1008", "1007", "1006"]).unwrap();
    let text = to_json(&g);
    from_json(&text).unwrap();
    let forge = |edit: &dyn Fn(&mut Parts<Setup, Entry>)| {
        rechain(
            &text,
            FORMAT,
            SCHEMA,
            genesis,
            |p: &mut Parts<Setup, Entry>| edit(p),
        )
        .expect("a good file")
    };
    let no_one = forge(&|p| {
        p.log.push(Entry {
            events: vec![Event::InRange {
                moving: 0,
                candidates: Vec::new(),
                rest: Rest::default(),
            }],
        })
    });
    let e = from_json(&no_one).unwrap_err();
    assert!(e.message.contains("a spotting does not follow"), "{e:?}");
    let own_side = forge(&|p| {
        p.log.push(Entry {
            events: vec![Event::InRange {
                moving: 0,
                candidates: vec![InRange {
                    wing: 1,
                    distance: 1,
                    from: h("1008"),
                    to: h("2005"),
                    leaders: None,
                }],
                rest: Rest::default(),
            }],
        })
    });
    assert!(
        from_json(&own_side).is_err(),
        "South's own dummy is no enemy"
    );
    let far = forge(&|p| {
        for e in p.log.iter_mut().flat_map(|e| e.events.iter_mut()) {
            if let Event::Moved { hexes, .. } = e {
                *hexes = u32::MAX;
            }
        }
    });
    let e = from_json(&far).unwrap_err();
    assert!(e.message.contains("beyond any allowance"), "{e:?}");
    let huge_map = forge(&|p| p.setup.battle.map.first_column = u32::MAX);
    let e = from_json(&huge_map).unwrap_err();
    assert!(e.message.contains("battle.map.columns"), "{e:?}");
    let many = forge(&|p| p.setup.battle.sides.south.dummies[0].count = 4_000_000_000);
    let e = from_json(&many).unwrap_err();
    assert!(e.message.contains("count"), "{e:?}");
    let units = forge(&|p| {
        let u = p.setup.armies.south[0].clone();
        p.setup.armies.south = vec![u; MAX_UNITS + 1];
    });
    let e = from_json(&units).unwrap_err();
    assert!(e.message.contains("at most 500"), "{e:?}");
}

/// Issue 32: Undo was always greyed in dummy wings. A move that brought
/// no enemy within 7 hexes is taken back; a move that did (its spotting
/// asked) is not, and the reason says why.
#[test]
fn a_move_that_spotted_nothing_is_taken_back_and_a_spotting_never_is() {
    let (mut g, cav, _, _) = armies();
    let before = g.public().counters[cav].leader;
    move_to(&mut g, cav, ["1006", "1005", "1004"]).unwrap();
    let what = g.undoable().unwrap();
    assert!(what.contains("moves: leader 1 hex to 1006"), "{what}");
    g.undo().unwrap();
    assert_eq!(g.public().counters[cav].leader, before);
    move_to(&mut g, cav, ["1013", "1012", "1011"]).unwrap();
    let why = g.undoable().unwrap_err();
    assert!(why.contains("spotting"), "{why}");
    assert!(g.undo().is_err());
}

/// Ruling B10: two enemy Wings mirror images of each other about the
/// moving Wing's column, so equally near by every measure: the moving
/// player says which is the closest (asked, and logged), and its line of
/// sight is asked first; any other Wing is refused as his answer.
#[test]
fn equally_near_wings_are_the_moving_players_choice() {
    let mut g = game();
    let cav = seydlitz(&mut g);
    let right = place(
        &mut g,
        Side::North,
        Type::Inf,
        ["1216", "1215", "1115"],
        wing(
            &["f-inf-1", "f-inf-2", "f-inf-3", "f-inf-4"],
            4,
            Formation::Deployed,
        ),
    )
    .unwrap();
    let left = place(
        &mut g,
        Side::North,
        Type::Cav,
        ["0816", "0815", "0915"],
        wing(&["f-cav-1"], 2, Formation::InColumn),
    )
    .unwrap();
    g.apply(Command::Begin { first: Side::South }).unwrap();
    move_to(&mut g, cav, ["1010", "1009", "1008"]).unwrap();
    let Some(Pending::Closest { tied, .. }) = g.public().pending.clone() else {
        panic!("{:?}", g.public().pending);
    };
    assert_eq!(tied, vec![right, left]);
    assert!(
        play(&mut g, Command::Sight { clear: true }).is_err(),
        "asked first"
    );
    let e = g.apply(Command::Closest { wing: cav }).unwrap_err();
    assert_eq!(e.rule, "27.5");
    g.apply(Command::Closest { wing: left }).unwrap();
    let Some(Pending::Sight {
        candidates, asked, ..
    }) = g.public().pending.clone()
    else {
        panic!("{:?}", g.public().pending);
    };
    assert_eq!((candidates[asked].wing, candidates.len()), (left, 2));
    let lines = g.log_lines().join("\n");
    assert!(
        lines.contains("says which is the closest (27.5, B10)"),
        "{lines}"
    );
    assert!(
        lines.contains("is taken as the closest (the moving player's choice, B10)"),
        "{lines}"
    );
    // The choice is part of the file: it reopens where it was.
    let again = super::super::files::from_json(&super::super::files::to_json(&g)).unwrap();
    assert_eq!(again.public().pending, g.public().pending);
}

/// Issue 39: a player whose every counter is placed as units still got
/// the path fields in his turn. He is told nothing is left to move, and
/// asked for no path.
#[test]
fn a_player_with_nothing_left_to_move_is_asked_for_no_path() {
    use muster_core::screen::Block;
    let (mut g, cav, _, french) = armies();
    move_to(&mut g, cav, ["1013", "1012", "1011"]).unwrap();
    play(&mut g, Command::Sight { clear: true }).unwrap();
    g.apply(Command::Roll {
        moving: DiceInput::Typed(vec![6]),
        stationary: DiceInput::Typed(vec![2]),
    })
    .unwrap();
    g.apply(Command::Adjust { to: None }).unwrap();
    for (id, formation) in [(french, Formation::Deployed), (cav, Formation::InColumn)] {
        g.apply(Command::Deploy { id, formation }).unwrap();
    }
    g.apply(Command::EndTurn).unwrap();
    let screen =
        crate::wings::screens::counters(&g, &g.view(Side::North), Side::North, &Default::default());
    assert!(
        screen
            .texts()
            .iter()
            .any(|t| t.contains("nothing is left to move")),
        "{screen:?}"
    );
    assert!(
        !screen
            .blocks
            .iter()
            .any(|b| matches!(b, Block::Form { .. })),
        "{screen:?}"
    );
}

/// Play begins once each side has set up: a host cannot begin before the
/// other player (remote, perhaps not yet joined) placed anything.
#[test]
fn play_begins_once_each_side_has_set_up() {
    let mut g = game();
    seydlitz(&mut g);
    let e = g.apply(Command::Begin { first: Side::South }).unwrap_err();
    assert_eq!(e.rule, "27.1.2");
    assert!(e.message.contains("Charles"), "{}", e.message);
    assert!(g.public().active.is_none());
}
