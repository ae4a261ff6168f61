//! Hostile input for hidden forces and dummy wings, as an opponent or a
//! broken disk makes it: arbitrary JSON and mutated real files, scenarios,
//! rosters, armies and scripts thrown at every loader and at `muster script
//! --system forces|wings`, and files forged with every hash recomputed.
//! Nothing may panic, hang, wrap or allocate without bound; whatever is
//! refused is refused in words; whatever is accepted saves and reopens.

use muster_core::dice::AppDice;
use muster_core::side::Side;
use muster_map_intel::scenario::{Army, Scenario};
use muster_map_intel::{self as map_intel, wings};
use muster_testkit::chained::{Scripted, any_line, forged_file, mutated_file, mutated_script};
use muster_testkit::json::{any_json, mutated_data};
use proptest::prelude::*;

fn run_forces(game: &mut Option<map_intel::Game>, script: &str, out: &mut Vec<u8>) {
    map_intel::script::run(game, script.as_bytes(), out).expect("writes to memory");
}

fn look_forces(game: &map_intel::Game) {
    let _ = game.log_lines();
    let _ = game.table_view();
    for side in Side::BOTH {
        let view = game.view(side);
        for id in 0..game.public().holders.len() + 1 {
            let _ = game.examine(side, id);
        }
        let _ = map_intel::screens::ledger(game, &view, side, &Default::default());
    }
}

fn run_wings(game: &mut Option<wings::game::Game>, script: &str, out: &mut Vec<u8>) {
    wings::script::run(game, Some(AppDice::seeded(7)), script.as_bytes(), out)
        .expect("writes to memory");
}

fn look_wings(game: &wings::game::Game) {
    let _ = game.log_lines();
    let _ = game.odds();
    let _ = game.table_view();
    for side in Side::BOTH {
        let seen = game.view(side);
        let _ = wings::screens::counters(game, &seen, side, &Default::default());
    }
}

const FORCES: Scripted<map_intel::Game> = Scripted {
    script: "forces",
    run: run_forces,
    look: look_forces,
};

const WINGS: Scripted<wings::game::Game> = Scripted {
    script: "wings",
    run: run_wings,
    look: look_wings,
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn arbitrary_json_never_panics_a_loader_or_script(v in any_json()) {
        let text = v.to_string();
        let _ = map_intel::files::from_json(&text);
        let _ = Scenario::from_json(&text);
        let _ = Army::from_roster(&text);
        let _ = wings::files::from_json(&text);
        let _ = wings::scenario::from_json(&text);
        let _ = wings::game::armies_from_json(&text);
        any_line(&FORCES, &text)?;
        any_line(&WINGS, &text)?;
    }

    #[test]
    fn mutated_forces_scripts(line in any::<usize>(), pick in any::<usize>(), with in any_json()) {
        mutated_script(&FORCES, line, pick, with)?;
    }

    #[test]
    fn mutated_wings_scripts(line in any::<usize>(), pick in any::<usize>(), with in any_json()) {
        mutated_script(&WINGS, line, pick, with)?;
    }

    #[test]
    fn forged_forces_files(pick in any::<usize>(), with in any_json(), plain in any_json()) {
        forged_file(&FORCES, pick, with)?;
        mutated_file(&FORCES, pick, plain)?;
    }

    #[test]
    fn forged_wings_files(pick in any::<usize>(), with in any_json(), plain in any_json()) {
        forged_file(&WINGS, pick, with)?;
        mutated_file(&WINGS, pick, plain)?;
    }

    #[test]
    fn mutated_scenarios_rosters_and_armies_never_panic(pick in any::<usize>(), with in any_json()) {
        let _ = Scenario::from_json(&mutated_data(map_intel::scenario::EXAMPLE_JSON, pick, with.clone()));
        let _ = wings::scenario::from_json(&mutated_data(wings::scenario::BUILTIN_JSON, pick, with.clone()));
        let _ = wings::game::armies_from_json(&mutated_data(wings::game::EXAMPLE_ARMIES_JSON, pick, with.clone()));
        let roster = Scenario::example().sides.south.to_roster();
        let _ = Army::from_roster(&mutated_data(&roster, pick, with));
    }
}

/// Every line of both example games' logs: counts and nouns agree, no
/// pronoun, no doubled or empty punctuation.
#[test]
fn every_log_sentence_reads_as_english() {
    let forces = muster_testkit::chained::example(&FORCES);
    muster_testkit::grammar::assert_english(forces.log_lines().iter().map(String::as_str));
    let wings = muster_testkit::chained::example(&WINGS);
    muster_testkit::grammar::assert_english(wings.log_lines().iter().map(String::as_str));
}
