//! The error every refused command returns: a sentence a player can read and
//! the rule it cites, so nobody has to look it up to argue.

use serde::Serialize;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleError {
    /// The rule cited, as numbered in RULES.md ("4", "11"), or "file" for
    /// problems with saved data rather than with play.
    pub rule: String,
    /// What is wrong, in words.
    pub message: String,
}

impl RuleError {
    pub fn new(rule: impl Into<String>, message: impl Into<String>) -> RuleError {
        RuleError {
            rule: rule.into(),
            message: message.into(),
        }
    }

    /// The same refusal, naming the log entry (counted from 1) it came
    /// from: what a replayed file reports.
    pub fn in_entry(self, index: usize) -> RuleError {
        RuleError::new(
            self.rule,
            format!("log entry {}: {}", index + 1, self.message),
        )
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (rule {})", self.message, self.rule)
    }
}

impl std::error::Error for RuleError {}

/// Shorthand for a refusal citing `rule`.
pub fn refuse<T>(rule: &str, message: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError::new(rule, message))
}
