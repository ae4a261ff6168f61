#!/usr/bin/env python3
"""Makes famous_phrases.txt: the phrases a guesser tries before any word list.

Sources (see SOURCES.md): famous_by_hand.txt, and the quotations of BSD
fortune(6)'s data files as Debian ships them (packages fortunes-min and
fortunes, 1:1.99.1-7.3). A guesser's list holds whole short quotations and
their sentences, so this keeps each of those with 2 to 12 words.

Usage: make_list.py FORTUNE_DIR > famous_phrases.txt
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def normal(text):
    """Lowercase letters and digits, single spaces: what the check compares."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower()).split())


def keep(phrase, out):
    words = phrase.split()
    if 2 <= len(words) <= 12 and len(phrase) >= 8:
        out.add(phrase)


def fortunes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for quote in text.split("\n%\n"):
        # Attribution lines ("-- Author") are not part of what is quoted.
        lines = [l for l in quote.splitlines() if not l.strip().startswith("--")]
        yield " ".join(lines)


def main(fortune_dir):
    out = set()
    with open(os.path.join(HERE, "famous_by_hand.txt"), encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                phrase = normal(line)
                if phrase:
                    out.add(phrase)
    for name in sorted(os.listdir(fortune_dir)):
        path = os.path.join(fortune_dir, name)
        if "." in name or os.path.islink(path) or not os.path.isfile(path):
            continue
        for quote in fortunes(path):
            keep(normal(quote), out)
            for sentence in re.split(r"[.!?;:\"()]+|--", quote):
                keep(normal(sentence), out)
    for phrase in sorted(out):
        print(phrase)


if __name__ == "__main__":
    main(sys.argv[1])
