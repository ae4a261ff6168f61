//! The distances and counts Muster can check for dummy wings (RULES-map-
//! intel B2-B4, B6, B9, B11; rules 27.1.1-27.1.4, 27.2.2, 27.4, 27.6.4.4),
//! each refusal with the measured figure and the rule: Dis counters within
//! 1-2 hexes of their leader at set-up (1 for fewer than 4 units) and
//! within 2 after a move, each counter's path and allowance, a winning
//! leader's shift, Torgau's 3 empty hexes
//! between Detachment stacks, a Wing's artillery, the units detached to an
//! Army Commander, and movement allowances.

use super::super::map::{Hex, HexMap};
use super::formation::Formation;
use muster_core::error::{RuleError, refuse};
use serde::{Deserialize, Serialize};

/// At most this many artillery units per Wing (27.1.1).
pub const ARTILLERY_PER_WING: usize = 3;
/// At most this many infantry/cavalry and artillery units detached to an
/// Army Commander (27.1.1).
pub const DETACHED_FOOT_OR_HORSE: usize = 2;
pub const DETACHED_ARTILLERY: usize = 2;
/// Dis counters stay within this many hexes of their leader (27.1.4).
pub const DIS_TRAIL: u32 = 2;
/// Torgau: a hex distance of at least this between stacks (27.6.4.4
/// ruling: 3 empty hexes between them).
pub const DETACHMENT_SPACING: u32 = 4;

/// How far a leader's Dis counters may be placed at set-up: 1-2 hexes, or
/// 1 for a Wing or Detachment of fewer than 4 units (27.1.2). A dummy is
/// placed as a normal Wing.
pub fn dis_reach(units: Option<usize>) -> u32 {
    match units {
        Some(n) if n < 4 => 1,
        _ => 2,
    }
}

/// The two Dis counters placed at set-up, each 1 to `reach` hexes from
/// the leader.
pub fn check_set_up(map: &HexMap, leader: Hex, dis: [Hex; 2], reach: u32) -> Result<(), RuleError> {
    for d in dis {
        let measured = map.distance(leader, d);
        if measured == 0 || measured > reach {
            return refuse(
                "27.1.2",
                format!(
                    "the Dis counter in {d} is {measured} hexes from its leader in {leader}: place it 1 to {reach} hex{} away",
                    if reach == 1 { "" } else { "es" }
                ),
            );
        }
    }
    Ok(())
}

/// After a move, the Dis counters within 2 hexes of their leader (27.1.4).
pub fn check_trail(map: &HexMap, leader: Hex, dis: [Hex; 2]) -> Result<(), RuleError> {
    for d in dis {
        let measured = map.distance(leader, d);
        if measured > DIS_TRAIL {
            return refuse(
                "27.1.4",
                format!(
                    "the Dis counter in {d} would be {measured} hexes from its leader in {leader}: Dis counters stay within {DIS_TRAIL}"
                ),
            );
        }
    }
    Ok(())
}

/// A winning moving leader shifted from `from` to `to`, at most `allowed`
/// hexes (the roll's difference, at most 3; 27.2.2).
pub fn check_adjustment(map: &HexMap, from: Hex, to: Hex, allowed: u32) -> Result<u32, RuleError> {
    let measured = map.distance(from, to);
    if measured > allowed {
        return refuse(
            "27.2.2",
            format!("{to} is {measured} hexes from {from}: the roll allows {allowed}"),
        );
    }
    Ok(measured)
}

/// Torgau's Detachment and dummy stacks, each with its Dis counters: every
/// counter at least 4 hexes from every counter of another stack.
pub fn check_spacing(map: &HexMap, stacks: &[(String, Vec<Hex>)]) -> Result<(), RuleError> {
    for (i, (a, here)) in stacks.iter().enumerate() {
        for (b, there) in &stacks[i + 1..] {
            for &p in here {
                for &q in there {
                    let measured = map.distance(p, q);
                    if measured < DETACHMENT_SPACING {
                        return refuse(
                            "27.6.4.4",
                            format!(
                                "{a} ({p}) and {b} ({q}) are {measured} hexes apart: 3 empty hexes must lie between stacks, a distance of {DETACHMENT_SPACING}"
                            ),
                        );
                    }
                }
            }
        }
    }
    Ok(())
}

/// A unit's kind as the off-map set-up counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    Infantry,
    Cavalry,
    Artillery,
    Leader,
}

/// A Wing's artillery (27.1.1).
pub fn check_wing(name: &str, arms: &[Arm]) -> Result<(), RuleError> {
    let guns = arms.iter().filter(|a| **a == Arm::Artillery).count();
    if guns > ARTILLERY_PER_WING {
        return refuse(
            "27.1.1",
            format!("{name} has {guns} artillery units: at most {ARTILLERY_PER_WING} per Wing"),
        );
    }
    Ok(())
}

/// The units detached to an Army Commander (27.1.1).
pub fn check_detached(commander: &str, arms: &[Arm]) -> Result<(), RuleError> {
    let count = |f: fn(&Arm) -> bool| arms.iter().filter(|a| f(a)).count();
    let line = count(|a| matches!(a, Arm::Infantry | Arm::Cavalry));
    let guns = count(|a| *a == Arm::Artillery);
    if line > DETACHED_FOOT_OR_HORSE || guns > DETACHED_ARTILLERY || arms.contains(&Arm::Leader) {
        return refuse(
            "27.1.1",
            format!(
                "{line} infantry/cavalry and {guns} artillery detached to {commander}: at most {DETACHED_FOOT_OR_HORSE} and {DETACHED_ARTILLERY}, and no leader"
            ),
        );
    }
    Ok(())
}

/// An unspotted Wing's movement allowance: its slowest unit's, deployed
/// or in column (27.1.4). `units` are (deployed, IC) allowances.
pub fn allowance(units: &[(u32, u32)], formation: Formation) -> Option<u32> {
    units
        .iter()
        .map(|&(deployed, column)| match formation {
            Formation::Deployed => deployed,
            Formation::InColumn => column,
        })
        .min()
}

/// Voluntary deployment: up to half the IC allowance, rounded up (27.4).
pub fn voluntary_deployment(column: u32) -> u32 {
    column.div_ceil(2)
}

/// One counter's move as a path of adjacent hexes on the map, from
/// `from`, counted against what is left of its allowance (RULES-map-intel
/// B4 a and c). `who` names the counter in a refusal, `why` says what
/// sets the allowance. Returns the hexes moved.
pub fn check_path(
    map: &HexMap,
    who: &str,
    from: Hex,
    path: &[Hex],
    moved: u32,
    most: u32,
    why: &str,
) -> Result<u32, RuleError> {
    let mut at = from;
    for (i, &hex) in path.iter().enumerate() {
        map.hex(&hex.to_string())?;
        let step = map.distance(at, hex);
        if step != 1 {
            return refuse(
                "27.1.4",
                format!(
                    "{who}'s path goes from {at} to {hex}, {step} hexes: step {} must enter an adjacent hex",
                    i + 1
                ),
            );
        }
        at = hex;
    }
    let hexes = u32::try_from(path.len()).unwrap_or(u32::MAX);
    let left = most.saturating_sub(moved);
    if hexes > left {
        return refuse(
            "27.1.4",
            format!("{who} has moved {moved} and would move {hexes} more: {why} {most} this turn"),
        );
    }
    Ok(hexes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{Orientation, Shifted};

    fn map() -> HexMap {
        HexMap {
            columns: 40,
            rows: 30,
            first_column: 1,
            first_row: 1,
            orientation: Orientation::FlatTop,
            shifted: Shifted::Odd,
        }
    }

    fn h(name: &str) -> Hex {
        Hex::parse(name).unwrap()
    }

    #[test]
    fn dis_counters_at_set_up_lie_1_to_2_hexes_away_or_1_for_a_small_wing() {
        let m = map();
        assert_eq!(
            (dis_reach(Some(3)), dis_reach(Some(4)), dis_reach(None)),
            (1, 2, 2)
        );
        assert!(check_set_up(&m, h("1010"), [h("1011"), h("1012")], 2).is_ok());
        let e = check_set_up(&m, h("1010"), [h("1011"), h("1013")], 2).unwrap_err();
        assert_eq!(e.rule, "27.1.2");
        assert!(e.message.contains("1013 is 3 hexes"), "{}", e.message);
        assert!(check_set_up(&m, h("1010"), [h("1011"), h("1012")], 1).is_err());
        // Under the leader is not "near" it.
        assert!(check_set_up(&m, h("1010"), [h("1010"), h("1011")], 2).is_err());
    }

    #[test]
    fn dis_counters_trail_within_2_hexes() {
        let m = map();
        assert!(check_trail(&m, h("1010"), [h("1010"), h("1012")]).is_ok());
        let e = check_trail(&m, h("1010"), [h("1011"), h("1013")]).unwrap_err();
        assert!(e.message.contains("3 hexes"), "{}", e.message);
    }

    #[test]
    fn the_winning_leader_shifts_no_further_than_allowed() {
        let m = map();
        assert_eq!(check_adjustment(&m, h("1010"), h("1013"), 3).unwrap(), 3);
        assert_eq!(
            check_adjustment(&m, h("1010"), h("1013"), 1)
                .unwrap_err()
                .rule,
            "27.2.2"
        );
    }

    #[test]
    fn torgau_stacks_keep_three_empty_hexes_between_them() {
        let m = map();
        let a = ("Det 1".to_string(), vec![h("1010"), h("1011")]);
        let far = ("Det 2".to_string(), vec![h("1015"), h("1016")]);
        assert!(check_spacing(&m, &[a.clone(), far]).is_ok());
        // A Dis counter 3 hexes from the other stack's Dis counter.
        let near = ("Dummy".to_string(), vec![h("1020"), h("1014")]);
        let e = check_spacing(&m, &[a, near]).unwrap_err();
        assert_eq!(e.rule, "27.6.4.4");
        assert!(
            e.message.contains("1011")
                && e.message.contains("1014")
                && e.message.contains("3 hexes")
        );
    }

    #[test]
    fn three_guns_per_wing_and_two_and_two_detached() {
        use Arm::*;
        assert!(check_wing("Zieten", &[Artillery, Artillery, Artillery, Cavalry]).is_ok());
        assert!(check_wing("Zieten", &[Artillery; 4]).is_err());
        assert!(check_detached("Frederick", &[Infantry, Cavalry, Artillery, Artillery]).is_ok());
        assert!(check_detached("Frederick", &[Infantry, Cavalry, Infantry]).is_err());
        assert!(check_detached("Frederick", &[Artillery; 3]).is_err());
    }

    #[test]
    fn the_slowest_unit_sets_the_allowance_and_voluntary_deployment_halves_it_up() {
        // The rule's example: cuirassiers 5 + 4 IC among faster cavalry.
        let wing = [(5, 9), (6, 10), (7, 11)];
        assert_eq!(allowance(&wing, Formation::InColumn), Some(9));
        assert_eq!(allowance(&wing, Formation::Deployed), Some(5));
        assert_eq!(allowance(&[], Formation::Deployed), None);
        assert_eq!((voluntary_deployment(9), voluntary_deployment(8)), (5, 4));
    }

    #[test]
    fn a_move_is_a_path_of_adjacent_hexes_within_what_is_left_of_the_allowance() {
        let m = map();
        let path = [h("1011"), h("1012"), h("1013")];
        assert_eq!(
            check_path(&m, "Dis 1", h("1010"), &path, 0, 3, "allows").unwrap(),
            3
        );
        let e = check_path(&m, "Dis 1", h("1010"), &path, 1, 3, "allows").unwrap_err();
        assert!(
            e.message
                .contains("Dis 1 has moved 1 and would move 3 more: allows 3"),
            "{}",
            e.message
        );
        let e = check_path(&m, "Dis 1", h("1010"), &[h("1012")], 0, 3, "allows").unwrap_err();
        assert!(
            e.message.contains("from 1010 to 1012, 2 hexes"),
            "{}",
            e.message
        );
        assert!(check_path(&m, "Dis 1", h("4030"), &[h("4131")], 0, 3, "").is_err());
        assert_eq!(check_path(&m, "x", h("1010"), &[], 5, 3, "").unwrap(), 0);
    }
}
