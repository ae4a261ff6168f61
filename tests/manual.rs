//! The manual (`docs/src`, built with mdBook) and the README, read as
//! Markdown reads them: every relative link and image leads to a file,
//! every `#anchor` to a heading of its page, a chapter's links stay inside
//! the book (the built book holds nothing else), and every chapter is in
//! `SUMMARY.md`. Issue 40: a broken link fails CI.
//! Chapters in folders (the rules reference) are read too.

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
