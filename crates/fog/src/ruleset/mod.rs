//! The ruleset: every value RULES marks as "data", typed, loaded from
//! `terrain_tables/*.json` and validated.
//!
//! Code holds mechanisms, this holds numbers: a group that plays a ruling
//! differently edits the JSON, not the code. Loading never panics; an error
//! names the JSON path and, where it can, the line ("territories.hilly.max.forest:
//! expected a number, line 41").

mod validate;

use indexmap::IndexMap;
pub use muster_core::dice::{QualityRerolls, RerollKeep, RerollRule};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The built-in ruleset, compiled in so that a fresh install needs no files.
pub const FOG_AM_V3_JSON: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../..",
    "/terrain_tables/fog_am_v3.json"
));

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    pub id: String,
    pub name: String,
    pub source: String,
    pub troop_types: IndexMap<String, TroopType>,
    pub initiative: Initiative,
    pub terrain_types: IndexMap<String, TerrainType>,
    pub territories: IndexMap<String, Territory>,
    pub selection: Selection,
    pub piece_sizes: PieceSizes,
    pub placement: Placement,
    pub river: River,
    pub coast: Coast,
    pub road: Road,
    pub adjustment: Adjustment,
    pub deployment: Deployment,
    pub who_moves_first: WhoMovesFirst,
    pub flank_march: FlankMarch,
    pub straggling: Straggling,
    pub quality_rerolls: QualityRerolls,
    pub help: BTreeMap<String, String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TroopType {
    pub name: String,
    /// Light foot: what the "LF: N MU" visibility rules apply to (RULES 7).
    #[serde(default)]
    pub light_foot: bool,
    pub skirmisher: bool,
    pub mounted: bool,
    pub medium_or_heavy_foot: bool,
    /// Whether its bases count towards the initiative modifier for mounted troops.
    pub counts_for_initiative: bool,
    /// Terrain classes this troop type may not ambush in (RULES 8.3).
    pub ambush_forbidden_classes: Vec<TerrainClass>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Initiative {
    pub dice: u8,
    pub c_in_c: CommanderModifiers,
    pub mounted_bases: Vec<BaseBand>,
    pub ties: TieRule,
}

/// A modifier per commander quality.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommanderModifiers {
    pub inspired: i32,
    pub field: i32,
    pub troop: i32,
}

/// A band of base counts and the modifier it gives (`max` absent: no upper bound).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaseBand {
    pub min: u32,
    #[serde(default)]
    pub max: Option<u32>,
    pub modifier: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieRule {
    Reroll,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TerrainClass {
    Open,
    Uneven,
    Rough,
    Difficult,
    Variable,
    Impassable,
}

impl fmt::Display for TerrainClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            TerrainClass::Open => "open",
            TerrainClass::Uneven => "uneven",
            TerrainClass::Rough => "rough",
            TerrainClass::Difficult => "difficult",
            TerrainClass::Variable => "variable",
            TerrainClass::Impassable => "impassable",
        };
        f.write_str(s)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainType {
    pub name: String,
    pub class: TerrainClass,
    pub visibility: Visibility,
    pub cover: Cover,
    /// Whether it may stand on a hill; `None` where the sheet says N/A.
    pub on_hills: Option<bool>,
    pub kind: PieceKind,
    pub can_be_large: bool,
    /// The territory-table column it counts against; defaults to its own id.
    #[serde(default)]
    pub count_group: Option<String>,
    /// How many selections one piece costs (RULES 4); defaults to 1.
    #[serde(default = "one")]
    pub selections: u32,
}

fn one() -> u32 {
    1
}

/// How terrain affects seeing into and through it (RULES 7).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Visibility {
    None,
    Blocks { distance: f64 },
    LightFoot { distance: f64 },
    Crest { distance: f64 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    None,
    All,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceKind {
    Area,
    Hill,
    River,
    Coast,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Territory {
    pub name: String,
    /// Maximum pieces per count group.
    pub max: IndexMap<String, u32>,
    /// Compulsory pieces per count group.
    #[serde(default)]
    pub min: IndexMap<String, u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Selection {
    pub compulsory_pieces: u32,
    pub per_player_min: u32,
    pub per_player_max: u32,
    pub large_selections: u32,
    pub large_may_be_compulsory: bool,
    pub non_initiative_forbidden: Vec<String>,
    pub initiative_not_both: Vec<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceSizes {
    pub normal: NormalSize,
    pub large: LargeSize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NormalSize {
    pub min_width: f64,
    pub min_depth: f64,
    pub max_span: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LargeSize {
    pub max_span: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Whose {
    Own,
    Opponent,
}

/// Where a piece must go for one placement die result (RULES 5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "zone", rename_all = "snake_case", deny_unknown_fields)]
pub enum PlacementZone {
    TouchLongEdge {
        whose: Whose,
        side_edge_clearance: f64,
        text: String,
    },
    TouchSideEdge {
        whose: Whose,
        or_coast: bool,
        text: String,
    },
    InsideHalf {
        whose: Whose,
        edge_clearance: f64,
        text: String,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// Keyed by the die face, "1" to "6".
    pub results: BTreeMap<String, PlacementZone>,
    pub spacing: f64,
    pub spacing_exempt_near: Vec<String>,
    pub no_legal_position: TieRule,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct River {
    pub max_width: f64,
    pub within_of_side_edge: f64,
    /// Keyed by the die face, "1" to "6".
    pub going: BTreeMap<String, TerrainClass>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Coast {
    pub max_depth: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Road {
    pub width: f64,
    /// The terrain type a road must pass through or touch when one is on
    /// the table.
    #[serde(default)]
    pub must_touch: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdjustmentTiming {
    AfterEachPiece,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdjustmentRoller {
    PlacerOpponent,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdjustmentOption {
    Slide,
    Pivot,
    Remove,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdjustmentModifiers {
    pub compulsory: i32,
    pub impassable: i32,
    pub river: i32,
    pub coast: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdjustmentResult {
    pub min: i32,
    #[serde(default)]
    pub max: Option<i32>,
    pub allows: Vec<AdjustmentOption>,
    #[serde(default)]
    pub slide_max: Option<f64>,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Adjustment {
    pub timing: AdjustmentTiming,
    pub roller: AdjustmentRoller,
    pub modifiers: AdjustmentModifiers,
    pub results: Vec<AdjustmentResult>,
    pub river_or_coast_remove_min: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Camp {
    pub max_depth: f64,
    pub footprint: [f64; 2],
    pub forbidden_class: TerrainClass,
    pub allowed_if_wholly_in: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fortifications {
    pub max_depth: f64,
    pub central_third_max_depth: f64,
    /// A section's width and depth, MU.
    pub footprint: [f64; 2],
}

/// How deep the initiative holder may place ambushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AmbushDepth {
    Half,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AmbushLimits {
    pub outer_thirds_only: bool,
    pub initiative_max_depth: AmbushDepth,
    pub other_max_depth: f64,
    pub enemy_skirmisher_depth: f64,
    pub max_dummies: u32,
    /// The troop type a dummy marker is placed as (its visibility and the
    /// terrain it may stand in).
    pub dummy_as: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deployment {
    pub camp: Camp,
    pub fortifications: Fortifications,
    pub ambush: AmbushLimits,
    /// Batches are ceil(n / batch_fraction) BGs: 4 means 25%.
    pub batch_fraction: u32,
    pub skirmisher_depth: f64,
    pub other_depth: f64,
    pub commander_depth: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WhoMovesFirst {
    pub dice: u8,
    pub better_c_in_c_bonus: i32,
    pub c_in_c_rank: Vec<String>,
    pub ties: TieRule,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlankMarchModifiers {
    pub field_commander: i32,
    pub medium_or_heavy_foot: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlankMarch {
    pub first_roll_turn: u32,
    pub dice: u8,
    pub arrives_on: i32,
    pub modifiers: FlankMarchModifiers,
    pub rerolls: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StragglingModifiers {
    pub drilled_or_skirmisher: i32,
    pub medium_or_heavy_foot: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Straggling {
    pub dice: u8,
    pub straggles_below: i32,
    pub modifiers: StragglingModifiers,
    pub quality_rerolls: bool,
}

/// A ruleset file that cannot be used, with where the problem is.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{path}: {message}{}", line.map(|l| format!(", line {l}")).unwrap_or_default())]
pub struct RulesetError {
    /// The JSON path, dotted ("territories.hilly.max.forest").
    pub path: String,
    pub message: String,
    pub line: Option<usize>,
}

impl Ruleset {
    /// The built-in Field of Glory ruleset.
    pub fn builtin() -> Ruleset {
        Ruleset::from_json(FOG_AM_V3_JSON).expect("the built-in ruleset is validated by tests")
    }

    /// The ruleset's fingerprint, "3F2A-91C0-77DE-0A1B-C3D4": the first 80
    /// bits of the SHA-256 of its JSON. The Battle step shows it and the
    /// printout carries it, so players can see the rules a file holds are
    /// the ones they agreed.
    pub fn fingerprint(&self) -> String {
        use sha2::Digest;
        let json = serde_json::to_vec(self).expect("a ruleset always serializes");
        muster_core::intel::code(&muster_core::intel::to_hex(&sha2::Sha256::digest(json)))
    }

    /// Parses and validates a ruleset from JSON text.
    pub fn from_json(text: &str) -> Result<Ruleset, RulesetError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let ruleset: Ruleset = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            RulesetError {
                path: if path == "." {
                    "(top level)".into()
                } else {
                    path
                },
                // A break in the text said as where it breaks.
                message: muster_core::store::broken(text, &inner)
                    .unwrap_or_else(|| strip_position(&inner.to_string())),
                line: Some(inner.line()),
            }
        })?;
        ruleset.validate().map_err(|(path, message)| RulesetError {
            line: muster_core::locate::line_of(text, &path),
            path,
            message,
        })?;
        Ok(ruleset)
    }

    /// Validates a ruleset already in memory (one embedded in a save file).
    pub fn check(&self) -> Result<(), RulesetError> {
        self.validate().map_err(|(path, message)| RulesetError {
            path,
            message,
            line: None,
        })
    }

    pub fn terrain(&self, id: &str) -> Option<&TerrainType> {
        self.terrain_types.get(id)
    }

    /// The display name of a terrain type, or its id if unknown.
    pub fn terrain_name<'a>(&'a self, id: &'a str) -> &'a str {
        self.terrain(id).map(|t| t.name.as_str()).unwrap_or(id)
    }

    pub fn territory_name<'a>(&'a self, id: &'a str) -> &'a str {
        self.territories
            .get(id)
            .map(|t| t.name.as_str())
            .unwrap_or(id)
    }

    pub fn troop_name<'a>(&'a self, id: &'a str) -> &'a str {
        self.troop_types
            .get(id)
            .map(|t| t.name.as_str())
            .unwrap_or(id)
    }

    /// The territory-table column a terrain type counts against.
    pub fn count_group<'a>(&'a self, terrain: &'a str) -> &'a str {
        self.terrain(terrain)
            .and_then(|t| t.count_group.as_deref())
            .unwrap_or(terrain)
    }

    /// Terrain types that count against a column, in table order.
    pub fn group_members<'a>(&'a self, group: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.terrain_types
            .keys()
            .map(String::as_str)
            .filter(move |id| self.count_group(id) == group)
    }

    /// The help text for a step, or an empty string.
    pub fn help(&self, step: &str) -> &str {
        self.help.get(step).map(String::as_str).unwrap_or("")
    }
}

/// serde_json appends " at line L column C"; we report the line ourselves.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests;
