//! What a guesser tries passphrases from, compiled in: famous phrases
//! (`assets/passphrases/famous_*.txt`), word lists of six languages with
//! each word's frequency rank (`assets/passphrases/words/`), the vocabulary
//! of the famous phrases themselves, and the word pairs they use most.
//! `assets/passphrases/SOURCES.md` says where each comes from and under
//! which licence.

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

/// Quotations, proverbs, titles, lyrics, film lines and mottos (about
/// 30,000): the list made from fortune(6), the developers' own, and the
/// list the model was tuned on (never the held-out one beside it).
const FAMOUS: [&str; 3] = [
    asset!("famous_phrases.txt"),
    asset!("famous_by_hand.txt"),
    asset!("trials/tuning.txt"),
];

/// Word lists, the most frequent word first; Latin's forms share one rank
/// (its source grades frequency by letter only).
const WORD_LISTS: [(&str, bool); 6] = [
    (asset!("words/en.txt"), true),
    (asset!("words/de.txt"), true),
    (asset!("words/fr.txt"), true),
    (asset!("words/it.txt"), true),
    (asset!("words/es.txt"), true),
    (asset!("words/la.txt"), false),
];

/// How many lists a guesser chooses among: the six languages and the
/// famous phrases' own vocabulary.
pub(super) const LISTS: usize = WORD_LISTS.len() + 1;

/// A word pair counts as common when the famous phrases use it this often.
const MIN_PAIR_COUNT: u32 = 2;

/// The longest word looked up, in letters.
pub(super) const LONGEST_WORD: usize = 24;

/// A famous phrase run together is looked for only from this many letters
/// ("it is" is no phrase).
pub(super) const SHORTEST_PHRASE: usize = 8;

pub(super) struct Lexicon {
    /// Each word's id and its best rank in any list (1 is the first).
    words: HashMap<String, (u32, u32)>,
    /// For a word and the next: the next's rank among the words that follow
    /// the first in famous phrases, most common first.
    pairs: HashMap<(u32, u32), u32>,
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
            pairs: HashMap::new(),
            joined: HashSet::new(),
            spelled: spelled.iter().map(|p| p.concat()).collect(),
            sorted: HashSet::new(),
            consonants: HashSet::new(),
            famous: phrases.len(),
            longest_phrase: spelled.iter().map(|p| p.concat().len()).max().unwrap_or(0),
        };
        let add = |words: &mut HashMap<String, (u32, u32)>, word: &str, rank: u32| {
            let next = words.len() as u32;
            let entry = words.entry(word.to_string()).or_insert((next, rank));
            entry.1 = entry.1.min(rank);
        };
        for (list, ranked) in WORD_LISTS {
            let count = list.lines().count() as u32;
            for (i, word) in list.lines().enumerate() {
                let rank = if ranked { i as u32 + 1 } else { count / 2 };
                add(&mut lexicon.words, word, rank);
            }
        }
        // The famous phrases' vocabulary, its most used words first.
        let mut uses: HashMap<&str, u32> = HashMap::new();
        let mut pairs: HashMap<(&str, &str), u32> = HashMap::new();
        for phrase in &spelled {
            for (i, word) in phrase.iter().enumerate() {
                *uses.entry(word).or_default() += 1;
                if let Some(next) = phrase.get(i + 1) {
                    *pairs.entry((word, next)).or_default() += 1;
                }
            }
        }
        let mut vocabulary: Vec<(&str, u32)> = uses.into_iter().collect();
        vocabulary.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        for (i, (word, _)) in vocabulary.iter().enumerate() {
            // A lone letter only as the word lists take one.
            let lone = word.len() == 1 && !"aioeyld".contains(word);
            if word.chars().all(|c| c.is_ascii_lowercase()) && !lone {
                add(&mut lexicon.words, word, i as u32 + 1);
            }
        }
        let mut next: HashMap<&str, Vec<(&str, u32)>> = HashMap::new();
        for ((first, second), n) in pairs {
            if n >= MIN_PAIR_COUNT {
                next.entry(first).or_default().push((second, n));
            }
        }
        for (first, mut seconds) in next {
            seconds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            for (rank, (second, _)) in seconds.into_iter().enumerate() {
                if let (Some(a), Some(b)) = (lexicon.id(first), lexicon.id(second)) {
                    lexicon.pairs.insert((a, b), rank as u32 + 1);
                }
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

    /// A word's id and rank, if any list has it.
    pub(super) fn word(&self, word: &str) -> Option<(u32, u32)> {
        self.words.get(word).copied()
    }

    /// How soon a guesser who just tried `first` tries `second`.
    pub(super) fn pair(&self, first: u32, second: u32) -> Option<u32> {
        self.pairs.get(&(first, second)).copied()
    }
}
