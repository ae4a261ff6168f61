//! What a test reads of the hex grid as it was last drawn: where each
//! counter's label, hex centre and edge number went, and how much of its
//! pane the map covers (the grid and the rules it draws are the parent
//! module's).

use super::{Drawn, HexGrid};
use eframe::egui::{self, Pos2};
use muster::core::hexmap::{Hex, HexMap};

impl HexGrid {
    /// Where counter `id`'s label was drawn, for a test's pointer.
    pub fn label(&self, id: usize) -> egui::Rect {
        self.labels
            .iter()
            .find(|d| d.id == id)
            .map(|d| d.rect)
            .expect("the counter's label was drawn")
    }

    /// Where `hex`'s centre was drawn, for a test's pointer.
    pub fn centre(&self, map: &HexMap, hex: Hex) -> Pos2 {
        self.screen(map.centre(hex))
    }

    /// Where a map point was drawn, for a test's pointer.
    pub fn screen(&self, (x, y): (f64, f64)) -> Pos2 {
        let (_, middle, view) = self.drawn.expect("the map was drawn");
        Pos2::new(
            middle.x + ((x - view.centre.0) * view.radius) as f32,
            middle.y + ((y - view.centre.1) * view.radius) as f32,
        )
    }

    /// The map point drawn at `at`, the inverse of `screen`.
    pub fn map_point(&self, at: Pos2) -> (f64, f64) {
        let (_, middle, view) = self.drawn.expect("the map was drawn");
        (
            view.centre.0 + f64::from(at.x - middle.x) / view.radius,
            view.centre.1 + f64::from(at.y - middle.y) / view.radius,
        )
    }

    /// The pane the map was last drawn in, and the share of its width and
    /// of its height the map's drawing covers.
    pub fn coverage(&self, map: &HexMap) -> (egui::Rect, f32, f32) {
        let (rect, ..) = self.drawn.expect("the map was drawn");
        let drawn = egui::Rect::from_two_pos(self.screen((0.0, 0.0)), self.screen(map.extent()));
        let inside = drawn.intersect(rect);
        (
            rect,
            inside.width().max(0.0) / rect.width(),
            inside.height().max(0.0) / rect.height(),
        )
    }

    /// Every counter label drawn.
    pub fn labels(&self) -> &[Drawn] {
        &self.labels
    }

    /// How many hexes were drawn as a dot, too small for any label.
    pub fn dots(&self) -> usize {
        self.dots
    }

    /// Where the column and row numbers were drawn.
    pub fn numbers(&self) -> &[egui::Rect] {
        &self.numbers
    }
}
