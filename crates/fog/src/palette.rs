//! The colour each terrain type is drawn in, on screen and on paper, so the
//! printout looks like the table players set up from the window.

/// RGB for a terrain type id; grey for anything unknown. Chosen so that no
/// two types look alike on screen or paper (a test holds every pair at
/// least 20 apart in CIE L*a*b*; the fields, hills and sand were
/// near-identical tans before).
pub fn terrain_colour(terrain: &str) -> [u8; 3] {
    match terrain {
        "open" => [200, 230, 150],
        "open_field" => [245, 200, 90],
        "broken" => [165, 140, 160],
        "brush" => [100, 165, 90],
        "enclosed_field" => [170, 175, 30],
        "plantation" => [50, 140, 120],
        "gully" => [110, 70, 40],
        "forest" => [30, 90, 45],
        "vineyard" => [140, 80, 150],
        "marsh" => [120, 175, 200],
        "soft_sand" => [252, 225, 190],
        "village" => [180, 70, 60],
        "steep_hill" => [160, 100, 40],
        "gentle_hill" => [205, 160, 125],
        "river" => [70, 130, 210],
        "coast" => [30, 60, 150],
        "impassable" => [80, 80, 90],
        _ => [160, 160, 160],
    }
}

/// The road's colour.
pub const ROAD: [u8; 3] = [150, 110, 60];

/// A camp's colour: canvas yellow, unlike any terrain (a village is red).
pub const CAMP: [u8; 3] = [232, 192, 40];

/// A field fortification's colour: pale stone, seen on dark terrain and on
/// paper alike (with a dark outline).
pub const FORTIFICATION: [u8; 3] = [220, 218, 205];

#[cfg(test)]
mod tests {
    use super::*;

    /// CIE L*a*b* of an sRGB colour (D65).
    fn lab([r, g, b]: [u8; 3]) -> [f64; 3] {
        let linear = |u: u8| {
            let u = f64::from(u) / 255.0;
            if u > 0.04045 {
                ((u + 0.055) / 1.055).powf(2.4)
            } else {
                u / 12.92
            }
        };
        let (r, g, b) = (linear(r), linear(g), linear(b));
        let x = (r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047;
        let y = r * 0.2126 + g * 0.7152 + b * 0.0722;
        let z = (r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883;
        let f = |t: f64| {
            if t > 0.008856 {
                t.cbrt()
            } else {
                7.787 * t + 16.0 / 116.0
            }
        };
        [
            116.0 * f(y) - 16.0,
            500.0 * (f(x) - f(y)),
            200.0 * (f(y) - f(z)),
        ]
    }

    fn distance(a: [u8; 3], b: [u8; 3]) -> f64 {
        let (a, b) = (lab(a), lab(b));
        ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
    }

    #[test]
    fn no_two_terrain_types_look_alike() {
        let ruleset = crate::ruleset::Ruleset::builtin();
        let ids: Vec<&String> = ruleset.terrain_types.keys().collect();
        for (i, a) in ids.iter().enumerate() {
            for b in &ids[i + 1..] {
                let d = distance(terrain_colour(a), terrain_colour(b));
                assert!(d >= 20.0, "{a} and {b} are {d:.1} apart");
            }
            // Nor like a camp.
            let d = distance(terrain_colour(a), CAMP);
            assert!(d >= 15.0, "{a} and a camp are {d:.1} apart");
        }
    }
}
