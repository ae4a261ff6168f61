//! Terrain placement (RULES 5): rivers and coasts, then the compulsory
//! pieces, then the rest alternately, each where its placement die sends it,
//! under the 4 MU spacing rule; then the optional road.
//!
//! Whose turn it is and what he must do next is derived from the state
//! (`turn`), never stored, so undo and replay cannot get it out of step.

use super::{Event, State};
use crate::geometry::{
    self, Candidates, Footprint, Pose, Shape, SideEdge, SideLines, SizeClass, TOUCH, Table,
};
use crate::ruleset::{PieceKind, PlacementZone, Ruleset, TerrainClass};
use geo::{Coord, Distance, Euclidean, LineString};
use muster_core::dice::{self, AppDice, DiceInput, Roll};
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

fn is_waterway(ruleset: &Ruleset, terrain: &str) -> bool {
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

fn table(state: &State) -> Table {
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

/// The side lines a piece may touch for results 3-4: the side edges, or a
/// coast's inner edge where one lies along them.
fn side_lines(state: &State, ruleset: &Ruleset) -> SideLines {
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
struct Other<'a> {
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
fn obstacles<'a>(state: &'a State, ruleset: &Ruleset, except: usize) -> Vec<Other<'a>> {
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
fn check_ground(
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
struct PoseCheck<'a> {
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
enum Fault {
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

fn zone(ruleset: &Ruleset, result: u8) -> Result<&PlacementZone, RuleError> {
    ruleset
        .placement
        .results
        .get(&result.to_string())
        .ok_or_else(|| RuleError::new("5", format!("no placement zone for die {result}")))
}

/// Zone candidates for a shape under die `result` (see `geometry::search`).
fn centres<'a>(
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

fn expect_turn(
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

fn wrong_step(turn: PlacementTurn) -> Result<Vec<Event>, RuleError> {
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

pub(super) fn decide_waterway(
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

pub(super) fn decide_going(
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

pub(super) fn decide_roll(
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

pub(super) fn decide_place(
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

pub(super) fn decide_road(
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
