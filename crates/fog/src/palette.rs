//! The colour each terrain type is drawn in, on screen and on paper, so the
//! printout looks like the table players set up from the window.

/// RGB for a terrain type id; grey for anything unknown.
pub fn terrain_colour(terrain: &str) -> [u8; 3] {
    match terrain {
        "open" => [200, 205, 150],
        "open_field" => [214, 190, 110],
        "broken" => [150, 130, 100],
        "brush" => [120, 150, 80],
        "enclosed_field" => [170, 160, 90],
        "plantation" => [90, 140, 90],
        "gully" => [130, 100, 70],
        "forest" => [40, 100, 50],
        "vineyard" => [130, 90, 130],
        "marsh" => [90, 130, 120],
        "soft_sand" => [225, 205, 150],
        "village" => [170, 90, 70],
        "steep_hill" => [140, 110, 70],
        "gentle_hill" => [175, 160, 110],
        "river" => [70, 130, 200],
        "coast" => [40, 80, 160],
        "impassable" => [90, 90, 90],
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
