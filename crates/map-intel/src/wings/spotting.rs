//! Spotting (RULES-map-intel B5 and B10, rules 27.1.6 and 27.5): which
//! enemy Wings a moving Wing's counters come within 7 hexes of, in the
//! order Muster asks the players about the line of sight, and what a
//! spotting does to both leaders.
//!
//! Ruling where 27.1.6 is silent: the stationary leader is revealed only
//! by a real moving leader, so a moving dummy meeting a stationary dummy is
//! removed and the stationary one stays hidden.

use super::super::map::{Hex, HexMap};
use serde::{Deserialize, Serialize};

/// Spotting range in hexes (27.1.6).
pub const RANGE: u32 = 7;

/// A leader counter: a real Wing or Detachment, or a dummy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Leader {
    Real,
    Dummy,
}

/// What one spotting does, in the order of 27.1.6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Resolution {
    /// The moving side is spotted first: its leader flips.
    pub moving_flips: bool,
    /// A moving dummy is removed with its Dis counters.
    pub moving_removed: bool,
    /// The stationary leader is revealed (by a real moving leader).
    pub stationary_revealed: bool,
    /// A revealed stationary dummy is removed with its Dis counters.
    pub stationary_removed: bool,
    /// The moving Wing met a dummy: face down again, and it may go on.
    pub moving_turned_down: bool,
    /// Both real: the deployment roll follows (27.2).
    pub deployment: bool,
}

pub fn resolve(moving: Leader, stationary: Leader) -> Resolution {
    let moving_real = moving == Leader::Real;
    let stationary_revealed = moving_real;
    let stationary_dummy = stationary_revealed && stationary == Leader::Dummy;
    Resolution {
        moving_flips: true,
        moving_removed: !moving_real,
        stationary_revealed,
        stationary_removed: stationary_dummy,
        moving_turned_down: stationary_dummy,
        deployment: moving_real && stationary == Leader::Real,
    }
}

/// An enemy Wing within range, by its nearest counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InRange {
    pub wing: usize,
    /// Hexes between the nearest pair of counters (leader or Dis).
    pub distance: u32,
    /// The moving counter and the enemy counter that are nearest.
    pub from: Hex,
    pub to: Hex,
    /// Hexes between the two leader counters: the first tie-break (B10
    /// ruling). Absent in games saved before the ruling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaders: Option<u32>,
}

impl InRange {
    /// What makes one enemy Wing closer than another (B10 ruling): the
    /// least distance between any of their counters, then between their
    /// leader counters.
    pub fn nearness(&self) -> (u32, u32) {
        (self.distance, self.leaders.unwrap_or(0))
    }
}

/// The enemy Wings that any of the moving Wing's counters is within 7
/// hexes of, nearest first (the order 27.5 resolves them in): the first
/// whose line of sight the players call clear is spotted; the others only
/// if enemy units then do not block the line of sight to them. Each Wing's
/// counters come leader first. Nearness is the least hex distance between
/// any of their counters, then between the leaders (B10 ruling); Wings
/// still tied for the nearest are the moving player's choice (`tied`).
pub fn in_range(map: &HexMap, moving: &[Hex], enemies: &[(usize, Vec<Hex>)]) -> Vec<InRange> {
    let mut found: Vec<InRange> = enemies
        .iter()
        .filter_map(|(wing, counters)| {
            let leaders = match (moving.first(), counters.first()) {
                (Some(&a), Some(&b)) => Some(map.distance(a, b)),
                _ => None,
            };
            moving
                .iter()
                .flat_map(|&from| counters.iter().map(move |&to| (from, to)))
                .map(|(from, to)| InRange {
                    wing: *wing,
                    distance: map.distance(from, to),
                    from,
                    to,
                    leaders,
                })
                .min_by_key(|r| r.distance)
                .filter(|r| r.distance <= RANGE)
        })
        .collect();
    found.sort_by_key(|r| (r.nearness(), r.wing));
    found
}

/// The enemy Wings tied for the nearest, when more than one is: the
/// moving player chooses among them (B10 ruling). Games saved before the
/// ruling (no leaders' distance) took the first.
pub fn tied(candidates: &[InRange]) -> Vec<usize> {
    let Some(first) = candidates.first().filter(|c| c.leaders.is_some()) else {
        return Vec::new();
    };
    let tied: Vec<usize> = candidates
        .iter()
        .take_while(|c| c.nearness() == first.nearness())
        .map(|c| c.wing)
        .collect();
    if tied.len() > 1 { tied } else { Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{Orientation, Shifted};
    use Leader::{Dummy, Real};

    /// Every real/dummy combination of moving and stationary counters.
    #[test]
    fn the_spotting_table_of_27_1_6() {
        let table = [
            // moving, stationary: flips, m removed, s revealed, s removed, turned down, deploy
            (Real, Real, [true, false, true, false, false, true]),
            (Real, Dummy, [true, false, true, true, true, false]),
            (Dummy, Real, [true, true, false, false, false, false]),
            (Dummy, Dummy, [true, true, false, false, false, false]),
        ];
        for (moving, stationary, expected) in table {
            let r = resolve(moving, stationary);
            let got = [
                r.moving_flips,
                r.moving_removed,
                r.stationary_revealed,
                r.stationary_removed,
                r.moving_turned_down,
                r.deployment,
            ];
            assert_eq!(
                got, expected,
                "{moving:?} moving, {stationary:?} stationary"
            );
        }
    }

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

    fn hexes(names: &[&str]) -> Vec<Hex> {
        names.iter().map(|n| Hex::parse(n).unwrap()).collect()
    }

    #[test]
    fn a_wing_is_in_range_by_its_nearest_counter_and_the_nearest_wing_comes_first() {
        let m = map();
        // The moving leader in 1010 with Dis counters in 1011 and 1012.
        let moving = hexes(&["1010", "1011", "1012"]);
        let enemies = vec![
            // 8 hexes from the leader, 7 from the Dis counter in 1012.
            (4, hexes(&["1019", "2030", "2031"])),
            // Its Dis counter 3 hexes away.
            (5, hexes(&["3005", "1013", "3006"])),
            // Out of range.
            (6, hexes(&["3020", "3021", "3022"])),
        ];
        let found = in_range(&m, &moving, &enemies);
        let got: Vec<(usize, u32)> = found.iter().map(|r| (r.wing, r.distance)).collect();
        assert_eq!(got, vec![(5, 1), (4, 7)]);
        assert_eq!(found[1].from.to_string(), "1012");
        assert_eq!(found[1].to.to_string(), "1019");
    }

    #[test]
    fn eight_hexes_is_out_of_range() {
        let m = map();
        let found = in_range(&m, &hexes(&["0101"]), &[(1, hexes(&["0109"]))]);
        assert!(found.is_empty());
        let found = in_range(&m, &hexes(&["0101"]), &[(1, hexes(&["0108"]))]);
        assert_eq!(found[0].distance, 7);
    }

    /// Ruling B10: two Wings as near by their nearest counters: the one
    /// whose leader is nearer the moving leader is the closest; still tied,
    /// the moving player chooses (both are named as tied). Before the
    /// ruling the lower counter id won.
    #[test]
    fn a_tie_goes_to_the_nearer_leader_then_to_the_moving_players_choice() {
        let m = map();
        let moving = hexes(&["1010", "1011", "1012"]);
        // Each has a Dis counter 2 hexes from the moving Wing (down and up
        // its column); Wing 7's leader is 5 hexes from the moving leader,
        // Wing 3's 6.
        let enemies = vec![
            (3, hexes(&["1016", "1014", "3030"])),
            (7, hexes(&["1005", "1008", "3031"])),
        ];
        let found = in_range(&m, &moving, &enemies);
        let got: Vec<(usize, u32, Option<u32>)> = found
            .iter()
            .map(|r| (r.wing, r.distance, r.leaders))
            .collect();
        assert_eq!(got[0].1, got[1].1, "as near by their nearest counters");
        assert_eq!(got[0].0, 7, "the nearer leader first: {got:?}");
        assert!(tied(&found).is_empty());
        // Leaders as far too: the moving player's choice.
        let enemies = vec![
            (3, hexes(&["1016", "1014", "3030"])),
            (7, hexes(&["1004", "1008", "3031"])),
        ];
        let found = in_range(&m, &moving, &enemies);
        assert_eq!(found[0].nearness(), found[1].nearness(), "{found:?}");
        assert_eq!(tied(&found), vec![3, 7]);
    }
}
