//! What the packages ship, read back as a packager and a player would: the
//! man pages and shell completions `muster package-files` makes from the
//! command line's own definition (every command's page whole, no page
//! named that is not shipped, no hidden command offered, each option's
//! values completed), and one version everywhere a release states it (the
//! crate, the Debian changelog, the AppStream metainfo).

use std::path::Path;
use std::process::Command;

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The files `muster package-files` writes, by name.
fn package_files() -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_muster"))
        .arg("package-files")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    (dir, names)
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A page's section titles, in order (`.SH NAME`).
fn sections(page: &str) -> Vec<&str> {
    page.lines()
        .filter_map(|l| l.strip_prefix(".SH "))
        .map(|t| t.trim_matches('"'))
        .collect()
}

#[test]
fn every_command_has_a_whole_man_page_and_names_only_pages_that_ship() {
    let (dir, names) = package_files();
    let pages: Vec<&String> = names.iter().filter(|n| n.ends_with(".1")).collect();
    assert_eq!(
        pages,
        [
            "muster-export-pdf.1",
            "muster-join.1",
            "muster-script.1",
            "muster.1"
        ],
        "one page per command, none for the hidden one or for `help`"
    );
    for page in &pages {
        let text = read(dir.path(), page);
        let have = sections(&text);
        for want in [
            "NAME",
            "SYNOPSIS",
            "DESCRIPTION",
            "OPTIONS",
            "EXAMPLES",
            "EXIT STATUS",
            "SEE ALSO",
            "VERSION",
        ] {
            assert!(have.contains(&want), "{page} has no {want}: {have:?}");
        }
        assert!(text.contains(&format!("v{VERSION}")), "{page}");
        // Every page it points to is shipped beside it.
        for (at, _) in text.match_indices("(1)") {
            let start = text[..at]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '\\'))
                .map_or(0, |i| i + 1);
            let named = text[start..at].replace('\\', "");
            assert!(
                names.contains(&format!("{named}.1")),
                "{page} names {named}(1), which is not shipped"
            );
        }
        assert!(!text.contains("package\\-files"), "{page}");
    }
    let muster = read(dir.path(), "muster.1");
    assert_eq!(
        sections(&muster),
        [
            "NAME",
            "SYNOPSIS",
            "DESCRIPTION",
            "OPTIONS",
            "SUBCOMMANDS",
            "FILES",
            "EXAMPLES",
            "EXIT STATUS",
            "SEE ALSO",
            "VERSION"
        ]
    );
    // An option that takes a value shows it, in the synopsis too.
    assert!(
        muster.contains("[\\fB\\-\\-pdf\\-viewer\\fR \\fIPROGRAM\\fR]"),
        "{muster}"
    );
    for folder in ["~/.local/share/muster/autosaves", "~/.config/muster"] {
        assert!(
            muster.contains(&format!(".TP\n\\fB{folder}\\fR")),
            "FILES lacks {folder}"
        );
    }
    let export = read(dir.path(), "muster-export-pdf.1");
    for (value, then) in [("a4", "letter"), ("south", "north")] {
        assert!(
            export.contains(&format!("{value}\n.IP \\(bu 2\n{then}\n")),
            "{value}, {then}: {export}"
        );
    }
}

#[test]
fn completions_offer_every_value_and_no_hidden_command() {
    let (dir, names) = package_files();
    for shell in ["muster.bash", "_muster", "muster.fish"] {
        assert!(names.iter().any(|n| n == shell), "{shell} missing");
        let text = read(dir.path(), shell);
        for word in ["export-pdf", "script", "private-for", "paper", "pdf-viewer"] {
            assert!(text.contains(word), "{shell} lacks {word}");
        }
        assert!(!text.contains("package-files"), "{shell} offers it");
        // `muster help` does not exist: --help says it.
        assert!(!text.contains("help:"), "{shell}");
    }
    let bash = read(dir.path(), "muster.bash");
    let paper = &bash[bash.find("--paper)").expect("--paper's values")..];
    assert!(
        paper[..paper.find(";;").unwrap()].contains("\"a4 letter\""),
        "{paper}"
    );
    assert!(bash.contains("\"south north\""), "--private-for");
    assert!(bash.contains("\"fog deck forces wings\""), "--system");
    let zsh = read(dir.path(), "_muster");
    assert!(zsh.contains(":PAPER:(a4 letter)"), "{zsh}");
    assert!(zsh.contains(":SIDE:(south north)"), "{zsh}");
    assert!(zsh.contains(":PROGRAM:_command_names"), "{zsh}");
    let fish = read(dir.path(), "muster.fish");
    assert!(
        fish.contains(r#"-l paper -d 'Paper size, used landscape' -r -f -a "a4\t''"#),
        "{fish}"
    );
}

/// The version a release states is the crate's, wherever it stands: the
/// Debian changelog's newest entry and the metainfo's newest release (the
/// release workflow refuses a tag that is not it, and the package's name
/// and Help > About take it from the crate).
#[test]
fn the_changelog_and_the_metainfo_name_the_crates_version() {
    let changelog = std::fs::read_to_string(root().join("packaging/changelog")).unwrap();
    let first = changelog.lines().next().unwrap();
    assert_eq!(
        first,
        format!("muster ({VERSION}) unstable; urgency=medium"),
        "packaging/changelog's newest entry"
    );
    let metainfo =
        std::fs::read_to_string(root().join("packaging/io.github.muster.Muster.metainfo.xml"))
            .unwrap();
    let release = metainfo
        .split("<release ")
        .nth(1)
        .expect("the metainfo has a release");
    assert!(
        release.starts_with(&format!("version=\"{VERSION}\"")),
        "the metainfo's newest release: {release}"
    );
}

/// The Debian package ships every file `package-files` writes (a man page
/// compressed), each where Debian looks for it.
#[test]
fn the_package_ships_every_page_and_completion() {
    let (_dir, names) = package_files();
    let cargo = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    for name in &names {
        let (shipped, place) = match name.as_str() {
            page if page.ends_with(".1") => (format!("{page}.gz"), "usr/share/man/man1/"),
            "muster.bash" => (name.clone(), "usr/share/bash-completion/completions/"),
            "_muster" => (name.clone(), "usr/share/zsh/vendor-completions/"),
            "muster.fish" => (name.clone(), "usr/share/fish/vendor_completions.d/"),
            other => panic!("{other}: a file the package does not know"),
        };
        let line = format!("\"target/package-files/{shipped}\" = \"{place}");
        assert!(cargo.contains(&line), "Cargo.toml does not ship {shipped}");
    }
}
