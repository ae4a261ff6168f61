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

/// What one page of templates holds: a tile of a template larger than a
/// page, or several small templates side by side, each at its place (mm
/// from the frame's lower left).
enum Sheet<'a> {
    Tile(Tile<'a>),
    Packed(Vec<Placed<'a>>),
}

/// A small template on a shared page: the item, its outline in mm, and
/// where its lower left stands in the frame.
type Placed<'a> = (&'a Item, Vec<(f32, f32)>, (f32, f32));

/// The room between packed templates, and above each for its tag.
const GAP: f32 = 8.0;

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

fn extent(outline: &[(f32, f32)]) -> (f32, f32) {
    (
        outline.iter().map(|p| p.0).fold(0.0, f32::max),
        outline.iter().map(|p| p.1).fold(0.0, f32::max),
    )
}

/// The pages of templates: only curved pieces get one (a ruler draws a
/// rectangle, a river's strip, a camp or a fortification from the
/// schedule's corners); those that fit a page share pages, packed in rows
/// tallest first; a larger one is cut into tiles that join edge to edge.
fn sheets(items: &[Item], mm_per_mu: f32, (tw, th): (f32, f32)) -> Vec<Sheet<'_>> {
    let mut sheets = Vec::new();
    let mut small = Vec::new();
    for item in items
        .iter()
        .filter(|i| matches!(i.kind, Kind::Terrain(_)) && i.curved)
    {
        let outline = outline_mm(item, mm_per_mu);
        let (w, h) = extent(&outline);
        if w <= tw && h + GAP <= th {
            small.push((item, outline, (w, h)));
            continue;
        }
        let cols = (w / tw).ceil().max(1.0) as usize;
        let rows = (h / th).ceil().max(1.0) as usize;
        for row in 0..rows {
            for col in 0..cols {
                sheets.push(Sheet::Tile(Tile {
                    item,
                    outline: outline.clone(),
                    row,
                    col,
                    rows,
                    cols,
                }));
            }
        }
    }
    // Shelves from the top of the frame down, tallest first.
    small.sort_by(|a, b| b.2.1.total_cmp(&a.2.1));
    let mut page: Vec<Placed> = Vec::new();
    let (mut x, mut top, mut shelf) = (0.0f32, th, 0.0f32);
    for (item, outline, (w, h)) in small {
        if x > 0.0 && x + w > tw {
            (x, top, shelf) = (0.0, top - shelf - GAP, 0.0);
        }
        if top - h - GAP < 0.0 {
            sheets.push(Sheet::Packed(std::mem::take(&mut page)));
            (x, top, shelf) = (0.0, th, 0.0);
        }
        page.push((item, outline, (x, top - GAP - h)));
        x += w + GAP;
        shelf = shelf.max(h + GAP);
    }
    if !page.is_empty() {
        sheets.push(Sheet::Packed(page));
    }
    sheets
}

/// The pages of the templates.
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
    let all = sheets(items, mm_per_mu, (tw, th));
    if all.is_empty() {
        let mut page = Page::new(font.clone(), metrics);
        page.text(
            MARGIN,
            ph - MARGIN - 5.0,
            12.0,
            ink,
            "No curved piece is on the table: a ruler draws every piece from the schedule.",
        );
        return vec![page.ops];
    }
    all.iter()
        .map(|sheet| {
            let mut page = Page::new(font.clone(), metrics);
            let heading = match sheet {
                Sheet::Tile(tile) => format!(
                    "{} {}: template at 1:1, tile {} of {} (row {} of {}, column {} of {}, from the lower left)",
                    tile.item.tag,
                    tile.item.name,
                    tile.row * tile.cols + tile.col + 1,
                    tile.rows * tile.cols,
                    tile.row + 1,
                    tile.rows,
                    tile.col + 1,
                    tile.cols
                ),
                Sheet::Packed(placed) => {
                    let names: Vec<String> = placed
                        .iter()
                        .map(|(item, ..)| format!("{} {}", item.tag, item.name))
                        .collect();
                    format!("Templates at 1:1: {}", names.join("; "))
                }
            };
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
            let (x0, y0) = (MARGIN, MARGIN);
            match sheet {
                Sheet::Tile(tile) => {
                    // The tile's frame, then the outline clipped to it.
                    let frame = [(x0, y0), (x0 + tw, y0), (x0 + tw, y0 + th), (x0, y0 + th)];
                    page.polygon(&frame, grey(1.0), grey(0.6), PaintMode::Stroke);
                    page.ops.push(Op::SaveGraphicsState);
                    page.polygon(&frame, grey(1.0), grey(1.0), PaintMode::Clip);
                    let (ox, oy) = (x0 - tile.col as f32 * tw, y0 - tile.row as f32 * th);
                    let pts: Vec<(f32, f32)> =
                        tile.outline.iter().map(|(x, y)| (ox + x, oy + y)).collect();
                    page.polygon(&pts, grey(0.92), grey(0.0), PaintMode::FillStroke);
                    page.ops.push(Op::RestoreGraphicsState);
                }
                Sheet::Packed(placed) => {
                    for (item, outline, (ox, oy)) in placed {
                        let pts: Vec<(f32, f32)> = outline
                            .iter()
                            .map(|(x, y)| (x0 + ox + x, y0 + oy + y))
                            .collect();
                        page.polygon(&pts, grey(0.92), grey(0.0), PaintMode::FillStroke);
                        let (_, h) = extent(outline);
                        page.text(x0 + ox, y0 + oy + h + 2.0, 8.0, ink.clone(), &item.tag);
                    }
                }
            }
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
        let (w, _) = extent(&outline);
        // The turned forest is an 11 x 7 MU oval: unturned, 11 MU wide.
        assert!((w - 11.0 * mm).abs() < 0.5, "{w}");
        let all = sheets(&items, mm, (277.0, 178.0));
        let forest = all
            .iter()
            .filter(|s| matches!(s, Sheet::Tile(t) if t.item.tag == turned.tag))
            .count();
        assert_eq!(forest, 2, "279.4 mm wide needs two A4 tiles across");
    }

    /// No template for what a ruler draws; small curved ones share a page,
    /// none overlapping another, all inside the frame.
    #[test]
    fn only_curved_pieces_get_templates_and_small_ones_are_packed() {
        let battle = crate::examples::deployed_battle();
        let items = super::super::schedule::items(&battle);
        // At 10 mm a MU the example's curved pieces are small enough to
        // share an A4 page.
        let frame = (277.0, 178.0);
        let all = sheets(&items, 10.0, frame);
        let templated: Vec<&str> = all
            .iter()
            .flat_map(|s| match s {
                Sheet::Tile(t) => vec![t.item.name.as_str()],
                Sheet::Packed(p) => p.iter().map(|(i, ..)| i.name.as_str()).collect(),
            })
            .collect();
        for item in &items {
            let has = templated.contains(&item.name.as_str());
            let wants = matches!(item.kind, Kind::Terrain(_)) && item.curved;
            assert_eq!(has, wants, "{}", item.name);
        }
        assert!(!templated.iter().any(|n| n.starts_with("River")), "a strip");
        let packed: Vec<&Vec<_>> = all
            .iter()
            .filter_map(|s| match s {
                Sheet::Packed(p) => Some(p),
                Sheet::Tile(_) => None,
            })
            .collect();
        let templates: usize = packed.iter().map(|p| p.len()).sum();
        assert!(templates > packed.len(), "small templates share pages");
        for placed in packed {
            let boxes: Vec<(f32, f32, f32, f32)> = placed
                .iter()
                .map(|(_, o, (x, y))| {
                    let (w, h) = extent(o);
                    (*x, *y, x + w, y + h)
                })
                .collect();
            for (k, a) in boxes.iter().enumerate() {
                let inside = a.0 >= 0.0 && a.1 >= 0.0 && a.2 <= frame.0 && a.3 <= frame.1;
                assert!(inside, "{a:?}");
                for b in &boxes[k + 1..] {
                    let apart = a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1;
                    assert!(apart, "{a:?} and {b:?} overlap");
                }
            }
        }
    }
}
