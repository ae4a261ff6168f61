//! Each placement zone, the size ruling, spacing and the pose search.

use super::*;
use crate::ruleset::{PlacementZone, Ruleset};
use muster_core::side::Side;

const T: Table = Table {
    width: 72.0,
    depth: 48.0,
};

fn rect_at(x: f64, y: f64, w: f64, d: f64) -> Footprint {
    Footprint::new(
        &Shape::Rectangle { width: w, depth: d },
        Pose::new(x, y, 0.0),
    )
}

fn zone(result: u8) -> PlacementZone {
    Ruleset::builtin().placement.results[&result.to_string()].clone()
}

fn check(result: u8, placer: Side, f: &Footprint) -> Result<(), String> {
    check_zone(&zone(result), placer, &T, SideLines::edges(&T), f)
}

#[test]
fn die_1_touches_the_opponents_long_edge_clear_of_the_sides() {
    assert!(check(1, Side::South, &rect_at(36.0, 45.0, 10.0, 6.0)).is_ok());
    let e = check(1, Side::South, &rect_at(36.0, 44.0, 10.0, 6.0)).unwrap_err();
    assert_eq!(
        e,
        "the piece must touch North's long edge; it is 1.0 MU from it"
    );
    let e = check(1, Side::South, &rect_at(10.0, 45.0, 10.0, 6.0)).unwrap_err();
    assert_eq!(
        e,
        "no part may be within 8 MU of a side edge; it comes 5.0 MU from the west edge"
    );
    assert!(
        check(1, Side::North, &rect_at(36.0, 3.0, 10.0, 6.0)).is_ok(),
        "North's opponent edge is y = 0"
    );
}

#[test]
fn die_2_touches_the_own_long_edge() {
    assert!(check(2, Side::South, &rect_at(36.0, 3.0, 10.0, 6.0)).is_ok());
    assert!(check(2, Side::North, &rect_at(36.0, 3.0, 10.0, 6.0)).is_err());
    assert!(
        check(2, Side::North, &rect_at(13.0, 45.0, 10.0, 6.0)).is_ok(),
        "exactly 8 MU from the side"
    );
}

#[test]
fn die_3_and_4_touch_a_side_edge_in_the_right_half() {
    let north_half = rect_at(5.0, 33.0, 10.0, 6.0);
    let south_half = rect_at(67.0, 10.0, 10.0, 6.0);
    assert!(check(3, Side::South, &north_half).is_ok());
    assert_eq!(
        check(3, Side::South, &south_half).unwrap_err(),
        "the piece touches a side edge, but not in North's half"
    );
    assert!(check(4, Side::South, &south_half).is_ok());
    let straddling = rect_at(5.0, 24.0, 10.0, 6.0);
    assert!(
        check(3, Side::South, &straddling).is_ok() && check(4, Side::South, &straddling).is_ok()
    );
    let e = check(4, Side::South, &rect_at(8.0, 10.0, 10.0, 6.0)).unwrap_err();
    assert_eq!(
        e,
        "the piece must touch a side edge or a coast; it is 3.0 MU from the nearest"
    );
}

#[test]
fn die_3_and_4_count_a_coast_as_the_side_edge() {
    let lines = SideLines {
        west: 6.0,
        east: 72.0,
    };
    let f = rect_at(11.0, 10.0, 10.0, 6.0);
    assert!(check_zone(&zone(4), Side::South, &T, lines, &f).is_ok());
}

#[test]
fn die_5_and_6_lie_in_a_half_over_8_mu_from_every_edge() {
    assert!(check(5, Side::South, &rect_at(36.0, 36.0, 10.0, 6.0)).is_ok());
    let e = check(5, Side::South, &rect_at(36.0, 41.0, 10.0, 6.0)).unwrap_err();
    assert_eq!(
        e,
        "every point must be over 8 MU from every table edge; it is 4.0 MU from the north edge"
    );
    let e = check(6, Side::South, &rect_at(36.0, 23.0, 10.0, 6.0)).unwrap_err();
    assert!(
        e.contains("wholly in South's half; 2.0 MU of it is over the centre line"),
        "{e}"
    );
    assert!(check(6, Side::South, &rect_at(36.0, 16.0, 10.0, 6.0)).is_ok());
    assert!(
        check(6, Side::South, &rect_at(36.0, 11.0, 10.0, 6.0)).is_err(),
        "exactly 8 MU is not over 8"
    );
}

#[test]
fn size_ruling() {
    let sizes = Ruleset::builtin().piece_sizes;
    let ok = Shape::Ellipse {
        width: 11.0,
        depth: 7.0,
    };
    assert!(check_size(&ok, SizeClass::Normal, &sizes).is_ok());
    assert!(
        check_size(&ok, SizeClass::Large, &sizes)
            .unwrap_err()
            .contains("that is a normal piece")
    );
    let big = Shape::Rectangle {
        width: 12.0,
        depth: 8.0,
    };
    assert!(
        check_size(&big, SizeClass::Normal, &sizes)
            .unwrap_err()
            .contains("14.4 MU across")
    );
    assert!(check_size(&big, SizeClass::Large, &sizes).is_ok());
    let small = Shape::Rectangle {
        width: 6.0,
        depth: 3.5,
    };
    assert!(
        check_size(&small, SizeClass::Normal, &sizes)
            .unwrap_err()
            .contains("at least 6 x 4")
    );
    let tri = Shape::Polygon {
        points: vec![[0.0, 0.0], [8.0, 0.0], [0.0, 6.0]],
    };
    assert!((tri.span() - 10.0).abs() < 1e-9);
}

#[test]
fn pivot_keeps_the_pivot_point_fixed() {
    let shape = Shape::Rectangle {
        width: 10.0,
        depth: 6.0,
    };
    let pose = Pose::new(20.0, 20.0, 0.0);
    let corner = [25.0, 23.0];
    let turned = pose.pivoted(corner, 90.0);
    let f = Footprint::new(&shape, turned);
    assert!(f.boundary_distance(corner) < 1e-9);
    assert!((turned.angle - 90.0).abs() < 1e-9);
    assert!((turned.x - 28.0).abs() < 1e-9 && (turned.y - 18.0).abs() < 1e-9);
}

#[test]
fn overhang_names_the_edge() {
    assert_eq!(
        T.overhang(&rect_at(2.0, 20.0, 6.0, 4.0)),
        Some((1.0, "west"))
    );
    assert_eq!(T.overhang(&rect_at(3.0, 20.0, 6.0, 4.0)), None);
}

#[test]
fn nearest_legal_finds_the_closest_touching_pose() {
    let shape = Shape::Rectangle {
        width: 10.0,
        depth: 6.0,
    };
    let z = zone(2);
    let centres = |reach| zone_candidates(&z, Side::South, &T, SideLines::edges(&T), reach, 0.25);
    let legal = |p: Pose| check(2, Side::South, &Footprint::new(&shape, p)).is_ok();
    let got = nearest_legal(
        &shape,
        Pose::new(30.1, 10.0, 0.0),
        Candidates {
            step: 0.25,
            angle_step: 15.0,
        },
        centres,
        legal,
    )
    .unwrap();
    assert_eq!((got.x, got.y, got.angle), (30.0, 3.0, 0.0));
}

#[test]
fn hostile_shapes_are_refused_with_the_field_not_a_panic() {
    let refused = |shape: Shape| shape.validate().unwrap_err();
    let e = refused(Shape::RoundedRectangle {
        width: -6.0,
        depth: 4.0,
        radius: 1.0,
    });
    assert!(e.starts_with("width: -6 is not a size"), "{e}");
    let e = refused(Shape::RoundedRectangle {
        width: 6.0,
        depth: 4.0,
        radius: -1.0,
    });
    assert!(e.starts_with("radius: -1"), "{e}");
    let e = refused(Shape::Ellipse {
        width: f64::NAN,
        depth: 4.0,
    });
    assert!(e.starts_with("width: NaN"), "{e}");
    let e = refused(Shape::Rectangle {
        width: 6.0,
        depth: 0.0,
    });
    assert!(e.starts_with("depth: 0"), "{e}");
    let e = refused(Shape::Polygon {
        points: vec![[0.0, 0.0], [f64::INFINITY, 0.0], [1.0, 1.0]],
    });
    assert!(e.starts_with("points[1]"), "{e}");
    let e = refused(Shape::Polygon {
        points: vec![[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]],
    });
    assert!(e.contains("no area"), "{e}");
    // 100,000 vertices: refused at once, not measured pair by pair.
    let many: Vec<[f64; 2]> = (0..100_000)
        .map(|i| {
            let a = i as f64 / 100_000.0 * std::f64::consts::TAU;
            [5.0 * a.cos(), 3.0 * a.sin()]
        })
        .collect();
    let e = refused(Shape::Polygon { points: many });
    assert!(e.contains("3 to 256 points, not 100000"), "{e}");
}

#[test]
fn the_span_is_the_hull_diameter() {
    // A star's span is between two outer points; inner points never count.
    let star: Vec<[f64; 2]> = (0..10)
        .map(|i| {
            let a = f64::from(i) * std::f64::consts::PI / 5.0;
            let r = if i % 2 == 0 { 6.0 } else { 2.0 };
            [r * a.cos(), r * a.sin()]
        })
        .collect();
    let shape = Shape::Polygon {
        points: star.clone(),
    };
    let brute = star
        .iter()
        .flat_map(|a| star.iter().map(move |b| (a[0] - b[0]).hypot(a[1] - b[1])))
        .fold(0.0, f64::max);
    assert!(
        (shape.span() - brute).abs() < 1e-9,
        "{} vs {brute}",
        shape.span()
    );
}
