//! What a tape measure needs to lay an item on the real table: nobody can
//! find the centre of a forest, but anyone can measure to the point of it
//! nearest an edge. An outline is fixed by its turn and two such points:
//! the one nearest the nearest long edge and the one nearest the nearest
//! side edge, each measured square from two edges.

use super::{Footprint, Shape, Table};

/// A table edge, as the printout and the panel name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    South,
    North,
    West,
    East,
}

impl Edge {
    /// "S", "N", "W", "E".
    pub fn letter(self) -> &'static str {
        match self {
            Edge::South => "S",
            Edge::North => "N",
            Edge::West => "W",
            Edge::East => "E",
        }
    }
}

/// A point on the table located from its nearest long and side edges.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fix {
    pub point: [f64; 2],
    /// The nearer long edge and the distance square to it.
    pub long: (Edge, f64),
    /// The nearer side edge and the distance square to it.
    pub side: (Edge, f64),
}

impl Fix {
    pub fn of(point: [f64; 2], table: Table) -> Fix {
        let [x, y] = point;
        let long = if y <= table.depth - y {
            (Edge::South, y)
        } else {
            (Edge::North, table.depth - y)
        };
        let side = if x <= table.width - x {
            (Edge::West, x)
        } else {
            (Edge::East, table.width - x)
        };
        Fix { point, long, side }
    }
}

/// The two points that lay an outline: the one nearest its nearest long
/// edge, then the one nearest its nearest side edge.
pub fn reference_points(f: &Footprint, table: Table) -> [Fix; 2] {
    let (min, max) = (f.min(), f.max());
    let pick = |key: &dyn Fn(&[f64; 2]) -> f64| {
        let p = f
            .points()
            .iter()
            .min_by(|a, b| key(a).total_cmp(&key(b)))
            .copied()
            .unwrap_or(min);
        Fix::of(p, table)
    };
    let long = if min[1] <= table.depth - max[1] {
        pick(&|p| p[1])
    } else {
        pick(&|p| -p[1])
    };
    let side = if min[0] <= table.width - max[0] {
        pick(&|p| p[0])
    } else {
        pick(&|p| -p[0])
    };
    [long, side]
}

/// A pose's turn as a player lays it: degrees anticlockwise seen from above
/// with the south edge nearest, in (-180, 180], or in (-90, 90] for a shape
/// that looks the same turned half round.
pub fn turn(shape: &Shape, angle: f64) -> f64 {
    let period = match shape {
        Shape::Polygon { .. } => 360.0,
        _ => 180.0,
    };
    let a = angle.rem_euclid(period);
    if a > period / 2.0 { a - period } else { a }
}

/// A turn (see `turn`) in words: "20° anticlockwise", "0° (square to the
/// edges)".
pub fn turn_words(t: f64) -> String {
    if t.abs() < 0.05 {
        "0° (square to the edges)".into()
    } else if t > 0.0 {
        format!("{t:.0}° anticlockwise")
    } else {
        format!("{:.0}° clockwise", -t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Pose;

    const TABLE: Table = Table {
        width: 72.0,
        depth: 48.0,
    };

    #[test]
    fn an_unturned_rectangle_is_fixed_by_its_corners_nearest_the_edges() {
        let shape = Shape::Rectangle {
            width: 8.0,
            depth: 4.0,
        };
        let f = Footprint::new(&shape, Pose::new(10.0, 40.0, 0.0));
        let [long, side] = reference_points(&f, TABLE);
        // Nearest long edge: North, 48 - 42 = 6 MU; nearest side: West, 6 MU.
        assert_eq!(long.long, (Edge::North, 6.0));
        assert_eq!(side.side, (Edge::West, 6.0));
        assert_eq!(long.side.0, Edge::West);
    }

    #[test]
    fn a_turned_square_is_fixed_by_its_tips() {
        let shape = Shape::Rectangle {
            width: 4.0,
            depth: 4.0,
        };
        let f = Footprint::new(&shape, Pose::new(60.0, 10.0, 45.0));
        let [long, side] = reference_points(&f, TABLE);
        let half_diagonal = 8f64.sqrt();
        assert_eq!(long.long.0, Edge::South);
        assert!((long.long.1 - (10.0 - half_diagonal)).abs() < 1e-9);
        assert!((long.point[0] - 60.0).abs() < 1e-9, "{long:?}");
        assert_eq!(side.side.0, Edge::East);
        assert!((side.side.1 - (12.0 - half_diagonal)).abs() < 1e-9);
        assert!((side.point[1] - 10.0).abs() < 1e-9, "{side:?}");
    }

    #[test]
    fn turns_read_as_a_player_lays_them() {
        let oval = Shape::Ellipse {
            width: 6.0,
            depth: 4.0,
        };
        assert_eq!(turn(&oval, 0.0), 0.0);
        assert_eq!(turn(&oval, 200.0), 20.0);
        assert_eq!(turn(&oval, 300.0), -60.0);
        assert_eq!(turn(&oval, 90.0), 90.0);
        let wedge = Shape::Polygon {
            points: vec![[0.0, 0.0], [4.0, 0.0], [0.0, 3.0]],
        };
        assert_eq!(turn(&wedge, 200.0), -160.0);
        assert_eq!(turn(&wedge, 180.0), 180.0);
    }
}
