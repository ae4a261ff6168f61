//! The manual (`docs/src`, built with mdBook) and the README, read as
//! Markdown reads them: every relative link and image leads to a file,
//! every `#anchor` to a heading of its page, a chapter's links stay inside
//! the book (the built book holds nothing else), and every chapter is in
//! `SUMMARY.md`; a broken link fails CI. Chapters in folders (the rules
//! reference) are read too. The chapters a player reads (all but the
//! developers' part) speak to players: no test's name, source path or issue
//! number in them (that evidence is in the developers' chapter "How each
//! promise is tested").

#[path = "support/book.rs"]
mod book;

use book::{book, chapters, read, root};
use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

/// `path` without its `..` and `.`, as the file system would resolve it.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Every broken link of the page at `path`, in words; `inside`: where
/// its links must stay.
fn broken(path: &Path, inside: &Path) -> Vec<String> {
    let page = read(path);
    let dir = path.parent().expect("a page is in a folder");
    let mut out = Vec::new();
    for (target, line) in &page.links {
        let at = format!("{}:{line}: {target}", path.display());
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
        let to = if file.is_empty() {
            path.to_path_buf()
        } else {
            normal(&dir.join(file))
        };
        if !to.starts_with(inside) {
            out.push(format!("{at}: leads out of {}", inside.display()));
            continue;
        }
        if !to.is_file() {
            out.push(format!("{at}: no such file"));
            continue;
        }
        if !anchor.is_empty() && to.extension().is_some_and(|e| e == "md") {
            let ids = if to == path {
                page.ids()
            } else {
                read(&to).ids()
            };
            if !ids.contains(anchor) {
                out.push(format!("{at}: no heading #{anchor} there"));
            }
        }
    }
    out
}

#[test]
fn every_link_of_the_manual_and_the_readme_leads_somewhere() {
    let mut bad = broken(&root().join("README.md"), &root());
    for page in chapters() {
        bad.extend(broken(&page, &book()));
    }
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

#[test]
fn every_chapter_is_in_the_summary() {
    let summary = book().join("SUMMARY.md");
    let listed: BTreeSet<PathBuf> = read(&summary)
        .links
        .iter()
        .map(|(target, _)| book().join(target))
        .collect();
    for page in chapters() {
        assert!(
            page == summary || listed.contains(&page),
            "{} is in no line of SUMMARY.md",
            page.display()
        );
    }
}

/// The checker itself: a link to a missing page, a missing heading, and
/// out of the book are each caught (a test that cannot fail checks
/// nothing).
#[test]
fn a_broken_link_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let inside = dir.path().join("src");
    std::fs::create_dir(&inside).unwrap();
    std::fs::write(inside.join("b.md"), "# Real heading\n").unwrap();
    std::fs::write(
        inside.join("a.md"),
        "# A\n\n[ok](b.md#real-heading) [gone](c.md) [no id](b.md#nowhere)\n\n[out](../x.md) [web](https://example.org)\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("x.md"), "x").unwrap();
    let bad = broken(&inside.join("a.md"), &inside);
    assert_eq!(bad.len(), 3, "{bad:?}");
    assert!(bad[0].ends_with("c.md: no such file"), "{bad:?}");
    assert!(bad[1].contains("no heading #nowhere"), "{bad:?}");
    assert!(bad[2].contains("leads out of"), "{bad:?}");
}

/// The chapters a player reads: SUMMARY.md's, before its developers' part.
fn players_chapters() -> Vec<PathBuf> {
    let summary = std::fs::read_to_string(book().join("SUMMARY.md")).unwrap();
    let (players, _) = summary
        .split_once("# For developers")
        .expect("SUMMARY.md has a developers' part");
    players
        .split("](")
        .skip(1)
        .map(|rest| book().join(&rest[..rest.find(')').expect("a link's end")]))
        .collect()
}

/// What in a player's chapter speaks to developers, each with its line: a
/// test's name (four or more lowercase words joined by underscores, not a
/// file's name such as `ann_rome_v_bob_parthia.muster`), a source path
/// (`src/`, `crates/`, `tests/`, `benches/`) or an issue's number.
fn developers_words(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let word_char = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_';
    for (n, line) in text.lines().enumerate() {
        let bytes = line.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            if !word_char(bytes[at]) {
                at += 1;
                continue;
            }
            let start = at;
            while at < bytes.len() && word_char(bytes[at]) {
                at += 1;
            }
            let word = &line[start..at];
            let before = start.checked_sub(1).map(|i| bytes[i]);
            let rest = &line[at..];
            let a_file =
                rest.starts_with('.') && rest[1..].starts_with(|c: char| c.is_ascii_alphanumeric());
            let part_of_more = before.is_some_and(|c| c.is_ascii_alphanumeric());
            if !a_file && !part_of_more && word.split('_').filter(|w| !w.is_empty()).count() >= 4 {
                found.push(format!("line {}: a test's name, {word}", n + 1));
            }
            let in_a_path = before.is_some_and(|c| c == b'/' || c == b'.');
            if ["src", "crates", "tests", "benches"].contains(&word)
                && rest.starts_with('/')
                && !in_a_path
            {
                found.push(format!("line {}: a source path, {word}/", n + 1));
            }
        }
        let lower = line.to_lowercase();
        for (k, _) in lower.match_indices("issue") {
            let alone = lower[..k]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphabetic());
            let number = lower[k + "issue".len()..]
                .trim_start_matches('s')
                .trim_start_matches(' ')
                .trim_start_matches('#')
                .starts_with(|c: char| c.is_ascii_digit());
            if alone && number {
                found.push(format!("line {}: an issue's number", n + 1));
            }
        }
    }
    found
}

#[test]
fn no_players_chapter_names_a_test_a_source_path_or_an_issue() {
    let chapters = players_chapters();
    assert!(chapters.len() >= 10, "{chapters:?}");
    let mut bad = Vec::new();
    for page in chapters {
        let text = std::fs::read_to_string(&page).unwrap();
        for said in developers_words(&text) {
            bad.push(format!("{}: {said}", page.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "a players' chapter speaks to developers (the evidence goes in evidence.md):\n{}",
        bad.join("\n")
    );
}

/// The checker itself: a test's name, a source path and issue numbers are
/// caught; a file's name, a command's name and a path inside the data are
/// not.
#[test]
fn developers_words_are_caught() {
    let text = "As `a_whole_deck_turn_counted` proves (`src/app/walk_tests.rs`, issue 37).\n\
                Saved as `ann_rome_v_bob_parthia.muster` by `finish_flank_marches` in `terrain_tables/x.json`; Issues #12, tissue 5.";
    let found = developers_words(text);
    assert_eq!(
        found,
        [
            "line 1: a test's name, a_whole_deck_turn_counted",
            "line 1: a source path, src/",
            "line 1: an issue's number",
            "line 2: an issue's number",
        ]
    );
}
