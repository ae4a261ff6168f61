//! A passphrase as a guesser reads it: its letters folded the way the word
//! lists are (lowercase, accents dropped, j read as i, ß as ss, œ as oe), digits and symbols
//! written for letters read as those letters ("v3ni" is "veni", "p@x" is
//! "pax"), and its separators (spaces, hyphens, punctuation) set apart:
//! a guesser tries each phrase with and without them, so they are priced
//! once for the whole passphrase, not word by word.

use unicode_normalization::UnicodeNormalization;

/// What one character of a passphrase is to a guesser.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Kind {
    Letter,
    Digit,
    Symbol,
}

/// One character of the passphrase that is not a separator.
#[derive(Clone, Copy, Debug)]
pub(super) struct Unit {
    pub kind: Kind,
    /// As written.
    pub raw: char,
    /// The letter it is read as: itself folded, or the letter a digit or
    /// symbol may stand for.
    pub letter: Option<char>,
    /// Written as a digit or symbol for that letter (a guesser tries each
    /// such swap as one more variant).
    pub swapped: bool,
    /// The same digit or symbol came before: a guesser's rules swap every
    /// e for 3 at once, so only the first of a kind is one more variant.
    pub again: bool,
    /// A capital letter.
    pub upper: bool,
    /// A separator other than an apostrophe comes right before it, or the
    /// apostrophe of an elision ("l'homme"): the passphrase marks a word's
    /// start there ("can't" is one word).
    pub boundary: bool,
    /// The last letter of an elided word ("l" of "l'homme", "qu" of
    /// "qu'avec"): the word it stands for is in `ELISIONS`.
    pub elided: bool,
}

/// French and Italian write these words without their last vowel before
/// a word that starts with a vowel or h, with an apostrophe: "l'homme",
/// "qu'avec", "j'ai" (j is read as i), "dell'anno", "ch'io". Each is read
/// as the word it stands for.
const ELISIONS: [(&str, &str); 22] = [
    ("l", "le"),
    ("d", "de"),
    ("s", "se"),
    ("n", "ne"),
    ("c", "ce"),
    ("m", "me"),
    ("t", "te"),
    ("qu", "que"),
    ("dell", "della"),
    ("nell", "nella"),
    ("dall", "dalla"),
    ("sull", "sulla"),
    ("all", "alla"),
    ("un", "una"),
    ("i", "ie"),
    ("iusqu", "iusque"),
    ("lorsqu", "lorsque"),
    ("puisqu", "puisque"),
    ("ch", "che"),
    ("quell", "quello"),
    ("quest", "questo"),
    ("dov", "dove"),
];

/// The word an elided one stands for ("le" for "l"), if it is one.
pub(super) fn unelided(elided: &str) -> Option<&'static str> {
    ELISIONS
        .iter()
        .find(|(e, _)| *e == elided)
        .map(|(_, word)| *word)
}

/// The passphrase read: its units, and the separators between them.
#[derive(Debug, Default)]
pub(super) struct Folded {
    pub units: Vec<Unit>,
    /// Each run of separators, as written.
    pub separators: Vec<String>,
    /// How many of its letters are capitals, and how many are not.
    pub upper: usize,
    pub lower: usize,
}

/// Separators: what a guesser puts between, before and after words.
pub(super) fn is_separator(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '-' | '_'
                | '.'
                | ','
                | '\''
                | '\u{2019}'
                | '"'
                | ':'
                | ';'
                | '!'
                | '?'
                | '/'
                | '('
                | ')'
        )
}

/// The letter a digit or symbol stands for in a word ("l33t").
fn swap(c: char) -> Option<char> {
    Some(match c {
        '0' => 'o',
        '1' | '!' | '|' => 'i',
        '3' => 'e',
        '4' | '@' => 'a',
        '5' | '$' => 's',
        '7' | '+' => 't',
        '8' => 'b',
        '9' => 'g',
        _ => return None,
    })
}

/// A word folded as the lists are: lowercase, accents dropped, j as i, ß
/// as ss, œ as oe and æ as ae (as the lists write them).
pub(super) fn fold_word(word: &str) -> String {
    // Most of the famous phrases are plain ASCII already: no accents to
    // drop (the famous phrases load in half the time).
    if word.is_ascii() {
        return word
            .chars()
            .map(|c| match c.to_ascii_lowercase() {
                'j' => 'i',
                c => c,
            })
            .collect();
    }
    let mut folded = String::with_capacity(word.len());
    for c in word
        .nfd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .flat_map(char::to_lowercase)
    {
        match c {
            'j' => folded.push('i'),
            'ß' => folded.push_str("ss"),
            // The ligatures are two letters in the lists ("coeur").
            'œ' => folded.push_str("oe"),
            'æ' => folded.push_str("ae"),
            c => folded.push(c),
        }
    }
    folded
}

/// Reads a passphrase.
pub(super) fn fold(passphrase: &str) -> Folded {
    let mut folded = Folded::default();
    let mut swaps = Vec::new();
    for (token, boundary, elided) in split_tokens(passphrase, &mut folded.separators) {
        if elided && let Some(last) = folded.units.last_mut() {
            last.elided = true;
        }
        for (at, c) in token.chars().enumerate() {
            let boundary = (boundary || elided) && at == 0;
            let upper = c.is_uppercase();
            if upper {
                folded.upper += 1;
            } else if c.is_lowercase() {
                folded.lower += 1;
            }
            if c.is_alphabetic() {
                // One letter for each the lists write ("ß" is "ss").
                let mut letters: Vec<Option<char>> = fold_word(c.encode_utf8(&mut [0; 4]))
                    .chars()
                    .map(Some)
                    .collect();
                if letters.is_empty() {
                    letters.push(None);
                }
                for (at, letter) in letters.into_iter().enumerate() {
                    folded.units.push(Unit {
                        kind: Kind::Letter,
                        raw: c,
                        letter,
                        swapped: false,
                        again: false,
                        upper,
                        boundary: boundary && at == 0,
                        elided: false,
                    });
                }
            } else {
                // Any digit may stand for a letter ("4" for "a"); the
                // reading decides whether it does.
                let letter = swap(c);
                let again = swaps.contains(&c);
                if letter.is_some() && !again {
                    swaps.push(c);
                }
                folded.units.push(Unit {
                    kind: if c.is_ascii_digit() {
                        Kind::Digit
                    } else {
                        Kind::Symbol
                    },
                    raw: c,
                    letter,
                    swapped: letter.is_some(),
                    again,
                    upper,
                    boundary,
                    elided: false,
                });
            }
        }
    }
    folded
}

/// The passphrase's tokens (runs of what is not a separator), each with
/// whether a separator other than apostrophes comes before it, and whether
/// an elision's apostrophe does ("l'" before "homme"); each run of
/// separators pushed to `separators` as it is met.
fn split_tokens<'a>(
    passphrase: &'a str,
    separators: &mut Vec<String>,
) -> Vec<(&'a str, bool, bool)> {
    let mut tokens: Vec<(&str, bool, bool)> = Vec::new();
    let mut start = None;
    let mut run = String::new();
    let (mut boundary, mut elided) = (false, false);
    for (at, c) in passphrase.char_indices() {
        if is_separator(c) {
            if let Some(s) = start.take() {
                tokens.push((&passphrase[s..at], boundary, elided));
            }
            run.push(c);
        } else {
            if !run.is_empty() {
                boundary = run.chars().any(|c| !matches!(c, '\'' | '\u{2019}'));
                elided = !boundary && tokens.last().is_some_and(|(before, ..)| elides(before, c));
                separators.push(std::mem::take(&mut run));
            }
            start.get_or_insert(at);
        }
    }
    if let Some(s) = start {
        tokens.push((&passphrase[s..], boundary, elided));
    }
    if !run.is_empty() {
        separators.push(run);
    }
    tokens
}

/// Whether `before` and an apostrophe are an elision before a word that
/// starts with `next`: `before` ends with an elided word and `next` is a
/// vowel or h. It may end a longer run of letters, where words are run
/// together or start with capitals ("leich'arriva", "DeL'eau"); the word
/// then may go on over the apostrophe too ("aujourd'hui").
fn elides(before: &str, next: char) -> bool {
    let next = fold_word(next.encode_utf8(&mut [0; 4]));
    let word = before
        .rsplit(|c: char| !c.is_alphabetic())
        .next()
        .map(fold_word)
        .unwrap_or_default();
    next.starts_with(['a', 'e', 'i', 'o', 'u', 'h'])
        && ELISIONS.iter().any(|(elided, _)| word.ends_with(elided))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters(f: &Folded) -> String {
        f.units.iter().map(|u| u.letter.unwrap_or('#')).collect()
    }

    #[test]
    fn a_passphrase_is_read_as_a_guesser_reads_it() {
        let f = fold("V3ni, vidi - VICI!");
        assert_eq!(letters(&f), "venividivici");
        assert_eq!(f.units.iter().filter(|u| u.swapped).count(), 1);
        assert_eq!(f.separators, [", ", " - ", "!"]);
        assert_eq!((f.upper, f.lower), (5, 6));
        let f = fold("Fiat Lux 2026");
        assert_eq!(letters(&f), "fiatlux#o##");
        assert!(f.units[4].upper && !f.units[5].upper);
        let starts: Vec<usize> = (0..f.units.len())
            .filter(|&i| f.units[i].boundary)
            .collect();
        assert_eq!(starts, [4, 7]);
        let f = fold("l'enfer c'est can't");
        let starts: Vec<usize> = (0..f.units.len())
            .filter(|&i| f.units[i].boundary)
            .collect();
        assert_eq!(
            starts,
            [1, 6, 7, 10],
            "an elision's apostrophe starts a word"
        );
        let elided: Vec<usize> = (0..f.units.len()).filter(|&i| f.units[i].elided).collect();
        assert_eq!(elided, [0, 6], "\"can't\" is one word");
        assert_eq!(letters(&fold("Jäger p@x")), "iagerpax");
        assert_eq!(fold_word("Ça Ira"), "ca ira");
        // ß is written ss in the lists: two letters, both from the one.
        assert_eq!(fold_word("Weiß"), "weiss");
        assert_eq!(fold_word("Cœur"), "coeur");
        assert_eq!(fold_word("Æternitas"), "aeternitas");
        let f = fold("weiß 3x3");
        assert_eq!(letters(&f), "weissexe");
        assert_eq!(f.units[3].raw, 'ß');
        assert!(!f.units[4].boundary && f.units[5].boundary);
        // A digit or symbol said again is the same swap.
        let again: Vec<bool> = f.units.iter().map(|u| u.again).collect();
        assert_eq!(
            again,
            [false, false, false, false, false, false, false, true]
        );
    }
}
