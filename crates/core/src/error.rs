//! The error every refused command returns: a sentence a player can read and
//! the rule it cites, so nobody has to look it up to argue.

use serde::Serialize;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleError {
    /// The rule cited, a section of the rules reference (`docs/src/rules`):
    /// Field of Glory's bare ("8.3"), the map systems' bare ("A2",
    /// "27.1.6") or "map-intel 0", the deck's "RULES-deck 6"; or a word
    /// naming Muster's own check ("file" for problems with saved data
    /// rather than with play), which cites no rule of the game.
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
    /// The message and the rule it cites as the players' rulebook names it
    /// ("(rule 8.3)", "(RULES-deck 6)"); Muster's own checks (a
    /// passphrase, a file, a script line) cite no rule of the game.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rule = self.rule.as_str();
        match rule {
            "trust" | "seat" | "test" | "undo" | "script" | "file" | "dice" | "units" | "input"
            | "remote" => {
                write!(f, "{}", self.message)
            }
            _ if rule.starts_with("RULES") => write!(f, "{} ({rule})", self.message),
            _ => match rule.strip_prefix("map-intel ") {
                Some(part) => write!(f, "{} (RULES-map-intel {part})", self.message),
                None => write!(f, "{} (rule {rule})", self.message),
            },
        }
    }
}

impl std::error::Error for RuleError {}

/// Shorthand for a refusal citing `rule`.
pub fn refuse<T>(rule: &str, message: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError::new(rule, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_cites_its_rule_as_the_rulebook_names_it() {
        let said = |rule: &str| RuleError::new(rule, "No").to_string();
        assert_eq!(said("8.3"), "No (rule 8.3)");
        assert_eq!(said("A2"), "No (rule A2)");
        assert_eq!(said("RULES-deck 6"), "No (RULES-deck 6)");
        assert_eq!(said("map-intel 0"), "No (RULES-map-intel 0)");
        assert_eq!(
            said("trust"),
            "No",
            "Muster's own check, no rule of the game"
        );
    }
}
