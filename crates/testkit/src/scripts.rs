//! The example scripts (`examples/scripts/`) as a test reads them, and what
//! every script's answer must be: JSON, a refusal in words.

use proptest::prelude::*;
use serde_json::Value;

/// The example scripts' folder, wherever the test runs from.
pub const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/scripts");

/// Every command line of the example scripts named.
pub fn example_lines(names: &[&str]) -> Vec<Value> {
    names
        .iter()
        .flat_map(|name| {
            std::fs::read_to_string(format!("{EXAMPLES}/{name}.jsonl"))
                .expect("the example scripts ship with Muster")
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| serde_json::from_str(l).expect("an example line is JSON"))
                .collect::<Vec<Value>>()
        })
        .collect()
}

/// Each result line of a script: JSON, and a refusal says why.
pub fn refusals_are_in_words(out: &[u8]) -> Result<(), TestCaseError> {
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

/// Lines as a script file holds them.
pub fn script_text(lines: &[Value]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}
