//! Ambushes (RULES 8.3): where a marker may stand, and the legality map the
//! table shows for the battle group chosen.
//!
//! A marker is legal in the two outer thirds, within the depth limit (half
//! the table for the initiative holder, 18 MU for the other), in terrain the
//! battle group could enter, and hidden from every point of the enemy
//! skirmisher deployment area under RULES 7 (see `crate::visibility`).

use super::deployment::{Ambush, AmbushContent, DeploymentTurn, ground_class};
use super::{Command, Event, State};
use crate::ruleset::{AmbushDepth, Ruleset, TerrainClass, Visibility};
use crate::visibility::{Effect, Screen, Sighting, Sightlines, Strip, Target};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::{Place, Revealed, SealKey, Sealed};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The terrain on the table as sight sees it.
pub fn sightlines(state: &State, ruleset: &Ruleset) -> Sightlines {
    let screens = state
        .placement
        .standing()
        .filter_map(|(i, laid)| {
            let terrain = ruleset.terrain(&state.selection.picks[i].terrain)?;
            let effect = match terrain.visibility {
                Visibility::None => return None,
                Visibility::Blocks { distance } => Effect::Blocks { distance },
                Visibility::LightFoot { distance } => Effect::LightFoot { distance },
                Visibility::Crest { distance } => {
                    let [a, b] = laid.shape.long_axis();
                    Effect::Crest {
                        distance,
                        crest: [laid.pose.apply(a), laid.pose.apply(b)],
                    }
                }
            };
            let name = super::piece_name(state, ruleset, i);
            Some(Screen::new(name, &laid.shape, laid.pose, effect))
        })
        .collect();
    Sightlines::new(screens)
}

/// What an ambush marker is for the rules: a troop type's sight and going.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// "Light Horse", or "a dummy (placed as Light Foot)".
    pub name: String,
    pub light_foot: bool,
    pub forbidden: Vec<TerrainClass>,
}

impl Profile {
    /// The profile of `content` in `side`'s army.
    pub fn of(
        state: &State,
        ruleset: &Ruleset,
        side: Side,
        content: AmbushContent,
    ) -> Result<Profile, RuleError> {
        let troop = match content {
            AmbushContent::Dummy => ruleset.deployment.ambush.dummy_as.as_str(),
            AmbushContent::Bg { bg } => {
                let army = state.armies[side].as_ref();
                match army.and_then(|a| a.bgs.get(bg)) {
                    Some(group) => group.troop_type.as_str(),
                    None => {
                        return refuse(
                            "8.3",
                            format!("{side} has no battle group number {}", bg + 1),
                        );
                    }
                }
            }
        };
        let Some(t) = ruleset.troop_types.get(troop) else {
            return refuse("8.3", format!("unknown troop type \"{troop}\""));
        };
        let name = match content {
            AmbushContent::Dummy => format!("a dummy (placed as {})", t.name),
            AmbushContent::Bg { .. } => t.name.clone(),
        };
        Ok(Profile {
            name,
            light_foot: t.light_foot,
            forbidden: t.ambush_forbidden_classes.clone(),
        })
    }
}

/// The ground `side` may ambush in, before terrain and sight: x ranges (the
/// outer thirds) and how far from his own long edge.
pub fn zone(state: &State, ruleset: &Ruleset, side: Side) -> (Vec<[f64; 2]>, f64) {
    let rules = &ruleset.deployment.ambush;
    let table = state.table();
    let xs = if rules.outer_thirds_only {
        vec![
            [0.0, table.width / 3.0],
            [2.0 * table.width / 3.0, table.width],
        ]
    } else {
        vec![[0.0, table.width]]
    };
    let depth = if state.initiative.winner == Some(side) {
        match rules.initiative_max_depth {
            AmbushDepth::Half => table.depth / 2.0,
        }
    } else {
        rules.other_max_depth
    };
    (xs, depth)
}

/// The enemy skirmisher deployment area `side`'s ambushes hide from.
pub fn enemy_area(state: &State, ruleset: &Ruleset, side: Side) -> Strip {
    let table = state.table();
    let d = ruleset.deployment.ambush.enemy_skirmisher_depth;
    match side.opponent() {
        Side::South => Strip {
            y_min: 0.0,
            y_max: d,
            width: table.width,
        },
        Side::North => Strip {
            y_min: table.depth - d,
            y_max: table.depth,
            width: table.width,
        },
    }
}

/// Why a point is not legal, by the first rule it fails: the map keeps only
/// this, the hover text asks `check` for the full sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Legal,
    OutsideZone,
    Terrain,
    Seen,
}

/// Everything a legality check needs, built once per map.
struct Checker<'a> {
    state: &'a State,
    ruleset: &'a Ruleset,
    side: Side,
    profile: Profile,
    lines: Sightlines,
    area: Strip,
    xs: Vec<[f64; 2]>,
    depth: f64,
}

impl<'a> Checker<'a> {
    fn new(state: &'a State, ruleset: &'a Ruleset, side: Side, profile: Profile) -> Checker<'a> {
        let (xs, depth) = zone(state, ruleset, side);
        Checker {
            lines: sightlines(state, ruleset),
            area: enemy_area(state, ruleset, side),
            state,
            ruleset,
            side,
            profile,
            xs,
            depth,
        }
    }

    fn depth_of(&self, at: [f64; 2]) -> f64 {
        match self.side {
            Side::South => at[1],
            Side::North => self.state.settings.table.depth - at[1],
        }
    }

    fn in_zone(&self, at: [f64; 2]) -> bool {
        let table = self.state.table();
        at[0] >= 0.0
            && at[0] <= table.width
            && at[1] >= 0.0
            && at[1] <= table.depth
            && self.xs.iter().any(|r| at[0] >= r[0] && at[0] <= r[1])
            && self.depth_of(at) <= self.depth + 1e-9
    }

    /// The piece `at` stands in that the profile may not enter.
    fn forbidden_ground(&self, at: [f64; 2]) -> Option<(usize, TerrainClass)> {
        self.state
            .placement
            .standing()
            .filter(|(_, laid)| laid.footprint().contains(at))
            .find_map(|(i, _)| {
                let class = ground_class(self.state, self.ruleset, i)?;
                self.profile
                    .forbidden
                    .contains(&class)
                    .then_some((i, class))
            })
    }

    fn sighting(&self, at: [f64; 2]) -> Sighting {
        let target = Target {
            at,
            light_foot: self.profile.light_foot,
        };
        self.lines.seen_from_strip(target, &self.area)
    }

    fn verdict(&self, at: [f64; 2]) -> Verdict {
        if !self.in_zone(at) {
            Verdict::OutsideZone
        } else if self.forbidden_ground(at).is_some() {
            Verdict::Terrain
        } else if self.sighting(at).is_seen() {
            Verdict::Seen
        } else {
            Verdict::Legal
        }
    }

    /// The full answer: why the point is legal, or the rule it breaks.
    fn check(&self, at: [f64; 2]) -> Result<String, RuleError> {
        let side = self.side;
        let enemy = side.opponent();
        // Where the point is as a tape measure finds it, in the players'
        // unit: a bare "(13.3, 2.9)" in MU beside lengths in cm misleads.
        let here = format!("The point {}", self.state.settings.point(at));
        if !self.in_zone(at) {
            let from_edge = self.depth_of(at);
            let why = if from_edge > self.depth {
                let whose = if self.state.initiative.winner == Some(side) {
                    "the initiative holder's ambushes go up to half-way across"
                } else {
                    "without the initiative, ambushes go within 18 MU of the own long edge"
                };
                format!(
                    "{here} is {from_edge:.1} MU from {side}'s long edge; {whose} ({} MU)",
                    self.depth
                )
            } else {
                format!("{here} is in the central third; ambushes go only in the two outer thirds")
            };
            return refuse("8.3", why);
        }
        if let Some((piece, class)) = self.forbidden_ground(at) {
            let name = super::piece_name(self.state, self.ruleset, piece);
            return refuse(
                "8.3",
                format!(
                    "{here} is in {name} ({class}), which {} cannot enter",
                    self.profile.name
                ),
            );
        }
        match self.sighting(at) {
            Sighting::Seen { from, crossings } => refuse(
                "8.3",
                format!(
                    "{here} is seen from the point {} {}; an ambush must be hidden from every point of {enemy}'s skirmisher area",
                    self.state.settings.point(from),
                    self.lines.describe_crossings(&crossings)
                ),
            ),
            Sighting::Hidden { blocked } => {
                let reasons: Vec<String> = blocked
                    .iter()
                    .map(|b| self.lines.describe_blocked(b))
                    .collect();
                Ok(format!(
                    "{here} is hidden from all of {enemy}'s skirmisher area: {} (rule 8.3)",
                    reasons.join("; ")
                ))
            }
        }
    }
}

/// Whether `side` may put an ambush marker for `content` at `at`: why it is
/// legal in words, or the rule it breaks.
pub fn check_ambush(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    content: AmbushContent,
    at: [f64; 2],
) -> Result<String, RuleError> {
    let profile = Profile::of(state, ruleset, side, content)?;
    Checker::new(state, ruleset, side, profile).check(at)
}

/// The legality of every cell of a grid over the table for one marker
/// profile: what the table overlay draws. Cells are `cell` MU squares;
/// each is judged at its centre.
#[derive(Clone, Debug, PartialEq)]
pub struct AmbushMap {
    pub side: Side,
    pub profile: Profile,
    pub cell: f64,
    pub columns: usize,
    pub rows: usize,
    verdicts: Vec<Verdict>,
}

impl AmbushMap {
    /// The map's grid step, MU.
    pub const CELL: f64 = 0.5;

    pub fn compute(state: &State, ruleset: &Ruleset, side: Side, profile: Profile) -> AmbushMap {
        let table = state.table();
        let cell = Self::CELL;
        let columns = (table.width / cell).ceil() as usize;
        let rows = (table.depth / cell).ceil() as usize;
        let checker = Checker::new(state, ruleset, side, profile);
        // Rows are independent: deal them out over the machine's cores in
        // turn, as the ambush zone covers only some of them.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
        let dealt: Vec<Vec<Vec<Verdict>>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|k| {
                    let checker = &checker;
                    scope.spawn(move || {
                        (k..rows)
                            .step_by(threads)
                            .map(|j| {
                                (0..columns)
                                    .map(|i| checker.verdict(Self::centre(i, j)))
                                    .collect()
                            })
                            .collect()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a map thread does not panic"))
                .collect()
        });
        let mut verdicts = Vec::with_capacity(columns * rows);
        for j in 0..rows {
            verdicts.extend_from_slice(&dealt[j % threads][j / threads]);
        }
        AmbushMap {
            side,
            profile: checker.profile,
            cell,
            columns,
            rows,
            verdicts,
        }
    }

    /// A map of these verdicts, row by row (tests of what draws it).
    #[cfg(test)]
    pub(crate) fn of_verdicts(columns: usize, verdicts: Vec<Verdict>) -> AmbushMap {
        AmbushMap {
            side: Side::South,
            profile: Profile {
                name: "Light Foot".into(),
                light_foot: true,
                forbidden: Vec::new(),
            },
            cell: Self::CELL,
            columns,
            rows: verdicts.len() / columns,
            verdicts,
        }
    }

    fn centre(i: usize, j: usize) -> [f64; 2] {
        [(i as f64 + 0.5) * Self::CELL, (j as f64 + 0.5) * Self::CELL]
    }

    /// The cells with their centres and verdicts, row by row from the south.
    pub fn cells(&self) -> impl Iterator<Item = ([f64; 2], Verdict)> + '_ {
        self.verdicts
            .iter()
            .enumerate()
            .map(|(k, v)| (Self::centre(k % self.columns, k / self.columns), *v))
    }

    pub fn legal_cells(&self) -> usize {
        self.verdicts
            .iter()
            .filter(|v| **v == Verdict::Legal)
            .count()
    }

    /// Cells inside the ambush zone (outer thirds, depth limit).
    pub fn zone_cells(&self) -> usize {
        self.verdicts
            .iter()
            .filter(|v| **v != Verdict::OutsideZone)
            .count()
    }
}

/// A cache of the map, recomputed only when the terrain, the side or the
/// profile changes.
#[derive(Clone, Debug, Default)]
pub struct AmbushMaps {
    key: Option<MapKey>,
    map: Option<AmbushMap>,
}

/// What a map depends on: the table, the terrain as placed, whose map, and
/// the marker's profile. Compared every frame; cloned only on a recompute.
#[derive(Clone, Debug, PartialEq)]
struct MapKey {
    table: super::TableSize,
    laid: BTreeMap<usize, super::Laid>,
    removed: BTreeSet<usize>,
    side: Side,
    profile: Profile,
}

/// Both sides' maps, kept by the battle for its seats' screens. A cache:
/// a clone of the battle starts it empty.
#[derive(Debug, Default)]
pub struct MapCache(std::sync::Mutex<muster_core::side::Sides<AmbushMaps>>);

impl Clone for MapCache {
    fn clone(&self) -> Self {
        MapCache::default()
    }
}

impl MapCache {
    /// `side`'s maps, for `work`.
    pub fn with<T>(&self, side: Side, work: impl FnOnce(&mut AmbushMaps) -> T) -> T {
        let mut maps = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        work(&mut maps[side])
    }
}

impl AmbushMaps {
    pub fn get(
        &mut self,
        state: &State,
        ruleset: &Ruleset,
        side: Side,
        profile: Profile,
    ) -> &AmbushMap {
        let p = &state.placement;
        let same = self.key.as_ref().is_some_and(|k| {
            k.table == state.settings.table
                && k.laid == p.laid
                && k.removed == p.removed
                && k.side == side
                && k.profile == profile
        });
        if !same || self.map.is_none() {
            self.key = Some(MapKey {
                table: state.settings.table,
                laid: p.laid.clone(),
                removed: p.removed.clone(),
                side,
                profile: profile.clone(),
            });
            self.map = Some(AmbushMap::compute(state, ruleset, side, profile));
        }
        self.map.as_ref().expect("computed above")
    }
}

fn expect_ambush_turn(state: &State, ruleset: &Ruleset, side: Side) -> Result<(), RuleError> {
    match state.phase(ruleset) {
        super::Phase::Deployment(DeploymentTurn::Ambushes(s)) if s == side => Ok(()),
        _ => refuse("8.3", format!("{side} cannot place an ambush now")),
    }
}

/// Every ambush record is padded to this many bytes: a dummy and a real
/// battle group look alike, whatever its number.
pub const AMBUSH_RECORD_BYTES: usize = 256;

/// Where marker `marker` (its index among all markers) is sealed.
fn place(state: &State, side: Side, marker: usize) -> Place<'_> {
    Place {
        game: &state.game,
        owner: side,
        kind: "ambush",
        slot: format!("marker {marker}"),
    }
}

/// The contents of `side`'s markers so far, opened with his sealing key.
pub fn open_ambushes(
    state: &State,
    side: Side,
    key: &SealKey,
) -> Result<Vec<(usize, AmbushContent)>, RuleError> {
    state
        .deployment
        .ambushes
        .iter()
        .enumerate()
        .filter(|(_, a)| a.side == side)
        .map(|(i, a)| {
            let opened: Revealed<AmbushContent> =
                super::opened(&a.sealed, key, &place(state, side, i), "8.3")?;
            Ok((i, opened.secret))
        })
        .collect()
}

/// On the owner's screen, before anything is sent: checks a marker fully,
/// with what it stands for, and seals it under his sealing key. The command
/// carries only the sealed record.
pub fn seal_ambush(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    at: [f64; 2],
    content: AmbushContent,
    key: &SealKey,
) -> Result<Command, RuleError> {
    expect_ambush_turn(state, ruleset, side)?;
    let earlier = open_ambushes(state, side, key)?;
    match content {
        AmbushContent::Dummy => {
            let max = ruleset.deployment.ambush.max_dummies;
            let dummies = earlier.iter().filter(|(_, c)| *c == content).count();
            if dummies as u32 >= max {
                return refuse(
                    "8.3",
                    format!("{side} has placed {dummies} dummy markers; the limit is {max}"),
                );
            }
        }
        AmbushContent::Bg { .. } => {
            if earlier.iter().any(|(_, c)| *c == content) {
                return refuse("8.3", "That battle group is already in ambush");
            }
        }
    }
    check_ambush(state, ruleset, side, content, at)?;
    let marker = state.deployment.ambushes.len();
    let sealed = Sealed::seal(
        &place(state, side, marker),
        &content,
        key,
        AMBUSH_RECORD_BYTES,
    )
    .map_err(|e| RuleError::new("8.3", e.to_string()))?;
    Ok(Command::PlaceAmbush { side, at, sealed })
}

/// What the rules can check of a sealed marker: the turn, and that it stands
/// where something of the owner's army (or a dummy) could hide.
pub(super) fn decide_place(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    at: [f64; 2],
    sealed: &Sealed,
) -> Result<Vec<Event>, RuleError> {
    expect_ambush_turn(state, ruleset, side)?;
    if sealed.owner != side {
        return refuse("8.3", format!("That record is sealed by {}", sealed.owner));
    }
    let army = state.armies[side].as_ref().expect("armies are set by now");
    let mut contents: Vec<AmbushContent> = vec![AmbushContent::Dummy];
    let mut seen_types: Vec<&str> = Vec::new();
    for (bg, group) in army.bgs.iter().enumerate() {
        if !seen_types.contains(&group.troop_type.as_str()) {
            seen_types.push(&group.troop_type);
            contents.push(AmbushContent::Bg { bg });
        }
    }
    let mut first_error = None;
    for content in contents {
        match check_ambush(state, ruleset, side, content, at) {
            Ok(_) => {
                return Ok(vec![Event::AmbushPlaced {
                    side,
                    at,
                    sealed: sealed.clone(),
                }]);
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.expect("a dummy is always tried"))
}

/// Why an ambush is revealed (RULES 8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevealReason {
    OwnersChoice,
    EnemyInView,
    MovesOrShoots,
}

impl RevealReason {
    pub const ALL: [RevealReason; 3] = [
        RevealReason::OwnersChoice,
        RevealReason::EnemyInView,
        RevealReason::MovesOrShoots,
    ];

    /// A button's worth: "Enemy in view".
    pub fn short(self) -> &'static str {
        match self {
            RevealReason::OwnersChoice => "Owner's choice",
            RevealReason::EnemyInView => "Enemy in view",
            RevealReason::MovesOrShoots => "Moves or shoots",
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            RevealReason::OwnersChoice => "its owner reveals it",
            RevealReason::EnemyInView => "an enemy comes into view of it",
            RevealReason::MovesOrShoots => "it moves or shoots",
        }
    }
}

/// `side`'s ambush marker number `marker`.
fn marker_of(state: &State, side: Side, marker: usize) -> Result<&Ambush, RuleError> {
    match state.deployment.ambushes.get(marker) {
        Some(a) if a.side == side => Ok(a),
        _ => refuse("8.3", format!("{side} has no ambush marker {}", marker + 1)),
    }
}

/// On the owner's screen: opens marker `marker` with his sealing key for its
/// reveal.
pub fn reveal_ambush(
    state: &State,
    side: Side,
    marker: usize,
    key: &SealKey,
    reason: RevealReason,
) -> Result<Command, RuleError> {
    let a = marker_of(state, side, marker)?;
    let revealed = super::opened(&a.sealed, key, &place(state, side, marker), "8.3")?;
    Ok(Command::RevealAmbush {
        side,
        marker,
        revealed,
        reason,
    })
}

pub(super) fn decide_reveal(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    marker: usize,
    revealed: &Revealed<AmbushContent>,
    reason: RevealReason,
) -> Result<Vec<Event>, RuleError> {
    if state.phase(ruleset) != super::Phase::Play {
        return refuse("8.3", "Ambushes are revealed during play");
    }
    let a = marker_of(state, side, marker)?;
    if a.revealed.is_some() {
        return refuse("8.3", "That ambush marker is already revealed");
    }
    a.sealed
        .check(revealed)
        .map_err(|e| RuleError::new("8.3", e.to_string()))?;
    // Sealed, it could not be checked in full: check it now, in the open.
    let mut problems = Vec::new();
    if let AmbushContent::Bg { bg } = revealed.secret {
        if super::state::deployed_bgs(state, side).contains(&bg) {
            problems.push("that battle group was also deployed in a batch".to_string());
        }
        if let Err(e) = check_ambush(state, ruleset, side, revealed.secret, a.at) {
            problems.push(e.message);
        }
    }
    let dummies = state
        .deployment
        .ambushes
        .iter()
        .filter(|b| b.side == side && b.revealed == Some(AmbushContent::Dummy))
        .count()
        + usize::from(revealed.secret == AmbushContent::Dummy);
    if dummies as u32 > ruleset.deployment.ambush.max_dummies {
        problems.push(format!(
            "{dummies} dummies revealed; the limit is {}",
            ruleset.deployment.ambush.max_dummies
        ));
    }
    Ok(vec![Event::AmbushRevealed {
        side,
        marker,
        revealed: revealed.clone(),
        reason,
        problems,
    }])
}
