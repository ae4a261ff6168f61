//! Hostile input for the action deck, as an opponent or a broken disk
//! makes it: arbitrary JSON and mutated real files, card sets and scripts
//! thrown at every loader and at `muster script --system deck`, and files
//! forged with every hash recomputed. Nothing may panic, hang, wrap or
//! allocate without bound; whatever is refused is refused in words;
//! whatever is accepted saves and reopens. A fuzzer's job, done with
//! proptest so CI runs it in bounded time on every build.

use muster_core::side::Side;
use muster_deck::{self as deck, CardSet};
use muster_testkit::chained::{Scripted, any_line, forged_file, mutated_file, mutated_script};
use muster_testkit::json::{any_json, mutated_data};
use muster_testkit::scripts::{example_lines, refusals_are_in_words, script_text};
use proptest::prelude::*;

fn run(game: &mut Option<deck::Game>, script: &str, out: &mut Vec<u8>) {
    deck::script::run(game, Some(7), script.as_bytes(), out).expect("writes to memory");
}

fn look(game: &deck::Game) {
    let _ = game.log_lines();
    let _ = game.log_fingerprint();
    let _ = game.undoable();
    let _ = game.open_everything();
    for side in Side::BOTH {
        let _ = game.zones(side);
        let _ = game.private_log(side);
        let _ = deck::screens::hand(game, side, &Default::default());
    }
    let _ = (
        deck::export::summary_lines(game),
        deck::export::summary_table(game),
    );
}

const DECK: Scripted<deck::Game> = Scripted {
    script: "deck",
    run,
    look,
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn arbitrary_json_never_panics_a_loader_or_script(v in any_json()) {
        let text = v.to_string();
        let _ = deck::files::from_json(&text);
        let _ = CardSet::from_json(&text);
        any_line(&DECK, &text)?;
    }

    #[test]
    fn mutated_deck_scripts(line in any::<usize>(), pick in any::<usize>(), with in any_json()) {
        mutated_script(&DECK, line, pick, with)?;
    }

    #[test]
    fn forged_deck_files(pick in any::<usize>(), with in any_json(), plain in any_json()) {
        forged_file(&DECK, pick, with)?;
        mutated_file(&DECK, pick, plain)?;
    }

    #[test]
    fn mutated_card_sets_start_a_game_or_are_refused(pick in any::<usize>(), with in any_json()) {
        let text = mutated_data(deck::cards::EXAMPLE_JSON, pick, with);
        if let Ok(set) = CardSet::from_json(&text) {
            let mut first = example_lines(&["deck"]);
            first[0]["card_set"] = serde_json::to_value(&set).unwrap();
            let mut out = Vec::new();
            run(&mut None, &script_text(&first), &mut out);
            refusals_are_in_words(&out)?;
        }
    }
}

/// Every line of the example game's log: counts and nouns agree, no
/// pronoun, no doubled or empty punctuation.
#[test]
fn every_log_sentence_reads_as_english() {
    let game = muster_testkit::chained::example(&DECK);
    muster_testkit::grammar::assert_english(game.log_lines().iter().map(String::as_str));
}
