//! Piece shapes (ellipse, rectangle, rounded rectangle, polygon), poses and
//! the footprint a shape covers at a pose; the size ruling of RULES 4.

use crate::ruleset::PieceSizes;
use geo::{Coord, LineString, Polygon};
use serde::{Deserialize, Serialize};

/// A piece's outline, centred on its own origin, in MU.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case", deny_unknown_fields)]
pub enum Shape {
    Ellipse {
        width: f64,
        depth: f64,
    },
    Rectangle {
        width: f64,
        depth: f64,
    },
    RoundedRectangle {
        width: f64,
        depth: f64,
        radius: f64,
    },
    /// Vertices in order; recentred on their bounding box.
    Polygon {
        points: Vec<[f64; 2]>,
    },
}

/// The most vertices a polygon piece may have: far more than any real
/// outline, few enough that every check stays instant.
pub const MAX_POLYGON_POINTS: usize = 256;
/// The largest size or coordinate accepted, in MU (about 25 m at 1 MU = 1
/// inch): beyond any table.
pub const MAX_COORDINATE: f64 = 1000.0;

/// Segments used for a full ellipse; fine enough that the outline is within
/// 0.02 MU of the true curve for a 16 MU piece.
const ELLIPSE_SEGMENTS: usize = 64;
const CORNER_SEGMENTS: usize = 8;

impl Shape {
    /// The outline's vertices, counter-clockwise, centred on the origin.
    pub fn outline(&self) -> Vec<[f64; 2]> {
        use std::f64::consts::{FRAC_PI_2, TAU};
        match self {
            Shape::Ellipse { width, depth } => (0..ELLIPSE_SEGMENTS)
                .map(|i| {
                    let t = TAU * i as f64 / ELLIPSE_SEGMENTS as f64;
                    [width / 2.0 * t.cos(), depth / 2.0 * t.sin()]
                })
                .collect(),
            Shape::Rectangle { width, depth } => {
                let (w, d) = (width / 2.0, depth / 2.0);
                vec![[-w, -d], [w, -d], [w, d], [-w, d]]
            }
            Shape::RoundedRectangle {
                width,
                depth,
                radius,
            } => {
                let r = radius.clamp(0.0, width.min(*depth) / 2.0);
                let (w, d) = (width / 2.0 - r, depth / 2.0 - r);
                let centres = [[w, -d], [w, d], [-w, d], [-w, -d]];
                let mut out = Vec::new();
                for (k, c) in centres.iter().enumerate() {
                    let start = -FRAC_PI_2 + k as f64 * FRAC_PI_2;
                    for i in 0..=CORNER_SEGMENTS {
                        let t = start + FRAC_PI_2 * i as f64 / CORNER_SEGMENTS as f64;
                        out.push([c[0] + r * t.cos(), c[1] + r * t.sin()]);
                    }
                }
                out
            }
            Shape::Polygon { points } => {
                if points.is_empty() {
                    return Vec::new();
                }
                let (lo, hi) = bounds(points);
                let c = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
                points.iter().map(|p| [p[0] - c[0], p[1] - c[1]]).collect()
            }
        }
    }

    /// The largest distance between two points of the piece: the "no two
    /// points more than N MU apart" measure of RULES 4. The farthest pair
    /// lies on the convex hull (O(n log n)), so only its vertices are paired.
    pub fn span(&self) -> f64 {
        use geo::ConvexHull;
        let hull = polygon(&self.outline()).convex_hull();
        let pts: Vec<Coord<f64>> = hull.exterior().coords().copied().collect();
        let mut best: f64 = 0.0;
        for (i, a) in pts.iter().enumerate() {
            for b in &pts[i + 1..] {
                best = best.max((a.x - b.x).hypot(a.y - b.y));
            }
        }
        best
    }

    /// Checks what a file or a command says of a shape before any geometry
    /// is done with it: sizes finite and positive, a radius that fits, a
    /// polygon of 3 to `MAX_POLYGON_POINTS` finite points. Names the field.
    pub fn validate(&self) -> Result<(), String> {
        let size = |field: &str, v: f64| -> Result<(), String> {
            if !v.is_finite() || v <= 0.0 || v > MAX_COORDINATE {
                return Err(format!(
                    "{field}: {v} is not a size (more than 0, at most {MAX_COORDINATE} MU)"
                ));
            }
            Ok(())
        };
        match self {
            Shape::Ellipse { width, depth } | Shape::Rectangle { width, depth } => {
                size("width", *width)?;
                size("depth", *depth)
            }
            Shape::RoundedRectangle {
                width,
                depth,
                radius,
            } => {
                size("width", *width)?;
                size("depth", *depth)?;
                if !radius.is_finite() || *radius < 0.0 || *radius > width.min(*depth) / 2.0 {
                    return Err(format!(
                        "radius: {radius} must be from 0 to half the smaller side ({} MU)",
                        width.min(*depth) / 2.0
                    ));
                }
                Ok(())
            }
            Shape::Polygon { points } => {
                if points.len() < 3 || points.len() > MAX_POLYGON_POINTS {
                    return Err(format!(
                        "points: a polygon has 3 to {MAX_POLYGON_POINTS} points, not {}",
                        points.len()
                    ));
                }
                for (i, p) in points.iter().enumerate() {
                    if p.iter().any(|v| !v.is_finite() || v.abs() > MAX_COORDINATE) {
                        return Err(format!(
                            "points[{i}]: ({}, {}) is not a point (finite, within {MAX_COORDINATE} MU)",
                            p[0], p[1]
                        ));
                    }
                }
                let (w, d) = self.extent();
                if w <= 0.0 || d <= 0.0 {
                    return Err("points: the polygon has no area".into());
                }
                Ok(())
            }
        }
    }

    /// Width and depth of the unrotated piece, larger first.
    pub fn extent(&self) -> (f64, f64) {
        let (lo, hi) = bounds(&self.outline());
        let (a, b) = (hi[0] - lo[0], hi[1] - lo[1]);
        (a.max(b), a.min(b))
    }

    /// The longest axis through the centre, as a segment across the
    /// outline in the shape's own frame: a hill's crest (RULES 7).
    pub fn long_axis(&self) -> [[f64; 2]; 2] {
        let outline = self.outline();
        let (lo, hi) = bounds(&outline);
        let along_x = hi[0] - lo[0] >= hi[1] - lo[1];
        // Where the axis line meets the outline, as positions along it.
        let n = outline.len();
        let mut ends = (f64::INFINITY, f64::NEG_INFINITY);
        for i in 0..n {
            let (a, b) = (outline[i], outline[(i + 1) % n]);
            let (ua, va, ub, vb) = if along_x {
                (a[0], a[1], b[0], b[1])
            } else {
                (a[1], a[0], b[1], b[0])
            };
            if (va <= 0.0) != (vb <= 0.0) || va == 0.0 {
                let s = if va == vb { 0.0 } else { va / (va - vb) };
                let u = ua + s * (ub - ua);
                ends = (ends.0.min(u), ends.1.max(u));
            }
        }
        if ends.0 > ends.1 {
            return [[0.0, 0.0], [0.0, 0.0]];
        }
        if along_x {
            [[ends.0, 0.0], [ends.1, 0.0]]
        } else {
            [[0.0, ends.0], [0.0, ends.1]]
        }
    }

    /// A short description: "ellipse 10 x 6 MU".
    pub fn describe(&self) -> String {
        match self {
            Shape::Ellipse { width, depth } => format!("ellipse {width} x {depth} MU"),
            Shape::Rectangle { width, depth } => format!("rectangle {width} x {depth} MU"),
            Shape::RoundedRectangle { width, depth, .. } => {
                format!("rounded rectangle {width} x {depth} MU")
            }
            Shape::Polygon { points } => format!("polygon of {} points", points.len()),
        }
    }
}

pub(super) fn bounds(points: &[[f64; 2]]) -> ([f64; 2], [f64; 2]) {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    for p in points {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    (lo, hi)
}

/// Where a piece's centre is and how it is turned (degrees, anticlockwise).
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pose {
    pub x: f64,
    pub y: f64,
    pub angle: f64,
}

impl Pose {
    pub fn new(x: f64, y: f64, angle: f64) -> Pose {
        Pose { x, y, angle }
    }

    /// Maps a point of the shape's own frame to the table.
    pub fn apply(&self, p: [f64; 2]) -> [f64; 2] {
        let (s, c) = self.angle.to_radians().sin_cos();
        [self.x + p[0] * c - p[1] * s, self.y + p[0] * s + p[1] * c]
    }

    /// The pose after turning by `degrees` about the table point `about`.
    pub fn pivoted(&self, about: [f64; 2], degrees: f64) -> Pose {
        let (s, c) = degrees.to_radians().sin_cos();
        let (dx, dy) = (self.x - about[0], self.y - about[1]);
        Pose {
            x: about[0] + dx * c - dy * s,
            y: about[1] + dx * s + dy * c,
            angle: (self.angle + degrees).rem_euclid(360.0),
        }
    }
}

/// The polygon through `points`, closed.
fn polygon(points: &[[f64; 2]]) -> Polygon<f64> {
    let ring: Vec<Coord<f64>> = points.iter().map(|p| Coord { x: p[0], y: p[1] }).collect();
    Polygon::new(LineString::from(ring), vec![])
}

/// The ground a shape covers at a pose, with its bounding box.
#[derive(Clone, Debug, PartialEq)]
pub struct Footprint {
    points: Vec<[f64; 2]>,
    min: [f64; 2],
    max: [f64; 2],
    polygon: Polygon<f64>,
}

impl Footprint {
    pub fn new(shape: &Shape, pose: Pose) -> Footprint {
        Footprint::from_points(shape.outline().into_iter().map(|p| pose.apply(p)).collect())
    }

    /// A footprint from table points (a river band, a road strip).
    pub fn from_points(points: Vec<[f64; 2]>) -> Footprint {
        let (min, max) = bounds(&points);
        Footprint {
            polygon: polygon(&points),
            points,
            min,
            max,
        }
    }

    /// An axis-aligned rectangle.
    pub fn rect(min: [f64; 2], max: [f64; 2]) -> Footprint {
        Footprint::from_points(vec![min, [max[0], min[1]], max, [min[0], max[1]]])
    }

    pub fn points(&self) -> &[[f64; 2]] {
        &self.points
    }

    pub fn min(&self) -> [f64; 2] {
        self.min
    }

    pub fn max(&self) -> [f64; 2] {
        self.max
    }

    pub fn polygon(&self) -> &Polygon<f64> {
        &self.polygon
    }

    /// The point of the outline nearest `p`.
    pub fn nearest_boundary_point(&self, p: [f64; 2]) -> [f64; 2] {
        let n = self.points.len();
        (0..n)
            .map(|i| nearest_on_segment(p, self.points[i], self.points[(i + 1) % n]))
            .min_by(|a, b| dist(*a, p).total_cmp(&dist(*b, p)))
            .unwrap_or(p)
    }

    /// Distance from a point to the outline (0 on it).
    pub fn boundary_distance(&self, p: [f64; 2]) -> f64 {
        dist(self.nearest_boundary_point(p), p)
    }

    /// Whether a point lies inside the outline.
    pub fn contains(&self, p: [f64; 2]) -> bool {
        use geo::Contains;
        if p[0] < self.min[0] || p[0] > self.max[0] || p[1] < self.min[1] || p[1] > self.max[1] {
            return false;
        }
        self.polygon.contains(&geo::Point::new(p[0], p[1]))
    }
}

pub(super) fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// The point of segment `ab` nearest `p`.
pub fn nearest_on_segment(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    let (vx, vy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = vx * vx + vy * vy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / len2).clamp(0.0, 1.0)
    };
    [a[0] + t * vx, a[1] + t * vy]
}

/// Whether a piece is a normal or a large one (RULES 4 ruling).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeClass {
    Normal,
    Large,
}

/// Checks a shape against the size ruling: a normal piece is at least
/// min_width x min_depth and spans at most `normal.max_span`; a large one
/// spans more than that and at most `large.max_span`.
pub fn check_size(shape: &Shape, class: SizeClass, sizes: &PieceSizes) -> Result<(), String> {
    shape.validate()?;
    let (w, d) = shape.extent();
    let n = &sizes.normal;
    if w + 1e-9 < n.min_width || d + 1e-9 < n.min_depth {
        return Err(format!(
            "the piece is {w:.1} x {d:.1} MU; a piece is at least {} x {} MU (rule 4)",
            n.min_width, n.min_depth
        ));
    }
    let span = shape.span();
    match class {
        SizeClass::Normal if span > n.max_span + 1e-9 => Err(format!(
            "the piece is {span:.1} MU across; a normal piece fits a {} MU circle (rule 4)",
            n.max_span
        )),
        SizeClass::Large if span > sizes.large.max_span + 1e-9 => Err(format!(
            "the piece is {span:.1} MU across; a large piece fits a {} MU circle (rule 4)",
            sizes.large.max_span
        )),
        SizeClass::Large if span <= n.max_span + 1e-9 => Err(format!(
            "the piece is {span:.1} MU across, which fits a {} MU circle: that is a normal piece, not a large one (rule 4)",
            n.max_span
        )),
        _ => Ok(()),
    }
}
