//! The one rule for names (issue 49) as a player meets it in hidden forces
//! and dummy wings: players', the scenario's and battle's, sides', units'
//! and named markers' names are refused when blank, longer than 80
//! characters or holding what prints blank, naming the field; two units of
//! one side may not pass for each other.

use muster_core::side::Sides;
use muster_map_intel::Scenario;
use muster_map_intel::wings::scenario::builtin;
use muster_map_intel::wings::setup::{Setup, example_armies};
use serde_json::Value;

fn scenario_with(change: impl FnOnce(&mut Value)) -> String {
    let mut s: Value = serde_json::from_str(&Scenario::example().to_json()).unwrap();
    change(&mut s);
    serde_json::to_string_pretty(&s).unwrap()
}

fn wings(change: impl FnOnce(&mut Setup)) -> Result<(), String> {
    let mut setup = Setup {
        battle: builtin().remove(0),
        players: Sides {
            south: "Ann".into(),
            north: "Bob".into(),
        },
        armies: example_armies(),
        activated: Sides {
            south: false,
            north: false,
        },
        detachments: Sides { south: 0, north: 0 },
        locks: Sides {
            south: None,
            north: None,
        },
    };
    change(&mut setup);
    setup.check().map_err(|e| e.to_string())
}

#[test]
fn the_scenarios_name_has_at_most_80_characters() {
    let e =
        Scenario::from_json(&scenario_with(|s| s["name"] = "x".repeat(10_000).into())).unwrap_err();
    assert_eq!(e.field, "name");
    assert!(e.message.contains("at most 80"), "{e}");
}

#[test]
fn two_units_of_one_side_may_not_look_alike() {
    let e = Scenario::from_json(&scenario_with(|s| {
        let first = s["sides"]["south"]["units"][0]["name"]
            .as_str()
            .unwrap()
            .to_string();
        s["sides"]["south"]["units"][1]["name"] = format!(" {first}").into();
    }))
    .unwrap_err();
    assert_eq!(e.field, "sides.south.units[1].name", "{e}");
    assert!(e.message.contains("looks like"), "{e}");
}

#[test]
fn a_wings_unit_needs_a_name_named_as_its_name() {
    wings(|_| ()).unwrap();
    let e = wings(|s| s.armies.south[0].name = String::new()).unwrap_err();
    assert!(
        e.contains("armies.south[0].name") && e.contains("blank"),
        "{e}"
    );
    let e = wings(|s| s.armies.south[0].name = "x".repeat(300)).unwrap_err();
    assert!(
        e.contains("armies.south[0].name") && e.contains("at most 80"),
        "{e}"
    );
    let e = wings(|s| {
        s.armies.north[1].name = s.armies.north[0].name.to_lowercase();
    })
    .unwrap_err();
    assert!(
        e.contains("armies.north[1].name") && e.contains("looks like"),
        "{e}"
    );
    let e = wings(|s| s.players.north = "Ann\u{2800}".into()).unwrap_err();
    assert!(e.contains("players.north") && e.contains("U+2800"), "{e}");
}
