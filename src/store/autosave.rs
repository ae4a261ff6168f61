//! Autosaves, one per battle (DESIGN "Nothing lost"): each battle is saved
//! after every change under its own id, beside a small note of its title,
//! players, step and time for *File > Recent battles*. Opening a file or
//! starting a new battle never touches another battle's autosave; only the
//! oldest beyond `KEEP` are removed.

use super::{StoreError, parse, read_text, save_battle, write_atomic};
use crate::battle::Battle;
use crate::side::Side;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// How many battles' autosaves are kept.
pub const KEEP: usize = 12;
const NOTE_SUFFIX: &str = ".note.json";

/// One autosaved battle as *Recent battles* lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recent {
    pub id: String,
    pub title: String,
    pub players: String,
    pub step: String,
    /// Seconds since 1970, UTC.
    pub saved: u64,
    /// Log entries at the time.
    pub entries: usize,
}

impl Recent {
    fn of(battle: &Battle, saved: u64) -> Recent {
        let state = battle.state();
        let player = |side: Side| {
            state.armies[side]
                .as_ref()
                .map_or(format!("{side}: no army yet"), |a| {
                    format!("{} ({})", a.player, a.name)
                })
        };
        Recent {
            id: battle.id().to_string(),
            title: state.settings.title.clone(),
            players: format!("{} v {}", player(Side::South), player(Side::North)),
            step: state.current_step(battle.ruleset()).title().to_string(),
            saved,
            entries: battle.log().len(),
        }
    }

    /// "Mons Graupius — Ann (Romans) v Bob (Caledonians) — Terrain placement,
    /// 2026-11-22 13:05 UTC".
    pub fn describe(&self) -> String {
        format!(
            "{} — {} — {}, {}",
            self.title,
            self.players,
            self.step,
            crate::clock::date_time(self.saved)
        )
    }
}

/// The folder of autosaves.
#[derive(Clone, Debug)]
pub struct Autosaves {
    dir: PathBuf,
}

impl Autosaves {
    pub fn new(dir: PathBuf) -> Autosaves {
        Autosaves { dir }
    }

    /// The autosave of the battle with this id.
    pub fn path(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.json"))
    }

    fn note(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}{NOTE_SUFFIX}"))
    }

    /// Saves `battle` under its id with its note, then removes the oldest
    /// battles' autosaves beyond `KEEP`.
    pub fn save(&self, battle: &Battle) -> Result<(), StoreError> {
        save_battle(&self.path(battle.id()), battle)?;
        let note = Recent::of(battle, crate::clock::now());
        let text = serde_json::to_string_pretty(&note).expect("a note always serializes");
        write_atomic(&self.note(battle.id()), text.as_bytes(), |written| {
            let text = std::str::from_utf8(written).map_err(|e| StoreError::new(e.to_string()))?;
            parse::<Recent>(text).map(|_| ())
        })?;
        let others = self.recent().into_iter().filter(|r| r.id != battle.id());
        for old in others.skip(KEEP - 1) {
            self.forget(&old.id);
        }
        Ok(())
    }

    /// Every autosaved battle, newest first. Unreadable notes are skipped:
    /// the list is a convenience, the battle files are the record.
    pub fn recent(&self) -> Vec<Recent> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut list: Vec<Recent> = entries
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(NOTE_SUFFIX))
            .filter_map(|e| read_note(&e.path()))
            .filter(|r| self.path(&r.id).is_file())
            .collect();
        list.sort_by(|a, b| b.saved.cmp(&a.saved).then_with(|| a.id.cmp(&b.id)));
        list
    }

    fn forget(&self, id: &str) {
        let _ = std::fs::remove_file(self.path(id));
        let _ = std::fs::remove_file(self.note(id));
    }
}

fn read_note(path: &Path) -> Option<Recent> {
    let text = read_text(path).ok()?;
    let note: Recent = parse(&text).ok()?;
    // The id names files: only a battle id (hex) is accepted.
    note.id
        .chars()
        .all(|c| c.is_ascii_hexdigit())
        .then_some(note)
        .filter(|n| !n.id.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::{Command, Settings};
    use crate::ruleset::Ruleset;

    fn titled(title: &str) -> Battle {
        let mut b = Battle::new(Ruleset::builtin());
        b.apply(Command::Configure {
            settings: Settings {
                title: title.into(),
                ..Settings::default()
            },
        })
        .unwrap();
        b
    }

    #[test]
    fn each_battle_keeps_its_own_autosave() {
        let dir = tempfile::tempdir().unwrap();
        let saves = Autosaves::new(dir.path().join("autosaves"));
        let first = titled("Cannae");
        let second = titled("Zama");
        saves.save(&first).unwrap();
        saves.save(&second).unwrap();
        let list = saves.recent();
        assert_eq!(list.len(), 2);
        let titles: Vec<&str> = list.iter().map(|r| r.title.as_str()).collect();
        assert!(titles.contains(&"Cannae") && titles.contains(&"Zama"));
        let again = crate::store::load_battle(&saves.path(first.id())).unwrap();
        assert_eq!(again.state().settings.title, "Cannae");
        assert!(list[0].describe().contains("UTC"), "{}", list[0].describe());
        assert!(list[0].players.contains("no army yet"));
    }

    #[test]
    fn only_the_newest_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let saves = Autosaves::new(dir.path().to_path_buf());
        for i in 0..KEEP + 2 {
            saves.save(&titled(&format!("Battle {i}"))).unwrap();
        }
        assert_eq!(saves.recent().len(), KEEP);
        let files = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(files, 2 * KEEP, "a battle file and a note each");
    }

    #[test]
    fn a_note_naming_another_path_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let saves = Autosaves::new(dir.path().to_path_buf());
        let b = titled("Cannae");
        saves.save(&b).unwrap();
        let note = saves.note(b.id());
        let text = std::fs::read_to_string(&note)
            .unwrap()
            .replace(b.id(), "../../etc/passwd");
        std::fs::write(&note, text).unwrap();
        assert!(saves.recent().is_empty());
    }
}
