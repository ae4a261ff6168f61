//! What a tape measure needs to lay an item on the real table: nobody can
//! find the centre of a forest, but anyone can find the ends of an oval's
//! long axis, a rectangle's corners or a river's banks. An outline is fixed
//! by its turn and two such points, each measured square from two edges.

use super::{Footprint, Pose, Shape, Table};

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

/// The two points that lay a piece, each named as a player finds it on the
/// real piece: an oval's two ends of its longest axis; a rectangle's two
/// corners on its side nearest the nearest long edge (a rounded one's where
/// its sides would meet); a river's two banks where it meets that edge
/// (`waterway`; a coast's inner edge and the table's corner there); any
/// other outline's point nearest its nearest
/// long edge and its point nearest its nearest side edge.
pub fn reference_points(
    shape: &Shape,
    pose: Pose,
    waterway: bool,
    table: Table,
) -> [(String, Fix); 2] {
    let footprint = Footprint::new(shape, pose);
    let (min, max) = (footprint.min(), footprint.max());
    let south = min[1] <= table.depth - max[1];
    let west_first = |mut pair: [[f64; 2]; 2]| {
        pair.sort_by(|a, b| a[0].total_cmp(&b[0]));
        pair
    };
    let named = |pair: [[f64; 2]; 2], what: &str| {
        let [a, b] = west_first(pair);
        [
            (format!("{what} (W)"), Fix::of(a, table)),
            (format!("{what} (E)"), Fix::of(b, table)),
        ]
    };
    match *shape {
        Shape::Ellipse { width, depth } => {
            let half = if width >= depth {
                [width / 2.0, 0.0]
            } else {
                [0.0, depth / 2.0]
            };
            named(
                [pose.apply(half), pose.apply([-half[0], -half[1]])],
                "long axis end",
            )
        }
        Shape::Rectangle { width, depth } | Shape::RoundedRectangle { width, depth, .. } => {
            let (w, d) = (width / 2.0, depth / 2.0);
            let mut corners = [[-w, -d], [w, -d], [w, d], [-w, d]].map(|c| pose.apply(c));
            let to_edge = |p: &[f64; 2]| if south { p[1] } else { table.depth - p[1] };
            corners.sort_by(|a, b| to_edge(a).total_cmp(&to_edge(b)));
            let what = if waterway { "bank" } else { "corner" };
            named([corners[0], corners[1]], what)
        }
        Shape::Polygon { .. } => {
            let pick = |key: &dyn Fn(&[f64; 2]) -> f64| {
                let p = footprint
                    .points()
                    .iter()
                    .min_by(|a, b| key(a).total_cmp(&key(b)))
                    .copied()
                    .unwrap_or(min);
                Fix::of(p, table)
            };
            let long = if south {
                pick(&|p| p[1])
            } else {
                pick(&|p| -p[1])
            };
            let side = if min[0] <= table.width - max[0] {
                pick(&|p| p[0])
            } else {
                pick(&|p| -p[0])
            };
            [
                (format!("nearest {}", long.long.0.letter()), long),
                (format!("nearest {}", side.side.0.letter()), side),
            ]
        }
    }
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
    fn an_unturned_rectangle_is_fixed_by_the_corners_of_its_side_nearest_a_long_edge() {
        let shape = Shape::Rectangle {
            width: 8.0,
            depth: 4.0,
        };
        let [(a, west), (b, east)] =
            reference_points(&shape, Pose::new(10.0, 40.0, 0.0), false, TABLE);
        assert_eq!((a.as_str(), b.as_str()), ("corner (W)", "corner (E)"));
        // The north side: 48 - 42 = 6 MU from North; 6 and 14 from West.
        assert_eq!(
            (west.long, west.side),
            ((Edge::North, 6.0), (Edge::West, 6.0))
        );
        assert_eq!(
            (east.long, east.side),
            ((Edge::North, 6.0), (Edge::West, 14.0))
        );
    }

    #[test]
    fn a_turned_oval_is_fixed_by_the_ends_of_its_long_axis() {
        let oval = Shape::Ellipse {
            width: 10.0,
            depth: 6.0,
        };
        let [(a, one), (_, other)] =
            reference_points(&oval, Pose::new(30.0, 20.0, 30.0), false, TABLE);
        assert_eq!(a, "long axis end (W)");
        let (dx, dy) = (other.point[0] - one.point[0], other.point[1] - one.point[1]);
        assert!(
            (dx.hypot(dy) - 10.0).abs() < 1e-9,
            "the long axis, end to end"
        );
        assert!(
            (dy.atan2(dx).to_degrees() - 30.0).abs() < 1e-9,
            "along the turn"
        );
        // A tall oval's long axis is its depth.
        let tall = Shape::Ellipse {
            width: 4.0,
            depth: 9.0,
        };
        let [(_, one), (_, other)] =
            reference_points(&tall, Pose::new(30.0, 20.0, 0.0), false, TABLE);
        assert_eq!(
            (one.point[0], (other.point[1] - one.point[1]).abs()),
            (30.0, 9.0)
        );
    }

    #[test]
    fn a_river_against_a_side_edge_is_fixed_by_its_two_banks() {
        // A 3 MU river along the West edge, the full depth of the table.
        let river = Shape::Rectangle {
            width: 3.0,
            depth: 48.0,
        };
        let [(a, near), (b, far)] =
            reference_points(&river, Pose::new(1.5, 24.0, 0.0), true, TABLE);
        assert_eq!((a.as_str(), b.as_str()), ("bank (W)", "bank (E)"));
        assert_eq!(near.side, (Edge::West, 0.0));
        assert_eq!(far.side, (Edge::West, 3.0));
        assert_eq!((near.long.1, far.long.1), (0.0, 0.0));
    }

    #[test]
    fn a_polygon_is_fixed_by_its_points_nearest_the_edges() {
        let wedge = Shape::Polygon {
            points: vec![[0.0, 0.0], [4.0, 0.0], [0.0, 3.0]],
        };
        let [(a, long), (b, side)] =
            reference_points(&wedge, Pose::new(60.0, 10.0, 0.0), false, TABLE);
        assert_eq!((a.as_str(), b.as_str()), ("nearest S", "nearest E"));
        assert_eq!(long.long.0, Edge::South);
        assert_eq!(side.side.0, Edge::East);
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
