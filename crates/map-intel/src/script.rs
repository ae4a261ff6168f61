//! Hidden forces in `muster script --forces`: the first line starts the
//! game, `{"cmd": "new", "south": {"name": "Ann"}, "north": {"name":
//! "Bob", "passphrase": "…"}}` (`"scenario"` a whole scenario, else the
//! example); then the commands the window sends (`game::Command`, hexes as
//! printed: `"to": "0909"`, targets `{"counter": 4}` or `{"new_force":
//! "0505"}`), and `{"cmd": "examine", "by": "north", "id": 4}`, refused
//! unless a rule lets him. Each result lists the log's new lines, which
//! name no face-down contents.

use super::game::{Command, Game};
use super::scenario::Scenario;
use super::setup::Setup;
use muster_core::error::RuleError;
use muster_core::intel::Lock;
use muster_core::script::{read, run_game};
use muster_core::side::{Side, Sides};
use serde::Deserialize;
use serde_json::{Value, json};
use std::io::{BufRead, Write};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPlayer {
    name: String,
    #[serde(default)]
    passphrase: Option<String>,
}

#[derive(Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
enum Other {
    New {
        south: NewPlayer,
        north: NewPlayer,
        #[serde(default)]
        scenario: Option<Box<Scenario>>,
    },
    Examine {
        by: Side,
        id: usize,
    },
}

fn start(value: Value, number: usize) -> Result<Game, RuleError> {
    let Other::New {
        south,
        north,
        scenario,
    } = read::<Other>(value, number)?
    else {
        return Err(RuleError::new(
            "script",
            format!("line {number}: start with \"new\""),
        ));
    };
    let mut locks = Sides::default();
    let mut keys = Sides::default();
    let mut players = Sides::default();
    for (side, player) in [(Side::South, south), (Side::North, north)] {
        if let Some(pass) = &player.passphrase {
            let (lock, key) = Lock::create(pass, &[&player.name])?;
            locks[side] = Some(lock);
            keys[side] = Some(key);
        }
        players[side] = player.name;
    }
    let scenario = scenario.map_or_else(Scenario::example, |s| *s);
    Game::new(
        Setup {
            scenario,
            players,
            locks,
        },
        keys,
    )
}

muster_core::scripted!(Game, Command);

/// Runs every line of `input` on `game` (started by the first line when
/// `None`), one result line each. Returns how many lines failed.
pub fn run(
    game: &mut Option<Game>,
    input: impl BufRead,
    out: impl Write,
) -> std::io::Result<usize> {
    let new = "{\"cmd\": \"new\", \"south\": …, \"north\": …}";
    run_game(game, input, out, new, start, |g, cmd, value, number| {
        (cmd == "examine").then(|| match read::<Other>(value.clone(), number)? {
            Other::Examine { by, id } => g
                .examine(by, id)
                .map(|units| json!({"ok": true, "units": units})),
            Other::New { .. } => Err(RuleError::new(
                "script",
                format!("line {number}: the game has started"),
            )),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_sets_up_moves_into_contact_and_examines() {
        let script = r#"{"cmd": "new", "south": {"name": "Ann"}, "north": {"name": "Bob"}}
{"cmd": "transfer", "side": "south", "from": 0, "to": {"new_force": "0505"}, "units": ["r-leg-3"]}
{"cmd": "place_exercitus", "side": "north", "number": 1, "hex": "0606", "units": []}
{"cmd": "examine", "by": "south", "id": 9}
{"cmd": "begin", "first": "south"}
{"cmd": "move", "id": 12, "to": "0606"}
{"cmd": "place_exercitus", "side": "north", "number": 1, "hex": "0707", "units": []}
{"cmd": "decline_replace", "side": "north", "number": 1}
{"cmd": "move", "id": 12, "to": "9999"}
"#;
        let mut game = None;
        let mut out = Vec::new();
        let failed = run(&mut game, script.as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(failed, 3, "{out}");
        assert!(
            lines[3].contains("\"ok\":false") && lines[3].contains("A2"),
            "{}",
            lines[3]
        );
        assert!(lines[5].contains("held no units"), "{}", lines[5]);
        assert!(lines[6].contains("A4"), "{}", lines[6]);
        assert!(lines[8].contains("9999"), "{}", lines[8]);
        assert!(!out.contains("Legio III"), "the legion stays hidden: {out}");
    }
}
