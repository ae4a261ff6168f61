//! The manual (`docs/src`, built with mdBook) read as Markdown reads it:
//! each page's links with their lines and its headings' ids, as mdBook
//! makes them. Included with `#[path]` by the tests that check the manual's
//! links (`manual.rs`) and the code's citations of it (`citations.rs`).

#![allow(dead_code)]

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn book() -> PathBuf {
    root().join("docs").join("src")
}

/// mdBook's id of a heading (its `normalize_id`): letters and digits
/// lowercased, `-` and `_` kept, a space a `-`, anything else dropped.
pub fn slug(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// A heading: its text and its id (the one given as `{#id}`, as mdBook
/// takes it, else the slug of its text).
pub struct Heading {
    pub text: String,
    pub id: String,
    pub line: usize,
}

/// A page's links and images (their targets, each with its line) and its
/// headings.
pub struct Page {
    pub links: Vec<(String, usize)>,
    pub headings: Vec<Heading>,
}

impl Page {
    pub fn ids(&self) -> BTreeSet<String> {
        self.headings.iter().map(|h| h.id.clone()).collect()
    }
}

/// The page at `path`. mdBook reads headings' attributes (`{#8.3}`), so
/// this does too.
pub fn read(path: &Path) -> Page {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let line = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut links = Vec::new();
    let mut headings = Vec::new();
    let mut heading: Option<(String, Option<String>, usize)> = None;
    let parser = Parser::new_ext(&text, Options::ENABLE_HEADING_ATTRIBUTES);
    for (event, range) in parser.into_offset_iter() {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                links.push((dest_url.to_string(), line(range.start)));
            }
            Event::Start(Tag::Heading { id, .. }) => {
                heading = Some((String::new(), id.map(|i| i.to_string()), line(range.start)));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((text, id, line)) = heading.take() {
                    let id = id.unwrap_or_else(|| slug(&text));
                    headings.push(Heading { text, id, line });
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((h, _, _)) = &mut heading {
                    h.push_str(&t);
                }
            }
            _ => {}
        }
    }
    Page { links, headings }
}

/// Every page of the book, in its folders too, sorted.
pub fn chapters() -> Vec<PathBuf> {
    fn walk(dir: &Path, pages: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, pages);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    let mut pages = Vec::new();
    walk(&book(), &mut pages);
    pages.sort();
    pages
}
