//! Saved files: battles and rosters as versioned JSON, written atomically,
//! plus the autosave location.
//!
//! A battle file is the seed, the ruleset it was played under and the log; it
//! is loaded by replaying the log through the rules, so a damaged or edited
//! file is refused with the entry that fails rather than trusted. Writes go to
//! a temporary file that is read back before it replaces the target, so a good
//! file is never overwritten by a bad one.

mod atomic;

pub use atomic::write_atomic;

use crate::army::Army;
use crate::battle::{Battle, Entry};
use crate::ruleset::Ruleset;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// The schema version this build writes and reads.
pub const SCHEMA: u32 = 1;
const BATTLE_FORMAT: &str = "muster-battle";
const ROSTER_FORMAT: &str = "muster-roster";

/// A file that could not be read or written, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError {
    pub path: Option<PathBuf>,
    pub message: String,
}

impl StoreError {
    /// An error with no file attached yet.
    pub fn new(message: impl Into<String>) -> StoreError {
        StoreError {
            path: None,
            message: message.into(),
        }
    }

    fn at(mut self, path: &Path) -> StoreError {
        self.path = Some(path.to_path_buf());
        self
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(p) => write!(f, "{}: {}", p.display(), self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for StoreError {}

#[derive(Serialize, Deserialize)]
struct Header {
    format: String,
    schema: u32,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BattleFile {
    format: String,
    schema: u32,
    seed: u64,
    ruleset: Ruleset,
    log: Vec<Entry>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RosterFile {
    format: String,
    schema: u32,
    army: Army,
}

/// Parses JSON into `T`, naming the field path and line of any error.
pub(crate) fn parse<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, StoreError> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let message = inner.to_string();
        let message = message
            .rfind(" at line ")
            .map_or(message.clone(), |i| message[..i].to_string());
        let field = if path == "." {
            String::new()
        } else {
            format!("{path}: ")
        };
        StoreError::new(format!("{field}{message}, line {}", inner.line()))
    })
}

/// Checks the file says what it is and is a schema this build reads.
fn check_header(text: &str, format: &str) -> Result<(), StoreError> {
    let header: Header = parse(text)?;
    if header.format != format {
        return Err(StoreError::new(format!(
            "this is a \"{}\" file, not a \"{format}\" file",
            header.format
        )));
    }
    if header.schema != SCHEMA {
        let newer = if header.schema > SCHEMA {
            "a newer version of Muster"
        } else {
            "an unknown version"
        };
        return Err(StoreError::new(format!(
            "schema version {} (from {newer}); this Muster reads schema {SCHEMA}",
            header.schema
        )));
    }
    Ok(())
}

pub fn battle_to_json(battle: &Battle) -> String {
    let file = BattleFile {
        format: BATTLE_FORMAT.into(),
        schema: SCHEMA,
        seed: battle.seed(),
        ruleset: battle.ruleset().clone(),
        log: battle.log().to_vec(),
    };
    serde_json::to_string_pretty(&file).expect("a battle always serializes")
}

pub fn battle_from_json(text: &str) -> Result<Battle, StoreError> {
    check_header(text, BATTLE_FORMAT)?;
    let file: BattleFile = parse(text)?;
    file.ruleset
        .check()
        .map_err(|e| StoreError::new(format!("ruleset.{e}")))?;
    Battle::replay(file.ruleset, file.seed, &file.log).map_err(|e| StoreError::new(e.message))
}

pub fn roster_to_json(army: &Army) -> String {
    let file = RosterFile {
        format: ROSTER_FORMAT.into(),
        schema: SCHEMA,
        army: army.clone(),
    };
    serde_json::to_string_pretty(&file).expect("an army always serializes")
}

/// Reads a roster; troop types and territories must exist in `ruleset`.
pub fn roster_from_json(text: &str, ruleset: &Ruleset) -> Result<Army, StoreError> {
    check_header(text, ROSTER_FORMAT)?;
    let file: RosterFile = parse(text)?;
    for (i, bg) in file.army.bgs.iter().enumerate() {
        if !ruleset.troop_types.contains_key(&bg.troop_type) {
            return Err(StoreError::new(format!(
                "army.bgs[{i}].troop_type: unknown troop type \"{}\"",
                bg.troop_type
            )));
        }
    }
    for (i, t) in file.army.territories.iter().enumerate() {
        if !ruleset.territories.contains_key(t) {
            return Err(StoreError::new(format!(
                "army.territories[{i}]: unknown territory type \"{t}\""
            )));
        }
    }
    Ok(file.army)
}

fn read(path: &Path) -> Result<String, StoreError> {
    std::fs::read_to_string(path).map_err(|e| StoreError::new(e.to_string()).at(path))
}

pub fn save_battle(path: &Path, battle: &Battle) -> Result<(), StoreError> {
    let text = battle_to_json(battle);
    write_atomic(path, text.as_bytes(), |written| {
        battle_from_json(std::str::from_utf8(written).unwrap_or("")).map(|_| ())
    })
    .map_err(|e| e.at(path))
}

pub fn load_battle(path: &Path) -> Result<Battle, StoreError> {
    battle_from_json(&read(path)?).map_err(|e| e.at(path))
}

pub fn save_roster(path: &Path, army: &Army, ruleset: &Ruleset) -> Result<(), StoreError> {
    let text = roster_to_json(army);
    write_atomic(path, text.as_bytes(), |written| {
        roster_from_json(std::str::from_utf8(written).unwrap_or(""), ruleset).map(|_| ())
    })
    .map_err(|e| e.at(path))
}

pub fn load_roster(path: &Path, ruleset: &Ruleset) -> Result<Army, StoreError> {
    roster_from_json(&read(path)?, ruleset).map_err(|e| e.at(path))
}

/// Where the app autosaves the battle in progress: the platform's data
/// directory for Muster, or `None` where the platform has none.
pub fn autosave_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "Muster").map(|d| d.data_dir().join("autosave.json"))
}

#[cfg(test)]
mod tests;
