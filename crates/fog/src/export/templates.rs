//! Piece templates at 1:1 on tiled pages (DESIGN.md, "The printout"): each
//! item's outline at its true size on the table, cut into page-sized tiles
//! that join edge to edge, so a group can cut templates for pieces it does
//! not own or check its own against the inventory. Each tile names its item,
//! its place in the grid of tiles, and carries a 10 cm ruler to check the
//! printer did not scale it.

use super::schedule::{Item, Kind};
use crate::battle::Battle;
use muster_core::pdf::Metrics;
use muster_core::pdf::{Page, Paper, grey};
use printpdf::{Op, PaintMode};

const MARGIN: f32 = 10.0;
/// Room above the tile for its heading.
const HEADER: f32 = 12.0;

/// A tile of one item's template: which item, where in its grid.
struct Tile<'a> {
    item: &'a Item,
    /// The outline in mm, its lowest corner at the origin.
    outline: Vec<(f32, f32)>,
    row: usize,
    col: usize,
    rows: usize,
    cols: usize,
}

/// The outline of an item as the piece itself is, unturned, in mm from
/// its lowest corner.
fn outline_mm(item: &Item, mm_per_mu: f32) -> Vec<(f32, f32)> {
    let [ax, ay] = item.anchor();
    let (s, c) = (-item.turn.unwrap_or(0.0)).to_radians().sin_cos();
    let pts: Vec<(f32, f32)> = item
        .outline
        .iter()
        .map(|p| {
            let (dx, dy) = (p[0] - ax, p[1] - ay);
            (
                ((dx * c - dy * s) as f32) * mm_per_mu,
                ((dx * s + dy * c) as f32) * mm_per_mu,
            )
        })
        .collect();
    let min_x = pts.iter().map(|p| p.0).fold(f32::MAX, f32::min);
    let min_y = pts.iter().map(|p| p.1).fold(f32::MAX, f32::min);
    pts.into_iter()
        .map(|(x, y)| (x - min_x, y - min_y))
        .collect()
}

/// Every tile of every outlined item, in order.
fn tiles(items: &[Item], mm_per_mu: f32, (tw, th): (f32, f32)) -> Vec<Tile<'_>> {
    let mut tiles = Vec::new();
    for item in items
        .iter()
        .filter(|i| matches!(i.kind, Kind::Terrain(_) | Kind::Camp | Kind::Fortification))
    {
        let outline = outline_mm(item, mm_per_mu);
        let w = outline.iter().map(|p| p.0).fold(0.0, f32::max);
        let h = outline.iter().map(|p| p.1).fold(0.0, f32::max);
        let cols = (w / tw).ceil().max(1.0) as usize;
        let rows = (h / th).ceil().max(1.0) as usize;
        for row in 0..rows {
            for col in 0..cols {
                tiles.push(Tile {
                    item,
                    outline: outline.clone(),
                    row,
                    col,
                    rows,
                    cols,
                });
            }
        }
    }
    tiles
}

/// The pages of the templates: one per tile.
pub(super) fn template_pages(
    battle: &Battle,
    items: &[Item],
    paper: Paper,
    font: &printpdf::PdfFontHandle,
    metrics: &Metrics,
) -> Vec<Vec<Op>> {
    let (pw, ph) = paper.size();
    let (tw, th) = (pw - 2.0 * MARGIN, ph - 2.0 * MARGIN - HEADER);
    let mm_per_mu = battle.state().settings.mu.millimetres() as f32;
    let ink = grey(0.1);
    let all = tiles(items, mm_per_mu, (tw, th));
    if all.is_empty() {
        let mut page = Page::new(font.clone(), metrics);
        page.text(
            MARGIN,
            ph - MARGIN - 5.0,
            12.0,
            ink,
            "No piece is on the table yet.",
        );
        return vec![page.ops];
    }
    all.iter()
        .map(|tile| {
            let mut page = Page::new(font.clone(), metrics);
            let heading = format!(
                "{} {}: template at 1:1, tile {} of {} (row {} of {}, column {} of {}, from the lower left)",
                tile.item.tag,
                tile.item.name,
                tile.row * tile.cols + tile.col + 1,
                tile.rows * tile.cols,
                tile.row + 1,
                tile.rows,
                tile.col + 1,
                tile.cols
            );
            let y = page.paragraph(MARGIN, ph - MARGIN - 4.0, tw, 10.0, &ink, &heading);
            page.paragraph(
                MARGIN,
                y,
                tw,
                7.0,
                &ink,
                "Print at 100% (no fit to page): the bar below must measure 10 cm. Join tiles at their frame edges.",
            );
            // The 10 cm check bar, along the bottom margin.
            page.rect(MARGIN, 4.0, MARGIN + 100.0, 5.5, ink.clone(), ink.clone());
            // The tile's frame, then the outline clipped to it.
            let (x0, y0) = (MARGIN, MARGIN);
            let frame = [(x0, y0), (x0 + tw, y0), (x0 + tw, y0 + th), (x0, y0 + th)];
            page.polygon(&frame, grey(1.0), grey(0.6), PaintMode::Stroke);
            page.ops.push(Op::SaveGraphicsState);
            page.polygon(&frame, grey(1.0), grey(1.0), PaintMode::Clip);
            let (ox, oy) = (x0 - tile.col as f32 * tw, y0 - tile.row as f32 * th);
            let pts: Vec<(f32, f32)> = tile.outline.iter().map(|(x, y)| (ox + x, oy + y)).collect();
            page.polygon(&pts, grey(0.92), grey(0.0), PaintMode::FillStroke);
            page.ops.push(Op::RestoreGraphicsState);
            page.ops
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_outline_is_unturned_and_tiled_to_cover_it() {
        let battle = crate::examples::deployed_battle();
        let items = super::super::schedule::items(&battle);
        let mm = battle.state().settings.mu.millimetres() as f32;
        let turned = items
            .iter()
            .find(|i| i.turn.is_some_and(|t| t.abs() > 1.0))
            .expect("the example has a turned piece");
        let outline = outline_mm(turned, mm);
        let w = outline.iter().map(|p| p.0).fold(0.0, f32::max);
        // The turned forest is an 11 x 7 MU oval: unturned, 11 MU wide.
        assert!((w - 11.0 * mm).abs() < 0.5, "{w}");
        let all = tiles(&items, mm, (277.0, 178.0));
        let forest: Vec<&Tile> = all.iter().filter(|t| t.item.tag == turned.tag).collect();
        assert_eq!(forest.len(), 2, "279.4 mm wide needs two A4 tiles across");
    }
}
