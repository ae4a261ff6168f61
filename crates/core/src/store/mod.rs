//! Saved files, whatever the system: versioned JSON whose header says what
//! it holds (`format`, `schema`), read with the field path and line of any
//! error, written atomically (a temporary file, synced and read back before
//! it replaces the target, so a good file is never overwritten by a bad
//! one), and the autosaves kept per game.

mod atomic;
mod autosave;
pub mod chained;
mod plain;
mod save_folders;

pub use atomic::{sweep_temps, write_atomic, write_atomic_private};
pub use autosave::{Autosave, AutosaveJob, Autosaves, KEEP, Recent};
pub use plain::{broken, format_of, read_muster};
pub use save_folders::SaveFolders;

use crate::intel::ledger::Digest32;
use crate::intel::trail::Tags;
use crate::intel::{from_hex, to_hex};
use crate::side::{Side, Sides};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

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

    pub fn at(mut self, path: &Path) -> StoreError {
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

/// Parses JSON into `T`, naming the field path and line of any error; a
/// break in the text is said as where it breaks (cut short, damaged at
/// byte N).
pub fn parse<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, StoreError> {
    // Read first without keeping the path: keeping it cost a quarter of
    // reading a large game. Only a file that fails is read again with it,
    // by the same reader, so it fails in the same place.
    let de = &mut serde_json::Deserializer::from_str(text);
    if let Ok(value) = T::deserialize(de) {
        return Ok(value);
    }
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if let Some(broken) = plain::broken(text, &inner) {
            return StoreError::new(broken);
        }
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
pub fn check_header(text: &str, format: &str, oldest: u32, newest: u32) -> Result<u32, StoreError> {
    let header: Header = parse(text)?;
    check_format(&header.format, header.schema, format, oldest, newest)
}

/// What `check_header` checks of a file's `format` and `schema`, once
/// read.
pub(super) fn check_format(
    found: &str,
    schema: u32,
    format: &str,
    oldest: u32,
    newest: u32,
) -> Result<u32, StoreError> {
    if found != format {
        return Err(StoreError::new(format!(
            "this is a \"{found}\" file, not a \"{format}\" file"
        )));
    }
    if schema > newest {
        return Err(StoreError::new(format!(
            "from a newer Muster: its schema is {}, this Muster reads up to schema {newest} (a newer Muster opens it)",
            schema
        )));
    }
    if schema < oldest {
        return Err(StoreError::new(format!(
            "schema {}, which no Muster this one reads wrote (it reads schema {oldest} to {newest})",
            schema
        )));
    }
    Ok(schema)
}

/// Each player's HMAC-SHA-256 tag on one log position as hex, where he
/// has one: how every system's file stores the trail's tags.
#[derive(Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TagsHex {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub south: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub north: Option<String>,
}

impl TagsHex {
    pub fn is_empty(&self) -> bool {
        self.south.is_none() && self.north.is_none()
    }

    pub fn of(tags: &Tags) -> TagsHex {
        TagsHex {
            south: tags.south.as_ref().map(|t| to_hex(t)),
            north: tags.north.as_ref().map(|t| to_hex(t)),
        }
    }

    /// The tags, each 32 bytes; `at` names the field for an error
    /// (`log[3].tags`).
    pub fn read(&self, at: &str) -> Result<Tags, StoreError> {
        let one = |side: Side, hex: &Option<String>| -> Result<Option<Digest32>, StoreError> {
            hex.as_deref()
                .map(|h| {
                    from_hex(h)
                        .and_then(|b| Digest32::try_from(b).ok())
                        .ok_or_else(|| {
                            StoreError::new(format!(
                                "{at}.{}: not a tag (64 hex digits)",
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

/// Checks a file's stored hashes against the chain recomputed from its
/// entries: the first that differs names the first damaged entry, and
/// `header` says what the first entry's hash also covers ("the battle's id
/// or the ruleset").
pub fn check_chain(hashes: &[String], links: &[Digest32], header: &str) -> Result<(), StoreError> {
    for (i, (hash, link)) in hashes.iter().zip(links).enumerate() {
        if *hash != to_hex(link) {
            let what = if i == 0 {
                format!("it, {header}")
            } else {
                "it or an earlier entry".to_string()
            };
            return Err(StoreError::new(format!(
                "log entry {} does not match its hash: {what} was changed or damaged",
                i + 1
            )));
        }
    }
    Ok(())
}

/// Checks a file's text is `canonical`, what Muster writes for what it
/// read, down to spacing; the first line that differs is named.
pub fn as_written(canonical: &str, text: &str) -> Result<(), StoreError> {
    if canonical == text {
        return Ok(());
    }
    let line = canonical
        .lines()
        .zip(text.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| canonical.lines().count().min(text.lines().count()))
        + 1;
    Err(StoreError::new(format!(
        "line {line} is not as Muster wrote it: the file was changed or damaged"
    )))
}

/// Checks a file's text is what Muster writes for `file` (pretty JSON), as
/// `as_written` does, compared as it is written: a large game's text is
/// tens of MB, and only a file that differs has it made whole, to name the
/// first line that differs.
pub fn written_as<T: Serialize>(file: &T, text: &str) -> Result<(), StoreError> {
    let mut rest = Same {
        rest: text.as_bytes(),
        differs: false,
    };
    serde_json::to_writer_pretty(&mut rest, file).expect("a file always serializes");
    if rest.differs || !rest.rest.is_empty() {
        let canonical = serde_json::to_string_pretty(file).expect("a file always serializes");
        return as_written(&canonical, text);
    }
    Ok(())
}

/// What is left of a text to compare, and whether what was written so far
/// differed from it.
struct Same<'a> {
    rest: &'a [u8],
    differs: bool,
}

impl std::io::Write for Same<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self.rest.strip_prefix(bytes) {
            Some(rest) if !self.differs => self.rest = rest,
            _ => self.differs = true,
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Writes `text` to `path` atomically, keeping it only if it reads back
/// (`read`) as the same thing (`same`): a save that would not reopen is
/// Muster's fault, never kept.
pub fn save_read_back<T>(
    path: &Path,
    text: &str,
    read: impl Fn(&str) -> Result<T, StoreError>,
    same: impl Fn(&T) -> bool,
) -> Result<(), StoreError> {
    write_atomic(path, text.as_bytes(), |written| {
        let again = std::str::from_utf8(written)
            .map_err(|e| StoreError::new(e.to_string()))
            .and_then(&read)?;
        if !same(&again) {
            return Err(StoreError::new("the log read back differs"));
        }
        Ok(())
    })
    .map_err(|e| e.at(path))
}

/// Saving a game as work that can be done on another thread (the window's
/// autosave writer, issue 37): the game's text made where the game is, then
/// written, synced, read back and checked wherever `run` is called, with no
/// borrow of the game. The file read back must be the text written, and
/// `same` reads it and says whether it is the same game: a save that would
/// not reopen as the game it saved is never kept.
pub struct SaveJob {
    pub path: std::path::PathBuf,
    text: String,
    same: Box<ReadsBack>,
}

/// Whether a file's text, read back, is the game that was saved.
type ReadsBack = dyn Fn(&str) -> Result<bool, StoreError> + Send;

impl SaveJob {
    pub fn new(
        path: &Path,
        text: String,
        same: impl Fn(&str) -> Result<bool, StoreError> + Send + 'static,
    ) -> SaveJob {
        SaveJob {
            path: path.to_path_buf(),
            text,
            same: Box::new(same),
        }
    }

    pub fn run(self) -> Result<(), StoreError> {
        let SaveJob { path, text, same } = self;
        let read = |written: &str| Ok(written == text && same(written)?);
        save_read_back(&path, &text, read, |same| *same)
    }
}

/// The largest file Muster reads: far above any real battle (a long one is
/// well under 1 MiB), far below what would stall the machine.
const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a regular file of at most `max` bytes: never a FIFO, a device
/// or a directory (whatever a link points to), never more than `max` bytes
/// even from a file that grows while it is read. Every file Muster reads
/// comes through here.
pub fn read_bytes(path: &Path, max: u64) -> Result<Vec<u8>, StoreError> {
    use std::io::Read;
    let fail = |m: String| StoreError::new(m).at(path);
    // The operating system's words, but a player's for the usual two.
    let io = |e: std::io::Error| {
        fail(match e.kind() {
            std::io::ErrorKind::NotFound => "there is no such file".into(),
            std::io::ErrorKind::PermissionDenied => {
                "Muster may not read it (permission denied)".into()
            }
            _ => e.to_string(),
        })
    };
    let too_large = |len: u64| {
        fail(format!(
            "{len} bytes is larger than any Muster file of this kind ({} at most)",
            size_words(max)
        ))
    };
    // Checked before opening: opening a FIFO would wait for a writer.
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(fail("not a regular file".into()));
    }
    if meta.len() > max {
        return Err(too_large(meta.len()));
    }
    let file = std::fs::File::open(path).map_err(io)?;
    // And again on what was opened, in case the path changed meanwhile.
    let opened = file.metadata().map_err(io)?;
    if !opened.is_file() {
        return Err(fail("not a regular file".into()));
    }
    let mut bytes = Vec::with_capacity(opened.len().min(max) as usize);
    file.take(max + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > max {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// "64 MiB", "256 KiB": a limit in words.
fn size_words(bytes: u64) -> String {
    match bytes {
        b if b >= 1024 * 1024 => format!("{} MiB", b / 1024 / 1024),
        b if b >= 1024 => format!("{} KiB", b / 1024),
        b => format!("{b} bytes"),
    }
}

/// Reads a regular file of reasonable size as UTF-8 text.
pub fn read_text(path: &Path) -> Result<String, StoreError> {
    let bytes = read_bytes(path, MAX_FILE_BYTES)?;
    String::from_utf8(bytes).map_err(|e| {
        StoreError::new(format!(
            "not UTF-8 text (byte {} is not valid)",
            e.utf8_error().valid_up_to()
        ))
        .at(path)
    })
}

/// The ending of every system's saves (issue 40): Muster's own, which a
/// desktop opens with Muster (JSON inside, its header names the system).
/// Open still reads the older `.json` ones.
pub const SAVE_EXTENSION: &str = "muster";

/// Where the app keeps its autosaves: the platform's data directory for
/// Muster, or `None` where the platform has none.
pub fn autosave_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "Muster").map(|d| d.data_dir().join("autosaves"))
}
