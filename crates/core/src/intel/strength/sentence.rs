//! Whether a passphrase reads as a sentence, whose every word a guesser's
//! language model finds within a few tries (`sequence`): a fifth of its
//! words among the most frequent of one language, or a line of Latin
//! forms (the manual's *How strong a passphrase must be*).

use super::fold::{Unit, unelided};
use super::lexicon::Lexicon;
use super::sequence::{Piece, Reading, said};

/// A reading is a sentence when at least this share of its whole words
/// are among the most frequent of one language, and it has at least
/// `SENTENCE_WORDS` of them: in ordinary text the 300 most frequent
/// words are more than half of all words (`FREQUENT_WORDS`), and a line of
/// five words holds one at least (an article, a preposition, a pronoun, a
/// conjunction), slogans and mottos of content words too ("rivers carry
/// the broken moon"); random words (the suggestions hold none) are far
/// from it, and so are the short words of several languages cut out of
/// them run together ("was prope" of "wasp rope").
const SENTENCE_SHARE: f64 = 0.2;
const SENTENCE_WORDS: usize = 3;

/// Whether a reading is a sentence (`SENTENCE_SHARE`), its frequent words
/// those of `language` when it was read in one. Run together, it must be
/// read entirely as words: a letter left over is no sentence's.
pub(super) fn is_sentence(reading: &Reading, lexicon: &Lexicon, language: Option<usize>) -> bool {
    let whole: Vec<&str> = reading
        .pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Word {
                word,
                sentence: true,
                ..
            } => Some(word.as_str()),
            _ => None,
        })
        .collect();
    // A famous phrase run together is a line of a sentence: it counts as
    // one frequent word of it (its own are hidden in it), beside one of
    // the words around it: a phrase among random words is no sentence.
    let phrases = reading
        .pieces
        .iter()
        .filter(|p| matches!(p, Piece::Phrase { .. }))
        .count();
    let frequent = lexicon.frequent_in(whole.iter().copied(), language);
    let words = whole.len() + phrases;
    let spelled = reading.joined && reading.pieces.contains(&Piece::Character);
    let latin = phrases == 0 && lexicon.reads_as_latin(whole.iter().copied());
    let share = (phrases + frequent) as f64 >= SENTENCE_SHARE * words as f64;
    !spelled && words >= SENTENCE_WORDS && ((frequent > 0 && share) || latin)
}

/// Whether the words the passphrase marks between separators are a
/// sentence's (`SENTENCE_SHARE`): its cheapest reading may cut a word in
/// two ("e" and "in" of "ein") and so hide a frequent one, but the words
/// the player wrote apart are what his sentence is made of, an elided one
/// the word it stands for ("l'" of "l'impossible" is "le").
pub(super) fn marks_sentence(units: &[Unit], lexicon: &Lexicon) -> bool {
    let words: Vec<String> = said(units)
        .into_iter()
        .filter_map(|w| {
            let letters = w.letters?;
            let elided = units[w.end - 1].elided;
            Some(match unelided(&letters).filter(|_| elided) {
                Some(word) => word.to_string(),
                None => letters,
            })
        })
        .collect();
    let frequent = lexicon.frequent_in_one(words.iter().map(String::as_str));
    let latin = lexicon.reads_as_latin(words.iter().map(String::as_str));
    words.len() >= SENTENCE_WORDS
        && (frequent as f64 >= SENTENCE_SHARE * words.len() as f64 || latin)
}
