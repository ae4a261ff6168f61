//! What a Wing adds to the deployment roll and the formation it is placed
//! in (RULES-map-intel B6, B7, `docs/src/rules/map-intel.md`, "Dummy wings
//! played from two machines"), worked out from its composition; and what
//! its owner said of both before its record opened, checked once it does.
//!
//! Both rest on what only its owner's key opens (its rating, the leaders
//! with it, its units' arms, its formation), so from two machines each
//! side says its own before the roll and the other machine checks the word
//! when the Wing is placed: a word that was not the record's is named
//! there, and the placement is refused.

use super::events::{Claim, Composition};
use super::formation::{self, Placement};
use super::placement::Arm;
use super::roll::{self, Outcome, Role};
use super::setup::{Setup, WingUnit};
use muster_core::dice::Modifier;
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;

/// What a side's Wing `c` adds to its die: its rating or its best
/// leader's, and the Prussian cavalry bonus when it did not move.
pub fn modifiers(setup: &Setup, side: Side, c: &Composition, moving: bool) -> Vec<Modifier> {
    let units: Vec<&WingUnit> = c.units.iter().filter_map(|u| setup.unit(side, u)).collect();
    let leaders: Vec<(String, u32)> = units
        .iter()
        .filter_map(|u| u.rating.map(|r| (u.name.clone(), r)))
        .collect();
    let cavalry = !moving
        && setup.battle.sides[side].prussian
        && units
            .iter()
            .all(|u| matches!(u.arm, Arm::Cavalry | Arm::Leader));
    roll::modifiers(c.rating, &leaders, cavalry)
}

/// The stationary side's modifiers: the best of its spotted Wings', the
/// first of those with the best total (27.5: one roll for all of them).
pub fn best<'a>(all: impl IntoIterator<Item = &'a Vec<Modifier>>) -> Option<&'a Vec<Modifier>> {
    all.into_iter().fold(None, |best, these| match best {
        Some(b) if roll::total(these) <= roll::total(b) => Some(b),
        _ => Some(these),
    })
}

/// The rule a Wing of the roll `outcome` is placed under, by its role and
/// the formation its record holds.
pub fn placement(
    setup: &Setup,
    side: Side,
    moving: bool,
    outcome: Outcome,
    last: formation::Formation,
) -> Placement {
    let won = outcome.winner == Role::Moving;
    if moving {
        formation::moving(won, last)
    } else {
        formation::stationary(!won, setup.activated[side], last)
    }
}

/// Counter `id`'s record, opened as it is placed, against what its owner
/// said of it before the roll and the rule the roll gave it (`rule`).
pub fn check(
    setup: &Setup,
    side: Side,
    id: usize,
    claim: &Claim,
    record: &Composition,
    rule: Option<(Placement, Outcome)>,
) -> Result<(), RuleError> {
    let lie = |what: String| {
        refuse(
            "27.2",
            format!(
                "counter {id}: {what} before the deployment roll, but its record, opened now, holds otherwise: {} Muster said what was not so",
                muster_core::text::possessive(&setup.name(side))
            ),
        )
    };
    let held = modifiers(setup, side, record, claim.moving);
    if held != claim.modifiers {
        return lie(format!(
            "its owner said it adds {:+}",
            roll::total(&claim.modifiers)
        ));
    }
    if claim.formation.is_some_and(|f| f != record.formation) {
        return lie("its owner said what formation it was in".to_string());
    }
    if let Some((rule, outcome)) = rule
        && placement(setup, side, claim.moving, outcome, record.formation) != rule
    {
        return lie("the rule it is placed under was worked out from another formation".into());
    }
    Ok(())
}
