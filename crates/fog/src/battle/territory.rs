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
    let allowed = choices(state, side);
    if !allowed.iter().any(|t| t == territory) {
        let names: Vec<&str> = allowed.iter().map(|t| ruleset.territory_name(t)).collect();
        return refuse(
            "3",
            format!(
                "{} is not in {}'s allowed territory types ({})",
                ruleset.territory_name(territory),
                side.opponent(),
                names.join(", ")
            ),
        );
    }
    Ok(vec![Event::TerritoryChosen {
        side,
        territory: territory.to_string(),
    }])
}
