//! Dummy wings in `muster script --wings`: the first line starts the game,
//! `{"cmd": "new", "battle": "rossbach", "south": {"name": "Fritz",
//! "units": [...]}, "north": {...}}` (each unit `{"id", "name", "arm":
//! "infantry"|"cavalry"|"artillery"|"leader", "ma", "ic", "rating"?}`, an
//! optional `"passphrase"` per side, `"activated": {"south": true, "north":
//! false}`, both activated when left out); then the commands the window
//! sends (`game::Command`, hexes as printed, dice `[4]` or `"app"`), and
//! `{"cmd": "odds"}` for the exact chances of the roll now due. Each
//! result lists the log's new lines, which name no face-down composition.

use super::game::{Command, Game, Setup, WingUnit};
use super::scenario::builtin;
use muster_core::dice::AppDice;
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
    units: Vec<WingUnit>,
}

fn both() -> Sides<bool> {
    Sides {
        south: true,
        north: true,
    }
}

#[derive(Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
enum New {
    New {
        battle: String,
        south: NewPlayer,
        north: NewPlayer,
        #[serde(default = "both")]
        activated: Sides<bool>,
        /// Torgau: Detachments each side forms.
        #[serde(default)]
        detachments: Sides<u8>,
    },
}

fn start(value: Value, number: usize, dice: AppDice) -> Result<Game, RuleError> {
    let New::New {
        battle,
        south,
        north,
        activated,
        detachments,
    } = read::<New>(value, number)?;
    let all = builtin();
    let Some(battle) = all.into_iter().find(|b| b.id == battle) else {
        let ids: Vec<String> = builtin().into_iter().map(|b| b.id).collect();
        return Err(RuleError::new(
            "27.6",
            format!(
                "line {number}: battle \"{battle}\" is not one of {}",
                ids.join(", ")
            ),
        ));
    };
    let mut locks = Sides::default();
    let mut keys = Sides::default();
    let mut players = Sides::default();
    let mut armies = Sides::default();
    for (side, player) in [(Side::South, south), (Side::North, north)] {
        if let Some(pass) = &player.passphrase {
            let (lock, key) = Lock::create(pass, &[&player.name])?;
            locks[side] = Some(lock);
            keys[side] = Some(key);
        }
        players[side] = player.name;
        armies[side] = player.units;
    }
    Game::new(
        Setup {
            battle,
            players,
            armies,
            activated,
            detachments,
            locks,
        },
        keys,
        dice,
    )
}

muster_core::scripted!(Game, Command);

/// Runs every line of `input` on `game` (started by the first line when
/// `None`, its app dice from `dice`), one result line each. Returns how
/// many lines failed.
pub fn run(
    game: &mut Option<Game>,
    mut dice: Option<AppDice>,
    input: impl BufRead,
    out: impl Write,
) -> std::io::Result<usize> {
    let new = "{\"cmd\": \"new\", \"battle\": …}";
    let start = |value, number| start(value, number, dice.take().unwrap_or_default());
    run_game(game, input, out, new, start, |g, cmd, _, _| {
        (cmd == "odds").then(|| match g.odds() {
            Some(o) => Ok(json!({
                "ok": true,
                "moving": format!("{}/{}", o.moving.num, o.moving.den),
                "stationary": format!("{}/{}", o.stationary.num, o.stationary.den),
            })),
            None => Err(RuleError::new("27.2.1", "no deployment roll is due")),
        })
    })
}
