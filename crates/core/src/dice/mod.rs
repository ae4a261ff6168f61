//! Dice (RULES 10-11): where dice come from, quality re-rolls, and the exact
//! distributions later steps show odds from.
//!
//! Every roll is either typed in from physical dice or drawn by the app at
//! the moment of the roll from the operating system's random source (see
//! `AppDice`). Nothing the battle stores predicts the next die: the log keeps
//! the faces, and replaying a log reads them back and checks them against the
//! rules instead of regenerating them.

mod distribution;
pub mod hidden;
pub mod joint;

pub use distribution::{Distribution, Probability};

use crate::error::{RuleError, refuse};
use rand::RngExt;
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Dice as given in a command: typed from the table, or "app" for the app's
/// dice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum DiceInput {
    Typed(Vec<u8>),
    App(AppKeyword),
}

/// The most dice one command may type (a roll uses two, with re-rolls four).
const MAX_TYPED: usize = 64;

/// Read by hand so a mistake gets a sentence ("dice: a list of faces such
/// as [4]…, 300 was typed") rather than serde's untagged-enum message.
impl<'de> Deserialize<'de> for DiceInput {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<DiceInput, D::Error> {
        use serde::de::{self, SeqAccess, Unexpected, Visitor};
        struct Faces;
        impl<'de> Visitor<'de> for Faces {
            type Value = DiceInput;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "dice as a list of faces such as [4] or [3, 5], or \"app\" for the app's dice",
                )
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<DiceInput, E> {
                if v == "app" {
                    Ok(DiceInput::app())
                } else {
                    Err(E::invalid_value(Unexpected::Str(v), &self))
                }
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<DiceInput, A::Error> {
                let mut faces = Vec::new();
                while let Some(face) = seq.next_element::<f64>()? {
                    if faces.len() == MAX_TYPED {
                        return Err(de::Error::custom(format!(
                            "more than {MAX_TYPED} dice typed"
                        )));
                    }
                    // A 7 is read, for rule 11 to refuse with its reason;
                    // what is no die face at all is refused here.
                    if !(0.0..=255.0).contains(&face) || face.fract() != 0.0 {
                        return Err(de::Error::custom(format!(
                            "a die shows 1 to 6; {face} was typed"
                        )));
                    }
                    faces.push(face as u8);
                }
                Ok(DiceInput::Typed(faces))
            }
        }
        d.deserialize_any(Faces)
    }
}

/// The literal `"app"` in a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AppKeyword {
    App,
}

impl DiceInput {
    pub fn app() -> DiceInput {
        DiceInput::App(AppKeyword::App)
    }
}

/// Where the dice of a logged roll came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum DiceSource {
    /// Drawn by the app. (Files from before schema 3 also stored a seed and
    /// a stream position here; they are read and dropped.)
    App {},
    /// Typed in from physical dice.
    Typed,
    /// Made by both machines of a remote game (`joint`): round `round`'s
    /// stream, keyed by the host's half and the joiner's, which anyone
    /// holding the log derives again. Boxed: a roll stays small in the
    /// many logs that never hold one.
    Joint(Box<JointDice>),
}

/// A joint round's number and both machines' halves (`joint`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JointDice {
    pub round: u64,
    pub host: joint::Half,
    pub joiner: joint::Half,
}

/// Where the app's dice come from.
#[derive(Clone, Debug, Default)]
pub enum AppDice {
    /// The operating system's random source, read at the moment of the roll:
    /// nothing stored or shown predicts it, and no order of clicks chooses it.
    #[default]
    Os,
    /// A ChaCha stream from a fixed seed, for scripted tests and
    /// demonstrations only; the seed is never stored in a battle.
    Seeded(Box<ChaCha20Rng>),
    /// The faces a stored log records, read back in order when the log is
    /// replayed: nothing is drawn, each face is checked; and where they
    /// came from, which the replayed rolls say again.
    Recorded(VecDeque<u8>, DiceSource),
    /// Both machines' round of a remote game (`joint`).
    Joint(Box<joint::Round>),
    /// No dice yet: a command that draws one is refused with `WANTED`, so
    /// a remote game makes a round of joint dice for it first.
    Wanted,
}

/// The rule a refusal of `AppDice::Wanted` cites.
pub const WANTED: &str = "dice wanted";

impl AppDice {
    pub fn seeded(seed: u64) -> AppDice {
        AppDice::Seeded(Box::new(ChaCha20Rng::seed_from_u64(seed)))
    }

    /// The app dice a list of logged rolls used, in the order they were drawn.
    pub fn recorded<'a>(rolls: impl IntoIterator<Item = &'a Roll>) -> AppDice {
        let rolls: Vec<&Roll> = rolls.into_iter().filter(|r| r.is_app()).collect();
        let source = rolls
            .first()
            .map_or(DiceSource::App {}, |r| r.source.clone());
        AppDice::Recorded(
            rolls
                .into_iter()
                .flat_map(|r| {
                    r.dice
                        .iter()
                        .copied()
                        .chain(r.rerolls.iter().map(|x| x.second))
                })
                .collect(),
            source,
        )
    }

    /// Faces of recorded dice not yet read back (0 for the other sources).
    pub fn left_over(&self) -> usize {
        match self {
            AppDice::Recorded(faces, _) => faces.len(),
            _ => 0,
        }
    }

    /// What a roll drawn from these dice says of where they came from.
    pub fn source(&self) -> DiceSource {
        match self {
            AppDice::Os | AppDice::Seeded(_) | AppDice::Wanted => DiceSource::App {},
            AppDice::Recorded(_, source) => source.clone(),
            AppDice::Joint(round) => round.source(),
        }
    }

    /// One die, 1 to 6.
    pub fn draw(&mut self) -> Result<u8, RuleError> {
        match self {
            AppDice::Os => os_die(),
            AppDice::Seeded(rng) => Ok(rng.random_range(1..=6u8)),
            AppDice::Joint(round) => Ok(round.die()),
            AppDice::Wanted => refuse(WANTED, "this needs dice both machines make"),
            AppDice::Recorded(faces, _) => match faces.pop_front() {
                Some(face) if (1..=6).contains(&face) => Ok(face),
                Some(face) => refuse(
                    "11",
                    format!("an app die is recorded as {face}; a die shows 1 to 6"),
                ),
                None => refuse("11", "the log records fewer app dice than its roll needs"),
            },
        }
    }

    /// One of `n` things (cards left in a deck), each with the same chance:
    /// `0..n`. Recorded dice never pick: a log records what was picked.
    pub fn pick(&mut self, n: usize) -> Result<usize, RuleError> {
        if n == 0 {
            return refuse("dice", "there is nothing to pick from");
        }
        match self {
            AppDice::Os => os_pick(n),
            AppDice::Seeded(rng) => Ok(rng.random_range(0..n)),
            AppDice::Joint(round) => Ok(round.pick(n)),
            AppDice::Wanted => refuse(WANTED, "this needs dice both machines make"),
            AppDice::Recorded(..) => refuse("dice", "a replayed log does not pick cards"),
        }
    }

    fn draw_n(&mut self, count: usize) -> Result<Vec<u8>, RuleError> {
        (0..count).map(|_| self.draw()).collect()
    }
}

/// One die from the operating system: a uniform byte below 252 (a multiple
/// of 6), so every face has exactly the same chance.
fn os_die() -> Result<u8, RuleError> {
    loop {
        let mut byte = [0u8; 1];
        getrandom::fill(&mut byte).map_err(|e| {
            RuleError::new(
                "11",
                format!("the operating system could not supply a random die ({e}); roll physical dice and type them in"),
            )
        })?;
        if byte[0] < 252 {
            return Ok(byte[0] % 6 + 1);
        }
    }
}

/// One of `n` from the operating system: a uniform u64 below the largest
/// multiple of `n`, so each has exactly the same chance.
fn os_pick(n: usize) -> Result<usize, RuleError> {
    let n = n as u64;
    let limit = u64::MAX - u64::MAX % n;
    loop {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).map_err(|e| {
            RuleError::new(
                "dice",
                format!("the operating system could not supply a random card ({e})"),
            )
        })?;
        let value = u64::from_le_bytes(bytes);
        if value < limit {
            return Ok((value % n) as usize);
        }
    }
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

    /// Whether the app drew its dice (alone, or with the other machine of
    /// a remote game), rather than a player typing them.
    pub fn is_app(&self) -> bool {
        matches!(self.source, DiceSource::App { .. } | DiceSource::Joint(_))
    }

    /// How the log says its dice were made: "app dice", "typed", or "both
    /// machines' dice, round 12" in a remote game.
    pub fn by(&self) -> String {
        match &self.source {
            DiceSource::App {} => "app dice".into(),
            DiceSource::Typed => "typed".into(),
            DiceSource::Joint(j) => format!("both machines' dice, round {}", joint::said(j.round)),
        }
    }

    /// The faces in the order they were drawn: the first, then each
    /// re-roll.
    pub fn drawn(&self) -> impl Iterator<Item = u8> + '_ {
        self.dice
            .iter()
            .copied()
            .chain(self.rerolls.iter().map(|x| x.second))
    }

    /// The joint round this roll was drawn from, in a remote game.
    pub fn joint(&self) -> Option<JointDice> {
        match &self.source {
            DiceSource::Joint(j) => Some(**j),
            _ => None,
        }
    }
}

/// The joint rounds a command's rolls were drawn from, each checked: the
/// faces must be the ones both machines' halves make (`joint`). A roll the
/// host's machine chose is named. `game` is the game's id.
pub fn check_joint<'a>(
    game: &str,
    rolls: impl IntoIterator<Item = &'a Roll>,
) -> Result<(), RuleError> {
    let mut rounds: Vec<(u64, joint::Half, joint::Half, Vec<u8>)> = Vec::new();
    for roll in rolls {
        if let Some(JointDice {
            round,
            host,
            joiner,
        }) = roll.joint()
        {
            match rounds.iter_mut().find(|r| r.0 == round) {
                Some(r) if r.1 == host && r.2 == joiner => r.3.extend(roll.drawn()),
                Some(_) => {
                    return refuse(
                        "dice",
                        format!(
                            "joint round {} is logged with two different halves",
                            joint::said(round)
                        ),
                    );
                }
                None => rounds.push((round, host, joiner, roll.drawn().collect())),
            }
        }
    }
    for (round, host, joiner, faces) in rounds {
        joint::check_faces(game, round, host, joiner, &faces)?;
    }
    Ok(())
}

/// Dice typed as rolled on the table: "3 5" or "3,5" → [3, 5]. Anything but
/// numbers and separators is an error; the numbers themselves are left for
/// the rules to judge (a 7 is refused there, with the rule it breaks).
pub fn parse_typed(text: &str) -> Result<Vec<u8>, String> {
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.is_empty() {
        return Err("Type the dice first, e.g. 4".into());
    }
    tokens
        .iter()
        .map(|t| {
            t.parse::<u8>()
                .map_err(|_| format!("\"{t}\" is not a die; type numbers 1 to 6"))
        })
        .collect()
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

/// Resolves dice input into faces and their source.
pub fn resolve(
    input: &DiceInput,
    count: usize,
    what: &str,
    app: &mut AppDice,
) -> Result<(Vec<u8>, DiceSource), RuleError> {
    match input {
        DiceInput::Typed(dice) => {
            check_typed(dice, count, what)?;
            Ok((dice.clone(), DiceSource::Typed))
        }
        DiceInput::App(_) => Ok((app.draw_n(count)?, app.source())),
    }
}

/// Resolves dice input and adds `modifiers`: the logged roll (RULES 11).
pub fn roll(
    input: &DiceInput,
    count: usize,
    what: &str,
    app: &mut AppDice,
    modifiers: Vec<Modifier>,
) -> Result<Roll, RuleError> {
    let (faces, source) = resolve(input, count, what, app)?;
    Ok(Roll::new(faces, source, modifiers))
}

/// A roll of `count` dice with a quality re-roll rule (RULES 10): each die
/// the rule names is rolled again, once. Typed dice list the first faces,
/// then one face per re-rolled die, in order.
pub fn roll_with_rerolls(
    input: &DiceInput,
    count: usize,
    what: &str,
    app: &mut AppDice,
    modifiers: Vec<Modifier>,
    rule: &RerollRule,
) -> Result<Roll, RuleError> {
    let (first, source, seconds): (Vec<u8>, DiceSource, Vec<u8>) = match input {
        DiceInput::Typed(dice) => {
            let first: Vec<u8> = dice.iter().copied().take(count).collect();
            check_typed(&first, count, what)?;
            let needed = first.iter().filter(|d| rule.rerolls(**d)).count();
            check_typed(
                dice.get(count..).unwrap_or_default(),
                needed,
                &format!("{what}'s re-rolls"),
            )?;
            (first, DiceSource::Typed, dice[count..].to_vec())
        }
        DiceInput::App(_) => {
            let first = app.draw_n(count)?;
            let needed = first.iter().filter(|d| rule.rerolls(**d)).count();
            let seconds = app.draw_n(needed)?;
            (first, app.source(), seconds)
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

/// Which face a quality re-roll keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RerollKeep {
    /// The better of the two rolls (Elite, Superior).
    Higher,
    /// The re-roll, whatever it shows (Poor).
    Second,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RerollRule {
    pub reroll: Vec<u8>,
    pub keep: RerollKeep,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QualityRerolls {
    pub elite: RerollRule,
    pub superior: RerollRule,
    pub average: RerollRule,
    pub poor: RerollRule,
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
