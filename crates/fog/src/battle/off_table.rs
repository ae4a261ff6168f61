//! A player's check of his own battle groups at the end of deployment
//! (RULES 8.3-8.5): any he sealed off the table, in an ambush or on a flank
//! march, that he also deployed in a batch. Sealed, the rules cannot see it
//! when the batch is entered; the owner sees it on his private screen, and
//! the reveal names it to both at the latest (issue 21).

use super::ambush::open_ambushes;
use super::deployment::AmbushContent;
use super::flank_march::open_marches;
use super::state::State;
use super::state::deployed_bgs;
use muster_core::error::RuleError;
use muster_core::intel::SealKey;
use muster_core::side::Side;
use std::collections::BTreeSet;

/// A flank march sealed on its owner's screen (RULES 8.4), its groups
/// checked first against his ambush markers: a battle group is in at most
/// one of an ambush marker and a flank march (RULES 8.4 ruling, issue 39).
/// Ambushes come first in the sequence, so a march is the only place a
/// group can be offered twice.
pub fn seal_march(
    state: &State,
    ruleset: &crate::ruleset::Ruleset,
    side: Side,
    plan: &super::flank_march::FlankMarchPlan,
    key: &SealKey,
    sealed_modifier: bool,
) -> Result<super::Command, RuleError> {
    for (_, content) in open_ambushes(state, side, key)? {
        if let AmbushContent::Bg { bg } = content
            && plan.bgs.contains(&bg)
        {
            let name = state.armies[side]
                .as_ref()
                .and_then(|a| a.bgs.get(bg))
                .map_or_else(|| format!("Battle group {}", bg + 1), |g| g.name.clone());
            return muster_core::error::refuse(
                "8.4",
                format!(
                    "{name} is sealed in an ambush marker: a battle group is in at most one of an ambush marker and a flank march"
                ),
            );
        }
    }
    super::flank_march::seal_plan(state, ruleset, side, plan, key, sealed_modifier)
}

/// Every battle group `side` sealed off the table, in an ambush or on a
/// flank march, opened with his key: for his eyes only.
pub fn sealed_bgs(state: &State, side: Side, key: &SealKey) -> Result<BTreeSet<usize>, RuleError> {
    let mut sealed: BTreeSet<usize> = open_ambushes(state, side, key)?
        .into_iter()
        .filter_map(|(_, content)| match content {
            AmbushContent::Bg { bg } => Some(bg),
            AmbushContent::Dummy => None,
        })
        .collect();
    for (_, opened) in open_marches(state, side, key)? {
        sealed.extend(opened.secret.bgs.iter().copied());
    }
    Ok(sealed)
}

/// Each battle group of `side`'s out of place at the end of deployment, in
/// words with what to do, for his eyes only: sealed off the table and
/// deployed as well, or neither deployed nor sealed (never put anywhere).
pub fn misplaced_bgs(state: &State, side: Side, key: &SealKey) -> Result<Vec<String>, RuleError> {
    let deployed = deployed_bgs(state, side);
    let name = |bg: usize| {
        state.armies[side]
            .as_ref()
            .and_then(|a| a.bgs.get(bg))
            .map_or_else(|| format!("battle group {}", bg + 1), |g| g.name.clone())
    };
    let mut out = Vec::new();
    // What he sealed off the table, gathered as each record is opened
    // (once) for the checks below.
    let mut sealed = BTreeSet::new();
    for (marker, content) in open_ambushes(state, side, key)? {
        if let AmbushContent::Bg { bg } = content {
            sealed.insert(bg);
        }
        if let AmbushContent::Bg { bg } = content
            && deployed.contains(&bg)
        {
            out.push(format!(
                "{} is sealed in ambush {}{} and was also deployed in a batch: take it off the table; its reveal will name it to both players",
                name(bg),
                &side.name()[..1],
                super::deployment::marker_number(state, marker)
            ));
        }
    }
    for (march, opened) in open_marches(state, side, key)? {
        sealed.extend(opened.secret.bgs.iter().copied());
        for &bg in opened.secret.bgs.iter().filter(|bg| deployed.contains(bg)) {
            out.push(format!(
                "{} is sealed on flank march {} and was also deployed in a batch: take it off the table; its reveal will name it to both players",
                name(bg),
                super::deployment::march_number(state, march)
            ));
        }
    }
    // Once every batch is in: a battle group neither on the table nor
    // sealed off it was never put anywhere.
    if deployed.len() >= super::deployment::on_table_count(state, side) {
        let count = state.armies[side].as_ref().map_or(0, |a| a.bgs.len());
        for bg in (0..count).filter(|bg| !deployed.contains(bg) && !sealed.contains(bg)) {
            out.push(format!(
                "{} is neither deployed nor sealed off the table: your batches left it out; place it now and tell your opponent",
                name(bg)
            ));
        }
    }
    Ok(out)
}
