//! Camps and field fortifications (RULES 8.1, 8.2, `docs/src/rules/fog.md`):
//! where each may stand (its depth from the owner's edge, the ground under
//! it, clear of the other works), and the commands that place them in
//! their deployment step.

use super::{DeploymentTurn, expect, ground_class, reach};
use crate::battle::{Event, State};
use crate::geometry::{Footprint, Pose, Shape, TOUCH, overlaps};
use crate::ruleset::{Ruleset, TerrainClass};
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;

/// Difficult or worse (a variable class not yet rolled counts as passable).
pub(super) fn at_least(class: TerrainClass, limit: TerrainClass) -> bool {
    class != TerrainClass::Variable && class >= limit
}

pub fn camp_footprint(ruleset: &Ruleset, pose: Pose) -> Footprint {
    let [width, depth] = ruleset.deployment.camp.footprint;
    Footprint::new(&Shape::Rectangle { width, depth }, pose)
}

pub fn fortification_footprint(ruleset: &Ruleset, pose: Pose) -> Footprint {
    let [width, depth] = ruleset.deployment.fortifications.footprint;
    Footprint::new(&Shape::Rectangle { width, depth }, pose)
}

/// Camps and fortification sections on the table, with whose they are.
pub(super) fn works(state: &State, ruleset: &Ruleset) -> Vec<(String, Footprint)> {
    let d = &state.deployment;
    let camps = Side::BOTH.into_iter().filter_map(|s| {
        d.camps[s].map(|pose| (format!("{s}'s camp"), camp_footprint(ruleset, pose)))
    });
    let ffs = d.fortifications.iter().map(|(s, pose)| {
        (
            format!("{s}'s fortification"),
            fortification_footprint(ruleset, *pose),
        )
    });
    camps.chain(ffs).collect()
}

/// Whether `side` may pitch his camp at `pose` (RULES 8.1).
pub fn check_camp(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    pose: Pose,
) -> Result<(), RuleError> {
    let rules = &ruleset.deployment.camp;
    let f = camp_footprint(ruleset, pose);
    if let Some((by, edge)) = state.table().overhang(&f) {
        return refuse(
            "8.1",
            format!("The camp would hang {by:.1} MU over the {edge} table edge"),
        );
    }
    let depth = reach(state, side, &f);
    if depth > rules.max_depth + 1e-9 {
        return refuse(
            "8.1",
            format!(
                "The camp reaches {depth:.1} MU from {side}'s long edge; it must lie wholly within {} MU",
                rules.max_depth
            ),
        );
    }
    let village = state.placement.standing().find(|(i, laid)| {
        state.selection.picks[*i].terrain == rules.allowed_if_wholly_in
            && f.points().iter().all(|p| {
                laid.footprint().contains(*p) || laid.footprint().boundary_distance(*p) < TOUCH
            })
    });
    for (i, laid) in state.placement.standing() {
        let Some(class) = ground_class(state, ruleset, i) else {
            continue;
        };
        if at_least(class, rules.forbidden_class) && overlaps(&f, laid.footprint()) {
            if village.is_some_and(|(v, _)| v == i) {
                continue;
            }
            let name = crate::battle::piece_name(state, ruleset, i);
            return refuse(
                "8.1",
                format!(
                    "The camp is on {name} ({class} terrain); a camp may not be in {} or worse terrain unless wholly in a {}",
                    rules.forbidden_class,
                    ruleset
                        .terrain_name(&rules.allowed_if_wholly_in)
                        .to_lowercase()
                ),
            );
        }
    }
    check_clear_of_works(state, ruleset, &f, "The camp")
}

pub(super) fn check_clear_of_works(
    state: &State,
    ruleset: &Ruleset,
    f: &Footprint,
    what: &str,
) -> Result<(), RuleError> {
    match works(state, ruleset)
        .into_iter()
        .find(|(_, w)| overlaps(f, w))
    {
        Some((name, _)) => refuse("8.1-8.2", format!("{what} would overlap {name}")),
        None => Ok(()),
    }
}

/// Whether `side` may place a fortification section at `pose` (RULES 8.2).
pub fn check_fortification(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    pose: Pose,
) -> Result<(), RuleError> {
    let rules = &ruleset.deployment.fortifications;
    let f = fortification_footprint(ruleset, pose);
    let table = state.table();
    if let Some((by, edge)) = table.overhang(&f) {
        return refuse(
            "8.2",
            format!("The fortification would hang {by:.1} MU over the {edge} table edge"),
        );
    }
    let third = table.width / 3.0;
    let central = f.min()[0] >= third - 1e-9 && f.max()[0] <= 2.0 * third + 1e-9;
    let limit = if central {
        rules.central_third_max_depth
    } else {
        rules.max_depth
    };
    let depth = reach(state, side, &f);
    if depth > limit + 1e-9 {
        let why = if central {
            "wholly in the central third"
        } else {
            "not wholly in the central third"
        };
        return refuse(
            "8.2",
            format!(
                "The fortification reaches {depth:.1} MU from {side}'s long edge; {why} it must lie within {limit} MU (12 MU, or 15 MU wholly in the central third)"
            ),
        );
    }
    for (i, laid) in state.placement.standing() {
        if ground_class(state, ruleset, i) == Some(TerrainClass::Impassable)
            && overlaps(&f, laid.footprint())
        {
            let name = crate::battle::piece_name(state, ruleset, i);
            return refuse(
                "8.2",
                format!("The fortification would stand on {name}, which is impassable"),
            );
        }
    }
    check_clear_of_works(state, ruleset, &f, "The fortification")
}

pub(crate) fn decide_camp(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    pose: Pose,
) -> Result<Vec<Event>, RuleError> {
    expect(
        state,
        ruleset,
        side,
        |t| matches!(t, DeploymentTurn::Camp(_)),
        "place a camp",
    )?;
    check_camp(state, ruleset, side, pose)?;
    Ok(vec![Event::CampPlaced { side, pose }])
}

pub(crate) fn decide_fortification(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    pose: Pose,
) -> Result<Vec<Event>, RuleError> {
    let is = |t| matches!(t, DeploymentTurn::Fortifications(_));
    expect(state, ruleset, side, is, "place a fortification")?;
    check_fortification(state, ruleset, side, pose)?;
    Ok(vec![Event::FortificationPlaced { side, pose }])
}
