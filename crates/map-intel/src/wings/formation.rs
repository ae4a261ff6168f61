//! The formation each Wing is placed in after a deployment roll (RULES-map-
//! intel B7, rules 27.2.3-27.2.4), and the placement limits Muster lists
//! for its owner (B8, 27.3).
//!
//! Ruling where 27.2.3 is silent: a stationary Wing of an activated army
//! that lost the roll is placed in its last formation whether or not it
//! moved last turn.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    Deployed,
    /// In column (IC).
    InColumn,
}

impl Formation {
    pub fn name(self) -> &'static str {
        match self {
            Formation::Deployed => "deployed",
            Formation::InColumn => "in column (IC)",
        }
    }
}

/// Why a Wing is placed as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    NotActivated,
    StationaryWon,
    StationaryLost,
    MovingWonInColumn,
    MovingWonDeployed,
    MovingLost,
}

/// How a Wing must be placed, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// `None`: its owner chooses deployed or IC.
    pub must: Option<Formation>,
    pub reason: Reason,
}

impl Placement {
    pub fn rule(&self) -> &'static str {
        match self.reason {
            Reason::NotActivated | Reason::StationaryWon | Reason::StationaryLost => "27.2.3",
            _ => "27.2.4",
        }
    }

    pub fn why(&self) -> &'static str {
        match self.reason {
            Reason::NotActivated => "its army is not activated: always placed deployed",
            Reason::StationaryWon => "it won the roll and its army is activated: deployed or IC",
            Reason::MovingWonInColumn => "it won the roll moving IC: deployed or IC",
            Reason::MovingWonDeployed => "it won the roll moving deployed: placed deployed",
            Reason::StationaryLost | Reason::MovingLost => {
                "it lost the roll: its last formation, not switched during placement"
            }
        }
    }
}

/// The stationary Wing (27.2.3).
pub fn stationary(won: bool, activated: bool, last: Formation) -> Placement {
    let (must, reason) = match (activated, won) {
        (false, _) => (Some(Formation::Deployed), Reason::NotActivated),
        (true, true) => (None, Reason::StationaryWon),
        (true, false) => (Some(last), Reason::StationaryLost),
    };
    Placement { must, reason }
}

/// The moving Wing (27.2.4).
pub fn moving(won: bool, last: Formation) -> Placement {
    let (must, reason) = match (won, last) {
        (true, Formation::InColumn) => (None, Reason::MovingWonInColumn),
        (true, Formation::Deployed) => (Some(Formation::Deployed), Reason::MovingWonDeployed),
        (false, last) => (Some(last), Reason::MovingLost),
    };
    Placement { must, reason }
}

/// The rule for a Wing that moved in column and is placed deployed.
const FORMERLY_IC: &str = "Formerly IC: the trailing Dis counters may first go to any hex adjacent to the leader (27.3.1).";

/// What its owner must respect placing a Wing's units (27.3); `was` is
/// the formation it moved in, when known: the formerly-IC rule is only
/// for a Wing that was in column (issue 25).
pub fn limits(formation: Formation, was: Option<Formation>) -> Vec<&'static str> {
    let lines: &[&str] = match formation {
        Formation::Deployed => &[
            FORMERLY_IC,
            "The first unit under the Wing Leader; the next two in the Dis counters' hexes, which are removed.",
            "The rest stacked with or adjacent to those units, none more than 3 hexes from the leader.",
            "Adjacent to the enemy is allowed; beyond the enemy, or surrounding him, is not.",
            "Movement ends for these units this turn.",
        ],
        Formation::InColumn => &[
            "The first unit(s) within IC stacking limits under the leader (27.3.2).",
            "The rest in a line along the leader's march path (arrow and Dis counters), up to 6 hexes behind; IC stacking limits apply.",
            "Any remaining units parallel to that 6-hex string, on either or both sides.",
            "Never adjacent to or beyond enemy units.",
            "Movement ends for these units this turn.",
        ],
    };
    lines
        .iter()
        .copied()
        .filter(|l| *l != FORMERLY_IC || was != Some(Formation::Deployed))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Formation::{Deployed, InColumn};
    use super::*;

    #[test]
    fn every_case_of_27_2_3_and_27_2_4() {
        for last in [Deployed, InColumn] {
            for won in [true, false] {
                assert_eq!(stationary(won, false, last).must, Some(Deployed));
            }
            assert_eq!(stationary(true, true, last).must, None);
            assert_eq!(stationary(false, true, last).must, Some(last));
            assert_eq!(moving(false, last).must, Some(last));
        }
        assert_eq!(moving(true, InColumn).must, None);
        assert_eq!(moving(true, Deployed).must, Some(Deployed));
    }

    #[test]
    fn the_limits_name_the_distances_of_27_3() {
        assert!(limits(Deployed, None).iter().any(|l| l.contains("3 hexes")));
        assert!(limits(InColumn, None).iter().any(|l| l.contains("6 hexes")));
        // The formerly-IC rule only for a Wing that moved in column.
        let formerly = |was| {
            limits(Deployed, was)
                .iter()
                .any(|l| l.starts_with("Formerly IC"))
        };
        assert!(formerly(Some(InColumn)));
        assert!(!formerly(Some(Deployed)));
    }
}
