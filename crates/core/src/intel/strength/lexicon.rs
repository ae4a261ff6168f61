//! What a guesser tries passphrases from, compiled in: famous phrases
//! (`assets/passphrases/famous_*.txt`), word lists of six languages and of
//! the quotations the famous phrases come from, each word with its
//! frequency (`assets/passphrases/words/`), and the words that follow each
//! word in those quotations (`assets/passphrases/pairs.txt`) and in
//! English books (`assets/passphrases/bigrams_en.txt`), and which words are
//! the most frequent of their language (a sentence's words are priced
//! beside them).
//!
//! A word is priced by its rank: the words of its list more frequent than
//! it, and half of those as frequent. The rank is never more than one over
//! the word's frequency (the r most frequent words have frequency r times
//! the r-th's at least, and at most 1 in all), so the product of the ranks
//! of a run of words is at most what a guesser who picks words by their
//! frequency needs (a run of likelihood p is among the 1/p likeliest), and
//! at most what one who tries every run of the top N words needs (N^k).
//! `assets/passphrases/SOURCES.md` says where each list comes from and
//! under which licence.

use super::famous::read;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

macro_rules! asset {
    ($path:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../assets/passphrases/",
            $path
        ))
    };
}

/// Quotations, proverbs, idioms, titles, lyrics, film lines and mottos
/// (about 192,000, in English, German, French, Italian and Spanish, the
/// developers' own in Latin too): the list made from fortune(6)'s data and
/// Wiktionary's (through FreeDict, the German and the French Wiktionary's
/// headwords), the developers' own, and the list the model was tuned on
/// (never the held-out ones).
const FAMOUS: [&str; 3] = [
    asset!("famous_phrases.txt"),
    asset!("famous_by_hand.txt"),
    asset!("trials/tuning.txt"),
];

/// Word lists: each line a frequency in centibels (-100 log10 of it) and
/// the words that have it, the most frequent first. The last is the
/// quotations' own vocabulary.
const WORD_LISTS: [&str; 7] = [
    asset!("words/en.txt"),
    asset!("words/de.txt"),
    asset!("words/fr.txt"),
    asset!("words/it.txt"),
    asset!("words/es.txt"),
    asset!("words/la.txt"),
    asset!("words/quotes.txt"),
];

/// Each word and the words that follow it, the most often first: in the
/// quotations (at least twice, with how often: "of the:1922 a:310") and in
/// English books (the order alone: "of the a this").
const PAIRS: [&str; 2] = [asset!("pairs.txt"), asset!("bigrams_en.txt")];

/// The lists of `WORD_LISTS` ranked by frequency in a language: the first
/// six (Latin's by Whitaker's grades, the words of a sentence's grammar
/// first), not the quotations'.
pub(super) const LANGUAGES: usize = 6;

/// Where English's and Latin's lists are in `WORD_LISTS`.
const ENGLISH: usize = 0;
const LATIN: usize = 5;

/// How many lists a guesser chooses among.
pub(super) const LISTS: usize = WORD_LISTS.len();

/// How many of the most frequent words of each language (in `WORD_LISTS`,
/// but the quotations') a sentence's words are priced beside: "the", "is",
/// "nicht", "que", "di", "upon", "et", "sunt". The 300 most frequent words
/// of a language are about 55 to 60 in a hundred of what is written in it
/// (wordfreq's own frequencies), the hundred most frequent 45 to 50; none
/// is a word of the suggestions (the first of theirs comes after the
/// 300th in every language), so random words stay no sentence. Latin's
/// are the 297 forms of its prepositions, conjunctions, pronouns and
/// "esse" (Whitaker ranks no word finer than by a letter; such words are
/// the first few hundred of every language's list). A word is one of them
/// when its rank is within the 300, so that a line of many words of one
/// frequency (Latin's next 29,000) is not taken in with its first.
const FREQUENT_WORDS: usize = 300;

/// The longest word looked up, in letters.
pub(super) const LONGEST_WORD: usize = 24;

/// A famous phrase run together is looked for only from this many letters
/// ("it is" is no phrase).
pub(super) const SHORTEST_PHRASE: usize = 8;

pub(super) struct Lexicon {
    /// Each word's id and its least rank in any list, as a power of ten.
    words: HashMap<String, (u32, f64)>,
    /// For each word's id, the lists that have it (a bit for each of
    /// `WORD_LISTS`).
    lists: Vec<u8>,
    /// The ids of the most frequent words of each language, and in which
    /// languages (a bit for each of the first `LANGUAGES` lists).
    frequent: HashMap<u32, u8>,
    /// For a word and the next: the next's rank among the words that follow
    /// the first, as a power of ten (the soonest in any of `PAIRS`).
    pairs: HashMap<(u32, u32), f64>,
    /// How many famous phrases there are: what guessing one costs.
    pub famous: usize,
    /// Each famous phrase run together ("aleaiactaest"), its digits and
    /// letters for whole words read as those ("2b" is "to be").
    pub joined: HashSet<String>,
    /// Each famous phrase run together as it is spelled, for finding it
    /// inside a passphrase.
    pub spelled: HashSet<String>,
    /// Each famous phrase's words in the alphabet's order.
    pub sorted: HashSet<String>,
    /// Each famous phrase run together without its vowels, when it is
    /// long enough to tell.
    pub consonants: HashSet<String>,
    /// The longest famous phrase run together, in letters.
    pub longest_phrase: usize,
}

/// Its letters without vowels, y counted as one ("vnvdvc"): a phrase
/// written without them is still the phrase.
pub(super) fn consonants(joined: &str) -> String {
    joined
        .chars()
        .filter(|c| !matches!(c, 'a' | 'e' | 'i' | 'o' | 'u' | 'y'))
        .collect()
}

/// Fewer consonants than this say too little to be taken for a phrase.
pub(super) const MIN_CONSONANTS: usize = 6;

impl Lexicon {
    pub(super) fn get() -> &'static Lexicon {
        static LEXICON: OnceLock<Lexicon> = OnceLock::new();
        LEXICON.get_or_init(Lexicon::load)
    }

    fn load() -> Lexicon {
        let lines: Vec<&str> = FAMOUS
            .iter()
            .flat_map(|list| list.lines())
            .filter(|l| !l.starts_with('#'))
            .collect();
        let read = |same_words| -> Vec<Vec<String>> {
            lines
                .iter()
                .map(|l| read(l, same_words, false).words)
                .filter(|w| !w.is_empty())
                .collect()
        };
        let (phrases, spelled) = (read(true), read(false));
        let mut lexicon = Lexicon {
            words: HashMap::new(),
            lists: Vec::new(),
            frequent: HashMap::new(),
            pairs: HashMap::new(),
            joined: HashSet::new(),
            spelled: spelled.iter().map(|p| p.concat()).collect(),
            sorted: HashSet::new(),
            consonants: HashSet::new(),
            famous: phrases.len(),
            longest_phrase: spelled.iter().map(|p| p.concat().len()).max().unwrap_or(0),
        };
        let add = |lexicon: &mut Lexicon, word: &str, price: f64, list: usize| {
            let next = lexicon.words.len() as u32;
            let entry = lexicon
                .words
                .entry(word.to_string())
                .or_insert((next, price));
            entry.1 = entry.1.min(price);
            let id = entry.0;
            if id == next {
                lexicon.lists.push(0);
            }
            lexicon.lists[id as usize] |= 1 << list;
            id
        };
        for (at, list) in WORD_LISTS.iter().enumerate() {
            let mut before = 0;
            for line in list.lines() {
                let words: Vec<&str> = line.split(' ').skip(1).collect();
                let rank = before as f64 + (words.len() + 1) as f64 / 2.0;
                for word in &words {
                    let id = add(&mut lexicon, word, rank.log10(), at);
                    if at < LANGUAGES && rank <= FREQUENT_WORDS as f64 {
                        *lexicon.frequent.entry(id).or_default() |= 1 << at;
                    }
                }
                before += words.len();
            }
        }
        for line in PAIRS.iter().flat_map(|list| list.lines()) {
            let mut fields = line.split(' ');
            let Some(first) = fields.next().and_then(|w| lexicon.id(w)) else {
                continue;
            };
            let seconds: Vec<(usize, u32)> = fields
                .enumerate()
                .filter_map(|(rank, f)| Some((rank, lexicon.id(f.split(':').next()?)?)))
                .collect();
            for (rank, second) in seconds {
                let price = ((rank + 1) as f64).log10();
                let entry = lexicon.pairs.entry((first, second)).or_insert(price);
                *entry = entry.min(price);
            }
        }
        for phrase in &phrases {
            let joined = phrase.concat();
            let bare = consonants(&joined);
            if bare.len() >= MIN_CONSONANTS {
                lexicon.consonants.insert(bare);
            }
            lexicon.joined.insert(joined);
            let mut sorted = phrase.clone();
            sorted.sort();
            lexicon.sorted.insert(sorted.join(" "));
        }
        lexicon
    }

    fn id(&self, word: &str) -> Option<u32> {
        self.words.get(word).map(|w| w.0)
    }

    /// A word's id and price (log10), if any list has it.
    pub(super) fn word(&self, word: &str) -> Option<(u32, f64)> {
        self.words.get(word).copied()
    }

    /// Whether a word is in the list of `language` (one of the first
    /// `LANGUAGES`) or in the quotations' (names, old spellings).
    pub(super) fn in_language(&self, word: u32, language: usize) -> bool {
        let quotes = WORD_LISTS.len() - 1;
        self.lists[word as usize] & (1 << language | 1 << quotes) != 0
    }

    /// Whether `words` are a line of Latin: each a Latin form, or a word
    /// of no list (a name), and half of them or more no English word.
    /// Latin has no articles and leaves out its pronouns, so its lines
    /// often hold none of its most frequent words; and the Latin a player
    /// knows is that of mottos, prayers and verse, which a guesser's model
    /// has read. The suggestions are English words: none is such a line.
    pub(super) fn reads_as_latin<'a>(&self, words: impl Iterator<Item = &'a str>) -> bool {
        let (mut all, mut latin) = (0, 0);
        for word in words {
            all += 1;
            if let Some((id, _)) = self.word(word) {
                let lists = self.lists[id as usize];
                if lists & 1 << LATIN == 0 {
                    return false;
                }
                latin += usize::from(lists & 1 << ENGLISH == 0);
            }
        }
        latin > 0 && 2 * latin >= all
    }

    /// Whether a word is one of the most frequent of its language.
    pub(super) fn frequent(&self, word: u32) -> bool {
        self.frequent.contains_key(&word)
    }

    /// Of `words`, the most that are among the most frequent words of one
    /// language: a sentence is written in one ("was" and "prope" cut out
    /// of "wasp rope" are of two).
    pub(super) fn frequent_in_one<'a>(&self, words: impl Iterator<Item = &'a str>) -> usize {
        self.frequent_in(words, None)
    }

    /// Of `words`, how many are among the most frequent words of
    /// `language`, or of the one language that has the most of them.
    pub(super) fn frequent_in<'a>(
        &self,
        words: impl Iterator<Item = &'a str>,
        language: Option<usize>,
    ) -> usize {
        let mut counts = [0; LANGUAGES];
        for word in words {
            let languages = self.word(word).and_then(|(id, _)| self.frequent.get(&id));
            for (at, count) in counts.iter_mut().enumerate() {
                *count += usize::from(languages.is_some_and(|l| l & (1 << at) != 0));
            }
        }
        match language {
            Some(language) => counts[language],
            None => counts.into_iter().max().unwrap_or(0),
        }
    }

    /// How soon a guesser who just tried `first` tries `second` (log10).
    pub(super) fn pair(&self, first: u32, second: u32) -> Option<f64> {
        self.pairs.get(&(first, second)).copied()
    }
}
