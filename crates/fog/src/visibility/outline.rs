//! A piece's outline as sight lines meet it (RULES 7,
//! `docs/src/rules/fog.md`): whether a point is inside, the length of a
//! segment inside it (the chord a "N MU" rule measures), exactly and fast
//! for a convex outline, and the coarse octagon and box tests that skip a
//! piece a sight line cannot meet.

use crate::geometry::{Footprint, nearest_on_segment};

pub(super) fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
    (dx * dx + dy * dy).sqrt()
}

/// Whether `p` is inside the outline or on it.
pub(super) fn contains(outline: &Footprint, p: [f64; 2]) -> bool {
    let (min, max) = (outline.min(), outline.max());
    if p[0] < min[0] || p[0] > max[0] || p[1] < min[1] || p[1] > max[1] {
        return false;
    }
    even_odd(outline.points(), p)
}

pub(super) fn even_odd(points: &[[f64; 2]], p: [f64; 2]) -> bool {
    let mut inside = false;
    let n = points.len();
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        if (a[1] > p[1]) != (b[1] > p[1]) {
            let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if p[0] < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// The length of segment `ab` inside the outline.
pub(super) fn chord(outline: &Footprint, a: [f64; 2], b: [f64; 2]) -> f64 {
    if !segment_meets_box(a, b, outline.min(), outline.max()) {
        return 0.0;
    }
    let pts = outline.points();
    let n = pts.len();
    let d = [b[0] - a[0], b[1] - a[1]];
    let mut ts = vec![0.0, 1.0];
    for i in 0..n {
        let (p, q) = (pts[i], pts[(i + 1) % n]);
        let e = [q[0] - p[0], q[1] - p[1]];
        let den = cross(d, e);
        if den.abs() < 1e-15 {
            continue;
        }
        let w = [p[0] - a[0], p[1] - a[1]];
        let t = cross(w, e) / den;
        let u = cross(w, d) / den;
        if (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u) {
            ts.push(t);
        }
    }
    ts.sort_by(f64::total_cmp);
    let len = d[0].hypot(d[1]);
    let mut inside = 0.0;
    for w in ts.windows(2) {
        if w[1] - w[0] <= 0.0 {
            continue;
        }
        let m = (w[0] + w[1]) / 2.0;
        if even_odd(pts, [a[0] + m * d[0], a[1] + m * d[1]]) {
            inside += (w[1] - w[0]) * len;
        }
    }
    inside
}

/// +1 or -1 for a convex outline turning always the same way (its
/// orientation), `None` for a concave one.
pub(super) fn orientation(points: &[[f64; 2]]) -> Option<f64> {
    let n = points.len();
    if n < 3 {
        return None;
    }
    let mut sign = 0.0;
    for i in 0..n {
        let (a, b, c) = (points[i], points[(i + 1) % n], points[(i + 2) % n]);
        let turn = cross([b[0] - a[0], b[1] - a[1]], [c[0] - b[0], c[1] - b[1]]);
        if turn.abs() < 1e-12 {
            continue;
        }
        if sign == 0.0 {
            sign = turn.signum();
        } else if turn.signum() != sign {
            return None;
        }
    }
    (sign != 0.0).then_some(sign)
}

/// The length of segment `ab` inside a convex outline (Cyrus-Beck clipping:
/// one pass over the edges, no allocation).
pub(super) fn convex_chord(outline: &Footprint, sign: f64, a: [f64; 2], b: [f64; 2]) -> f64 {
    if !segment_meets_box(a, b, outline.min(), outline.max()) {
        return 0.0;
    }
    let pts = outline.points();
    let n = pts.len();
    let d = [b[0] - a[0], b[1] - a[1]];
    let (mut enter, mut leave) = (0.0f64, 1.0f64);
    for i in 0..n {
        let (p, q) = (pts[i], pts[(i + 1) % n]);
        let e = [q[0] - p[0], q[1] - p[1]];
        // Inside is where sign * cross(e, x - p) >= 0.
        let num = sign * cross(e, [a[0] - p[0], a[1] - p[1]]);
        let den = sign * cross(e, d);
        if den.abs() < 1e-15 {
            if num < 0.0 {
                return 0.0;
            }
            continue;
        }
        let t = -num / den;
        if den > 0.0 {
            enter = enter.max(t);
        } else {
            leave = leave.min(t);
        }
        if enter >= leave {
            return 0.0;
        }
    }
    (leave - enter) * (d[0] * d[0] + d[1] * d[1]).sqrt()
}

/// A polygon of 8 sides (or the outline itself if it has no more) that
/// contains the outline: the intersection of its 8 supporting half-planes at
/// 45 degree steps, or its bounding box if it is concave.
pub(super) fn enclosing_octagon(outline: &Footprint) -> Vec<[f64; 2]> {
    let pts = outline.points();
    if pts.len() <= 8 {
        return pts.to_vec();
    }
    let (min, max) = (outline.min(), outline.max());
    if orientation(pts).is_none() {
        return vec![min, [max[0], min[1]], max, [min[0], max[1]]];
    }
    let dirs: Vec<[f64; 2]> = (0..8)
        .map(|k| {
            let a = std::f64::consts::FRAC_PI_4 * k as f64;
            [a.cos(), a.sin()]
        })
        .collect();
    let support: Vec<f64> = dirs
        .iter()
        .map(|u| {
            pts.iter()
                .map(|p| u[0] * p[0] + u[1] * p[1])
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .collect();
    (0..8)
        .map(|k| {
            let (u, v) = (dirs[k], dirs[(k + 1) % 8]);
            let (h, g) = (support[k], support[(k + 1) % 8]);
            let det = cross(u, v);
            [(h * v[1] - g * u[1]) / det, (u[0] * g - v[0] * h) / det]
        })
        .collect()
}

/// Whether segment `ab` passes through the box (Liang-Barsky): most sight
/// lines miss most pieces, and this says so in a few operations.
pub(super) fn segment_meets_box(a: [f64; 2], b: [f64; 2], min: [f64; 2], max: [f64; 2]) -> bool {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for k in 0..2 {
        let d = b[k] - a[k];
        if d.abs() < 1e-15 {
            if a[k] < min[k] || a[k] > max[k] {
                return false;
            }
            continue;
        }
        let (mut u, mut v) = ((min[k] - a[k]) / d, (max[k] - a[k]) / d);
        if u > v {
            std::mem::swap(&mut u, &mut v);
        }
        t0 = t0.max(u);
        t1 = t1.min(v);
        if t0 > t1 {
            return false;
        }
    }
    true
}

pub(super) fn cross(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

pub(super) fn segment_distance(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    dist(p, nearest_on_segment(p, a, b))
}

/// Whether segments `pq` and `ab` share a point.
pub(super) fn segments_cross(p: [f64; 2], q: [f64; 2], a: [f64; 2], b: [f64; 2]) -> bool {
    let d = [q[0] - p[0], q[1] - p[1]];
    let e = [b[0] - a[0], b[1] - a[1]];
    let den = cross(d, e);
    let w = [a[0] - p[0], a[1] - p[1]];
    if den.abs() < 1e-15 {
        return false;
    }
    let t = cross(w, e) / den;
    let u = cross(w, d) / den;
    (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)
}
