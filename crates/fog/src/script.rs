//! The scripting interface: one JSON command per line in, one JSON result per
//! line out. The commands are the ones the app sends (`battle::Command`),
//! each followed, as in the window, by what the rules force after it (the
//! last compulsory piece: `muster_core::seat::play`), plus
//! `{"cmd": "undo"}` and `{"cmd": "redo"}`; dice are given in each command,
//! either typed (`"dice": [4]`) or `"dice": "app"` for the app's dice.
//!
//! Passphrases are given as on the owner's screen: `set_army` may carry one
//! (it sets the player's passphrase), `unlock` gives it for a battle read
//! from a file, and the secret commands (`Secret`) carry it to seal or open a
//! record; the battle only ever sees the sealed record. A line that cannot
//! be read (not UTF-8, not JSON, an unknown command) gets its own refusal
//! with its line number, and the script goes on.

use crate::battle::{
    AmbushContent, Battle, Command, FlankMarchPlan, RevealReason, reveal_ambush, reveal_plan,
    seal_ambush, seal_march,
};
use muster_core::dice::DiceInput;
use muster_core::error::RuleError;
use muster_core::intel::Lock;
use muster_core::script::{failure, parse_line, read, run_lines};
use muster_core::seat::{Refused, play};
use muster_core::side::Side;
use serde::Deserialize;
use serde_json::{Value, json};
use std::io::{BufRead, Write};

/// Runs every line of `input` against `battle`, writing one result line each
/// to `out`. Returns how many lines failed.
pub fn run(battle: &mut Battle, input: impl BufRead, out: impl Write) -> std::io::Result<usize> {
    run_lines(input, out, |line, number| run_line(battle, line, number))
}

/// The commands that carry a passphrase: each becomes what the owner's
/// screen would do with it.
#[derive(Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
enum Secret {
    /// An army with the player's new passphrase.
    SetArmy {
        side: Side,
        army: crate::army::Army,
        passphrase: String,
    },
    Unlock {
        side: Side,
        passphrase: String,
    },
    SealAmbush {
        side: Side,
        at: [f64; 2],
        content: AmbushContent,
        #[serde(default)]
        passphrase: String,
    },
    SealFlankMarch {
        side: Side,
        plan: FlankMarchPlan,
        #[serde(default)]
        passphrase: String,
    },
    RevealFlankMarch {
        side: Side,
        march: usize,
        #[serde(default)]
        passphrase: String,
        straggling: Vec<DiceInput>,
    },
    RevealAmbush {
        side: Side,
        marker: usize,
        #[serde(default)]
        passphrase: String,
        reason: RevealReason,
    },
}

impl Secret {
    /// Carries the secret out; the events of the command it became.
    fn run(self, battle: &mut Battle) -> Result<Value, RuleError> {
        match self.command(battle)? {
            Some(command) => play(battle, command)
                .map(|events| json!(events))
                .map_err(Refused::into_error),
            None => Ok(json!([])),
        }
    }

    /// The command the owner's screen makes of the secret with his
    /// passphrase (an unlock makes none: it is carried out here).
    fn command(self, battle: &mut Battle) -> Result<Option<Command>, RuleError> {
        let command = match self {
            Secret::SetArmy {
                side,
                army,
                passphrase,
            } => {
                let (lock, key) = Lock::create(&passphrase, &[&army.player, &army.name])?;
                battle.hold_key(side, &key)?;
                Command::SetArmy {
                    side,
                    army,
                    lock: Some(lock),
                }
            }
            Secret::Unlock { side, passphrase } => {
                battle.unlock(side, &passphrase)?;
                return Ok(None);
            }
            Secret::SealAmbush {
                side,
                at,
                content,
                passphrase,
            } => {
                let key = battle.seal_key(side, &passphrase)?;
                seal_ambush(battle.state(), battle.ruleset(), side, at, content, &key)?
            }
            Secret::SealFlankMarch {
                side,
                plan,
                passphrase,
            } => {
                let key = battle.seal_key(side, &passphrase)?;
                seal_march(battle.state(), battle.ruleset(), side, &plan, &key, false)?
            }
            Secret::RevealFlankMarch {
                side,
                march,
                passphrase,
                straggling,
            } => {
                let key = battle.seal_key(side, &passphrase)?;
                reveal_plan(battle.state(), side, march, &key, straggling)?
            }
            Secret::RevealAmbush {
                side,
                marker,
                passphrase,
                reason,
            } => {
                let key = battle.seal_key(side, &passphrase)?;
                reveal_ambush(battle.state(), side, marker, &key, reason)?
            }
        };
        Ok(Some(command))
    }
}

/// The command a script line gives, as the machine it is given on makes it
/// (a secret sealed or opened there with the passphrase the line carries),
/// without applying it: what a remote game sends through its own path.
/// `None` for a line that is carried out at once (an unlock).
pub fn command(
    battle: &mut Battle,
    line: &str,
    number: usize,
) -> Result<Option<Command>, RuleError> {
    let value = parse_line(line, number)?;
    let cmd = value.get("cmd").and_then(Value::as_str).map(str::to_owned);
    match cmd.as_deref() {
        Some("set_army") if value.get("passphrase").is_some() => {
            read::<Secret>(value, number)?.command(battle)
        }
        Some(
            "unlock" | "seal_ambush" | "seal_flank_march" | "reveal_flank_march" | "reveal_ambush",
        ) => read::<Secret>(value, number)?.command(battle),
        _ => read::<Command>(value, number).map(Some),
    }
}

/// `T` from a command's JSON, or a refusal naming the line and the field.
/// The commands a script may send, for the refusal of an unknown one.
const COMMANDS: &str = "configure, set_army, unlock, roll_initiative, choose_territory, choose_compulsory, select_terrain, finish_selection, place_waterway, roll_going, roll_placement, place_piece, roll_adjustment, adjust, place_road, decline_road, place_camp, place_fortification, finish, seal_ambush, seal_flank_march, finish_flank_marches, deploy_batch, commit_dismount, roll_moves_first, end_turn, roll_arrival, reveal_flank_march, reveal_ambush, undo, redo";

/// One line's result as JSON.
pub fn run_line(battle: &mut Battle, line: &str, number: usize) -> Value {
    let value = match parse_line(line, number) {
        Ok(v) => v,
        Err(e) => return failure(&e),
    };
    let cmd = value.get("cmd").and_then(Value::as_str).map(str::to_owned);
    let has_passphrase = value.get("passphrase").is_some();
    let outcome = match cmd.as_deref() {
        None => Err(RuleError::new(
            "script",
            format!("line {number}: a command is a JSON object with \"cmd\" naming it"),
        )),
        Some("undo") => battle.undo().map(|()| json!([])),
        Some("redo") => battle.redo().map(|()| json!([])),
        Some("set_army") if has_passphrase => {
            read::<Secret>(value, number).and_then(|s| s.run(battle))
        }
        Some(
            "unlock" | "seal_ambush" | "seal_flank_march" | "reveal_flank_march" | "reveal_ambush",
        ) => read::<Secret>(value, number).and_then(|s| s.run(battle)),
        Some(name) if !COMMANDS.split(", ").any(|c| c == name) => Err(RuleError::new(
            "script",
            format!("line {number}: unknown command \"{name}\"; the commands are {COMMANDS}"),
        )),
        Some(_) => read::<Command>(value, number).and_then(|command| {
            play(battle, command)
                .map(|events| json!(events))
                .map_err(Refused::into_error)
        }),
    };
    match outcome {
        Ok(events) => json!({"ok": true, "events": events}),
        Err(e) => failure(&e),
    }
}
