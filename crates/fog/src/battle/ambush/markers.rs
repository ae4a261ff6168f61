//! An ambush marker sealed, placed and revealed (RULES 8.3,
//! `docs/src/rules/fog.md`): checked fully and sealed on the owner's screen,
//! every record padded alike so a dummy looks like a battle group; the
//! rules check what they can of the sealed marker; a reveal opens it, with
//! its reason, and checks it against where it stands.

use super::check_ambush;
use crate::battle::deployment::{Ambush, AmbushContent, DeploymentTurn};
use crate::battle::{Command, Event, State};
use crate::ruleset::Ruleset;
use muster_core::error::{RuleError, refuse};
use muster_core::intel::{Place, Revealed, SealKey, Sealed};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};

pub(super) fn expect_ambush_turn(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
) -> Result<(), RuleError> {
    match state.phase(ruleset) {
        crate::battle::Phase::Deployment(DeploymentTurn::Ambushes(s)) if s == side => Ok(()),
        _ => refuse("8.3", format!("{side} cannot place an ambush now")),
    }
}

/// Every ambush record is padded to this many bytes: a dummy and a real
/// battle group look alike, whatever its number.
pub const AMBUSH_RECORD_BYTES: usize = 256;

/// Where marker `marker` (its index among all markers) is sealed.
pub(super) fn place(state: &State, side: Side, marker: usize) -> Place<'_> {
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
                crate::battle::opened(&a.sealed, key, &place(state, side, i), "8.3")?;
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
pub(crate) fn decide_place(
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
pub(super) fn marker_of(state: &State, side: Side, marker: usize) -> Result<&Ambush, RuleError> {
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
    let revealed = crate::battle::opened(&a.sealed, key, &place(state, side, marker), "8.3")?;
    Ok(Command::RevealAmbush {
        side,
        marker,
        revealed,
        reason,
    })
}

pub(crate) fn decide_reveal(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    marker: usize,
    revealed: &Revealed<AmbushContent>,
    reason: RevealReason,
) -> Result<Vec<Event>, RuleError> {
    if state.phase(ruleset) != crate::battle::Phase::Play {
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
        if crate::battle::state::deployed_bgs(state, side).contains(&bg) {
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
