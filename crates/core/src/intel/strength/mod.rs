//! How long a guesser with the saved file takes to find a passphrase, and
//! the refusal of one he finds too soon (the protection of sealed records,
//! RULES 8.3-8.4: a record is opened only with its owner's key; the
//! manual's *Protection* chapter gives the numbers).
//!
//! The estimate is the guesser's own order of work, the least of three
//! ways: famous phrases written any way (`famous`), runs of words priced
//! by frequency and common pairs, famous phrases and numbers (`sequence`),
//! and zxcvbn's patterns (keyboard rows, dates, repeats, leaked
//! passwords). Each is multiplied by the variants of its case and its
//! separators. A passphrase is refused under `MIN_GUESSES_LOG10`.

mod famous;
mod fold;
mod lexicon;
mod sentence;
mod sequence;
#[cfg(test)]
mod tests;

use crate::error::{RuleError, refuse};
use sequence::Piece;

/// Guesses a second of one high-end graphics card against Muster's lock
/// (Argon2id, 64 MiB, 3 passes): Argon2id reads and writes about
/// (3 x passes - 1) x memory = 512 MiB a guess, and the fastest gaming card
/// (RTX 5090) moves 1.79 TB/s, about 3,300 guesses a second. Measured
/// rates agree (about 10,000 a second at a quarter of the memory).
pub const GPU_GUESSES_PER_SECOND: f64 = 3_300.0;

/// The fewest guesses a passphrase must take, as a power of ten: 10^12 is
/// about 9.6 years of that card, or a month of a hundred rented ones.
pub const MIN_GUESSES_LOG10: f64 = 14.0;

/// What a guesser needs to find a passphrase.
#[derive(Clone, Debug)]
pub struct Estimate {
    /// Guesses, as a power of ten.
    pub log10: f64,
    /// Why it falls that soon, in a player's words ("it is a well-known
    /// phrase with a year added").
    pub why: String,
}

/// The guesses a passphrase takes, the least of the guesser's ways.
/// `context` holds words the opponent knows (names, the army).
pub fn estimate(passphrase: &str, context: &[&str]) -> Estimate {
    let lexicon = lexicon::Lexicon::get();
    let folded = fold::fold(passphrase);
    let context: Vec<String> = context
        .iter()
        .flat_map(|c| c.split(|ch: char| !ch.is_alphanumeric()))
        .filter(|w| w.chars().count() >= 2)
        .map(fold::fold_word)
        .collect();
    let reading = sequence::cheapest(&folded.units, lexicon, &context);
    let pieces = reading.pieces;
    let variants = variants(&folded);
    let uses_words = pieces.iter().any(|p| matches!(p, Piece::Word { .. }));
    let lists = if uses_words {
        (lexicon::LISTS as f64).log10()
    } else {
        0.0
    };
    let mut best = Estimate {
        log10: reading.log10 + variants + lists,
        why: describe(&pieces),
    };
    if let Some((log10, why)) = famous::famous(passphrase, lexicon) {
        // A famous phrase is said to be one, even when its words alone
        // are guessed as soon: that is what the player recognises.
        let log10 = log10 + variants;
        if log10 < MIN_GUESSES_LOG10 || log10 < best.log10 {
            best = Estimate {
                log10: log10.min(best.log10),
                why,
            };
        }
    }
    let patterns = zxcvbn::zxcvbn(
        passphrase,
        &context.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    if patterns.guesses_log10() < best.log10 {
        let warning = patterns
            .feedback()
            .and_then(|f| f.warning())
            .map(|w| w.to_string().trim_end_matches('.').to_lowercase());
        best = Estimate {
            log10: patterns.guesses_log10(),
            why: match warning {
                Some(w) => format!("it follows a pattern guessers try early: {w}"),
                None => "it follows a pattern guessers try early (a common password, a keyboard row, a date or a repeat)".into(),
            },
        };
    }
    best
}

/// What the case and the separators add: a guesser tries all in lower
/// case, then capitals where each piece starts (a first letter, each
/// word's, all of them); capitals elsewhere are priced by the reading
/// itself. Words are run together or spaced: a single space is one of
/// those two first tries; each other kind of separator run (", ", "!",
/// "-") is one of a dozen he tries next. An apostrophe is part of a word's
/// spelling ("l'homme", "can't"): kept or dropped, one of two.
fn variants(folded: &fold::Folded) -> f64 {
    let case = if folded.upper == 0 { 0.0 } else { 4f64.log10() };
    let apostrophes = |run: &str| run.chars().all(|c| matches!(c, '\'' | '\u{2019}'));
    let mut kinds: Vec<&str> = folded
        .separators
        .iter()
        .map(|run| if apostrophes(run) { "'" } else { run.as_str() })
        .collect();
    kinds.sort();
    kinds.dedup();
    let separators: f64 = kinds
        .iter()
        .map(|run| match *run {
            " " | "'" => 2f64.log10(),
            _ => run.chars().count().min(2) as f64 * 12f64.log10(),
        })
        .sum();
    case + separators
}

/// Why the cheapest reading falls soon, in a player's words.
fn describe(pieces: &[Piece]) -> String {
    let words: Vec<&str> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Word { word, .. } => Some(word.as_str()),
            _ => None,
        })
        .collect();
    let paired = pieces
        .iter()
        .any(|p| matches!(p, Piece::Word { paired: true, .. }));
    let sentence = pieces
        .iter()
        .any(|p| matches!(p, Piece::Word { sentence: true, .. }));
    let phrases = pieces
        .iter()
        .filter(|p| matches!(p, Piece::Phrase { .. }))
        .count();
    let swapped = pieces.iter().any(|p| {
        matches!(
            p,
            Piece::Word { swapped: true, .. } | Piece::Phrase { swapped: true }
        )
    });
    let years = pieces
        .iter()
        .filter(|p| **p == Piece::Number { year: true })
        .count();
    let numbers = pieces
        .iter()
        .filter(|p| matches!(p, Piece::Number { year: false }))
        .count();
    let characters = pieces.iter().filter(|p| **p == Piece::Character).count();
    let mut added = Vec::new();
    if years > 0 {
        added.push("a year".to_string());
    }
    if numbers > 0 {
        added.push("digits".to_string());
    }
    if characters > 0 {
        added.push(crate::text::count(characters as u32, "character", "characters") + " more");
    }
    let why = if phrases > 0 {
        if !words.is_empty() {
            added.insert(0, format!("the common words {}", quoted(&words)));
        }
        let what = if phrases > 1 {
            "it is made of well-known phrases"
        } else {
            "it is a well-known phrase"
        };
        join(what, &added)
    } else if !words.is_empty() {
        let how = if sentence {
            "common words in the order of a sentence"
        } else if paired {
            "common words that often go together"
        } else {
            "common words"
        };
        join(&format!("it is made of {how} ({})", quoted(&words)), &added)
    } else if characters > 0 && years + numbers == 0 {
        format!(
            "it is too short: {}, each tried among all of its kind",
            crate::text::count(characters as u32, "character", "characters")
        )
    } else {
        join("it is mostly numbers", &[])
    };
    if swapped {
        format!("{why}, written with digits or symbols for letters")
    } else {
        why
    }
}

fn quoted(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| format!("\"{w}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

fn join(what: &str, added: &[String]) -> String {
    match added {
        [] => what.to_string(),
        [one] => format!("{what}, with {one} added"),
        [rest @ .., last] => format!("{what}, with {} and {last} added", rest.join(", ")),
    }
}

/// How long the guesses take one graphics card, in words.
fn time(log10: f64) -> String {
    let seconds = 10f64.powf(log10) / GPU_GUESSES_PER_SECOND;
    let units = [
        (365.25 * 86_400.0, "year", "years"),
        (86_400.0, "day", "days"),
        (3_600.0, "hour", "hours"),
        (60.0, "minute", "minutes"),
    ];
    for (size, one, many) in units {
        if seconds >= size {
            let n = (seconds / size).round() as u64;
            return format!("in about {}", crate::text::count(n, one, many));
        }
    }
    "within a minute".into()
}

/// Refuses a passphrase an offline guesser would find: any PIN (digits
/// only), and anything he finds in fewer than 10^14 guesses (see
/// `estimate`), saying why and offering six random words.
pub fn check_strength(passphrase: &str, context: &[&str]) -> Result<(), RuleError> {
    let weak = |why: &str, when: &str| {
        let offer = match super::suggest_passphrase() {
            Ok(words) => {
                format!("Use six random words instead, such as \"{words}\", or click Suggest one.")
            }
            Err(_) => "Use six random words instead: click Suggest one.".into(),
        };
        refuse(
            "trust",
            format!(
                "That passphrase is too weak: {why}. A guesser with the saved file and one graphics card would find it {when}. {offer}"
            ),
        )
    };
    if passphrase.trim().is_empty() {
        return weak("it is empty", "at once");
    }
    if passphrase
        .chars()
        .all(|c| c.is_ascii_digit() || c.is_whitespace() || c == '-')
    {
        return weak(
            "a PIN or any run of digits falls in seconds",
            "within a minute",
        );
    }
    let estimate = estimate(passphrase, context);
    if estimate.log10 < MIN_GUESSES_LOG10 {
        return weak(&estimate.why, &time(estimate.log10));
    }
    Ok(())
}
