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

use crate::geometry::{Footprint, Pose, Shape, nearest_on_segment};

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
    /// The true ellipse of an elliptical piece: sight is measured against
    /// it (exactly, and far faster than against its 64-sided outline).
    pub ellipse: Option<Ellipse>,
}

impl Screen {
    /// A screen for a piece of `shape` at `pose`.
    pub fn new(name: impl Into<String>, shape: &Shape, pose: Pose, effect: Effect) -> Screen {
        let ellipse = match *shape {
            Shape::Ellipse { width, depth } => Some(Ellipse {
                centre: [pose.x, pose.y],
                radii: [width / 2.0, depth / 2.0],
                angle: pose.angle.to_radians(),
            }),
            _ => None,
        };
        Screen {
            name: name.into(),
            outline: Footprint::new(shape, pose),
            effect,
            ellipse,
        }
    }

    fn contains(&self, p: [f64; 2]) -> bool {
        match &self.ellipse {
            Some(e) => {
                let q = e.local(p);
                q[0] * q[0] + q[1] * q[1] <= 1.0
            }
            None => contains(&self.outline, p),
        }
    }
}

/// An ellipse: centre, semi-axes, and turn (radians, anticlockwise).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ellipse {
    pub centre: [f64; 2],
    pub radii: [f64; 2],
    pub angle: f64,
}

impl Ellipse {
    /// `p` in the frame where the ellipse is the unit circle.
    fn local(&self, p: [f64; 2]) -> [f64; 2] {
        let (s, c) = self.angle.sin_cos();
        let (dx, dy) = (p[0] - self.centre[0], p[1] - self.centre[1]);
        [
            (c * dx + s * dy) / self.radii[0],
            (-s * dx + c * dy) / self.radii[1],
        ]
    }

    /// The length of segment `ab` inside the ellipse.
    fn chord(&self, a: [f64; 2], b: [f64; 2]) -> f64 {
        let (p, q) = (self.local(a), self.local(b));
        let d = [q[0] - p[0], q[1] - p[1]];
        let qa = d[0] * d[0] + d[1] * d[1];
        let qb = 2.0 * (p[0] * d[0] + p[1] * d[1]);
        let qc = p[0] * p[0] + p[1] * p[1] - 1.0;
        let disc = qb * qb - 4.0 * qa * qc;
        if qa <= 0.0 || disc <= 0.0 {
            return 0.0;
        }
        let root = disc.sqrt();
        let t0 = ((-qb - root) / (2.0 * qa)).max(0.0);
        let t1 = ((-qb + root) / (2.0 * qa)).min(1.0);
        if t1 <= t0 {
            return 0.0;
        }
        (t1 - t0) * dist(a, b)
    }
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
    /// Per screen: its outline's orientation (+1 anticlockwise, -1
    /// clockwise) if it is convex, so chords take the fast path.
    convex: Vec<Option<f64>>,
    /// Per screen: a polygon of at most 8 sides around it, whose shadow is
    /// a quick first answer to "can this screen be in the way at all".
    coarse: Vec<Vec<[f64; 2]>>,
}

/// Slack for comparing lengths with a limit: a sight line crossing exactly
/// N MU is not "more than N".
const EPS: f64 = 1e-9;

impl Sightlines {
    pub fn new(screens: Vec<Screen>) -> Sightlines {
        let convex = screens
            .iter()
            .map(|s| orientation(s.outline.points()))
            .collect();
        let coarse = screens
            .iter()
            .map(|s| enclosing_octagon(&s.outline))
            .collect();
        Sightlines {
            screens,
            convex,
            coarse,
        }
    }

    /// The length of segment `ab` inside screen `i`.
    fn chord(&self, i: usize, a: [f64; 2], b: [f64; 2]) -> f64 {
        let screen = &self.screens[i];
        if let Some(e) = &screen.ellipse {
            return e.chord(a, b);
        }
        let outline = &screen.outline;
        match self.convex[i] {
            Some(sign) => convex_chord(outline, sign, a, b),
            None => chord(outline, a, b),
        }
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
                    if distance > limit + EPS && s.contains(t) {
                        return Err(Blocked::TooFar {
                            screen: i,
                            distance,
                            limit,
                        });
                    }
                    let length = self.chord(i, viewer, t);
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
                    if target.light_foot && distance > limit + EPS && s.contains(t) {
                        return Err(Blocked::TooFar {
                            screen: i,
                            distance,
                            limit,
                        });
                    }
                    let length = self.chord(i, viewer, t);
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
    fn shadow_on_front(
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
    fn blocked_on_front(
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

/// How closely the end of a blocked stretch of the front edge is found, MU.
const BOUNDARY_TOLERANCE: f64 = 1e-3;

/// Where `f` crosses zero between `ok` (f <= 0) and `bad` (f > 0), by the
/// Illinois variant of regula falsi; the answer leans to the blocked side so
/// a blocked interval is never shrunk.
fn boundary(f: &impl Fn(f64) -> f64, ok: (f64, f64), bad: (f64, f64)) -> f64 {
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
fn gaps(intervals: &mut [(f64, f64)], lo: f64, hi: f64) -> Vec<(f64, f64)> {
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

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
    (dx * dx + dy * dy).sqrt()
}

/// Whether `p` is inside the outline or on it.
fn contains(outline: &Footprint, p: [f64; 2]) -> bool {
    let (min, max) = (outline.min(), outline.max());
    if p[0] < min[0] || p[0] > max[0] || p[1] < min[1] || p[1] > max[1] {
        return false;
    }
    even_odd(outline.points(), p)
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
fn orientation(points: &[[f64; 2]]) -> Option<f64> {
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
fn convex_chord(outline: &Footprint, sign: f64, a: [f64; 2], b: [f64; 2]) -> f64 {
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
fn enclosing_octagon(outline: &Footprint) -> Vec<[f64; 2]> {
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
fn segment_meets_box(a: [f64; 2], b: [f64; 2], min: [f64; 2], max: [f64; 2]) -> bool {
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

fn cross(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

fn segment_distance(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    dist(p, nearest_on_segment(p, a, b))
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

/// Calls `f` with where the ray from `t` through each point of the outline
/// (or segment) between the target's row and the front edge meets the front
/// edge: the outline's vertices in that band and the points where its edges
/// cross the band's sides. Only that part can meet a sight line from the
/// front edge.
fn for_each_projection(points: &[[f64; 2]], t: [f64; 2], front: f64, mut f: impl FnMut(f64)) {
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
fn in_band(outline: &Footprint, t: [f64; 2], front: f64) -> bool {
    let (lo, hi) = (t[1].min(front), t[1].max(front));
    outline.max()[1] >= lo && outline.min()[1] <= hi
}

/// The interval of the front edge whose sight lines to `t` meet the points'
/// outline: all the points in the band lie on one side of `t`'s row, so
/// their projections span it.
fn shadow(points: &[[f64; 2]], t: [f64; 2], front: f64) -> Option<(f64, f64)> {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for_each_projection(points, t, front, |x| {
        lo = lo.min(x);
        hi = hi.max(x);
    });
    (lo <= hi).then_some((lo, hi))
}

#[cfg(test)]
mod tests;
