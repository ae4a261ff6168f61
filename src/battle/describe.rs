//! The log in words: one sentence per event, as a player would say it
//! ("North rolls 4 + 1 (Field Commander C-in-C) = 5").

use super::{Entry, Event};
use crate::ruleset::Ruleset;

pub fn event(event: &Event, ruleset: &Ruleset) -> String {
    match event {
        Event::Configured { settings } => format!(
            "Battle \"{}\": table {} x {} MU, 1 MU = {}, lengths in {}",
            settings.title,
            settings.table.width,
            settings.table.depth,
            settings.mu.name(),
            settings.units.name()
        ),
        Event::ArmySet { side, army } => {
            let mods: i32 = army
                .initiative_modifiers(ruleset)
                .iter()
                .map(|m| m.value)
                .sum();
            format!(
                "{side}: {} plays {} ({} battle groups, {} bases; initiative {mods:+})",
                army.player,
                army.name,
                army.bgs.len(),
                army.bgs.iter().map(|b| b.bases).sum::<u32>()
            )
        }
        Event::InitiativeRolled { side, round, roll } => {
            let round = if *round > 1 {
                format!(" (round {round})")
            } else {
                String::new()
            };
            let by = if roll.is_app() { "app dice" } else { "typed" };
            format!(
                "{side} rolls for initiative{round}: {} [{by}]",
                roll.describe()
            )
        }
        Event::InitiativeTied { total, .. } => {
            format!("Initiative tied at {total}: both players roll again (ruling, rule 2)")
        }
        Event::InitiativeWon { side, south, north } => {
            format!("{side} has the initiative (South {south}, North {north})")
        }
        Event::TerritoryChosen { side, territory } => format!(
            "{side} chooses the territory type: {}",
            ruleset.territory_name(territory)
        ),
        Event::TerrainSelected {
            side,
            terrain,
            large,
            compulsory,
        } => {
            let size = if *large { "large " } else { "" };
            let kind = if *compulsory {
                "compulsory piece"
            } else {
                "selection"
            };
            format!(
                "{side} takes {size}{} ({kind})",
                ruleset.terrain_name(terrain).to_lowercase()
            )
        }
        Event::SelectionFinished { side } => format!("{side} has finished selecting terrain"),
    }
}

/// An entry in words: its events joined.
pub fn entry(entry: &Entry, ruleset: &Ruleset) -> String {
    entry
        .events
        .iter()
        .map(|e| event(e, ruleset))
        .collect::<Vec<_>>()
        .join("; ")
}
