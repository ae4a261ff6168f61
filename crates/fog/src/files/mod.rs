//! Field of Glory's files: battles and rosters.
//!
//! A battle file is the battle's id, the ruleset it is played under and the
//! log; it is loaded by replaying the log through the rules, so an entry the
//! rules refuse is named rather than trusted. Each entry carries the chain
//! hash (which names accidental damage) and the tags of the players with a
//! passphrase (which name an edit: see `battle::Battle::unlock`). A file must
//! read back byte for byte as Muster writes it.

use crate::army::Army;
use crate::battle::{Battle, Entry};
use crate::ruleset::Ruleset;
use muster_core::intel::{from_hex, to_hex};
use muster_core::side::Side;
use muster_core::store::{
    StoreError, TagsHex, as_written, check_chain, check_header, parse, read_text, write_atomic,
};
use serde::{Deserialize, Serialize};
use std::path::Path;

mod library;

pub use library::{LibraryRoster, RosterLibrary};

/// The battle schema this build writes: 3 has a battle id, no dice seed,
/// and the players' tags. It still reads 1 and 2, and writes them back as 3.
pub const BATTLE_SCHEMA: u32 = 3;
/// The roster schema this build writes and reads.
pub const ROSTER_SCHEMA: u32 = 1;
pub const BATTLE_FORMAT: &str = "muster-battle";
const ROSTER_FORMAT: &str = "muster-roster";

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

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RosterFile {
    format: String,
    schema: u32,
    army: Army,
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
            tags: TagsHex::of(&tags[i + 1]),
            entry: entry.clone(),
        })
        .collect();
    let file = BattleFile {
        format: BATTLE_FORMAT.into(),
        schema: BATTLE_SCHEMA,
        id: battle.id().to_string(),
        ruleset: battle.ruleset().clone(),
        tags: TagsHex::of(&tags[0]),
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
    let mut tags = vec![file.tags.read("tags")?];
    let (mut hashes, mut entries) = (Vec::new(), Vec::new());
    for (i, chained) in file.log.into_iter().enumerate() {
        tags.push(chained.tags.read(&format!("log[{i}].tags"))?);
        hashes.push(chained.hash);
        entries.push(chained.entry);
    }
    // The chain over the entries as stored: a hash that differs names the
    // first damaged entry (or a damaged header) before the rules are asked.
    let links = crate::battle::chain(&file.id, &file.ruleset, &entries);
    check_chain(&hashes, &links, "the battle's id or the ruleset")?;
    let mut battle =
        Battle::replay(file.ruleset, file.id, &entries).map_err(|e| StoreError::new(e.message))?;
    battle
        .restore_tags(tags)
        .map_err(|e| StoreError::new(e.message))?;
    // Anything else, down to spacing, must be as Muster wrote it.
    as_written(&battle_to_json(&battle), text)?;
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

/// Saves a battle. A file that does not read back as the same battle is
/// not kept, and the message says it is Muster's fault, not the players'.
pub fn save_battle(path: &Path, battle: &Battle) -> Result<(), StoreError> {
    use muster_core::store::Autosave;
    battle.save_job(path).run()
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

/// A battle autosaves like any game: its id, its title, players and step.
impl muster_core::store::Autosave for Battle {
    fn id(&self) -> &str {
        Battle::id(self)
    }

    fn headline(&self) -> String {
        self.state().settings.title.clone()
    }

    fn recent(&self, saved: u64) -> muster_core::store::Recent {
        let state = self.state();
        let player = |side: Side| {
            state.armies[side]
                .as_ref()
                .map_or(format!("{side}: no army yet"), |a| {
                    format!("{} ({})", a.player, a.name)
                })
        };
        muster_core::store::Recent {
            id: self.id().to_string(),
            title: state.settings.title.clone(),
            players: format!("{} v {}", player(Side::South), player(Side::North)),
            step: state.current_step(self.ruleset()).title().to_string(),
            saved,
            entries: self.log().len(),
        }
    }

    fn save_job(&self, path: &Path) -> muster_core::store::SaveJob {
        let (log, tags) = (self.log().to_vec(), self.tags().to_vec());
        muster_core::store::SaveJob::new(path, battle_to_json(self), move |text| {
            battle_from_json(text).map(|again| again.log() == log && again.tags() == tags)
        })
    }
}

#[cfg(test)]
mod autosave_tests;
#[cfg(test)]
mod tests;
