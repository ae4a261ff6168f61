//! Terrain selection (RULES 4): the two compulsory pieces, then 1 to 5
//! selections each, the player without initiative first.
//!
//! The same checks serve `apply` and the panel's list of options, so what the
//! panel disables and why is exactly what the engine would refuse.

use super::{Event, Phase, State};
use crate::ruleset::Ruleset;
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;

/// The compulsory pieces of a territory type: each terrain type repeated by
/// its minimum ("forest", "forest" for Woodlands).
pub fn compulsory_pieces(ruleset: &Ruleset, territory: &str) -> Vec<String> {
    ruleset
        .territories
        .get(territory)
        .map(|t| {
            t.min
                .iter()
                .flat_map(|(group, &n)| {
                    let id = ruleset.group_members(group).next().unwrap_or(group);
                    std::iter::repeat_n(id.to_string(), n as usize)
                })
                .collect()
        })
        .unwrap_or_default()
}

pub(super) fn remaining_compulsory(state: &State, ruleset: &Ruleset) -> Vec<String> {
    let Some(territory) = &state.territory else {
        return Vec::new();
    };
    let mut left = compulsory_pieces(ruleset, territory);
    for pick in state.selection.picks.iter().filter(|p| p.compulsory) {
        if let Some(i) = left.iter().position(|t| *t == pick.terrain) {
            left.remove(i);
        }
    }
    left
}

/// How many selections one piece costs: 2 for a large piece, a river or a
/// coast; 1 otherwise (RULES 4, data).
fn cost(ruleset: &Ruleset, terrain: &str, large: bool) -> u32 {
    let own = ruleset.terrain(terrain).map_or(1, |t| t.selections);
    if large {
        own.max(ruleset.selection.large_selections)
    } else {
        own
    }
}

pub(super) fn used(state: &State, ruleset: &Ruleset, side: Side) -> u32 {
    state
        .selection
        .picks
        .iter()
        .filter(|p| p.side == side && !p.compulsory)
        .map(|p| cost(ruleset, &p.terrain, p.large))
        .sum()
}

/// Pieces already selected (by anyone, compulsory or not) in a count group.
fn in_group(state: &State, ruleset: &Ruleset, group: &str) -> u32 {
    state
        .selection
        .picks
        .iter()
        .filter(|p| ruleset.count_group(&p.terrain) == group)
        .count() as u32
}

fn group_max(state: &State, ruleset: &Ruleset, group: &str) -> u32 {
    state
        .territory
        .as_ref()
        .and_then(|t| ruleset.territories.get(t))
        .and_then(|t| t.max.get(group).copied())
        .unwrap_or(0)
}

/// One thing a player could select, and whether he may.
#[derive(Clone, Debug, PartialEq)]
pub struct SelectOption {
    pub terrain: String,
    pub large: bool,
    /// Selections it costs.
    pub cost: u32,
    /// Pieces of its column still available under the maximum.
    pub remaining: u32,
    pub verdict: Result<(), RuleError>,
}

pub(super) fn options(state: &State, ruleset: &Ruleset, side: Side) -> Vec<SelectOption> {
    let Some(territory) = state
        .territory
        .as_ref()
        .and_then(|t| ruleset.territories.get(t))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (id, t) in &ruleset.terrain_types {
        let group = ruleset.count_group(id);
        let Some(&max) = territory.max.get(group) else {
            continue;
        };
        let remaining = max.saturating_sub(in_group(state, ruleset, group));
        let sizes = if t.can_be_large {
            &[false, true][..]
        } else {
            &[false][..]
        };
        for &large in sizes {
            out.push(SelectOption {
                terrain: id.clone(),
                large,
                cost: cost(ruleset, id, large),
                remaining,
                verdict: check_select(state, ruleset, side, id, large),
            });
        }
    }
    out
}

fn piece_name(ruleset: &Ruleset, terrain: &str, large: bool) -> String {
    let name = ruleset.terrain_name(terrain);
    if large {
        format!("large {name}")
    } else {
        name.to_string()
    }
}

fn check_select(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    terrain: &str,
    large: bool,
) -> Result<(), RuleError> {
    let sel = &ruleset.selection;
    let phase = state.phase(ruleset);
    if phase != Phase::Selection(side) {
        return match phase {
            Phase::Selection(other) => refuse(
                "4",
                format!("It is {other}'s turn to select terrain, not {side}'s"),
            ),
            Phase::Compulsory(_) => refuse("4", "The compulsory pieces are taken first"),
            Phase::Placement(_) | Phase::Deployment(_) | Phase::MovesFirst | Phase::Play => {
                refuse("4", "Terrain selection is over")
            }
            _ => refuse("4", "Terrain is selected once the territory type is chosen"),
        };
    }
    let Some(t) = ruleset.terrain(terrain) else {
        return refuse("4", format!("There is no terrain type \"{terrain}\""));
    };
    let name = piece_name(ruleset, terrain, large);
    let initiative = state.initiative.winner == Some(side);
    if !initiative && sel.non_initiative_forbidden.iter().any(|f| f == terrain) {
        return refuse(
            "4",
            format!(
                "The player without initiative cannot select a {}",
                t.name.to_lowercase()
            ),
        );
    }
    if large && !t.can_be_large {
        return refuse(
            "4",
            format!("A {} cannot be a large piece", t.name.to_lowercase()),
        );
    }
    if initiative {
        for group in &sel.initiative_not_both {
            if !group.iter().any(|g| g == terrain) {
                continue;
            }
            let mine = state
                .selection
                .picks
                .iter()
                .find(|p| p.side == side && p.terrain != terrain && group.contains(&p.terrain));
            if let Some(p) = mine {
                return refuse(
                    "4",
                    format!(
                        "The initiative holder cannot select both a {} and a {}",
                        ruleset.terrain_name(&p.terrain).to_lowercase(),
                        t.name.to_lowercase()
                    ),
                );
            }
        }
    }
    let group = ruleset.count_group(terrain);
    let max = group_max(state, ruleset, group);
    let have = in_group(state, ruleset, group);
    if have >= max {
        let territory = state.territory.as_deref().unwrap_or("");
        let column = if ruleset.group_members(group).count() > 1 {
            ruleset
                .group_members(group)
                .map(|m| ruleset.terrain_name(m))
                .collect::<Vec<_>>()
                .join("/")
        } else {
            t.name.clone()
        };
        return refuse(
            "4",
            format!(
                "{} allows at most {max} {column}; {have} already selected",
                ruleset.territory_name(territory)
            ),
        );
    }
    let used = used(state, ruleset, side);
    let cost = cost(ruleset, terrain, large);
    if used + cost > sel.per_player_max {
        let left = sel.per_player_max - used.min(sel.per_player_max);
        return refuse(
            "4",
            format!(
                "A {name} costs {cost} selections; {side} has {left} of {} left",
                sel.per_player_max
            ),
        );
    }
    Ok(())
}

pub(super) fn decide_compulsory(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    terrain: &str,
) -> Result<Vec<Event>, RuleError> {
    let chooser = match state.phase(ruleset) {
        Phase::Compulsory(chooser) => chooser,
        Phase::Selection(_)
        | Phase::Placement(_)
        | Phase::Deployment(_)
        | Phase::MovesFirst
        | Phase::Play => {
            return refuse("4", "Both compulsory pieces have already been taken");
        }
        _ => {
            return refuse(
                "4",
                "The compulsory pieces are taken once the territory type is chosen",
            );
        }
    };
    if side != chooser {
        return refuse(
            "4",
            format!("It is {chooser}'s turn to take a compulsory piece, not {side}'s"),
        );
    }
    super::one_of(
        "4",
        terrain,
        &remaining_compulsory(state, ruleset),
        |t| ruleset.terrain_name(t).to_string(),
        |pick, left| format!("{pick} is not a compulsory piece left to take (left: {left})"),
    )?;
    Ok(vec![Event::TerrainSelected {
        side,
        terrain: terrain.to_string(),
        large: false,
        compulsory: true,
    }])
}

pub(super) fn decide_select(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    terrain: &str,
    large: bool,
) -> Result<Vec<Event>, RuleError> {
    check_select(state, ruleset, side, terrain, large)?;
    let picked = Event::TerrainSelected {
        side,
        terrain: terrain.to_string(),
        large,
        compulsory: false,
    };
    let mut after = state.clone();
    after.fold(ruleset, &picked);
    let mut events = vec![picked];
    // A player with nothing left he may select is done: finishing is no choice.
    if !options(&after, ruleset, side)
        .iter()
        .any(|o| o.verdict.is_ok())
    {
        events.push(Event::SelectionFinished { side });
    }
    Ok(events)
}

pub(super) fn decide_finish(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
) -> Result<Vec<Event>, RuleError> {
    let phase = state.phase(ruleset);
    if phase != Phase::Selection(side) {
        return match phase {
            Phase::Selection(other) => refuse(
                "4",
                format!("It is {other}'s turn to select terrain, not {side}'s"),
            ),
            _ => refuse("4", format!("{side} is not selecting terrain now")),
        };
    }
    let min = ruleset.selection.per_player_min;
    let any_left = options(state, ruleset, side)
        .iter()
        .any(|o| o.verdict.is_ok());
    if used(state, ruleset, side) < min && any_left {
        return refuse(
            "4",
            format!("{side} must make at least {min} selection before finishing"),
        );
    }
    Ok(vec![Event::SelectionFinished { side }])
}
