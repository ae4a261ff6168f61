//! Armies in, then the pre-battle initiative roll-off (RULES 1-2): each side
//! rolls and adds its modifiers; the higher total has the initiative; ties
//! re-roll both dice (ruling, data: `initiative.ties`).

use super::{Event, RollOff, State};
use crate::army::Army;
use crate::ruleset::Ruleset;
use muster_core::dice::{self, AppDice, DiceInput, Roll};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::Lock;
use muster_core::side::Side;

pub(super) fn decide_army(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    army: &Army,
    lock: Option<&Lock>,
) -> Result<Vec<Event>, RuleError> {
    if state.initiative.started() {
        return refuse(
            "2",
            "Armies are fixed once initiative has been rolled (their modifiers are in the roll)",
        );
    }
    army.validate(ruleset, side)?;
    if let Some(other) = &state.armies[side.opponent()]
        && muster_core::text::confusable(&army.player, &other.player)
    {
        return refuse(
            "1",
            format!(
                "{side}'s player \"{}\" looks like {}'s \"{}\": the log could not tell them apart",
                army.player,
                side.opponent(),
                other.player
            ),
        );
    }
    let new_lock = match (lock, &state.locks[side]) {
        (Some(new), Some(old)) if new != old => {
            return refuse(
                "trust",
                format!("{side}'s passphrase is set and cannot be changed in this battle"),
            );
        }
        (Some(new), None) => {
            new.well_formed()?;
            Some(new.clone())
        }
        _ => None,
    };
    if state.armies[side].as_ref() == Some(army) && new_lock.is_none() {
        return refuse("1", format!("{side}'s army is already entered as it is"));
    }
    Ok(vec![Event::ArmySet {
        side,
        army: army.clone(),
        lock: new_lock,
    }])
}

pub(super) fn decide_roll(
    state: &State,
    ruleset: &Ruleset,
    app: &mut AppDice,
    side: Side,
    input: &DiceInput,
) -> Result<Vec<Event>, RuleError> {
    let init = &state.initiative;
    if let Some(winner) = init.winner {
        return refuse("2", format!("{winner} already has the initiative"));
    }
    let Some(army) = &state.armies[side] else {
        return refuse(
            "2",
            format!("{side}'s army must be entered before rolling for initiative"),
        );
    };
    if state.armies[side.opponent()].is_none() {
        return refuse(
            "2",
            format!(
                "{}'s army must be entered before rolling for initiative",
                side.opponent()
            ),
        );
    }
    not_yet_rolled(init, "2", side)?;
    let count = usize::from(ruleset.initiative.dice);
    let what = format!("{side}'s initiative roll");
    let modifiers = army.initiative_modifiers(ruleset);
    let roll = dice::roll(input, count, &what, app, modifiers)?;
    Ok(roll_off_events(
        init,
        side,
        roll,
        RollOffEvents {
            rolled: |side, round, roll| Event::InitiativeRolled { side, round, roll },
            tied: |round, total| Event::InitiativeTied { round, total },
            won: |side, south, north| Event::InitiativeWon { side, south, north },
        },
    ))
}

/// Refuses a second roll by `side` in the same round of a roll-off.
pub(super) fn not_yet_rolled(contest: &RollOff, rule: &str, side: Side) -> Result<(), RuleError> {
    match contest.rolls[side] {
        Some(_) => refuse(
            rule,
            format!(
                "{side} has already rolled in round {}; waiting for {}",
                contest.round,
                side.opponent()
            ),
        ),
        None => Ok(()),
    }
}

/// The events a roll-off logs: a side's roll, then a tie or a winner.
pub(super) struct RollOffEvents {
    pub rolled: fn(Side, u32, Roll) -> Event,
    pub tied: fn(u32, i32) -> Event,
    pub won: fn(Side, i32, i32) -> Event,
}

/// `side`'s roll in a roll-off and, if the opponent has rolled, its outcome.
pub(super) fn roll_off_events(
    contest: &RollOff,
    side: Side,
    roll: Roll,
    make: RollOffEvents,
) -> Vec<Event> {
    let outcome = settle(contest, side, &roll).map(|outcome| match outcome {
        Outcome::Tied(total) => (make.tied)(contest.round, total),
        Outcome::Won { side, south, north } => (make.won)(side, south, north),
    });
    let mut events = vec![(make.rolled)(side, contest.round, roll)];
    events.extend(outcome);
    events
}

/// How a roll-off round ends once both have rolled.
enum Outcome {
    Tied(i32),
    Won { side: Side, south: i32, north: i32 },
}

/// The outcome of `side`'s roll in a roll-off, if the opponent has rolled.
fn settle(state: &RollOff, side: Side, roll: &Roll) -> Option<Outcome> {
    let other = state.rolls[side.opponent()].as_ref()?;
    let (mine, theirs) = (roll.total, other.total);
    let (south, north) = match side {
        Side::South => (mine, theirs),
        Side::North => (theirs, mine),
    };
    Some(match mine.cmp(&theirs) {
        std::cmp::Ordering::Equal => Outcome::Tied(mine),
        std::cmp::Ordering::Greater => Outcome::Won { side, south, north },
        std::cmp::Ordering::Less => Outcome::Won {
            side: side.opponent(),
            south,
            north,
        },
    })
}
