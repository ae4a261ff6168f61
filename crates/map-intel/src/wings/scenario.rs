//! The four battles of rule 27.6 (RULES-map-intel B1, B11) as data,
//! `terrain_tables/dummy_wings.json`: each side's dummy Leader and
//! Detachment counters by type (Inf, Cav, Inf/Cav), named false leaders
//! with their conditions (Torgau's Von Loudon with 2 Detachments, St.
//! Germain with 3), the placement notes as text, and the map. Every error
//! names its field and line.

use super::super::map::{Hex, HexMap};
use muster_core::locate::DataError;
use muster_core::side::{Side, Sides};
use muster_core::store::{check_header, parse};
use serde::{Deserialize, Serialize};

pub const BUILTIN_JSON: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../..",
    "/terrain_tables/dummy_wings.json"
));

const FORMAT: &str = "muster-dummy-wings";
const SCHEMA: u32 = 1;

/// A leader counter's type, as printed on its side (27.1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Type {
    Inf,
    Cav,
    InfCav,
}

impl Type {
    /// Its letter on the map: I, C, or M for mixed Inf/Cav.
    pub fn initial(self) -> &'static str {
        match self {
            Type::Inf => "I",
            Type::Cav => "C",
            Type::InfCav => "M",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Type::Inf => "Inf",
            Type::Cav => "Cav",
            Type::InfCav => "Inf/Cav",
        }
    }
}

/// A placement limit Muster measures: within `hexes` of a printed hex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Within {
    pub hexes: u32,
    pub of: Hex,
}

/// Dummy counters of one type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dummies {
    #[serde(rename = "type")]
    pub kind: Type,
    pub count: u32,
    /// A named false leader (Von Loudon, St. Germain).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Placed as a Detachment.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub detachment: bool,
    /// Torgau: available only when the side forms at least this many
    /// Detachments (27.6.4.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detachments: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<Within>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Army {
    pub name: String,
    /// Its Wings solely of non-moving cavalry and leaders add +4 (27.2.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prussian: bool,
    pub dummies: Vec<Dummies>,
    /// The placement notes of 27.6, shown to the players.
    pub notes: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Battle {
    pub id: String,
    pub name: String,
    pub map: HexMap,
    /// Torgau's masked Detachment stacks and their spacing (27.6.4).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub torgau_detachments: bool,
    pub sides: Sides<Army>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    schema: u32,
    #[serde(default)]
    note: String,
    scenarios: Vec<Battle>,
}

/// One dummy counter to place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Dummy {
    pub kind: Type,
    pub name: Option<String>,
    pub detachment: bool,
    pub within: Option<Within>,
}

impl Battle {
    /// Checks a battle; the field at fault is named under `at`.
    pub(crate) fn check(&self, at: &str) -> Result<(), (String, String)> {
        if let Some(why) = muster_core::text::name_fault(&self.name) {
            return Err((format!("{at}name"), format!("the battle's name {why}")));
        }
        self.map
            .check()
            .map_err(|(f, m)| (format!("{at}map.{f}"), m))?;
        for side in Side::BOTH {
            let here = format!("{at}sides.{}.", side.name().to_lowercase());
            if let Some(why) = muster_core::text::name_fault(&self.sides[side].name) {
                return Err((format!("{here}name"), format!("the side's name {why}")));
            }
            for (i, d) in self.sides[side].dummies.iter().enumerate() {
                if let Some(why) = d.name.as_deref().and_then(muster_core::text::name_fault) {
                    return Err((
                        format!("{here}dummies[{i}].name"),
                        format!("the marker's name {why}"),
                    ));
                }
                if d.count > 12 {
                    return Err((format!("{here}dummies[{i}].count"), "at most 12".into()));
                }
                if d.detachments.is_some_and(|n| !(1..=3).contains(&n)) {
                    return Err((
                        format!("{here}dummies[{i}].detachments"),
                        "Detachments are numbered 1 to 3 (27.6.4.2)".into(),
                    ));
                }
                if let Some(w) = &d.within
                    && !self.map.contains(w.of)
                {
                    return Err((
                        format!("{here}dummies[{i}].within.of"),
                        format!("{} is not on the map", w.of),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The dummy counters `side` places, one per counter; with Torgau's
    /// named false leaders only when he forms enough Detachments.
    pub fn dummies(&self, side: Side, detachments: u8) -> Vec<Dummy> {
        self.sides[side]
            .dummies
            .iter()
            .filter(|d| d.detachments.is_none_or(|n| detachments >= n))
            .flat_map(|d| {
                (0..d.count).map(|_| Dummy {
                    kind: d.kind,
                    name: d.name.clone(),
                    detachment: d.detachment,
                    within: d.within.clone(),
                })
            })
            .collect()
    }
}

/// The battles of a dummy-wings file.
pub fn from_json(text: &str) -> Result<Vec<Battle>, DataError> {
    check_header(text, FORMAT, SCHEMA, SCHEMA)?;
    let file: File = parse(text)?;
    for (i, battle) in file.scenarios.iter().enumerate() {
        battle
            .check(&format!("scenarios[{i}]."))
            .map_err(|(field, message)| DataError::at(text, field, message))?;
    }
    Ok(file.scenarios)
}

/// The battles of rule 27.6, shipped.
pub fn builtin() -> Vec<Battle> {
    from_json(BUILTIN_JSON).expect("the shipped battles are checked by tests")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(b: &Battle, side: Side, kind: Type, detachments: u8) -> usize {
        b.dummies(side, detachments)
            .iter()
            .filter(|d| d.kind == kind)
            .count()
    }

    /// 27.6, battle by battle.
    #[test]
    fn the_shipped_battles_give_the_dummies_of_27_6() {
        let all = builtin();
        let by = |id: &str| all.iter().find(|b| b.id == id).unwrap();
        let (s, n) = (Side::South, Side::North);
        let rossbach = by("rossbach");
        assert_eq!(
            (
                count(rossbach, s, Type::Inf, 0),
                count(rossbach, s, Type::Cav, 0)
            ),
            (2, 2)
        );
        assert!(rossbach.dummies(n, 0).is_empty());
        let leuthen = by("leuthen");
        assert_eq!(
            (
                count(leuthen, s, Type::Inf, 0),
                count(leuthen, s, Type::Cav, 0)
            ),
            (3, 3)
        );
        let loudon = &leuthen.dummies(n, 0)[0];
        assert_eq!(loudon.name.as_deref(), Some("Von Loudon"));
        assert!(loudon.detachment);
        assert_eq!(loudon.within.as_ref().unwrap().of.to_string(), "2114");
        let zorndorf = by("zorndorf");
        assert_eq!(
            (
                count(zorndorf, n, Type::Inf, 0),
                count(zorndorf, n, Type::Cav, 0)
            ),
            (1, 2)
        );
        assert_eq!(zorndorf.dummies(s, 0).len(), 6);
        let torgau = by("torgau");
        assert!(torgau.torgau_detachments);
        assert_eq!(torgau.dummies(s, 0).len(), 4);
        for (dets, false_leaders) in [(1, 0), (2, 1), (3, 2)] {
            assert_eq!(
                count(torgau, n, Type::InfCav, dets),
                false_leaders,
                "{dets} Dets"
            );
            assert_eq!(torgau.dummies(n, dets).len(), 3 + false_leaders);
        }
        assert!(
            all.iter()
                .all(|b| !b.sides[s].notes.is_empty() && b.sides[s].prussian)
        );
    }

    #[test]
    fn a_bad_field_is_named_with_its_line() {
        let bad = BUILTIN_JSON.replacen("\"of\": \"2114\"", "\"of\": \"9999\"", 1);
        let e = from_json(&bad).unwrap_err().to_string();
        assert!(
            e.contains("scenarios[1].sides.north.dummies[0].within.of"),
            "{e}"
        );
        assert!(e.contains("line"), "{e}");
        let bad = BUILTIN_JSON.replacen("\"type\": \"cav\"", "\"type\": \"horse\"", 1);
        assert!(from_json(&bad).is_err());
    }
}
