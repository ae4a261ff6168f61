//! A passphrase as a run of pieces a guesser puts together: words priced
//! by their frequency (or by how often the word before is followed by
//! them, for common pairs such as "of the"; or within two words of one of
//! the most frequent words of its language, as one of a hundred at most;
//! or, in a passphrase that reads as a sentence, as one of about three
//! wherever they stand), words said again (one of those before them),
//! famous phrases run together, numbers and years, and single characters
//! tried one by one.
//! The cheapest reading wins: the guesser who tries that kind of piece in
//! that order finds the passphrase after about the product of the pieces'
//! prices. Found by dynamic programming over where each piece ends.

use super::famous::{is_year, number_log10};
use super::fold::{Kind, Unit, unelided};
use super::lexicon::{LANGUAGES, LONGEST_WORD, Lexicon, SHORTEST_PHRASE};
use super::sentence::{is_sentence, marks_sentence};
use std::collections::BTreeMap;

/// One piece of the cheapest reading.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Piece {
    /// A word of a list, whether it came as the common follower of the
    /// word before it, and whether digits or symbols stand for letters.
    Word {
        word: String,
        paired: bool,
        /// Priced as a word of a sentence: beside one of the most frequent
        /// words (`NEAR_FREQUENT_LOG10`), or in a passphrase that reads as
        /// one (`SENTENCE_WORD_LOG10`).
        sentence: bool,
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
    /// The passphrase marks none of its words (run together).
    pub joined: bool,
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
pub(super) struct Said {
    start: usize,
    pub end: usize,
    pub letters: Option<String>,
}

/// Whether a capital starts a word at `at`: after a small letter
/// ("HoldThe"), or after a capital and before a small letter, the first
/// being a word of one letter ("IWalked", "ADog").
fn capital(units: &[Unit], at: usize) -> bool {
    let small = |at: usize| {
        units
            .get(at)
            .is_some_and(|u| u.kind == Kind::Letter && !u.upper)
    };
    at > 0
        && units[at].upper
        && units[at - 1].kind == Kind::Letter
        && (!units[at - 1].upper || small(at + 1))
}

/// The words the passphrase marks (between separators, or capitals that
/// start words), in order.
pub(super) fn said(units: &[Unit]) -> Vec<Said> {
    let mut words: Vec<Said> = Vec::new();
    for (at, unit) in units.iter().enumerate() {
        let letter = unit.letter.filter(|_| unit.kind == Kind::Letter);
        match words.last_mut() {
            Some(word) if !unit.boundary && !capital(units, at) => {
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
/// pairs need it). Ordered, so that of readings that cost the same the
/// same one wins every time: a passphrase is accepted or refused alike
/// at each check.
type Best = BTreeMap<Option<u32>, Step>;

/// The cheapest reading up to one place that ends with one word.
#[derive(Clone, Debug)]
struct Step {
    cost: f64,
    /// Where its last piece starts.
    start: usize,
    /// The word before its last piece.
    from: Option<u32>,
    piece: Piece,
    /// Its last two pieces when they are whole words, the last first: the
    /// words of a sentence the next word is priced beside.
    spoken: [Option<Spoken>; 2],
}

/// A whole word of the reading, and what it was priced.
#[derive(Clone, Copy, Debug)]
struct Spoken {
    id: u32,
    price: f64,
}

/// The most a word costs within `SENTENCE_REACH` words of one of the most
/// frequent words of its language ("the", "is", "nicht", "que"): one of a
/// hundred. A guesser who writes sentences with a language model has it
/// guess each next word, and such models need about 20 to 40 tries a word
/// on ordinary text (GPT-2's perplexity, 18 to 42 on four standard English
/// test texts); a hundred leaves room for random words beside one frequent
/// word ("alea iacta est" before four random words).
const NEAR_FREQUENT_LOG10: f64 = 2.0;

/// The most a word of a passphrase that reads as a sentence costs
/// (`is_sentence`), wherever it stands: one of about three (10^0.5). A
/// quarter of frequent words or more is the shape of a sentence, and the
/// sentences a guesser tries first are the lines his model has read
/// (quotations, lyrics, verse, first lines of books): on those it needs
/// far fewer than the 20 to 40 tries a word of new text; it guesses most
/// of their words at the first try and the others within a few. A sentence
/// of frequent words in a grammatical order is then weak however long it
/// is: one of the player's own needs 26 words or more to pass.
pub(super) const SENTENCE_WORD_LOG10: f64 = 0.5;

/// How far from a frequent word a word is still held by it: two words, as
/// "falls", "broken" and "towers" are by "on" in "silence falls on broken
/// towers".
const SENTENCE_REACH: usize = 2;

/// The fewest letters of a word of a sentence in a passphrase that marks
/// no word: with four, six random words run together are priced as before
/// (none of 10,000 measured refused), while most words of a sentence still
/// read as one.
const RUN_TOGETHER_WORD: usize = 4;

/// A whole word `id`, priced `price` alone, after the words `before`:
/// its price in a sentence, what the words before cost less (a frequent
/// word holds those before it too, where the passphrase marks its words
/// apart: run together, one cut from the end of a longer word, "this" of
/// "thistle", would hold the word before), whether it read as one, and the
/// words the next word is priced beside.
fn in_sentence(
    lexicon: &Lexicon,
    mut before: [Option<Spoken>; 2],
    id: u32,
    mut price: f64,
    marked: bool,
) -> (f64, f64, bool, [Option<Spoken>; 2]) {
    let (mut less, mut sentence) = (0.0, false);
    for word in before.iter_mut().take(SENTENCE_REACH).flatten() {
        if lexicon.frequent(word.id) && price > NEAR_FREQUENT_LOG10 {
            price = NEAR_FREQUENT_LOG10;
            sentence = true;
        }
        if marked && lexicon.frequent(id) && word.price > NEAR_FREQUENT_LOG10 {
            less += word.price - NEAR_FREQUENT_LOG10;
            word.price = NEAR_FREQUENT_LOG10;
            sentence = true;
        }
    }
    (
        price,
        less,
        sentence,
        [Some(Spoken { id, price }), before[0]],
    )
}

/// The cheapest reading of `units`: word by word, or as a sentence when
/// it reads as one (`is_sentence`), each of its words then priced as one
/// of a sentence wherever it stands.
///
/// A sentence is read twice, with and without the famous phrases run
/// together in it: read as the fewest pieces, a phrase takes the place of
/// its words, and hides their frequent ones ("onceuponatime" of "once
/// upon a time there lived"), or costs more than they would as words of
/// the sentence.
pub(super) fn cheapest(units: &[Unit], lexicon: &Lexicon, context: &[String]) -> Reading {
    let words = read(units, lexicon, context, How::WORDS);
    let marked = marks_sentence(units, lexicon);
    let sentence = read(units, lexicon, context, How::SENTENCE);
    let of_words = read(units, lexicon, context, How::SENTENCE_OF_WORDS);
    // Run together, of the readings with the fewest words, one of a single
    // language's: read with every list, frequent words of one can run into
    // a rarer word of another ("yema" of "ye may"). One with more words
    // cuts frequent words out of random ones ("am part" of "rampart").
    let fewest = of_words.pieces.len();
    let languages: Vec<(Reading, Option<usize>)> = if marks_words(units) {
        Vec::new()
    } else {
        (0..LANGUAGES)
            .map(|language| {
                let how = How {
                    language: Some(language),
                    ..How::SENTENCE_OF_WORDS
                };
                (read(units, lexicon, context, how), Some(language))
            })
            .filter(|(reading, _)| reading.pieces.len() <= fewest)
            .collect()
    };
    let sentences = [(sentence, None), (of_words, None)]
        .into_iter()
        .chain(languages)
        .filter(|(reading, language)| marked || is_sentence(reading, lexicon, *language))
        .map(|(reading, _)| reading);
    // Of readings that cost the same, the first: word by word.
    std::iter::once(words)
        .chain(sentences)
        .min_by(|a, b| a.log10.total_cmp(&b.log10))
        .expect("the words' reading")
}

/// How a reading is made.
#[derive(Clone, Copy)]
struct How {
    /// Every whole word priced as one of a sentence.
    sentence: bool,
    /// Famous phrases run together are pieces of it.
    phrases: bool,
    /// Only words of this language's list (or the quotations') are pieces
    /// of it.
    language: Option<usize>,
}

impl How {
    const WORDS: How = How {
        sentence: false,
        phrases: true,
        language: None,
    };
    const SENTENCE: How = How {
        sentence: true,
        phrases: true,
        language: None,
    };
    const SENTENCE_OF_WORDS: How = How {
        sentence: true,
        phrases: false,
        language: None,
    };
}

/// Whether the passphrase marks any word: a separator or a capital that
/// starts one. An elision's apostrophe marks none: it is part of the
/// spelling ("leich'arriva" is run together).
fn marks_words(units: &[Unit]) -> bool {
    (0..units.len()).any(|at| {
        let elision = at > 0 && units[at - 1].elided;
        (units[at].boundary && !elision) || capital(units, at)
    })
}

/// What a word's own price adds to its price in a sentence: next to
/// nothing, so that of two readings with as many words, each priced as one
/// of a sentence, the one of the more frequent words wins ("it wasa", not
/// "itw asa"), as a language model would read them.
const TIE: f64 = 1e-9;

/// What each piece adds to a reading of words run together as a sentence:
/// more than any reading costs, so that the reading has the fewest pieces
/// (the words as they were written, not frequent words cut out of them).
const PIECE: f64 = 1000.0;

/// The cheapest reading of `units`; in a `sentence`, every whole word is
/// priced as one of a sentence, near a frequent word or not.
fn read(units: &[Unit], lexicon: &Lexicon, context: &[String], how: How) -> Reading {
    let How {
        sentence,
        phrases,
        language,
    } = how;
    let n = units.len();
    let mut best: Vec<Best> = vec![BTreeMap::new(); n + 1];
    best[0].insert(None, step(0.0, 0, None, Piece::Character));
    let longest = LONGEST_WORD.max(lexicon.longest_phrase);
    let said = said(units);
    // A word is one of a sentence only where the passphrase marks it whole:
    // between separators, capitals starting words ("HoldTheLine"), an
    // elision's apostrophe ("l'homme") or a number glued before or after
    // ("line2026"). Where it marks no word, only a word of
    // `RUN_TOGETHER_WORD` letters or more is near a frequent word: shorter
    // ones are cut out of longer words ("cop" and "per" of "copper"); read
    // as a sentence, every word is, the passphrase read as the fewest words
    // (`PIECE`).
    let capital = |at: usize| capital(units, at);
    let marked = marks_words(units);
    let number = |from: usize, to: usize| units[from..to].iter().all(|u| u.kind == Kind::Digit);
    let glued = |at: usize| {
        let start = (0..at).rev().find(|&k| units[k].boundary).unwrap_or(0);
        let end = (at + 1..n).find(|&k| units[k].boundary).unwrap_or(n);
        (units[at - 1].kind == Kind::Letter && number(at, end))
            || (units[at].kind == Kind::Letter && number(start, at))
    };
    let edge = |at: usize| at == 0 || at == n || units[at].boundary || capital(at) || glued(at);
    let fewest = sentence && !marked;
    let penalty = if fewest { PIECE } else { 0.0 };
    let whole = |from: usize, to: usize| {
        if marked {
            edge(from) && edge(to) && !(from + 1..to).any(capital)
        } else {
            fewest || to - from >= RUN_TOGETHER_WORD
        }
    };
    for j in 0..n {
        if best[j].is_empty() {
            continue;
        }
        let starts: Vec<(Option<u32>, Step)> =
            best[j].iter().map(|(k, v)| (*k, v.clone())).collect();
        let (key, cheapest) = starts
            .iter()
            .map(|(k, v)| (*k, v.cost))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("not empty");
        let offer = |best: &mut Vec<Best>, i: usize, last: Option<u32>, mut step: Step| {
            step.cost += penalty;
            let slot =
                best[i]
                    .entry(last)
                    .or_insert(self::step(f64::INFINITY, 0, None, Piece::Character));
            if step.cost < slot.cost {
                *slot = step;
            }
        };
        // One character tried among all of its kind.
        let price = character_log10(&units[j]);
        offer(
            &mut best,
            j + 1,
            None,
            step(cheapest + price, j, key, Piece::Character),
        );
        // A number: a year or digits put into a phrase leave its words
        // as they were, so the word after it is priced beside those before
        // it ("the old 1815 mill" as "the old mill").
        let mut digits = String::new();
        // A word or number ends where the passphrase marks a word's start.
        // (an elision's apostrophe ends none: "aujourd'hui" is one word).
        let within = |at: usize| at == j || !units[at].boundary || units[at - 1].elided;
        for (_, unit) in units[j..]
            .iter()
            .enumerate()
            .take_while(|&(at, unit)| unit.kind == Kind::Digit && within(j + at))
        {
            digits.push(unit.raw);
            let price = number_log10(&digits);
            let year = is_year(&digits);
            let i = j + digits.len();
            for (prev, before) in &starts {
                let mut next = step(before.cost + price, j, *prev, Piece::Number { year });
                next.spoken = before.spoken;
                offer(&mut best, i, *prev, next);
            }
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
                    sentence: false,
                    swapped: false,
                };
                let price = (k as f64).log10();
                offer(
                    &mut best,
                    word.end,
                    id,
                    step(cheapest + price, j, key, piece),
                );
            }
        }
        // Words and famous phrases: the letters from j on.
        let mut letters = String::new();
        // Letters written as digits or symbols, and how many of those
        // are the first of their kind (each a variant).
        let (mut swaps, mut kinds, mut capitals, mut small) = (0, 0, 0, 0);
        // A famous phrase run together goes on over a word's start ("hold
        // the line"); a word does not.
        let mut crossed = false;
        for (len, unit) in units[j..].iter().take(longest).enumerate() {
            let Some(c) = unit.letter else { break };
            crossed |= !within(j + len);
            letters.push(c);
            swaps += usize::from(unit.swapped);
            kinds += usize::from(unit.swapped && !unit.again);
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
            let swapped = (kinds + inner) as f64 * 2f64.log10();
            if len < LONGEST_WORD && !crossed {
                let known = context.iter().position(|w| *w == letters);
                // An elided word is the word it stands for ("l'homme",
                // "ch'arriva"), though its letters be a word of a list too.
                let stands_for = unelided(&letters)
                    .filter(|_| unit.elided)
                    .and_then(|word| Some((lexicon.word(word)?, word.to_string())));
                let (entry, word) = match stands_for {
                    Some((entry, word)) => (Some(entry), word),
                    None => (lexicon.word(&letters), letters.clone()),
                };
                let entry = entry.filter(|(id, _)| {
                    language.is_none_or(|language| lexicon.in_language(*id, language))
                });
                let alone = match (known, entry) {
                    (Some(_), _) => Some(CONTEXT_LOG10),
                    (None, Some((_, price))) => Some(price),
                    (None, None) => None,
                };
                if let Some(alone) = alone {
                    let id = entry.map(|e| e.0);
                    for (prev, before) in &starts {
                        let follows = match (prev, id) {
                            (Some(p), Some(w)) => lexicon.pair(*p, w),
                            _ => None,
                        };
                        let paired = follows.is_some_and(|f| f < alone);
                        let price = follows.map_or(alone, |f| f.min(alone));
                        let (price, less, in_one, spoken) = match id {
                            Some(_) if sentence && whole(j, i) => (
                                price.min(SENTENCE_WORD_LOG10) + TIE * price,
                                0.0,
                                true,
                                [None, None],
                            ),
                            Some(id) if whole(j, i) => {
                                in_sentence(lexicon, before.spoken, id, price, marked)
                            }
                            _ => (price, 0.0, false, [None, None]),
                        };
                        let piece = Piece::Word {
                            word: word.clone(),
                            paired,
                            sentence: in_one,
                            swapped: swaps > 0,
                        };
                        let cost = before.cost - less + price + swapped;
                        let mut next = step(cost, j, *prev, piece);
                        next.spoken = spoken;
                        offer(&mut best, i, id, next);
                    }
                }
            }
            if phrases && letters.len() >= SHORTEST_PHRASE && lexicon.spelled.contains(&letters) {
                let price = (lexicon.famous as f64).log10();
                let piece = Piece::Phrase { swapped: swaps > 0 };
                offer(
                    &mut best,
                    i,
                    None,
                    step(cheapest + price + swapped, j, key, piece),
                );
            }
        }
    }
    // Back from the cheapest ending.
    let Some((&last, log10)) = best[n]
        .iter()
        .map(|(k, v)| (k, v.cost))
        .min_by(|a, b| a.1.total_cmp(&b.1))
    else {
        return Reading {
            log10: 0.0,
            pieces: Vec::new(),
            joined: !marked,
        };
    };
    let mut pieces = Vec::new();
    let (mut i, mut key) = (n, last);
    while i > 0 {
        let step = best[i][&key].clone();
        pieces.push(step.piece);
        i = step.start;
        key = step.from;
    }
    pieces.reverse();
    Reading {
        log10: log10 - penalty * pieces.len() as f64,
        pieces,
        joined: !marked,
    }
}

/// A step of the reading that holds no word of a sentence.
fn step(cost: f64, start: usize, from: Option<u32>, piece: Piece) -> Step {
    Step {
        cost,
        start,
        from,
        piece,
        spoken: [None, None],
    }
}
