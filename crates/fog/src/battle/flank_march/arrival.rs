//! A flank march's arrival (RULES 10, `docs/src/rules/fog.md`): rolled for
//! at the start of each of the owner's turns, the owner's word on a roll
//! whose modifier is sealed, and the reveal on arrival, checked against its
//! commitment, with each battle group's straggling test.

use super::{
    FlankMarch, FlankMarchPlan, Straggle, arrival_modifiers, check_plan, place, straggle_modifiers,
};
use crate::battle::{Command, Event, State};
use crate::ruleset::Ruleset;
use muster_core::dice::{self, AppDice, DiceInput, Modifier};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::{Revealed, SealKey};
use muster_core::side::Side;

/// The owner's turn now, if `side` is the player to move (RULES 10).
pub(super) fn owners_turn(state: &State, side: Side) -> Result<u32, RuleError> {
    match crate::battle::state::current(state) {
        Some((turn, s)) if s == side => Ok(turn),
        Some((_, s)) => refuse("10", format!("It is {s}'s turn")),
        None => refuse("10", "Flank marches arrive during play"),
    }
}

/// `side`'s flank march number `march`.
pub(super) fn march_of(state: &State, side: Side, march: usize) -> Result<&FlankMarch, RuleError> {
    match state.deployment.flank_marches.get(march) {
        Some(m) if m.side == side => Ok(m),
        _ => refuse("10", format!("{side} has no flank march {}", march + 1)),
    }
}

/// The flank marches of the player to move that still roll this turn.
pub fn due(state: &State, ruleset: &Ruleset) -> Vec<usize> {
    let Some((turn, side)) = crate::battle::state::current(state) else {
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

pub(crate) fn decide_roll(
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
pub(crate) fn decide_say(
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
        crate::battle::opened::<FlankMarchPlan>(&m.sealed, key, &place(state, side, march), "10")?
            .secret;
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
    let revealed = crate::battle::opened(&m.sealed, key, &place(state, side, march), "10")?;
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

pub(crate) fn decide_reveal(
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
    let deployed = crate::battle::state::deployed_bgs(state, side);
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
