//! The folders the README, the manual and the man page name for Muster's
//! autosaves and settings (and the inventory file among them) are the ones
//! the program uses, on the system the
//! test runs on (each names all three systems' folders; the others are
//! checked where they run): a folder written as `~/.local/share/…` is the
//! program's once `~/.local/share` is read as the platform reads it.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// How this system's folders are written in the texts, and what each
/// written start stands for here.
fn written_starts() -> Vec<(&'static str, PathBuf)> {
    let env = |var: &str| std::env::var_os(var).map(PathBuf::from);
    let home = || env("HOME").expect("a home folder");
    if cfg!(windows) {
        vec![("%APPDATA%\\", env("APPDATA").expect("APPDATA"))]
    } else if cfg!(target_os = "macos") {
        vec![(
            "~/Library/Application Support/",
            home().join("Library/Application Support"),
        )]
    } else {
        // XDG's variables when set to an absolute path, as the program
        // reads them; the texts name the usual places.
        let xdg = |var: &str, usual: &str| {
            env(var)
                .filter(|p| p.is_absolute())
                .unwrap_or_else(|| home().join(usual))
        };
        vec![
            ("~/.local/share/", xdg("XDG_DATA_HOME", ".local/share")),
            ("~/.config/", xdg("XDG_CONFIG_HOME", ".config")),
        ]
    }
}

/// Every folder of this system a text names, as written and as it stands
/// here: from a written start to the end of its code span or sentence.
fn named_folders(text: &str) -> Vec<(String, PathBuf)> {
    let mut found = Vec::new();
    for (start, base) in written_starts() {
        for (at, _) in text.match_indices(start) {
            let rest = &text[at + start.len()..];
            let end = rest
                .find(['`', '\n', '|', ',', ';', ')', '*'])
                .unwrap_or(rest.len());
            let tail = rest[..end].trim_end_matches(['.', '/', '\\', ' ']);
            let written = format!("{start}{tail}");
            let mut here = base.clone();
            for part in tail.split(['/', '\\']).filter(|p| !p.is_empty()) {
                here.push(part);
            }
            found.push((written, here));
        }
    }
    found
}

/// The man page as text: roff's escapes undone.
fn man_page() -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_muster"))
        .arg("package-files")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    std::fs::read_to_string(dir.path().join("muster.1"))
        .unwrap()
        .replace("\\fB", "`")
        .replace("\\fR", "`")
        .replace("\\-", "-")
        .replace("\\\\", "\\")
}

#[test]
fn the_folders_the_readme_the_manual_and_the_man_page_name_are_the_programs() {
    let autosaves = muster::core::store::autosave_dir().expect("an autosave folder");
    let inventory = muster::fog::inventory::config_path().expect("a settings folder");
    let settings = inventory.parent().unwrap().to_path_buf();
    let mut texts = vec![
        (
            "README.md".to_string(),
            std::fs::read_to_string(root().join("README.md")).unwrap(),
        ),
        ("the man page".to_string(), man_page()),
    ];
    for entry in std::fs::read_dir(root().join("docs/src")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            let text = std::fs::read_to_string(&path).unwrap();
            texts.push((path.display().to_string(), text));
        }
    }
    let mut wrong = Vec::new();
    for (name, text) in &texts {
        let named = named_folders(text);
        for (written, here) in &named {
            if ![&autosaves, &settings, &inventory].contains(&here) {
                wrong.push(format!(
                    "{name} names {written} ({}), which Muster does not use: its autosaves are in {} and its settings in {}",
                    here.display(),
                    autosaves.display(),
                    settings.display()
                ));
            }
        }
        // The front door, the manual's first chapter and the man page name
        // both.
        if name == "README.md" || name == "the man page" || name.ends_with("introduction.md") {
            for (what, folder) in [("autosaves", &autosaves), ("settings", &settings)] {
                if !named.iter().any(|(_, here)| here == folder) {
                    wrong.push(format!("{name} does not say where the {what} are"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The reader of the texts itself: a folder of another case or place is
/// read as what it stands for, not passed over.
#[test]
fn a_folder_is_read_to_the_end_of_its_span() {
    let (start, base) = written_starts().remove(0);
    let text = format!("autosaves in `{start}Muster/autosaves` or {start}muster/x/.\n");
    let named = named_folders(&text);
    assert_eq!(named.len(), 2, "{named:?}");
    assert_eq!(named[0].1, base.join("Muster").join("autosaves"));
    assert_eq!(named[1].0, format!("{start}muster/x"));
}
