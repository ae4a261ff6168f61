//! A flank march's chances (RULES 10, `docs/src/rules/fog.md`): the
//! arrival modifiers a march earns, the chance each roll brings it on and
//! by which turn, and a battle group's straggling modifiers and chance with
//! its quality re-rolls, all exact.

use super::FlankMarchPlan;
use crate::army::{Army, CommanderQuality};
use crate::ruleset::Ruleset;
use muster_core::dice::{Distribution, Modifier, Probability};

/// The arrival modifiers a march earns (RULES 10).
pub fn arrival_modifiers(ruleset: &Ruleset, army: &Army, plan: &FlankMarchPlan) -> Vec<Modifier> {
    let rules = &ruleset.flank_march.modifiers;
    let mut mods = Vec::new();
    if army
        .commanders
        .get(plan.commander)
        .is_some_and(|c| c.quality == CommanderQuality::Field)
    {
        mods.push(Modifier {
            reason: "led by a Field Commander".into(),
            value: rules.field_commander,
        });
    }
    let foot = plan.bgs.iter().any(|bg| {
        army.bgs
            .get(*bg)
            .and_then(|g| ruleset.troop_types.get(&g.troop_type))
            .is_some_and(|t| t.medium_or_heavy_foot)
    });
    if foot {
        mods.push(Modifier {
            reason: "includes medium or heavy foot".into(),
            value: rules.medium_or_heavy_foot,
        });
    }
    mods
}

/// The chance one arrival roll with `modifier` brings the march on.
pub fn arrival_chance(ruleset: &Ruleset, modifier: i32) -> Probability {
    let rules = &ruleset.flank_march;
    Distribution::dice(usize::from(rules.dice), None)
        .shifted(modifier)
        .at_least(rules.arrives_on)
}

/// For the owner's turns `from` to `from + turns - 1`: the chance the march
/// arrives on that turn, and by the end of it.
pub fn arrival_by_turn(
    ruleset: &Ruleset,
    modifier: i32,
    from: u32,
    turns: u32,
) -> Vec<(u32, f64, f64)> {
    let p = arrival_chance(ruleset, modifier).value();
    let mut still_out = 1.0;
    (0..turns)
        .map(|k| {
            let this = still_out * p;
            still_out *= 1.0 - p;
            (from + k, this, 1.0 - still_out)
        })
        .collect()
}

/// A battle group's straggling modifiers (RULES 10).
pub fn straggle_modifiers(ruleset: &Ruleset, army: &Army, bg: usize) -> Vec<Modifier> {
    let rules = &ruleset.straggling.modifiers;
    let Some(group) = army.bgs.get(bg) else {
        return Vec::new();
    };
    let troop = ruleset.troop_types.get(&group.troop_type);
    let mut mods = Vec::new();
    if group.drilled || troop.is_some_and(|t| t.skirmisher) {
        mods.push(Modifier {
            reason: "drilled or skirmishers".into(),
            value: rules.drilled_or_skirmisher,
        });
    }
    if troop.is_some_and(|t| t.medium_or_heavy_foot) {
        mods.push(Modifier {
            reason: "medium or heavy foot".into(),
            value: rules.medium_or_heavy_foot,
        });
    }
    mods
}

/// The chance a battle group straggles, with its quality re-rolls.
pub fn straggle_chance(ruleset: &Ruleset, army: &Army, bg: usize) -> Probability {
    let rules = &ruleset.straggling;
    let reroll = army
        .bgs
        .get(bg)
        .filter(|_| rules.quality_rerolls)
        .map(|g| g.quality.rule(&ruleset.quality_rerolls));
    let modifier: i32 = straggle_modifiers(ruleset, army, bg)
        .iter()
        .map(|m| m.value)
        .sum();
    Distribution::dice(usize::from(rules.dice), reroll)
        .shifted(modifier)
        .below(rules.straggles_below)
}
