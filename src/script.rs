//! The scripting interface: one JSON command per line in, one JSON result per
//! line out. The commands are the ones the app sends (`battle::Command`), plus
//! `{"cmd": "undo"}` and `{"cmd": "redo"}`; dice are given in each command,
//! either typed (`"dice": [4]`) or `"dice": "app"` for the battle's seeded
//! stream.
//!
//! Secrets are given with their owner's passphrase, as on his screen: the
//! script seals or opens them exactly as the app does, and the battle only
//! ever sees the sealed record (see `Secret`).

use crate::battle::{
    AmbushContent, Battle, Command, FlankMarchPlan, RevealReason, reveal_ambush, reveal_plan,
    seal_ambush, seal_plan,
};
use crate::dice::DiceInput;
use crate::error::RuleError;
use crate::side::Side;
use serde::Deserialize;
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

/// The commands that carry a secret in the clear with its passphrase; each
/// becomes the sealed (or opened) command the app would send.
#[derive(Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
enum Secret {
    SealAmbush {
        side: Side,
        at: [f64; 2],
        content: AmbushContent,
        passphrase: String,
    },
    SealFlankMarch {
        side: Side,
        plan: FlankMarchPlan,
        passphrase: String,
    },
    RevealFlankMarch {
        side: Side,
        march: usize,
        passphrase: String,
        straggling: Vec<DiceInput>,
    },
    RevealAmbush {
        side: Side,
        marker: usize,
        passphrase: String,
        reason: RevealReason,
    },
}

impl Secret {
    fn command(self, battle: &Battle) -> Result<Command, RuleError> {
        let (state, ruleset) = (battle.state(), battle.ruleset());
        match self {
            Secret::SealAmbush {
                side,
                at,
                content,
                passphrase,
            } => seal_ambush(state, ruleset, side, at, content, &passphrase),
            Secret::SealFlankMarch {
                side,
                plan,
                passphrase,
            } => seal_plan(state, ruleset, side, &plan, &passphrase),
            Secret::RevealFlankMarch {
                side,
                march,
                passphrase,
                straggling,
            } => reveal_plan(state, side, march, &passphrase, straggling),
            Secret::RevealAmbush {
                side,
                marker,
                passphrase,
                reason,
            } => reveal_ambush(state, side, marker, &passphrase, reason),
        }
    }
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
        Some("seal_ambush" | "seal_flank_march" | "reveal_flank_march" | "reveal_ambush") => {
            match serde_json::from_value::<Secret>(value) {
                Ok(secret) => secret
                    .command(battle)
                    .and_then(|command| battle.apply(command))
                    .map(|events| json!(events)),
                Err(e) => Err(RuleError::new("script", format!("line {number}: {e}"))),
            }
        }
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
