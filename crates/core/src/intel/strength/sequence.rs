//! A passphrase as a run of pieces a guesser puts together: words priced
//! by their frequency (or by how often the word before is followed by
//! them, for common pairs such as "of the"), words said again (one of
//! those before them), famous phrases run together, numbers and years,
//! and single characters tried one by one.
//! The cheapest reading wins: the guesser who tries that kind of piece in
//! that order finds the passphrase after about the product of the pieces'
//! prices. Found by dynamic programming over where each piece ends.

use super::famous::{is_year, number_log10};
use super::fold::{Kind, Unit};
use super::lexicon::{LONGEST_WORD, Lexicon, SHORTEST_PHRASE};
use std::collections::HashMap;

/// One piece of the cheapest reading.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Piece {
    /// A word of a list, whether it came as the common follower of the
    /// word before it, and whether digits or symbols stand for letters.
    Word {
        word: String,
        paired: bool,
        swapped: bool,
    },
    /// A famous phrase run together.
    Phrase {
        swapped: bool,
    },
    Number {
        year: bool,
    },
    /// A character tried among all of its kind.
    Character,
}

/// The cheapest reading: its guesses (log10) and its pieces.
#[derive(Clone, Debug)]
pub(super) struct Reading {
    pub log10: f64,
    pub pieces: Vec<Piece>,
}

/// What a guesser pays for one character tried among all of its kind: a
/// letter of a to z (more for other alphabets), a digit, a symbol.
fn character_log10(unit: &Unit) -> f64 {
    let case = if unit.upper { 2f64.log10() } else { 0.0 };
    case + match unit.kind {
        Kind::Letter if unit.letter.is_some_and(|c| c.is_ascii_lowercase()) => 26f64.log10(),
        Kind::Letter => 40f64.log10(),
        Kind::Digit => 1.0,
        Kind::Symbol => 33f64.log10(),
    }
}

/// A word from `context` (the names the opponent knows) is one of a
/// handful he tries first: 8 picks, as a power of ten.
const CONTEXT_LOG10: f64 = 0.9;

/// A word the passphrase marks (between separators): where it starts and
/// ends, and its letters when it is all letters.
struct Said {
    start: usize,
    end: usize,
    letters: Option<String>,
}

/// The words the passphrase marks, in order.
fn said(units: &[Unit]) -> Vec<Said> {
    let mut words: Vec<Said> = Vec::new();
    for (at, unit) in units.iter().enumerate() {
        let letter = unit.letter.filter(|_| unit.kind == Kind::Letter);
        match words.last_mut() {
            Some(word) if !unit.boundary => {
                word.end = at + 1;
                word.letters = word.letters.take().zip(letter).map(|(mut w, c)| {
                    w.push(c);
                    w
                });
            }
            _ => words.push(Said {
                start: at,
                end: at + 1,
                letters: letter.map(String::from),
            }),
        }
    }
    words
}

/// The best reading that ends at one place, for each last word (the word
/// pairs need it).
type Best = HashMap<Option<u32>, (f64, usize, Option<u32>, Piece)>;

/// The cheapest reading of `units`.
pub(super) fn cheapest(units: &[Unit], lexicon: &Lexicon, context: &[String]) -> Reading {
    let n = units.len();
    // best[i]: for each last word, (cost, start of the last piece, the
    // last word before it, the piece).
    let mut best: Vec<Best> = vec![HashMap::new(); n + 1];
    best[0].insert(None, (0.0, 0, None, Piece::Character));
    let longest = LONGEST_WORD.max(lexicon.longest_phrase);
    let said = said(units);
    for j in 0..n {
        if best[j].is_empty() {
            continue;
        }
        let starts: Vec<(Option<u32>, f64)> = best[j].iter().map(|(k, v)| (*k, v.0)).collect();
        let (key, cheapest) = starts
            .iter()
            .copied()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("not empty");
        let offer = |best: &mut Vec<Best>, i: usize, last, from, cost: f64, piece| {
            let slot = best[i]
                .entry(last)
                .or_insert((f64::INFINITY, 0, None, Piece::Character));
            if cost < slot.0 {
                *slot = (cost, j, from, piece);
            }
        };
        // One character tried among all of its kind.
        let price = character_log10(&units[j]);
        offer(
            &mut best,
            j + 1,
            None,
            key,
            cheapest + price,
            Piece::Character,
        );
        // A number.
        let mut digits = String::new();
        // A word or number ends where the passphrase marks a word's start.
        let within = |at: usize, unit: &Unit| at == 0 || !unit.boundary;
        for (_, unit) in units[j..]
            .iter()
            .enumerate()
            .take_while(|&(at, unit)| unit.kind == Kind::Digit && within(at, unit))
        {
            digits.push(unit.raw);
            let price = number_log10(&digits);
            let year = is_year(&digits);
            let i = j + digits.len();
            offer(
                &mut best,
                i,
                None,
                key,
                cheapest + price,
                Piece::Number { year },
            );
        }
        // A word said again (the second "easy" in "easy come easy go"):
        // the guesser picks one of the words said before it.
        if let Some(k) = said.iter().position(|w| w.start == j) {
            let word = &said[k];
            let again = word.letters.as_ref().filter(|letters| {
                said[..k]
                    .iter()
                    .any(|w| w.letters.as_ref() == Some(*letters))
            });
            if let Some(letters) = again {
                let id = lexicon.word(letters).map(|e| e.0);
                let piece = Piece::Word {
                    word: letters.clone(),
                    paired: false,
                    swapped: false,
                };
                let price = (k as f64).log10();
                offer(&mut best, word.end, id, key, cheapest + price, piece);
            }
        }
        // Words and famous phrases: the letters from j on.
        let mut letters = String::new();
        let (mut swaps, mut capitals, mut small) = (0, 0, 0);
        // A famous phrase run together goes on over a word's start ("hold
        // the line"); a word does not.
        let mut crossed = false;
        for (len, unit) in units[j..].iter().take(longest).enumerate() {
            let Some(c) = unit.letter else { break };
            crossed |= !within(len, unit);
            letters.push(c);
            swaps += usize::from(unit.swapped);
            // A capital after the piece's first letter, in a piece not
            // all in capitals, is one more variant.
            if len > 0 && unit.upper {
                capitals += 1;
            } else if len > 0 && unit.kind == Kind::Letter {
                small += 1;
            }
            let i = j + len + 1;
            // Each letter written another way doubles the variants.
            let inner = if small > 0 { capitals } else { 0 };
            let swapped = (swaps + inner) as f64 * 2f64.log10();
            if len < LONGEST_WORD && !crossed {
                let known = context.iter().position(|w| *w == letters);
                let entry = lexicon.word(&letters);
                let alone = match (known, entry) {
                    (Some(_), _) => Some(CONTEXT_LOG10),
                    (None, Some((_, price))) => Some(price),
                    (None, None) => None,
                };
                if let Some(alone) = alone {
                    let id = entry.map(|e| e.0);
                    for &(prev, start) in &starts {
                        let follows = match (prev, id) {
                            (Some(p), Some(w)) => lexicon.pair(p, w),
                            _ => None,
                        };
                        let paired = follows.is_some_and(|f| f < alone);
                        let price = follows.map_or(alone, |f| f.min(alone));
                        let piece = Piece::Word {
                            word: letters.clone(),
                            paired,
                            swapped: swaps > 0,
                        };
                        offer(&mut best, i, id, prev, start + price + swapped, piece);
                    }
                }
            }
            if letters.len() >= SHORTEST_PHRASE && lexicon.spelled.contains(&letters) {
                let price = (lexicon.famous as f64).log10();
                let piece = Piece::Phrase { swapped: swaps > 0 };
                offer(&mut best, i, None, key, cheapest + price + swapped, piece);
            }
        }
    }
    // Back from the cheapest ending.
    let Some((&last, &(log10, ..))) = best[n].iter().min_by(|a, b| a.1.0.total_cmp(&b.1.0)) else {
        return Reading {
            log10: 0.0,
            pieces: Vec::new(),
        };
    };
    let mut pieces = Vec::new();
    let (mut i, mut key) = (n, last);
    while i > 0 {
        let (_, start, from, piece) = best[i][&key].clone();
        pieces.push(piece);
        i = start;
        key = from;
    }
    pieces.reverse();
    Reading { log10, pieces }
}
