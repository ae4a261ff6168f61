//! Hostile input for a chained game (the deck, hidden forces, dummy
//! wings): its example script with one value changed, its file forged
//! with every hash recomputed, or changed and left unchained. Nothing may
//! panic; what is refused is refused in words; what is accepted saves,
//! reopens and plays on.

use crate::json::mutate;
use crate::scripts::{example_lines, refusals_are_in_words, script_text};
use muster_core::store::chained::{self, System, rechain};
use proptest::prelude::*;
use serde_json::{Value, json};

/// What the tests need of a system beyond its file.
pub struct Scripted<G> {
    /// The example script's name, under `examples/scripts/`.
    pub script: &'static str,
    /// Runs a script's lines on a game (started by its first line when
    /// `None`), the dice seeded; the results written to the buffer.
    pub run: fn(&mut Option<G>, &str, &mut Vec<u8>),
    /// Everything a window or printout reads of a game.
    pub look: fn(&G),
}

/// The example game, played to its end.
pub fn example<G: System>(s: &Scripted<G>) -> G {
    let mut game = None;
    (s.run)(
        &mut game,
        &script_text(&example_lines(&[s.script])),
        &mut Vec::new(),
    );
    game.expect("the example script starts its game")
}

/// A script with one value changed anywhere: every line answered in JSON,
/// a refusal in words, and the game it leaves saves and reopens.
pub fn mutated_script<G: System>(
    s: &Scripted<G>,
    line: usize,
    pick: usize,
    with: Value,
) -> Result<(), TestCaseError> {
    let mut lines = example_lines(&[s.script]);
    let n = lines.len();
    mutate(&mut lines[line % n], pick, with);
    let (mut game, mut out) = (None, Vec::new());
    (s.run)(&mut game, &script_text(&lines), &mut out);
    refusals_are_in_words(&out)?;
    if let Some(game) = game {
        (s.look)(&game);
        let again: G = chained::from_json(&chained::to_json(&game))
            .map_err(|e| TestCaseError::fail(format!("what was accepted does not reopen: {e}")))?;
        prop_assert!(again.parts().log == game.parts().log);
    }
    Ok(())
}

/// The example game's file with one value of its setup or log changed and
/// every hash recomputed: `None` when the change is not even of the file's
/// types (serde refuses that at load, as `mutated_file` tries).
pub fn forge<G: System>(text: &str, pick: usize, with: Value) -> Option<String> {
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
pub fn forged_file<G: System>(
    s: &Scripted<G>,
    pick: usize,
    with: Value,
) -> Result<(), TestCaseError> {
    let text = chained::to_json(&example(s));
    let Some(forged) = forge::<G>(&text, pick, with) else {
        return Ok(());
    };
    match chained::from_json::<G>(&forged) {
        Err(e) => prop_assert!(!e.to_string().is_empty()),
        Ok(game) => {
            (s.look)(&game);
            let mut game = Some(game);
            let mut out = Vec::new();
            (s.run)(
                &mut game,
                &script_text(&example_lines(&[s.script])[1..]),
                &mut out,
            );
            refusals_are_in_words(&out)?;
            (s.look)(&game.expect("a game stays"));
        }
    }
    Ok(())
}

/// The example game's file with one value changed and the hashes left:
/// refused, never a panic.
pub fn mutated_file<G: System>(
    s: &Scripted<G>,
    pick: usize,
    with: Value,
) -> Result<(), TestCaseError> {
    let mut v: Value = serde_json::from_str(&chained::to_json(&example(s))).unwrap();
    let before = v.clone();
    mutate(&mut v, pick, with);
    let result = chained::from_json::<G>(&serde_json::to_string_pretty(&v).unwrap());
    if v != before {
        prop_assert!(result.is_err(), "an edit the chain does not catch");
    }
    Ok(())
}

/// `text` as a script's only line, and after the example's first (which
/// starts a game): each answered in JSON, a refusal in words.
pub fn any_line<G: System>(s: &Scripted<G>, text: &str) -> Result<(), TestCaseError> {
    let first = example_lines(&[s.script]).remove(0);
    for lines in [format!("{text}\n"), format!("{first}\n{text}\n")] {
        let mut out = Vec::new();
        (s.run)(&mut None, &lines, &mut out);
        refusals_are_in_words(&out)?;
    }
    Ok(())
}
