//! A plain-text army list, as players copy one from a list book or a
//! forum post (RULES 1): one battle group a line, its fields separated by
//! commas:
//!
//! ```text
//! # bases, name, troop type, quality, drilled or undrilled[, may dismount]
//! 4, Legio V, heavy foot, superior, drilled
//! 6, Britons, medium foot, average, undrilled
//! ```
//!
//! Blank lines and lines starting with `#` are skipped. Troop types and
//! qualities are matched by name or id, in any case. Every error names its
//! line and field, and the list is taken whole or not at all.

use crate::army::{BattleGroup, MAX_BASES, MAX_BGS, MAX_NAME_CHARS};
use crate::ruleset::Ruleset;
use muster_core::dice::Quality;
use std::fmt;

/// Why a line of the list was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListError {
    /// 1-based.
    pub line: usize,
    pub field: &'static str,
    pub message: String,
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, {}: {}", self.line, self.field, self.message)
    }
}

/// The longest list read: far beyond any army, so a pasted novel is refused
/// at once rather than parsed.
const MAX_TEXT_BYTES: usize = 64 * 1024;

/// Reads every battle group of `text`, or every error found (all lines are
/// checked, so the player fixes them in one go).
pub fn parse_army_list(text: &str, ruleset: &Ruleset) -> Result<Vec<BattleGroup>, Vec<ListError>> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(vec![ListError {
            line: 1,
            field: "list",
            message: format!("the list is {} bytes; at most {MAX_TEXT_BYTES}", text.len()),
        }]);
    }
    let mut bgs = Vec::new();
    let mut errors = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line, n + 1, ruleset) {
            Ok(bg) => bgs.push(bg),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() && bgs.is_empty() {
        errors.push(ListError {
            line: 1,
            field: "list",
            message: "no battle group: write one a line, e.g. \"4, Legio V, heavy foot, superior, drilled\"".into(),
        });
    }
    if errors.is_empty() && bgs.len() > MAX_BGS {
        errors.push(ListError {
            line: text.lines().count(),
            field: "list",
            message: format!("{} battle groups; at most {MAX_BGS}", bgs.len()),
        });
    }
    if errors.is_empty() {
        Ok(bgs)
    } else {
        Err(errors)
    }
}

fn parse_line(line: &str, n: usize, ruleset: &Ruleset) -> Result<BattleGroup, ListError> {
    let err = |field: &'static str, message: String| ListError {
        line: n,
        field,
        message,
    };
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    if !(5..=6).contains(&fields.len()) {
        return Err(err(
            "line",
            format!(
                "{} fields; write bases, name, troop type, quality, drilled or undrilled[, may dismount]",
                fields.len()
            ),
        ));
    }
    let bases: u32 = fields[0]
        .parse()
        .ok()
        .filter(|b| (1..=MAX_BASES).contains(b))
        .ok_or_else(|| {
            err(
                "bases",
                format!(
                    "\"{}\" is not a number of bases from 1 to {MAX_BASES}",
                    fields[0]
                ),
            )
        })?;
    let name = fields[1];
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(err(
            "name",
            format!("a name of 1 to {MAX_NAME_CHARS} characters"),
        ));
    }
    let wanted = fields[2].to_lowercase();
    let troop_type = ruleset
        .troop_types
        .iter()
        .find(|(id, t)| **id == wanted.replace(' ', "_") || t.name.to_lowercase() == wanted)
        .map(|(id, _)| id.clone())
        .ok_or_else(|| {
            let names: Vec<String> = ruleset
                .troop_types
                .values()
                .map(|t| t.name.to_lowercase())
                .collect();
            err(
                "troop type",
                format!("\"{}\" is not one of: {}", fields[2], names.join(", ")),
            )
        })?;
    let quality = Quality::ALL
        .into_iter()
        .find(|q| q.name().eq_ignore_ascii_case(fields[3]))
        .ok_or_else(|| {
            let names: Vec<String> = Quality::ALL
                .iter()
                .map(|q| q.name().to_lowercase())
                .collect();
            err(
                "quality",
                format!("\"{}\" is not one of: {}", fields[3], names.join(", ")),
            )
        })?;
    let drilled = match fields[4].to_lowercase().as_str() {
        "drilled" => true,
        "undrilled" => false,
        other => {
            return Err(err(
                "drilled",
                format!("\"{other}\": write drilled or undrilled"),
            ));
        }
    };
    let may_dismount = match fields.get(5).map(|f| f.to_lowercase()) {
        None => false,
        Some(f) if f == "may dismount" => true,
        Some(f) => {
            return Err(err(
                "may dismount",
                format!("\"{f}\": write may dismount, or leave it out"),
            ));
        }
    };
    Ok(BattleGroup {
        name: name.to_string(),
        troop_type,
        quality,
        drilled,
        bases,
        may_dismount,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ruleset() -> Ruleset {
        Ruleset::builtin()
    }

    #[test]
    fn a_list_reads_whole_with_comments_and_blank_lines() {
        let text = "# Romans\n4, Legio V, heavy foot, superior, drilled\n\n6, Auxilia, Medium Foot, average, drilled, may dismount\n";
        let bgs = parse_army_list(text, &ruleset()).unwrap();
        assert_eq!(bgs.len(), 2);
        assert_eq!(bgs[0].name, "Legio V");
        assert_eq!(bgs[0].troop_type, "heavy_foot");
        assert_eq!(bgs[0].quality, Quality::Superior);
        assert!(bgs[0].drilled && !bgs[0].may_dismount);
        assert_eq!(bgs[1].bases, 6);
        assert!(bgs[1].may_dismount);
    }

    #[test]
    fn every_bad_line_is_named_with_its_field() {
        let text = "4, Legio V, heavy fut, superior, drilled\n0, Empty, heavy foot, average, drilled\n4, Ok, heavy foot, average, drilled\n4, Tired, heavy foot, grumpy, drilled\n4, Odd, heavy foot, average, sometimes\n4, Short, heavy foot\n";
        let errors = parse_army_list(text, &ruleset()).unwrap_err();
        let found: Vec<(usize, &str)> = errors.iter().map(|e| (e.line, e.field)).collect();
        assert_eq!(
            found,
            vec![
                (1, "troop type"),
                (2, "bases"),
                (4, "quality"),
                (5, "drilled"),
                (6, "line")
            ]
        );
        assert!(
            errors[0]
                .to_string()
                .starts_with("line 1, troop type: \"heavy fut\" is not one of: ")
        );
    }

    #[test]
    fn nothing_or_too_much_is_refused() {
        assert!(parse_army_list("# only a comment\n", &ruleset()).is_err());
        let many = "1, A, heavy foot, average, drilled\n".repeat(MAX_BGS + 1);
        let e = parse_army_list(&many, &ruleset()).unwrap_err();
        assert!(e[0].message.contains("at most"));
        let huge = "x".repeat(MAX_TEXT_BYTES + 1);
        assert_eq!(
            parse_army_list(&huge, &ruleset()).unwrap_err()[0].field,
            "list"
        );
    }
}
