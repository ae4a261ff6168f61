//! Flank marches (RULES 8.4, 10): recorded sealed during deployment, rolled
//! for at the start of each of the owner's turns from his turn 2 on (data:
//! `flank_march.first_roll_turn`), revealed on arrival, when each battle
//! group takes its straggling test.
//!
//! The arrival modifier depends on what the march is, so the record states
//! it openly when sealed (the dice show it anyway) and the reveal checks it
//! against the contents.

use super::{Command, Event, Phase, State};
use crate::army::{Army, CommanderQuality};
use crate::ruleset::Ruleset;
use muster_core::dice::{self, AppDice, DiceInput, Distribution, Modifier, Probability, Roll};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::{Place, Revealed, SealKey, Sealed};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};

/// Which flank a march arrives on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flank {
    Left,
    Right,
}

impl Flank {
    pub fn name(self) -> &'static str {
        match self {
            Flank::Left => "left",
            Flank::Right => "right",
        }
    }

    /// The side edge a march on this flank of `side` enters by (RULES 10):
    /// each player faces the enemy across the table, so South's left is
    /// the west edge and North's left the east.
    pub fn edge(self, side: Side) -> crate::geometry::SideEdge {
        use crate::geometry::SideEdge;
        match (side, self) {
            (Side::South, Flank::Left) | (Side::North, Flank::Right) => SideEdge::West,
            _ => SideEdge::East,
        }
    }
}

/// What a flank march is: the secret its record seals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlankMarchPlan {
    /// Battle groups, by index in the army.
    pub bgs: Vec<usize>,
    /// The commander leading it, by index in the army's commanders.
    pub commander: usize,
    pub flank: Flank,
}

/// A battle group's straggling test on arrival.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Straggle {
    pub bg: usize,
    pub roll: Roll,
    pub straggles: bool,
}

/// A recorded flank march and what has happened to it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FlankMarch {
    pub side: Side,
    pub sealed: Sealed,
    /// The arrival modifier the record states openly; `None` when it is
    /// sealed with the march and added on its owner's phone.
    pub modifier: Option<i32>,
    /// Arrival rolls: the owner's turn each was made in, and the roll.
    pub rolls: Vec<(u32, Roll)>,
    /// With a sealed modifier: the owner's word on each roll, arrives or
    /// not, checked at the reveal.
    pub said: Vec<bool>,
    pub revealed: Option<Revealed<FlankMarchPlan>>,
    pub straggling: Vec<Straggle>,
}

impl FlankMarch {
    pub fn new(side: Side, sealed: Sealed, modifier: Option<i32>) -> FlankMarch {
        FlankMarch {
            side,
            sealed,
            modifier,
            rolls: Vec::new(),
            said: Vec::new(),
            revealed: None,
            straggling: Vec::new(),
        }
    }

    /// Whether its last arrival roll brought it on (by its owner's word,
    /// for a sealed modifier).
    pub fn arrived(&self, ruleset: &Ruleset) -> bool {
        match self.modifier {
            Some(_) => self
                .rolls
                .last()
                .is_some_and(|(_, r)| r.total >= ruleset.flank_march.arrives_on),
            None => !self.awaits_word() && self.said.last() == Some(&true),
        }
    }

    /// A roll of a march with a sealed modifier waits for its owner's word.
    pub fn awaits_word(&self) -> bool {
        self.modifier.is_none() && self.said.len() < self.rolls.len()
    }
}

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
            let opened = super::opened(&m.sealed, key, &place(state, side, i), "8.4")?;
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

fn expect_marches_turn(state: &State, ruleset: &Ruleset, side: Side) -> Result<(), RuleError> {
    match state.phase(ruleset) {
        Phase::Deployment(super::DeploymentTurn::FlankMarches(s)) if s == side => Ok(()),
        _ => refuse("8.4", format!("{side} cannot record flank marches now")),
    }
}

pub(super) fn decide_record(
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

pub(super) fn decide_finish(
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

/// The owner's turn now, if `side` is the player to move (RULES 10).
fn owners_turn(state: &State, side: Side) -> Result<u32, RuleError> {
    match super::state::current(state) {
        Some((turn, s)) if s == side => Ok(turn),
        Some((_, s)) => refuse("10", format!("It is {s}'s turn")),
        None => refuse("10", "Flank marches arrive during play"),
    }
}

/// `side`'s flank march number `march`.
/// Where flank march `march` (its index among all marches) is sealed.
fn place(state: &State, side: Side, march: usize) -> Place<'_> {
    Place {
        game: &state.game,
        owner: side,
        kind: "flank-march",
        slot: format!("march {march}"),
    }
}

fn march_of(state: &State, side: Side, march: usize) -> Result<&FlankMarch, RuleError> {
    match state.deployment.flank_marches.get(march) {
        Some(m) if m.side == side => Ok(m),
        _ => refuse("10", format!("{side} has no flank march {}", march + 1)),
    }
}

/// The flank marches of the player to move that still roll this turn.
pub fn due(state: &State, ruleset: &Ruleset) -> Vec<usize> {
    let Some((turn, side)) = super::state::current(state) else {
        return Vec::new();
    };
    if turn < ruleset.flank_march.first_roll_turn {
        return Vec::new();
    }
    state
        .deployment
        .flank_marches
        .iter()
        .enumerate()
        .filter(|(_, m)| m.side == side && !m.arrived(ruleset) && !m.awaits_word())
        .filter(|(_, m)| m.rolls.last().is_none_or(|(t, _)| *t < turn))
        .map(|(i, _)| i)
        .collect()
}

pub(super) fn decide_roll(
    state: &State,
    ruleset: &Ruleset,
    app: &mut AppDice,
    side: Side,
    march: usize,
    input: &DiceInput,
) -> Result<Vec<Event>, RuleError> {
    let turn = owners_turn(state, side)?;
    let m = march_of(state, side, march)?;
    if !due(state, ruleset).contains(&march) {
        let why = if m.arrived(ruleset) {
            "it has arrived".to_string()
        } else if turn < ruleset.flank_march.first_roll_turn {
            format!(
                "rolls start on the owner's turn {}",
                ruleset.flank_march.first_roll_turn
            )
        } else {
            "it has been rolled for this turn".to_string()
        };
        return refuse("10", format!("No arrival roll for that march now: {why}"));
    }
    let modifiers = match m.modifier {
        None | Some(0) => Vec::new(),
        Some(value) => vec![Modifier {
            reason: "stated when sealed".into(),
            value,
        }],
    };
    let what = format!("{side}'s arrival roll");
    let count = usize::from(ruleset.flank_march.dice);
    let roll = dice::roll(input, count, &what, app, modifiers)?;
    let arrives = m
        .modifier
        .map(|_| roll.total >= ruleset.flank_march.arrives_on);
    Ok(vec![Event::ArrivalRolled {
        side,
        march,
        turn,
        roll,
        arrives,
    }])
}

/// The owner's word on the last roll of a march whose modifier is sealed.
pub(super) fn decide_say(
    state: &State,
    side: Side,
    march: usize,
    arrives: bool,
) -> Result<Vec<Event>, RuleError> {
    owners_turn(state, side)?;
    let m = march_of(state, side, march)?;
    if !m.awaits_word() {
        return refuse(
            "10",
            format!(
                "Flank march {} has no arrival roll waiting for its owner's word",
                march + 1
            ),
        );
    }
    Ok(vec![Event::ArrivalSaid {
        side,
        march,
        arrives,
    }])
}

/// What the owner's phone says of a march's last roll, from its sealed
/// record: whether it arrives with the modifier its contents give.
pub fn word(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    march: usize,
    key: &SealKey,
) -> Result<Command, RuleError> {
    let m = march_of(state, side, march)?;
    let plan =
        super::opened::<FlankMarchPlan>(&m.sealed, key, &place(state, side, march), "10")?.secret;
    let Some(army) = state.armies[side].as_ref() else {
        return refuse("8.4", format!("{side} has no army entered yet"));
    };
    let modifier: i32 = arrival_modifiers(ruleset, army, &plan)
        .iter()
        .map(|m| m.value)
        .sum();
    let Some((_, roll)) = m.rolls.last() else {
        return refuse("10", format!("Flank march {} has not rolled", march + 1));
    };
    Ok(Command::SayArrival {
        side,
        march,
        arrives: roll.total + modifier >= ruleset.flank_march.arrives_on,
    })
}

/// On the owner's screen: opens an arrived march for its reveal.
pub fn reveal_plan(
    state: &State,
    side: Side,
    march: usize,
    key: &SealKey,
    straggling: Vec<DiceInput>,
) -> Result<Command, RuleError> {
    let m = march_of(state, side, march)?;
    let revealed = super::opened(&m.sealed, key, &place(state, side, march), "10")?;
    Ok(Command::RevealFlankMarch {
        side,
        march,
        revealed,
        straggling,
    })
}

/// Flank marches that have arrived and wait to be revealed.
pub fn to_reveal(state: &State, ruleset: &Ruleset) -> Vec<usize> {
    state
        .deployment
        .flank_marches
        .iter()
        .enumerate()
        .filter(|(_, m)| m.arrived(ruleset) && m.revealed.is_none())
        .map(|(i, _)| i)
        .collect()
}

pub(super) fn decide_reveal(
    state: &State,
    ruleset: &Ruleset,
    app: &mut AppDice,
    side: Side,
    march: usize,
    revealed: &Revealed<FlankMarchPlan>,
    straggling: &[DiceInput],
) -> Result<Vec<Event>, RuleError> {
    owners_turn(state, side)?;
    let m = march_of(state, side, march)?;
    if !to_reveal(state, ruleset).contains(&march) {
        return refuse("10", "A flank march is revealed when it arrives");
    }
    m.sealed
        .check(revealed)
        .map_err(|e| RuleError::new("10", e.to_string()))?;
    let plan = &revealed.secret;
    check_plan(state, side, plan)?;
    let Some(army) = state.armies[side].as_ref() else {
        return refuse("8.4", format!("{side} has no army entered yet"));
    };
    let mut problems = Vec::new();
    let modifier: i32 = arrival_modifiers(ruleset, army, plan)
        .iter()
        .map(|m| m.value)
        .sum();
    match m.modifier {
        Some(stated) if stated != modifier => problems.push(format!(
            "its arrival rolls used {stated:+}, but its contents give {modifier:+}"
        )),
        Some(_) => {}
        // The owner's word on each roll, checked now that the modifier
        // can be read: a roll he called wrongly refuses the reveal.
        None => {
            let arrives_on = ruleset.flank_march.arrives_on;
            for ((turn, roll), said) in m.rolls.iter().zip(&m.said) {
                let total = roll.total + modifier;
                if (total >= arrives_on) != *said {
                    let (truth, word) = if *said {
                        ("does not arrive", "arrives")
                    } else {
                        ("arrives", "not yet")
                    };
                    return refuse(
                        "10",
                        format!(
                            "The arrival roll of {side}'s turn {turn} was {} with the sealed modifier {modifier:+}: {total}, so the march {truth} on {arrives_on}+, but {side} said \"{word}\"",
                            roll.total
                        ),
                    );
                }
            }
        }
    }
    let deployed = super::state::deployed_bgs(state, side);
    for bg in &plan.bgs {
        if deployed.contains(bg) {
            problems.push(format!(
                "{} was also deployed in a batch",
                army.bgs[*bg].name
            ));
        }
    }
    if straggling.len() != plan.bgs.len() {
        return refuse(
            "10",
            format!(
                "The march has {} battle groups: one straggling roll each, {} given",
                plan.bgs.len(),
                straggling.len()
            ),
        );
    }
    let rules = &ruleset.straggling;
    let mut tests = Vec::new();
    for (bg, input) in plan.bgs.iter().zip(straggling) {
        let group = &army.bgs[*bg];
        let what = format!("{}'s straggling roll", group.name);
        let mods = straggle_modifiers(ruleset, army, *bg);
        let count = usize::from(rules.dice);
        let roll = if rules.quality_rerolls {
            let rule = group.quality.rule(&ruleset.quality_rerolls);
            dice::roll_with_rerolls(input, count, &what, app, mods, rule)?
        } else {
            dice::roll(input, count, &what, app, mods)?
        };
        tests.push(Straggle {
            bg: *bg,
            straggles: roll.total < rules.straggles_below,
            roll,
        });
    }
    Ok(vec![Event::FlankMarchRevealed {
        side,
        march,
        revealed: revealed.clone(),
        straggling: tests,
        problems,
    }])
}
