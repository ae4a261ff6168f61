//! Spacing and overlap between pieces (RULES 5-6): the measured distance
//! between two footprints, with a bounding-box shortcut so a pose check
//! against a full table stays cheap.

use super::Footprint;
use geo::{Buffer, Distance, Euclidean, Relate};

/// The gap between two bounding boxes (0 if they meet).
fn box_gap(a: &Footprint, b: &Footprint) -> f64 {
    let dx = (b.min()[0] - a.max()[0])
        .max(a.min()[0] - b.max()[0])
        .max(0.0);
    let dy = (b.min()[1] - a.max()[1])
        .max(a.min()[1] - b.max()[1])
        .max(0.0);
    dx.hypot(dy)
}

/// The shortest distance between two footprints, 0 if they meet. Beyond
/// `cap` the bounding-box gap is returned instead, which is never more than
/// the true distance: callers that only compare against `cap` lose nothing.
pub fn min_distance(a: &Footprint, b: &Footprint, cap: f64) -> f64 {
    let gap = box_gap(a, b);
    if gap >= cap {
        return gap;
    }
    Euclidean.distance(a.polygon(), b.polygon())
}

/// Whether two footprints share ground (touching along an edge does not).
pub fn overlaps(a: &Footprint, b: &Footprint) -> bool {
    if box_gap(a, b) > 0.0 {
        return false;
    }
    let m = a.polygon().relate(b.polygon());
    m.is_intersects() && !m.is_touches()
}

/// The outline of the ground within `distance` of a footprint (its no-go
/// buffer under the spacing rule), as rings of table points.
pub fn buffer(f: &Footprint, distance: f64) -> Vec<Vec<[f64; 2]>> {
    f.polygon()
        .buffer(distance)
        .0
        .iter()
        .map(|p| p.exterior().0.iter().map(|c| [c.x, c.y]).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Pose, Shape};

    fn rect(x: f64, y: f64, w: f64, d: f64) -> Footprint {
        Footprint::new(
            &Shape::Rectangle { width: w, depth: d },
            Pose::new(x, y, 0.0),
        )
    }

    #[test]
    fn distance_between_rectangles() {
        let a = rect(10.0, 10.0, 6.0, 4.0);
        let b = rect(20.0, 10.0, 6.0, 4.0);
        assert!((min_distance(&a, &b, 100.0) - 4.0).abs() < 1e-9);
        let c = rect(17.0, 15.0, 6.0, 4.0); // corner to corner: 1 x 1 gap
        assert!((min_distance(&a, &c, 100.0) - 2f64.sqrt()).abs() < 1e-9);
        assert_eq!(min_distance(&a, &rect(12.0, 10.0, 6.0, 4.0), 100.0), 0.0);
    }

    #[test]
    fn buffer_reaches_the_spacing_distance() {
        let a = rect(20.0, 20.0, 6.0, 4.0);
        let ring = &buffer(&a, 4.0)[0];
        for p in ring {
            let d = a.boundary_distance(*p);
            assert!((d - 4.0).abs() < 0.05, "{p:?} is {d} from the piece");
        }
    }

    #[test]
    fn overlap_is_shared_ground_not_touching() {
        let a = rect(10.0, 10.0, 6.0, 4.0);
        assert!(overlaps(&a, &rect(12.0, 10.0, 6.0, 4.0)));
        assert!(
            !overlaps(&a, &rect(16.0, 10.0, 6.0, 4.0)),
            "edge to edge touches"
        );
        assert!(overlaps(&a, &rect(10.0, 10.0, 2.0, 2.0)), "inside");
        assert!(!overlaps(&a, &rect(30.0, 10.0, 6.0, 4.0)));
    }
}
