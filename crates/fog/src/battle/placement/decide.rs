//! Each terrain placement command, checked (RULES 4, 5,
//! `docs/src/rules/fog.md`): the river or coast along its side edge within
//! its width, a river's going rolled, a piece rolled for (its size, the
//! forced piece, a re-roll for the same piece, set aside when no die could
//! place it), and a rolled piece placed where its die allows.

use super::pose::{check_ground, check_pose, legal_pose_exists, obstacles};
use super::{PlacementTurn, expect_turn, is_waterway, piece_name, table, wrong_step};
use crate::battle::{Event, State};
use crate::geometry::{self, Footprint, Pose, Shape, SideEdge, SizeClass, TOUCH};
use crate::ruleset::{PieceKind, Ruleset, TerrainClass};
use muster_core::dice::{self, AppDice, DiceInput};
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;

pub(crate) fn decide_waterway(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    edge: SideEdge,
    width: f64,
    offset: f64,
) -> Result<Vec<Event>, RuleError> {
    let turn = expect_turn(state, ruleset, side, "place the river or coast")?;
    let PlacementTurn::Waterway { piece, .. } = turn else {
        return wrong_step(turn);
    };
    let terrain = &state.selection.picks[piece].terrain;
    let river = ruleset.terrain(terrain).map(|t| t.kind) == Some(PieceKind::River);
    let t = table(state);
    let (max_width, reach) = if river {
        (ruleset.river.max_width, ruleset.river.within_of_side_edge)
    } else {
        (ruleset.coast.max_depth, ruleset.coast.max_depth)
    };
    let noun = if river {
        "A river is up to"
    } else {
        "A coast is up to"
    };
    if !(width > 0.0 && width <= max_width + TOUCH) {
        return refuse(
            "5",
            format!("{noun} {max_width} MU wide; {width} was given"),
        );
    }
    if !river && offset.abs() > TOUCH {
        return refuse("5", "A coast lies along the side edge (offset 0)");
    }
    if !(offset >= 0.0 && offset + width <= reach + TOUCH) {
        return refuse(
            "5",
            format!(
                "A river lies wholly within {reach} MU of its side edge; this one reaches {:.1} MU",
                offset + width
            ),
        );
    }
    let near = match edge {
        SideEdge::West => offset + width / 2.0,
        SideEdge::East => t.width - offset - width / 2.0,
    };
    let shape = Shape::Rectangle {
        width,
        depth: t.depth,
    };
    let pose = Pose::new(near, t.depth / 2.0, 0.0);
    let f = Footprint::new(&shape, pose);
    check_ground(
        state,
        ruleset,
        &f,
        ruleset.terrain_name(terrain),
        &obstacles(state, ruleset, piece),
        "5",
    )?;
    Ok(vec![Event::PiecePlaced {
        side,
        piece,
        shape,
        pose,
    }])
}

pub(crate) fn decide_going(
    state: &State,
    ruleset: &Ruleset,
    app: &mut AppDice,
    side: Side,
    input: &DiceInput,
) -> Result<Vec<Event>, RuleError> {
    let turn = expect_turn(state, ruleset, side, "roll the river's going")?;
    let PlacementTurn::Going { piece, .. } = turn else {
        return wrong_step(turn);
    };
    let roll = dice::roll(input, 1, "the river's going", app, vec![])?;
    let class = ruleset
        .river
        .going
        .get(&roll.total.to_string())
        .copied()
        .unwrap_or(TerrainClass::Difficult);
    Ok(vec![Event::GoingRolled {
        side,
        piece,
        roll,
        class,
    }])
}

pub(crate) fn decide_roll(
    state: &State,
    ruleset: &Ruleset,
    app: &mut AppDice,
    side: Side,
    piece: usize,
    shape: &Shape,
    input: &DiceInput,
) -> Result<Vec<Event>, RuleError> {
    let turn = expect_turn(state, ruleset, side, "roll for a piece")?;
    let PlacementTurn::Roll { piece: forced, .. } = turn else {
        return wrong_step(turn);
    };
    let picks = &state.selection.picks;
    let Some(pick) = picks.get(piece) else {
        return refuse("5", format!("There is no selected piece {piece}"));
    };
    if let Some(f) = forced
        && f != piece
    {
        return refuse(
            "5",
            format!("{side} must place {} now", piece_name(state, ruleset, f)),
        );
    }
    if let Some((_, s)) = &state.placement.reroll
        && s != shape
    {
        return refuse("5", "A re-roll is for the same physical piece");
    }
    if pick.side != side || pick.compulsory != picks[forced.unwrap_or(piece)].compulsory {
        return refuse(
            "5",
            format!(
                "{} is not one of {side}'s pieces to place now",
                piece_name(state, ruleset, piece)
            ),
        );
    }
    if state.placement.done(piece) || is_waterway(ruleset, &pick.terrain) {
        return refuse(
            "5",
            format!(
                "{} is not waiting to be placed",
                piece_name(state, ruleset, piece)
            ),
        );
    }
    let class = if pick.large {
        SizeClass::Large
    } else {
        SizeClass::Normal
    };
    geometry::check_size(shape, class, &ruleset.piece_sizes)
        .map_err(|e| RuleError::new("4", format!("{}: {e}", piece_name(state, ruleset, piece))))?;
    let roll = dice::roll(input, 1, "the placement roll", app, vec![])?;
    let result = roll.total as u8;
    let legal = legal_pose_exists(state, ruleset, piece, shape, result).is_some();
    let mut events = vec![Event::PlacementRolled {
        side,
        piece,
        shape: shape.clone(),
        roll,
        result,
        legal,
    }];
    if !legal && !(1..=6u8).any(|r| legal_pose_exists(state, ruleset, piece, shape, r).is_some()) {
        events.push(Event::PieceSetAside { side, piece });
    }
    Ok(events)
}

pub(crate) fn decide_place(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    pose: Pose,
) -> Result<Vec<Event>, RuleError> {
    let turn = expect_turn(state, ruleset, side, "place a piece")?;
    let PlacementTurn::Place { piece, result, .. } = turn else {
        return wrong_step(turn);
    };
    let shape = state
        .placement
        .rolled
        .as_ref()
        .map(|r| r.shape.clone())
        .expect("Place implies rolled");
    check_pose(state, ruleset, piece, &shape, pose, result)?;
    Ok(vec![Event::PiecePlaced {
        side,
        piece,
        shape,
        pose,
    }])
}
