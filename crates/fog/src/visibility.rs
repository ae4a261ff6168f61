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
//!
//! The search is `front`; a piece's outline as sight lines meet it (chords,
//! containment, the coarse tests) is `outline`.

use crate::geometry::{Footprint, Pose, Shape};
use outline::{
    chord, contains, convex_chord, dist, enclosing_octagon, orientation, segment_distance,
    segments_cross,
};

mod front;
mod outline;

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
pub(super) const EPS: f64 = 1e-9;

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

#[cfg(test)]
mod tests;
