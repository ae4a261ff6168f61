//! Deployment (RULES 8): camps, field fortifications, then (after ambushes
//! and flank marches, see `ambush`) battle groups in alternate batches of
//! 25%, dismounting, commanders.
//!
//! Each step is done by each player, the player without initiative first.
//! Whose turn it is comes from the state (`turn`), never stored. Camps and
//! field fortifications are `works`.

use super::flank_march::FlankMarch;
use super::{Event, State};
use crate::geometry::{Footprint, Pose};
use crate::ruleset::{Ruleset, TerrainClass};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::Sealed;
use muster_core::side::{Side, Sides};
use serde::{Deserialize, Serialize};

/// Where an ambush marker stands, what it is sealed, and what it proved to
/// be once revealed (RULES 8.3).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ambush {
    pub side: Side,
    pub at: [f64; 2],
    pub sealed: Sealed,
    pub revealed: Option<AmbushContent>,
}

impl Ambush {
    /// Still on the table: not revealed as a dummy (a dummy is removed).
    pub fn standing(&self) -> bool {
        self.revealed != Some(AmbushContent::Dummy)
    }
}

/// What an ambush marker stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AmbushContent {
    /// A battle group, by its index in the army.
    Bg {
        bg: usize,
    },
    Dummy,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DeploymentState {
    pub camps: Sides<Option<Pose>>,
    pub fortifications: Vec<(Side, Pose)>,
    pub fortifications_done: Sides<bool>,
    pub ambushes: Vec<Ambush>,
    pub ambushes_done: Sides<bool>,
    pub flank_marches: Vec<FlankMarch>,
    /// How many BGs each side keeps off the table (in ambush or on a flank
    /// march), declared when he finishes flank marches: the table shows it.
    pub off_table: Sides<Option<usize>>,
    /// Batches deployed so far, in order: whose, and which BGs.
    pub batches: Vec<(Side, Vec<usize>)>,
    /// The BGs each side has committed to dismount, once decided.
    pub dismount: Sides<Option<Vec<usize>>>,
    /// Whether each side's private check at the end of deployment named a
    /// battle group both sealed and deployed, once he made it (his word).
    pub checked: Sides<Option<bool>>,
    pub commanders: Sides<bool>,
}

/// What deployment waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeploymentTurn {
    Camp(Side),
    Fortifications(Side),
    Ambushes(Side),
    FlankMarches(Side),
    /// `side` deploys his batch `number` (1-based) of `size` BGs.
    Batch {
        side: Side,
        number: usize,
        size: usize,
    },
    Dismount(Side),
    Commanders(Side),
}

impl DeploymentTurn {
    pub fn side(self) -> Side {
        match self {
            DeploymentTurn::Camp(s)
            | DeploymentTurn::Fortifications(s)
            | DeploymentTurn::Ambushes(s)
            | DeploymentTurn::FlankMarches(s)
            | DeploymentTurn::Dismount(s)
            | DeploymentTurn::Commanders(s) => s,
            DeploymentTurn::Batch { side, .. } => side,
        }
    }
}

/// The sizes of a player's batches: ceil(n / fraction) BGs each, the last
/// one what is left (RULES 8.5 ruling).
pub fn batch_sizes(on_table: usize, fraction: u32) -> Vec<usize> {
    if on_table == 0 {
        return Vec::new();
    }
    let size = on_table.div_ceil(fraction.max(1) as usize);
    let mut left = on_table;
    let mut sizes = Vec::new();
    while left > 0 {
        let n = size.min(left);
        sizes.push(n);
        left -= n;
    }
    sizes
}

/// The order of all batches: alternately, `first` first; a player with
/// none left is skipped.
pub fn batch_order(first: Side, sizes: &Sides<Vec<usize>>) -> Vec<(Side, usize, usize)> {
    let mut order = Vec::new();
    let second = first.opponent();
    let longest = sizes[first].len().max(sizes[second].len());
    for k in 0..longest {
        for side in [first, second] {
            if let Some(&n) = sizes[side].get(k) {
                order.push((side, k + 1, n));
            }
        }
    }
    order
}

/// How many BGs `side` deploys on the table: all but those he declared in
/// ambush or on flank marches.
pub fn on_table_count(state: &State, side: Side) -> usize {
    let total = state.armies[side].as_ref().map_or(0, |a| a.bgs.len());
    total.saturating_sub(state.deployment.off_table[side].unwrap_or(0))
}

pub fn turn(state: &State, ruleset: &Ruleset, init: Side) -> Option<DeploymentTurn> {
    let d = &state.deployment;
    let order = [init.opponent(), init];
    if let Some(s) = order.into_iter().find(|s| d.camps[*s].is_none()) {
        return Some(DeploymentTurn::Camp(s));
    }
    if let Some(s) = order.into_iter().find(|s| !d.fortifications_done[*s]) {
        return Some(DeploymentTurn::Fortifications(s));
    }
    if let Some(s) = order.into_iter().find(|s| !d.ambushes_done[*s]) {
        return Some(DeploymentTurn::Ambushes(s));
    }
    if let Some(s) = order.into_iter().find(|s| d.off_table[*s].is_none()) {
        return Some(DeploymentTurn::FlankMarches(s));
    }
    if let Some(&(side, number, size)) = batch_plan(state, ruleset, init).get(d.batches.len()) {
        return Some(DeploymentTurn::Batch { side, number, size });
    }
    if let Some(s) = order.into_iter().find(|s| d.dismount[*s].is_none()) {
        return Some(DeploymentTurn::Dismount(s));
    }
    if let Some(s) = order.into_iter().find(|s| !d.commanders[*s]) {
        return Some(DeploymentTurn::Commanders(s));
    }
    None
}

/// Every batch of the battle in order, as (side, number, size): each
/// side's sizes, alternating, the player without initiative `init` first.
pub fn batch_plan(state: &State, ruleset: &Ruleset, init: Side) -> Vec<(Side, usize, usize)> {
    let f = ruleset.deployment.batch_fraction;
    let sizes = Sides {
        south: batch_sizes(on_table_count(state, Side::South), f),
        north: batch_sizes(on_table_count(state, Side::North), f),
    };
    batch_order(init.opponent(), &sizes)
}

/// How far into the table from `side`'s long edge a footprint reaches.
pub fn reach(state: &State, side: Side, f: &Footprint) -> f64 {
    match side {
        Side::South => f.max()[1],
        Side::North => state.settings.table.depth - f.min()[1],
    }
}

/// The class of ground a standing piece is: a river's rolled going, or its
/// terrain type's class.
pub fn ground_class(state: &State, ruleset: &Ruleset, piece: usize) -> Option<TerrainClass> {
    let laid = state.placement.laid.get(&piece)?;
    let terrain = ruleset.terrain(&state.selection.picks[piece].terrain)?;
    Some(laid.going.unwrap_or(terrain.class))
}

pub(super) fn expect(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    wanted: impl Fn(DeploymentTurn) -> bool,
    what: &str,
) -> Result<DeploymentTurn, RuleError> {
    let turn = match state.phase(ruleset) {
        super::Phase::Deployment(turn) => turn,
        super::Phase::MovesFirst | super::Phase::Play => {
            return refuse("8", "Deployment is over");
        }
        _ => return refuse("8", "Deployment starts once the terrain is on the table"),
    };
    if !wanted(turn) || turn.side() != side {
        return refuse(
            "8",
            format!(
                "{side} cannot {what} now; waiting for {}",
                describe_turn(turn)
            ),
        );
    }
    Ok(turn)
}

/// What a deployment turn waits for, in words.
pub fn describe_turn(turn: DeploymentTurn) -> String {
    match turn {
        DeploymentTurn::Camp(s) => format!("{s} to place their camp"),
        DeploymentTurn::Fortifications(s) => format!("{s} to place field fortifications"),
        DeploymentTurn::Ambushes(s) => format!("{s} to place ambushes"),
        DeploymentTurn::FlankMarches(s) => format!("{s} to record flank marches"),
        DeploymentTurn::Batch { side, number, size } => {
            format!(
                "{side} to deploy batch {number} ({})",
                muster_core::text::count(size as u64, "BG", "BGs")
            )
        }
        DeploymentTurn::Dismount(s) => format!("{s} to commit to dismounting"),
        DeploymentTurn::Commanders(s) => format!("{s} to place their commanders"),
    }
}

pub(super) fn decide_finish(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    step: Finished,
) -> Result<Vec<Event>, RuleError> {
    let (is, what): (fn(DeploymentTurn) -> bool, _) = match step {
        Finished::Fortifications => (
            |t| matches!(t, DeploymentTurn::Fortifications(_)),
            "finish fortifications",
        ),
        Finished::Ambushes => (
            |t| matches!(t, DeploymentTurn::Ambushes(_)),
            "finish ambushes",
        ),
        Finished::Commanders => (
            |t| matches!(t, DeploymentTurn::Commanders(_)),
            "place commanders",
        ),
    };
    expect(state, ruleset, side, is, what)?;
    Ok(vec![Event::StepFinished { side, step }])
}

/// The deployment steps a player ends with a plain "done".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Finished {
    Fortifications,
    Ambushes,
    /// His commanders are on the table within the depth limit.
    Commanders,
}

pub(super) fn decide_batch(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    bgs: &[usize],
) -> Result<Vec<Event>, RuleError> {
    let turn = expect(
        state,
        ruleset,
        side,
        |t| matches!(t, DeploymentTurn::Batch { .. }),
        "deploy a batch",
    )?;
    let DeploymentTurn::Batch { number, size, .. } = turn else {
        unreachable!("checked by expect");
    };
    let army = state.armies[side].as_ref().expect("armies are set by now");
    let done = super::state::deployed_bgs(state, side);
    for (k, bg) in bgs.iter().enumerate() {
        let Some(group) = army.bgs.get(*bg) else {
            return refuse(
                "8.5",
                format!("{side} has no battle group number {}", bg + 1),
            );
        };
        if done.contains(bg) || bgs[..k].contains(bg) {
            return refuse("8.5", format!("{} is already deployed", group.name));
        }
    }
    if bgs.len() != size {
        return refuse(
            "8.5",
            format!(
                "{side}'s batch {number} is {size} battle groups (a quarter of {}, rounded up); {} ticked",
                on_table_count(state, side),
                bgs.len()
            ),
        );
    }
    Ok(vec![Event::BatchDeployed {
        side,
        number,
        bgs: bgs.to_vec(),
    }])
}

/// Whether `side`'s private check at the end of deployment (RULES 8.5
/// ruling) is due now, or why not: once every batch is down, by a player
/// who keeps battle groups off the table, once. His seat brings it to him
/// when it is; the command is taken only then.
pub fn sealed_check_due(state: &State, ruleset: &Ruleset, side: Side) -> Result<(), RuleError> {
    let after = |t| {
        matches!(
            t,
            DeploymentTurn::Dismount(_) | DeploymentTurn::Commanders(_)
        )
    };
    if !matches!(state.phase(ruleset), super::Phase::Deployment(t) if after(t)) {
        return refuse(
            "8.5",
            "The check of sealed battle groups is made once every batch is deployed",
        );
    }
    if state.deployment.off_table[side].unwrap_or(0) == 0 {
        return refuse("8.5", format!("{side} keeps no battle group off the table"));
    }
    if state.deployment.checked[side].is_some() {
        return refuse("8.5", format!("{side} has made their check already"));
    }
    Ok(())
}

pub(super) fn decide_checked(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    named: bool,
) -> Result<Vec<Event>, RuleError> {
    sealed_check_due(state, ruleset, side)?;
    Ok(vec![Event::SealedChecked { side, named }])
}

pub(super) fn decide_dismount(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    bgs: &[usize],
) -> Result<Vec<Event>, RuleError> {
    let is = |t| matches!(t, DeploymentTurn::Dismount(_));
    expect(state, ruleset, side, is, "commit to dismounting")?;
    let army = state.armies[side].as_ref().expect("armies are set by now");
    for (k, bg) in bgs.iter().enumerate() {
        let Some(group) = army.bgs.get(*bg) else {
            return refuse(
                "8.6",
                format!("{side} has no battle group number {}", bg + 1),
            );
        };
        if !group.may_dismount {
            return refuse("8.6", format!("{} may not dismount", group.name));
        }
        if bgs[..k].contains(bg) {
            return refuse("8.6", format!("{} is listed twice", group.name));
        }
    }
    Ok(vec![Event::DismountCommitted {
        side,
        bgs: bgs.to_vec(),
    }])
}

mod works;

pub use works::{camp_footprint, check_camp, check_fortification, fortification_footprint};
pub(super) use works::{decide_camp, decide_fortification};

pub(super) fn fold(d: &mut DeploymentState, event: &Event) {
    match event {
        Event::CampPlaced { side, pose } => d.camps[*side] = Some(*pose),
        Event::FortificationPlaced { side, pose } => d.fortifications.push((*side, *pose)),
        Event::AmbushPlaced { side, at, sealed } => d.ambushes.push(Ambush {
            side: *side,
            at: *at,
            sealed: sealed.clone(),
            revealed: None,
        }),
        Event::FlankMarchRecorded {
            side,
            sealed,
            modifier,
        } => d
            .flank_marches
            .push(FlankMarch::new(*side, sealed.clone(), *modifier)),
        Event::FlankMarchesFinished { side, off_table } => d.off_table[*side] = Some(*off_table),
        Event::AmbushRevealed {
            marker, revealed, ..
        } => {
            if let Some(a) = d.ambushes.get_mut(*marker) {
                a.revealed = Some(revealed.secret);
            }
        }
        Event::ArrivalRolled {
            march, turn, roll, ..
        } => {
            if let Some(m) = d.flank_marches.get_mut(*march) {
                m.rolls.push((*turn, roll.clone()));
            }
        }
        Event::ArrivalSaid { march, arrives, .. } => {
            if let Some(m) = d.flank_marches.get_mut(*march) {
                m.said.push(*arrives);
            }
        }
        Event::FlankMarchRevealed {
            march,
            revealed,
            straggling,
            ..
        } => {
            if let Some(m) = d.flank_marches.get_mut(*march) {
                m.revealed = Some(revealed.clone());
                m.straggling = straggling.clone();
            }
        }
        Event::StepFinished { side, step } => match step {
            Finished::Fortifications => d.fortifications_done[*side] = true,
            Finished::Ambushes => d.ambushes_done[*side] = true,
            Finished::Commanders => d.commanders[*side] = true,
        },
        Event::BatchDeployed { side, bgs, .. } => d.batches.push((*side, bgs.clone())),
        Event::DismountCommitted { side, bgs } => d.dismount[*side] = Some(bgs.clone()),
        Event::SealedChecked { side, named } => d.checked[*side] = Some(*named),
        _ => {}
    }
}

/// The number players call ambush marker `index` by: its place among its
/// owner's markers (South's first is "S1" even if North placed three
/// before it).
pub fn marker_number(state: &State, index: usize) -> usize {
    ordinal(&state.deployment.ambushes, index, |a| a.side)
}

/// The number players call flank march `index` by: its place among its
/// owner's marches.
pub fn march_number(state: &State, index: usize) -> usize {
    ordinal(&state.deployment.flank_marches, index, |m| m.side)
}

/// The place of `items[index]` among the items of the same side, from 1.
fn ordinal<T>(items: &[T], index: usize, side: impl Fn(&T) -> Side) -> usize {
    items.get(index).map_or(index + 1, |item| {
        items[..=index]
            .iter()
            .filter(|other| side(other) == side(item))
            .count()
    })
}
