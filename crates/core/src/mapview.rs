//! How a hex map is shown on every screen (issue 38): the rules the
//! laptop's map (egui, `src/app/hex_grid/`) and the phone's map (canvas,
//! `assets/phone/hexmap.js`) both follow, so that the two behave alike. The
//! first view, the zoom limits, the size of counter labels and hex numbers,
//! how a stack is laid out and the colours live here; the laptop reads
//! them from `Rules::default()`, the phone gets them with each board (`HexBoard::rules`)
//! and works out the same first view and the same stacks (checked against
//! `first_view` and `stack` by `tests/phone_channel.rs`, under node).
//!
//! A counter's token stays inside its own hex while it reads there
//! (`stack`): its label shrinks with the hex down to `min_label_px`, then
//! shows the counter's name alone; on a hex too small even for that the
//! phone shows a dot of its side's colour. The laptop shrinks a label no
//! further than `callout_px`: on a hex too small for that it draws the
//! name at `callout_px` on the hex or beside it, never over another label
//! (`lay`).
//! Labels are drawn in a monospace face (Hack on the laptop, the phone's
//! own on the page), whose capital I and lower-case l differ: a Wing's
//! "I1" never reads as "l1".
//!
//! A view is a centre (in map units, where a hex's circumradius is 1,
//! `HexMap::centre`) and a radius in pixels: how large a hex is drawn.
//! Nothing here moves a view by itself; a renderer keeps the player's view
//! until he zooms or pans, and begins with `first_view`.

use crate::hexmap::{Hex, HexMap, Orientation};
use crate::side::Side;
use serde::{Deserialize, Serialize};

mod lay;
pub use lay::{How, Laid, callout};

/// The drawing rules every map renderer follows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// A counter's label, in pixels (CSS pixels on a phone): its font size.
    pub label_px: f64,
    /// A hex's printed number, in pixels: the least, on a small hex.
    pub number_px: f64,
    /// A hex's number grows with the hex, this much of its radius (a 10 px
    /// number is lost in a large hex, and is read from across a table),
    /// up to `number_max_px`.
    pub number_per_radius: f64,
    pub number_max_px: f64,
    /// The smallest hex (circumradius, pixels) the first view shows: its
    /// number fits in it and its counters' tokens, whose labels keep their
    /// size at any zoom, crowd no more than a hex beyond it (what does not
    /// fit is a pan away).
    pub readable_radius: f64,
    /// The largest hex the first view shows, framing a lone counter.
    pub framing_radius: f64,
    /// Hex numbers are drawn from this radius up (a hex may be tapped at
    /// any size; below it the number does not fit the hex).
    pub numbered_radius: f64,
    /// The largest hex a player may zoom to.
    pub max_radius: f64,
    /// Room round what matters in the first view, in map units.
    pub margin: f64,
    /// The least a label is drawn at, on a hex too small for `label_px`;
    /// below it a token shows its counter's name alone (`short`), then
    /// the hex a dot.
    pub min_label_px: f64,
    /// The least a label is drawn at on the laptop (`lay`): on a hex too
    /// small for its tokens at this size, the counters' names are drawn at
    /// it on the hex or beside it, read at the whole map of a large battle.
    #[serde(default = "callout_px")]
    pub callout_px: f64,
    /// Room round a label on its token (pixels across and down, at
    /// `label_px`; in proportion below it). A face-up or selected token's
    /// frame is drawn inside it.
    pub token_padding: [f64; 2],
    /// How far below the hex's centre a stack's middle goes (share of the
    /// radius), towards the room the hex's number leaves.
    pub token_drop: f64,
    /// A stack: each token after the first drawn this many pixels right
    /// of the one before (at `label_px`; in proportion below it) and just
    /// below it, every label read whole (a leader and a Dis counter in one
    /// hex covered each other's); at most `stack_shown` tokens drawn, the
    /// stack's count on a badge at the front token's corner when it holds
    /// more.
    pub stack_step_px: f64,
    pub stack_shown: usize,
    pub colours: Colours,
}

/// Every colour a map is drawn with (CSS `#rrggbb`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Colours {
    pub south: String,
    pub north: String,
    /// A face-up counter's frame.
    pub face_up: String,
    /// The hexes his form names, and the hex under his finger.
    pub picked: String,
    pub hex: String,
    pub line: String,
    pub number: String,
    /// A counter's path, as it is traced.
    pub path: String,
    /// A label's ink on a token.
    pub ink: String,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            label_px: 13.0,
            number_px: 10.0,
            number_per_radius: 0.36,
            number_max_px: 14.0,
            readable_radius: 35.0,
            framing_radius: 44.0,
            numbered_radius: 16.0,
            max_radius: 96.0,
            margin: 2.0,
            min_label_px: 8.0,
            callout_px: callout_px(),
            token_padding: [8.0, 4.0],
            token_drop: 0.1,
            stack_step_px: 5.0,
            stack_shown: 3,
            colours: Colours {
                south: "#b2362c".into(),
                north: "#2c58aa".into(),
                face_up: "#f0c83c".into(),
                picked: "#f2cf5b".into(),
                hex: "#eef1e6".into(),
                line: "#9aa39a".into(),
                number: "#5d655d".into(),
                path: "#e0a800".into(),
                ink: "#ffffff".into(),
            },
        }
    }
}

/// A crowded hex's name's size: 12 px, read at arm's length (the least
/// of the first view's labels, `label_px` less one).
fn callout_px() -> f64 {
    12.0
}

/// A hex's stack as drawn in a hex: the labels' size, whether they are
/// the counters' names alone (`short`), each token's box (pixels from the
/// hex's centre, `[left, top, right, bottom]`, down the screen), front
/// token first, and the count's badge (its centre and radius) when the
/// hex holds more counters than are shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Stack {
    pub px: f64,
    pub short: bool,
    pub tokens: Vec<[f64; 4]>,
    pub badge: Option<([f64; 2], f64)>,
}

/// A counter's name alone, from its label: the label's first word ("I1"
/// of "I1 (4)"), for a token too small for the whole.
pub fn short(label: &str) -> &str {
    label.split(' ').next().unwrap_or(label)
}

impl Stack {
    /// Whether every token and the badge lie inside a hex of `radius`
    /// pixels.
    fn inside(&self, radius: f64, orientation: Orientation) -> bool {
        let root3 = 3f64.sqrt();
        // A little room for rounding: a box on the hex's edge is in it.
        let (r, slack) = (radius, 1e-9 * radius.max(1.0));
        let point = |x: f64, y: f64| {
            let (x, y) = (x.abs(), y.abs());
            match orientation {
                Orientation::FlatTop => {
                    y <= root3 / 2.0 * r + slack && root3 * x + y <= root3 * r + slack
                }
                Orientation::PointyTop => {
                    x <= root3 / 2.0 * r + slack && x + root3 * y <= root3 * r + slack
                }
            }
        };
        let boxed = |[x0, y0, x1, y1]: [f64; 4]| {
            point(x0, y0) && point(x1, y0) && point(x0, y1) && point(x1, y1)
        };
        self.boxes([0.0, 0.0]).into_iter().all(boxed)
    }
}

/// Where a map view looks: the point of the map at the pane's centre (map
/// units) and the size of a hex (its circumradius, in pixels).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    pub centre: (f64, f64),
    pub radius: f64,
}

/// What matters to the viewer now, for his first view: the hexes his form
/// names and his own counters; failing those, every counter drawn; failing
/// those, nothing (the whole map).
/// `counters` are each counter's side and hex.
pub fn focus(counters: &[(Side, Hex)], highlight: &[Hex], viewer: Option<Side>) -> Vec<Hex> {
    let mut hexes: Vec<Hex> = highlight.to_vec();
    hexes.extend(
        counters
            .iter()
            .filter(|(side, _)| viewer.is_none_or(|v| *side == v))
            .map(|(_, hex)| *hex),
    );
    if hexes.is_empty() {
        hexes.extend(counters.iter().map(|(_, hex)| *hex));
    }
    hexes.sort_by_key(|h| (h.column, h.row));
    hexes.dedup();
    hexes
}

impl Rules {
    /// A hex's stack on a hex of `radius` pixels: `ems` are the shown
    /// tokens' labels' widths at a 1 px font (each measured width over its
    /// font size), whole and `short`, front first, at most `stack_shown`;
    /// `count` the counters in the hex. The whole labels at `label_px` if
    /// the stack fits inside the hex, else at the largest size down to
    /// `min_label_px` that does; failing that the names alone, the same
    /// way; `None` (a dot) when not even those fit.
    pub fn stack(
        &self,
        radius: f64,
        orientation: Orientation,
        ems: &[[f64; 2]],
        count: usize,
    ) -> Option<Stack> {
        if ems.is_empty() {
            return None;
        }
        [false, true].into_iter().find_map(|short| {
            let ems: Vec<f64> = ems.iter().map(|e| e[usize::from(short)]).collect();
            let mut stack = self.sized(radius, orientation, &ems, count)?;
            stack.short = short;
            Some(stack)
        })
    }

    /// The stack of labels `ems` wide at the largest size from `label_px`
    /// down to `min_label_px` that fits inside the hex.
    fn sized(
        &self,
        radius: f64,
        orientation: Orientation,
        ems: &[f64],
        count: usize,
    ) -> Option<Stack> {
        let fits = |px: f64| {
            let stack = self.stack_at(radius, ems, count, px);
            stack.inside(radius, orientation).then_some(stack)
        };
        if let Some(stack) = fits(self.label_px) {
            return Some(stack);
        }
        fits(self.min_label_px)?;
        // Halved 24 times: finer than a pixel's hundredth, the same steps
        // on the phone.
        let (mut lo, mut hi) = (self.min_label_px, self.label_px);
        for _ in 0..24 {
            let mid = (lo + hi) / 2.0;
            if fits(mid).is_some() {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        fits(lo)
    }

    /// The stack's boxes at labels of `px`: each token after the front one
    /// offset right and a token's height down, the badge (when some are
    /// not shown) on the front token's top right corner, the whole centred
    /// across the hex and `token_drop` below its middle.
    fn stack_at(&self, radius: f64, ems: &[f64], count: usize, px: f64) -> Stack {
        let scale = px / self.label_px;
        let [pad_x, pad_y] = self.token_padding;
        let h = px + pad_y * scale;
        let step = self.stack_step_px * scale;
        let mut tokens: Vec<[f64; 4]> = ems
            .iter()
            .enumerate()
            .map(|(k, em)| {
                let w = em * px + pad_x * scale;
                let (x, y) = (k as f64 * step, k as f64 * h);
                [x - w / 2.0, y - h / 2.0, x + w / 2.0, y + h / 2.0]
            })
            .collect();
        let mut badge = (count > ems.len()).then(|| ([tokens[0][2], tokens[0][1]], h / 2.0));
        let mut all = tokens.clone();
        all.extend(badge.map(|([x, y], b)| [x - b, y - b, x + b, y + b]));
        let (x0, y0, x1, y1) = all.iter().fold(
            (
                f64::INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NEG_INFINITY,
            ),
            |(a, b, c, d), t| (a.min(t[0]), b.min(t[1]), c.max(t[2]), d.max(t[3])),
        );
        let (dx, dy) = (-(x0 + x1) / 2.0, self.token_drop * radius - (y0 + y1) / 2.0);
        for t in &mut tokens {
            *t = [t[0] + dx, t[1] + dy, t[2] + dx, t[3] + dy];
        }
        if let Some(([x, y], _)) = &mut badge {
            *x += dx;
            *y += dy;
        }
        Stack {
            px,
            short: false,
            tokens,
            badge,
        }
    }

    /// The whole map in a pane of `pane` pixels (width, height).
    /// A hex's number on a hex of `radius` pixels: its size in pixels, and
    /// how far above the hex's centre its top goes (map units). Near the
    /// hex's top edge, clear of its counters, where the hex is wide enough
    /// there for four digits (about 2.4 times their size across); across
    /// its middle on a hex too small for that, never over its lines.
    pub fn number(&self, radius: f64, orientation: Orientation) -> (f64, f64) {
        let px = (self.number_per_radius * radius).clamp(self.number_px, self.number_max_px);
        // Where the number's top goes, and the hex's width there (a
        // pointy-top hex narrows to a point above half its radius).
        let (top, width) = match orientation {
            Orientation::FlatTop => (0.74, 1.14),
            Orientation::PointyTop => (0.5, 1.73),
        };
        if 2.4 * px <= width * radius {
            (px, top)
        } else {
            (px, px / (2.0 * radius))
        }
    }

    pub fn fit(&self, map: &HexMap, pane: (f64, f64)) -> View {
        let (w, h) = map.extent();
        View {
            centre: (w / 2.0, h / 2.0),
            radius: (pane.0 / w).min(pane.1 / h).max(0.1),
        }
    }

    /// The smallest and the largest hex a player may zoom to: from the
    /// whole map in the pane (or readable, if the map is small) to
    /// `max_radius`.
    pub fn limits(&self, map: &HexMap, pane: (f64, f64)) -> (f64, f64) {
        let whole = self.fit(map, pane).radius;
        (whole.min(self.readable_radius), self.max_radius)
    }

    /// The first view of `map` in a pane of `pane` pixels: `focus` framed
    /// with `margin` round it, at the largest radius that holds it, never
    /// below `readable_radius` nor above `framing_radius`. A focus too
    /// spread to frame so: the most of it one pane holds, the rest a pan
    /// away (centred on the whole, the view opened on the empty ground
    /// between counters spread across the map). With no focus, the whole
    /// map by the same bounds.
    pub fn first_view(&self, map: &HexMap, focus: &[Hex], pane: (f64, f64)) -> View {
        let (w, h) = map.extent();
        let points: Vec<(f64, f64)> = focus.iter().map(|hex| map.centre(*hex)).collect();
        let (mut x0, mut y0, mut x1, mut y1) = self.frame(&points).unwrap_or((0.0, 0.0, w, h));
        let fits = (pane.0 / (x1 - x0)).min(pane.1 / (y1 - y0));
        let radius = fits.clamp(self.readable_radius, self.framing_radius);
        if fits < radius {
            let reach = |pane: f64| (pane / 2.0 / radius - self.margin).max(0.0);
            let (rx, ry) = (reach(pane.0), reach(pane.1));
            let near = |c: (f64, f64)| {
                (points.iter().copied())
                    .filter(move |p| (p.0 - c.0).abs() <= rx && (p.1 - c.1).abs() <= ry)
            };
            // The first point whose pane round it holds the most.
            let best = (points.iter().copied())
                .fold((0, None), |(most, at), c| match near(c).count() {
                    n if n > most => (n, Some(c)),
                    _ => (most, at),
                })
                .1;
            if let Some(held) = best.and_then(|c| self.frame(&near(c).collect::<Vec<_>>())) {
                (x0, y0, x1, y1) = held;
            }
        }
        // No pane's worth of empty ground beyond the map's edge while the
        // map's far side is cut off: the view slides in, as far as the map
        // fills the pane (a map smaller than the pane sits in its middle).
        let inside = |at: f64, extent: f64, pane: f64| {
            let half = pane / 2.0 / radius;
            if extent <= 2.0 * half {
                extent / 2.0
            } else {
                at.clamp(half, extent - half)
            }
        };
        View {
            centre: (
                inside((x0 + x1) / 2.0, w, pane.0),
                inside((y0 + y1) / 2.0, h, pane.1),
            ),
            radius,
        }
    }

    /// The box round `points` with `margin` about it; none for no point.
    fn frame(&self, points: &[(f64, f64)]) -> Option<(f64, f64, f64, f64)> {
        let (&(x, y), rest) = points.split_first()?;
        let (x0, y0, x1, y1) = (rest.iter()).fold((x, y, x, y), |(x0, y0, x1, y1), &(x, y)| {
            (x0.min(x), y0.min(y), x1.max(x), y1.max(y))
        });
        let m = self.margin;
        Some((x0 - m, y0 - m, x1 + m, y1 + m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hexmap::{Orientation, Shifted};

    fn map() -> HexMap {
        HexMap {
            columns: 40,
            rows: 20,
            first_column: 1,
            first_row: 1,
            orientation: Orientation::FlatTop,
            shifted: Shifted::Odd,
        }
    }

    fn counter(side: Side, hex: &str) -> (Side, Hex) {
        (side, Hex::parse(hex).unwrap())
    }

    /// A 40-column map on a 332 px phone: the whole of it would draw a
    /// hex 5 px across; the first view frames his two counters, readable.
    #[test]
    fn the_first_view_frames_his_counters_readably_not_the_whole_map() {
        let rules = Rules::default();
        let map = map();
        let pane = (332.0, 400.0);
        assert!(rules.fit(&map, pane).radius < 6.0);
        let counters = [
            counter(Side::South, "0505"),
            counter(Side::South, "0707"),
            counter(Side::North, "3010"),
        ];
        let his = focus(&counters, &[], Some(Side::South));
        assert_eq!(his.len(), 2);
        let view = rules.first_view(&map, &his, pane);
        assert!(view.radius >= rules.readable_radius, "{view:?}");
        // Both of his counters are in the pane, the enemy's far off.
        let on_pane = |hex: &str| {
            let (x, y) = map.centre(Hex::parse(hex).unwrap());
            ((x - view.centre.0) * view.radius).abs() <= pane.0 / 2.0
                && ((y - view.centre.1) * view.radius).abs() <= pane.1 / 2.0
        };
        assert!(on_pane("0505") && on_pane("0707"), "{view:?}");
        assert!(!on_pane("3010"), "{view:?}");
        // A lone counter is framed, not blown up.
        let lone = rules.first_view(&map, &his[..1], pane);
        assert_eq!(lone.radius, rules.framing_radius);
        // Nothing of his: every counter; nothing at all: the whole map.
        assert_eq!(focus(&counters, &[], Some(Side::North)).len(), 1);
        assert_eq!(focus(&[], &[], Some(Side::North)), Vec::<Hex>::new());
        let whole = rules.first_view(&map, &[], pane);
        assert_eq!(whole.centre, (map.extent().0 / 2.0, map.extent().1 / 2.0));
        assert_eq!(whole.radius, rules.readable_radius);
    }

    /// Counters spread over a map too large to frame readably (a player
    /// saw none of them in the table's first view, centred on the empty
    /// ground between them): the view opens on the most of them one pane
    /// holds, readable.
    #[test]
    fn a_first_view_of_spread_counters_opens_on_the_most_it_can_hold() {
        let rules = Rules::default();
        let map = map();
        let pane = (500.0, 400.0);
        let counters = [
            counter(Side::South, "0303"),
            counter(Side::South, "0404"),
            counter(Side::North, "0505"),
            counter(Side::North, "3618"),
            counter(Side::South, "3817"),
        ];
        let view = rules.first_view(&map, &focus(&counters, &[], None), pane);
        assert_eq!(view.radius, rules.readable_radius);
        let on_pane = |hex: &str| {
            let (x, y) = map.centre(Hex::parse(hex).unwrap());
            ((x - view.centre.0) * view.radius).abs() <= pane.0 / 2.0
                && ((y - view.centre.1) * view.radius).abs() <= pane.1 / 2.0
        };
        assert!(
            ["0303", "0404", "0505"].iter().all(|h| on_pane(h)),
            "{view:?}"
        );
        assert!(!on_pane("3618") && !on_pane("3817"), "{view:?}");
    }

    /// Counters on the map's top row: the view slides in so that no empty
    /// ground shows above the map while its lower rows are cut off (the
    /// review: 120 px of nothing above Fritz's map); a map smaller than the
    /// pane sits in its middle.
    #[test]
    fn the_first_view_shows_no_ground_beyond_the_maps_edge() {
        let rules = Rules::default();
        let map = map();
        let (w, h) = map.extent();
        let pane = (332.0, 400.0);
        let top = [counter(Side::South, "1001"), counter(Side::South, "1201")];
        let view = rules.first_view(&map, &focus(&top, &[], None), pane);
        let half = (pane.0 / 2.0 / view.radius, pane.1 / 2.0 / view.radius);
        assert!(view.centre.1 - half.1 >= -1e-9, "{view:?}");
        assert!(view.centre.1 + half.1 <= h + 1e-9, "{view:?}");
        assert!(view.centre.0 - half.0 >= -1e-9 && view.centre.0 + half.0 <= w + 1e-9);
        // His counters are still in sight.
        let (x, y) = map.centre(Hex::parse("1001").unwrap());
        assert!(((y - view.centre.1) * view.radius).abs() <= pane.1 / 2.0);
        assert!(((x - view.centre.0) * view.radius).abs() <= pane.0 / 2.0);
        // The whole map on a wide pane: in its middle.
        let wide = rules.first_view(&map, &[], (4000.0, 4000.0));
        assert_eq!(wide.centre, (w / 2.0, h / 2.0));
    }

    /// Hack's advance: every character of a label is 0.602 of its size
    /// across.
    const HACK: f64 = 1233.0 / 2048.0;

    /// A label's widths at a 1 px font, whole and short.
    fn ems(label: &str) -> [f64; 2] {
        [label, short(label)].map(|t| t.chars().count() as f64 * HACK)
    }

    /// Every hex's stack laid on a small map at `radius`: the boxes no two
    /// hexes' may share, with the hex each is in.
    fn boxes(map: &HexMap, stack: &Stack, radius: f64) -> Vec<(Hex, [f64; 4])> {
        map.hexes()
            .flat_map(|hex| {
                let (cx, cy) = map.centre(hex);
                stack
                    .boxes([cx * radius, cy * radius])
                    .into_iter()
                    .map(move |t| (hex, t))
            })
            .collect()
    }

    /// Stacks of one to five counters with labels of 2 to 11 characters in
    /// every hex of a map, at every size from 4 px to the largest, both
    /// orientations: each drawn stack lies inside its hex (badge
    /// included), so no token covers another hex's; its labels are
    /// `label_px` or smaller, never under `min_label_px`; a larger hex never
    /// draws them smaller, and a hex too small for the whole labels shows
    /// the names alone before it shows a dot.
    #[test]
    fn a_stack_stays_inside_its_hex_at_every_zoom() {
        let rules = Rules::default();
        for orientation in [Orientation::FlatTop, Orientation::PointyTop] {
            let map = HexMap {
                columns: 4,
                rows: 4,
                orientation,
                ..map()
            };
            for label in ["d1", "E1 ?", "#13 ?", "I1 (4)", "I10 placed", "#100 (12)"] {
                for count in 1..=5usize {
                    let ems = vec![ems(label); count.min(rules.stack_shown)];
                    let mut last: Option<(bool, f64)> = None;
                    for step in 0..=184 {
                        let radius = 4.0 + 0.5 * f64::from(step);
                        let Some(stack) = rules.stack(radius, orientation, &ems, count) else {
                            assert!(
                                last.is_none(),
                                "{label} {count} {radius}: a dot after words"
                            );
                            continue;
                        };
                        assert!(stack.inside(radius, orientation));
                        assert!(
                            (rules.min_label_px..=rules.label_px).contains(&stack.px),
                            "{stack:?}"
                        );
                        // Larger: whole labels once short, never smaller.
                        let now = (!stack.short, stack.px);
                        assert!(last.is_none_or(|l| now >= l), "{label} {count} {radius}");
                        last = Some(now);
                        assert_eq!(stack.tokens.len(), ems.len());
                        assert_eq!(stack.badge.is_some(), count > ems.len());
                        let boxes = boxes(&map, &stack, radius);
                        for (i, (a, p)) in boxes.iter().enumerate() {
                            for (b, q) in &boxes[i + 1..] {
                                let meet = p[0] < q[2] - 1e-6
                                    && q[0] < p[2] - 1e-6
                                    && p[1] < q[3] - 1e-6
                                    && q[1] < p[3] - 1e-6;
                                assert!(
                                    a == b || !meet,
                                    "{orientation:?} {radius}: {a} {p:?} meets {b} {q:?}"
                                );
                            }
                        }
                    }
                    assert_eq!(
                        last.map(|l| l.0),
                        Some(true),
                        "{label} {count}: never whole"
                    );
                }
            }
        }
    }

    /// The first view's smallest hex holds a force's lone "#13 ?" or a
    /// Wing's "I1 (4)" at the full label size, in both orientations: the
    /// labels a player first sees read at 13 px.
    #[test]
    fn the_first_views_hex_holds_a_lone_label_at_full_size() {
        let rules = Rules::default();
        for orientation in [Orientation::FlatTop, Orientation::PointyTop] {
            for label in ["#13 ?", "I1 (4)"] {
                let stack = rules
                    .stack(rules.readable_radius, orientation, &[ems(label)], 1)
                    .unwrap();
                assert_eq!((stack.px, stack.short), (rules.label_px, false), "{label}");
            }
        }
    }

    #[test]
    fn a_player_zooms_from_the_whole_map_to_the_largest_hex() {
        let rules = Rules::default();
        let (least, most) = rules.limits(&map(), (332.0, 400.0));
        assert!(least < 6.0 && most == rules.max_radius);
        let small = HexMap {
            columns: 3,
            rows: 3,
            ..map()
        };
        assert_eq!(
            rules.limits(&small, (332.0, 400.0)).0,
            rules.readable_radius
        );
    }
}
