//! Where a terrain piece may lie (RULES 5, `docs/src/rules/fog.md`): the
//! zone its placement die gives, wholly on the table, overlapping nothing,
//! 4 MU from every piece that is not a river or coast (measured, for the
//! refusal), the zone to highlight, and the search for a legal pose or the
//! one nearest where the player aims.

use super::{Rolled, piece_name, table};
use crate::battle::State;
use crate::geometry::{self, Candidates, Footprint, Pose, Shape, SideLines, TOUCH, Table};
use crate::ruleset::{PieceKind, PlacementZone, Ruleset};
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;

/// The side lines a piece may touch for results 3-4: the side edges, or a
/// coast's inner edge where one lies along them.
pub(super) fn side_lines(state: &State, ruleset: &Ruleset) -> SideLines {
    let t = table(state);
    let mut lines = SideLines::edges(&t);
    for (i, laid) in state.placement.standing() {
        let kind = ruleset
            .terrain(&state.selection.picks[i].terrain)
            .map(|t| t.kind);
        if kind == Some(PieceKind::Coast) {
            let f = laid.footprint();
            if f.min()[0] <= TOUCH {
                lines.west = lines.west.max(f.max()[0]);
            } else {
                lines.east = lines.east.min(f.min()[0]);
            }
        }
    }
    lines
}

/// Another standing piece, as a placement check sees it.
pub(super) struct Other<'a> {
    pick: usize,
    footprint: &'a Footprint,
    /// Pieces may be placed closer than the spacing to it (a river, a coast).
    spacing_exempt: bool,
}

impl Other<'_> {
    /// "Forest (South)"; built only for a message.
    fn name(&self, state: &State, ruleset: &Ruleset) -> String {
        let side = state.selection.picks[self.pick].side;
        format!("{} ({side})", piece_name(state, ruleset, self.pick))
    }
}

/// The ground die `result` points `placer` at, to highlight (RULES 5).
pub fn zone_highlight(
    state: &State,
    ruleset: &Ruleset,
    placer: Side,
    result: u8,
) -> Vec<Footprint> {
    match zone(ruleset, result) {
        Ok(z) => geometry::zone_area(z, placer, &table(state), side_lines(state, ruleset)),
        Err(_) => Vec::new(),
    }
}

/// Every standing piece but `except`.
pub(super) fn obstacles<'a>(state: &'a State, ruleset: &Ruleset, except: usize) -> Vec<Other<'a>> {
    let exempt = &ruleset.placement.spacing_exempt_near;
    state
        .placement
        .standing()
        .filter(|(i, _)| *i != except)
        .map(|(i, laid)| Other {
            pick: i,
            footprint: laid.footprint(),
            spacing_exempt: exempt.contains(&state.selection.picks[i].terrain),
        })
        .collect()
}

/// Checks a footprint is on the table and overlaps nothing.
pub(super) fn check_ground(
    state: &State,
    ruleset: &Ruleset,
    f: &Footprint,
    name: &str,
    others: &[Other],
    rule: &str,
) -> Result<(), RuleError> {
    if let Some((by, edge)) = table(state).overhang(f) {
        return refuse(
            rule,
            format!(
                "{name} hangs {by:.1} MU over the {edge} table edge; pieces lie wholly on the table"
            ),
        );
    }
    for other in others {
        if geometry::overlaps(f, other.footprint) {
            return refuse(
                rule,
                format!(
                    "{name} overlaps {}; pieces never overlap",
                    other.name(state, ruleset)
                ),
            );
        }
    }
    Ok(())
}

/// Everything a pose check needs that does not depend on the pose, worked
/// out once so that a search can try thousands of poses cheaply.
pub(super) struct PoseCheck<'a> {
    state: &'a State,
    ruleset: &'a Ruleset,
    piece: usize,
    result: u8,
    zone: &'a PlacementZone,
    placer: Side,
    table: Table,
    lines: SideLines,
    others: Vec<Other<'a>>,
    /// The shape's outline in its own frame.
    outline: Vec<[f64; 2]>,
}

impl<'a> PoseCheck<'a> {
    fn new(
        state: &'a State,
        ruleset: &'a Ruleset,
        piece: usize,
        shape: &Shape,
        result: u8,
    ) -> Result<PoseCheck<'a>, RuleError> {
        Ok(PoseCheck {
            state,
            ruleset,
            piece,
            result,
            zone: zone(ruleset, result)?,
            placer: state.selection.picks[piece].side,
            table: table(state),
            lines: side_lines(state, ruleset),
            others: obstacles(state, ruleset, piece),
            outline: shape.outline(),
        })
    }

    /// The first thing wrong with a pose, cheapest test first: table edges
    /// and zone from the bounding box, then each nearby piece. Only finds;
    /// `check` measures and words it, so a search pays for no sentences.
    fn fault(&self, pose: Pose) -> Option<(Footprint, Fault)> {
        let f = Footprint::from_points(self.outline.iter().map(|p| pose.apply(*p)).collect());
        if let Some((by, edge)) = self.table.overhang(&f) {
            return Some((f, Fault::Overhang(by, edge)));
        }
        if let Err(e) = geometry::check_zone(self.zone, self.placer, &self.table, self.lines, &f) {
            return Some((f, Fault::Zone(e)));
        }
        let spacing = self.ruleset.placement.spacing;
        let bad = self.others.iter().position(|other| {
            if other.spacing_exempt {
                geometry::overlaps(&f, other.footprint)
            } else {
                !geometry::clear_of(&f, other.footprint, spacing)
            }
        })?;
        Some((f, Fault::Near(bad)))
    }

    fn legal(&self, pose: Pose) -> bool {
        self.fault(pose).is_none()
    }

    fn check(&self, pose: Pose) -> Result<(), RuleError> {
        let Some((f, fault)) = self.fault(pose) else {
            return Ok(());
        };
        let name = piece_name(self.state, self.ruleset, self.piece);
        let message = match fault {
            Fault::Overhang(by, edge) => format!(
                "{name} hangs {by:.1} MU over the {edge} table edge; pieces lie wholly on the table"
            ),
            Fault::Zone(e) => format!("Die {}: {e}", self.result),
            Fault::Near(i) => {
                let other = &self.others[i];
                let them = other.name(self.state, self.ruleset);
                let spacing = self.ruleset.placement.spacing;
                let d = geometry::min_distance(&f, other.footprint, spacing);
                if d <= TOUCH && geometry::overlaps(&f, other.footprint) {
                    format!("{name} overlaps {them}; pieces never overlap")
                } else {
                    format!("{name} is {d:.1} MU from {them}; pieces must be {spacing} MU apart")
                }
            }
        };
        refuse("5", message)
    }
}

/// What `PoseCheck::fault` found.
pub(super) enum Fault {
    Overhang(f64, &'static str),
    Zone(String),
    /// Overlapping, or too near, the other piece at this index.
    Near(usize),
}

/// The full check of a pose for the piece being placed with die `result`:
/// on the table, in the zone, overlapping nothing, 4 MU from every piece
/// that is not a river or coast. The error carries the measured figure.
pub fn check_pose(
    state: &State,
    ruleset: &Ruleset,
    piece: usize,
    shape: &Shape,
    pose: Pose,
    result: u8,
) -> Result<(), RuleError> {
    PoseCheck::new(state, ruleset, piece, shape, result)?.check(pose)
}

pub(super) fn zone(ruleset: &Ruleset, result: u8) -> Result<&PlacementZone, RuleError> {
    ruleset
        .placement
        .results
        .get(&result.to_string())
        .ok_or_else(|| RuleError::new("5", format!("no placement zone for die {result}")))
}

/// Zone candidates for a shape under die `result` (see `geometry::search`).
pub(super) fn centres<'a>(
    state: &'a State,
    ruleset: &'a Ruleset,
    placer: Side,
    result: u8,
    step: f64,
) -> impl Fn(([f64; 2], [f64; 2])) -> Vec<[f64; 2]> + 'a {
    let t = table(state);
    let lines = side_lines(state, ruleset);
    let zone = zone(ruleset, result).ok();
    move |reach| match zone {
        Some(z) => geometry::zone_candidates(z, placer, &t, lines, reach, step),
        None => Vec::new(),
    }
}

/// Some legal pose for `piece` with die `result`, if any exists.
pub fn legal_pose_exists(
    state: &State,
    ruleset: &Ruleset,
    piece: usize,
    shape: &Shape,
    result: u8,
) -> Option<Pose> {
    let grid = Candidates::default();
    let check = PoseCheck::new(state, ruleset, piece, shape, result).ok()?;
    geometry::any_legal(
        shape,
        grid,
        centres(state, ruleset, check.placer, result, grid.step),
        |pose| check.legal(pose),
    )
}

/// `state` with `piece` rolled for with `result`, as a placement roll leaves
/// it: for benchmarks and tools that explore poses without dice.
pub fn placement_rolled(state: &State, piece: usize, shape: Shape, result: u8) -> State {
    let mut s = state.clone();
    s.placement.rolled = Some(Rolled {
        piece,
        shape,
        result,
    });
    s
}

/// The legal pose nearest `wanted` for the piece being placed.
pub fn nearest_legal_pose(state: &State, ruleset: &Ruleset, wanted: Pose) -> Option<Pose> {
    let rolled = state.placement.rolled.as_ref()?;
    let grid = Candidates::default();
    let check = PoseCheck::new(state, ruleset, rolled.piece, &rolled.shape, rolled.result).ok()?;
    geometry::nearest_legal(
        &rolled.shape,
        wanted,
        grid,
        centres(state, ruleset, check.placer, rolled.result, grid.step),
        |pose| check.legal(pose),
    )
}
