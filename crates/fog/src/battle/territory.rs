//! Territory type (RULES 3): the initiative holder chooses from his
//! opponent's allowed list.

use super::{Event, Phase, State};
use crate::ruleset::Ruleset;
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;

/// The territory types `chooser` may pick: his opponent's list.
pub fn choices(state: &State, chooser: Side) -> Vec<String> {
    state.armies[chooser.opponent()]
        .as_ref()
        .map(|a| a.territories.clone())
        .unwrap_or_default()
}

pub(super) fn decide(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    territory: &str,
) -> Result<Vec<Event>, RuleError> {
    let holder = match state.phase(ruleset) {
        Phase::Territory(holder) => holder,
        Phase::Armies | Phase::Initiative => {
            return refuse(
                "3",
                "The territory type is chosen after the initiative roll",
            );
        }
        _ => return refuse("3", "The territory type has already been chosen"),
    };
    if side != holder {
        return refuse(
            "3",
            format!("Only the initiative holder ({holder}) chooses the territory type"),
        );
    }
    super::one_of(
        "3",
        territory,
        &choices(state, side),
        |t| ruleset.territory_name(t).to_string(),
        |pick, allowed| {
            format!(
                "{pick} is not in {}'s allowed territory types ({allowed})",
                side.opponent()
            )
        },
    )?;
    Ok(vec![Event::TerritoryChosen {
        side,
        territory: territory.to_string(),
    }])
}
