//! The map page every map system prints (RULES-map-intel 0): a title, the
//! hex grid with every hex named as printed, each counter in its hex by
//! side (two per hex, then "+n more"; the full list follows on the next
//! pages), and a key. The counters come already stripped: a printout is
//! made from the table's view.

use super::map::{Hex, HexMap};
use muster_core::pdf::{MARGIN, MM_PER_PT, Page, Paper, grey, rgb};
use muster_core::side::Side;
use printpdf::PaintMode;

/// A counter as printed.
pub struct Printed {
    pub hex: Hex,
    pub side: Side,
    pub text: String,
    /// Framed in gold.
    pub face_up: bool,
}

fn colour(side: Side) -> printpdf::Color {
    match side {
        Side::South => rgb([178, 54, 44]),
        Side::North => rgb([44, 88, 170]),
    }
}

/// Draws the map page: `title`, `subtitle`, the grid with `counters`, and
/// the `key` beside it.
pub fn map_page(
    page: &mut Page,
    paper: Paper,
    map: &HexMap,
    (title, subtitle): (&str, &str),
    counters: &[Printed],
    key: &[String],
) {
    let (pw, ph) = paper.size();
    let ink = grey(0.1);
    let mut y = page.paragraph(
        MARGIN,
        ph - MARGIN - 4.0,
        pw - 2.0 * MARGIN,
        13.0,
        &ink,
        title,
    );
    y = page.paragraph(MARGIN, y, pw - 2.0 * MARGIN, 9.0, &ink, subtitle) - 2.0;
    let key_width = 62.0;
    let (ew, eh) = map.extent();
    let area = (pw - 3.0 * MARGIN - key_width, y - MARGIN);
    let scale = (area.0 / ew as f32).min(area.1 / eh as f32);
    let (x0, top) = (MARGIN, y);
    let at = |(x, y): (f64, f64)| (x0 + x as f32 * scale, top - y as f32 * scale);
    let name_size = (scale * 0.9).clamp(3.0, 7.0);
    let counter_size = (scale * 1.1).clamp(3.5, 8.0);
    for hex in map.hexes() {
        let corners: Vec<(f32, f32)> = map.corners(hex).iter().map(|&c| at(c)).collect();
        page.polygon(&corners, grey(1.0), grey(0.55), PaintMode::Stroke);
        let (cx, cy) = map.centre(hex);
        let name = hex.to_string();
        let (mx, my) = at((cx, cy));
        let name_mm = name_size * MM_PER_PT;
        let name_base = my + 0.55 * scale;
        let w = page.metrics.width(&name, name_size);
        page.text(mx - w / 2.0, name_base, name_size, grey(0.5), &name);
        let here: Vec<&Printed> = counters.iter().filter(|c| c.hex == hex).collect();
        // Two counters fit under the name; more are named in the list that
        // follows.
        let shown: Vec<(String, &Printed)> = match here.len() {
            0..=2 => here.iter().map(|c| (c.text.clone(), *c)).collect(),
            n => vec![
                (here[0].text.clone(), here[0]),
                (format!("+{} more", n - 1), here[1]),
            ],
        };
        let counter_mm = counter_size * MM_PER_PT;
        let step = page.metrics.line_height(counter_size) + 0.4;
        let first = name_base - 0.4 * name_mm - 0.3 - 0.8 * counter_mm;
        for (k, (text, c)) in shown.iter().enumerate() {
            let w = page.metrics.width(text, counter_size);
            let base = first - step * k as f32;
            let frame = if c.face_up {
                rgb([240, 200, 60])
            } else {
                colour(c.side)
            };
            page.rect(
                mx - w / 2.0 - 0.6,
                base - 0.28 * counter_mm - 0.3,
                mx + w / 2.0 + 0.6,
                base + 0.8 * counter_mm + 0.3,
                colour(c.side),
                frame,
            );
            page.text(mx - w / 2.0, base, counter_size, grey(1.0), text);
        }
    }
    let kx = pw - MARGIN - key_width;
    let mut ky = y - 4.0;
    ky = page.paragraph(kx, ky, key_width, 10.0, &ink, "Key") - 1.0;
    for line in key {
        ky = page.paragraph(kx, ky, key_width, 7.5, &ink, line) - 1.2;
    }
}
