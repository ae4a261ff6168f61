//! The hex map (RULES-map-intel 0), shared by the map systems and the
//! private screens that show one: its size, its hex orientation and which
//! columns (or rows) are shifted half a hex, all data; hexes named `CCRR`
//! as printed (column then row, e.g. `2114`); conversion to cube
//! coordinates, hex distance and neighbours; and where each hex sits on a
//! drawing, shared by the window's grid and the printout.
//!
//! Offset coordinates are converted to cube coordinates with the printed
//! numbers themselves, so "odd columns shifted" means the columns printed
//! with odd numbers sit half a hex lower, whatever number the map starts at.

use crate::error::{RuleError, refuse};
use Orientation::{FlatTop, PointyTop};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How the hexes stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Orientation {
    /// Flat sides top and bottom: hexes in vertical columns, every other
    /// column shifted half a hex down.
    FlatTop,
    /// Points top and bottom: hexes in horizontal rows, every other row
    /// shifted half a hex right.
    PointyTop,
}

/// Which columns (flat-top) or rows (pointy-top) are shifted, by the
/// parity of their printed number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shifted {
    Odd,
    Even,
}

/// A map as its data file gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexMap {
    pub columns: u32,
    pub rows: u32,
    /// The printed number of the first column and row (usually 1).
    #[serde(default = "one")]
    pub first_column: u32,
    #[serde(default = "one")]
    pub first_row: u32,
    pub orientation: Orientation,
    pub shifted: Shifted,
}

fn one() -> u32 {
    1
}

/// The most columns or rows a `CCRR` name can number.
pub const MAX_SIDE: u32 = 99;

/// A hex by its printed column and row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hex {
    pub column: u32,
    pub row: u32,
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}", self.column, self.row)
    }
}

impl Serialize for Hex {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Hex, D::Error> {
        let text = String::deserialize(d)?;
        Hex::parse(&text).map_err(|e| serde::de::Error::custom(e.message))
    }
}

impl Hex {
    /// A `CCRR` name: four digits, column then row.
    pub fn parse(name: &str) -> Result<Hex, RuleError> {
        let name = name.trim();
        if name.len() != 4 || !name.bytes().all(|b| b.is_ascii_digit()) {
            return refuse(
                "map-intel 0",
                format!("\"{name}\" is not a hex name: four digits, column then row (e.g. 2114)"),
            );
        }
        let number = |s: &str| s.parse::<u32>().expect("two ASCII digits");
        Ok(Hex {
            column: number(&name[..2]),
            row: number(&name[2..]),
        })
    }
}

/// Cube coordinates: x + y + z = 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cube {
    pub x: i64,
    pub y: i64,
    pub z: i64,
}

impl Cube {
    pub fn distance(self, other: Cube) -> u32 {
        let d = (self.x - other.x).abs() + (self.y - other.y).abs() + (self.z - other.z).abs();
        (d / 2) as u32
    }
}

/// Whether a printed number of this parity is shifted.
fn is_shifted(n: u32, shifted: Shifted) -> bool {
    match shifted {
        Shifted::Odd => !n.is_multiple_of(2),
        Shifted::Even => n.is_multiple_of(2),
    }
}

const SQRT3: f64 = 1.732_050_807_568_877_2;

impl HexMap {
    /// Checks the map's data; the field is named.
    pub fn check(&self) -> Result<(), (String, String)> {
        for (field, value, first) in [
            ("columns", self.columns, self.first_column),
            ("rows", self.rows, self.first_row),
        ] {
            if value == 0 {
                return Err((field.into(), "a map has at least one".into()));
            }
            // Checked: both numbers may come from a file.
            if first
                .checked_add(value - 1)
                .is_none_or(|last| last > MAX_SIDE)
            {
                return Err((
                    field.into(),
                    format!("hex names have two digits each: the last may be {MAX_SIDE}"),
                ));
            }
        }
        Ok(())
    }

    pub fn contains(&self, hex: Hex) -> bool {
        (self.first_column..self.first_column + self.columns).contains(&hex.column)
            && (self.first_row..self.first_row + self.rows).contains(&hex.row)
    }

    /// A hex named as printed, refused when it is not on this map.
    pub fn hex(&self, name: &str) -> Result<Hex, RuleError> {
        self.on_map(Hex::parse(name)?)
    }

    /// `hex` if it is on the map, else why not.
    pub fn on_map(&self, hex: Hex) -> Result<Hex, RuleError> {
        if !self.contains(hex) {
            return refuse(
                "map-intel 0",
                format!(
                    "{hex} is not on the map (columns {:02} to {:02}, rows {:02} to {:02})",
                    self.first_column,
                    self.first_column + self.columns - 1,
                    self.first_row,
                    self.first_row + self.rows - 1
                ),
            );
        }
        Ok(hex)
    }

    /// Cube coordinates of a hex (the "odd-q"/"even-q" and "odd-r"/"even-r"
    /// offset layouts, on the printed numbers).
    pub fn cube(&self, hex: Hex) -> Cube {
        let (c, r) = (i64::from(hex.column), i64::from(hex.row));
        // Lines before this one in pairs: the shifted line of a pair sits
        // lower (or further right), so it counts its pair's start.
        let pairs = |n: i64| match self.shifted {
            Shifted::Odd => (n - (n & 1)) / 2,
            Shifted::Even => (n + (n & 1)) / 2,
        };
        let (x, z) = match self.orientation {
            FlatTop => (c, r - pairs(c)),
            PointyTop => (c - pairs(r), r),
        };
        Cube { x, y: -x - z, z }
    }

    /// Hex steps between two hexes.
    pub fn distance(&self, a: Hex, b: Hex) -> u32 {
        self.cube(a).distance(self.cube(b))
    }

    /// Every hex of the map, column by column.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        (self.first_column..self.first_column + self.columns).flat_map(move |column| {
            (self.first_row..self.first_row + self.rows).map(move |row| Hex { column, row })
        })
    }

    /// The hexes one step away that are on the map.
    pub fn neighbours(&self, hex: Hex) -> Vec<Hex> {
        let lo = |n: u32| n.saturating_sub(1);
        let mut out = Vec::new();
        for column in lo(hex.column)..=hex.column + 1 {
            for row in lo(hex.row)..=hex.row + 1 {
                let other = Hex { column, row };
                if other != hex && self.contains(other) && self.distance(hex, other) == 1 {
                    out.push(other);
                }
            }
        }
        out
    }

    /// The centre of a hex on a drawing where a hex's circumradius is 1, y
    /// growing downwards, the first hex's centre at (1, 1)-ish.
    pub fn centre(&self, hex: Hex) -> (f64, f64) {
        let c = f64::from(hex.column - self.first_column);
        let r = f64::from(hex.row - self.first_row);
        match self.orientation {
            FlatTop => {
                let down = if is_shifted(hex.column, self.shifted) {
                    0.5
                } else {
                    0.0
                };
                (1.0 + 1.5 * c, SQRT3 * (r + down + 0.5))
            }
            PointyTop => {
                let right = if is_shifted(hex.row, self.shifted) {
                    0.5
                } else {
                    0.0
                };
                (SQRT3 * (c + right + 0.5), 1.0 + 1.5 * r)
            }
        }
    }

    /// The six corners of a hex on the same drawing.
    pub fn corners(&self, hex: Hex) -> [(f64, f64); 6] {
        let (cx, cy) = self.centre(hex);
        let start = match self.orientation {
            FlatTop => 0.0,
            PointyTop => 30.0,
        };
        std::array::from_fn(|i| {
            let a = (start + 60.0 * i as f64).to_radians();
            (cx + a.cos(), cy + a.sin())
        })
    }

    /// The drawing's width and height.
    pub fn extent(&self) -> (f64, f64) {
        match self.orientation {
            FlatTop => (
                1.5 * f64::from(self.columns) + 0.5,
                SQRT3 * (f64::from(self.rows) + 0.5),
            ),
            PointyTop => (
                SQRT3 * (f64::from(self.columns) + 0.5),
                1.5 * f64::from(self.rows) + 0.5,
            ),
        }
    }

    /// The hex under a point of the drawing, if any.
    pub fn hex_at(&self, (x, y): (f64, f64)) -> Option<Hex> {
        self.hexes()
            .map(|h| {
                let (cx, cy) = self.centre(h);
                (h, (cx - x).powi(2) + (cy - y).powi(2))
            })
            .filter(|(_, d)| *d <= 1.0)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(h, _)| h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(orientation: Orientation, shifted: Shifted) -> HexMap {
        HexMap {
            columns: 12,
            rows: 10,
            first_column: 1,
            first_row: 1,
            orientation,
            shifted,
        }
    }

    fn d(m: &HexMap, a: &str, b: &str) -> u32 {
        m.distance(m.hex(a).unwrap(), m.hex(b).unwrap())
    }

    /// Counted by hand on drawn grids: the odd or even lines sit half a hex
    /// lower (flat-top) or further right (pointy-top).
    #[test]
    fn hex_distance_by_hand_in_both_orientations_and_both_shifts() {
        let m = map(FlatTop, Shifted::Odd);
        for (a, b, want) in [
            ("0101", "0101", 0),
            ("0101", "0102", 1),
            ("0101", "0201", 1),
            ("0101", "0202", 1),
            ("0101", "0203", 2),
            ("0202", "0301", 1),
            ("0202", "0303", 2),
            ("0101", "0501", 4),
            ("0101", "0105", 4),
            ("0101", "0305", 5),
            ("0305", "0101", 5),
            ("0404", "0804", 4),
            ("0404", "0806", 4),
            ("0404", "0807", 5),
        ] {
            assert_eq!(d(&m, a, b), want, "flat-top, odd shifted: {a} to {b}");
        }
        let m = map(FlatTop, Shifted::Even);
        for (a, b, want) in [
            ("0101", "0201", 1),
            ("0101", "0202", 2),
            ("0102", "0201", 1),
            ("0202", "0302", 1),
            ("0202", "0303", 1),
            ("0202", "0301", 2),
            ("0101", "0305", 5),
        ] {
            assert_eq!(d(&m, a, b), want, "flat-top, even shifted: {a} to {b}");
        }
        let m = map(PointyTop, Shifted::Odd);
        for (a, b, want) in [
            ("0101", "0201", 1),
            ("0101", "0102", 1),
            ("0101", "0202", 1),
            ("0201", "0102", 2),
            ("0101", "0103", 2),
            ("0101", "0501", 4),
            ("0101", "0104", 3),
        ] {
            assert_eq!(d(&m, a, b), want, "pointy-top, odd shifted: {a} to {b}");
        }
        let m = map(PointyTop, Shifted::Even);
        for (a, b, want) in [
            ("0101", "0102", 1),
            ("0101", "0202", 2),
            ("0201", "0102", 1),
            ("0201", "0202", 1),
            ("0101", "0104", 3),
        ] {
            assert_eq!(d(&m, a, b), want, "pointy-top, even shifted: {a} to {b}");
        }
    }

    /// Steps over hexes whose drawn centres touch (√3 apart), counted by a
    /// breadth-first search: an oracle that shares no formula with `cube`.
    fn drawn_steps(m: &HexMap, from: Hex) -> std::collections::HashMap<Hex, u32> {
        let all: Vec<Hex> = m.hexes().collect();
        let mut seen = std::collections::HashMap::from([(from, 0)]);
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(h) = queue.pop_front() {
            let (x, y) = m.centre(h);
            for &o in &all {
                let (ox, oy) = m.centre(o);
                let touching = ((ox - x).hypot(oy - y) - SQRT3).abs() < 1e-6;
                if touching && !seen.contains_key(&o) {
                    seen.insert(o, seen[&h] + 1);
                    queue.push_back(o);
                }
            }
        }
        seen
    }

    #[test]
    fn distance_agrees_with_steps_over_the_drawn_grid_everywhere() {
        for orientation in [FlatTop, PointyTop] {
            for shifted in [Shifted::Odd, Shifted::Even] {
                for first in [1, 2] {
                    let m = HexMap {
                        columns: 7,
                        rows: 6,
                        first_column: first,
                        first_row: first,
                        orientation,
                        shifted,
                    };
                    for a in m.hexes() {
                        let steps = drawn_steps(&m, a);
                        for b in m.hexes() {
                            assert_eq!(
                                m.distance(a, b),
                                steps[&b],
                                "{orientation:?} {shifted:?} {a} {b}"
                            );
                        }
                        let n = m.neighbours(a);
                        assert!(n.len() <= 6);
                        assert!(n.iter().all(|o| steps[o] == 1));
                        assert_eq!(n.len(), steps.values().filter(|&&s| s == 1).count());
                        assert_eq!(m.hex_at(m.centre(a)), Some(a));
                    }
                }
            }
        }
    }

    #[test]
    fn names_are_four_digits_on_the_map() {
        let m = map(FlatTop, Shifted::Odd);
        assert_eq!(m.hex("0710").unwrap(), Hex { column: 7, row: 10 });
        assert_eq!(m.hex("0710").unwrap().to_string(), "0710");
        for bad in ["710", "07100", "07a0", "", "-101"] {
            let e = m.hex(bad).unwrap_err();
            assert!(e.message.contains("not a hex name"), "{bad}: {e}");
        }
        let e = m.hex("1301").unwrap_err();
        assert!(
            e.message
                .contains("1301 is not on the map (columns 01 to 12, rows 01 to 10)"),
            "{e}"
        );
        assert!(m.hex("0100").is_err());
        let too_big = HexMap {
            columns: 100,
            ..m.clone()
        };
        assert_eq!(too_big.check().unwrap_err().0, "columns");
        let empty = HexMap { rows: 0, ..m };
        assert_eq!(empty.check().unwrap_err().0, "rows");
    }
}
