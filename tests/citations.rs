//! Every citation in the code leads somewhere in the repository (issue 47):
//! a rule cited in a comment, a refusal, a help text or a label is a
//! numbered section of the rules reference (`docs/src/rules`), and a
//! design principle cited is a heading of `docs/src/design.md`. The forms
//! read are the ones the reference's first page lists:
//! - `RULES 8.3`, `RULES-deck 6`, `RULES-map-intel A3`, `map-intel 0`, with
//!   ranges and lists (`RULES 8.3-8.5, 10`); `RULES` alone or `RULES.md`
//!   cites a whole chapter;
//! - `rule 8.3`, `rules 27.2.3-27.2.4` (the map-intel chapter's numbers
//!   by their shape, `A..`, `B..`, `27..`; any other number Field of
//!   Glory's);
//! - a refusal's bare rule, `refuse("8.3", ..)`, `RuleError::new("A4", ..)`,
//!   and the same rule asserted (`e.rule, "27.5"`) or in JSON (`"rule":
//!   "27.1.4"`);
//! - in the map systems' own files (a path with `map-intel`, `map_intel`
//!   or `wings`), the bare numbers `A3`, `B4c`, `27.1.6`;
//! - `DESIGN "Trust"`, `DESIGN, "The seat"`, `DESIGN.md, "The printout"`.
//!
//! A line broken inside a citation (`RULES-map-` then `intel B7` on the
//! next comment line) is read whole.

#[path = "support/book.rs"]
mod book;

use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::LazyLock;

/// A document the code cites.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Doc {
    Fog,
    Deck,
    MapIntel,
    Design,
}

impl Doc {
    const ALL: [Doc; 4] = [Doc::Fog, Doc::Deck, Doc::MapIntel, Doc::Design];

    /// Its page in the book (`docs/src`).
    fn page(self) -> &'static str {
        match self {
            Doc::Fog => "rules/fog.md",
            Doc::Deck => "rules/deck.md",
            Doc::MapIntel => "rules/map-intel.md",
            Doc::Design => "design.md",
        }
    }

    /// The document a name before a number stands for.
    fn named(name: &str) -> Option<Doc> {
        match name {
            "RULES" => Some(Doc::Fog),
            "RULES-deck" => Some(Doc::Deck),
            "RULES-map-intel" | "map-intel" => Some(Doc::MapIntel),
            _ => None,
        }
    }

    /// The chapter a number cited without a name belongs to, by its shape:
    /// hidden forces' `A..`, dummy wings' `B..` and the seed's rule `27..`
    /// are the map-intel chapter's; any other is Field of Glory's.
    fn by_shape(section: &str) -> Doc {
        let seed_27 = section == "27" || section.starts_with("27.");
        if section.starts_with(['A', 'B']) || seed_27 {
            Doc::MapIntel
        } else {
            Doc::Fog
        }
    }
}

/// One citation: its line, the words that make it, and what it names (a
/// section's id, a design heading's slug, or `None` for a whole chapter).
#[derive(Debug, PartialEq)]
struct Citation {
    line: usize,
    said: String,
    doc: Doc,
    section: Option<String>,
}

/// A numbered section: `A2a`, `B10`, `8.3`, `27.6.4.2`.
const NUMBERED: &str = r"(?:[AB]\d{1,2}[a-e]?|\d+(?:\.\d+)*[a-e]?)";

/// A section a name may precede: a numbered one, or a part (`A`, `B`).
const NUMBER: &str = r"(?:[AB]\d{0,2}[a-e]?|\d+(?:\.\d+)*[a-e]?)";

/// What separates the numbers of a list: `A1, A4`, `B5 and B10`.
const SEPARATOR: &str = ", and |, | and | or |/";

/// `number`s in ranges and lists: `8.1-8.2`, `A1, A4-A6`, `B5 and B10`.
fn list_of(number: &str) -> String {
    let range = format!("{number}(?:-{number})?");
    format!("{range}(?:(?:{SEPARATOR}){range})*")
}

/// Sections in ranges and lists, after a document's name.
static LIST: LazyLock<String> = LazyLock::new(|| list_of(NUMBER));

/// `RULES 8.3`, `RULES-deck`, `RULES-map-intel B4c`, `map-intel 0`,
/// `RULES.md`; `RULES-anything` is caught as an unknown document.
static NAMED: LazyLock<Regex> = LazyLock::new(|| {
    let list = &*LIST;
    Regex::new(&format!(
        r"(?:^|[^\w/-])(RULES(?:-[A-Za-z-]*[A-Za-z])?|map-intel)(\.md)?(?:\s+({list}))?"
    ))
    .unwrap()
});

/// `rule 5`, `rules 27.1.6 and 27.5`: numbered only (`rule A` is prose).
static RULE_WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"\b[Rr]ules? ({})", list_of(NUMBERED))).unwrap());

/// A refusal's rule, the same asserted, or in JSON (escaped in a string).
static RULE_LITERAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:refuse|RuleError::new)\(\s*"([^"]*)"|\.rule,\s*"([^"]*)"|\\?"rule\\?":\s*\\?"([^"\\]*)"#,
    )
    .unwrap()
});

/// A whole literal that is a list of numbers, perhaps named.
static LITERAL_LIST: LazyLock<Regex> = LazyLock::new(|| {
    let list = &*LIST;
    Regex::new(&format!(
        r"^((?:RULES-map-intel|RULES-deck|RULES|map-intel) )?({list})$"
    ))
    .unwrap()
});

/// The map systems' bare numbers (not `Paper::A4`, not a float's digits).
static BARE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?:^|[^\w:.])((?:[AB]\d{{1,2}}[a-e]?|27(?:\.\d+)+[a-e]?)(?:-{NUMBER})?)\b"
    ))
    .unwrap()
});

/// `DESIGN "Trust"`, `DESIGN, "The seat"`, `DESIGN.md, "The printout"`,
/// or `DESIGN` with no heading (caught).
static DESIGN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"\bDESIGN\b(?:\.md)?(?:,?\s*"([^"]*)")?"#).unwrap());

/// A file's text as one run of prose: each line without its indent and
/// comment marker, joined by a space, or by nothing after a hyphen (a name
/// broken over two comment lines); and where each line starts in it.
fn prose(text: &str) -> (String, Vec<usize>) {
    let mut out = String::new();
    let mut starts = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_start();
        let line = ["//!", "///", "//", "*"]
            .iter()
            .find_map(|marker| line.strip_prefix(marker))
            .unwrap_or(line)
            .trim_start();
        if i > 0 && !out.ends_with('-') {
            out.push(' ');
        }
        starts.push(out.len());
        out.push_str(line);
    }
    (out, starts)
}

/// The numbers of a list, each end of a range its own: `27.6.4.2-3` is
/// 27.6.4.2 and 27.6.4.3, `A1, A4-A6` is A1, A4 and A6.
fn numbers(list: &str) -> Vec<String> {
    static SEPARATED: LazyLock<Regex> = LazyLock::new(|| Regex::new(SEPARATOR).unwrap());
    let mut out = Vec::new();
    for range in SEPARATED.split(list) {
        let (first, last) = range.split_once('-').unwrap_or((range, ""));
        out.push(first.to_string());
        if last.is_empty() {
            continue;
        }
        match first.rsplit_once('.') {
            Some((stem, _)) if last.chars().all(|c| c.is_ascii_digit()) => {
                out.push(format!("{stem}.{last}"))
            }
            _ => out.push(last.to_string()),
        }
    }
    out
}

/// Whether the match ending at `end` runs on into a word (`rule 2d6`, not
/// a citation).
fn runs_on(text: &str, end: usize) -> bool {
    text[end..]
        .chars()
        .next()
        .is_some_and(char::is_alphanumeric)
}

/// Every citation in one file's `text`, and each form that names nothing
/// (an unknown document, `DESIGN` without a heading) as an error;
/// `map_system`: whether it is one of the map systems' files, where bare
/// `A3`, `B4c` and `27.1.6` cite their chapter.
fn citations(text: &str, map_system: bool) -> (Vec<Citation>, Vec<(usize, String, String)>) {
    let (text, starts) = prose(text);
    let line = |offset: usize| starts.partition_point(|&s| s <= offset);
    let mut found = Vec::new();
    let mut wrong = Vec::new();
    let mut cite = |at: usize, said: &str, doc: Doc, section: Option<String>| {
        let c = Citation {
            line: line(at),
            said: said.to_string(),
            doc,
            section,
        };
        if !found.contains(&c) {
            found.push(c);
        }
    };
    for m in NAMED.captures_iter(&text) {
        let (name, whole) = (m.get(1).unwrap(), m.get(0).unwrap());
        let said = &text[name.start()..whole.end()];
        let Some(doc) = Doc::named(name.as_str()) else {
            wrong.push((
                line(name.start()),
                said.to_string(),
                "no such document".into(),
            ));
            continue;
        };
        match m.get(3) {
            Some(_) if runs_on(&text, whole.end()) => {}
            Some(list) => {
                for n in numbers(list.as_str()) {
                    cite(name.start(), said, doc, Some(n));
                }
            }
            // `map-intel` alone is the crate's name, not a citation.
            None if name.as_str() == "map-intel" => {}
            None => cite(name.start(), said, doc, None),
        }
    }
    for m in RULE_WORD.captures_iter(&text) {
        let whole = m.get(0).unwrap();
        if runs_on(&text, whole.end()) {
            continue;
        }
        for n in numbers(&m[1]) {
            cite(whole.start(), whole.as_str(), Doc::by_shape(&n), Some(n));
        }
    }
    for m in RULE_LITERAL.captures_iter(&text) {
        let rule = m.iter().skip(1).flatten().next().unwrap();
        // A named one was read above; a word ("trust", "file") is Muster's
        // own check, not a rule of the game.
        let Some(list) = LITERAL_LIST.captures(rule.as_str()) else {
            continue;
        };
        if list.get(1).is_none() {
            for n in numbers(&list[2]) {
                cite(rule.start(), rule.as_str(), Doc::by_shape(&n), Some(n));
            }
        }
    }
    if map_system {
        for m in BARE.captures_iter(&text) {
            let bare = m.get(1).unwrap();
            for n in numbers(bare.as_str()) {
                cite(bare.start(), bare.as_str(), Doc::MapIntel, Some(n));
            }
        }
    }
    for m in DESIGN.captures_iter(&text) {
        let whole = m.get(0).unwrap();
        match m.get(1) {
            Some(heading) => cite(
                whole.start(),
                whole.as_str(),
                Doc::Design,
                Some(book::slug(heading.as_str())),
            ),
            None => wrong.push((
                line(whole.start()),
                whole.as_str().to_string(),
                "name the heading: DESIGN \"The seat\"".into(),
            )),
        }
    }
    (found, wrong)
}

/// What each document has to cite: its pages' heading ids.
fn reference() -> BTreeMap<Doc, BTreeSet<String>> {
    Doc::ALL
        .into_iter()
        .map(|doc| (doc, book::read(&book::book().join(doc.page())).ids()))
        .collect()
}

/// Every citation of `text` that leads nowhere, as `path:line: said: why`.
fn broken(
    path: &str,
    text: &str,
    reference: &BTreeMap<Doc, BTreeSet<String>>,
) -> (Vec<String>, Vec<Citation>) {
    let map_system = ["map-intel", "map_intel", "wings"]
        .iter()
        .any(|k| path.contains(k));
    let (found, wrong) = citations(text, map_system);
    let mut out: Vec<String> = wrong
        .into_iter()
        .map(|(line, said, why)| format!("{path}:{line}: `{said}`: {why}"))
        .collect();
    for c in &found {
        if let Some(section) = &c.section
            && !reference[&c.doc].contains(section)
        {
            out.push(format!(
                "{path}:{}: `{}`: no section #{section} in docs/src/{}",
                c.line,
                c.said,
                c.doc.page()
            ));
        }
    }
    (out, found)
}

/// The files the code's citations are in, relative to the root.
fn sources() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path
                .extension()
                .is_some_and(|e| e == "rs" || e == "js" || e == "json")
            {
                let rel = path.strip_prefix(book::root()).unwrap();
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    for dir in [
        "crates",
        "src",
        "tests",
        "benches",
        "assets",
        "terrain_tables",
    ] {
        walk(&book::root().join(dir), &mut out);
    }
    out.sort();
    out
}

#[test]
fn every_citation_in_the_code_leads_to_a_section() {
    let reference = reference();
    let mut bad = Vec::new();
    let mut cited = BTreeSet::new();
    for path in sources() {
        // This file's made-up citations are wrong on purpose.
        if path == "tests/citations.rs" {
            continue;
        }
        let text = std::fs::read_to_string(book::root().join(&path)).unwrap();
        let (wrong, found) = broken(&path, &text, &reference);
        bad.extend(wrong);
        cited.extend(found.iter().map(|c| c.doc));
    }
    assert!(
        bad.is_empty(),
        "citations that lead nowhere ({} of them):\n{}",
        bad.len(),
        bad.join("\n")
    );
    // A scanner that found nothing would pass too.
    assert_eq!(
        cited,
        Doc::ALL.into_iter().collect(),
        "each document is cited"
    );
}

/// A numbered heading of the rules reference carries its number as its
/// anchor (`## 8.3 Ambushes {#8.3}`), so that the link a citation makes
/// stays when the heading's words change; and no number is there twice.
#[test]
fn each_section_of_the_reference_is_anchored_by_its_number() {
    static HEADING: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(&format!(r"^({NUMBERED})[. ]")).unwrap());
    for doc in [Doc::Fog, Doc::Deck, Doc::MapIntel] {
        let page = book::read(&book::book().join(doc.page()));
        let mut seen = BTreeSet::new();
        for h in &page.headings {
            if let Some(number) = HEADING.captures(&h.text) {
                assert_eq!(
                    h.id,
                    &number[1],
                    "{}:{}: `{}` is anchored #{}",
                    doc.page(),
                    h.line,
                    h.text,
                    h.id
                );
            }
            assert!(seen.insert(&h.id), "{}: #{} twice", doc.page(), h.id);
        }
    }
}

/// Field of Glory's step list shows each step's rule (`Step::rule`: "8.3",
/// "5-6", "units" for the battle's settings), which no comment or refusal
/// holds: each is a section of its chapter too.
#[test]
fn each_step_of_field_of_glory_names_a_section() {
    let fog = &reference()[&Doc::Fog];
    for step in muster::fog::battle::Step::ALL {
        for n in numbers(step.rule()) {
            assert!(
                fog.contains(&n),
                "{step:?} cites {}: no section #{n} in docs/src/rules/fog.md",
                step.rule()
            );
        }
    }
}

/// The scanner itself, on made-up lines: each wrong citation is named with
/// its line, the right ones and the look-alikes are not.
#[test]
fn a_citation_of_no_section_is_caught() {
    let reference = reference();
    let text = [
        "//! Camps (RULES 8.1), ambushes (RULES 8.3-8.5, 10), nothing (RULES 8.13).",
        "        return refuse(\"8.9\", \"no such rule\");",
        "    RuleError::new(\"trust\", \"a check of Muster's own\")",
        "/// The deck (RULES-deck 6, 9) and the map (RULES-map-",
        "/// intel B12).",
        "// DESIGN \"The seat\"; DESIGN, \"No such heading\"; DESIGN alone.",
        "// RULES-dek 6, then rules 27.9 and rule 2d6 (a die, not a rule).",
        "    assert_eq!(e.rule, \"A7\");",
        "    let pdf = summary_pdf(&g, Paper::A4); let y = 27.9;",
    ]
    .join("\n");
    let (bad, found) = broken("src/made_up.rs", &text, &reference);
    let expected = [
        "src/made_up.rs:1: `RULES 8.13`: no section #8.13 in docs/src/rules/fog.md",
        "src/made_up.rs:2: `8.9`: no section #8.9 in docs/src/rules/fog.md",
        "src/made_up.rs:4: `RULES-deck 6, 9`: no section #9 in docs/src/rules/deck.md",
        "src/made_up.rs:4: `RULES-map-intel B12`: no section #B12 in docs/src/rules/map-intel.md",
        "src/made_up.rs:6: `DESIGN, \"No such heading\"`: no section #no-such-heading in docs/src/design.md",
        "src/made_up.rs:6: `DESIGN`: name the heading: DESIGN \"The seat\"",
        "src/made_up.rs:7: `RULES-dek 6`: no such document",
        "src/made_up.rs:7: `rules 27.9`: no section #27.9 in docs/src/rules/map-intel.md",
        "src/made_up.rs:8: `A7`: no section #A7 in docs/src/rules/map-intel.md",
    ];
    let mut bad = bad;
    bad.sort();
    let mut expected: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(bad, expected);
    let good = |line: usize, doc: Doc, section: &str| {
        found
            .iter()
            .any(|c| c.line == line && c.doc == doc && c.section.as_deref() == Some(section))
    };
    assert!(good(1, Doc::Fog, "8.1") && good(1, Doc::Fog, "8.5") && good(1, Doc::Fog, "10"));
    assert!(good(6, Doc::Design, "the-seat"), "{found:?}");
    // In a map system's file the bare numbers cite their chapter; the
    // paper size and a float do not.
    let (bad, found) = broken(
        "crates/map-intel/src/made_up.rs",
        "// A force stays face up (A3, 27.1.6) or not (B4d, 27.6.4.2-9).\nlet p = Paper::A4; let y = 1.27.3;",
        &reference,
    );
    assert_eq!(
        bad,
        [
            "crates/map-intel/src/made_up.rs:1: `B4d`: no section #B4d in docs/src/rules/map-intel.md",
            "crates/map-intel/src/made_up.rs:1: `27.6.4.2-9`: no section #27.6.4.9 in docs/src/rules/map-intel.md",
        ]
    );
    assert!(found.iter().any(|c| c.section.as_deref() == Some("A3")));
    assert!(!found.iter().any(|c| c.line == 2), "{found:?}");
}
