//! The scripting interface's frame, for every system: one JSON command per
//! line in, one JSON result per line out. A line that cannot be read (too
//! long, not UTF-8, not JSON, a field wrong) gets its own refusal with its
//! line number and the field, and the script goes on.

use crate::core::error::RuleError;
use serde::Deserialize;
use serde_json::{Value, json};
use std::io::{BufRead, Write};

/// The longest line a script may have: far above any command.
const MAX_LINE_BYTES: usize = 1024 * 1024;

/// Runs `each` on every non-empty line of `input` (the line and its number)
/// and writes its result to `out`. Returns how many lines failed.
pub fn run_lines(
    mut input: impl BufRead,
    mut out: impl Write,
    mut each: impl FnMut(&str, usize) -> Value,
) -> std::io::Result<usize> {
    let mut failures = 0;
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            break;
        }
        let result = match std::str::from_utf8(&bytes) {
            _ if bytes.len() > MAX_LINE_BYTES => failure(&RuleError::new(
                "script",
                format!("line {number}: longer than {MAX_LINE_BYTES} bytes"),
            )),
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => each(line, number),
            Err(e) => failure(&RuleError::new(
                "script",
                format!(
                    "line {number}: not UTF-8 text (byte {} is not valid)",
                    e.valid_up_to() + 1
                ),
            )),
        };
        if result["ok"] == Value::Bool(false) {
            failures += 1;
        }
        writeln!(out, "{result}")?;
    }
    Ok(failures)
}

/// A refusal as a result line.
pub fn failure(e: &RuleError) -> Value {
    json!({"ok": false, "rule": e.rule, "error": e.message})
}

/// Reads a command from its JSON, naming the field of an error.
pub fn read<T: for<'de> Deserialize<'de>>(value: Value, number: usize) -> Result<T, RuleError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." {
            String::new()
        } else {
            format!("{path}: ")
        };
        RuleError::new(
            "script",
            format!("line {number}: {field}{}", e.into_inner()),
        )
    })
}

/// A line's JSON object, or the refusal naming the line.
pub fn parse_line(line: &str, number: usize) -> Result<Value, RuleError> {
    serde_json::from_str(line)
        .map_err(|e| RuleError::new("script", format!("line {number}: not a JSON command ({e})")))
}
