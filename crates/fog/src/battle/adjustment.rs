//! Terrain adjustment (RULES 6): right after each piece is placed, the
//! placer's opponent rolls; the modified score allows a slide, a pivot or a
//! removal, or nothing. A river or coast can only be removed. After an
//! adjustment the piece lies wholly on the table and overlaps nothing; the
//! 4 MU spacing does not apply.

use super::placement::{PlacementState, PlacementTurn, piece_name, turn};
use super::{Event, State};
use crate::geometry::{self, Footprint, Pose, TOUCH};
use crate::ruleset::{AdjustmentOption, PieceKind, Ruleset, TerrainClass};
use muster_core::dice::{self, AppDice, DiceInput, Modifier};
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};

/// What the adjuster does with the piece.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum AdjustAction {
    Decline,
    /// A straight move by (dx, dy) MU.
    Slide {
        dx: f64,
        dy: f64,
    },
    /// A turn by `degrees` (anticlockwise) about (x, y), a point on the
    /// piece's edge.
    Pivot {
        x: f64,
        y: f64,
        degrees: f64,
    },
    Remove,
}

/// What a score allows for a piece: the options, the slide limit and the
/// band's words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Allowance {
    pub allows: Vec<AdjustmentOption>,
    pub slide_max: Option<f64>,
    pub text: String,
}

fn kind(ruleset: &Ruleset, terrain: &str) -> Option<PieceKind> {
    ruleset.terrain(terrain).map(|t| t.kind)
}

/// The modifiers of RULES 6 for a piece.
fn modifiers(ruleset: &Ruleset, terrain: &str, compulsory: bool) -> Vec<Modifier> {
    let m = &ruleset.adjustment.modifiers;
    let mut out = Vec::new();
    if compulsory {
        out.push(Modifier {
            reason: "compulsory".into(),
            value: m.compulsory,
        });
    }
    let plus = match kind(ruleset, terrain) {
        Some(PieceKind::River) => Some(("river", m.river)),
        Some(PieceKind::Coast) => Some(("coast", m.coast)),
        _ if ruleset.terrain(terrain).map(|t| t.class) == Some(TerrainClass::Impassable) => {
            Some(("impassable", m.impassable))
        }
        _ => None,
    };
    if let Some((reason, value)) = plus {
        out.push(Modifier {
            reason: reason.into(),
            value,
        });
    }
    out
}

/// What a modified score allows for a piece of `terrain`.
pub fn allowance(ruleset: &Ruleset, terrain: &str, score: i32) -> Allowance {
    let adj = &ruleset.adjustment;
    if matches!(
        kind(ruleset, terrain),
        Some(PieceKind::River | PieceKind::Coast)
    ) {
        let remove = score >= adj.river_or_coast_remove_min;
        return Allowance {
            allows: if remove {
                vec![AdjustmentOption::Remove]
            } else {
                vec![]
            },
            slide_max: None,
            text: if remove {
                "may remove it (a river or coast cannot slide or pivot)".into()
            } else {
                "no change (a river or coast is only removed, on 5+)".into()
            },
        };
    }
    let band = adj
        .results
        .iter()
        .find(|b| score >= b.min && b.max.is_none_or(|m| score <= m))
        .unwrap_or(&adj.results[0]);
    Allowance {
        allows: band.allows.clone(),
        slide_max: band.slide_max,
        text: band.text.clone(),
    }
}

fn expect(state: &State, ruleset: &Ruleset, side: Side) -> Result<PlacementTurn, RuleError> {
    match turn(state, ruleset) {
        Some(
            t @ (PlacementTurn::AdjustRoll { side: s, .. } | PlacementTurn::Adjust { side: s, .. }),
        ) => {
            if s != side {
                return refuse("6", format!("{s} adjusts this piece, not {side}"));
            }
            Ok(t)
        }
        _ => refuse("6", "No piece is waiting for adjustment"),
    }
}

pub(super) fn decide_roll(
    state: &State,
    ruleset: &Ruleset,
    app: &mut AppDice,
    side: Side,
    input: &DiceInput,
) -> Result<Vec<Event>, RuleError> {
    let PlacementTurn::AdjustRoll { piece, .. } = expect(state, ruleset, side)? else {
        return refuse("6", "The adjustment roll has been made");
    };
    let pick = &state.selection.picks[piece];
    let roll = dice::roll(
        input,
        1,
        "the adjustment roll",
        app,
        modifiers(ruleset, &pick.terrain, pick.compulsory),
    )?;
    let allowance = allowance(ruleset, &pick.terrain, roll.total);
    Ok(vec![Event::AdjustmentRolled {
        side,
        piece,
        score: roll.total,
        roll,
        allowance,
    }])
}

/// Where an adjustment leaves the piece, checked. `None` for decline/remove.
pub fn check_adjust(
    state: &State,
    ruleset: &Ruleset,
    piece: usize,
    score: i32,
    action: &AdjustAction,
) -> Result<Option<Pose>, RuleError> {
    let pick = &state.selection.picks[piece];
    let name = piece_name(state, ruleset, piece);
    let allowance = allowance(ruleset, &pick.terrain, score);
    let needs = |o: AdjustmentOption, what: &str| -> Result<(), RuleError> {
        if allowance.allows.contains(&o) {
            Ok(())
        } else {
            refuse(
                "6",
                format!(
                    "A score of {score} does not allow a {what}: {}",
                    allowance.text
                ),
            )
        }
    };
    let laid = state
        .placement
        .laid
        .get(&piece)
        .expect("an adjusted piece is laid");
    let pose = match action {
        AdjustAction::Decline => return Ok(None),
        AdjustAction::Remove => {
            needs(AdjustmentOption::Remove, "removal")?;
            return Ok(None);
        }
        AdjustAction::Slide { dx, dy } => {
            needs(AdjustmentOption::Slide, "slide")?;
            let max = allowance.slide_max.unwrap_or(0.0);
            let len = dx.hypot(*dy);
            if !len.is_finite() || len > max + TOUCH {
                return refuse(
                    "6",
                    format!("{name} may slide up to {max} MU; this slide is {len:.1} MU"),
                );
            }
            Pose {
                x: laid.pose.x + dx,
                y: laid.pose.y + dy,
                ..laid.pose
            }
        }
        AdjustAction::Pivot { x, y, degrees } => {
            needs(AdjustmentOption::Pivot, "pivot")?;
            let off = laid.footprint().boundary_distance([*x, *y]);
            if !off.is_finite() || off > 0.05 {
                return refuse(
                    "6",
                    format!(
                        "A pivot is about a point on the piece's edge; ({x:.1}, {y:.1}) is {off:.1} MU from {name}'s edge"
                    ),
                );
            }
            laid.pose.pivoted([*x, *y], *degrees)
        }
    };
    let f = Footprint::new(&laid.shape, pose);
    if let Some((by, edge)) = state.table().overhang(&f) {
        return refuse(
            "6",
            format!("{name} would hang {by:.1} MU over the {edge} table edge"),
        );
    }
    for (i, other) in state.placement.standing() {
        if i != piece && geometry::overlaps(&f, other.footprint()) {
            return refuse(
                "6",
                format!(
                    "{name} would overlap {} ({})",
                    piece_name(state, ruleset, i),
                    state.selection.picks[i].side
                ),
            );
        }
    }
    Ok(Some(pose))
}

pub(super) fn decide_adjust(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    action: &AdjustAction,
) -> Result<Vec<Event>, RuleError> {
    let (piece, pose) = match expect(state, ruleset, side)? {
        PlacementTurn::Adjust { piece, score, .. } => {
            (piece, check_adjust(state, ruleset, piece, score, action)?)
        }
        // "The adjuster may also decline" (rule 6): a player content with
        // the piece where it lies need not roll for it.
        PlacementTurn::AdjustRoll { piece, .. } if *action == AdjustAction::Decline => {
            (piece, None)
        }
        _ => return refuse("6", "Roll for the adjustment first"),
    };
    Ok(vec![Event::PieceAdjusted {
        side,
        piece,
        action: action.clone(),
        pose,
    }])
}

pub(super) fn fold(p: &mut PlacementState, event: &Event) {
    match event {
        Event::AdjustmentRolled {
            piece,
            roll,
            allowance,
            ..
        } => {
            p.adjusting = if allowance.allows.is_empty() {
                None
            } else {
                Some(super::placement::Adjusting {
                    piece: *piece,
                    roll: Some(roll.clone()),
                })
            };
        }
        Event::PieceAdjusted {
            piece,
            action,
            pose,
            ..
        } => {
            p.adjusting = None;
            if *action == AdjustAction::Remove {
                p.removed.insert(*piece);
            } else if let (Some(pose), Some(laid)) = (pose, p.laid.get_mut(piece)) {
                laid.set_pose(*pose);
            }
        }
        _ => {}
    }
}
