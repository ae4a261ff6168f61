//! Autosaves, one per game (DESIGN "Nothing lost"): each game, whatever its
//! system, is saved after every change under its own id, beside a small
//! note of its title, players, step and time for *File > Recent battles*.
//! Opening a file or starting a new game never touches another game's
//! autosave; only the oldest beyond `KEEP` are removed.

use super::{StoreError, parse, read_text, write_atomic};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// How many battles' autosaves are kept.
pub const KEEP: usize = 12;
const NOTE_SUFFIX: &str = ".note.json";

/// What a game of any system gives the autosaves: its id, its note, and its
/// file (written so that it reads back, see `write_atomic`).
pub trait Autosave {
    fn id(&self) -> &str;
    /// How the game is headed: the window's title and its file's name
    /// (its players, unless it has a title of its own).
    fn headline(&self) -> String {
        self.recent(0).players
    }
    /// The note *Recent battles* shows, saved at `saved` (seconds, UTC).
    fn recent(&self, saved: u64) -> Recent;
    /// Saving the game to `path`, as work for any thread.
    fn save_job(&self, path: &Path) -> super::SaveJob;
    /// Saves the game to `path` now.
    fn save_to(&self, path: &Path) -> Result<(), StoreError> {
        self.save_job(path).run()
    }
}

/// One autosaved game as *Recent battles* lists it.
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

    /// The folders the players saved into, listed beside the autosaves.
    pub fn folders(&self) -> super::SaveFolders {
        super::SaveFolders::beside(&self.dir)
    }

    /// The autosave of the battle with this id.
    pub fn path(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.json"))
    }

    /// Whether `path` is one of these autosaves (named by its game's id,
    /// which tells a player nothing).
    pub fn holds(&self, path: &Path) -> bool {
        path.parent() == Some(self.dir.as_path())
    }

    /// Where the autosave of game `id` keeps its note for Recent.
    pub fn note(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}{NOTE_SUFFIX}"))
    }

    /// Saves `game` under its id with its note, then removes the oldest
    /// battles' autosaves beyond `KEEP`.
    pub fn save(&self, game: &dyn Autosave) -> Result<(), StoreError> {
        self.job(game).run()
    }

    /// What `save` does, as work for a writer thread: everything taken
    /// from the game now, nothing of it borrowed.
    pub fn job(&self, game: &dyn Autosave) -> AutosaveJob {
        AutosaveJob {
            saves: self.clone(),
            id: game.id().to_string(),
            game: game.save_job(&self.path(game.id())),
            note: game.recent(crate::clock::now()),
        }
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

/// An autosave to be written: the game's file, its note, the old ones
/// cleared.
pub struct AutosaveJob {
    saves: Autosaves,
    id: String,
    game: super::SaveJob,
    note: Recent,
}

impl AutosaveJob {
    /// The game it saves.
    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn run(self) -> Result<(), StoreError> {
        let AutosaveJob {
            saves,
            id,
            game,
            note,
        } = self;
        game.run()?;
        let text = serde_json::to_string_pretty(&note).expect("a note always serializes");
        write_atomic(&saves.note(&id), text.as_bytes(), |written| {
            let text = std::str::from_utf8(written).map_err(|e| StoreError::new(e.to_string()))?;
            parse::<Recent>(text).map(|_| ())
        })?;
        let others = saves.recent().into_iter().filter(|r| r.id != id);
        for old in others.skip(KEEP - 1) {
            saves.forget(&old.id);
        }
        Ok(())
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
