//! Searching for legal poses: the nearest legal pose to where the player is
//! dragging, and whether any legal pose exists for a die result (RULES 5:
//! with none, the placer re-rolls).
//!
//! Candidates come from the zone (`zone_candidates`), so a search covers the
//! few hundred centres the zone allows rather than the whole table; each is
//! tried at the requested angle and then at every `angle_step`.

use super::{Footprint, Pose, Shape};

/// The grid a search walks: centre step in MU and angle step in degrees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidates {
    pub step: f64,
    pub angle_step: f64,
}

impl Default for Candidates {
    fn default() -> Self {
        Candidates {
            step: 0.5,
            angle_step: 15.0,
        }
    }
}

/// The footprint's reach from its centre at an angle: (min, max) offsets.
fn reach(shape: &Shape, angle: f64) -> ([f64; 2], [f64; 2]) {
    let f = Footprint::new(shape, Pose::new(0.0, 0.0, angle));
    (f.min(), f.max())
}

fn angles(first: f64, step: f64) -> Vec<f64> {
    let mut out = vec![first];
    let n = (180.0 / step).round() as usize;
    out.extend((1..n).map(|k| (first + k as f64 * step).rem_euclid(180.0)));
    out
}

/// The legal pose closest to `wanted` (by centre distance, same angle first),
/// or `None` if the zone has none. `centres(reach)` lists the zone's
/// candidate centres for a footprint reach; `legal` is the full check.
pub fn nearest_legal(
    shape: &Shape,
    wanted: Pose,
    grid: Candidates,
    centres: impl Fn(([f64; 2], [f64; 2])) -> Vec<[f64; 2]>,
    legal: impl Fn(Pose) -> bool,
) -> Option<Pose> {
    for angle in angles(wanted.angle, grid.angle_step) {
        let mut cs = centres(reach(shape, angle));
        let d = |c: &[f64; 2]| (c[0] - wanted.x).hypot(c[1] - wanted.y);
        cs.sort_by(|a, b| d(a).total_cmp(&d(b)));
        if let Some(c) = cs.into_iter().find(|c| legal(Pose::new(c[0], c[1], angle))) {
            return Some(Pose::new(c[0], c[1], angle));
        }
    }
    None
}

/// Whether any candidate pose is legal.
pub fn any_legal(
    shape: &Shape,
    grid: Candidates,
    centres: impl Fn(([f64; 2], [f64; 2])) -> Vec<[f64; 2]>,
    legal: impl Fn(Pose) -> bool,
) -> Option<Pose> {
    angles(0.0, grid.angle_step).into_iter().find_map(|angle| {
        centres(reach(shape, angle))
            .into_iter()
            .map(|c| Pose::new(c[0], c[1], angle))
            .find(|p| legal(*p))
    })
}
