//! The roster library: a folder of the group's saved armies beside the
//! autosaves, listed in *File > Rosters* so a player loads his army in two
//! clicks instead of finding a file. Each roster is an ordinary roster file
//! (`NAME.roster.json`), so a roster can also be copied in by hand.

use super::{StoreError, load_roster, save_roster};
use crate::army::Army;
use crate::ruleset::Ruleset;
use std::path::{Path, PathBuf};

/// A roster in the library: its army's name and its file.
#[derive(Clone, Debug, PartialEq)]
pub struct LibraryRoster {
    pub name: String,
    pub path: PathBuf,
}

/// The most rosters listed: a menu longer than this is of no use.
const MAX_LISTED: usize = 200;

pub struct RosterLibrary {
    dir: PathBuf,
}

impl RosterLibrary {
    pub fn new(dir: PathBuf) -> RosterLibrary {
        RosterLibrary { dir }
    }

    /// The library beside a folder of autosaves (`.../Muster/rosters`).
    pub fn beside(autosaves: &Path) -> RosterLibrary {
        RosterLibrary::new(autosaves.with_file_name("rosters"))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Every roster that reads under `ruleset`, by name; files that do not
    /// read are left out (the library is a convenience, not a record).
    pub fn list(&self, ruleset: &Ruleset) -> Vec<LibraryRoster> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut rosters: Vec<LibraryRoster> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().ends_with(".roster.json"))
            .take(MAX_LISTED)
            .filter_map(|path| {
                let army = load_roster(&path, ruleset).ok()?;
                Some(LibraryRoster {
                    name: format!("{} ({})", army.name, army.player),
                    path,
                })
            })
            .collect();
        rosters.sort_by(|a, b| a.name.cmp(&b.name));
        rosters
    }

    /// Saves `army` into the library under its name; returns the file.
    /// A roster of the same name is replaced (atomically).
    pub fn save(&self, army: &Army, ruleset: &Ruleset) -> Result<PathBuf, StoreError> {
        let stem: String = army
            .name
            .trim()
            .chars()
            .map(|c| {
                if c.is_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect();
        if stem.trim_matches('_').is_empty() {
            return Err(StoreError::new(
                "name the army before saving it to the library",
            ));
        }
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| StoreError::new(format!("{}: {e}", self.dir.display())))?;
        let path = self.dir.join(format!("{stem}.roster.json"));
        save_roster(&path, army, ruleset)?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_army_is_listed_by_name_and_loads_back() {
        let dir = tempfile::tempdir().unwrap();
        let r = Ruleset::builtin();
        let library = RosterLibrary::beside(&dir.path().join("autosaves"));
        assert!(library.list(&r).is_empty(), "no folder yet: nothing listed");
        let army = crate::examples::army(0, &r);
        let path = library.save(&army, &r).unwrap();
        assert_eq!(path.parent().unwrap(), dir.path().join("rosters"));
        // A stray file that is not a roster is left out, not an error.
        std::fs::write(dir.path().join("rosters/junk.roster.json"), "{").unwrap();
        let listed = library.list(&r);
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].name, format!("{} ({})", army.name, army.player));
        assert_eq!(load_roster(&listed[0].path, &r).unwrap(), army);
        let unnamed = Army::default();
        assert!(library.save(&unnamed, &r).is_err());
    }
}
