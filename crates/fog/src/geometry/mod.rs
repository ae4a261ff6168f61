//! Table geometry in MU (f64), on geo: piece shapes and poses, the zone of
//! each placement die result, spacing, overlap and on-table checks, and the
//! search for legal poses (RULES 4-6).
//!
//! Coordinates: origin at the south-west corner, x along the long edges
//! (0..W), y across (0..D). Every check returns what it measured, so the UI
//! can say *why* a pose is illegal and by how much.

mod search;
mod shape;
mod spacing;
pub mod survey;
mod zone;

pub use search::{Candidates, any_legal, nearest_legal};
pub use shape::{
    Footprint, MAX_COORDINATE, MAX_POLYGON_POINTS, Pose, Shape, SizeClass, check_size,
    nearest_on_segment,
};
pub use spacing::buffer;
pub use spacing::{clear_of, min_distance, overlaps};
pub use zone::{SideLines, check_zone, zone_area, zone_candidates};

use serde::{Deserialize, Serialize};

/// The playing area, W x D MU.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub width: f64,
    pub depth: f64,
}

/// Slack for "touching" an edge or line: a pose within this of it touches.
pub const TOUCH: f64 = 1e-6;

impl Table {
    /// How far the footprint sticks out over the table edge, if it does.
    pub fn overhang(&self, f: &Footprint) -> Option<(f64, &'static str)> {
        let (min, max) = (f.min(), f.max());
        let over = [
            (-min[0], "west"),
            (max[0] - self.width, "east"),
            (-min[1], "south"),
            (max[1] - self.depth, "north"),
        ];
        over.into_iter()
            .filter(|(d, _)| *d > TOUCH)
            .max_by(|a, b| a.0.total_cmp(&b.0))
    }
}

/// A table's side edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SideEdge {
    /// x = 0.
    West,
    /// x = W.
    East,
}

impl SideEdge {
    pub fn name(self) -> &'static str {
        match self {
            SideEdge::West => "west",
            SideEdge::East => "east",
        }
    }
}

#[cfg(test)]
mod tests;
