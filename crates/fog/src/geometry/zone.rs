//! Where a piece must lie for each placement die result (RULES 5, table in
//! the ruleset's `placement.results`), measured so a refusal can say by how
//! much it misses.

use super::{Footprint, TOUCH, Table};
use crate::ruleset::{PlacementZone, Whose};
use muster_core::side::Side;

/// The lines a piece "touches a side edge (or a coast)" at: x = west and
/// x = east, which are the table's side edges unless a coast lies along one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SideLines {
    pub west: f64,
    pub east: f64,
}

impl SideLines {
    pub fn edges(table: &Table) -> SideLines {
        SideLines {
            west: 0.0,
            east: table.width,
        }
    }

    /// These lines where a coast counts as a side edge, else the edges.
    fn or_edges(self, or_coast: bool, table: &Table) -> SideLines {
        if or_coast {
            self
        } else {
            SideLines::edges(table)
        }
    }
}

/// The y range of a player's half.
fn half(table: &Table, side: Side) -> (f64, f64) {
    match side {
        Side::South => (0.0, table.depth / 2.0),
        Side::North => (table.depth / 2.0, table.depth),
    }
}

fn whose(placer: Side, w: Whose) -> Side {
    match w {
        Whose::Own => placer,
        Whose::Opponent => placer.opponent(),
    }
}

/// Checks a footprint against the zone of a die result for `placer`.
pub fn check_zone(
    zone: &PlacementZone,
    placer: Side,
    table: &Table,
    lines: SideLines,
    f: &Footprint,
) -> Result<(), String> {
    let (min, max) = (f.min(), f.max());
    let (w, d) = (table.width, table.depth);
    match zone {
        PlacementZone::TouchLongEdge {
            whose: who,
            side_edge_clearance: c,
            ..
        } => {
            let edge = whose(placer, *who);
            let gap = match edge {
                Side::South => min[1],
                Side::North => d - max[1],
            };
            if gap > TOUCH {
                return Err(format!(
                    "the piece must touch {edge}'s long edge; it is {gap:.1} MU from it"
                ));
            }
            side_clearance(min[0], w - max[0], *c)
        }
        PlacementZone::TouchSideEdge {
            whose: who,
            or_coast,
            ..
        } => {
            let target = whose(placer, *who);
            let (lo, hi) = half(table, target);
            let lines = lines.or_edges(*or_coast, table);
            let mut nearest = f64::INFINITY;
            for (line, west) in [(lines.west, true), (lines.east, false)] {
                let gap = if west { min[0] - line } else { line - max[0] };
                nearest = nearest.min(gap);
                if gap > TOUCH {
                    continue;
                }
                // The touching part is the span of vertices on the line.
                let ys = f
                    .points()
                    .iter()
                    .filter(|p| {
                        if west {
                            p[0] - line <= TOUCH
                        } else {
                            line - p[0] <= TOUCH
                        }
                    })
                    .map(|p| p[1]);
                let (ylo, yhi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
                    (a.min(y), b.max(y))
                });
                if yhi >= lo - TOUCH && ylo <= hi + TOUCH {
                    return Ok(());
                }
            }
            if nearest > TOUCH {
                let what = if *or_coast {
                    "a side edge or a coast"
                } else {
                    "a side edge"
                };
                Err(format!(
                    "the piece must touch {what}; it is {nearest:.1} MU from the nearest"
                ))
            } else {
                Err(format!(
                    "the piece touches a side edge, but not in {target}'s half"
                ))
            }
        }
        PlacementZone::InsideHalf {
            whose: who,
            edge_clearance: c,
            ..
        } => {
            let target = whose(placer, *who);
            let (lo, hi) = half(table, target);
            if min[1] < lo - TOUCH || max[1] > hi + TOUCH {
                let out = (lo - min[1]).max(max[1] - hi);
                return Err(format!(
                    "the piece must lie wholly in {target}'s half; {out:.1} MU of it is over the centre line"
                ));
            }
            side_clearance(min[0], w - max[0], *c)?;
            let (gap, edge) = if min[1] < d - max[1] {
                (min[1], "south")
            } else {
                (d - max[1], "north")
            };
            if gap <= *c {
                return Err(format!(
                    "every point must be over {c} MU from every table edge; it is {gap:.1} MU from the {edge} edge"
                ));
            }
            Ok(())
        }
    }
}

fn side_clearance(west: f64, east: f64, c: f64) -> Result<(), String> {
    let (gap, edge) = if west < east {
        (west, "west")
    } else {
        (east, "east")
    };
    if gap < c - TOUCH {
        return Err(format!(
            "no part may be within {c} MU of a side edge; it comes {gap:.1} MU from the {edge} edge"
        ));
    }
    Ok(())
}

/// Centre positions worth trying for a footprint whose unrotated-at-pose
/// bounding box is `half_w` x `half_d` either side of its centre: the zone's
/// touching coordinate pinned, the other swept at `step`. This keeps the
/// legal-pose search to the zone instead of the whole table.
pub fn zone_candidates(
    zone: &PlacementZone,
    placer: Side,
    table: &Table,
    lines: SideLines,
    reach: ([f64; 2], [f64; 2]),
    step: f64,
) -> Vec<[f64; 2]> {
    // `reach` is the footprint's min and max relative to its centre.
    let (lo, hi) = reach;
    let xs = sweep(-lo[0], table.width - hi[0], step);
    let ys = sweep(-lo[1], table.depth - hi[1], step);
    match zone {
        PlacementZone::TouchLongEdge { whose: who, .. } => {
            let y = match whose(placer, *who) {
                Side::South => -lo[1],
                Side::North => table.depth - hi[1],
            };
            xs.into_iter().map(|x| [x, y]).collect()
        }
        PlacementZone::TouchSideEdge {
            whose: who,
            or_coast,
            ..
        } => {
            let lines = lines.or_edges(*or_coast, table);
            let (hlo, hhi) = half(table, whose(placer, *who));
            // Keep the table-wide grid so every search walks the same centres.
            let ys: Vec<f64> = ys
                .into_iter()
                .filter(|y| y + hi[1] >= hlo && y + lo[1] <= hhi)
                .collect();
            let mut out = Vec::new();
            for x in [lines.west - lo[0], lines.east - hi[0]] {
                out.extend(ys.iter().map(|&y| [x, y]));
            }
            out
        }
        PlacementZone::InsideHalf { .. } => xs
            .iter()
            .flat_map(|&x| ys.iter().map(move |&y| [x, y]))
            .collect(),
    }
}

/// lo, lo + step, ..., hi (and hi itself), or nothing if lo > hi.
fn sweep(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    if lo > hi + TOUCH {
        return Vec::new();
    }
    let n = ((hi - lo) / step).floor() as usize;
    let mut v: Vec<f64> = (0..=n).map(|i| lo + i as f64 * step).collect();
    if hi - v[v.len() - 1] > TOUCH {
        v.push(hi);
    }
    v
}

/// The ground a die result points at, to highlight on the table: the strip
/// along the edge or side lines to touch, or the area to lie in.
pub fn zone_area(
    zone: &PlacementZone,
    placer: Side,
    table: &Table,
    lines: SideLines,
) -> Vec<Footprint> {
    const BAND: f64 = 2.0;
    let (w, d) = (table.width, table.depth);
    match zone {
        PlacementZone::TouchLongEdge {
            whose: who,
            side_edge_clearance: c,
            ..
        } => {
            let (y0, y1) = match whose(placer, *who) {
                Side::South => (0.0, BAND),
                Side::North => (d - BAND, d),
            };
            vec![Footprint::rect([*c, y0], [w - c, y1])]
        }
        PlacementZone::TouchSideEdge {
            whose: who,
            or_coast,
            ..
        } => {
            let lines = lines.or_edges(*or_coast, table);
            let (lo, hi) = half(table, whose(placer, *who));
            vec![
                Footprint::rect([lines.west, lo], [lines.west + BAND, hi]),
                Footprint::rect([lines.east - BAND, lo], [lines.east, hi]),
            ]
        }
        PlacementZone::InsideHalf {
            whose: who,
            edge_clearance: c,
            ..
        } => {
            let (lo, hi) = half(table, whose(placer, *who));
            vec![Footprint::rect([*c, lo.max(*c)], [w - c, hi.min(d - c)])]
        }
    }
}
