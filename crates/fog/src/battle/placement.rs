//! Terrain placement (RULES 5): rivers and coasts, then the compulsory
//! pieces, then the rest alternately, each where its placement die sends it,
//! under the 4 MU spacing rule; then the optional road.
//!
//! Whose turn it is and what he must do next is derived from the state
//! (`turn`), never stored, so undo and replay cannot get it out of step.
//! Each command is checked in `decide` (the road's in `road`), against
//! where a piece may lie (`pose`).

use super::{Event, State};
use crate::geometry::{Footprint, Pose, Shape, Table};
use crate::ruleset::{PieceKind, Ruleset, TerrainClass};
use muster_core::dice::Roll;
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// A piece on the table: its shape and pose, and a river's rolled going.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Laid {
    pub shape: Shape,
    pub pose: Pose,
    pub going: Option<TerrainClass>,
    /// The ground it covers, kept with it: every check reads it.
    #[serde(skip)]
    footprint: Footprint,
}

impl Laid {
    pub fn new(shape: Shape, pose: Pose, going: Option<TerrainClass>) -> Laid {
        Laid {
            footprint: Footprint::new(&shape, pose),
            shape,
            pose,
            going,
        }
    }

    pub fn footprint(&self) -> &Footprint {
        &self.footprint
    }

    pub fn set_pose(&mut self, pose: Pose) {
        self.pose = pose;
        self.footprint = Footprint::new(&self.shape, pose);
    }
}

/// The piece being placed after a placement roll.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rolled {
    pub piece: usize,
    pub shape: Shape,
    pub result: u8,
}

/// The piece whose adjustment is pending, and the roll once made.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Adjusting {
    pub piece: usize,
    /// The adjustment roll, with its modifiers; its total is the score.
    pub roll: Option<Roll>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlacementState {
    /// By pick index (`selection.picks`).
    pub laid: BTreeMap<usize, Laid>,
    pub removed: BTreeSet<usize>,
    pub set_aside: BTreeSet<usize>,
    pub rolled: Option<Rolled>,
    /// A piece whose rolled result had no legal position: re-roll it.
    pub reroll: Option<(usize, Shape)>,
    pub going_pending: Option<usize>,
    pub adjusting: Option<Adjusting>,
    /// The road's centre line, edge to edge.
    pub road: Option<Vec<[f64; 2]>>,
    pub road_decided: bool,
}

impl PlacementState {
    fn done(&self, piece: usize) -> bool {
        self.laid.contains_key(&piece) || self.set_aside.contains(&piece)
    }

    /// Pieces standing on the table (placed and not removed).
    pub fn standing(&self) -> impl Iterator<Item = (usize, &Laid)> {
        self.laid
            .iter()
            .filter(|(i, _)| !self.removed.contains(i))
            .map(|(i, l)| (*i, l))
    }
}

/// What the placement step waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlacementTurn {
    /// `side` places his river or coast.
    Waterway { side: Side, piece: usize },
    /// `side` rolls the going of the river he placed.
    Going { side: Side, piece: usize },
    /// `side` rolls for where a piece goes; `piece` is set when the rules
    /// say which (a compulsory piece, or a re-roll).
    Roll { side: Side, piece: Option<usize> },
    /// `side` places `piece` in the zone of `result`.
    Place {
        side: Side,
        piece: usize,
        result: u8,
    },
    /// `side` (the placer's opponent) rolls to adjust `piece`.
    AdjustRoll { side: Side, piece: usize },
    /// `side` adjusts `piece` as `score` allows, or declines.
    Adjust {
        side: Side,
        piece: usize,
        score: i32,
    },
    /// `side` (the initiative holder) may place a road.
    Road { side: Side },
}

impl PlacementTurn {
    /// Whose turn it is.
    pub fn side(self) -> Side {
        match self {
            PlacementTurn::Waterway { side, .. }
            | PlacementTurn::Going { side, .. }
            | PlacementTurn::Roll { side, .. }
            | PlacementTurn::Place { side, .. }
            | PlacementTurn::AdjustRoll { side, .. }
            | PlacementTurn::Adjust { side, .. }
            | PlacementTurn::Road { side } => side,
        }
    }
}

pub(super) fn is_waterway(ruleset: &Ruleset, terrain: &str) -> bool {
    ruleset
        .terrain(terrain)
        .is_some_and(|t| matches!(t.kind, PieceKind::River | PieceKind::Coast))
}

/// The next thing placement waits for, or `None` when it is over.
pub fn turn(state: &State, ruleset: &Ruleset) -> Option<PlacementTurn> {
    let p = &state.placement;
    let picks = &state.selection.picks;
    let owner = |i: usize| picks[i].side;
    if let Some(piece) = p.going_pending {
        return Some(PlacementTurn::Going {
            side: owner(piece),
            piece,
        });
    }
    if let Some(a) = &p.adjusting {
        let side = owner(a.piece).opponent();
        return Some(match &a.roll {
            None => PlacementTurn::AdjustRoll {
                side,
                piece: a.piece,
            },
            Some(roll) => PlacementTurn::Adjust {
                side,
                piece: a.piece,
                score: roll.total,
            },
        });
    }
    if let Some(r) = &p.rolled {
        return Some(PlacementTurn::Place {
            side: owner(r.piece),
            piece: r.piece,
            result: r.result,
        });
    }
    if let Some((piece, _)) = &p.reroll {
        return Some(PlacementTurn::Roll {
            side: owner(*piece),
            piece: Some(*piece),
        });
    }
    let init = state.initiative.winner?;
    let waiting = |i: &usize| !p.done(*i);
    let indexes = 0..picks.len();
    if let Some(i) = indexes
        .clone()
        .filter(waiting)
        .find(|&i| is_waterway(ruleset, &picks[i].terrain))
    {
        return Some(PlacementTurn::Waterway {
            side: owner(i),
            piece: i,
        });
    }
    for side in [init, init.opponent()] {
        if let Some(i) = indexes
            .clone()
            .filter(waiting)
            .find(|&i| picks[i].side == side && picks[i].compulsory)
        {
            return Some(PlacementTurn::Roll {
                side,
                piece: Some(i),
            });
        }
    }
    let free = |s: Side, done: bool| {
        indexes
            .clone()
            .filter(|&i| {
                let k = &picks[i];
                k.side == s
                    && !k.compulsory
                    && !is_waterway(ruleset, &k.terrain)
                    && p.done(i) == done
            })
            .count()
    };
    let other = init.opponent();
    if free(init, false) > 0 && (free(other, false) == 0 || free(init, true) <= free(other, true)) {
        return Some(PlacementTurn::Roll {
            side: init,
            piece: None,
        });
    }
    if free(other, false) > 0 {
        return Some(PlacementTurn::Roll {
            side: other,
            piece: None,
        });
    }
    if !p.road_decided {
        return Some(PlacementTurn::Road { side: init });
    }
    None
}

pub(super) fn table(state: &State) -> Table {
    state.table()
}

/// A piece's name for messages: "Forest", "large Brush", "South's Forest".
pub fn piece_name(state: &State, ruleset: &Ruleset, piece: usize) -> String {
    let pick = &state.selection.picks[piece];
    let name = ruleset.terrain_name(&pick.terrain);
    if pick.large {
        format!("Large {}", name.to_lowercase())
    } else {
        name.to_string()
    }
}

pub(super) fn expect_turn(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    what: &str,
) -> Result<PlacementTurn, RuleError> {
    let Some(turn) = turn(state, ruleset) else {
        return refuse("5", "Terrain placement is over");
    };
    let whose = turn.side();
    if whose != side {
        return refuse(
            "5",
            format!("It is {whose}'s turn, not {side}'s, to {what}"),
        );
    }
    Ok(turn)
}

pub(super) fn wrong_step(turn: PlacementTurn) -> Result<Vec<Event>, RuleError> {
    let now = match turn {
        PlacementTurn::Waterway { .. } => "the river or coast is placed first",
        PlacementTurn::Going { .. } => "the river's going is rolled next",
        PlacementTurn::Roll { .. } => "the next piece's placement is rolled first",
        PlacementTurn::Place { .. } => "the rolled piece is placed next",
        PlacementTurn::AdjustRoll { .. } => "the adjustment roll comes next (rule 6)",
        PlacementTurn::Adjust { .. } => "the adjustment is made or declined next (rule 6)",
        PlacementTurn::Road { .. } => "only the road is left to place",
    };
    refuse("5", format!("Not now: {now}"))
}

mod decide;
mod pose;
mod road;

pub(super) use decide::{decide_going, decide_place, decide_roll, decide_waterway};
pub use pose::{
    check_pose, legal_pose_exists, nearest_legal_pose, placement_rolled, zone_highlight,
};
pub use road::check_road;
pub(super) use road::decide_road;

/// Folds a placement event into the state.
pub(super) fn fold(
    p: &mut PlacementState,
    ruleset: &Ruleset,
    picks: &[super::Pick],
    event: &Event,
) {
    match event {
        Event::PlacementRolled {
            piece,
            shape,
            result,
            legal,
            ..
        } => {
            if *legal {
                p.reroll = None;
                p.rolled = Some(Rolled {
                    piece: *piece,
                    shape: shape.clone(),
                    result: *result,
                });
            } else {
                p.reroll = Some((*piece, shape.clone()));
            }
        }
        Event::PieceSetAside { piece, .. } => {
            p.reroll = None;
            p.set_aside.insert(*piece);
        }
        Event::PiecePlaced {
            piece, shape, pose, ..
        } => {
            p.rolled = None;
            p.laid.insert(*piece, Laid::new(shape.clone(), *pose, None));
            let river =
                ruleset.terrain(&picks[*piece].terrain).map(|t| t.kind) == Some(PieceKind::River);
            if river {
                p.going_pending = Some(*piece);
            } else {
                p.adjusting = Some(Adjusting {
                    piece: *piece,
                    roll: None,
                });
            }
        }
        Event::GoingRolled { piece, class, .. } => {
            p.going_pending = None;
            if let Some(l) = p.laid.get_mut(piece) {
                l.going = Some(*class);
            }
            p.adjusting = Some(Adjusting {
                piece: *piece,
                roll: None,
            });
        }
        Event::RoadPlaced { points, .. } => {
            p.road = Some(points.clone());
            p.road_decided = true;
        }
        Event::RoadDeclined { .. } => p.road_decided = true,
        _ => {}
    }
}
