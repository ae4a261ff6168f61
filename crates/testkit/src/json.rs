//! Hostile JSON: any value a few levels deep (with the words the files
//! use and the numbers at which a count would wrap), and one value of a
//! real file or command changed anywhere.

use proptest::prelude::*;
use serde_json::Value;

/// Any JSON value, a few levels deep, with the words the files use.
pub fn any_json() -> impl Strategy<Value = Value> {
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
pub fn mutate(v: &mut Value, mut pick: usize, with: Value) {
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

/// A shipped data file with one value changed.
pub fn mutated_data(text: &str, pick: usize, with: Value) -> String {
    let mut v: Value = serde_json::from_str(text).unwrap();
    mutate(&mut v, pick, with);
    serde_json::to_string_pretty(&v).unwrap()
}
