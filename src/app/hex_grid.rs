//! The numbered hex grid that stands in for the printed map (RULES-map-intel
//! 0), for every map system: every hex named as printed, each counter drawn
//! in its hex by side with the text its system gives it ("?" where the
//! viewer may not know what it holds). Scroll or the buttons zoom, dragging
//! pans, a click picks a hex, a right-click sends the selected counter
//! there.

use eframe::egui::{self, Color32, FontId, Pos2, Sense, Shape, Stroke, Vec2};
use muster::core::hexmap::Hex;
use muster::core::screen::{Counter, HexBoard};
use muster::core::side::{Side, Sides};

/// What the grid highlights besides the board's own hexes (what a
/// player's private screen picked so far).
#[derive(Default)]
pub struct Highlight {
    /// The selected counter.
    pub counter: Option<usize>,
    /// The picked hex.
    pub hex: Option<Hex>,
    /// Where the selected counter would go.
    pub destination: Option<Hex>,
}

pub struct HexGrid {
    zoom: f32,
    pan: Vec2,
}

impl Default for HexGrid {
    fn default() -> HexGrid {
        HexGrid {
            zoom: 1.0,
            pan: Vec2::ZERO,
        }
    }
}

/// What the players did on the grid this frame.
#[derive(Default)]
pub struct Picked {
    pub clicked: Option<Hex>,
    /// Right-clicked: move the selected counter here.
    pub send_to: Option<Hex>,
}

pub fn side_colour(side: Side) -> Color32 {
    match side {
        Side::South => Color32::from_rgb(178, 54, 44),
        Side::North => Color32::from_rgb(44, 88, 170),
    }
}

impl HexGrid {
    /// Draws `board` (the map, its counters, its highlighted hexes) with
    /// the window's own `highlight`; `hint` says what a click does.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        board: &HexBoard,
        names: &Sides<String>,
        highlight: &Highlight,
        hint: &str,
    ) -> Picked {
        let (map, markers) = (&board.map, &board.counters);
        ui.horizontal(|ui| {
            if ui.button("Zoom in").clicked() {
                self.zoom = (self.zoom * 1.25).min(8.0);
            }
            if ui.button("Zoom out").clicked() {
                self.zoom = (self.zoom / 1.25).max(0.5);
            }
            if ui.button("Fit the map").clicked() {
                *self = HexGrid::default();
            }
            for side in Side::BOTH {
                ui.colored_label(side_colour(side), format!("■ {}", names[side]));
            }
            ui.weak(hint);
        });
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Hex map"));
        let rect = response.rect;
        let (ew, eh) = map.extent();
        let margin = 8.0;
        let fit = ((rect.width() - 2.0 * margin) / ew as f32)
            .min((rect.height() - 2.0 * margin) / eh as f32)
            .max(1.0);
        if response.hovered() {
            let (scroll, pinch, pointer) = ui.input(|i| {
                (
                    i.smooth_scroll_delta.y,
                    i.zoom_delta(),
                    i.pointer.hover_pos(),
                )
            });
            let factor = (pinch * (scroll * 0.002).exp()).clamp(0.8, 1.25);
            if (factor - 1.0).abs() > f32::EPSILON {
                let old = self.zoom;
                self.zoom = (self.zoom * factor).clamp(0.5, 8.0);
                // The point under the pointer stays where it is.
                if let Some(p) = pointer {
                    let origin = rect.min + Vec2::splat(margin) + self.pan;
                    let ratio = self.zoom / old;
                    self.pan += (p - origin) * (1.0 - ratio);
                }
            }
        }
        if response.dragged() {
            self.pan += response.drag_delta();
        }
        let scale = fit * self.zoom;
        let origin = rect.min + Vec2::splat(margin) + self.pan;
        let to_screen = |(x, y): (f64, f64)| {
            Pos2::new(origin.x + x as f32 * scale, origin.y + y as f32 * scale)
        };
        let from_screen = |p: Pos2| {
            (
                f64::from((p.x - origin.x) / scale),
                f64::from((p.y - origin.y) / scale),
            )
        };
        let visuals = ui.visuals();
        let line = Stroke::new(1.0, visuals.weak_text_color());
        let painter = painter.with_clip_rect(rect);
        let selected_hex = highlight
            .counter
            .and_then(|id| markers.iter().find(|m| m.id == id).map(|m| m.hex));
        let destination = highlight.destination;
        for hex in map.hexes() {
            let fill = if Some(hex) == selected_hex {
                visuals.selection.bg_fill.gamma_multiply(0.6)
            } else if Some(hex) == destination {
                Color32::from_rgba_unmultiplied(230, 190, 60, 90)
            } else if Some(hex) == highlight.hex || board.highlight.contains(&hex) {
                visuals.selection.bg_fill.gamma_multiply(0.25)
            } else {
                visuals.faint_bg_color
            };
            let corners: Vec<Pos2> = map.corners(hex).iter().map(|&c| to_screen(c)).collect();
            painter.add(Shape::convex_polygon(corners, fill, line));
            let (cx, cy) = map.centre(hex);
            if scale > 18.0 {
                painter.text(
                    to_screen((cx, cy - 0.62)),
                    egui::Align2::CENTER_CENTER,
                    hex.to_string(),
                    FontId::proportional((scale * 0.26).clamp(7.0, 12.0)),
                    visuals.weak_text_color(),
                );
            }
        }
        let font = FontId::proportional((scale * 0.3).clamp(8.0, 15.0));
        for hex in map.hexes() {
            let here: Vec<&Counter> = markers.iter().filter(|m| m.hex == hex).collect();
            let (cx, cy) = map.centre(hex);
            let step = font.size + 4.0;
            let top = to_screen((cx, cy)).y - step * (here.len() as f32 - 1.0) / 2.0;
            for (k, h) in here.iter().enumerate() {
                let at = Pos2::new(to_screen((cx, cy)).x, top + step * k as f32);
                let galley = painter.layout_no_wrap(h.text.clone(), font.clone(), Color32::WHITE);
                let chip = egui::Rect::from_center_size(at, galley.size() + Vec2::new(6.0, 2.0));
                let edge = if Some(h.id) == highlight.counter {
                    Stroke::new(2.5, visuals.selection.stroke.color)
                } else if h.face_up {
                    Stroke::new(2.0, Color32::from_rgb(240, 200, 60))
                } else {
                    Stroke::NONE
                };
                painter.rect(
                    chip,
                    3.0,
                    side_colour(h.side),
                    edge,
                    egui::StrokeKind::Outside,
                );
                painter.galley(chip.min + Vec2::new(3.0, 1.0), galley, Color32::WHITE);
            }
        }
        let mut picked = Picked::default();
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            picked.clicked = map.hex_at(from_screen(p));
        }
        if response.secondary_clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            picked.send_to = map.hex_at(from_screen(p));
        }
        picked
    }
}
