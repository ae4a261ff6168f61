//! A famous phrase written any way a guesser tries it first: any case,
//! spacing or punctuation, digits or symbols for letters ("v3ni"), a digit
//! or letter for a whole word ("1 am gr00t", "u", "r"), numbers or a year
//! anywhere in it ("fiat lux 2026"), its words in another order, its vowels
//! left out. What that costs him: the phrases he tries, times the variants.

use super::fold::fold_word;
use super::lexicon::{Lexicon, MIN_CONSONANTS, consonants};

/// Words a guesser writes as a digit or a letter ("1 am gr00t", "u r"):
/// each group read as its first.
const SAME_WORDS: [&[&str]; 11] = [
    &["1", "i", "one", "won"],
    &["2", "to", "too", "two"],
    &["4", "for", "four", "fore"],
    &["8", "ate", "eight"],
    &["u", "you"],
    &["r", "are"],
    &["n", "and"],
    &["y", "why"],
    &["c", "see", "sea"],
    &["b", "be", "bee"],
    &["ur", "your", "youre"],
];

/// The words of a phrase, and the numbers written among them.
pub(super) struct Read {
    pub words: Vec<String>,
    pub numbers: Vec<String>,
    /// How many kinds of digit or symbol were written for letters: a
    /// guesser's rules swap every e for 3 at once.
    pub swaps: usize,
}

/// Its words, folded as the word lists are, letters and digits only; a
/// word that mixes digits into letters read as the letters they stand for
/// ("v3ni" is "veni"), and numbers set apart ("1066 alea iacta est" is
/// "alea iacta est" and 1066). A digit or letter written for a whole word
/// (`SAME_WORDS`) is read as that word only when `same_words`, otherwise
/// each word as it is spelled; digits at either end of a word are a number
/// glued to it ("lux2026") when `glued`, otherwise letters ("4ll").
pub(super) fn read(text: &str, same_words: bool, glued: bool) -> Read {
    let mut read = Read {
        words: Vec::new(),
        numbers: Vec::new(),
        swaps: 0,
    };
    let mut swapped = Vec::new();
    for w in text
        .split(|c: char| !(c.is_alphanumeric() || c == '@' || c == '$'))
        .filter(|w| !w.is_empty())
    {
        let mut w = fold_word(w);
        let letters = w.chars().any(char::is_alphabetic);
        if glued && letters {
            let digit = |c: char| c.is_ascii_digit();
            let start = w.len() - w.trim_start_matches(digit).len();
            let end = w.trim_end_matches(digit).len();
            for number in [&w[..start], &w[end..]] {
                if !number.is_empty() {
                    read.numbers.push(number.to_string());
                }
            }
            w = w[start..end].to_string();
        }
        if letters {
            for c in w.chars().filter(|c| !c.is_alphabetic()) {
                if !swapped.contains(&c) {
                    swapped.push(c);
                }
            }
        }
        let w: String = w
            .chars()
            .filter_map(|c| match c {
                '@' => Some('a'),
                '$' => Some('s'),
                '0' if letters => Some('o'),
                '1' if letters => Some('i'),
                '3' if letters => Some('e'),
                '4' if letters => Some('a'),
                '5' if letters => Some('s'),
                '7' if letters => Some('t'),
                '8' if letters => Some('b'),
                '9' if letters => Some('g'),
                c if c.is_alphanumeric() => Some(c),
                _ => None,
            })
            .collect();
        if w.is_empty() {
            continue;
        }
        let same = SAME_WORDS
            .iter()
            .find(|g| same_words && g.contains(&w.as_str()));
        match same {
            Some(group) => read.words.push(group[0].to_string()),
            None if w.chars().all(|c| c.is_ascii_digit()) => read.numbers.push(w),
            None => read.words.push(w),
        }
    }
    read.swaps = swapped.len();
    read
}

/// What guessing a number among the words costs: a year of the last
/// century or so (a birth's, this one, the next), which a guesser tries
/// first; any other year from 1000 to 2099 (a battle's), which he tries
/// next; or any number of its length.
pub(super) fn number_log10(digits: &str) -> f64 {
    match digits.parse::<u32>() {
        Ok(LIKELY_YEARS_FROM..=LIKELY_YEARS_TO) if digits.len() == 4 => {
            f64::from(LIKELY_YEARS_TO - LIKELY_YEARS_FROM + 1).log10()
        }
        _ if is_year(digits) => 1100f64.log10(),
        _ => digits.len() as f64,
    }
}

/// The years a guesser tries before the others: people add their birth
/// year, this year or one near it.
const LIKELY_YEARS_FROM: u32 = 1920;
const LIKELY_YEARS_TO: u32 = 2039;

pub(super) fn is_year(digits: &str) -> bool {
    digits.len() == 4 && matches!(digits.parse::<u32>(), Ok(1000..=2099))
}

/// The guesses the passphrase takes as a famous phrase written another
/// way (log10, before its case and separators), and how it was written;
/// none if it is not one.
pub(super) fn famous(passphrase: &str, lexicon: &Lexicon) -> Option<(f64, String)> {
    [false, true]
        .into_iter()
        .filter_map(|glued| famous_read(read(passphrase, true, glued), lexicon))
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

fn famous_read(read: Read, lexicon: &Lexicon) -> Option<(f64, String)> {
    let Read {
        words,
        numbers,
        swaps,
    } = read;
    if words.is_empty() {
        return None;
    }
    let phrase = (lexicon.famous as f64).log10();
    let joined = words.concat();
    let mut sorted = words.clone();
    sorted.sort();
    let (mut cost, mut how) = if lexicon.joined.contains(&joined) {
        (phrase, Vec::new())
    } else if lexicon.sorted.contains(&sorted.join(" ")) {
        // Each order of its words is one more guess.
        let orders: f64 = (1..=words.len()).map(|n| (n as f64).log10()).sum();
        (phrase + orders, vec!["its words in another order"])
    } else {
        let bare = consonants(&joined);
        if bare.len() < MIN_CONSONANTS || !lexicon.consonants.contains(&bare) {
            return None;
        }
        (
            phrase + 2f64.log10(),
            vec!["its vowels left out or changed"],
        )
    };
    if !numbers.is_empty() {
        // Each number in any of the places between the words.
        let places = ((words.len() + 1) as f64).log10();
        cost += numbers
            .iter()
            .map(|n| number_log10(n) + places)
            .sum::<f64>();
        how.push(if numbers.iter().all(|n| is_year(n)) {
            "a year added"
        } else {
            "digits added"
        });
    }
    if swaps > 0 {
        cost += swaps as f64 * 2f64.log10();
        how.push("digits or symbols for letters");
    }
    let mut why = String::from("it is a well-known phrase");
    if !how.is_empty() {
        why.push_str(&format!(" with {}", how.join(" and ")));
    }
    Some((cost, why))
}
