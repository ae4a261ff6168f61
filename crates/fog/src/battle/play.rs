//! Play (RULES 9-10): the turn counter from who moves first. Each game turn
//! the first mover plays his turn, then the other; a player's turn number is
//! the game turn. A turn ends only once its flank-march arrival rolls, and
//! the reveals of marches that arrived, are done.

use super::state::current;
use super::{Event, Phase, State, flank_march};
use crate::ruleset::Ruleset;
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;

pub(super) fn decide_end_turn(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
) -> Result<Vec<Event>, RuleError> {
    if state.phase(ruleset) != Phase::Play {
        return refuse("10", "Turns are played once who moves first is decided");
    }
    let Some((turn, to_move)) = current(state) else {
        return refuse("10", "Turns are played once who moves first is decided");
    };
    if to_move != side {
        return refuse("10", format!("It is {to_move}'s turn {turn}, not {side}'s"));
    }
    if let Some(march) = flank_march::due(state, ruleset).first() {
        return refuse(
            "10",
            format!(
                "{side} rolls for flank march {} at the start of their turn {turn} first",
                march + 1
            ),
        );
    }
    if let Some(march) = state
        .deployment
        .flank_marches
        .iter()
        .position(|m| m.side == side && m.awaits_word())
    {
        return refuse(
            "10",
            format!(
                "{side} says whether flank march {} arrives first (their phone adds its sealed modifier)",
                march + 1
            ),
        );
    }
    if let Some(march) = flank_march::to_reveal(state, ruleset).first() {
        return refuse(
            "10",
            format!("Flank march {} has arrived: reveal it first", march + 1),
        );
    }
    Ok(vec![Event::TurnEnded { side, turn }])
}
