use super::*;

#[test]
fn builtin_ruleset_loads_and_validates() {
    let r = Ruleset::from_json(FOG_AM_V3_JSON).unwrap();
    assert_eq!(r.territories.len(), 8);
    assert_eq!(r.troop_types.len(), 16);
    assert_eq!(r.count_group("river"), "river_or_coast");
    assert_eq!(
        r.group_members("river_or_coast").collect::<Vec<_>>(),
        ["river", "coast"]
    );
}

#[test]
fn every_territory_has_two_compulsory_pieces() {
    let r = Ruleset::builtin();
    for (id, t) in &r.territories {
        assert_eq!(t.min.values().sum::<u32>(), 2, "{id}");
    }
}

#[test]
fn type_error_names_path_and_line() {
    let text = FOG_AM_V3_JSON.replacen("\"forest\": 2,", "\"forest\": \"two\",", 1);
    let err = Ruleset::from_json(&text).unwrap_err();
    assert_eq!(err.path, "territories.hilly.max.forest");
    assert!(err.message.contains("expected u32"), "{}", err.message);
    let line = text
        .lines()
        .position(|l| l.contains("\"forest\": \"two\""))
        .unwrap()
        + 1;
    assert_eq!(err.line, Some(line));
    assert!(err.to_string().ends_with(&format!("line {line}")));
}

#[test]
fn semantic_error_names_path_and_line() {
    let text = FOG_AM_V3_JSON.replacen(
        "\"min\": { \"forest\": 2 }",
        "\"min\": { \"forest\": 5 }",
        1,
    );
    let err = Ruleset::from_json(&text).unwrap_err();
    assert_eq!(err.path, "territories.woodlands.min.forest");
    assert!(err.message.contains("exceeds the maximum 4"));
    let line = text
        .lines()
        .position(|l| l.contains("\"forest\": 5"))
        .unwrap()
        + 1;
    assert_eq!(err.line, Some(line));
}

#[test]
fn unknown_field_and_truncation_are_reported() {
    let text = FOG_AM_V3_JSON.replacen("\"spacing\": 4,", "\"spacing\": 4, \"spaceing\": 4,", 1);
    let err = Ruleset::from_json(&text).unwrap_err();
    assert!(err.message.contains("unknown field `spaceing`"), "{err}");
    let err = Ruleset::from_json(&FOG_AM_V3_JSON[..2000]).unwrap_err();
    assert!(
        err.message
            .starts_with("cut short: its text stops at byte 2000"),
        "{err}"
    );
}

#[test]
fn missing_die_face_is_refused() {
    let text = FOG_AM_V3_JSON.replacen("\"6\": \"impassable\"", "\"7\": \"impassable\"", 1);
    let err = Ruleset::from_json(&text).unwrap_err();
    assert_eq!(err.path, "river.going");
}

#[test]
fn adjustment_bands_must_be_contiguous() {
    let text = FOG_AM_V3_JSON.replacen("{ \"min\": 5, \"max\": 5,", "{ \"min\": 6, \"max\": 6,", 1);
    let err = Ruleset::from_json(&text).unwrap_err();
    assert_eq!(err.path, "adjustment.results[2].min");
    assert!(err.line.is_some());
}
