//! Hostile input for every system, as an opponent or a broken disk makes
//! it: arbitrary JSON and mutated real files and scripts thrown at every
//! loader and script, and files forged with every hash recomputed. Nothing
//! may panic, hang, wrap or allocate without bound; whatever is refused is
//! refused in words; whatever is accepted saves and reopens. A fuzzer's
//! job, done with proptest so CI runs it in bounded time on every build.

#[path = "hostile_input/chained_games.rs"]
mod chained_games;
#[path = "hostile_input/fog.rs"]
mod fog;

use proptest::prelude::*;
use serde_json::Value;

/// Any JSON value, a few levels deep, with the words the files use.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("JSON numbers are finite", |f| f.is_finite())
            .prop_map(Value::from),
        "[a-z_]{0,12}".prop_map(Value::String),
        "[0-9]{4}".prop_map(Value::String),
        Just(Value::String("app".into())),
        Just(Value::String("south".into())),
        Just(Value::String("north".into())),
        (0u64..40).prop_map(Value::from),
        // The edges a count, a turn or a size read from a file must not
        // wrap at.
        prop::sample::select(vec![
            u64::from(u32::MAX),
            u64::from(u32::MAX) + 1,
            u64::MAX,
            usize::MAX as u64
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,10}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Replaces the value at a place inside `v` that `pick` chooses with `with`.
fn mutate(v: &mut Value, mut pick: usize, with: Value) {
    match v {
        Value::Object(map) if !map.is_empty() => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let key = &keys[pick % keys.len()];
            pick /= keys.len();
            let child = map.get_mut(key).expect("a key of this map");
            if pick.is_multiple_of(3) {
                *child = with;
            } else {
                mutate(child, pick / 3, with);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let n = items.len();
            mutate(&mut items[pick % n], pick / n, with);
        }
        other => *other = with,
    }
}

/// Every command line of the example scripts named.
fn example_lines(names: &[&str]) -> Vec<Value> {
    names
        .iter()
        .flat_map(|name| {
            std::fs::read_to_string(format!("examples/scripts/{name}.jsonl"))
                .expect("the example scripts ship with Muster")
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| serde_json::from_str(l).expect("an example line is JSON"))
                .collect::<Vec<Value>>()
        })
        .collect()
}

/// Each result line of a script: JSON, and a refusal says why.
fn refusals_are_in_words(out: &[u8]) -> Result<(), TestCaseError> {
    for line in String::from_utf8_lossy(out).lines() {
        let result: Value =
            serde_json::from_str(line).map_err(|e| TestCaseError::fail(format!("{e}: {line}")))?;
        if result["ok"] == false {
            let error = result["error"].as_str().unwrap_or_default();
            prop_assert!(!error.is_empty(), "{line}");
            prop_assert!(!error.contains("untagged enum"), "{error}");
        }
    }
    Ok(())
}
