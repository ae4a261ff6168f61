//! What a hidden-forces game is played with (RULES-map-intel 0, A1, A4,
//! A6), all data: the map, each side's units (name, type, Civis or Client),
//! the number of Exercitus markers (3 in the source) and of Agent
//! Stratagem markers per side. The example is
//! `terrain_tables/hidden_forces_example.json` (written by us); a side's
//! units may also come from a roster file (`"format":
//! "muster-forces-roster"`). Every error names its field and line.

use super::map::HexMap;
use muster_core::intel::{Place, SealKey, Sealed};
use muster_core::locate::DataError;
use muster_core::side::{Side, Sides};
use muster_core::store::{check_header, parse};
use muster_core::text::{look_alikes, name_fault};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

pub const EXAMPLE_JSON: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../..",
    "/terrain_tables/hidden_forces_example.json"
));

const FORMAT: &str = "muster-hidden-forces";
const ROSTER_FORMAT: &str = "muster-forces-roster";
const SCHEMA: u32 = 1;
/// Unit ids are short so that every sealed record has one size.
pub const MAX_ID_CHARS: usize = 16;
/// Bytes every sealed counter or holding area is padded to. A side's whole
/// army must fit in one (checked when the scenario loads), so a full force
/// and an empty bluff are the same size.
pub const SEALED_BYTES: usize = 1024;
const MAX_EXERCITUS: u8 = 9;
const MAX_AGENTS: u32 = 20;

/// Whether a unit may hide (RULES-map-intel A1, A5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// May be face down and in an Exercitus.
    #[default]
    Regular,
    /// Never hidden, never in an Exercitus (A1, A4).
    Civis,
    /// Always face up (A5).
    Client,
}

impl Status {
    fn is_regular(&self) -> bool {
        *self == Status::Regular
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Status::is_regular")]
    pub status: Status,
}

/// One side: its name and its units.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Army {
    pub name: String,
    pub units: Vec<Unit>,
}

/// A roster file: one side's units, to import.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Roster {
    format: String,
    schema: u32,
    #[serde(flatten)]
    army: Army,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    pub map: HexMap,
    /// Exercitus markers per side, numbered from 1 (A4: 3).
    pub exercitus: u8,
    /// Agent Stratagem markers per side at the start (A6).
    pub agents: u32,
    pub sides: Sides<Army>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    format: String,
    schema: u32,
    #[serde(flatten)]
    scenario: Scenario,
}

fn good_id(id: &str) -> bool {
    !id.is_empty()
        && id.chars().count() <= MAX_ID_CHARS
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

impl Army {
    /// Checks one side's units; fields are named under `at`.
    fn check(&self, at: &str) -> Result<(), (String, String)> {
        if let Some(why) = name_fault(&self.name) {
            return Err((format!("{at}name"), format!("the side's name {why}")));
        }
        let mut ids = BTreeSet::new();
        for (i, unit) in self.units.iter().enumerate() {
            let field = |f: &str| format!("{at}units[{i}].{f}");
            if !good_id(&unit.id) {
                return Err((
                    field("id"),
                    format!("1 to {MAX_ID_CHARS} letters, digits, - or _"),
                ));
            }
            if !ids.insert(unit.id.as_str()) {
                return Err((field("id"), format!("\"{}\" is used twice", unit.id)));
            }
            if let Some(why) = name_fault(&unit.name) {
                return Err((field("name"), format!("the unit's name {why}")));
            }
        }
        // The owner's ledger and the log name each unit.
        let names: Vec<&str> = self.units.iter().map(|u| u.name.as_str()).collect();
        if let Some((first, second)) = look_alikes(&names) {
            let i = names.iter().rposition(|n| *n == second).unwrap_or(0);
            return Err((
                format!("{at}units[{i}].name"),
                format!(
                    "\"{second}\" looks like \"{first}\", a unit of the same side: its owner and the log could not tell them apart"
                ),
            ));
        }
        // The whole army must fit one sealed record, so that every record
        // of a side is the same size whatever it holds.
        let all: Vec<&str> = self.units.iter().map(|u| u.id.as_str()).collect();
        // The place does not change the size: any will do.
        let place = Place {
            game: "",
            owner: Side::South,
            kind: "holder",
            slot: String::new(),
        };
        if Sealed::seal(&place, &all, &SealKey::unprotected(), SEALED_BYTES).is_err() {
            return Err((
                format!("{at}units"),
                format!(
                    "{} units with these ids do not fit one sealed record of {SEALED_BYTES} bytes: use fewer or shorter ids",
                    self.units.len()
                ),
            ));
        }
        Ok(())
    }

    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.id == id)
    }

    /// Reads one side's roster file.
    pub fn from_roster(text: &str) -> Result<Army, DataError> {
        check_header(text, ROSTER_FORMAT, SCHEMA, SCHEMA)?;
        let roster: Roster = parse(text)?;
        roster
            .army
            .check("")
            .map_err(|(field, message)| DataError::at(text, field, message))?;
        Ok(roster.army)
    }

    pub fn to_roster(&self) -> String {
        let roster = Roster {
            format: ROSTER_FORMAT.into(),
            schema: SCHEMA,
            army: self.clone(),
        };
        serde_json::to_string_pretty(&roster).expect("a roster always serializes")
    }
}

impl Scenario {
    pub fn example() -> Scenario {
        Scenario::from_json(EXAMPLE_JSON).expect("the example scenario is checked by tests")
    }

    pub fn from_json(text: &str) -> Result<Scenario, DataError> {
        check_header(text, FORMAT, SCHEMA, SCHEMA)?;
        let file: ScenarioFile = parse(text)?;
        file.scenario
            .check()
            .map_err(|(field, message)| DataError::at(text, field, message))?;
        Ok(file.scenario)
    }

    pub fn to_json(&self) -> String {
        let file = ScenarioFile {
            format: FORMAT.into(),
            schema: SCHEMA,
            scenario: self.clone(),
        };
        serde_json::to_string_pretty(&file).expect("a scenario always serializes")
    }

    /// Checks the scenario; the field at fault is named.
    pub fn check(&self) -> Result<(), (String, String)> {
        if let Some(why) = name_fault(&self.name) {
            return Err(("name".into(), format!("the scenario's name {why}")));
        }
        self.map
            .check()
            .map_err(|(field, message)| (format!("map.{field}"), message))?;
        if self.exercitus > MAX_EXERCITUS {
            return Err((
                "exercitus".into(),
                format!("at most {MAX_EXERCITUS} markers per side"),
            ));
        }
        if self.agents > MAX_AGENTS {
            return Err((
                "agents".into(),
                format!("at most {MAX_AGENTS} markers per side"),
            ));
        }
        for side in Side::BOTH {
            self.sides[side].check(&format!("sides.{}.", side.name().to_lowercase()))?;
        }
        let south: BTreeSet<&str> = self
            .sides
            .south
            .units
            .iter()
            .map(|u| u.id.as_str())
            .collect();
        if let Some((i, u)) = self
            .sides
            .north
            .units
            .iter()
            .enumerate()
            .find(|(_, u)| south.contains(u.id.as_str()))
        {
            return Err((
                format!("sides.north.units[{i}].id"),
                format!("\"{}\" is a unit of the other side too", u.id),
            ));
        }
        Ok(())
    }

    /// The side a unit belongs to.
    pub fn owner_of(&self, id: &str) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|&s| self.sides[s].unit(id).is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_loads_and_reads_back() {
        let s = Scenario::example();
        assert_eq!(s.exercitus, 3);
        assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
        let civis = s.sides.south.unit("r-civ-ant").unwrap();
        assert_eq!(civis.status, Status::Civis);
    }

    #[test]
    fn errors_name_the_field_and_the_line() {
        let bad = EXAMPLE_JSON.replace("\"r-aux-2\"", "\"r-aux-1\"");
        let e = Scenario::from_json(&bad).unwrap_err();
        assert_eq!(e.field, "sides.south.units[5].id");
        let line = EXAMPLE_JSON
            .lines()
            .position(|l| l.contains("r-aux-2"))
            .unwrap()
            + 1;
        assert_eq!(e.line, Some(line), "{e}");
        let bad = EXAMPLE_JSON.replace("\"exercitus\": 3", "\"exercitus\": 12");
        assert_eq!(Scenario::from_json(&bad).unwrap_err().field, "exercitus");
        let bad = EXAMPLE_JSON.replace("\"columns\": 20", "\"columns\": 120");
        assert_eq!(Scenario::from_json(&bad).unwrap_err().field, "map.columns");
        let bad = EXAMPLE_JSON.replace("\"p-cat-1\"", "\"r-leg-3\"");
        let e = Scenario::from_json(&bad).unwrap_err();
        assert!(e.message.contains("other side"), "{e}");
        let bad = EXAMPLE_JSON.replace("\"columns\": 20", "\"columns\": -2");
        let e = Scenario::from_json(&bad).unwrap_err();
        assert!(e.to_string().contains("line"), "{e}");
    }

    #[test]
    fn an_army_too_large_for_one_sealed_record_is_refused() {
        let mut s = Scenario::example();
        s.sides.north.units = (0..80)
            .map(|i| Unit {
                id: format!("parthian-{i:04}-x"),
                name: format!("Unit {i}"),
                kind: "horse archers".into(),
                status: Status::Regular,
            })
            .collect();
        let (field, message) = s.check().unwrap_err();
        assert_eq!(field, "sides.north.units");
        assert!(message.contains("do not fit"), "{message}");
    }

    #[test]
    fn a_roster_reads_back_and_names_its_errors() {
        let army = Scenario::example().sides.north;
        let text = army.to_roster();
        assert_eq!(Army::from_roster(&text).unwrap(), army);
        let bad = text.replace("\"Hill levy\"", "\"  \"");
        let e = Army::from_roster(&bad).unwrap_err();
        assert_eq!(e.field, "units[5].name");
        assert!(e.line.is_some());
    }
}
