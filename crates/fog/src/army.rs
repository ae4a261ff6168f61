//! Armies as the players enter them (RULES 1), and what the rest of the
//! sequence reads from them: the initiative modifiers of RULES 2.

use crate::ruleset::Ruleset;
use muster_core::dice::{Modifier, Quality};
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommanderQuality {
    Inspired,
    #[default]
    Field,
    Troop,
}

impl CommanderQuality {
    pub const ALL: [CommanderQuality; 3] = [
        CommanderQuality::Inspired,
        CommanderQuality::Field,
        CommanderQuality::Troop,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CommanderQuality::Inspired => "Inspired Commander",
            CommanderQuality::Field => "Field Commander",
            CommanderQuality::Troop => "Troop Commander",
        }
    }

    /// The id the ruleset uses ("inspired", "field", "troop").
    pub fn id(self) -> &'static str {
        match self {
            CommanderQuality::Inspired => "inspired",
            CommanderQuality::Field => "field",
            CommanderQuality::Troop => "troop",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Commander {
    pub name: String,
    pub quality: CommanderQuality,
}

/// A battle group of the roster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleGroup {
    pub name: String,
    /// A troop type id of the ruleset ("light_horse").
    pub troop_type: String,
    pub quality: Quality,
    pub drilled: bool,
    pub bases: u32,
    pub may_dismount: bool,
}

impl Default for BattleGroup {
    fn default() -> Self {
        BattleGroup {
            name: String::new(),
            troop_type: "medium_foot".into(),
            quality: Quality::Average,
            drilled: false,
            bases: 4,
            may_dismount: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Army {
    pub player: String,
    pub name: String,
    /// Territory type ids the army list allows (1 to 8).
    pub territories: Vec<String>,
    pub c_in_c: Commander,
    pub commanders: Vec<Commander>,
    pub bgs: Vec<BattleGroup>,
}

/// The most battle groups an army may list: far beyond any Field of Glory
/// army, and what a flank march's sealed record is padded for.
pub const MAX_BGS: usize = 64;
/// The most bases one battle group may have (a large one has 12).
pub const MAX_BASES: u32 = 100;
/// The most commanders besides the C-in-C.
pub const MAX_COMMANDERS: usize = 16;
impl Army {
    /// Checks the army is complete enough to play (RULES 1), and within the
    /// bounds that keep every count and sum exact.
    pub fn validate(&self, ruleset: &Ruleset, side: Side) -> Result<(), RuleError> {
        for (what, count, max) in [
            ("battle groups", self.bgs.len(), MAX_BGS),
            ("commanders", self.commanders.len(), MAX_COMMANDERS),
        ] {
            if count > max {
                return refuse(
                    "1",
                    format!("{side}'s army lists {count} {what}; at most {max}"),
                );
            }
        }
        let named = |what: &str, name: &str| -> Result<(), RuleError> {
            match muster_core::text::name_fault(name) {
                Some(why) => refuse("1", format!("{side}'s {what} name {why}")),
                None => Ok(()),
            }
        };
        named("player's", &self.player)?;
        named("army's", &self.name)?;
        named("C-in-C's", &self.c_in_c.name)?;
        for (i, c) in self.commanders.iter().enumerate() {
            named(&format!("commander {}'s", i + 1), &c.name)?;
        }
        for (i, g) in self.bgs.iter().enumerate() {
            named(&format!("battle group {}'s", i + 1), &g.name)?;
        }
        // The log, the table and the printout name each piece.
        let pieces: Vec<&str> = std::iter::once(&self.c_in_c.name)
            .chain(self.commanders.iter().map(|c| &c.name))
            .chain(self.bgs.iter().map(|g| &g.name))
            .map(String::as_str)
            .collect();
        if let Some((first, second)) = muster_core::text::look_alikes(&pieces) {
            return refuse(
                "1",
                format!(
                    "{side}'s \"{second}\" looks like \"{first}\": the log and the table could not tell them apart"
                ),
            );
        }
        if self.territories.is_empty() {
            return refuse(
                "1",
                format!("{side}'s army allows no territory type; tick 1 to 8"),
            );
        }
        for (i, t) in self.territories.iter().enumerate() {
            if !ruleset.territories.contains_key(t) {
                return refuse(
                    "1",
                    format!("{side}'s army lists unknown territory \"{t}\""),
                );
            }
            if self.territories[..i].contains(t) {
                return refuse(
                    "1",
                    format!("{side}'s army lists {} twice", ruleset.territory_name(t)),
                );
            }
        }
        if self.bgs.is_empty() {
            return refuse(
                "1",
                format!("{side}'s army has no battle groups; add at least one to the roster"),
            );
        }
        for (i, bg) in self.bgs.iter().enumerate() {
            let row = i + 1;
            if !ruleset.troop_types.contains_key(&bg.troop_type) {
                return refuse(
                    "1",
                    format!(
                        "{side}'s battle group {row} ({}) has unknown troop type \"{}\"",
                        bg.name, bg.troop_type
                    ),
                );
            }
            if bg.bases == 0 {
                return refuse(
                    "1",
                    format!("{side}'s battle group {row} ({}) has no bases", bg.name),
                );
            }
            if bg.bases > MAX_BASES {
                return refuse(
                    "1",
                    format!(
                        "{side}'s battle group {row} ({}) has {} bases; at most {MAX_BASES}",
                        bg.name, bg.bases
                    ),
                );
            }
        }
        Ok(())
    }

    /// Bases of the troop types that count for initiative (RULES 2, data).
    pub fn initiative_bases(&self, ruleset: &Ruleset) -> u32 {
        self.bgs
            .iter()
            .filter(|bg| {
                ruleset
                    .troop_types
                    .get(&bg.troop_type)
                    .is_some_and(|t| t.counts_for_initiative)
            })
            .map(|bg| bg.bases)
            .fold(0u32, u32::saturating_add)
    }

    /// The initiative modifiers this army earns (RULES 2).
    pub fn initiative_modifiers(&self, ruleset: &Ruleset) -> Vec<Modifier> {
        let mut out = Vec::new();
        let c = &ruleset.initiative.c_in_c;
        let value = match self.c_in_c.quality {
            CommanderQuality::Inspired => c.inspired,
            CommanderQuality::Field => c.field,
            CommanderQuality::Troop => c.troop,
        };
        if value != 0 {
            out.push(Modifier {
                reason: format!("{} C-in-C", self.c_in_c.quality.name()),
                value,
            });
        }
        let bases = self.initiative_bases(ruleset);
        let band = ruleset
            .initiative
            .mounted_bases
            .iter()
            .find(|b| bases >= b.min && b.max.is_none_or(|max| bases <= max));
        if let Some(band) = band {
            out.push(Modifier {
                reason: format!("{bases} mounted bases"),
                value: band.modifier,
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bg(troop: &str, bases: u32) -> BattleGroup {
        BattleGroup {
            name: format!("{troop} x{bases}"),
            troop_type: troop.into(),
            bases,
            ..BattleGroup::default()
        }
    }

    pub fn army(bgs: Vec<BattleGroup>) -> Army {
        Army {
            player: "Ann".into(),
            name: "Romans".into(),
            territories: vec!["agricultural".into()],
            c_in_c: Commander {
                name: "Marius".into(),
                quality: CommanderQuality::Field,
            },
            commanders: vec![],
            bgs,
        }
    }

    #[test]
    fn initiative_bands() {
        let r = Ruleset::builtin();
        let total = |a: &Army| {
            a.initiative_modifiers(&r)
                .iter()
                .map(|m| m.value)
                .sum::<i32>()
        };
        let mut a = army(vec![
            bg("cavalry", 4),
            bg("light_horse", 5),
            bg("knights", 8),
        ]);
        assert_eq!(a.initiative_bases(&r), 9, "knights do not count");
        assert_eq!(total(&a), 1, "Field C-in-C only");
        a.bgs.push(bg("camelry", 1));
        assert_eq!(total(&a), 2, "10 bases: +1");
        a.bgs.push(bg("light_chariots", 14));
        assert_eq!(a.initiative_bases(&r), 24);
        assert_eq!(total(&a), 2, "24 bases is still +1");
        a.bgs.push(bg("cavalry", 1));
        assert_eq!(total(&a), 3, "over 24: +2");
        a.c_in_c.quality = CommanderQuality::Inspired;
        assert_eq!(total(&a), 4);
        a.c_in_c.quality = CommanderQuality::Troop;
        assert_eq!(total(&a), 2);
    }

    #[test]
    fn validation_names_the_problem() {
        let r = Ruleset::builtin();
        let e = army(vec![]).validate(&r, Side::North).unwrap_err();
        assert_eq!(
            e.message,
            "North's army has no battle groups; add at least one to the roster"
        );
        let mut a = army(vec![bg("cavalry", 0)]);
        let e = a.validate(&r, Side::South).unwrap_err();
        assert!(e.message.contains("has no bases"), "{e}");
        a.bgs[0].bases = 4;
        a.territories.push("agricultural".into());
        let e = a.validate(&r, Side::South).unwrap_err();
        assert!(e.message.contains("Agricultural twice"), "{e}");
        a.territories = vec!["swamp".into()];
        assert!(a.validate(&r, Side::South).is_err());
        a.territories = vec!["hilly".into()];
        assert!(a.validate(&r, Side::South).is_ok());
    }

    #[test]
    fn hostile_counts_are_refused_not_wrapped() {
        let r = Ruleset::builtin();
        // 4294967295 + 13 bases would wrap to 12 in u32 arithmetic.
        let a = army(vec![bg("cavalry", u32::MAX), bg("cavalry", 13)]);
        let e = a.validate(&r, Side::South).unwrap_err();
        assert!(e.message.contains("4294967295 bases; at most 100"), "{e}");
        assert_eq!(a.initiative_bases(&r), u32::MAX, "the sum saturates");
        let many = army((0..=MAX_BGS).map(|_| bg("cavalry", 4)).collect());
        let e = many.validate(&r, Side::South).unwrap_err();
        assert!(e.message.contains("65 battle groups; at most 64"), "{e}");
        let mut long = army(vec![bg("cavalry", 4)]);
        long.territories = vec!["hilly".into()];
        long.player = "x".repeat(81);
        let e = long.validate(&r, Side::South).unwrap_err();
        assert!(e.message.contains("at most 80"), "{e}");
        // Issue 32: a control or a bidirectional override in any name.
        long.player = "Ann".into();
        long.bgs[0].name = "Legio \u{202e}XX\u{202c} V".into();
        let e = long.validate(&r, Side::South).unwrap_err();
        assert!(
            e.message
                .contains("battle group 1's name holds a bidirectional control"),
            "{e}"
        );
    }
}
