//! The deployment roll (RULES-map-intel B6, rule 27.2.1-27.2.2): each side
//! rolls 1d6 and adds the right rating, +4 for a Wing solely of non-moving
//! Prussian cavalry and leaders; the higher total wins, ties go to the
//! stationary side; a winning moving Wing may shift its leader by the
//! difference, at most 3 hexes. And its exact odds, shown before the roll.

use muster_core::dice::{Modifier, Probability};
use muster_core::error::{RuleError, refuse};
use serde::{Deserialize, Serialize};

/// The bonus of a Wing solely of non-moving Prussian cavalry and leaders.
pub const PRUSSIAN_CAVALRY_BONUS: i32 = 4;
/// The farthest a winning moving Wing's leader may be shifted.
pub const MAX_ADJUSTMENT: u32 = 3;

/// What a side adds to its die: the Wing's command rating or, when
/// higher, the rating of an Army Commander or Special Leader with it (the
/// highest eligible), and +4 for a Wing solely of non-moving Prussian
/// cavalry and leaders.
pub fn modifiers(wing: u32, leaders: &[(String, u32)], prussian_cavalry: bool) -> Vec<Modifier> {
    let best = leaders.iter().max_by_key(|(_, rating)| *rating);
    let mut out = vec![match best {
        Some((name, rating)) if *rating > wing => Modifier {
            reason: format!("{name}'s rating"),
            value: *rating as i32,
        },
        _ => Modifier {
            reason: "the Wing's command rating".into(),
            value: wing as i32,
        },
    }];
    if prussian_cavalry {
        out.push(Modifier {
            reason: "non-moving Prussian cavalry".into(),
            value: PRUSSIAN_CAVALRY_BONUS,
        });
    }
    out
}

/// The sum of modifiers.
pub fn total(modifiers: &[Modifier]) -> i32 {
    modifiers.iter().map(|m| m.value).sum()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Moving,
    Stationary,
}

/// The chance each side wins, before the roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Odds {
    pub moving: Probability,
    pub stationary: Probability,
}

/// Exact odds over the 36 pairs of dice.
pub fn odds(moving: i32, stationary: i32) -> Odds {
    let wins = (1..=6)
        .flat_map(|m| (1..=6).map(move |s| (m, s)))
        .filter(|(m, s)| m + moving > s + stationary)
        .count() as u64;
    Odds {
        moving: Probability::new(wins, 36),
        stationary: Probability::new(36 - wins, 36),
    }
}

/// A decided roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub winner: Role,
    pub difference: u32,
    /// How far the moving leader may be shifted (0 unless he won).
    pub adjustment: u32,
}

/// The outcome of the two dice with their modifiers; a die outside 1-6 is
/// refused.
pub fn decide(dice: (u8, u8), moving: i32, stationary: i32) -> Result<Outcome, RuleError> {
    for die in [dice.0, dice.1] {
        if !(1..=6).contains(&die) {
            return refuse("27.2.1", format!("a d6 shows 1 to 6, not {die}"));
        }
    }
    let m = i32::from(dice.0) + moving;
    let s = i32::from(dice.1) + stationary;
    let difference = m.abs_diff(s);
    Ok(if m > s {
        Outcome {
            winner: Role::Moving,
            difference,
            adjustment: difference.min(MAX_ADJUSTMENT),
        }
    } else {
        Outcome {
            winner: Role::Stationary,
            difference,
            adjustment: 0,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_ratings_give_the_stationary_side_21_in_36() {
        let o = odds(3, 3);
        assert!(o.stationary.is(21, 36) && o.moving.is(15, 36), "{o:?}");
    }

    /// Counted by hand: with +1, the moving side wins when his die is at
    /// least the other's (21 pairs); with +4 Prussian cavalry stationary
    /// against +4 moving, as equal; +6 ahead, he always wins; 6 behind,
    /// never.
    #[test]
    fn odds_match_hand_counts() {
        assert!(odds(4, 3).moving.is(21, 36));
        assert!(odds(3, 4).moving.is(10, 36));
        assert!(odds(9, 3).moving.is(36, 36));
        assert!(odds(3, 8).moving.is(0, 36));
        assert!(odds(5, 3).moving.is(26, 36));
    }

    #[test]
    fn the_rules_examples_of_27_2_2() {
        // Prussian cav moving, 5 + 4 against Austrian 2 + 3: shifts 3 of 4.
        let o = decide((5, 2), 4, 3).unwrap();
        assert_eq!((o.winner, o.difference, o.adjustment), (Role::Moving, 4, 3));
        // The Prussian rolls 2: 6 against 5, one hex.
        let o = decide((2, 2), 4, 3).unwrap();
        assert_eq!((o.winner, o.adjustment), (Role::Moving, 1));
        // A tie goes to the stationary side, who shifts nothing.
        let o = decide((3, 4), 4, 3).unwrap();
        assert_eq!((o.winner, o.adjustment), (Role::Stationary, 0));
    }

    #[test]
    fn a_die_of_7_or_0_is_refused() {
        assert_eq!(decide((7, 1), 0, 0).unwrap_err().rule, "27.2.1");
        assert!(decide((3, 0), 0, 0).is_err());
    }

    #[test]
    fn the_highest_eligible_leader_replaces_the_wing_rating_and_cavalry_adds_four() {
        let leaders = vec![("Seydlitz".to_string(), 5), ("Frederick".to_string(), 4)];
        let m = modifiers(3, &leaders, true);
        assert_eq!(total(&m), 9);
        assert!(m[0].reason.contains("Seydlitz") && m[1].value == 4);
        assert_eq!(total(&modifiers(4, &[("Keith".into(), 2)], false)), 4);
    }
}
