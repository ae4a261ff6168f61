//! Saved files: battles and rosters as versioned JSON, written atomically,
//! plus the autosave location.
//!
//! A battle file is the seed, the ruleset it was played under and the log; it
//! is loaded by replaying the log through the rules, so a damaged or edited
//! file is refused with the entry that fails rather than trusted. The log is
//! tamper-evident: each entry carries the SHA-256 of the one before it (the
//! first, of the seed and ruleset), so an edit names the first entry that no
//! longer matches; and a file must read back byte for byte as Muster writes
//! it, so no change, even to spacing, opens silently. Writes go to
//! a temporary file that is read back before it replaces the target, so a good
//! file is never overwritten by a bad one.

mod atomic;

pub use atomic::write_atomic;

use crate::army::Army;
use crate::battle::{Battle, Entry};
use crate::intel::to_hex;
use crate::ruleset::Ruleset;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;
use std::path::{Path, PathBuf};

/// The battle schema this build writes: 2 chains the log by hashes. It
/// still reads schema 1 (no chain), and writes it back as 2.
pub const BATTLE_SCHEMA: u32 = 2;
/// The roster schema this build writes and reads.
pub const ROSTER_SCHEMA: u32 = 1;
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
    log: Vec<Chained>,
}

/// A log entry with the hash that chains it to the one before.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Chained {
    /// SHA-256 of the previous hash and this entry, as hex.
    hash: String,
    entry: Entry,
}

/// Where the chain starts: the seed and ruleset the battle is played under.
fn genesis(seed: u64, ruleset: &Ruleset) -> String {
    let mut hash = Sha256::new();
    hash.update(b"muster-log-v2");
    hash.update(seed.to_le_bytes());
    hash.update(serde_json::to_vec(ruleset).expect("a ruleset always serializes"));
    to_hex(&hash.finalize())
}

fn link(previous: &str, entry: &Entry) -> String {
    let mut hash = Sha256::new();
    hash.update(previous.as_bytes());
    hash.update(serde_json::to_vec(entry).expect("an entry always serializes"));
    to_hex(&hash.finalize())
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

/// Checks the file says what it is and is a schema this build reads (from
/// `oldest` to `newest`); returns its schema.
fn check_header(text: &str, format: &str, oldest: u32, newest: u32) -> Result<u32, StoreError> {
    let header: Header = parse(text)?;
    if header.format != format {
        return Err(StoreError::new(format!(
            "this is a \"{}\" file, not a \"{format}\" file",
            header.format
        )));
    }
    if header.schema < oldest || header.schema > newest {
        let newer = if header.schema > newest {
            "a newer version of Muster"
        } else {
            "an unknown version"
        };
        return Err(StoreError::new(format!(
            "schema version {} (from {newer}); this Muster reads schema {newest}",
            header.schema
        )));
    }
    Ok(header.schema)
}

/// A battle file as schema 1 wrote it: the log without hashes (the format
/// and schema were checked by `check_header`).
#[derive(Deserialize)]
struct BattleFileV1 {
    seed: u64,
    ruleset: Ruleset,
    log: Vec<Entry>,
}

pub fn battle_to_json(battle: &Battle) -> String {
    let mut previous = genesis(battle.seed(), battle.ruleset());
    let log = battle
        .log()
        .iter()
        .map(|entry| {
            previous = link(&previous, entry);
            Chained {
                hash: previous.clone(),
                entry: entry.clone(),
            }
        })
        .collect();
    let file = BattleFile {
        format: BATTLE_FORMAT.into(),
        schema: BATTLE_SCHEMA,
        seed: battle.seed(),
        ruleset: battle.ruleset().clone(),
        log,
    };
    serde_json::to_string_pretty(&file).expect("a battle always serializes")
}

pub fn battle_from_json(text: &str) -> Result<Battle, StoreError> {
    if check_header(text, BATTLE_FORMAT, 1, BATTLE_SCHEMA)? == 1 {
        let file: BattleFileV1 = parse(text)?;
        file.ruleset
            .check()
            .map_err(|e| StoreError::new(format!("ruleset.{e}")))?;
        return Battle::replay(file.ruleset, file.seed, &file.log)
            .map_err(|e| StoreError::new(e.message));
    }
    let file: BattleFile = parse(text)?;
    file.ruleset
        .check()
        .map_err(|e| StoreError::new(format!("ruleset.{e}")))?;
    let mut previous = genesis(file.seed, &file.ruleset);
    for (i, chained) in file.log.iter().enumerate() {
        previous = link(&previous, &chained.entry);
        if previous != chained.hash {
            let what = if i == 0 {
                "it, the seed or the ruleset"
            } else {
                "it or an earlier entry"
            };
            return Err(StoreError::new(format!(
                "log entry {} does not match its hash: {what} was edited or damaged",
                i + 1
            )));
        }
    }
    let log: Vec<Entry> = file.log.into_iter().map(|c| c.entry).collect();
    let battle =
        Battle::replay(file.ruleset, file.seed, &log).map_err(|e| StoreError::new(e.message))?;
    // Anything else, down to spacing, must be as Muster wrote it.
    let canonical = battle_to_json(&battle);
    if canonical != text {
        let line = canonical
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| canonical.lines().count().min(text.lines().count()))
            + 1;
        return Err(StoreError::new(format!(
            "line {line} is not as Muster wrote it: the file was edited by hand or damaged"
        )));
    }
    Ok(battle)
}

pub fn roster_to_json(army: &Army) -> String {
    let file = RosterFile {
        format: ROSTER_FORMAT.into(),
        schema: ROSTER_SCHEMA,
        army: army.clone(),
    };
    serde_json::to_string_pretty(&file).expect("an army always serializes")
}

/// Reads a roster; troop types and territories must exist in `ruleset`.
pub fn roster_from_json(text: &str, ruleset: &Ruleset) -> Result<Army, StoreError> {
    check_header(text, ROSTER_FORMAT, ROSTER_SCHEMA, ROSTER_SCHEMA)?;
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
