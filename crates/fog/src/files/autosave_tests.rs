//! Autosaves of Field of Glory battles (core `store::autosave`).

use super::*;
use crate::battle::{Command, Settings};
use crate::ruleset::Ruleset;
use muster_core::store::Autosaves;
use muster_core::store::KEEP;

fn titled(title: &str) -> Battle {
    let mut b = Battle::new(Ruleset::builtin());
    b.apply(Command::Configure {
        settings: Settings {
            title: title.into(),
            ..Settings::default()
        },
    })
    .unwrap();
    b
}

#[test]
fn each_battle_keeps_its_own_autosave() {
    let dir = tempfile::tempdir().unwrap();
    let saves = Autosaves::new(dir.path().join("autosaves"));
    let first = titled("Cannae");
    let second = titled("Zama");
    saves.save(&first).unwrap();
    saves.save(&second).unwrap();
    let list = saves.recent();
    assert_eq!(list.len(), 2);
    let titles: Vec<&str> = list.iter().map(|r| r.title.as_str()).collect();
    assert!(titles.contains(&"Cannae") && titles.contains(&"Zama"));
    let again = crate::files::load_battle(&saves.path(first.id())).unwrap();
    assert_eq!(again.state().settings.title, "Cannae");
    assert!(list[0].describe().contains("UTC"), "{}", list[0].describe());
    assert!(list[0].players.contains("no army yet"));
}

#[test]
fn only_the_newest_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let saves = Autosaves::new(dir.path().to_path_buf());
    for i in 0..KEEP + 2 {
        saves.save(&titled(&format!("Battle {i}"))).unwrap();
    }
    assert_eq!(saves.recent().len(), KEEP);
    let files = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(files, 2 * KEEP, "a battle file and a note each");
}

#[test]
fn a_note_naming_another_path_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let saves = Autosaves::new(dir.path().to_path_buf());
    let b = titled("Cannae");
    saves.save(&b).unwrap();
    let note = saves.note(b.id());
    let text = std::fs::read_to_string(&note)
        .unwrap()
        .replace(b.id(), "../../etc/passwd");
    std::fs::write(&note, text).unwrap();
    assert!(saves.recent().is_empty());
}
