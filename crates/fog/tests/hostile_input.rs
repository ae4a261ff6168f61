//! Hostile input for Field of Glory, as an opponent or a broken disk makes
//! it. Nothing may panic, hang, wrap or allocate without bound; whatever is
//! refused is refused in words; whatever is accepted saves and reopens.
//!
//! Field of Glory: arbitrary JSON and mutated real commands thrown at
//! every loader (battle, roster, inventory, ruleset) and at the scripting
//! interface at several points of a battle; and every number a click or a
//! script can make survives save and open bit for bit.

use muster_fog::battle::{Battle, Command, Settings, TableSize};
use muster_fog::files::{battle_from_json, battle_to_json, roster_from_json};
use muster_fog::ruleset::Ruleset;
use muster_testkit::json::{any_json, mutate};
use muster_testkit::scripts::example_lines;
use proptest::prelude::*;
use serde_json::Value;

/// Battles at several points of the sequence, to throw commands at: made
/// once (the example battle's unlock runs Argon2id), cloned per case.
fn battles() -> Vec<Battle> {
    static BATTLES: std::sync::OnceLock<Vec<Battle>> = std::sync::OnceLock::new();
    BATTLES.get_or_init(make_battles).clone()
}

fn make_battles() -> Vec<Battle> {
    let r = Ruleset::builtin();
    let fresh = Battle::new(r.clone());
    let mut armies = Battle::new(r.clone());
    for (side, i) in [
        (muster_core::side::Side::South, 0),
        (muster_core::side::Side::North, 1),
    ] {
        armies
            .apply(Command::SetArmy {
                side,
                army: muster_fog::examples::army(i, &r),
                lock: None,
            })
            .unwrap();
    }
    vec![fresh, armies, muster_fog::examples::terrain_battle()]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_json_never_panics_a_loader(v in any_json()) {
        let text = v.to_string();
        let r = Ruleset::builtin();
        let _ = battle_from_json(&text);
        let _ = roster_from_json(&text, &r);
        let _ = muster_fog::inventory::Inventory::from_json(&text, &r);
        let _ = Ruleset::from_json(&text);
        let mut b = Battle::new(r);
        let _ = muster_fog::script::run_line(&mut b, &text, 1);
    }

    /// A pasted army list of any lines: a heading, a battle group or
    /// noise, any characters. Read or refused with every error's line.
    #[test]
    fn any_pasted_army_list_is_read_or_refused_by_line(
        lines in prop::collection::vec(
            prop_oneof![
                "(Player|Army|C-in-C|Commander|Territories|Points): [^\n]{0,40}",
                "[0-9]{1,4}, [^,\n]{0,20}, (heavy foot|light horse|x), (average|elite|y), (drilled|undrilled)(, may dismount)?",
                "[^\n]{0,60}",
            ],
            0..40,
        )
    ) {
        let text = lines.join("\n");
        let r = Ruleset::builtin();
        match muster_fog::army_list::parse_army(&text, &r) {
            Ok(army) => prop_assert!(!army.bgs.is_empty()),
            Err(errors) => {
                prop_assert!(!errors.is_empty());
                // Lines as an editor counts them: a lone CR ends one too.
                let count = text.replace("\r\n", "\n").replace('\r', "\n").lines().count().max(1);
                for e in errors {
                    prop_assert!(e.line >= 1 && e.line <= count, "{e}");
                }
            }
        }
    }

    #[test]
    fn mutated_commands_never_panic_and_are_refused_in_words(
        line in any::<prop::sample::Index>(),
        pick in any::<usize>(),
        with in any_json(),
        at in 0usize..3,
    ) {
        let lines = example_lines(&["selection", "placement", "deployment"]);
        let mut v = lines[line.index(lines.len())].clone();
        mutate(&mut v, pick, with);
        let mut b = battles().swap_remove(at);
        let result = muster_fog::script::run_line(&mut b, &v.to_string(), 7);
        if result["ok"] == false {
            let error = result["error"].as_str().unwrap();
            prop_assert!(!error.contains("untagged enum"), "{error}");
            prop_assert!(!error.is_empty());
        }
        // Whatever was accepted saves and reopens.
        let text = battle_to_json(&b);
        let again = battle_from_json(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(again.log(), b.log());
    }

    #[test]
    fn mutated_saved_battles_never_panic_the_loader(
        pick in any::<usize>(),
        with in any_json(),
    ) {
        let text = muster_fog::examples::TERRAIN_BATTLE;
        let mut v: Value = serde_json::from_str(text).unwrap();
        mutate(&mut v, pick, with);
        let _ = battle_from_json(&serde_json::to_string_pretty(&v).unwrap());
    }

    #[test]
    fn any_finite_number_in_a_command_survives_json_bit_for_bit(
        x in any::<f64>().prop_filter("finite", |f| f.is_finite()),
        y in any::<f64>().prop_filter("finite", |f| f.is_finite()),
    ) {
        let commands = [
            Command::PlacePiece { side: muster_core::side::Side::South, pose: muster_fog::geometry::Pose::new(x, y, x) },
            Command::PlaceRoad { side: muster_core::side::Side::North, points: vec![[x, y], [y, x]] },
            Command::PlaceWaterway { side: muster_core::side::Side::South, edge: muster_fog::geometry::SideEdge::West, width: x, offset: y },
        ];
        for command in commands {
            let text = serde_json::to_string(&command).unwrap();
            let back: Command = serde_json::from_str(&text).unwrap();
            prop_assert_eq!(serde_json::to_string(&back).unwrap(), text);
            prop_assert_eq!(format!("{back:?}"), format!("{command:?}"));
        }
    }

    #[test]
    fn a_legal_battle_with_any_table_depth_saves_and_reopens_exactly(
        width in 72.0f64..120.0,
        depth in 24.0f64..72.0,
    ) {
        let mut b = Battle::new(Ruleset::builtin());
        let settings = Settings { table: TableSize { width, depth }, ..Settings::default() };
        b.apply(Command::Configure { settings }).unwrap();
        let again = battle_from_json(&battle_to_json(&b)).unwrap();
        let table = &again.state().settings.table;
        prop_assert_eq!(table.width.to_bits(), width.to_bits());
        prop_assert_eq!(table.depth.to_bits(), depth.to_bits());
    }
}
