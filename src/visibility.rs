//! Line of sight across the terrain on the table (RULES 7), and whether a
//! point is seen from an area, such as the enemy skirmisher deployment area
//! an ambush must be hidden from (RULES 8.3).
//!
//! A *viewer* sees a *target* along the straight segment between them. Each
//! piece of terrain with a visibility rule is a [`Screen`]:
//! - "N MU" ([`Effect::Blocks`]): a target in it is seen only from within
//!   N MU, and a sight line crossing more than N MU of it is blocked;
//! - "LF: N MU" ([`Effect::LightFoot`]): a light-foot target in it is seen
//!   only from within N MU; it hides nothing behind it;
//! - "N MU over crest" ([`Effect::Crest`]): a sight line crossing the hill's
//!   crest (its longest axis) is blocked for a target more than N MU beyond
//!   the crest.
//!
//! # Seen from an area is seen from its front edge
//!
//! Let `A` be the enemy area, the strip of the table within `d` MU of the
//! enemy's long edge, and `F` its front edge, the line `d` MU in from that
//! edge across the whole table. **A target `t` outside `A` is seen from some
//! point of `A` exactly when it is seen from some point of `F`.**
//!
//! *Proof.* `F` lies in `A`, so a point of `F` that sees `t` is a point of
//! `A` that sees it. Conversely, let `p` in `A` see `t`. The strip and the
//! table are convex and `t` is outside `A`, so the segment `pt` leaves `A`
//! through `F`, at a point `q`; `qt` is part of `pt`. Every way a sight line
//! is blocked survives lengthening the segment at the viewer's end, so it
//! cannot appear when the segment is shortened from `pt` to `qt`:
//! (1) the "seen only from within N MU" rules compare the viewer's distance
//! with N, and `|qt| <= |pt|`; (2) the length of `qt` inside any piece is at
//! most that of `pt`, as `qt` is a part of `pt`; (3) if `qt` crosses a
//! crest so does `pt`, and how far `t` is beyond the crest does not depend
//! on the viewer. So `q` sees `t`. ∎
//!
//! [`Sightlines::seen_from_strip`] uses this: a search along one line
//! instead of over an area. Along `F`, the viewers whose sight line meets a
//! screen form an interval (the screen's *shadow*, the projection of its
//! outline from `t`); a crest blocks exactly its shadow, a "N MU" screen the
//! part of its shadow where the chord is longer than N. The target is seen
//! when some point of `F` lies in no blocked set; every such point found is
//! confirmed with the exact sight test before it is reported, so "seen" is
//! never a guess. `tests/visibility_oracle.rs` checks the search against
//! dense sampling of the whole area.

use crate::geometry::Footprint;

/// How a piece of terrain affects sight (RULES 7).
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// "N MU": targets in it seen only from within N MU; sight lines crossing
    /// more than N MU of it are blocked.
    Blocks { distance: f64 },
    /// "LF: N MU": light-foot targets in it seen only from within N MU.
    LightFoot { distance: f64 },
    /// "N MU over crest": a sight line crossing `crest` is blocked for a
    /// target more than N MU beyond it.
    Crest { distance: f64, crest: [[f64; 2]; 2] },
}

/// A piece of terrain as sight sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Screen {
    pub name: String,
    pub outline: Footprint,
    pub effect: Effect,
}

/// What is looked at: a point, and whether it is light foot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    pub at: [f64; 2],
    pub light_foot: bool,
}

/// Why a viewer does not see a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Blocked {
    /// The target stands in `screen` and the viewer is more than `limit` away.
    TooFar {
        screen: usize,
        distance: f64,
        limit: f64,
    },
    /// The sight line crosses `length` MU of `screen`, more than `limit`.
    Crosses {
        screen: usize,
        length: f64,
        limit: f64,
    },
    /// The sight line crosses the crest of `screen` and the target is
    /// `beyond` MU past it, more than `limit`.
    OverCrest {
        screen: usize,
        beyond: f64,
        limit: f64,
    },
}

impl Blocked {
    pub fn screen(&self) -> usize {
        match *self {
            Blocked::TooFar { screen, .. }
            | Blocked::Crosses { screen, .. }
            | Blocked::OverCrest { screen, .. } => screen,
        }
    }
}

/// A piece a sight line passes through, and how much of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossing {
    pub screen: usize,
    pub length: f64,
}

/// A horizontal strip of the table, `y` between `y_min` and `y_max`, `0..width`
/// across: a deployment area.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strip {
    pub y_min: f64,
    pub y_max: f64,
    pub width: f64,
}

impl Strip {
    pub fn contains(&self, p: [f64; 2]) -> bool {
        p[1] >= self.y_min && p[1] <= self.y_max
    }
}

/// Whether a target is seen from an area, with the evidence.
#[derive(Clone, Debug, PartialEq)]
pub enum Sighting {
    /// Seen from `from` (a point of the area); the sight line's crossings.
    Seen {
        from: [f64; 2],
        crossings: Vec<Crossing>,
    },
    /// Hidden from every point of the area; what blocks the sight lines.
    Hidden { blocked: Vec<Blocked> },
}

impl Sighting {
    pub fn is_seen(&self) -> bool {
        matches!(self, Sighting::Seen { .. })
    }
}

/// The terrain on the table, for sight.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sightlines {
    screens: Vec<Screen>,
}

/// Slack for comparing lengths with a limit: a sight line crossing exactly
/// N MU is not "more than N".
const EPS: f64 = 1e-9;

impl Sightlines {
    pub fn new(screens: Vec<Screen>) -> Sightlines {
        Sightlines { screens }
    }

    pub fn screens(&self) -> &[Screen] {
        &self.screens
    }

    /// Whether `viewer` sees `target`: the pieces the sight line crosses, or
    /// the first reason it is blocked.
    pub fn sight(&self, viewer: [f64; 2], target: Target) -> Result<Vec<Crossing>, Blocked> {
        let t = target.at;
        let distance = dist(viewer, t);
        let mut crossings = Vec::new();
        for (i, s) in self.screens.iter().enumerate() {
            match s.effect {
                Effect::Blocks { distance: limit } => {
                    if distance > limit + EPS && contains(&s.outline, t) {
                        return Err(Blocked::TooFar {
                            screen: i,
                            distance,
                            limit,
                        });
                    }
                    let length = chord(&s.outline, viewer, t);
                    if length > limit + EPS {
                        return Err(Blocked::Crosses {
                            screen: i,
                            length,
                            limit,
                        });
                    }
                    if length > 0.0 {
                        crossings.push(Crossing { screen: i, length });
                    }
                }
                Effect::LightFoot { distance: limit } => {
                    if target.light_foot && distance > limit + EPS && contains(&s.outline, t) {
                        return Err(Blocked::TooFar {
                            screen: i,
                            distance,
                            limit,
                        });
                    }
                    let length = chord(&s.outline, viewer, t);
                    if length > 0.0 {
                        crossings.push(Crossing { screen: i, length });
                    }
                }
                Effect::Crest {
                    distance: limit,
                    crest,
                } => {
                    let beyond = segment_distance(t, crest[0], crest[1]);
                    if beyond > limit + EPS && segments_cross(viewer, t, crest[0], crest[1]) {
                        return Err(Blocked::OverCrest {
                            screen: i,
                            beyond,
                            limit,
                        });
                    }
                }
            }
        }
        Ok(crossings)
    }

    /// Whether any point of `area` sees `target`, searching the area's front
    /// edge (see the module docs for why that is enough).
    pub fn seen_from_strip(&self, target: Target, area: &Strip) -> Sighting {
        let t = target.at;
        if area.contains(t) {
            return Sighting::Seen {
                from: t,
                crossings: Vec::new(),
            };
        }
        let front = if t[1] < area.y_min {
            area.y_min
        } else {
            area.y_max
        };
        let dy = (front - t[1]).abs();
        // The viewers along the front edge, x in [lo, hi], that are close
        // enough for a target standing in a screen that needs it.
        let (mut lo, mut hi) = (0.0, area.width);
        for (i, s) in self.screens.iter().enumerate() {
            let limit = match s.effect {
                Effect::Blocks { distance } => distance,
                Effect::LightFoot { distance } if target.light_foot => distance,
                _ => continue,
            };
            if !contains(&s.outline, t) {
                continue;
            }
            let reach2 = limit * limit - dy * dy;
            if reach2 < 0.0 {
                return Sighting::Hidden {
                    blocked: vec![Blocked::TooFar {
                        screen: i,
                        distance: dy,
                        limit,
                    }],
                };
            }
            lo = f64::max(lo, t[0] - reach2.sqrt());
            hi = f64::min(hi, t[0] + reach2.sqrt());
        }
        if lo > hi {
            return Sighting::Hidden {
                blocked: self
                    .sight([(lo + hi) / 2.0, front], target)
                    .err()
                    .into_iter()
                    .collect(),
            };
        }
        let mut blocked: Vec<(f64, f64)> = Vec::new();
        let mut samples: Vec<f64> = Vec::new();
        for s in &self.screens {
            self.blocked_on_front(s, target, front, [lo, hi], &mut blocked, &mut samples);
        }
        blocked.sort_by(|a, b| a.0.total_cmp(&b.0));
        samples.sort_by(f64::total_cmp);
        // Walk the gaps between blocked intervals; try the middle of each,
        // then the unblocked samples inside it.
        let mut reasons = Vec::new();
        let mut start = lo;
        let mut gaps = Vec::new();
        for &(a, b) in &blocked {
            if a > start {
                gaps.push((start, a.min(hi)));
            }
            start = start.max(b);
            if start >= hi {
                break;
            }
        }
        if start < hi || (start == hi && blocked.iter().all(|&(_, b)| b < hi)) {
            gaps.push((start, hi));
        }
        for (a, b) in gaps {
            let mid = (a + b) / 2.0;
            let inside = samples.iter().copied().filter(|x| *x > a && *x < b);
            for x in std::iter::once(mid).chain(inside).chain([a, b]) {
                match self.sight([x, front], target) {
                    Ok(crossings) => {
                        return Sighting::Seen {
                            from: [x, front],
                            crossings,
                        };
                    }
                    Err(why) => reasons.push(why),
                }
            }
        }
        if reasons.is_empty() || blocked.is_empty() {
            reasons.extend(self.sight([(lo + hi) / 2.0, front], target).err());
        }
        // Name each screen that blocks part of the edge, once.
        let mut named: Vec<Blocked> = Vec::new();
        for &(a, b) in &blocked {
            if let Err(why) = self.sight([(a + b) / 2.0, front], target)
                && !named.iter().any(|n| n.screen() == why.screen())
            {
                named.push(why);
            }
        }
        for why in reasons {
            if !named.iter().any(|n| n.screen() == why.screen()) {
                named.push(why);
            }
        }
        Sighting::Hidden { blocked: named }
    }

    /// Adds the parts of the front edge (x in `range`) that `screen` blocks,
    /// and the points sampled while finding them.
    fn blocked_on_front(
        &self,
        screen: &Screen,
        target: Target,
        front: f64,
        range: [f64; 2],
        blocked: &mut Vec<(f64, f64)>,
        samples: &mut Vec<f64>,
    ) {
        let t = target.at;
        match screen.effect {
            Effect::LightFoot { .. } => {}
            Effect::Crest { distance, crest } => {
                if segment_distance(t, crest[0], crest[1]) <= distance + EPS {
                    return;
                }
                if let Some((a, b)) = shadow(&crest, t, front) {
                    let (a, b) = (a.max(range[0]), b.min(range[1]));
                    if a <= b {
                        blocked.push((a, b));
                    }
                }
            }
            Effect::Blocks { distance } => {
                let Some((a, b)) = shadow(screen.outline.points(), t, front) else {
                    return;
                };
                let (a, b) = (a.max(range[0]), b.min(range[1]));
                if a > b {
                    return;
                }
                // The chord length changes smoothly between the projections
                // of consecutive vertices (the sight line enters and leaves
                // by the same edges) but can dip in between, as through a
                // long thin piece seen broadside: sample each projection,
                // and where both ends of a stretch are blocked, look for a
                // dip below the limit.
                let mut xs: Vec<f64> = projections(screen.outline.points(), t, front)
                    .filter(|x| *x > a && *x < b)
                    .collect();
                xs.push(a);
                xs.push(b);
                xs.sort_by(f64::total_cmp);
                let excess = |x: f64| chord(&screen.outline, [x, front], t) - distance - EPS;
                let mut all: Vec<(f64, f64)> = Vec::with_capacity(xs.len() * 2);
                let mut prev = (xs[0], excess(xs[0]));
                all.push(prev);
                for &x in &xs[1..] {
                    let next = (x, excess(x));
                    if prev.1 > 0.0 && next.1 > 0.0 && next.0 - prev.0 > DIP_STEP {
                        all.push(dip(&excess, prev.0, next.0));
                    }
                    all.push(next);
                    prev = next;
                }
                // Runs of too-long chords, their ends found between the
                // samples so a narrow window beside them is not lost.
                let mut run: Option<(f64, f64)> = None;
                let mut last: Option<(f64, f64)> = None;
                for (x, e) in all {
                    match (e > 0.0, &mut run) {
                        (true, Some(r)) => r.1 = x,
                        (true, None) => {
                            let start = match last {
                                Some((px, pe)) => boundary(&excess, (px, pe), (x, e)),
                                None => x,
                            };
                            run = Some((start, x));
                        }
                        (false, r) => {
                            if let Some((a, b)) = r.take() {
                                let (bx, be) = last.expect("a run has a previous sample");
                                debug_assert_eq!(bx, b);
                                blocked.push((a, boundary(&excess, (x, e), (bx, be))));
                            }
                            samples.push(x);
                        }
                    }
                    last = Some((x, e));
                }
                if let Some(done) = run {
                    blocked.push(done);
                }
            }
        }
    }

    /// The sight line in words: "across open ground", "across 1.2 MU of Forest".
    pub fn describe_crossings(&self, crossings: &[Crossing]) -> String {
        if crossings.is_empty() {
            return "across open ground".into();
        }
        let parts: Vec<String> = crossings
            .iter()
            .map(|c| format!("{:.1} MU of {}", c.length, self.screens[c.screen].name))
            .collect();
        format!("across {}", parts.join(" and "))
    }

    /// Why a sight line is blocked, in words citing RULES 7.
    pub fn describe_blocked(&self, why: &Blocked) -> String {
        let name = |i: usize| self.screens[i].name.as_str();
        match *why {
            Blocked::TooFar {
                screen,
                distance,
                limit,
            } => format!(
                "in {}, {distance:.1} MU away; troops in it are seen only from within {limit} MU",
                name(screen)
            ),
            Blocked::Crosses {
                screen,
                length,
                limit,
            } => format!(
                "the sight line crosses {length:.1} MU of {}; more than {limit} MU blocks it",
                name(screen)
            ),
            Blocked::OverCrest {
                screen,
                beyond,
                limit,
            } => format!(
                "{beyond:.1} MU beyond the crest of {}; more than {limit} MU is out of sight",
                name(screen)
            ),
        }
    }
}

/// Stretches of the front edge narrower than this are not searched for a dip.
const DIP_STEP: f64 = 0.25;

/// The lowest point of `f` on `(a, b)` found by golden-section search,
/// stopping early at the first point where `f` is not positive.
fn dip(f: &impl Fn(f64) -> f64, a: f64, b: f64) -> (f64, f64) {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (a, b);
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..16 {
        if fc <= 0.0 {
            return (c, fc);
        }
        if fd <= 0.0 {
            return (d, fd);
        }
        if fc < fd {
            b = d;
            (d, fd) = (c, fc);
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            (c, fc) = (d, fd);
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    if fc < fd { (c, fc) } else { (d, fd) }
}

/// Where `f` crosses zero between `ok` (f <= 0) and `bad` (f > 0), by the
/// Illinois variant of regula falsi; the answer leans to the blocked side so
/// a blocked interval is never shrunk.
fn boundary(f: &impl Fn(f64) -> f64, ok: (f64, f64), bad: (f64, f64)) -> f64 {
    let (mut a, mut fa) = ok;
    let (mut b, mut fb) = bad;
    let mut side = 0;
    for _ in 0..40 {
        if (b - a).abs() < 1e-7 {
            break;
        }
        let x = (a * fb - b * fa) / (fb - fa);
        let x = if x.is_finite() && (x - a) * (x - b) < 0.0 {
            x
        } else {
            (a + b) / 2.0
        };
        let fx = f(x);
        if fx > 0.0 {
            (b, fb) = (x, fx);
            if side == 1 {
                fa /= 2.0;
            }
            side = 1;
        } else {
            (a, fa) = (x, fx);
            if side == -1 {
                fb /= 2.0;
            }
            side = -1;
        }
    }
    b
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// Whether `p` is inside the outline or on it.
fn contains(outline: &Footprint, p: [f64; 2]) -> bool {
    let (min, max) = (outline.min(), outline.max());
    if p[0] < min[0] || p[0] > max[0] || p[1] < min[1] || p[1] > max[1] {
        return false;
    }
    even_odd(outline.points(), p) || outline.boundary_distance(p) < EPS
}

fn even_odd(points: &[[f64; 2]], p: [f64; 2]) -> bool {
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
fn chord(outline: &Footprint, a: [f64; 2], b: [f64; 2]) -> f64 {
    let (min, max) = (outline.min(), outline.max());
    if a[0].max(b[0]) < min[0]
        || a[0].min(b[0]) > max[0]
        || a[1].max(b[1]) < min[1]
        || a[1].min(b[1]) > max[1]
    {
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

fn cross(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

fn segment_distance(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let (vx, vy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = vx * vx + vy * vy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / len2).clamp(0.0, 1.0)
    };
    dist(p, [a[0] + t * vx, a[1] + t * vy])
}

/// Whether segments `pq` and `ab` share a point.
fn segments_cross(p: [f64; 2], q: [f64; 2], a: [f64; 2], b: [f64; 2]) -> bool {
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

/// The points of a polygon (or segment) between the target's row and the
/// front edge, clipped to that band: only they can meet a sight line from
/// the front edge.
fn clipped(points: &[[f64; 2]], t: [f64; 2], front: f64) -> Vec<[f64; 2]> {
    // Keep a hair off the target's own row so projections stay finite.
    let toward = (front - t[1]).signum();
    let (y0, y1) = (t[1] + toward * 1e-9, front);
    let (lo, hi) = (y0.min(y1), y0.max(y1));
    let inside = |p: [f64; 2]| p[1] >= lo && p[1] <= hi;
    let n = points.len();
    let mut out = Vec::new();
    let closed = n > 2;
    let edges = if closed { n } else { n.saturating_sub(1) };
    for p in points {
        if inside(*p) {
            out.push(*p);
        }
    }
    for i in 0..edges {
        let (a, b) = (points[i], points[(i + 1) % n]);
        for y in [lo, hi] {
            if (a[1] - y) * (b[1] - y) < 0.0 {
                let s = (y - a[1]) / (b[1] - a[1]);
                out.push([a[0] + s * (b[0] - a[0]), y]);
            }
        }
    }
    out
}

/// Where the rays from `t` through each clipped point meet the front edge.
fn projections(points: &[[f64; 2]], t: [f64; 2], front: f64) -> impl Iterator<Item = f64> {
    let dy = front - t[1];
    clipped(points, t, front)
        .into_iter()
        .map(move |p| t[0] + (p[0] - t[0]) * dy / (p[1] - t[1]))
}

/// The interval of the front edge whose sight lines to `t` meet the points'
/// outline: all the clipped points lie on one side of `t`'s row, so their
/// projections span it.
fn shadow(points: &[[f64; 2]], t: [f64; 2], front: f64) -> Option<(f64, f64)> {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for x in projections(points, t, front) {
        lo = lo.min(x);
        hi = hi.max(x);
    }
    (lo <= hi).then_some((lo, hi))
}

#[cfg(test)]
mod tests;
