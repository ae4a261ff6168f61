//! The folders a player saved a game or a printout into, remembered beside
//! the autosaves, so that a save killed there (its temporary file left
//! over, perhaps hundreds of megabytes) is removed at the next start, as in
//! Muster's own folders, not only at the next save to that folder.

use super::{StoreError, sweep_temps, write_atomic};
use std::path::{Path, PathBuf};

/// How many folders are remembered, newest first.
const KEEP: usize = 32;
/// The list is read no further than this: a damaged or hostile file costs
/// nothing more.
const MAX_BYTES: u64 = 64 * 1024;

pub struct SaveFolders {
    file: PathBuf,
}

impl SaveFolders {
    /// The list kept in Muster's autosave folder.
    pub fn beside(autosaves: &Path) -> SaveFolders {
        SaveFolders {
            file: autosaves.join("save-folders.txt"),
        }
    }

    /// The folders remembered, newest first; none if the list is missing
    /// or unreadable.
    pub fn list(&self) -> Vec<PathBuf> {
        use std::io::Read;
        let mut text = String::new();
        let read = std::fs::File::open(&self.file)
            .and_then(|f| f.take(MAX_BYTES).read_to_string(&mut text));
        if read.is_err() {
            return Vec::new();
        }
        text.lines()
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .take(KEEP)
            .collect()
    }

    /// Remembers the folder of a file just saved.
    pub fn remember(&self, saved: &Path) -> Result<(), StoreError> {
        let Some(dir) = saved
            .parent()
            .and_then(|d| std::path::absolute(d).ok())
            .filter(|d| d.to_str().is_some_and(|s| !s.contains('\n')))
        else {
            return Ok(());
        };
        let mut folders = self.list();
        if folders.first() == Some(&dir) {
            return Ok(());
        }
        folders.retain(|f| *f != dir);
        folders.insert(0, dir);
        folders.truncate(KEEP);
        let text: String = folders
            .iter()
            .filter_map(|f| f.to_str())
            .map(|f| format!("{f}\n"))
            .collect();
        write_atomic(&self.file, text.as_bytes(), |_| Ok(()))
    }

    /// Removes the temporary files killed saves left in each folder.
    pub fn sweep(&self) {
        for dir in self.list() {
            sweep_temps(&dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 21: a save killed in a folder of the player's own left its
    /// temporary file there until a later save to that folder. Remembered,
    /// the folder is swept at the next start.
    #[test]
    fn a_killed_save_in_a_players_own_folder_goes_at_the_next_start() {
        let autosaves = tempfile::tempdir().unwrap();
        let own = tempfile::tempdir().unwrap();
        let folders = SaveFolders::beside(autosaves.path());
        assert!(folders.list().is_empty());
        let game = own.path().join("battle.json");
        write_atomic(&game, b"{}", |_| Ok(())).unwrap();
        folders.remember(&game).unwrap();
        folders.remember(&game).unwrap();
        assert_eq!(folders.list(), vec![own.path().to_path_buf()]);
        // Above Linux's largest process id: no such process runs.
        let dead = own.path().join(".battle.json.4294000000.a1b2c3.muster-tmp");
        std::fs::write(&dead, b"half a save").unwrap();
        folders.sweep();
        assert!(!dead.exists());
        assert!(game.exists());
        // A damaged list is read as far as it makes sense.
        std::fs::write(
            autosaves.path().join("save-folders.txt"),
            b"relative\n\xff\n",
        )
        .unwrap();
        assert!(folders.list().is_empty());
    }
}
