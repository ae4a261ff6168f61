//! What is wrong with a file, in a player's words (docs: "Files"): there
//! is none, it is not a Muster file, it is cut short, damaged at byte N,
//! or from a newer Muster. A break in a file's JSON is told by where the
//! text breaks, not in the parser's grammar ("EOF while parsing a string"),
//! and a file that does not begin as Muster's files do is read no further.

use super::{Header, MAX_FILE_BYTES, StoreError, parse, read_bytes};
use std::path::Path;

/// How every Muster file begins: a JSON object whose first key is its
/// `format`, "muster-…" (spacing aside, as a hand may have left it).
fn begins_as_muster(bytes: &[u8]) -> bool {
    let mut rest = bytes.trim_ascii_start();
    for part in [&b"{"[..], b"\"format\"", b":", b"\"muster-"] {
        let Some(after) = rest.strip_prefix(part) else {
            return false;
        };
        rest = after.trim_ascii_start();
    }
    true
}

/// The byte (counted from 0) at `line` and `column`, which the JSON
/// parser counts from 1 and in bytes.
fn byte_at(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column.saturating_sub(1)).min(text.len())
}

/// A break in `text`'s JSON, in words: cut short (the text stops before
/// its end), or damaged at a byte; `None` for an error of the data (a
/// field of the wrong kind), which its field path says better.
pub fn broken(text: &str, e: &serde_json::Error) -> Option<String> {
    use serde_json::error::Category;
    match e.classify() {
        Category::Eof => Some(format!(
            "cut short: its text stops at byte {} before its end (a save that was not finished, or a copy cut off)",
            text.len()
        )),
        Category::Syntax => {
            let what = e.to_string();
            let what = what
                .rfind(" at line ")
                .map_or(what.as_str(), |i| &what[..i]);
            Some(format!(
                "damaged at byte {} (line {}, column {}): {what} there",
                byte_at(text, e.line(), e.column()),
                e.line(),
                e.column()
            ))
        }
        Category::Io | Category::Data => None,
    }
}

/// Reads a file the players chose to open as a Muster game: its text and
/// the format its header names, or what is wrong with it in words (no
/// such file, not a Muster file, damaged at byte N, cut short).
pub fn read_muster(path: &Path) -> Result<(String, String), StoreError> {
    let bytes = read_bytes(path, MAX_FILE_BYTES)?;
    if !begins_as_muster(&bytes) {
        return Err(StoreError::new(
            "not a Muster file: it does not begin as Muster's saved games do",
        )
        .at(path));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        StoreError::new(format!(
            "damaged at byte {}: not text there",
            e.utf8_error().valid_up_to()
        ))
        .at(path)
    })?;
    let format = format_of(&text).map_err(|e| e.at(path))?;
    Ok((text, format))
}

/// The format a Muster file's header names (`"muster-battle"`, …).
pub fn format_of(text: &str) -> Result<String, StoreError> {
    parse::<Header>(text).map(|h| h.format)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAVE: &str = "{\n  \"format\": \"muster-deck\",\n  \"schema\": 1,\n  \"id\": \"ab\"\n}\n";

    fn file(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    fn why(path: &Path) -> String {
        read_muster(path).unwrap_err().message
    }

    #[test]
    fn each_fault_of_a_file_is_said_in_words() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        assert_eq!(why(&d.join("gone.muster")), "there is no such file");
        let not_muster = "not a Muster file: it does not begin as Muster's saved games do";
        for (name, bytes) in [
            ("notes.txt", &b"expected ident"[..]),
            ("picture.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"),
            ("other.json", br#"{"name": "x", "format": "muster-deck"}"#),
            ("empty.muster", b""),
        ] {
            assert_eq!(why(&file(d, name, bytes)), not_muster, "{name}");
        }
        let cut = &SAVE[..30];
        assert_eq!(
            why(&file(d, "cut.muster", cut.as_bytes())),
            "cut short: its text stops at byte 30 before its end (a save that was not finished, or a copy cut off)"
        );
        let damaged = SAVE.replace("\"schema\"", "#schema\"");
        assert_eq!(
            why(&file(d, "damaged.muster", damaged.as_bytes())),
            "damaged at byte 31 (line 3, column 3): key must be a string there"
        );
        let mut bytes = SAVE.as_bytes().to_vec();
        bytes[40] = 0xff;
        assert_eq!(
            why(&file(d, "byte.muster", &bytes)),
            "damaged at byte 40: not text there"
        );
        let (text, format) = read_muster(&file(d, "good.muster", SAVE.as_bytes())).unwrap();
        assert_eq!((text.as_str(), format.as_str()), (SAVE, "muster-deck"));
        // Spaced as a hand may leave it.
        let spaced = " { \"format\" :\n\"muster-deck\", \"schema\": 1}";
        let (_, format) = read_muster(&file(d, "spaced.muster", spaced.as_bytes())).unwrap();
        assert_eq!(format, "muster-deck");
    }

    #[test]
    fn a_byte_is_counted_from_the_files_start() {
        let text = "ab\ncd\nef";
        assert_eq!(byte_at(text, 1, 1), 0);
        assert_eq!(byte_at(text, 2, 2), 4);
        assert_eq!(byte_at(text, 3, 1), 6);
        assert_eq!(byte_at(text, 9, 9), text.len());
    }
}
