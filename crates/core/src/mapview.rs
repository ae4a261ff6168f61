//! How a hex map is shown on every screen (issue 38): the rules the
//! laptop's map (egui, `src/app/hex_grid.rs`) and the phone's map (canvas,
//! `assets/phone/hexmap.js`) both follow, so that the two behave alike. The
//! first view, the zoom limits, the size of counter labels and hex numbers,
//! how a stack is laid out and the colours live here; the laptop reads
//! them from `Rules::default()`, the phone gets them with each board (`HexBoard::rules`)
//! and works out the same first view (checked against `first_view` by
//! `tests/phone_channel.rs`, under node).
//!
//! A view is a centre (in map units, where a hex's circumradius is 1,
//! `HexMap::centre`) and a radius in pixels: how large a hex is drawn.
//! Nothing here moves a view by itself; a renderer keeps the player's view
//! until he zooms or pans, and begins with `first_view`.

use crate::hexmap::{Hex, HexMap, Orientation};
use crate::side::Side;
use serde::{Deserialize, Serialize};

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
    /// A stack: each token after the first drawn this many pixels right
    /// and down of the one before; at most `stack_shown` tokens drawn, the
    /// stack's count beside them.
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
            readable_radius: 16.0,
            framing_radius: 40.0,
            numbered_radius: 16.0,
            max_radius: 96.0,
            margin: 2.0,
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
    /// below `readable_radius` (then centred on it, the rest a pan away)
    /// nor above `framing_radius`. With no focus, the whole map by the same
    /// bounds.
    pub fn first_view(&self, map: &HexMap, focus: &[Hex], pane: (f64, f64)) -> View {
        let (w, h) = map.extent();
        let (mut x0, mut y0, mut x1, mut y1) = (0.0, 0.0, w, h);
        if let Some((first, rest)) = focus.split_first() {
            let (x, y) = map.centre(*first);
            (x0, y0, x1, y1) = (x, y, x, y);
            for hex in rest {
                let (x, y) = map.centre(*hex);
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
            (x0, y0, x1, y1) = (
                x0 - self.margin,
                y0 - self.margin,
                x1 + self.margin,
                y1 + self.margin,
            );
        }
        let fits = (pane.0 / (x1 - x0)).min(pane.1 / (y1 - y0));
        let radius = fits.clamp(self.readable_radius, self.framing_radius);
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
