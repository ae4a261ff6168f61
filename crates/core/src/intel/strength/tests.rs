use super::*;
use crate::intel::keys::{SUGGESTED_WORDS, WORDS, suggest_passphrase};
use crate::text::capitalised;
use proptest::prelude::*;

const TUNING: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../assets/passphrases/trials/tuning.txt"
));
const HELD_OUT: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../assets/passphrases/trials/held_out.txt"
));
const HELD_OUT_2: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../assets/passphrases/trials/held_out_2.txt"
));
const HELD_OUT_3: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../assets/passphrases/trials/held_out_3.txt"
));
const HELD_OUT_4: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../assets/passphrases/trials/held_out_4.txt"
));
const HELD_OUT_5: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../assets/passphrases/trials/held_out_5.txt"
));
const HELD_OUT_6: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../assets/passphrases/trials/held_out_6.txt"
));
const HELD_OUT_7: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../assets/passphrases/trials/held_out_7.txt"
));
const HELD_OUT_8: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../assets/passphrases/trials/held_out_8.txt"
));

fn phrases(list: &str) -> Vec<&str> {
    list.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect()
}

/// The ways players write a phrase they like: as it is, capitalised, run
/// together, with a year or digits before, inside or after it, without
/// its apostrophes, with digits for letters, with punctuation.
fn written(phrase: &str) -> Vec<String> {
    let words: Vec<&str> = phrase.split_whitespace().collect();
    let title: Vec<String> = words.iter().map(|w| capitalised(w)).collect();
    let mut middle = words.clone();
    middle.insert(words.len().div_ceil(2), "1815");
    let leet: String = phrase
        .chars()
        .map(|c| match c {
            'a' => '4',
            'e' => '3',
            'o' => '0',
            c => c,
        })
        .collect();
    vec![
        phrase.to_string(),
        title.join(" "),
        words.concat(),
        title.concat(),
        format!("{phrase} 2026"),
        format!("{phrase}2026"),
        format!("{}2026", words.concat()),
        format!("1066 {phrase}"),
        middle.join(" "),
        phrase.replace('\'', ""),
        leet,
        format!("{}!", capitalised(phrase)),
        words.join("-"),
        format!("{}1!", title.concat()),
    ]
}

/// The phrases of a list any of whose ways of writing is accepted, with
/// the way.
fn accepted(list: &str) -> Vec<String> {
    phrases(list)
        .into_iter()
        .filter_map(|phrase| {
            written(phrase)
                .into_iter()
                .find(|w| check_strength(w, &[]).is_ok())
        })
        .collect()
}

/// The most phrases of the first held-out list accepted (any of 14 ways of
/// writing each): 20 when the model was first measured on it, 9 on the
/// second model, 7 on the third, 3 on the fourth, 1 on the fifth, the
/// sixth, the seventh and the eighth (only with digits or a year added). That list is
/// partly seen: its result led to the
/// second model's dictionaries and frequency lists. This bound keeps the
/// model from getting worse.
const HELD_OUT_ACCEPTED: usize = 1;

/// The most phrases of the second held-out list accepted: written before
/// the second model was changed, never used to tune it; what its accepted
/// phrases have in common was studied for the third model's general
/// changes (no phrase of it added anywhere). 12 on the second model, 8 on
/// the third, 7 on the fourth, 5 on the fifth (4 as typed or run
/// together and 1 only with a year added), 2 on the sixth (both as typed
/// or run together), 1 on the seventh and the eighth (as typed): quotes
/// and lines missing from the dictionaries.
const HELD_OUT_2_ACCEPTED: usize = 1;

/// The most phrases of the third held-out list accepted: written before
/// the third model was changed and never used to tune it (what its
/// accepted phrases have in common was studied, as the second's). 30 on
/// the second model, 25 on the third, 17 on the fourth (6 as typed,
/// capitalised or run together, 11 only with a year or digits added), 8
/// on the fifth (2 and 6), 5 on the sixth (1 and 4), 4 on the seventh (1
/// and 3), 2 on the eighth (1 and 1): slogans and soldiers' sayings of
/// content words with no frequent one, names missing from the
/// dictionaries.
const HELD_OUT_3_ACCEPTED: usize = 2;

/// The most phrases of the fourth held-out list accepted: written before
/// the fourth model was changed and never used to tune it (what its
/// accepted phrases have in common was studied, as the third's, for the
/// fourth model's general changes: sentences priced as a language model
/// guesses them, a swap priced once for all its letters, ß read as ss).
/// 36 on the third model (23 as typed or capitalised, 13 only with a year
/// or digits added), 27 on the fourth (15 and 12), 17 on the fifth (8 and
/// 9; what its accepted phrases had in common was studied for the fifth
/// model's changes: a passphrase that reads as a sentence priced as one
/// wherever its words stand, run together too, rarer words in the lists,
/// elisions, apostrophes): long sentences with words missing from the
/// dictionaries (names, old spellings), and sentences with a year added;
/// 10 on the sixth (4 and 6), 4 on the seventh (2 and 2), 2 on the eighth
/// (1 and 1).
const HELD_OUT_4_ACCEPTED: usize = 2;

/// The most phrases of the fifth held-out list accepted: written before
/// the fifth model was changed, never used to tune it, the fair measure
/// of that model. 36 on the fourth model, 22 on the fifth (12 as typed,
/// capitalised, run together or with punctuation, 10 only with a year or
/// digits added): Latin mottos and verse of words with no frequent one
/// among them, long poems' lines, slogans of content words (studied for
/// the sixth model's changes: a sentence's words priced as one of ten,
/// its frequent words the 300 most frequent, the same reading at every
/// check, a sentence's words those the player wrote apart, œ read as
/// oe); 13 on the sixth (6 and 7), 7 on the seventh (3 and 4), 4 on the
/// eighth (2 and 2).
const HELD_OUT_5_ACCEPTED: usize = 4;

/// The most phrases of the sixth held-out list accepted: written before
/// the sixth model was changed, never used to tune it, the fair measure
/// of that model. 42 on the fifth model (27 as typed, capitalised, run
/// together or with punctuation, 15 only with a year or digits added):
/// long lines of poems and first lines of books, Latin verse, German,
/// French and Italian sentences whose words the lists rank low. 27 on
/// the sixth (17 and 10): Latin of words the lists do not rank (Muster
/// knows no Latin word's frequency), sentences of twelve words or more
/// with a year added, names, and run-together lines read with letters
/// left over (studied for the seventh model's changes: Latin's frequent
/// words and rarer forms, a sentence's words priced as one of about three
/// and in one language, capitals starting one-letter words, a year put
/// into a sentence leaving it whole, famous phrases inside a sentence
/// run together, elisions run together). 10 on the seventh (7 and 3), 4 on
/// the eighth (3 and 1).
const HELD_OUT_6_ACCEPTED: usize = 4;

/// The most phrases of the seventh held-out list accepted: written before
/// the seventh model was changed, never used to tune it, the fair measure
/// of that model. 21 on the sixth model (16 as typed, capitalised, run
/// together or with punctuation, 5 only with a year or digits added):
/// Latin verse, prayers and mottos of words the lists do not rank, long
/// lines run together or capitalised, German verse with old spellings,
/// names the lists lack, slogans of content words. 10 on the seventh (9
/// and 1): Latin prayers, mottos and verse of words Latin's list does not
/// rank finer than by Whitaker's letter, slogans of content words, French,
/// German and Spanish lines run together (studied for the eighth model's
/// changes: a fifth of frequent words makes a sentence, a line of Latin
/// forms is one, words run together read in one language, an elided word
/// counted as the one it stands for). 5 on the eighth (5 and 0).
const HELD_OUT_7_ACCEPTED: usize = 5;

/// The most phrases of the eighth held-out list accepted: written before
/// the eighth model was changed, never used to tune it, the fair measure
/// of that model. 14 on the seventh model (7 as typed, capitalised, run
/// together or with punctuation, 7 only with a year or digits added):
/// Latin verse, prayers and mottos, Italian, Spanish, German and French
/// lines run together with a year, a name the lists lack. 8 on the eighth
/// (4 and 4): Latin verse and mottos with English words or words the
/// lists lack, lines run together with a year, names. Issue 49's goal is
/// 3: not reached.
const HELD_OUT_8_ACCEPTED: usize = 8;

/// Measured on lists the model was never tuned on: of 100 famous phrases
/// each, how many are accepted in any of 14 ways of writing each.
#[test]
fn held_out_famous_phrases_are_measured() {
    for (list, most) in [
        (HELD_OUT, HELD_OUT_ACCEPTED),
        (HELD_OUT_2, HELD_OUT_2_ACCEPTED),
        (HELD_OUT_3, HELD_OUT_3_ACCEPTED),
        (HELD_OUT_4, HELD_OUT_4_ACCEPTED),
        (HELD_OUT_5, HELD_OUT_5_ACCEPTED),
        (HELD_OUT_6, HELD_OUT_6_ACCEPTED),
        (HELD_OUT_7, HELD_OUT_7_ACCEPTED),
        (HELD_OUT_8, HELD_OUT_8_ACCEPTED),
    ] {
        assert_eq!(phrases(list).len(), 100);
        let accepted = accepted(list);
        assert!(
            accepted.len() <= most,
            "{} accepted: {accepted:?}",
            accepted.len()
        );
    }
}

#[test]
fn tuning_phrases_are_refused_however_they_are_written() {
    let accepted = accepted(TUNING);
    assert!(
        accepted.len() <= 3,
        "{} accepted: {accepted:?}",
        accepted.len()
    );
}

proptest! {
    /// Any passphrase Muster suggests is accepted: six different words of
    /// its list, in any order.
    #[test]
    fn a_suggested_passphrase_is_always_accepted(
        picks in proptest::sample::subsequence((0..256usize).collect::<Vec<_>>(), SUGGESTED_WORDS)
            .prop_shuffle()
    ) {
        let words: Vec<&str> = WORDS.split_whitespace().collect();
        let passphrase: Vec<&str> = picks.iter().map(|&i| words[i]).collect();
        let passphrase = passphrase.join(" ");
        prop_assert!(check_strength(&passphrase, &[]).is_ok(), "{}", passphrase);
    }
}

/// The suggestions a guesser finds soonest: every six of the twelve words
/// of the list he finds soonest alone, in either order, are accepted. The
/// property above holds by the words' worth, not by luck of the draw.
#[test]
fn the_cheapest_suggestions_are_accepted() {
    let mut words: Vec<(f64, &str)> = WORDS
        .split_whitespace()
        .map(|w| (estimate(w, &[]).log10, w))
        .collect();
    words.sort_by(|a, b| a.0.total_cmp(&b.0));
    let cheap: Vec<&str> = words[..12].iter().map(|w| w.1).collect();
    for mask in 0u32..1 << cheap.len() {
        if mask.count_ones() as usize != SUGGESTED_WORDS {
            continue;
        }
        let mut six: Vec<&str> = (0..cheap.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| cheap[i])
            .collect();
        for _ in 0..2 {
            let passphrase = six.join(" ");
            let e = estimate(&passphrase, &[]);
            assert!(e.log10 >= MIN_GUESSES_LOG10, "{passphrase}: {e:?}");
            six.reverse();
        }
    }
}

/// The cheapest reading of a passphrase, before its case and separators.
fn reading(passphrase: &str) -> sequence::Reading {
    sequence::cheapest(&fold::fold(passphrase).units, lexicon::Lexicon::get(), &[])
}

/// Whether a reading prices a word as one of a sentence.
fn reads_as_sentence(reading: &sequence::Reading) -> bool {
    reading
        .pieces
        .iter()
        .any(|p| matches!(p, sequence::Piece::Word { sentence: true, .. }))
}

/// Whether a reading holds `word` as a word.
fn has_word(reading: &sequence::Reading, word: &str) -> bool {
    reading
        .pieces
        .iter()
        .any(|p| matches!(p, sequence::Piece::Word { word: w, .. } if w == word))
}

/// Asserts that a passphrase reads as a sentence that holds `words`.
fn read_as_a_sentence_of(passphrase: &str, words: &[&str]) {
    let r = reading(passphrase);
    assert!(reads_as_sentence(&r), "{r:?}");
    for word in words {
        assert!(has_word(&r, word), "{word}: {r:?}");
    }
}

/// Asserts that a line of spaced words reads as a sentence, each word
/// priced as one of a sentence at most.
fn priced_as_a_sentence(line: &str) {
    let r = reading(line);
    assert!(reads_as_sentence(&r), "{r:?}");
    let words = line.split(' ').count() as f64;
    assert!(
        r.log10 <= words * sequence::SENTENCE_WORD_LOG10 + 1e-6,
        "{r:?}"
    );
}

/// A sentence is priced as a language model guesses it: a word within two
/// words of one of the most frequent words of its language ("on") costs
/// one of a hundred at most; without one, its words cost what they cost
/// alone. Words cut out of longer ones make no sentence.
#[test]
fn a_sentence_is_priced_as_a_language_model_guesses_it() {
    let on = lexicon::Lexicon::get().word("on").unwrap().1;
    let sentence = reading("silence falls on broken towers");
    assert!(sentence.log10 <= 4.0 * 2.0 + on + 1e-9, "{sentence:?}");
    assert!(reads_as_sentence(&sentence));
    let words = reading("silence falls broken towers");
    assert!(words.log10 > sentence.log10 + 2.0, "{words:?}");
    // Capitals mark the words as spaces do.
    let camel = reading("SilenceFallsOnBrokenTowers").log10;
    assert!(
        camel <= sentence.log10 + 4.0 * 2f64.log10() + 1e-9,
        "{camel}"
    );
    // Random words hold no frequent word, nor do the words cut out of them
    // ("her" and "on" of "heron"); run together, only words of four letters
    // or more are read as a sentence's, and a frequent one ("this" of
    // "thistle") holds only the words after it.
    let random = reading("copper heron lantern thistle");
    assert!(!reads_as_sentence(&random), "{random:?}");
    check_strength("copper heron lantern thistle", &[]).unwrap();
    check_strength("copperheronlanternthistle", &[]).unwrap();
    let e = check_strength("the copper heron of the lantern", &[]).unwrap_err();
    assert!(e.message.contains("in the order of a sentence"), "{e}");
}

/// A passphrase that reads as a sentence (a quarter of its words or more
/// among the most frequent of their language) has each word priced as one
/// of a sentence, however far from a frequent word; run together too, read
/// as the fewest words. Random words with one frequent word among them are
/// no sentence, nor are random words run together, though frequent words
/// can be cut out of them ("de" and "er" of "deer").
#[test]
fn a_passphrase_that_reads_as_a_sentence_is_priced_as_one() {
    let most = |p: &str| p.split(' ').count() as f64 * sequence::SENTENCE_WORD_LOG10 + 1e-9;
    let sentence = "the heron and the copper lantern glow softly";
    for written in [sentence.to_string(), sentence.replace(' ', "")] {
        let r = reading(&written);
        assert!(reads_as_sentence(&r), "{written}: {r:?}");
        assert!(r.log10 <= most(sentence), "{written}: {r:?}");
        let e = check_strength(&written, &[]).unwrap_err();
        assert!(e.message.contains("in the order of a sentence"), "{e}");
    }
    // With one frequent word in six, no sentence: "heron" and "lantern",
    // far from "the", cost what they cost alone.
    let near = reading("heron lantern glow softly the osprey").log10;
    assert!(
        near > most("heron lantern glow softly the osprey") + 1.0,
        "{near}"
    );
    check_strength("alea iacta est copper heron lantern thistle", &[]).unwrap();
    for random in [
        "copperheronlanternthistleosprey",
        "deervalleycabinmeadowonyxhoney",
    ] {
        assert!(!reads_as_sentence(&reading(random)), "{random}");
        check_strength(random, &[]).unwrap();
    }
}

/// A sentence's words are each one of a few to a language model that has
/// read the line, and its frequent words are the few hundred most
/// frequent of its language: a line of poetry with two of them in eight
/// ("so", "a") is a sentence. Of two readings with as many words, the one
/// of more frequent words is the sentence's ("it wasa bright", not "itw
/// asa bright"), and the same reading wins at every check. Written
/// apart, a fifth of the words the player wrote is enough.
#[test]
fn a_line_of_frequent_words_is_a_sentence_at_every_check() {
    let line = "so much depends upon a red wheel barrow";
    priced_as_a_sentence(line);
    let e = check_strength(&format!("{line} 2026"), &[]).unwrap_err();
    assert!(e.message.contains("in the order of a sentence"), "{e}");
    let joined = "itwasabrightcolddayinapril2026";
    let first = reading(joined);
    assert!(reads_as_sentence(&first), "{first:?}");
    assert!(has_word(&first, "it"), "{first:?}");
    for _ in 0..20 {
        assert_eq!(reading(joined).pieces, first.pieces);
    }
    check_strength(joined, &[]).unwrap_err();
    // Its cheapest reading cuts "ein" into "e" and "in", hiding a
    // frequent word: the words the player wrote apart are the sentence's.
    // Six words of one in ten, a year of 120 and the ways of writing it.
    let e = estimate("ein roter reiher ist unser turm 2026", &[]);
    assert!(e.log10 < 10.0, "{e:?}");
}

/// Latin's most frequent words are the words of its grammar
/// (prepositions, conjunctions, pronouns, "esse"), first in its list: a
/// line of Latin with a quarter of them is a sentence, as one of any living
/// language is, and the rarer forms of its words are words, not letters.
#[test]
fn a_line_of_latin_is_a_sentence() {
    let line = "miles et equus sub arbore sunt";
    priced_as_a_sentence(line);
    let e = check_strength(line, &[]).unwrap_err();
    assert!(e.message.contains("in the order of a sentence"), "{e}");
    let lexicon = lexicon::Lexicon::get();
    for word in ["et", "sub", "sunt", "sumus", "nobis"] {
        let (id, _) = lexicon.word(word).expect(word);
        assert!(lexicon.frequent(id), "{word}");
    }
    for rarer in ["pugnabimus", "navigaverunt", "equitibus"] {
        assert!(lexicon.word(rarer).is_some(), "{rarer}");
    }
}

/// Latin has no articles and leaves out its pronouns: a line of Latin
/// forms, half of them or more no English word, is a sentence without any
/// of its most frequent words, spaced or run together. English words,
/// some of them Latin forms too ("arbor", "cedar"), are none.
#[test]
fn a_line_of_latin_content_words_is_a_sentence() {
    priced_as_a_sentence("castra ponunt milites fessi");
    check_strength("castra ponunt milites fessi", &[]).unwrap_err();
    let joined = reading("castraponuntmilitesfessi");
    assert!(reads_as_sentence(&joined), "{joined:?}");
    let english = reading("arbor cedar pine violet");
    assert!(!reads_as_sentence(&english), "{english:?}");
    check_strength("arbor cedar pine violet", &[]).unwrap();
    check_strength("alea iacta est copper heron lantern thistle", &[]).unwrap();
}

/// A sentence is written in one language: the short frequent words of
/// several, cut out of random words run together ("was" and "prope" of
/// "wasp rope"), are no sentence's.
#[test]
fn a_sentence_is_written_in_one_language() {
    check_strength("hazelwasproperamparthollowotter", &[]).unwrap();
    let r = reading("itwasabrightcolddayinapril");
    assert!(reads_as_sentence(&r), "{r:?}");
}

/// A fifth of a sentence's words among its language's most frequent is
/// enough: a line of five words holds one (an article, a preposition, a
/// pronoun), as slogans and mottos do; the words the player wrote apart
/// count an elided word as the one it stands for ("l'" is "le").
#[test]
fn one_frequent_word_in_five_makes_a_sentence() {
    priced_as_a_sentence("rivers carry the broken moon");
    let e = check_strength("rivers carry the broken moon 2026", &[]).unwrap_err();
    assert!(e.message.contains("in the order of a sentence"), "{e}");
    let elided = reading("marchez doucement vers l'horizon");
    assert!(reads_as_sentence(&elided), "{elided:?}");
    assert!(has_word(&elided, "le"), "{elided:?}");
}

/// Run together, a sentence is read as the fewest words of one language
/// when that is as few as with every list: "ye may", not "yema" (a
/// Spanish word) and "y". With more words than that, frequent words cut
/// out of random ones ("am part" of "rampart") make no sentence.
#[test]
fn a_sentence_run_together_is_read_in_one_language() {
    read_as_a_sentence_of("wanderyeroadswhileyemay", &["ye", "may"]);
    check_strength("wanderyeroadswhileyemay", &[]).unwrap_err();
    check_strength("hazelwasproperamparthollowotter", &[]).unwrap();
    check_strength("copperheronlanternthistle", &[]).unwrap();
}

/// Capitals start words, a one-letter word too ("IWalked", "ADog"), and a
/// year put into a sentence leaves its words beside each other.
#[test]
fn capitals_and_years_leave_a_sentence_as_it_is() {
    read_as_a_sentence_of("IWalkedToTheRiverAtDawn", &["i", "walked"]);
    let sentence = reading("silence falls on broken towers");
    let year = reading("silence falls on 2026 broken towers");
    assert!(
        year.log10 <= sentence.log10 + famous::number_log10("2026") + 1e-9,
        "{sentence:?} {year:?}"
    );
}

/// French and Italian elide a word before a vowel ("l'amor"): the elided
/// word is read as the one it stands for, and the word after it as whole.
#[test]
fn an_elided_word_is_read_as_the_word_it_stands_for() {
    let elided = reading("l'amor che move il sole");
    let written = reading("le amor che move il sole");
    assert!(
        (elided.log10 - written.log10).abs() < 1e-9,
        "{elided:?} {written:?}"
    );
    assert!(reads_as_sentence(&elided), "{elided:?}");
    // "can't" elides no word: it stays one.
    let cant = reading("cant").log10;
    assert!((reading("can't").log10 - cant).abs() < 1e-9);
    // "ch'" is "che", though "ch" is in a list; run together or after a
    // capital, the elided word ends the letters before the apostrophe, and
    // marks no word: the passphrase is still run together.
    let che = reading("lei che arriva").log10;
    assert!((reading("lei ch'arriva").log10 - che).abs() < 1e-9);
    let units = fold::fold("leich'arriva").units;
    assert!(units[4].elided && units[5].boundary, "{units:?}");
    let joined = reading("leich'arriva");
    assert!(joined.joined, "{joined:?}");
    // A word with an apostrophe inside is still one word.
    let one = reading("aujourdhui").log10;
    assert!(reading("aujourd'hui").log10 <= one + 1e-9);
}

/// A guesser's rules write every e as 3 at once: each kind of digit or
/// symbol for a letter is one more variant, however often it comes.
#[test]
fn a_swap_is_one_variant_however_often_it_comes() {
    let plain = reading("copper heron lantern thistle").log10;
    let swaps = |p: &str| (reading(p).log10 - plain) / 2f64.log10();
    let one = swaps("copp3r h3ron lant3rn thistl3");
    assert!((one - 1.0).abs() < 1e-9, "{one}");
    let two = swaps("c0pp3r h3r0n lant3rn thistl3");
    assert!((two - 2.0).abs() < 1e-9, "{two}");
}

/// A word said again is one of the words before it to a guesser, not a
/// word of his lists again; words run together mark none.
#[test]
fn a_word_said_again_is_priced_as_one_of_those_before_it() {
    let once = reading("thistle copper lantern").log10;
    let again = reading("thistle copper lantern copper").log10;
    assert!((again - once - 3f64.log10()).abs() < 1e-9, "{once} {again}");
    let joined = reading("thistlecopperlanterncopper").log10;
    assert!(joined > again + 2.0, "{again} {joined}");
}

/// Words spaced by single spaces are one of the two ways a guesser writes
/// words apart first (spaced or run together); any other separator is one
/// of a dozen he tries next, but an apostrophe, one of two.
#[test]
fn a_single_space_is_the_first_way_to_write_words_apart() {
    let added = |p: &str| variants(&fold::fold(p));
    assert_eq!(added("copperheronlanternthistle"), 0.0);
    assert_eq!(added("copper heron lantern thistle"), 2f64.log10());
    assert_eq!(added("copper-heron-lantern-thistle"), 12f64.log10());
    assert!((added("copper heron-lantern") - 24f64.log10()).abs() < 1e-9);
    assert_eq!(added("copper  heron"), 2.0 * 12f64.log10());
    // An apostrophe is part of a word's spelling: kept or dropped.
    assert_eq!(added("l'homme"), 2f64.log10());
    assert_eq!(added("summer's day"), 2.0 * 2f64.log10());
}

#[test]
fn the_threshold_is_years_of_a_graphics_card() {
    let years = 10f64.powf(MIN_GUESSES_LOG10) / GPU_GUESSES_PER_SECOND / (365.25 * 86_400.0);
    assert!((900.0..1000.0).contains(&years), "{years}");
}

#[test]
fn weak_passphrases_are_refused_with_the_reason() {
    for pin in ["1234", "0000", "20261122", "12-34"] {
        let e = check_strength(pin, &[]).unwrap_err();
        assert!(e.message.contains("PIN"), "{pin}: {e}");
    }
    for weak in ["password", "romans", "qwerty123", "Ann2026"] {
        let e = check_strength(weak, &["Ann", "Romans"]).unwrap_err();
        assert!(e.message.contains("too weak"), "{weak}: {e}");
    }
    assert!(check_strength("", &[]).is_err());
    let suggested = suggest_passphrase().unwrap();
    assert_eq!(suggested.split(' ').count(), 6);
    check_strength(&suggested, &[]).unwrap();
    assert_ne!(suggested, suggest_passphrase().unwrap());
}

/// The refusal says why as a player would, how soon a guesser finds it,
/// and offers six random words.
#[test]
fn a_refusal_says_why_how_soon_and_offers_a_passphrase() {
    let e = check_strength("fiat lux2026", &[]).unwrap_err().message;
    assert!(
        e.contains("well-known phrase") && e.contains("a year added"),
        "{e}"
    );
    assert!(e.contains("one graphics card would find it"), "{e}");
    let offered = e.split('"').nth(1).unwrap();
    assert_eq!(offered.split(' ').count(), 6, "{e}");
    check_strength(offered, &[]).unwrap();
    let e = check_strength("the dog and the cat", &[])
        .unwrap_err()
        .message;
    assert!(e.contains("common words"), "{e}");
    let e = check_strength("holdtheline", &[]).unwrap_err().message;
    assert!(e.contains("too weak"), "{e}");
}

#[test]
fn famous_phrases_are_refused_however_they_are_written() {
    assert!(lexicon::Lexicon::get().joined.len() >= 25_000);
    for famous in [
        "alea iacta est",
        "Veni, vidi, vici!",
        "correct horse battery staple",
        "Alea-Iacta-Est 2026",
        "To be or not to be, that is the question",
        "the quick brown fox jumps over the lazy dog",
    ] {
        let e = check_strength(famous, &[]).unwrap_err();
        assert!(e.message.contains("well-known phrase"), "{famous}: {e}");
    }
    // Issue 21's trial: of 26 famous phrases 16 were accepted. Each is
    // refused now.
    for famous in [
        "carpe diem quam minimum credula postero",
        "et tu brute",
        "may the force be with you",
        "all your base are belong to us",
        "winter is coming",
        "i think therefore i am",
        "e pluribus unum",
        "semper fidelis",
        "in god we trust",
        "knowledge is power",
        "the pen is mightier than the sword",
        "all that glitters is not gold",
        "an apple a day keeps the doctor away",
        "si vis pacem para bellum",
        "dulce et decorum est pro patria mori",
        "festina lente",
        "memento mori",
        "fortune favours the brave",
        "never gonna give you up",
        "one ring to rule them all",
    ] {
        assert!(check_strength(famous, &[]).is_err(), "{famous} accepted");
    }
    // Issues 32 and 39: simple variants, mottos, film lines and song
    // titles, digits for whole words, vowels left out.
    for famous in [
        "i am become death the destroyer of worlds",
        "keep your friends close but your enemies closer",
        "1066 alea iacta est",
        "v3ni v1di v1ci",
        "alea iacta est veni vidi vici",
        "est iacta alea",
        "Alea iacta est, heron!",
        "n3v3r g0nna g1ve y0u up",
        "may the force be with you 2027",
        "who dares wins",
        "per ardua ad astra",
        "nulli secundus",
        "there can be only one",
        "1 am gr00t",
        "2 b or not 2 b",
        "may the force b with u",
        "vn vd vc",
        "m th frc b wth y",
        "whdrswns",
        "stairway to heaven",
        "ground control to major tom",
    ] {
        assert!(check_strength(famous, &[]).is_err(), "{famous} accepted");
    }
    // Words of phrases mixed with others are no phrase; a famous phrase
    // inside a passphrase strong without it is no weakness.
    check_strength("vici alea staple heron lantern osprey", &[]).unwrap();
    check_strength("copper heron lantern thistle", &[]).unwrap();
    check_strength("alea iacta est copper heron lantern thistle", &[]).unwrap();
    // zxcvbn's own warning reads as part of the sentence.
    let e = check_strength("password1", &[]).unwrap_err();
    assert!(!e.message.contains(".."), "{e}");
}
