//! The optional road (RULES 5, `docs/src/rules/fog.md`): placed or
//! declined last, from one table edge to another, touching pieces but
//! overlapping none (a river is forded), and through or touching the piece
//! the ruleset requires when it is on the table.

use super::{PlacementTurn, expect_turn, piece_name, table, wrong_step};
use crate::battle::{Event, State};
use crate::geometry::TOUCH;
use crate::ruleset::{PieceKind, Ruleset};
use geo::{Coord, Distance, Euclidean, LineString};
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;

/// A road's strip and whether it keeps the rules; the error measures.
pub fn check_road(state: &State, ruleset: &Ruleset, points: &[[f64; 2]]) -> Result<(), RuleError> {
    if points.len() < 2 {
        return refuse("5", "A road needs a start and an end");
    }
    let t = table(state);
    let edge_of = |p: [f64; 2]| -> Option<&'static str> {
        let d = [
            (p[0], "west"),
            (t.width - p[0], "east"),
            (p[1], "south"),
            (t.depth - p[1], "north"),
        ];
        d.into_iter()
            .filter(|(g, _)| g.abs() <= 0.05)
            .map(|(_, e)| e)
            .next()
    };
    for p in points {
        if p[0] < -TOUCH || p[0] > t.width + TOUCH || p[1] < -TOUCH || p[1] > t.depth + TOUCH {
            return refuse(
                "5",
                format!("The road leaves the table at ({:.1}, {:.1})", p[0], p[1]),
            );
        }
    }
    let (a, b) = (edge_of(points[0]), edge_of(points[points.len() - 1]));
    let (Some(a), Some(b)) = (a, b) else {
        return refuse(
            "5",
            "A road runs from one table edge to another: both ends must be on an edge",
        );
    };
    if a == b {
        return refuse(
            "5",
            format!("A road runs from one table edge to another; both ends are on the {a} edge"),
        );
    }
    let line = LineString::from(
        points
            .iter()
            .map(|p| Coord { x: p[0], y: p[1] })
            .collect::<Vec<_>>(),
    );
    let half = ruleset.road.width / 2.0;
    let must = ruleset.road.must_touch.as_deref();
    let mut touches_required = false;
    let mut required_exists = false;
    for (i, laid) in state.placement.standing() {
        let terrain = &state.selection.picks[i].terrain;
        let d = Euclidean.distance(&line, laid.footprint().polygon());
        if Some(terrain.as_str()) == must {
            required_exists = true;
            touches_required |= d <= half + TOUCH;
            continue;
        }
        // A road fords or bridges a river: every river runs the table's full
        // depth, so a road to its side edge could not exist otherwise.
        if ruleset.terrain(terrain).map(|t| t.kind) == Some(PieceKind::River) {
            continue;
        }
        if d < half - TOUCH {
            return refuse(
                "5",
                format!(
                    "The road overlaps {}; it may touch other pieces but not overlap them",
                    piece_name(state, ruleset, i).to_lowercase()
                ),
            );
        }
    }
    if required_exists && !touches_required {
        let name = must
            .map(|m| ruleset.terrain_name(m).to_lowercase())
            .unwrap_or_default();
        return refuse(
            "5",
            format!("With a {name} on the table, the road must pass through or touch it"),
        );
    }
    Ok(())
}

pub(crate) fn decide_road(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    points: Option<&[[f64; 2]]>,
) -> Result<Vec<Event>, RuleError> {
    let turn = expect_turn(state, ruleset, side, "decide on the road")?;
    let PlacementTurn::Road { .. } = turn else {
        return wrong_step(turn);
    };
    match points {
        Some(points) => {
            check_road(state, ruleset, points)?;
            Ok(vec![Event::RoadPlaced {
                side,
                points: points.to_vec(),
            }])
        }
        None => Ok(vec![Event::RoadDeclined { side }]),
    }
}
