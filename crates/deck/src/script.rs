//! The action deck in `muster script --deck`: the first line starts the
//! game, `{"cmd": "new", "south": {...}, "north": {...}}` (each seat's
//! name, army, hand size and, if he has one, passphrase; `"card_set"` a
//! whole card set, else the example); then the commands the window sends
//! (`deck::Command`), cards given by id where the player chooses and
//! `"app"` where the deck deals, and `{"cmd": "undo"}` (a declared,
//! skipped or ended phase only). Each result lists the public log's new
//! lines: no card of a hand is ever printed.

use super::CardSet;
use super::game::{Command, Game};
use super::setup::{Seat, Setup};
use muster_core::dice::AppDice;
use muster_core::error::RuleError;
use muster_core::intel::Lock;
use muster_core::script::{read, run_game};
use muster_core::side::Sides;
use serde::Deserialize;
use serde_json::{Value, json};
use std::io::{BufRead, Write};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewSeat {
    name: String,
    army: String,
    hand_size: Option<usize>,
    #[serde(default)]
    passphrase: Option<String>,
}

#[derive(Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
enum New {
    New {
        south: NewSeat,
        north: NewSeat,
        #[serde(default)]
        card_set: Option<CardSet>,
    },
}

fn start(value: Value, number: usize, seed: Option<u64>) -> Result<Game, RuleError> {
    let New::New {
        south,
        north,
        card_set,
    } = read::<New>(value, number)?;
    let set = match card_set {
        Some(set) => {
            set.check().map_err(|(f, m)| {
                RuleError::new("script", format!("line {number}: card_set.{f}: {m}"))
            })?;
            set
        }
        None => CardSet::example(),
    };
    let mut locks = Sides::default();
    let mut keys = Sides::default();
    let mut seat = |seat: NewSeat, side| -> Result<Seat, RuleError> {
        if let Some(pass) = &seat.passphrase {
            let (lock, key) = Lock::create(pass, &[&seat.name])?;
            locks[side] = Some(lock);
            keys[side] = Some(key);
        }
        let hand_size = seat
            .hand_size
            .or_else(|| set.army(&seat.army).map(|a| a.hand_size))
            .unwrap_or(7);
        Ok(Seat {
            name: seat.name,
            army: seat.army,
            hand_size,
        })
    };
    let seats = Sides {
        south: seat(south, muster_core::side::Side::South)?,
        north: seat(north, muster_core::side::Side::North)?,
    };
    let mut game = Game::new(
        Setup {
            set,
            seats,
            locks,
            picks: Sides::default(),
        },
        keys,
    )?;
    if let Some(seed) = seed {
        game.use_dealer(AppDice::seeded(seed));
    }
    Ok(game)
}

muster_core::scripted!(Game, Command);

/// Runs every line of `input` on `game` (started by the first line when
/// `None`), one result line each. Returns how many lines failed.
pub fn run(
    game: &mut Option<Game>,
    seed: Option<u64>,
    input: impl BufRead,
    out: impl Write,
) -> std::io::Result<usize> {
    let new = "{\"cmd\": \"new\", \"south\": …, \"north\": …}";
    let start = |value, number| start(value, number, seed);
    run_game(game, input, out, new, start, |g, cmd, _, _| {
        (cmd == "undo").then(|| g.undo().map(|what| json!({"ok": true, "undone": what})))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_plays_cards_by_id_and_the_deck_deals_app() {
        let script = r#"{"cmd": "new", "south": {"name": "Decius", "army": "romans"}, "north": {"name": "Artagur", "army": "gauls"}}
{"cmd": "choose_first", "active": "south"}
{"cmd": "play_event", "player": "north", "card": "e-omens"}
{"cmd": "end_phase"}
{"cmd": "declare", "plays": true}
{"cmd": "interrupt", "player": "north", "card": null}
{"cmd": "play", "player": "south", "card": "app", "use": "rally"}
{"cmd": "reshuffle", "player": "south"}
{"cmd": "play", "player": "south", "card": "app", "use": "rally", "to": "sideways"}
"#;
        let mut game = None;
        let mut out = Vec::new();
        let failures = run(&mut game, Some(3), script.as_bytes(), &mut out).unwrap();
        let lines: Vec<Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(failures, 3, "{lines:?}");
        assert_eq!(lines[2]["rule"], "RULES-deck 6");
        assert!(
            lines[6]["log"][0]
                .as_str()
                .unwrap()
                .contains("drawn from their deck")
        );
        assert!(
            lines[7]["error"]
                .as_str()
                .unwrap()
                .contains("No voluntary reshuffle")
        );
        let bad = lines[8]["error"].as_str().unwrap();
        assert!(
            bad.contains("line 9") && bad.contains("sideways") && bad.contains("discard"),
            "{bad}"
        );
        let g = game.unwrap();
        assert_eq!(g.public().counts.south.removed, 1);
    }
}
