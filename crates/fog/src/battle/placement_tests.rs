//! Terrain placement and adjustment (RULES 5-6), each rule tried and broken.

use super::*;
use crate::examples;
use crate::geometry::{Pose, Shape, SideEdge};
use crate::ruleset::AdjustmentOption;

/// `side`'s adjustment, refused: the rule's words.
fn refused_adjust(
    b: &mut Battle,
    side: Side,
    action: AdjustAction,
) -> muster_core::error::RuleError {
    b.apply(Command::Adjust { side, action }).unwrap_err()
}

fn d(n: u8) -> DiceInput {
    DiceInput::Typed(vec![n])
}

fn rect(w: f64, h: f64) -> Shape {
    Shape::Rectangle { width: w, depth: h }
}

/// South has the initiative in Woodlands. Picks: 0 North forest (compulsory),
/// 1 South forest (compulsory), 2 North brush, 3 North marsh, 4 South river,
/// 5 South village.
fn selected_with(ruleset: Ruleset) -> Battle {
    let mut b = Battle::new(ruleset.clone());
    for (side, i) in [(Side::South, 0), (Side::North, 1)] {
        b.apply(Command::SetArmy {
            side,
            army: examples::army(i, &ruleset),
            lock: None,
        })
        .unwrap();
    }
    b.apply(Command::RollInitiative {
        side: Side::South,
        dice: d(6),
    })
    .unwrap();
    b.apply(Command::RollInitiative {
        side: Side::North,
        dice: d(1),
    })
    .unwrap();
    let cmds = vec![
        Command::ChooseTerritory {
            side: Side::South,
            territory: "woodlands".into(),
        },
        Command::ChooseCompulsory {
            side: Side::North,
            terrain: "forest".into(),
        },
        Command::ChooseCompulsory {
            side: Side::South,
            terrain: "forest".into(),
        },
        Command::SelectTerrain {
            side: Side::North,
            terrain: "brush".into(),
            large: false,
        },
        Command::SelectTerrain {
            side: Side::North,
            terrain: "marsh".into(),
            large: false,
        },
        Command::FinishSelection { side: Side::North },
        Command::SelectTerrain {
            side: Side::South,
            terrain: "river".into(),
            large: false,
        },
        Command::SelectTerrain {
            side: Side::South,
            terrain: "village".into(),
            large: false,
        },
        Command::FinishSelection { side: Side::South },
    ];
    for c in cmds {
        b.apply(c).unwrap();
    }
    b
}

fn selected() -> Battle {
    selected_with(Ruleset::builtin())
}

fn turn(b: &Battle) -> PlacementTurn {
    match b.phase() {
        Phase::Placement(t) => t,
        other => panic!("not placing: {other:?}"),
    }
}

/// River on the west edge, going rolled, adjustment declined by a low roll.
fn river_down(b: &mut Battle) {
    b.apply(Command::PlaceWaterway {
        side: Side::South,
        edge: SideEdge::West,
        width: 3.0,
        offset: 3.0,
    })
    .unwrap();
    b.apply(Command::RollGoing {
        side: Side::South,
        dice: d(4),
    })
    .unwrap();
    b.apply(Command::RollAdjustment {
        side: Side::North,
        dice: d(1),
    })
    .unwrap();
}

fn place(
    b: &mut Battle,
    side: Side,
    piece: usize,
    shape: Shape,
    die: u8,
    pose: Pose,
) -> Result<Vec<Event>, RuleError> {
    b.apply(Command::RollPlacement {
        side,
        piece,
        shape,
        dice: d(die),
    })?;
    b.apply(Command::PlacePiece { side, pose })
}

#[test]
fn the_river_comes_first_then_its_going_and_adjustment() {
    let mut b = selected();
    assert_eq!(
        turn(&b),
        PlacementTurn::Waterway {
            side: Side::South,
            piece: 4
        }
    );
    let e = b
        .apply(Command::PlaceWaterway {
            side: Side::South,
            edge: SideEdge::West,
            width: 5.0,
            offset: 0.0,
        })
        .unwrap_err();
    assert_eq!(e.message, "A river is up to 4 MU wide; 5 was given");
    let e = b
        .apply(Command::PlaceWaterway {
            side: Side::South,
            edge: SideEdge::East,
            width: 4.0,
            offset: 3.0,
        })
        .unwrap_err();
    assert!(
        e.message
            .contains("within 6 MU of its side edge; this one reaches 7.0 MU"),
        "{e}"
    );
    let e = b
        .apply(Command::PlaceWaterway {
            side: Side::North,
            edge: SideEdge::West,
            width: 3.0,
            offset: 0.0,
        })
        .unwrap_err();
    assert!(e.message.contains("South's turn"), "{e}");
    b.apply(Command::PlaceWaterway {
        side: Side::South,
        edge: SideEdge::East,
        width: 4.0,
        offset: 2.0,
    })
    .unwrap();
    assert_eq!(
        turn(&b),
        PlacementTurn::Going {
            side: Side::South,
            piece: 4
        }
    );
    b.apply(Command::RollGoing {
        side: Side::South,
        dice: d(6),
    })
    .unwrap();
    assert_eq!(
        b.state().placement.laid[&4].going,
        Some(TerrainClass::Impassable)
    );
    assert_eq!(
        turn(&b),
        PlacementTurn::AdjustRoll {
            side: Side::North,
            piece: 4
        }
    );
    // 4 + 1 (river) = 5: a river may be removed, never slid or pivoted.
    b.apply(Command::RollAdjustment {
        side: Side::North,
        dice: d(4),
    })
    .unwrap();
    assert_eq!(
        turn(&b),
        PlacementTurn::Adjust {
            side: Side::North,
            piece: 4,
            score: 5
        }
    );
    let e = refused_adjust(
        &mut b,
        Side::North,
        AdjustAction::Slide { dx: 1.0, dy: 0.0 },
    );
    assert!(e.message.contains("does not allow a slide"), "{e}");
    b.apply(Command::Adjust {
        side: Side::North,
        action: AdjustAction::Remove,
    })
    .unwrap();
    assert!(b.state().placement.removed.contains(&4));
    assert_eq!(
        turn(&b),
        PlacementTurn::Roll {
            side: Side::South,
            piece: Some(1)
        }
    );
}

#[test]
fn compulsory_pieces_come_next_initiative_first() {
    let mut b = selected();
    river_down(&mut b);
    let e = b
        .apply(Command::RollPlacement {
            side: Side::South,
            piece: 5,
            shape: rect(7.0, 6.0),
            dice: d(6),
        })
        .unwrap_err();
    assert!(e.message.contains("must place Forest now"), "{e}");
    let e = b
        .apply(Command::RollPlacement {
            side: Side::South,
            piece: 1,
            shape: rect(13.0, 8.0),
            dice: d(6),
        })
        .unwrap_err();
    assert_eq!(e.rule, "4");
    assert!(
        e.message.contains("normal piece fits a 12 MU circle"),
        "{e}"
    );
    place(
        &mut b,
        Side::South,
        1,
        rect(10.0, 6.0),
        6,
        Pose::new(36.0, 14.0, 0.0),
    )
    .unwrap();
    assert_eq!(
        turn(&b),
        PlacementTurn::AdjustRoll {
            side: Side::North,
            piece: 1
        }
    );
    b.apply(Command::RollAdjustment {
        side: Side::North,
        dice: d(3),
    })
    .unwrap();
    // 3 - 1 (compulsory) = 2: no change, so North's compulsory piece is next.
    assert_eq!(
        turn(&b),
        PlacementTurn::Roll {
            side: Side::North,
            piece: Some(0)
        }
    );
}

/// South's compulsory forest down by die `die` at `pose`, left unadjusted;
/// North then rolls `north_die` for his compulsory forest.
fn south_forest_then_north_rolls(die: u8, pose: Pose, north_die: u8) -> Battle {
    let mut b = selected();
    river_down(&mut b);
    place(&mut b, Side::South, 1, rect(10.0, 6.0), die, pose).unwrap();
    b.apply(Command::RollAdjustment {
        side: Side::North,
        dice: d(1),
    })
    .unwrap();
    let roll = Command::RollPlacement {
        side: Side::North,
        piece: 0,
        shape: rect(10.0, 6.0),
        dice: d(north_die),
    };
    b.apply(roll).unwrap();
    b
}

fn north_places(b: &mut Battle, x: f64, y: f64) -> Result<Vec<Event>, RuleError> {
    b.apply(Command::PlacePiece {
        side: Side::North,
        pose: Pose::new(x, y, 0.0),
    })
}

#[test]
fn spacing_is_measured_and_rivers_are_exempt() {
    // 2 MU from the river (x 3-6) is fine: the 4 MU spacing does not apply to it.
    let mut b = south_forest_then_north_rolls(2, Pose::new(13.0, 3.0, 0.0), 4);
    // North's own half is y > 24; die 4 is a side edge in his half.
    let e = north_places(&mut b, 67.0, 10.0).unwrap_err();
    assert!(e.message.contains("not in North's half"), "{e}");
    let e = north_places(&mut b, 5.0, 30.0).unwrap_err();
    assert!(e.message.contains("overlaps River (South)"), "{e}");
}

#[test]
fn too_close_says_how_close() {
    let mut b = south_forest_then_north_rolls(4, Pose::new(67.0, 15.0, 0.0), 4);
    let e = north_places(&mut b, 67.0, 22.0).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Forest is 1.0 MU from Forest (South); pieces must be 4 MU apart (rule 5)"
    );
    north_places(&mut b, 67.0, 25.0).unwrap();
}

#[test]
fn a_result_with_no_legal_position_is_re_rolled() {
    let mut r = Ruleset::builtin();
    r.help.insert("x".into(), "y".into());
    let mut b = selected_with(r);
    let mut s = b.state().settings.clone();
    s.table = TableSize {
        width: 72.0,
        depth: 24.0,
    };
    // Settings may still change: nothing is on the table yet.
    b.apply(Command::Configure { settings: s }).unwrap();
    river_down(&mut b);
    // Die 6 on a 24 MU deep table: over 8 MU from the edge and within 12 MU
    // of it leaves less than 4 MU, and a forest is at least 6 x 4.
    let ev = b
        .apply(Command::RollPlacement {
            side: Side::South,
            piece: 1,
            shape: rect(10.0, 6.0),
            dice: d(6),
        })
        .unwrap();
    assert!(matches!(
        ev[..],
        [Event::PlacementRolled { legal: false, .. }]
    ));
    assert_eq!(
        turn(&b),
        PlacementTurn::Roll {
            side: Side::South,
            piece: Some(1)
        }
    );
    let e = b
        .apply(Command::RollPlacement {
            side: Side::South,
            piece: 1,
            shape: rect(9.0, 6.0),
            dice: d(2),
        })
        .unwrap_err();
    assert!(e.message.contains("same physical piece"), "{e}");
    b.apply(Command::RollPlacement {
        side: Side::South,
        piece: 1,
        shape: rect(10.0, 6.0),
        dice: d(2),
    })
    .unwrap();
    assert!(matches!(turn(&b), PlacementTurn::Place { result: 2, .. }));
}

#[test]
fn a_piece_with_no_legal_position_anywhere_is_set_aside() {
    let mut r = Ruleset::builtin();
    r.placement.spacing = 80.0;
    let mut b = selected_with(r);
    river_down(&mut b);
    place(
        &mut b,
        Side::South,
        1,
        rect(10.0, 6.0),
        2,
        Pose::new(36.0, 3.0, 0.0),
    )
    .unwrap();
    b.apply(Command::RollAdjustment {
        side: Side::North,
        dice: d(1),
    })
    .unwrap();
    let ev = b
        .apply(Command::RollPlacement {
            side: Side::North,
            piece: 0,
            shape: rect(10.0, 6.0),
            dice: d(1),
        })
        .unwrap();
    assert!(matches!(
        ev[..],
        [
            Event::PlacementRolled { legal: false, .. },
            Event::PieceSetAside { piece: 0, .. }
        ]
    ));
    assert!(b.log_lines().last().unwrap().0.contains("set aside"));
    assert_eq!(
        turn(&b),
        PlacementTurn::Roll {
            side: Side::South,
            piece: None
        }
    );
}

/// The river down, then South's compulsory forest at (36, 14) by die 6,
/// waiting for North's adjustment roll.
fn south_forest_in_the_middle() -> Battle {
    let mut b = selected();
    river_down(&mut b);
    place(
        &mut b,
        Side::South,
        1,
        rect(10.0, 6.0),
        6,
        Pose::new(36.0, 14.0, 0.0),
    )
    .unwrap();
    b
}

#[test]
fn slides_and_pivots_are_limited_and_checked() {
    let mut b = south_forest_in_the_middle();
    // 5 - 1 = 4: slide up to 6 MU only.
    b.apply(Command::RollAdjustment {
        side: Side::North,
        dice: d(5),
    })
    .unwrap();
    let e = refused_adjust(
        &mut b,
        Side::North,
        AdjustAction::Slide { dx: 6.0, dy: 1.0 },
    );
    assert_eq!(
        e.message,
        "Forest may slide up to 6 MU; this slide is 6.1 MU"
    );
    let e = refused_adjust(
        &mut b,
        Side::North,
        AdjustAction::Pivot {
            x: 41.0,
            y: 17.0,
            degrees: 30.0,
        },
    );
    assert!(e.message.contains("does not allow a pivot"), "{e}");
    let e = refused_adjust(&mut b, Side::South, AdjustAction::Decline);
    assert!(e.message.contains("North adjusts this piece"), "{e}");
    let e = b.apply(Command::Adjust {
        side: Side::North,
        action: AdjustAction::Slide { dx: 0.0, dy: -6.0 },
    });
    assert!(
        e.is_ok(),
        "the 4 MU spacing does not apply to adjustment: {e:?}"
    );
    assert_eq!(b.state().placement.laid[&1].pose, Pose::new(36.0, 8.0, 0.0));
}

/// Rule 6: "the adjuster may also decline", before his roll too; nothing
/// else is his without the roll.
#[test]
fn the_adjuster_declines_without_rolling() {
    let mut b = south_forest_in_the_middle();
    let e = refused_adjust(
        &mut b,
        Side::North,
        AdjustAction::Slide { dx: 1.0, dy: 0.0 },
    );
    assert_eq!(e.message, "Roll for the adjustment first");
    assert_eq!(e.rule, "6");
    let e = refused_adjust(&mut b, Side::South, AdjustAction::Decline);
    assert!(e.message.contains("North adjusts this piece"), "{e}");
    let before = b.state().placement.laid[&1].pose;
    b.apply(Command::Adjust {
        side: Side::North,
        action: AdjustAction::Decline,
    })
    .unwrap();
    assert!(b.state().placement.adjusting.is_none());
    assert_eq!(b.state().placement.laid[&1].pose, before);
    assert!(
        b.log_lines()
            .last()
            .unwrap()
            .0
            .contains("North leaves South's forest where it is"),
        "{:?}",
        b.log_lines().last()
    );
    // The roll is no longer his to make.
    assert!(
        b.apply(Command::RollAdjustment {
            side: Side::North,
            dice: d(6),
        })
        .is_err()
    );
}

#[test]
fn a_pivot_turns_about_a_point_on_the_edge() {
    let mut b = south_forest_in_the_middle();
    // 6 - 1 = 5: slide up to 12 MU or pivot.
    b.apply(Command::RollAdjustment {
        side: Side::North,
        dice: d(6),
    })
    .unwrap();
    assert_eq!(
        b.state()
            .placement
            .adjusting
            .as_ref()
            .unwrap()
            .roll
            .as_ref()
            .map(|r| r.total),
        Some(5)
    );
    let e = refused_adjust(
        &mut b,
        Side::North,
        AdjustAction::Pivot {
            x: 36.0,
            y: 14.0,
            degrees: 45.0,
        },
    );
    assert!(e.message.contains("3.0 MU from Forest's edge"), "{e}");
    let e = refused_adjust(
        &mut b,
        Side::North,
        AdjustAction::Slide { dx: 0.0, dy: -12.0 },
    );
    assert!(
        e.message.contains("hang 1.0 MU over the south table edge"),
        "{e}"
    );
    b.apply(Command::Adjust {
        side: Side::North,
        action: AdjustAction::Pivot {
            x: 41.0,
            y: 17.0,
            degrees: 90.0,
        },
    })
    .unwrap();
    let pose = b.state().placement.laid[&1].pose;
    assert!(
        (pose.angle - 90.0).abs() < 1e-9
            && (pose.x - 44.0).abs() < 1e-9
            && (pose.y - 12.0).abs() < 1e-9
    );
}

#[test]
fn adjustment_score_bands_and_modifiers() {
    let r = Ruleset::builtin();
    assert!(allowance(&r, "forest", 2).allows.is_empty());
    assert_eq!(allowance(&r, "forest", 3).slide_max, Some(6.0));
    assert_eq!(
        allowance(&r, "forest", 5).allows,
        vec![AdjustmentOption::Slide, AdjustmentOption::Pivot]
    );
    assert_eq!(
        allowance(&r, "forest", 7).allows,
        vec![AdjustmentOption::Remove]
    );
    assert_eq!(allowance(&r, "forest", -1).allows, vec![]);
    assert_eq!(
        allowance(&r, "coast", 5).allows,
        vec![AdjustmentOption::Remove]
    );
    assert!(allowance(&r, "river", 4).allows.is_empty());
}

/// Everything down and adjusted: South forest, North forest, South village,
/// North brush, North marsh; the road is next.
fn all_down() -> Battle {
    let mut b = selected();
    river_down(&mut b);
    let steps: [(Side, usize, u8, Pose); 5] = [
        (Side::South, 1, 6, Pose::new(36.0, 14.0, 0.0)),
        (Side::North, 0, 6, Pose::new(36.0, 34.0, 0.0)),
        (Side::South, 5, 2, Pose::new(60.0, 3.0, 0.0)),
        (Side::North, 2, 2, Pose::new(20.0, 45.0, 0.0)),
        (Side::North, 3, 1, Pose::new(48.0, 3.0, 0.0)),
    ];
    for (side, piece, die, pose) in steps {
        let shape = if piece == 5 {
            rect(7.0, 6.0)
        } else {
            rect(10.0, 6.0)
        };
        if piece == 3 {
            // The marsh would be 0.5 MU from the village: refused, then put
            // at the other end of South's edge.
            let e = place(&mut b, side, piece, shape.clone(), die, pose).unwrap_err();
            assert!(
                e.message.contains("Marsh is 3.5 MU from Village (South)"),
                "{e}"
            );
            b.apply(Command::PlacePiece {
                side,
                pose: Pose::new(30.0, 3.0, 0.0),
            })
            .unwrap();
        } else {
            place(&mut b, side, piece, shape, die, pose).unwrap();
        }
        b.apply(Command::RollAdjustment {
            side: side.opponent(),
            dice: d(1),
        })
        .unwrap();
    }
    b
}

#[test]
fn pieces_alternate_and_the_road_must_touch_the_village() {
    let mut b = all_down();
    assert_eq!(turn(&b), PlacementTurn::Road { side: Side::South });
    let e = b
        .apply(Command::PlaceRoad {
            side: Side::South,
            points: vec![[0.0, 24.0], [72.0, 24.0]],
        })
        .unwrap_err();
    assert!(e.message.contains("must pass through or touch it"), "{e}");
    let e = b
        .apply(Command::PlaceRoad {
            side: Side::South,
            points: vec![[36.0, 0.0], [36.0, 48.0]],
        })
        .unwrap_err();
    assert!(e.message.contains("overlaps"), "{e}");
    let e = b
        .apply(Command::PlaceRoad {
            side: Side::South,
            points: vec![[0.0, 24.0], [30.0, 24.0]],
        })
        .unwrap_err();
    assert!(e.message.contains("both ends must be on an edge"), "{e}");
    b.apply(Command::PlaceRoad {
        side: Side::South,
        points: vec![[64.0, 0.0], [64.0, 48.0]],
    })
    .unwrap();
    assert_eq!(
        b.phase(),
        Phase::Deployment(DeploymentTurn::Camp(Side::North))
    );
}

#[test]
fn rolls_are_never_undone_and_the_log_replays() {
    let mut b = all_down();
    b.apply(Command::DeclineRoad { side: Side::South }).unwrap();
    b.undo().unwrap();
    let e = b.undo().unwrap_err();
    assert!(e.message.contains("never undone"), "{e}");
    let again = Battle::replay(b.ruleset().clone(), b.id().to_string(), b.log()).unwrap();
    assert_eq!(again.state(), b.state());
}

#[test]
fn nearest_legal_pose_snaps_into_the_zone() {
    let mut b = selected();
    river_down(&mut b);
    b.apply(Command::RollPlacement {
        side: Side::South,
        piece: 1,
        shape: rect(10.0, 6.0),
        dice: d(2),
    })
    .unwrap();
    let pose = nearest_legal_pose(b.state(), b.ruleset(), Pose::new(30.0, 12.0, 0.0)).unwrap();
    assert_eq!(pose, Pose::new(30.0, 3.0, 0.0));
    b.apply(Command::PlacePiece {
        side: Side::South,
        pose,
    })
    .unwrap();
}

#[test]
fn the_table_size_is_fixed_once_terrain_is_down() {
    let mut b = selected();
    river_down(&mut b);
    let mut s = b.state().settings.clone();
    s.title = "Renamed".into();
    b.apply(Command::Configure {
        settings: s.clone(),
    })
    .unwrap();
    s.table.width = 60.0;
    let e = b.apply(Command::Configure { settings: s }).unwrap_err();
    assert!(
        e.message.contains("fixed once terrain is on the table"),
        "{e}"
    );
}
