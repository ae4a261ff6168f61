//! Dice (RULES 10-11): where dice come from, quality re-rolls, and the exact
//! distributions later steps show odds from.
//!
//! Every roll is either typed in from physical dice or drawn by the app from a
//! ChaCha stream whose seed is stored with the battle, so replaying a log gives
//! the same dice. Die number `k` of a battle is the first draw of ChaCha20
//! stream `k`: any die can be recomputed without drawing the ones before it.

mod distribution;

pub use distribution::{Distribution, Probability};

use crate::error::{RuleError, refuse};
use crate::ruleset::{QualityRerolls, RerollKeep, RerollRule};
use rand::RngExt;
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use serde::{Deserialize, Serialize};

/// Dice as given in a command: typed from the table, or "app" for the
/// battle's seeded stream.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DiceInput {
    Typed(Vec<u8>),
    App(AppDice),
}

/// The literal `"app"` in a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AppDice {
    App,
}

impl DiceInput {
    pub fn app() -> DiceInput {
        DiceInput::App(AppDice::App)
    }
}

/// Where the dice of a logged roll came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum DiceSource {
    /// Drawn by the app: dice `first..first + n` of the stream seeded `seed`.
    App { seed: u64, first: u64 },
    /// Typed in from physical dice.
    Typed,
}

/// A reason and the amount it adds to a roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    pub reason: String,
    pub value: i32,
}

/// A logged roll: the raw dice, every modifier and the result (RULES 11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// The faces as first rolled.
    pub dice: Vec<u8>,
    pub source: DiceSource,
    pub modifiers: Vec<Modifier>,
    /// Quality re-rolls (RULES 10), if any die was re-rolled.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rerolls: Vec<Reroll>,
    pub total: i32,
}

/// One die re-rolled for quality: which, what the re-roll showed, and the
/// face kept.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reroll {
    pub die: usize,
    pub second: u8,
    pub kept: u8,
}

impl Roll {
    pub fn new(dice: Vec<u8>, source: DiceSource, modifiers: Vec<Modifier>) -> Roll {
        Roll::with_rerolls(dice, source, modifiers, Vec::new())
    }

    /// A roll some of whose dice were re-rolled: the kept faces count.
    pub fn with_rerolls(
        dice: Vec<u8>,
        source: DiceSource,
        modifiers: Vec<Modifier>,
        rerolls: Vec<Reroll>,
    ) -> Roll {
        let kept = |i: usize, d: u8| rerolls.iter().find(|r| r.die == i).map_or(d, |r| r.kept);
        let total = dice
            .iter()
            .enumerate()
            .map(|(i, &d)| i32::from(kept(i, d)))
            .sum::<i32>()
            + modifiers.iter().map(|m| m.value).sum::<i32>();
        Roll {
            dice,
            source,
            modifiers,
            rerolls,
            total,
        }
    }

    /// "4 + 1 (Field Commander) = 5"; "3 + 5 = 8" for two dice.
    pub fn describe(&self) -> String {
        let mut text = self
            .dice
            .iter()
            .enumerate()
            .map(|(i, d)| match self.rerolls.iter().find(|r| r.die == i) {
                Some(r) => format!("{d} (re-rolled: {}, kept {})", r.second, r.kept),
                None => d.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" + ");
        for m in &self.modifiers {
            let sign = if m.value < 0 { '-' } else { '+' };
            text.push_str(&format!(" {sign} {} ({})", m.value.abs(), m.reason));
        }
        if self.dice.len() > 1 || !self.modifiers.is_empty() {
            text.push_str(&format!(" = {}", self.total));
        }
        text
    }

    /// How many dice the roll used, re-rolls included.
    pub fn dice_used(&self) -> u64 {
        (self.dice.len() + self.rerolls.len()) as u64
    }

    pub fn is_app(&self) -> bool {
        matches!(self.source, DiceSource::App { .. })
    }
}

/// Die `index` of the stream seeded `seed`, 1 to 6.
pub fn seeded_die(seed: u64, index: u64) -> u8 {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng.random_range(1..=6u8)
}

/// Checks typed dice: the right count, each 1 to 6.
pub fn check_typed(dice: &[u8], count: usize, what: &str) -> Result<(), RuleError> {
    if dice.len() != count {
        let noun = if count == 1 { "die" } else { "dice" };
        return refuse(
            "11",
            format!("{what} takes {count} {noun}, {} given", dice.len()),
        );
    }
    if let Some(bad) = dice.iter().find(|d| !(1..=6).contains(*d)) {
        return refuse(
            "11",
            format!("a die shows 1 to 6; {bad} was typed for {what}"),
        );
    }
    Ok(())
}

/// Resolves dice input into faces and their source. `drawn` is how many app
/// dice the battle has used so far.
pub fn resolve(
    input: &DiceInput,
    count: usize,
    what: &str,
    seed: u64,
    drawn: u64,
) -> Result<(Vec<u8>, DiceSource), RuleError> {
    match input {
        DiceInput::Typed(dice) => {
            check_typed(dice, count, what)?;
            Ok((dice.clone(), DiceSource::Typed))
        }
        DiceInput::App(_) => {
            let dice = (0..count as u64)
                .map(|k| seeded_die(seed, drawn + k))
                .collect();
            Ok((dice, DiceSource::App { seed, first: drawn }))
        }
    }
}

/// Resolves dice input and adds `modifiers`: the logged roll (RULES 11).
pub fn roll(
    input: &DiceInput,
    count: usize,
    what: &str,
    seed: u64,
    drawn: u64,
    modifiers: Vec<Modifier>,
) -> Result<Roll, RuleError> {
    let (faces, source) = resolve(input, count, what, seed, drawn)?;
    Ok(Roll::new(faces, source, modifiers))
}

/// A roll of `count` dice with a quality re-roll rule (RULES 10): each die
/// the rule names is rolled again, once. Typed dice list the first faces,
/// then one face per re-rolled die, in order.
pub fn roll_with_rerolls(
    input: &DiceInput,
    count: usize,
    what: &str,
    seed: u64,
    drawn: u64,
    modifiers: Vec<Modifier>,
    rule: &RerollRule,
) -> Result<Roll, RuleError> {
    let (first, source, seconds): (Vec<u8>, DiceSource, Vec<u8>) = match input {
        DiceInput::Typed(dice) => {
            let first: Vec<u8> = dice.iter().copied().take(count).collect();
            check_typed(&first, count, what)?;
            let needed = first.iter().filter(|d| rule.rerolls(**d)).count();
            check_typed(&dice[count..], needed, &format!("{what}'s re-rolls"))?;
            (first, DiceSource::Typed, dice[count..].to_vec())
        }
        DiceInput::App(_) => {
            let first: Vec<u8> = (0..count as u64)
                .map(|k| seeded_die(seed, drawn + k))
                .collect();
            let needed = first.iter().filter(|d| rule.rerolls(**d)).count() as u64;
            let seconds = (0..needed)
                .map(|k| seeded_die(seed, drawn + count as u64 + k))
                .collect();
            (first, DiceSource::App { seed, first: drawn }, seconds)
        }
    };
    let mut seconds = seconds.into_iter();
    let rerolls = first
        .iter()
        .enumerate()
        .filter(|(_, d)| rule.rerolls(**d))
        .map(|(die, d)| {
            let second = seconds.next().expect("counted above");
            Reroll {
                die,
                second,
                kept: rule.keep(*d, second),
            }
        })
        .collect();
    Ok(Roll::with_rerolls(first, source, modifiers, rerolls))
}

/// A troop quality (RULES 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quality {
    Elite,
    Superior,
    Average,
    Poor,
}

impl Quality {
    pub const ALL: [Quality; 4] = [
        Quality::Elite,
        Quality::Superior,
        Quality::Average,
        Quality::Poor,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Quality::Elite => "Elite",
            Quality::Superior => "Superior",
            Quality::Average => "Average",
            Quality::Poor => "Poor",
        }
    }

    pub fn rule(self, rules: &QualityRerolls) -> &RerollRule {
        match self {
            Quality::Elite => &rules.elite,
            Quality::Superior => &rules.superior,
            Quality::Average => &rules.average,
            Quality::Poor => &rules.poor,
        }
    }
}

impl RerollRule {
    /// Whether a die showing `face` is re-rolled.
    pub fn rerolls(&self, face: u8) -> bool {
        self.reroll.contains(&face)
    }

    /// The face kept after re-rolling `first` and getting `second`: an Elite
    /// or Superior re-roll is never taken as lower than the first roll.
    pub fn keep(&self, first: u8, second: u8) -> u8 {
        match self.keep {
            RerollKeep::Higher => first.max(second),
            RerollKeep::Second => second,
        }
    }
}

#[cfg(test)]
mod tests;
