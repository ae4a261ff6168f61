//! The one rule for names (issue 49) as a player meets it in Field of
//! Glory: the battle's title, a player's, the army's, each commander's and
//! each battle group's name are refused when blank, longer than 80
//! characters or holding what prints blank, naming the field; two pieces
//! of one army may not pass for each other; "Legio ⚔️" is a name.

use muster_core::side::Side;
use muster_fog::army::{Commander, CommanderQuality};
use muster_fog::battle::{Battle, Command, Settings};
use muster_fog::examples;
use muster_fog::ruleset::Ruleset;

fn set_army(change: impl FnOnce(&mut muster_fog::army::Army)) -> Result<(), String> {
    let ruleset = Ruleset::builtin();
    let mut army = examples::army(0, &ruleset);
    change(&mut army);
    let mut battle = Battle::new(ruleset);
    battle
        .apply(Command::SetArmy {
            side: Side::South,
            army,
            lock: None,
        })
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn configure(title: &str) -> Result<(), String> {
    let mut battle = Battle::new(Ruleset::builtin());
    let settings = Settings {
        title: title.into(),
        ..Settings::default()
    };
    battle
        .apply(Command::Configure { settings })
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[test]
fn a_commanders_name_may_not_be_blank() {
    let e = set_army(|a| a.commanders[0].name = "  ".into()).unwrap_err();
    assert!(e.contains("South's commander 1's name is blank"), "{e}");
    let e = set_army(|a| {
        a.commanders.push(Commander {
            name: String::new(),
            quality: CommanderQuality::Troop,
        })
    })
    .unwrap_err();
    assert!(e.contains("South's commander 3's name is blank"), "{e}");
}

#[test]
fn two_battle_groups_of_one_army_may_not_look_alike() {
    let e = set_army(|a| {
        // A Cyrillic "Е" in place of the Latin one.
        a.bgs[1].name = a.bgs[0].name.replace('e', "\u{435}");
        assert_ne!(a.bgs[1].name, a.bgs[0].name);
    })
    .unwrap_err();
    assert!(e.contains("looks like"), "{e}");
    set_army(|a| a.name = "Legio \u{2694}\u{fe0f}".into()).unwrap();
    let e = set_army(|a| a.bgs[0].name = "Legio\u{2800}".into()).unwrap_err();
    assert!(
        e.contains("battle group 1's name") && e.contains("U+2800"),
        "{e}"
    );
}

#[test]
fn the_battles_title_is_not_blank_and_not_a_book() {
    let e = configure(&"Mons Graupius ".repeat(64_300)).unwrap_err();
    assert!(e.contains("title") && e.contains("at most 80"), "{e}");
    let e = configure("   ").unwrap_err();
    assert!(e.contains("title is blank"), "{e}");
    configure("Mons Graupius, AD 83 \u{2694}\u{fe0f}").unwrap();
}
