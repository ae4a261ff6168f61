//! Exercitus markers (RULES-map-intel A4, `docs/src/rules/map-intel.md`):
//! a marker placed with units from the off-map area (or none, a bluff) in
//! set-up, a force on the map replaced by one afterwards, and an empty one
//! just revealed placed again, each sealed like any other counter.

use super::work::Work;
use crate::events::{Area, Event, Gone, Holder, Kind};
use crate::map::Hex;
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;

impl Work<'_> {
    pub(super) fn replace_with_exercitus(
        &mut self,
        id: usize,
        number: u8,
    ) -> Result<(), RuleError> {
        let force = self.holder(id)?;
        let side = force.side;
        let replacing = self.public.may_replace.contains(&(side, number));
        if !replacing {
            self.may_act(side)?;
        }
        let force = self.own(side, id)?;
        if force.kind != Kind::Force || !force.on_map() {
            return refuse(
                "A4",
                format!(
                    "An Exercitus replaces a force on the map; {} is not one",
                    self.label(&force)
                ),
            );
        }
        if replacing && force.contents.is_open() && force.revealed.is_some() {
            // A4 ruling (A3 wins): placing the marker would seal a force
            // the opponent may still examine face up.
            return refuse(
                "A4",
                format!(
                    "{} was revealed and stays face up (A3): the Exercitus goes on a face-down force or on a unit in a hex of its own",
                    self.label(&force)
                ),
            );
        }
        if !replacing
            && force.contents.is_open()
            && force.revealed.is_some_and(|turn| turn >= self.public.turn)
        {
            // A3: revealed this turn, it stays face up until its owner's
            // next turn begins; a marker on it would hide it at once.
            return refuse(
                "A3",
                format!(
                    "{} was revealed this turn: it stays face up until the beginning of {} next turn, so no Exercitus replaces it yet",
                    self.label(&force),
                    muster_core::text::possessive(&self.setup.name(side))
                ),
            );
        }
        let marker = self.free_marker(side, number)?;
        let units = self.units(&force)?;
        self.check_statuses(&marker, &units)?;
        let hex = force.hex.expect("on the map");
        let contents = self.seal(&marker, &units)?;
        self.push(Event::Placed {
            id: marker.id,
            hex,
            contents,
        })?;
        self.push(Event::Removed {
            id,
            why: Gone::Replaced,
        })
    }

    /// `side`'s Exercitus marker `number`, off the map and so free to place.
    pub(super) fn free_marker(&self, side: Side, number: u8) -> Result<Holder, RuleError> {
        let Some(marker) = self.public.exercitus(side, number).cloned() else {
            return refuse(
                "A4",
                format!(
                    "{} has Exercitus markers 1 to {}",
                    self.setup.name(side),
                    self.setup.scenario.exercitus
                ),
            );
        };
        if marker.hex.is_some() {
            return refuse(
                "A4",
                format!("{} is on the map already", self.label(&marker)),
            );
        }
        Ok(marker)
    }

    pub(super) fn place_exercitus(
        &mut self,
        side: Side,
        number: u8,
        hex: Hex,
        units: &[String],
    ) -> Result<(), RuleError> {
        if self.public.active.is_some() {
            return refuse(
                "A4",
                "After set-up an Exercitus only replaces a force on the map",
            );
        }
        let hex = self.on_map(hex)?;
        let marker = self.free_marker(side, number)?;
        let area = self
            .public
            .area(side, Area::OffMap)
            .cloned()
            .expect("every side has an off-map area");
        let left = self.without(&area, units)?;
        self.check_statuses(&marker, units)?;
        // The off-map area is sealed anew even for a bluff, so the log
        // shows the same two records either way.
        let rest = self.contents(&area, &left)?;
        self.push(Event::Changed {
            id: area.id,
            contents: rest,
        })?;
        let contents = self.seal(&marker, units)?;
        self.push(Event::Placed {
            id: marker.id,
            hex,
            contents,
        })
    }
}
