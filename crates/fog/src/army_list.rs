//! A plain-text army list, as players copy one from a list book or a
//! forum post (RULES 1): headings for the player, the army, its C-in-C,
//! other commanders and territory types, then one battle group a line, its
//! fields separated by commas:
//!
//! ```text
//! Player: Ann
//! Army: Early Imperial Roman
//! C-in-C: Germanicus, Inspired Commander
//! Commander: Caecina, Troop Commander
//! Territories: Agricultural, Hilly, Woodlands
//! # bases, name, troop type, quality, drilled or undrilled[, may dismount]
//! 4, Legio V, heavy foot, superior, drilled
//! 6, Britons, medium foot, average, undrilled
//! ```
//!
//! Every heading may be left out (the form keeps what it has); the battle
//! groups alone are the list players swap most. No army-list file format
//! is shared widely enough among Field of Glory players to be worth reading
//! instead: lists travel as text like this. Blank lines and lines starting
//! with `#` are skipped. Troop types, qualities, commanders' qualities and
//! territory types are matched by name or id, in any case. Every error
//! names its line and field, and the list is taken whole or not at all.

use crate::army::{
    Army, BattleGroup, Commander, CommanderQuality, MAX_BASES, MAX_BGS, MAX_COMMANDERS,
};
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

/// What a list gave: each heading it had, and its battle groups.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArmyText {
    pub player: Option<String>,
    pub name: Option<String>,
    pub c_in_c: Option<Commander>,
    pub commanders: Vec<Commander>,
    pub territories: Option<Vec<String>>,
    pub bgs: Vec<BattleGroup>,
}

impl ArmyText {
    /// Puts what the list gave into `army`: each heading it had replaces
    /// the form's, its battle groups replace the roster, and its
    /// commanders, when it names any, replace the others.
    pub fn apply(self, army: &mut Army) {
        if let Some(player) = self.player {
            army.player = player;
        }
        if let Some(name) = self.name {
            army.name = name;
        }
        if let Some(c_in_c) = self.c_in_c {
            army.c_in_c = c_in_c;
        }
        if !self.commanders.is_empty() {
            army.commanders = self.commanders;
        }
        if let Some(territories) = self.territories {
            army.territories = territories;
        }
        army.bgs = self.bgs;
    }
}

/// The headings a list may have, each by the names players write.
#[derive(Clone, Copy, PartialEq)]
enum Heading {
    Player,
    Army,
    CInC,
    Commander,
    Territories,
}

const HEADINGS: [(&str, Heading); 10] = [
    ("player", Heading::Player),
    ("army", Heading::Army),
    ("c-in-c", Heading::CInC),
    ("cinc", Heading::CInC),
    ("c in c", Heading::CInC),
    ("general", Heading::CInC),
    ("commander", Heading::Commander),
    ("sub-general", Heading::Commander),
    ("territories", Heading::Territories),
    ("territory types", Heading::Territories),
];

/// Reads a whole army from `text`, or every error found (all lines are
/// checked, so the player fixes them in one go).
pub fn parse_army(text: &str, ruleset: &Ruleset) -> Result<ArmyText, Vec<ListError>> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(vec![ListError {
            line: 1,
            field: "list",
            message: format!("the list is {} bytes; at most {MAX_TEXT_BYTES}", text.len()),
        }]);
    }
    // A line ends at CR LF, LF or a lone CR (an old Mac editor's), so
    // every line number is the one the player's editor shows.
    let text = &text.replace("\r\n", "\n").replace('\r', "\n");
    let mut army = ArmyText::default();
    let mut errors = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let heading = line.split_once(':').and_then(|(key, value)| {
            let key = key.trim().to_lowercase();
            HEADINGS
                .iter()
                .find(|(name, _)| *name == key)
                .map(|(_, h)| (*h, value.trim()))
        });
        let read = match heading {
            Some((heading, value)) => read_heading(&mut army, heading, value, n + 1, ruleset),
            None if line.contains(':') && !line.contains(',') => Err(ListError {
                line: n + 1,
                field: "heading",
                message: format!(
                    "\"{}\" is not a heading of an army list: write Player, Army, C-in-C, Commander or Territories, or start the line with # to skip it",
                    line.split(':').next().unwrap_or_default().trim()
                ),
            }),
            None => parse_line(line, n + 1, ruleset).map(|bg| army.bgs.push(bg)),
        };
        if let Err(e) = read {
            errors.push(e);
        }
    }
    if errors.is_empty() && army.bgs.is_empty() {
        errors.push(ListError {
            line: 1,
            field: "list",
            message: "no battle group: write one a line, e.g. \"4, Legio V, heavy foot, superior, drilled\"".into(),
        });
    }
    if errors.is_empty() && army.bgs.len() > MAX_BGS {
        errors.push(ListError {
            line: text.lines().count(),
            field: "list",
            message: format!("{} battle groups; at most {MAX_BGS}", army.bgs.len()),
        });
    }
    if errors.is_empty() {
        Ok(army)
    } else {
        Err(errors)
    }
}

/// A name as the form takes it: by the one rule for names.
fn name(value: &str, n: usize, field: &'static str) -> Result<String, ListError> {
    let value = value.trim();
    match muster_core::text::name_fault(value) {
        Some(why) => Err(ListError {
            line: n,
            field,
            message: format!("the name {why}"),
        }),
        None => Ok(value.to_string()),
    }
}

/// "Germanicus, Inspired Commander" (the quality may be left out: Field).
fn commander(value: &str, n: usize) -> Result<Commander, ListError> {
    let (who, quality) = match value.split_once(',') {
        Some((who, quality)) => (who, Some(quality.trim().to_lowercase())),
        None => (value, None),
    };
    let quality = match quality {
        None => CommanderQuality::default(),
        Some(q) => CommanderQuality::ALL
            .into_iter()
            .find(|c| c.name().to_lowercase() == q || c.id() == q)
            .ok_or_else(|| ListError {
                line: n,
                field: "commander quality",
                message: format!("\"{q}\" is not one of: inspired, field, troop"),
            })?,
    };
    Ok(Commander {
        name: name(who, n, "commander")?,
        quality,
    })
}

fn read_heading(
    army: &mut ArmyText,
    heading: Heading,
    value: &str,
    n: usize,
    ruleset: &Ruleset,
) -> Result<(), ListError> {
    match heading {
        Heading::Player => army.player = Some(name(value, n, "player")?),
        Heading::Army => army.name = Some(name(value, n, "army")?),
        Heading::CInC => army.c_in_c = Some(commander(value, n)?),
        Heading::Commander => {
            if army.commanders.len() == MAX_COMMANDERS {
                return Err(ListError {
                    line: n,
                    field: "commander",
                    message: format!("at most {MAX_COMMANDERS} commanders besides the C-in-C"),
                });
            }
            army.commanders.push(commander(value, n)?);
        }
        Heading::Territories => {
            let mut ids = Vec::new();
            for wanted in value.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                let lower = wanted.to_lowercase();
                let id = ruleset
                    .territories
                    .iter()
                    .find(|(id, t)| **id == lower || t.name.to_lowercase() == lower)
                    .map(|(id, _)| id.clone())
                    .ok_or_else(|| ListError {
                        line: n,
                        field: "territories",
                        message: format!(
                            "\"{wanted}\" is not one of: {}",
                            ruleset
                                .territories
                                .values()
                                .map(|t| t.name.to_lowercase())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    })?;
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
            if !(1..=8).contains(&ids.len()) {
                return Err(ListError {
                    line: n,
                    field: "territories",
                    message: format!("{} territory types; the rules allow 1 to 8", ids.len()),
                });
            }
            army.territories = Some(ids);
        }
    }
    Ok(())
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
    let name = name(fields[1], n, "name")?;
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
        name,
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
        let bgs = parse_army(text, &ruleset()).unwrap().bgs;
        assert_eq!(bgs.len(), 2);
        assert_eq!(bgs[0].name, "Legio V");
        assert_eq!(bgs[0].troop_type, "heavy_foot");
        assert_eq!(bgs[0].quality, Quality::Superior);
        assert!(bgs[0].drilled && !bgs[0].may_dismount);
        assert_eq!(bgs[1].bases, 6);
        assert!(bgs[1].may_dismount);
    }

    /// Issue 39: a list whose lines end in a lone CR was refused as a
    /// control character; each of the three line ends reads alike, and a
    /// bad line is named by the number the player's editor shows.
    #[test]
    fn a_list_reads_with_any_line_ends() {
        for end in ["\n", "\r\n", "\r"] {
            let text = [
                "# Romans",
                "4, Legio V, heavy foot, superior, drilled",
                "",
                "6, Auxilia, medium foot, average, drilled",
            ]
            .join(end);
            let bgs = parse_army(&text, &ruleset())
                .unwrap_or_else(|e| panic!("{end:?}: {e:?}"))
                .bgs;
            assert_eq!(bgs.len(), 2, "{end:?}");
            let bad = [
                "4, Legio V, heavy foot, superior, drilled",
                "",
                "4, Odd, heavy fut, average, drilled",
            ]
            .join(end);
            let errors = parse_army(&bad, &ruleset()).unwrap_err();
            assert_eq!(errors[0].line, 3, "{end:?}: {errors:?}");
        }
    }

    #[test]
    fn every_bad_line_is_named_with_its_field() {
        let text = "4, Legio V, heavy fut, superior, drilled\n0, Empty, heavy foot, average, drilled\n4, Ok, heavy foot, average, drilled\n4, Tired, heavy foot, grumpy, drilled\n4, Odd, heavy foot, average, sometimes\n4, Short, heavy foot\n";
        let errors = parse_army(text, &ruleset()).unwrap_err();
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

    /// Issue 32: "Legio \u{202e}XX\u{202c} V\u{0}" was taken as a name
    /// and would print reversed in the log and on paper. A control or a
    /// bidirectional override is refused, its line and field named.
    #[test]
    fn a_name_with_a_control_or_a_bidirectional_override_is_refused() {
        let text = "Army: Legio \u{202e}XX\u{202c}\n4, Legio V\u{0}, heavy foot, average, drilled\n4, Legio \u{202e}XX\u{202c} V, heavy foot, average, drilled\n";
        let errors = parse_army(text, &ruleset()).unwrap_err();
        let found: Vec<(usize, &str)> = errors.iter().map(|e| (e.line, e.field)).collect();
        assert_eq!(
            found,
            vec![(1, "army"), (2, "name"), (3, "name")],
            "{errors:?}"
        );
        assert!(errors[2].message.contains("U+202E"), "{}", errors[2]);
        assert!(errors[1].message.contains("U+0000"), "{}", errors[1]);
    }

    #[test]
    fn nothing_or_too_much_is_refused() {
        assert!(parse_army("# only a comment\n", &ruleset()).is_err());
        let many = "1, A, heavy foot, average, drilled\n".repeat(MAX_BGS + 1);
        let e = parse_army(&many, &ruleset()).unwrap_err();
        assert!(e[0].message.contains("at most"));
        let huge = "x".repeat(MAX_TEXT_BYTES + 1);
        assert_eq!(parse_army(&huge, &ruleset()).unwrap_err()[0].field, "list");
    }

    /// A whole army, as a player keeps it in a note: every heading read,
    /// matched in any case by name or id, and put into the form; a bad
    /// heading is named by its line and field with the rest.
    #[test]
    fn a_whole_army_reads_with_its_headings() {
        let text = "Player: Ann\nArmy: Early Imperial Roman\nC-in-C: Germanicus, Inspired Commander\nCommander: Caecina, troop\nSub-general: Silius\nTerritories: Agricultural, hilly, Woodlands\n\n4, Legio V, heavy foot, superior, drilled\n";
        let army = parse_army(text, &ruleset()).unwrap();
        assert_eq!(army.player.as_deref(), Some("Ann"));
        assert_eq!(army.name.as_deref(), Some("Early Imperial Roman"));
        let c = army.c_in_c.clone().unwrap();
        assert_eq!(
            (c.name.as_str(), c.quality),
            ("Germanicus", CommanderQuality::Inspired)
        );
        let qualities: Vec<_> = army.commanders.iter().map(|c| c.quality).collect();
        assert_eq!(
            qualities,
            [CommanderQuality::Troop, CommanderQuality::Field]
        );
        assert_eq!(
            army.territories.as_deref(),
            Some(
                &[
                    "agricultural".to_string(),
                    "hilly".into(),
                    "woodlands".into()
                ][..]
            )
        );
        let mut draft = crate::examples::army(0, &ruleset());
        army.apply(&mut draft);
        assert_eq!(draft.player, "Ann");
        assert_eq!(draft.commanders.len(), 2);
        assert_eq!(draft.bgs.len(), 1);

        let bad = "Player: Ann\nTerritories: Hilly, Swamp\nC-in-C: Varus, Dreadful\nPoints: 800\n4, Legio V, heavy foot, superior, drilled\n";
        let errors = parse_army(bad, &ruleset()).unwrap_err();
        let found: Vec<(usize, &str)> = errors.iter().map(|e| (e.line, e.field)).collect();
        assert_eq!(
            found,
            [(2, "territories"), (3, "commander quality"), (4, "heading")]
        );
    }
}
