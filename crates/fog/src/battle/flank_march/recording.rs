//! Recording flank marches in deployment (RULES 8.4,
//! `docs/src/rules/fog.md`): a plan checked and sealed on the owner's
//! screen, every record padded alike whatever the march holds, the rules'
//! check of each record and of the marches' end.

use super::{FlankMarchPlan, arrival_modifiers, place};
use crate::battle::{Command, Event, Phase, State};
use crate::ruleset::Ruleset;
use muster_core::error::{RuleError, refuse};
use muster_core::intel::{Revealed, SealKey, Sealed};
use muster_core::side::Side;

/// Checks what a plan can be checked for before it is sealed.
pub fn check_plan(state: &State, side: Side, plan: &FlankMarchPlan) -> Result<(), RuleError> {
    let Some(army) = state.armies[side].as_ref() else {
        return refuse("8.4", format!("{side} has no army entered yet"));
    };
    if plan.bgs.is_empty() {
        return refuse("8.4", "A flank march takes at least one battle group");
    }
    for (k, bg) in plan.bgs.iter().enumerate() {
        if *bg >= army.bgs.len() {
            return refuse(
                "8.4",
                format!("{side} has no battle group number {}", bg + 1),
            );
        }
        if plan.bgs[..k].contains(bg) {
            return refuse("8.4", format!("{} is listed twice", army.bgs[*bg].name));
        }
    }
    if plan.commander >= army.commanders.len() {
        return refuse(
            "8.4",
            "A flank march is led by one of the army's commanders (not the C-in-C); this army has no such commander",
        );
    }
    Ok(())
}

/// Every flank march record is padded to this many bytes: a march of one
/// battle group or of a whole army (`army::MAX_BGS`), on either flank, looks
/// the same.
pub const FLANK_MARCH_RECORD_BYTES: usize = 1024;

/// The contents of `side`'s flank march records, opened with his sealing key.
pub fn open_marches(
    state: &State,
    side: Side,
    key: &SealKey,
) -> Result<Vec<(usize, Revealed<FlankMarchPlan>)>, RuleError> {
    state
        .deployment
        .flank_marches
        .iter()
        .enumerate()
        .filter(|(_, m)| m.side == side)
        .map(|(i, m)| {
            let opened = crate::battle::opened(&m.sealed, key, &place(state, side, i), "8.4")?;
            Ok((i, opened))
        })
        .collect()
}

/// On the owner's screen: checks a plan (against his other marches too)
/// and seals it under his sealing key.
pub(crate) fn seal_plan(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    plan: &FlankMarchPlan,
    key: &SealKey,
    sealed_modifier: bool,
) -> Result<Command, RuleError> {
    expect_marches_turn(state, ruleset, side)?;
    check_plan(state, side, plan)?;
    let Some(army) = state.armies[side].as_ref() else {
        return refuse("8.4", format!("{side} has no army entered yet"));
    };
    for (_, other) in open_marches(state, side, key)? {
        if let Some(bg) = plan.bgs.iter().find(|bg| other.secret.bgs.contains(bg)) {
            return refuse(
                "8.4",
                format!("{} is already on another flank march", army.bgs[*bg].name),
            );
        }
    }
    let modifier = arrival_modifiers(ruleset, army, plan)
        .iter()
        .map(|m| m.value)
        .sum();
    let march = state.deployment.flank_marches.len();
    let sealed = Sealed::seal(
        &place(state, side, march),
        plan,
        key,
        FLANK_MARCH_RECORD_BYTES,
    )
    .map_err(|e| RuleError::new("8.4", e.to_string()))?;
    Ok(Command::RecordFlankMarch {
        side,
        sealed,
        modifier: (!sealed_modifier).then_some(modifier),
    })
}

pub(super) fn expect_marches_turn(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
) -> Result<(), RuleError> {
    match state.phase(ruleset) {
        Phase::Deployment(crate::battle::DeploymentTurn::FlankMarches(s)) if s == side => Ok(()),
        _ => refuse("8.4", format!("{side} cannot record flank marches now")),
    }
}

pub(crate) fn decide_record(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    sealed: &Sealed,
    modifier: Option<i32>,
) -> Result<Vec<Event>, RuleError> {
    expect_marches_turn(state, ruleset, side)?;
    if sealed.owner != side {
        return refuse("8.4", format!("That record is sealed by {}", sealed.owner));
    }
    let rules = &ruleset.flank_march.modifiers;
    let possible = [
        0,
        rules.field_commander,
        rules.medium_or_heavy_foot,
        rules.field_commander + rules.medium_or_heavy_foot,
    ];
    if let Some(modifier) = modifier
        && !possible.contains(&modifier)
    {
        return refuse(
            "10",
            format!("An arrival modifier of {modifier:+} is not one the rules give"),
        );
    }
    Ok(vec![Event::FlankMarchRecorded {
        side,
        sealed: sealed.clone(),
        modifier,
    }])
}

pub(crate) fn decide_finish(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    off_table: usize,
) -> Result<Vec<Event>, RuleError> {
    expect_marches_turn(state, ruleset, side)?;
    let total = state.armies[side].as_ref().map_or(0, |a| a.bgs.len());
    let marches = state
        .deployment
        .flank_marches
        .iter()
        .filter(|m| m.side == side)
        .count();
    if off_table > total {
        return refuse("8.5", format!("{side} has only {total} battle groups"));
    }
    if off_table < marches {
        return refuse(
            "8.5",
            format!(
                "{side} has {marches} flank marches, each of at least one battle group; {off_table} off the table is too few"
            ),
        );
    }
    Ok(vec![Event::FlankMarchesFinished { side, off_table }])
}
