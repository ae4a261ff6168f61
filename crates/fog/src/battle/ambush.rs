//! Ambushes (RULES 8.3): where a marker may stand, and the legality map the
//! table shows for the battle group chosen.
//!
//! A marker is legal in the two outer thirds, within the depth limit (half
//! the table for the initiative holder, 18 MU for the other), in terrain the
//! battle group could enter, and hidden from every point of the enemy
//! skirmisher deployment area under RULES 7 (see `crate::visibility`).
//! The map of every cell's legality is `map`; a marker sealed, placed and
//! revealed is `markers`.

use super::State;
use super::deployment::{AmbushContent, ground_class};
use crate::ruleset::{AmbushDepth, Ruleset, TerrainClass, Visibility};
use crate::visibility::{Effect, Screen, Sighting, Sightlines, Strip, Target};
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;

/// The terrain on the table as sight sees it.
pub fn sightlines(state: &State, ruleset: &Ruleset) -> Sightlines {
    let screens = state
        .placement
        .standing()
        .filter_map(|(i, laid)| {
            let terrain = ruleset.terrain(&state.selection.picks[i].terrain)?;
            let effect = match terrain.visibility {
                Visibility::None => return None,
                Visibility::Blocks { distance } => Effect::Blocks { distance },
                Visibility::LightFoot { distance } => Effect::LightFoot { distance },
                Visibility::Crest { distance } => {
                    let [a, b] = laid.shape.long_axis();
                    Effect::Crest {
                        distance,
                        crest: [laid.pose.apply(a), laid.pose.apply(b)],
                    }
                }
            };
            let name = super::piece_name(state, ruleset, i);
            Some(Screen::new(name, &laid.shape, laid.pose, effect))
        })
        .collect();
    Sightlines::new(screens)
}

/// What an ambush marker is for the rules: a troop type's sight and going.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// "Light Horse", or "a dummy (placed as Light Foot)".
    pub name: String,
    pub light_foot: bool,
    pub forbidden: Vec<TerrainClass>,
}

impl Profile {
    /// The profile of `content` in `side`'s army.
    pub fn of(
        state: &State,
        ruleset: &Ruleset,
        side: Side,
        content: AmbushContent,
    ) -> Result<Profile, RuleError> {
        let troop = match content {
            AmbushContent::Dummy => ruleset.deployment.ambush.dummy_as.as_str(),
            AmbushContent::Bg { bg } => {
                let army = state.armies[side].as_ref();
                match army.and_then(|a| a.bgs.get(bg)) {
                    Some(group) => group.troop_type.as_str(),
                    None => {
                        return refuse(
                            "8.3",
                            format!("{side} has no battle group number {}", bg + 1),
                        );
                    }
                }
            }
        };
        let Some(t) = ruleset.troop_types.get(troop) else {
            return refuse("8.3", format!("unknown troop type \"{troop}\""));
        };
        let name = match content {
            AmbushContent::Dummy => format!("a dummy (placed as {})", t.name),
            AmbushContent::Bg { .. } => t.name.clone(),
        };
        Ok(Profile {
            name,
            light_foot: t.light_foot,
            forbidden: t.ambush_forbidden_classes.clone(),
        })
    }
}

/// The ground `side` may ambush in, before terrain and sight: x ranges (the
/// outer thirds) and how far from his own long edge.
pub fn zone(state: &State, ruleset: &Ruleset, side: Side) -> (Vec<[f64; 2]>, f64) {
    let rules = &ruleset.deployment.ambush;
    let table = state.table();
    let xs = if rules.outer_thirds_only {
        vec![
            [0.0, table.width / 3.0],
            [2.0 * table.width / 3.0, table.width],
        ]
    } else {
        vec![[0.0, table.width]]
    };
    let depth = if state.initiative.winner == Some(side) {
        match rules.initiative_max_depth {
            AmbushDepth::Half => table.depth / 2.0,
        }
    } else {
        rules.other_max_depth
    };
    (xs, depth)
}

/// The enemy skirmisher deployment area `side`'s ambushes hide from.
pub fn enemy_area(state: &State, ruleset: &Ruleset, side: Side) -> Strip {
    let table = state.table();
    let d = ruleset.deployment.ambush.enemy_skirmisher_depth;
    match side.opponent() {
        Side::South => Strip {
            y_min: 0.0,
            y_max: d,
            width: table.width,
        },
        Side::North => Strip {
            y_min: table.depth - d,
            y_max: table.depth,
            width: table.width,
        },
    }
}

/// Why a point is not legal, by the first rule it fails: the map keeps only
/// this, the hover text asks `check` for the full sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Legal,
    OutsideZone,
    Terrain,
    Seen,
}

/// Everything a legality check needs, built once per map.
struct Checker<'a> {
    state: &'a State,
    ruleset: &'a Ruleset,
    side: Side,
    profile: Profile,
    lines: Sightlines,
    area: Strip,
    xs: Vec<[f64; 2]>,
    depth: f64,
}

impl<'a> Checker<'a> {
    fn new(state: &'a State, ruleset: &'a Ruleset, side: Side, profile: Profile) -> Checker<'a> {
        let (xs, depth) = zone(state, ruleset, side);
        Checker {
            lines: sightlines(state, ruleset),
            area: enemy_area(state, ruleset, side),
            state,
            ruleset,
            side,
            profile,
            xs,
            depth,
        }
    }

    fn depth_of(&self, at: [f64; 2]) -> f64 {
        match self.side {
            Side::South => at[1],
            Side::North => self.state.settings.table.depth - at[1],
        }
    }

    fn in_zone(&self, at: [f64; 2]) -> bool {
        let table = self.state.table();
        at[0] >= 0.0
            && at[0] <= table.width
            && at[1] >= 0.0
            && at[1] <= table.depth
            && self.xs.iter().any(|r| at[0] >= r[0] && at[0] <= r[1])
            && self.depth_of(at) <= self.depth + 1e-9
    }

    /// The piece `at` stands in that the profile may not enter.
    fn forbidden_ground(&self, at: [f64; 2]) -> Option<(usize, TerrainClass)> {
        self.state
            .placement
            .standing()
            .filter(|(_, laid)| laid.footprint().contains(at))
            .find_map(|(i, _)| {
                let class = ground_class(self.state, self.ruleset, i)?;
                self.profile
                    .forbidden
                    .contains(&class)
                    .then_some((i, class))
            })
    }

    fn sighting(&self, at: [f64; 2]) -> Sighting {
        let target = Target {
            at,
            light_foot: self.profile.light_foot,
        };
        self.lines.seen_from_strip(target, &self.area)
    }

    fn verdict(&self, at: [f64; 2]) -> Verdict {
        if !self.in_zone(at) {
            Verdict::OutsideZone
        } else if self.forbidden_ground(at).is_some() {
            Verdict::Terrain
        } else if self.sighting(at).is_seen() {
            Verdict::Seen
        } else {
            Verdict::Legal
        }
    }

    /// The full answer: why the point is legal, or the rule it breaks.
    fn check(&self, at: [f64; 2]) -> Result<String, RuleError> {
        let side = self.side;
        let enemy = side.opponent();
        // Where the point is as a tape measure finds it, in the players'
        // unit: a bare "(13.3, 2.9)" in MU beside lengths in cm misleads.
        let here = format!("The point {}", self.state.settings.point(at));
        if !self.in_zone(at) {
            let from_edge = self.depth_of(at);
            let why = if from_edge > self.depth {
                let whose = if self.state.initiative.winner == Some(side) {
                    "the initiative holder's ambushes go up to half-way across"
                } else {
                    "without the initiative, ambushes go within 18 MU of the own long edge"
                };
                format!(
                    "{here} is {from_edge:.1} MU from {side}'s long edge; {whose} ({} MU)",
                    self.depth
                )
            } else {
                format!("{here} is in the central third; ambushes go only in the two outer thirds")
            };
            return refuse("8.3", why);
        }
        if let Some((piece, class)) = self.forbidden_ground(at) {
            let name = super::piece_name(self.state, self.ruleset, piece);
            return refuse(
                "8.3",
                format!(
                    "{here} is in {name} ({class}), which {} cannot enter",
                    self.profile.name
                ),
            );
        }
        match self.sighting(at) {
            Sighting::Seen { from, crossings } => refuse(
                "8.3",
                format!(
                    "{here} is seen from the point {} {}; an ambush must be hidden from every point of {enemy}'s skirmisher area",
                    self.state.settings.point(from),
                    self.lines.describe_crossings(&crossings)
                ),
            ),
            Sighting::Hidden { blocked } => {
                let reasons: Vec<String> = blocked
                    .iter()
                    .map(|b| self.lines.describe_blocked(b))
                    .collect();
                Ok(format!(
                    "{here} is hidden from all of {enemy}'s skirmisher area: {} (rule 8.3)",
                    reasons.join("; ")
                ))
            }
        }
    }
}

/// Whether `side` may put an ambush marker for `content` at `at`: why it is
/// legal in words, or the rule it breaks.
pub fn check_ambush(
    state: &State,
    ruleset: &Ruleset,
    side: Side,
    content: AmbushContent,
    at: [f64; 2],
) -> Result<String, RuleError> {
    let profile = Profile::of(state, ruleset, side, content)?;
    Checker::new(state, ruleset, side, profile).check(at)
}

mod map;
mod markers;

pub use map::{AmbushMap, AmbushMaps, MapCache};
pub use markers::{AMBUSH_RECORD_BYTES, RevealReason, open_ambushes, reveal_ambush, seal_ambush};
pub(super) use markers::{decide_place, decide_reveal};
