//! Saved files: battles and rosters as versioned JSON, written atomically,
//! and the autosaves kept per battle.
//!
//! A battle file is the battle's id, the ruleset it is played under and the
//! log; it is loaded by replaying the log through the rules, so an entry the
//! rules refuse is named rather than trusted. Each entry carries the chain
//! hash (which names accidental damage) and the tags of the players with a
//! passphrase (which name an edit: see `battle::Battle::unlock`). A file must
//! read back byte for byte as Muster writes it. Writes go to a temporary file
//! that is synced and read back before it replaces the target, so a good
//! file is never overwritten by a bad one.

mod atomic;
mod autosave;
mod library;

pub use atomic::write_atomic;
pub use autosave::{Autosaves, Recent};
pub use library::{LibraryRoster, RosterLibrary};

use crate::army::Army;
use crate::battle::{Battle, Entry, Tags};
use crate::intel::ledger::Digest32;
use crate::intel::{from_hex, to_hex};
use crate::ruleset::Ruleset;
use crate::side::{Side, Sides};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// The battle schema this build writes: 3 has a battle id, no dice seed,
/// and the players' tags. It still reads 1 and 2, and writes them back as 3.
pub const BATTLE_SCHEMA: u32 = 3;
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
    id: String,
    ruleset: Ruleset,
    /// The players' tags on the header (the id and ruleset).
    #[serde(default, skip_serializing_if = "TagsHex::is_empty")]
    tags: TagsHex,
    log: Vec<Chained>,
}

/// A log entry with the hash that chains it to the one before and the
/// players' tags on that hash.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Chained {
    hash: String,
    #[serde(default, skip_serializing_if = "TagsHex::is_empty")]
    tags: TagsHex,
    entry: Entry,
}

/// Each player's HMAC-SHA-256 tag as hex, where he has one.
#[derive(Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TagsHex {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    south: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    north: Option<String>,
}

impl TagsHex {
    fn is_empty(&self) -> bool {
        self.south.is_none() && self.north.is_none()
    }

    fn from_tags(tags: &Tags) -> TagsHex {
        TagsHex {
            south: tags.south.as_ref().map(|t| to_hex(t)),
            north: tags.north.as_ref().map(|t| to_hex(t)),
        }
    }

    /// The tags, each 32 bytes; `at` says where they stand for an error.
    fn to_tags(&self, at: &str) -> Result<Tags, StoreError> {
        let one = |side: Side, hex: &Option<String>| -> Result<Option<Digest32>, StoreError> {
            hex.as_deref()
                .map(|h| {
                    from_hex(h)
                        .and_then(|b| Digest32::try_from(b).ok())
                        .ok_or_else(|| {
                            StoreError::new(format!(
                                "{at}.tags.{}: not a tag (64 hex digits)",
                                side.name().to_lowercase()
                            ))
                        })
                })
                .transpose()
        };
        Ok(Sides {
            south: one(Side::South, &self.south)?,
            north: one(Side::North, &self.north)?,
        })
    }
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

/// A battle file as schemas 1 and 2 wrote it: a dice seed (dropped: app
/// dice are read from the log now) and the log, in schema 2 with unkeyed
/// hashes, which cannot be checked once the seed is gone from each roll.
#[derive(Deserialize)]
struct LegacyBattleFile {
    ruleset: Ruleset,
    log: Vec<LegacyEntry>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum LegacyEntry {
    Chained { entry: Entry },
    Plain(Entry),
}

pub fn battle_to_json(battle: &Battle) -> String {
    let (links, tags) = (battle.links(), battle.tags());
    let log = battle
        .log()
        .iter()
        .enumerate()
        .map(|(i, entry)| Chained {
            hash: to_hex(&links[i + 1]),
            tags: TagsHex::from_tags(&tags[i + 1]),
            entry: entry.clone(),
        })
        .collect();
    let file = BattleFile {
        format: BATTLE_FORMAT.into(),
        schema: BATTLE_SCHEMA,
        id: battle.id().to_string(),
        ruleset: battle.ruleset().clone(),
        tags: TagsHex::from_tags(&tags[0]),
        log,
    };
    serde_json::to_string_pretty(&file).expect("a battle always serializes")
}

fn check_ruleset(ruleset: &Ruleset) -> Result<(), StoreError> {
    ruleset
        .check()
        .map_err(|e| StoreError::new(format!("ruleset.{e}")))
}

pub fn battle_from_json(text: &str) -> Result<Battle, StoreError> {
    if check_header(text, BATTLE_FORMAT, 1, BATTLE_SCHEMA)? < 3 {
        let file: LegacyBattleFile = parse(text)?;
        check_ruleset(&file.ruleset)?;
        let log: Vec<Entry> = file
            .log
            .into_iter()
            .map(|e| match e {
                LegacyEntry::Chained { entry } | LegacyEntry::Plain(entry) => entry,
            })
            .collect();
        return Battle::replay(file.ruleset, crate::battle::new_battle_id(), &log)
            .map_err(|e| StoreError::new(e.message));
    }
    let file: BattleFile = parse(text)?;
    if from_hex(&file.id).is_none_or(|b| b.len() != 16) {
        return Err(StoreError::new("id: not a battle id (32 hex digits)"));
    }
    check_ruleset(&file.ruleset)?;
    let mut tags = vec![file.tags.to_tags("tags")?];
    let (mut hashes, mut entries) = (Vec::new(), Vec::new());
    for (i, chained) in file.log.into_iter().enumerate() {
        tags.push(chained.tags.to_tags(&format!("log[{i}]"))?);
        hashes.push(chained.hash);
        entries.push(chained.entry);
    }
    // The chain over the entries as stored: a hash that differs names the
    // first damaged entry (or a damaged header) before the rules are asked.
    let links = crate::battle::chain(&file.id, &file.ruleset, &entries);
    for (i, (hash, link)) in hashes.iter().zip(&links).enumerate() {
        if *hash != to_hex(link) {
            let what = if i == 0 {
                "it, the battle's id or the ruleset"
            } else {
                "it or an earlier entry"
            };
            return Err(StoreError::new(format!(
                "log entry {} does not match its hash: {what} was changed or damaged",
                i + 1
            )));
        }
    }
    let mut battle =
        Battle::replay(file.ruleset, file.id, &entries).map_err(|e| StoreError::new(e.message))?;
    battle
        .restore_tags(tags)
        .map_err(|e| StoreError::new(e.message))?;
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
            "line {line} is not as Muster wrote it: the file was changed or damaged"
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

/// The largest file Muster reads: far above any real battle (a long one is
/// well under 1 MiB), far below what would stall the machine.
const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a regular file of reasonable size as UTF-8 text.
pub fn read_text(path: &Path) -> Result<String, StoreError> {
    let fail = |m: String| StoreError::new(m).at(path);
    let meta = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
    if !meta.is_file() {
        return Err(fail("not a regular file".into()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(fail(format!(
            "{} bytes is larger than any Muster file ({} MiB at most)",
            meta.len(),
            MAX_FILE_BYTES / 1024 / 1024
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| {
        fail(format!(
            "not UTF-8 text (byte {} is not valid)",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Saves a battle. A file that does not read back as the same battle is
/// not kept, and the message says it is Muster's fault, not the players'.
pub fn save_battle(path: &Path, battle: &Battle) -> Result<(), StoreError> {
    let text = battle_to_json(battle);
    write_atomic(path, text.as_bytes(), |written| {
        let again = std::str::from_utf8(written)
            .map_err(|e| StoreError::new(e.to_string()))
            .and_then(battle_from_json)?;
        if again.log() != battle.log() || again.tags() != battle.tags() {
            return Err(StoreError::new("the log read back differs"));
        }
        Ok(())
    })
    .map_err(|e| e.at(path))
}

pub fn load_battle(path: &Path) -> Result<Battle, StoreError> {
    battle_from_json(&read_text(path)?).map_err(|e| e.at(path))
}

pub fn save_roster(path: &Path, army: &Army, ruleset: &Ruleset) -> Result<(), StoreError> {
    let text = roster_to_json(army);
    write_atomic(path, text.as_bytes(), |written| {
        roster_from_json(std::str::from_utf8(written).unwrap_or(""), ruleset).map(|_| ())
    })
    .map_err(|e| e.at(path))
}

pub fn load_roster(path: &Path, ruleset: &Ruleset) -> Result<Army, StoreError> {
    roster_from_json(&read_text(path)?, ruleset).map_err(|e| e.at(path))
}

/// Where the app keeps its autosaves: the platform's data directory for
/// Muster, or `None` where the platform has none.
pub fn autosave_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "Muster").map(|d| d.data_dir().join("autosaves"))
}

#[cfg(test)]
mod tests;
