//! Battle settings: title, table size, what 1 MU is and the display unit
//! (the table and its measures, `docs/src/rules/fog.md#units`).

use super::{Event, State};
use crate::geometry::survey::Fix;
use crate::units::{LengthUnit, MuScale};
use muster_core::error::{RuleError, refuse};
use serde::{Deserialize, Serialize};

/// The playing area in MU: x along the long edges, y across.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSize {
    pub width: f64,
    pub depth: f64,
}

impl TableSize {
    /// The smallest side that leaves room for the 8 MU edge clearances of
    /// RULES 5 on both sides of a piece.
    pub const MIN: f64 = 24.0;
    pub const MAX: f64 = 240.0;

    /// The table as geometry sees it.
    pub fn geometry(self) -> crate::geometry::Table {
        crate::geometry::Table {
            width: self.width,
            depth: self.depth,
        }
    }
}

impl Default for TableSize {
    fn default() -> Self {
        TableSize {
            width: 72.0,
            depth: 48.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub title: String,
    pub table: TableSize,
    pub mu: MuScale,
    pub units: LengthUnit,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            title: "New battle".into(),
            table: TableSize::default(),
            mu: MuScale::default(),
            units: LengthUnit::default(),
        }
    }
}

impl Settings {
    /// A length in the chosen unit: "12.7 cm".
    pub fn length(&self, mu: f64) -> String {
        self.units.format(mu, self.mu)
    }

    /// A rules' distance in the chosen unit: "3.0 in (3 MU)" in inches,
    /// "7.5 cm" in centimetres (see `units::speak`).
    pub fn length_mu(&self, mu: f64) -> String {
        self.speak(&format!("{} MU", crate::units::mu_number(mu)))
    }

    /// A message of the engine's (it speaks MU) in the chosen unit: see
    /// `units::speak`.
    pub fn speak(&self, text: &str) -> String {
        crate::units::speak(text, self.units, self.mu)
    }

    /// A point of the table as a tape measure finds it, from its nearest
    /// long and side edges: "3.0 in from S, 14.0 in from E".
    pub fn point(&self, p: [f64; 2]) -> String {
        self.fix(&Fix::of(p, self.table.geometry()))
    }

    /// Where a surveyed point is, as a tape measure finds it:
    /// "3.0 cm from S, 40.2 cm from W".
    pub fn fix(&self, fix: &Fix) -> String {
        format!(
            "{} from {}, {} from {}",
            self.length(fix.long.1),
            fix.long.0.letter(),
            self.length(fix.side.1),
            fix.side.0.letter()
        )
    }
}

pub(super) fn decide(state: &State, settings: &Settings) -> Result<Vec<Event>, RuleError> {
    if let Some(why) = muster_core::text::name_fault(&settings.title) {
        return refuse("units", format!("The battle's title {why}"));
    }
    let TableSize { width, depth } = settings.table;
    for (name, v) in [("width", width), ("depth", depth)] {
        if !v.is_finite() || !(TableSize::MIN..=TableSize::MAX).contains(&v) {
            return refuse(
                "units",
                format!(
                    "The table {name} must be {} to {} MU; {v} was given",
                    TableSize::MIN,
                    TableSize::MAX
                ),
            );
        }
    }
    if depth > width {
        return refuse(
            "units",
            format!(
                "The long edges are the width: {width} MU wide must not be less than {depth} MU deep"
            ),
        );
    }
    if settings.table != state.settings.table && !state.placement.laid.is_empty() {
        return refuse(
            "5",
            "The table size is fixed once terrain is on the table; start a new battle to change it",
        );
    }
    if *settings == state.settings {
        return refuse("units", "Nothing changed");
    }
    Ok(vec![Event::Configured {
        settings: settings.clone(),
    }])
}
