//! Who moves first (RULES 9): each player rolls 1d6, the one whose C-in-C
//! is of better quality adds the bonus (data: `who_moves_first`); higher
//! moves first; ties re-roll (ruling).

use super::initiative::{RollOffEvents, not_yet_rolled, roll_off_events};
use super::{Event, Phase, State};
use crate::ruleset::Ruleset;
use muster_core::dice::{self, AppDice, DiceInput, Modifier};
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;

/// The modifiers `side` adds: the bonus if his C-in-C outranks the enemy's.
pub fn modifiers(state: &State, ruleset: &Ruleset, side: Side) -> Vec<Modifier> {
    let rules = &ruleset.who_moves_first;
    let rank = |s: Side| {
        state.armies[s].as_ref().and_then(|a| {
            rules
                .c_in_c_rank
                .iter()
                .position(|q| q == a.c_in_c.quality.id())
        })
    };
    match (rank(side), rank(side.opponent()), &state.armies[side]) {
        (Some(mine), Some(theirs), Some(army)) if mine < theirs => vec![Modifier {
            reason: format!("{} outranks the enemy C-in-C", army.c_in_c.quality.name()),
            value: rules.better_c_in_c_bonus,
        }],
        _ => Vec::new(),
    }
}

pub(super) fn decide_roll(
    state: &State,
    ruleset: &Ruleset,
    app: &mut AppDice,
    side: Side,
    input: &DiceInput,
) -> Result<Vec<Event>, RuleError> {
    match state.phase(ruleset) {
        Phase::MovesFirst => {}
        Phase::Play => {
            let winner = state.moves_first.winner.expect("play starts with a winner");
            return refuse("9", format!("{winner} already moves first"));
        }
        _ => return refuse("9", "Who moves first is rolled once deployment is complete"),
    }
    let contest = &state.moves_first;
    not_yet_rolled(contest, "9", side)?;
    let count = usize::from(ruleset.who_moves_first.dice);
    let what = format!("{side}'s roll for who moves first");
    let mods = modifiers(state, ruleset, side);
    let roll = dice::roll(input, count, &what, app, mods)?;
    Ok(roll_off_events(
        contest,
        side,
        roll,
        RollOffEvents {
            rolled: |side, round, roll| Event::MovesFirstRolled { side, round, roll },
            tied: |round, total| Event::MovesFirstTied { round, total },
            won: |side, south, north| Event::MovesFirstWon { side, south, north },
        },
    ))
}
