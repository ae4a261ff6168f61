//! The scripting interface's frame, for every system: one JSON command per
//! line in, one JSON result per line out. A line that cannot be read (too
//! long, not UTF-8, not JSON, a field wrong) gets its own refusal with its
//! line number and the field, and the script goes on.

use crate::error::RuleError;
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
        let Some(whole) = read_line_bounded(&mut input, &mut bytes, MAX_LINE_BYTES)? else {
            break;
        };
        let result = match std::str::from_utf8(&bytes) {
            _ if !whole => failure(&RuleError::new(
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

/// Reads one line into `line` (its end of line included), keeping at most
/// `max` bytes: the rest of a longer line is read and dropped without being
/// held, so a line without end (`/dev/zero`) costs no memory. `None` at the
/// end of the input; else whether the whole line fitted.
pub fn read_line_bounded(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<bool>> {
    line.clear();
    let mut read_any = false;
    let mut whole = true;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(read_any.then_some(whole));
        }
        read_any = true;
        let (chunk, done) = match buf.iter().position(|b| *b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let room = max.saturating_sub(line.len());
        if chunk.len() > room {
            whole = false;
        }
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len();
        input.consume(used);
        if done {
            return Ok(Some(whole));
        }
    }
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

#[derive(Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
enum Unlock {
    Unlock {
        side: crate::side::Side,
        passphrase: String,
    },
}

/// `{"cmd": "unlock", "side": "south", "passphrase": "…"}` in any system's
/// script: a player unlocks a game read from a file (`--battle`). Its
/// result never repeats the passphrase.
pub fn unlock(
    value: Value,
    number: usize,
    unlock: impl FnOnce(crate::side::Side, &str) -> Result<(), RuleError>,
) -> Result<Value, RuleError> {
    let Unlock::Unlock { side, passphrase } = read::<Unlock>(value, number)?;
    unlock(side, &passphrase)?;
    Ok(json!({"ok": true, "unlocked": side}))
}

/// A game a script drives: its commands, its unlock, its public log.
/// `Scripted` for a chained system's game: its commands applied by the
/// rules with what they force after them (`seat::play`), its unlock (`Game::unlock`), its ledger's log.
#[macro_export]
macro_rules! scripted {
    ($game:ty, $command:ty) => {
        impl $crate::script::Scripted for $game {
            type Command = $command;
            fn apply_command(&mut self, command: $command) -> Result<(), $crate::error::RuleError> {
                // A stall is reported; what was applied stays (and is saved).
                $crate::seat::play(self, command)
                    .map(drop)
                    .map_err($crate::seat::Refused::into_error)
            }
            fn unlock(
                &mut self,
                side: $crate::side::Side,
                passphrase: &str,
            ) -> Result<(), $crate::error::RuleError> {
                <$game>::unlock(self, side, passphrase)
            }
            fn log_lines(&self) -> &[String] {
                $crate::chained_game::OnLedger::record(self).log_lines()
            }
        }
    };
}

pub trait Scripted {
    type Command: for<'de> Deserialize<'de>;
    fn apply_command(&mut self, command: Self::Command) -> Result<(), RuleError>;
    fn unlock(&mut self, side: crate::side::Side, passphrase: &str) -> Result<(), RuleError>;
    fn log_lines(&self) -> &[String];
}

/// Runs a chained game's script: the first line starts the game (`start`,
/// given the `{"cmd": "new", …}` line), `unlock` and the game's own
/// commands follow, each result with the public log's new lines. `extra`
/// answers a system's other script commands (by `cmd`), or `None`.
/// `new` shows how a script starts, for the refusal of one that does not.
pub fn run_game<G: Scripted>(
    game: &mut Option<G>,
    input: impl BufRead,
    out: impl Write,
    new: &str,
    mut start: impl FnMut(Value, usize) -> Result<G, RuleError>,
    mut extra: impl FnMut(&mut G, &str, &Value, usize) -> Option<Result<Value, RuleError>>,
) -> std::io::Result<usize> {
    run_lines(input, out, |line, number| {
        let value = match parse_line(line, number) {
            Ok(v) => v,
            Err(e) => return failure(&e),
        };
        let cmd = value
            .get("cmd")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let outcome = match (game.as_mut(), cmd.as_str()) {
            (None, "new") => start(value, number).map(|g| {
                let log = g.log_lines().to_vec();
                *game = Some(g);
                json!({"ok": true, "log": log})
            }),
            (None, _) => Err(RuleError::new(
                "script",
                format!("line {number}: start with {new}"),
            )),
            (Some(_), "new") => Err(RuleError::new(
                "script",
                format!("line {number}: the game has started"),
            )),
            (Some(g), "unlock") => unlock(value, number, |side, pass| g.unlock(side, pass)),
            (Some(g), cmd) => match extra(g, cmd, &value, number) {
                Some(answer) => answer,
                None => read::<G::Command>(value, number).and_then(|command| {
                    let before = g.log_lines().len();
                    g.apply_command(command)?;
                    Ok(json!({"ok": true, "log": g.log_lines()[before..]}))
                }),
            },
        };
        outcome.unwrap_or_else(|e| failure(&e))
    })
}

/// A line's JSON object, or the refusal naming the line.
pub fn parse_line(line: &str, number: usize) -> Result<Value, RuleError> {
    serde_json::from_str(line)
        .map_err(|e| RuleError::new("script", format!("line {number}: not a JSON command ({e})")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read};

    /// Issue 21: `muster script /dev/zero` grew to 7 GB, the line read
    /// whole before its length was checked.
    #[test]
    fn a_line_without_end_is_refused_without_being_held() {
        let endless = std::io::repeat(0).take(40 * MAX_LINE_BYTES as u64);
        let input = BufReader::new(endless.chain(&b"\n{\"cmd\": \"x\"}\n"[..]));
        let mut line = Vec::new();
        let mut input = input;
        assert_eq!(
            read_line_bounded(&mut input, &mut line, MAX_LINE_BYTES).unwrap(),
            Some(false)
        );
        assert_eq!(line.len(), MAX_LINE_BYTES);
        assert!(line.capacity() <= 2 * MAX_LINE_BYTES, "{}", line.capacity());
        assert_eq!(
            read_line_bounded(&mut input, &mut line, MAX_LINE_BYTES).unwrap(),
            Some(true)
        );
        assert_eq!(line, b"{\"cmd\": \"x\"}\n");
        assert_eq!(
            read_line_bounded(&mut input, &mut line, MAX_LINE_BYTES).unwrap(),
            None
        );
    }

    #[test]
    fn a_too_long_line_is_refused_by_number_and_the_script_goes_on() {
        let mut text = vec![b'x'; MAX_LINE_BYTES + 10];
        text.extend_from_slice(b"\n\n{\"ok\": 1}");
        let mut out = Vec::new();
        let failures = run_lines(
            &text[..],
            &mut out,
            |line, n| json!({"ok": true, "line": n, "len": line.len()}),
        )
        .unwrap();
        assert_eq!(failures, 1);
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines[0].contains("line 1: longer than 1048576 bytes"),
            "{}",
            lines[0]
        );
        assert_eq!(lines[1], r#"{"len":9,"line":3,"ok":true}"#);
    }
}
