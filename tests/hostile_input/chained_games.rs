//! The action deck, hidden forces and dummy wings: their files, data files
//! and scripts. Besides mutated files (which the chain refuses), files are
//! forged as an opponent would: one value of the setup or the log changed
//! and every hash recomputed, so only the rules can refuse them, at load or
//! at the next command.

use super::{any_json, example_lines, mutate, refusals_are_in_words};
use muster::core::dice::AppDice;
use muster::core::store::chained::{self, System, rechain};
use muster::deck::CardSet;
use muster::map_intel::scenario::{Army, Scenario};
use muster::map_intel::wings;
use muster::{deck, map_intel};

use proptest::prelude::*;
use serde_json::{Value, json};

/// What the tests need of each system beyond its file.
trait Scripted: System {
    /// The example script's name, under `examples/scripts/`.
    const SCRIPT: &'static str;
    /// Runs a script's lines on `game` (started by its first line when
    /// `None`), the dice seeded; the results written to `out`.
    fn run(game: &mut Option<Self>, script: &str, out: &mut Vec<u8>);
    /// Everything a window or printout reads of a game.
    fn look(&self);
}

impl Scripted for deck::Game {
    const SCRIPT: &'static str = "deck";
    fn run(game: &mut Option<Self>, script: &str, out: &mut Vec<u8>) {
        deck::script::run(game, Some(7), script.as_bytes(), out).expect("writes to memory");
    }
    fn look(&self) {
        let _ = self.log_lines();
        let _ = self.log_fingerprint();
        let _ = self.undoable();
        let _ = self.open_everything();
        for side in [muster::Side::South, muster::Side::North] {
            let _ = self.zones(side);
            let _ = self.private_log(side);
        }
        let _ = deck::export::summary_lines(self);
    }
}

impl Scripted for map_intel::Game {
    const SCRIPT: &'static str = "forces";
    fn run(game: &mut Option<Self>, script: &str, out: &mut Vec<u8>) {
        map_intel::script::run(game, script.as_bytes(), out).expect("writes to memory");
    }
    fn look(&self) {
        let _ = self.log_lines();
        let _ = self.table_view();
        for side in [muster::Side::South, muster::Side::North] {
            let _ = self.view(side);
            for id in 0..self.public().holders.len() + 1 {
                let _ = self.examine(side, id);
            }
        }
    }
}

impl Scripted for wings::game::Game {
    const SCRIPT: &'static str = "wings";
    fn run(game: &mut Option<Self>, script: &str, out: &mut Vec<u8>) {
        wings::script::run(game, Some(AppDice::seeded(7)), script.as_bytes(), out)
            .expect("writes to memory");
    }
    fn look(&self) {
        let _ = self.log_lines();
        let _ = self.odds();
        let _ = self.table_view();
        for side in [muster::Side::South, muster::Side::North] {
            let _ = self.view(side);
        }
    }
}

fn script_text(lines: &[Value]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// The example game, played to its end.
fn example<G: Scripted>() -> G {
    let mut game = None;
    G::run(
        &mut game,
        &script_text(&example_lines(&[G::SCRIPT])),
        &mut Vec::new(),
    );
    game.expect("the example script starts its game")
}

/// A script with one value changed anywhere: every line answered in JSON,
/// a refusal in words, and the game it leaves saves and reopens.
fn mutated_script<G: Scripted>(line: usize, pick: usize, with: Value) -> Result<(), TestCaseError> {
    let mut lines = example_lines(&[G::SCRIPT]);
    let n = lines.len();
    mutate(&mut lines[line % n], pick, with);
    let (mut game, mut out) = (None, Vec::new());
    G::run(&mut game, &script_text(&lines), &mut out);
    refusals_are_in_words(&out)?;
    if let Some(game) = game {
        game.look();
        let again: G = chained::from_json(&chained::to_json(&game))
            .map_err(|e| TestCaseError::fail(format!("what was accepted does not reopen: {e}")))?;
        prop_assert!(again.parts().log == game.parts().log);
    }
    Ok(())
}

/// The example game's file with one value of its setup or log changed and
/// every hash recomputed: `None` when the change is not even of the file's
/// types (serde refuses that at load, as `mutated_file` tries).
fn forge<G: Scripted>(text: &str, pick: usize, with: Value) -> Option<String> {
    let mut typed = false;
    let forged = rechain::<G::Setup, G::Entry>(text, G::FORMAT, G::SCHEMA, G::genesis, |parts| {
        let mut v = json!([parts.setup, parts.log]);
        mutate(&mut v, pick, with);
        if let Ok((setup, log)) = serde_json::from_value(v) {
            (parts.setup, parts.log, typed) = (setup, log, true);
        }
    })
    .expect("the example's file reads");
    typed.then_some(forged)
}

/// A forged file is refused in words, or opens to a game that every look
/// and every further command of the example survives.
fn forged_file<G: Scripted>(pick: usize, with: Value) -> Result<(), TestCaseError> {
    let text = chained::to_json(&example::<G>());
    let Some(forged) = forge::<G>(&text, pick, with) else {
        return Ok(());
    };
    match chained::from_json::<G>(&forged) {
        Err(e) => prop_assert!(!e.to_string().is_empty()),
        Ok(game) => {
            game.look();
            let mut game = Some(game);
            let mut out = Vec::new();
            G::run(
                &mut game,
                &script_text(&example_lines(&[G::SCRIPT])[1..]),
                &mut out,
            );
            refusals_are_in_words(&out)?;
            game.expect("a game stays").look();
        }
    }
    Ok(())
}

/// The example game's file with one value changed and the hashes left:
/// refused, never a panic.
fn mutated_file<G: Scripted>(pick: usize, with: Value) -> Result<(), TestCaseError> {
    let mut v: Value = serde_json::from_str(&chained::to_json(&example::<G>())).unwrap();
    let before = v.clone();
    mutate(&mut v, pick, with);
    let result = chained::from_json::<G>(&serde_json::to_string_pretty(&v).unwrap());
    if v != before {
        prop_assert!(result.is_err(), "an edit the chain does not catch");
    }
    Ok(())
}

/// A shipped data file with one value changed.
fn mutated_data(text: &str, pick: usize, with: Value) -> String {
    let mut v: Value = serde_json::from_str(text).unwrap();
    mutate(&mut v, pick, with);
    serde_json::to_string_pretty(&v).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn arbitrary_json_never_panics_a_loader_or_script(v in any_json()) {
        let text = v.to_string();
        let _ = deck::files::from_json(&text);
        let _ = CardSet::from_json(&text);
        let _ = map_intel::files::from_json(&text);
        let _ = Scenario::from_json(&text);
        let _ = Army::from_roster(&text);
        let _ = wings::files::from_json(&text);
        let _ = wings::scenario::from_json(&text);
        let _ = wings::game::armies_from_json(&text);
        for script in ["deck", "forces", "wings"] {
            let first = example_lines(&[script]).remove(0);
            for lines in [format!("{text}\n"), format!("{first}\n{text}\n")] {
                let mut out = Vec::new();
                match script {
                    "deck" => deck::Game::run(&mut None, &lines, &mut out),
                    "forces" => map_intel::Game::run(&mut None, &lines, &mut out),
                    _ => wings::game::Game::run(&mut None, &lines, &mut out),
                }
                refusals_are_in_words(&out)?;
            }
        }
    }

    #[test]
    fn mutated_deck_scripts(line in any::<usize>(), pick in any::<usize>(), with in any_json()) {
        mutated_script::<deck::Game>(line, pick, with)?;
    }

    #[test]
    fn mutated_forces_scripts(line in any::<usize>(), pick in any::<usize>(), with in any_json()) {
        mutated_script::<map_intel::Game>(line, pick, with)?;
    }

    #[test]
    fn mutated_wings_scripts(line in any::<usize>(), pick in any::<usize>(), with in any_json()) {
        mutated_script::<wings::game::Game>(line, pick, with)?;
    }

    #[test]
    fn forged_deck_files(pick in any::<usize>(), with in any_json(), plain in any_json()) {
        forged_file::<deck::Game>(pick, with)?;
        mutated_file::<deck::Game>(pick, plain)?;
    }

    #[test]
    fn forged_forces_files(pick in any::<usize>(), with in any_json(), plain in any_json()) {
        forged_file::<map_intel::Game>(pick, with)?;
        mutated_file::<map_intel::Game>(pick, plain)?;
    }

    #[test]
    fn forged_wings_files(pick in any::<usize>(), with in any_json(), plain in any_json()) {
        forged_file::<wings::game::Game>(pick, with)?;
        mutated_file::<wings::game::Game>(pick, plain)?;
    }

    #[test]
    fn mutated_card_sets_start_a_game_or_are_refused(pick in any::<usize>(), with in any_json()) {
        let text = mutated_data(deck::cards::EXAMPLE_JSON, pick, with);
        if let Ok(set) = CardSet::from_json(&text) {
            let mut first = example_lines(&["deck"]);
            first[0]["card_set"] = serde_json::to_value(&set).unwrap();
            let mut out = Vec::new();
            deck::Game::run(&mut None, &script_text(&first), &mut out);
            refusals_are_in_words(&out)?;
        }
    }

    #[test]
    fn mutated_scenarios_and_armies_never_panic(pick in any::<usize>(), with in any_json()) {
        let _ = Scenario::from_json(&mutated_data(map_intel::scenario::EXAMPLE_JSON, pick, with.clone()));
        let _ = wings::scenario::from_json(&mutated_data(wings::scenario::BUILTIN_JSON, pick, with.clone()));
        let _ = wings::game::armies_from_json(&mutated_data(wings::game::EXAMPLE_ARMIES_JSON, pick, with.clone()));
        let roster = Scenario::example().sides.south.to_roster();
        let _ = Army::from_roster(&mutated_data(&roster, pick, with));
    }
}
