//! The ambush legality map (RULES 8.3, `docs/src/rules/fog.md`): every
//! cell of a grid over the table judged for one marker profile, worked out
//! across threads, and kept per side until the terrain, the side or the
//! profile changes.

use super::{Checker, Profile, Verdict};
use crate::battle::State;
use crate::ruleset::Ruleset;
use muster_core::side::Side;
use std::collections::{BTreeMap, BTreeSet};

/// The legality of every cell of a grid over the table for one marker
/// profile: what the table overlay draws. Cells are `cell` MU squares;
/// each is judged at its centre.
#[derive(Clone, Debug, PartialEq)]
pub struct AmbushMap {
    pub side: Side,
    pub profile: Profile,
    pub cell: f64,
    pub columns: usize,
    pub rows: usize,
    verdicts: Vec<Verdict>,
}

impl AmbushMap {
    /// The map's grid step, MU.
    pub const CELL: f64 = 0.5;

    pub fn compute(state: &State, ruleset: &Ruleset, side: Side, profile: Profile) -> AmbushMap {
        let table = state.table();
        let cell = Self::CELL;
        let columns = (table.width / cell).ceil() as usize;
        let rows = (table.depth / cell).ceil() as usize;
        let checker = Checker::new(state, ruleset, side, profile);
        // Rows are independent: deal them out over the machine's cores in
        // turn, as the ambush zone covers only some of them.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
        let dealt: Vec<Vec<Vec<Verdict>>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|k| {
                    let checker = &checker;
                    scope.spawn(move || {
                        (k..rows)
                            .step_by(threads)
                            .map(|j| {
                                (0..columns)
                                    .map(|i| checker.verdict(Self::centre(i, j)))
                                    .collect()
                            })
                            .collect()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a map thread does not panic"))
                .collect()
        });
        let mut verdicts = Vec::with_capacity(columns * rows);
        for j in 0..rows {
            verdicts.extend_from_slice(&dealt[j % threads][j / threads]);
        }
        AmbushMap {
            side,
            profile: checker.profile,
            cell,
            columns,
            rows,
            verdicts,
        }
    }

    /// A map of these verdicts, row by row (tests of what draws it).
    #[cfg(test)]
    pub(crate) fn of_verdicts(columns: usize, verdicts: Vec<Verdict>) -> AmbushMap {
        AmbushMap {
            side: Side::South,
            profile: Profile {
                name: "Light Foot".into(),
                light_foot: true,
                forbidden: Vec::new(),
            },
            cell: Self::CELL,
            columns,
            rows: verdicts.len() / columns,
            verdicts,
        }
    }

    fn centre(i: usize, j: usize) -> [f64; 2] {
        [(i as f64 + 0.5) * Self::CELL, (j as f64 + 0.5) * Self::CELL]
    }

    /// The cells with their centres and verdicts, row by row from the south.
    pub fn cells(&self) -> impl Iterator<Item = ([f64; 2], Verdict)> + '_ {
        self.verdicts
            .iter()
            .enumerate()
            .map(|(k, v)| (Self::centre(k % self.columns, k / self.columns), *v))
    }

    pub fn legal_cells(&self) -> usize {
        self.verdicts
            .iter()
            .filter(|v| **v == Verdict::Legal)
            .count()
    }

    /// Cells inside the ambush zone (outer thirds, depth limit).
    pub fn zone_cells(&self) -> usize {
        self.verdicts
            .iter()
            .filter(|v| **v != Verdict::OutsideZone)
            .count()
    }
}

/// A cache of the map, recomputed only when the terrain, the side or the
/// profile changes.
#[derive(Clone, Debug, Default)]
pub struct AmbushMaps {
    key: Option<MapKey>,
    map: Option<AmbushMap>,
}

/// What a map depends on: the table, the terrain as placed, whose map, and
/// the marker's profile. Compared every frame; cloned only on a recompute.
#[derive(Clone, Debug, PartialEq)]
struct MapKey {
    table: crate::battle::TableSize,
    laid: BTreeMap<usize, crate::battle::Laid>,
    removed: BTreeSet<usize>,
    side: Side,
    profile: Profile,
}

/// Both sides' maps, kept by the battle for its seats' screens. A cache:
/// a clone of the battle starts it empty.
#[derive(Debug, Default)]
pub struct MapCache(std::sync::Mutex<muster_core::side::Sides<AmbushMaps>>);

impl Clone for MapCache {
    fn clone(&self) -> Self {
        MapCache::default()
    }
}

impl MapCache {
    /// `side`'s maps, for `work`.
    pub fn with<T>(&self, side: Side, work: impl FnOnce(&mut AmbushMaps) -> T) -> T {
        let mut maps = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        work(&mut maps[side])
    }
}

impl AmbushMaps {
    pub fn get(
        &mut self,
        state: &State,
        ruleset: &Ruleset,
        side: Side,
        profile: Profile,
    ) -> &AmbushMap {
        let p = &state.placement;
        let same = self.key.as_ref().is_some_and(|k| {
            k.table == state.settings.table
                && k.laid == p.laid
                && k.removed == p.removed
                && k.side == side
                && k.profile == profile
        });
        if !same || self.map.is_none() {
            self.key = Some(MapKey {
                table: state.settings.table,
                laid: p.laid.clone(),
                removed: p.removed.clone(),
                side,
                profile: profile.clone(),
            });
            self.map = Some(AmbushMap::compute(state, ruleset, side, profile));
        }
        self.map.as_ref().expect("computed above")
    }
}
