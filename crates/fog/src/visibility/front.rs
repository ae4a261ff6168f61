//! Whether a point is seen from an area (RULES 7, 8.3,
//! `docs/src/rules/fog.md`): the search along the area's front edge that
//! the module docs of `visibility` prove enough, each screen's shadow on
//! that edge, the parts of it the screen blocks, and the gaps left, every
//! viewer found confirmed with the exact sight test.

use super::{Blocked, EPS, Effect, Sighting, Sightlines, Strip, Target, segment_distance};
use crate::geometry::Footprint;

impl Sightlines {
    /// Whether any point of `area` sees `target`, searching the area's front
    /// edge (see the docs of `visibility` for why that is enough).
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
            if !s.contains(t) {
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
        // First the cheap pass: where no screen's shadow falls at all.
        let mut coarse: Vec<(f64, f64)> = (0..self.screens.len())
            .filter_map(|i| self.shadow_on_front(i, &self.coarse[i], t, front))
            .collect();
        for (a, b) in gaps(&mut coarse, lo, hi) {
            let x = (a + b) / 2.0;
            if let Ok(crossings) = self.sight([x, front], target) {
                return Sighting::Seen {
                    from: [x, front],
                    crossings,
                };
            }
        }
        let mut blocked: Vec<(f64, f64)> = Vec::new();
        let mut samples: Vec<f64> = Vec::new();
        let shadows: Vec<Option<(f64, f64)>> = (0..self.screens.len())
            .map(|i| self.shadow_on_front(i, self.screens[i].outline.points(), t, front))
            .collect();
        // Crests first (exact and cheap), then the widest shadows, so a
        // screen whose shadow is already all blocked need not be sampled.
        let mut order: Vec<(usize, (f64, f64))> = shadows
            .iter()
            .enumerate()
            .filter_map(|(i, sh)| sh.map(|sh| (i, sh)))
            .collect();
        let crest = |i: usize| matches!(self.screens[i].effect, Effect::Crest { .. });
        order.sort_by(|x, y| {
            (!crest(x.0), y.1.1 - y.1.0)
                .partial_cmp(&(!crest(y.0), x.1.1 - x.1.0))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        for (i, (a, b)) in order {
            let (a, b) = (a.max(lo), b.min(hi));
            if a > b || (!crest(i) && gaps(&mut blocked.clone(), a, b).is_empty()) {
                continue;
            }
            self.blocked_on_front(i, (a, b), target, front, &mut blocked, &mut samples);
        }
        samples.sort_by(f64::total_cmp);
        // Walk the gaps between blocked intervals; try the middle of each,
        // then the unblocked samples inside it.
        let mut reasons = Vec::new();
        let gaps = gaps(&mut blocked, lo, hi);
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

    /// The part of the front edge whose sight lines to `t` meet a screen
    /// that can block them: a superset of what it blocks.
    pub(super) fn shadow_on_front(
        &self,
        index: usize,
        outline: &[[f64; 2]],
        t: [f64; 2],
        front: f64,
    ) -> Option<(f64, f64)> {
        let screen = &self.screens[index];
        match screen.effect {
            Effect::LightFoot { .. } => None,
            Effect::Crest { distance, crest } => {
                if segment_distance(t, crest[0], crest[1]) <= distance + EPS {
                    None
                } else {
                    shadow(&crest, t, front)
                }
            }
            Effect::Blocks { .. } if in_band(&screen.outline, t, front) => {
                shadow(outline, t, front)
            }
            Effect::Blocks { .. } => None,
        }
    }

    /// Adds the parts of `shadow`, screen `index`'s shadow on the front edge
    /// clipped to the viewers in range, that the screen blocks, and the
    /// points sampled while finding them.
    pub(super) fn blocked_on_front(
        &self,
        index: usize,
        shadow: (f64, f64),
        target: Target,
        front: f64,
        blocked: &mut Vec<(f64, f64)>,
        samples: &mut Vec<f64>,
    ) {
        let t = target.at;
        let screen = &self.screens[index];
        let (a, b) = shadow;
        match screen.effect {
            Effect::LightFoot { .. } => {}
            Effect::Crest { .. } => blocked.push((a, b)),
            Effect::Blocks { distance } => {
                // The chord length changes smoothly between the projections
                // of consecutive vertices (the sight line enters and leaves
                // by the same edges) but can dip in between, as through a
                // long thin piece seen broadside: sample each projection,
                // and where both ends of a stretch are blocked, look for a
                // dip below the limit.
                let mut xs: Vec<f64> = vec![a, b];
                // A many-sided outline (an ellipse) bends smoothly: sample it
                // evenly rather than at every vertex.
                let many = screen.outline.points().len() > SAMPLES / 2;
                if !many {
                    for_each_projection(screen.outline.points(), t, front, |x| {
                        if x > a && x < b {
                            xs.push(x);
                        }
                    });
                } else {
                    xs = (0..=SAMPLES)
                        .map(|k| a + (b - a) * k as f64 / SAMPLES as f64)
                        .collect();
                }
                xs.sort_by(f64::total_cmp);
                let excess = |x: f64| self.chord(index, [x, front], t) - distance - EPS;
                let mut all: Vec<(f64, f64)> = Vec::with_capacity(xs.len() * 2);
                let mut prev = (xs[0], excess(xs[0]));
                all.push(prev);
                for &x in &xs[1..] {
                    let next = (x, excess(x));
                    let width = next.0 - prev.0;
                    let near = prev.1.min(next.1) < DIP_MARGIN || (!many && width > DIP_WIDE);
                    if prev.1 > 0.0 && next.1 > 0.0 && width > DIP_STEP && near {
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
}

/// How many stretches a many-sided outline's shadow is sampled in.
const SAMPLES: usize = 8;
/// Stretches of the front edge narrower than this are not searched for a dip.
const DIP_STEP: f64 = 0.25;
/// Between the projections of neighbouring vertices the sight line keeps its
/// entry and exit edges, and the chord bends gently: a stretch is searched
/// for a dip below the limit when an end is within this of the limit...
const DIP_MARGIN: f64 = 0.5;
/// ...or when it is this wide (a long edge, as of a rectangle seen broadside).
const DIP_WIDE: f64 = 4.0;

/// The lowest point of `f` on `(a, b)` found by golden-section search,
/// stopping early at the first point where `f` is not positive.
pub(super) fn dip(f: &impl Fn(f64) -> f64, a: f64, b: f64) -> (f64, f64) {
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

/// How closely the end of a blocked stretch of the front edge is found, MU.
const BOUNDARY_TOLERANCE: f64 = 1e-3;

/// Where `f` crosses zero between `ok` (f <= 0) and `bad` (f > 0), by the
/// Illinois variant of regula falsi; the answer leans to the blocked side so
/// a blocked interval is never shrunk.
pub(super) fn boundary(f: &impl Fn(f64) -> f64, ok: (f64, f64), bad: (f64, f64)) -> f64 {
    let (mut a, mut fa) = ok;
    let (mut b, mut fb) = bad;
    let mut side = 0;
    for _ in 0..30 {
        if (b - a).abs() < BOUNDARY_TOLERANCE {
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

/// The open stretches of `[lo, hi]` outside every interval (a single
/// point when `lo == hi` and nothing covers it). Sorts `intervals`.
pub(super) fn gaps(intervals: &mut [(f64, f64)], lo: f64, hi: f64) -> Vec<(f64, f64)> {
    intervals.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = Vec::new();
    let mut start = lo;
    let mut covered_to_end = false;
    for &(a, b) in intervals.iter() {
        if a > start {
            out.push((start, a.min(hi)));
        }
        start = start.max(b);
        if start >= hi {
            covered_to_end = true;
            break;
        }
    }
    if !covered_to_end && start <= hi {
        out.push((start, hi));
    }
    out.retain(|(a, b)| a <= b && *a <= hi && *b >= lo);
    out
}

/// Calls `f` with where the ray from `t` through each point of the outline
/// (or segment) between the target's row and the front edge meets the front
/// edge: the outline's vertices in that band and the points where its edges
/// cross the band's sides. Only that part can meet a sight line from the
/// front edge.
pub(super) fn for_each_projection(
    points: &[[f64; 2]],
    t: [f64; 2],
    front: f64,
    mut f: impl FnMut(f64),
) {
    // Keep a hair off the target's own row so projections stay finite.
    let toward = (front - t[1]).signum();
    let (y0, y1) = (t[1] + toward * 1e-9, front);
    let (lo, hi) = (y0.min(y1), y0.max(y1));
    let dy = front - t[1];
    let mut project = |p: [f64; 2]| f(t[0] + (p[0] - t[0]) * dy / (p[1] - t[1]));
    let n = points.len();
    let edges = if n > 2 { n } else { n.saturating_sub(1) };
    for i in 0..n {
        let a = points[i];
        if a[1] >= lo && a[1] <= hi {
            project(a);
        }
        if i < edges {
            let b = points[(i + 1) % n];
            for y in [lo, hi] {
                if (a[1] - y) * (b[1] - y) < 0.0 {
                    let s = (y - a[1]) / (b[1] - a[1]);
                    project([a[0] + s * (b[0] - a[0]), y]);
                }
            }
        }
    }
}

/// Whether a box spans any of the band between the target's row and the
/// front edge.
pub(super) fn in_band(outline: &Footprint, t: [f64; 2], front: f64) -> bool {
    let (lo, hi) = (t[1].min(front), t[1].max(front));
    outline.max()[1] >= lo && outline.min()[1] <= hi
}

/// The interval of the front edge whose sight lines to `t` meet the points'
/// outline: all the points in the band lie on one side of `t`'s row, so
/// their projections span it.
pub(super) fn shadow(points: &[[f64; 2]], t: [f64; 2], front: f64) -> Option<(f64, f64)> {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for_each_projection(points, t, front, |x| {
        lo = lo.min(x);
        hi = hi.max(x);
    });
    (lo <= hi).then_some((lo, hi))
}
