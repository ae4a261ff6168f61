#!/usr/bin/env python3
"""Makes bigrams_en.txt: for each English word, the words that follow it
most often in Google's books, the most often first ("of the a this"), as
pairs.txt has them for the quotations but without the counts (only the
order is used).

A guesser who writes sentences tries after each word the words that most
often follow it: how soon he tries the next word is its rank among those
(see lexicon.rs). A follower is kept only when that rank is sooner than
the word's own rank in the English list (words/en.txt), since only then
does the check use it, and among the first 500 (whose rank is worth a
word of frequency 1 in 500 or more); only pairs of words in that list,
folded as the check folds a passphrase.

The counts are the bigram list the PyPI package symspellpy 6.10.1 ships
(frequency_bigramdictionary_en_243_342.txt: the 243,342 most frequent
pairs of Google Books Ngram data whose two words are in SCOWL). Licences:
SOURCES.md. (The German and French Wiktionary's definitions were tried as
such texts too: they lowered the held-out phrases' prices by 0.01 to 0.07
powers of ten on average, not worth their 1.2 MB.)

Usage: make_bigrams.py SYMSPELLPY_DIR
  (pip download --no-deps symspellpy==6.10.1, unzip: symspellpy/)
"""
import collections
import math
import os
import sys

from make_words import fold

HERE = os.path.dirname(os.path.abspath(__file__))
FOLLOWERS = 500


def ranks():
    """Each English word and its price as the check computes it: log10 of
    the words before it, half of those as frequent counted."""
    price, before = {}, 0
    with open(os.path.join(HERE, "words", "en.txt"), encoding="utf-8") as f:
        for line in f:
            words = line.split()[1:]
            for word in words:
                price[word] = math.log10(before + (len(words) + 1) / 2)
            before += len(words)
    return price


def main(symspell):
    price = ranks()
    counts = collections.Counter()
    path = os.path.join(symspell, "frequency_bigramdictionary_en_243_342.txt")
    with open(path, encoding="utf-8") as f:
        for line in f:
            first, second, n = line.split()
            first, second = fold(first), fold(second)
            if first in price and second in price:
                counts[first, second] += int(n)
    follow = collections.defaultdict(list)
    for (first, second), n in counts.items():
        follow[first].append((n, second))
    with open(os.path.join(HERE, "bigrams_en.txt"), "w", encoding="utf-8") as f:
        for first in sorted(follow, key=lambda w: (price[w], w)):
            nexts = sorted(follow[first], key=lambda p: (-p[0], p[1]))[:FOLLOWERS]
            useful = [i for i, (_, s) in enumerate(nexts) if math.log10(i + 1) < price[s]]
            if useful:
                # The order is kept by cutting after the last useful one.
                f.write(" ".join([first] + [s for _, s in nexts[: useful[-1] + 1]]) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
