//! Spacing and overlap between pieces (RULES 5-6): the measured distance
//! between two footprints, with a bounding-box shortcut so a pose check
//! against a full table stays cheap.

use super::Footprint;
use super::shape::{dist, nearest_on_segment};
use geo::{Buffer, Relate};

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
/// `cap` a lower bound of at least `cap` is returned instead: callers that
/// only compare against `cap` lose nothing, and the pose search stays cheap.
pub fn min_distance(a: &Footprint, b: &Footprint, cap: f64) -> f64 {
    let gap = box_gap(a, b);
    if gap >= cap {
        return gap;
    }
    if gap == 0.0 && meet(a, b) {
        return 0.0;
    }
    // Between disjoint polygons the nearest points are a vertex of one and
    // an edge of the other.
    let best = vertices_to_edges(a, b, cap, 0.0).min(vertices_to_edges(b, a, cap, 0.0));
    if best.is_finite() { best } else { cap.max(gap) }
}

/// Whether two footprints are at least `spacing` apart: the question a pose
/// search asks thousands of times, so it stops at the first vertex found
/// too close and only then looks for crossing edges.
pub fn clear_of(a: &Footprint, b: &Footprint, spacing: f64) -> bool {
    if box_gap(a, b) >= spacing {
        return true;
    }
    vertices_to_edges(a, b, spacing, spacing) >= spacing
        && vertices_to_edges(b, a, spacing, spacing) >= spacing
        && !meet(a, b)
}

/// Whether two outlines share a point: an edge of one crosses an edge of
/// the other, or one lies inside the other. Allocation-free, with edges
/// outside the other's bounding box skipped, as this runs for every pose a
/// search tries.
fn meet(a: &Footprint, b: &Footprint) -> bool {
    if a.contains(b.points()[0]) || b.contains(a.points()[0]) {
        return true;
    }
    let (lo, hi) = (b.min(), b.max());
    let (pa, pb) = (a.points(), b.points());
    for i in 0..pa.len() {
        let (p, q) = (pa[i], pa[(i + 1) % pa.len()]);
        if p[0].max(q[0]) < lo[0]
            || p[0].min(q[0]) > hi[0]
            || p[1].max(q[1]) < lo[1]
            || p[1].min(q[1]) > hi[1]
        {
            continue;
        }
        for j in 0..pb.len() {
            let (r, t) = (pb[j], pb[(j + 1) % pb.len()]);
            let apart = p[0].max(q[0]) < r[0].min(t[0])
                || p[0].min(q[0]) > r[0].max(t[0])
                || p[1].max(q[1]) < r[1].min(t[1])
                || p[1].min(q[1]) > r[1].max(t[1]);
            if !apart && segments_meet(p, q, r, t) {
                return true;
            }
        }
    }
    false
}

fn cross(o: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
}

/// Whether segments pq and rs share a point (touching counts).
fn segments_meet(p: [f64; 2], q: [f64; 2], r: [f64; 2], s: [f64; 2]) -> bool {
    let on = |a: [f64; 2], b: [f64; 2], c: [f64; 2]| {
        c[0] >= a[0].min(b[0])
            && c[0] <= a[0].max(b[0])
            && c[1] >= a[1].min(b[1])
            && c[1] <= a[1].max(b[1])
    };
    let (d1, d2) = (cross(r, s, p), cross(r, s, q));
    let (d3, d4) = (cross(p, q, r), cross(p, q, s));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    (d1 == 0.0 && on(r, s, p))
        || (d2 == 0.0 && on(r, s, q))
        || (d3 == 0.0 && on(p, q, r))
        || (d4 == 0.0 && on(p, q, s))
}

/// The least distance from a vertex of `a` to an edge of `b`, skipping
/// vertices that cannot come nearer than `cap` or the best found so far,
/// and stopping as soon as one is nearer than `stop_below`.
fn vertices_to_edges(a: &Footprint, b: &Footprint, cap: f64, stop_below: f64) -> f64 {
    let (lo, hi) = (b.min(), b.max());
    let pts = b.points();
    let mut best = f64::INFINITY;
    for p in a.points() {
        let dx = (lo[0] - p[0]).max(p[0] - hi[0]).max(0.0);
        let dy = (lo[1] - p[1]).max(p[1] - hi[1]).max(0.0);
        if dx.hypot(dy) >= best.min(cap) {
            continue;
        }
        for i in 0..pts.len() {
            let (s, e) = (pts[i], pts[(i + 1) % pts.len()]);
            // The edge's bounding box is a cheap lower bound: skip edges
            // that cannot beat what is already found.
            let ex = (s[0].min(e[0]) - p[0]).max(p[0] - s[0].max(e[0])).max(0.0);
            let ey = (s[1].min(e[1]) - p[1]).max(p[1] - s[1].max(e[1])).max(0.0);
            if ex * ex + ey * ey >= best * best {
                continue;
            }
            best = best.min(dist(nearest_on_segment(*p, s, e), *p));
        }
        if best < stop_below {
            return best;
        }
    }
    best
}

/// Whether two footprints share ground (touching along an edge does not).
pub fn overlaps(a: &Footprint, b: &Footprint) -> bool {
    if box_gap(a, b) > 0.0 || !meet(a, b) {
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
