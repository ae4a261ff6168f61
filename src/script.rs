//! The scripting interface: one JSON command per line in, one JSON result per
//! line out. The commands are the ones the app sends (`battle::Command`), plus
//! `{"cmd": "undo"}` and `{"cmd": "redo"}`; dice are given in each command,
//! either typed (`"dice": [4]`) or `"dice": "app"` for the battle's seeded
//! stream.

use crate::battle::{Battle, Command};
use crate::error::RuleError;
use serde_json::{Value, json};
use std::io::{BufRead, Write};

/// Runs every line of `input` against `battle`, writing one result line each
/// to `out`. Returns how many lines failed.
pub fn run(
    battle: &mut Battle,
    input: impl BufRead,
    mut out: impl Write,
) -> std::io::Result<usize> {
    let mut failures = 0;
    for (i, line) in input.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let result = run_line(battle, &line, i + 1);
        if result["ok"] == Value::Bool(false) {
            failures += 1;
        }
        writeln!(out, "{result}")?;
    }
    Ok(failures)
}

fn failure(e: &RuleError) -> Value {
    json!({"ok": false, "rule": e.rule, "error": e.message})
}

/// One line's result as JSON.
pub fn run_line(battle: &mut Battle, line: &str, number: usize) -> Value {
    let value: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            return failure(&RuleError::new("script", format!("line {number}: {e}")));
        }
    };
    let outcome = match value.get("cmd").and_then(Value::as_str) {
        Some("undo") => battle.undo().map(|()| json!([])),
        Some("redo") => battle.redo().map(|()| json!([])),
        _ => match serde_json::from_value::<Command>(value) {
            Ok(command) => battle.apply(command).map(|events| json!(events)),
            Err(e) => Err(RuleError::new("script", format!("line {number}: {e}"))),
        },
    };
    match outcome {
        Ok(events) => json!({"ok": true, "events": events}),
        Err(e) => failure(&e),
    }
}
