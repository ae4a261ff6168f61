//! The numbered hex grid that stands in for the printed map (RULES-map-intel
//! 0), for every map system: every hex named as printed, each counter drawn
//! in its hex by side with the text its system gives it ("?" where the
//! viewer may not know what it holds). Scroll (about the pointer) or the
//! buttons (about the middle) zoom; dragging a counter traces its path hex
//! by hex (RULES-map-intel B4 ruling c: a move is the path it takes),
//! dragging elsewhere pans; a click picks a hex, a right-click sends the
//! selected counter there. Column and row numbers run along the map's
//! edges, readable at any zoom, as on a printed map's margin.

use eframe::egui::{self, Color32, FontId, Pos2, Sense, Shape, Stroke};
use muster::core::hexmap::{Hex, HexMap};
use muster::core::mapview::View;
use muster::core::screen::{Drag, HexBoard};
use muster::core::side::{Side, Sides};

use crate::app::map_image::{MapImage, Read, Saved};
#[cfg(test)]
pub use draw::label_font;
use draw::{Chip, Stacked, colour, draw_token, margins, stacks, trace_path};
pub use draw::{map_settings, side_colour};

mod draw;
mod image;
#[cfg(test)]
mod probe;

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

#[derive(Default)]
pub struct HexGrid {
    /// What the laptop's map looks at, and on which map: the players' to
    /// move (the wheel, a drag on empty ground, the buttons), begun at the
    /// first board's first view (`mapview`) and never moved by a new
    /// board: a player's screen opening or closing over the table's map,
    /// or the game going from set-up to play, leaves it where it is.
    view: Option<(HexMap, View)>,
    /// A button's wish, carried out once the pane's size is known.
    wish: Option<Wish>,
    /// The printed map under the grid, once laid.
    pub image: Option<MapImage>,
    /// An image to read (chosen in the dialog, or kept beside the game),
    /// and whether the players chose it now (the status line tells them).
    to_read: Option<(Saved, bool)>,
    /// The image being read and decoded, off the window's thread: a large
    /// scan takes a moment and the window goes on meanwhile.
    reading: Option<std::sync::mpsc::Receiver<Read>>,
    /// *Map image…* was clicked: the window asks the file dialog.
    wants_image: bool,
    /// The largest texture side this window's painter takes, as it last
    /// said: an image is averaged down to it on the reading thread.
    texture_side: usize,
    /// The image was aligned or removed: the window keeps it beside the
    /// game.
    image_changed: bool,

    /// The counter being dragged, while it is.
    trace: Option<Trace>,
    /// Where the map was last drawn: its pane, the pane's centre and the
    /// view.
    #[cfg(test)]
    drawn: Option<(egui::Rect, Pos2, View)>,
    /// Each counter's label as last drawn.
    #[cfg(test)]
    labels: Vec<Drawn>,
    /// How many hexes were last drawn as dots.
    #[cfg(test)]
    dots: usize,
    /// Where the column and row numbers were last drawn.
    #[cfg(test)]
    numbers: Vec<egui::Rect>,
}

/// A counter's label as drawn, for a test: its counter's id, its box,
/// its text (all of its label, or its name alone) and the text's size,
/// its whole label, and whether it is beside a hex too small for its
/// token.
#[cfg(test)]
#[derive(Clone, Debug)]
pub struct Drawn {
    pub id: usize,
    pub rect: egui::Rect,
    pub px: f32,
    pub text: String,
    pub label: String,
    pub beside: bool,
}

/// What a button of the map's asks.
#[derive(Clone, Copy)]
enum Wish {
    Zoom(f32),
    Whole,
    Mine,
}

/// A counter being dragged: the one whose label was under the pointer (if
/// any), its path, its hex first, and the last pointer position sampled
/// (map units).
struct Trace {
    counter: Option<usize>,
    path: Vec<Hex>,
    last: (f64, f64),
}

/// What the players did on the grid this frame.
#[derive(Default)]
pub struct Picked {
    pub clicked: Option<Hex>,
    /// Right-clicked: move the selected counter here.
    pub send_to: Option<Hex>,
    /// A counter dragged: the hex it stood in and the hexes it entered in
    /// order.
    pub dragged: Option<Drag>,
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
        let rules = &board.rules;
        self.texture_side = ui.input(|i| i.max_texture_side);
        ui.horizontal_wrapped(|ui| {
            if ui.button("Zoom in").clicked() {
                self.wish = Some(Wish::Zoom(1.25));
            }
            if ui.button("Zoom out").clicked() {
                self.wish = Some(Wish::Zoom(1.0 / 1.25));
            }
            if ui.button("Whole map").clicked() {
                self.wish = Some(Wish::Whole);
            }
            if ui
                .button("My counters")
                .on_hover_text("Back to the first view: the counters that matter now")
                .clicked()
            {
                self.wish = Some(Wish::Mine);
            }
            if ui
                .button("Map image…")
                .on_hover_text("A scan or photo of your printed map, laid under the grid and aligned by two hexes")
                .clicked()
            {
                self.wants_image = true;
            }
            if let Some(image) = &mut self.image {
                if ui.button("Align the image").clicked() {
                    image.align();
                }
                let hide = if image.shown { "Hide the image" } else { "Show the image" };
                if ui.button(hide).clicked() {
                    image.shown = !image.shown;
                }
                if ui.button("Remove the image").clicked() {
                    self.image = None;
                    self.image_changed = true;
                }
            }
            for side in Side::BOTH {
                ui.colored_label(side_colour(side), format!("■ {}", names[side]));
            }
        });
        if let Some(reading) = &self.reading {
            match reading.try_recv() {
                Ok(read) => {
                    self.image = Some(MapImage::upload(ui.ctx(), read));
                    self.reading = None;
                }
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.reading = None,
                Err(std::sync::mpsc::TryRecvError::Empty) => {}
            }
        }
        let aligning = match &self.reading {
            Some(_) => Some("Reading the map image…".to_string()),
            None => self.image.as_ref().and_then(|i| i.hint(map)),
        };
        let hint = aligning.unwrap_or_else(|| hint.to_string());
        // One line of fixed height, so the map never moves as it changes;
        // a long hint is cut, its whole text on hover. First on it, what
        // the labels say, on hover: a player asked what the 6 of "I3 (6)"
        // was.
        ui.horizontal(|ui| {
            if !board.key.is_empty() {
                ui.label(egui::RichText::new("Map key").underline())
                    .on_hover_text(board.key.join("\n"));
            }
            ui.add(egui::Label::new(egui::RichText::new(hint).weak()).truncate());
        });
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Hex map"));
        let rect = response.rect;
        // Room round the map for its column and row numbers.
        let margin = 24.0;
        let pane = (
            f64::from(rect.width() - 2.0 * margin).max(1.0),
            f64::from(rect.height() - 2.0 * margin).max(1.0),
        );
        let first = rules.first_view(map, &board.focus, pane);
        if self.view.as_ref().is_none_or(|(shown, _)| shown != map) {
            self.view = Some((map.clone(), first));
        }
        let wish = self.wish.take();
        let view = self.view_mut();
        let (least, most) = rules.limits(map, pane);
        let mut zoom = (1.0, rect.center());
        match wish {
            Some(Wish::Zoom(factor)) => zoom.0 = factor,
            Some(Wish::Whole) => {
                *view = rules.fit(map, pane);
                view.radius = view.radius.max(least);
            }
            Some(Wish::Mine) => *view = first,
            None => {}
        }
        if response.hovered() {
            let (scroll, pinch, pointer) = ui.input(|i| {
                (
                    i.smooth_scroll_delta.y,
                    i.zoom_delta(),
                    i.pointer.hover_pos(),
                )
            });
            let wheel = (pinch * (scroll * 0.002).exp()).clamp(0.8, 1.25);
            if (wheel - 1.0).abs() > f32::EPSILON {
                zoom = (wheel, pointer.unwrap_or(zoom.1));
            }
        }
        let middle = rect.center();
        if (zoom.0 - 1.0).abs() > f32::EPSILON {
            // The point under the pointer (or the middle, for the
            // buttons) stays where it is.
            let anchor = zoom.1 - middle;
            let under = (
                view.centre.0 + f64::from(anchor.x) / view.radius,
                view.centre.1 + f64::from(anchor.y) / view.radius,
            );
            view.radius = (view.radius * f64::from(zoom.0)).clamp(least, most);
            view.centre = (
                under.0 - f64::from(anchor.x) / view.radius,
                under.1 - f64::from(anchor.y) / view.radius,
            );
        }
        let view = *view;
        let scale = view.radius as f32;
        #[cfg(test)]
        {
            self.drawn = Some((rect, middle, view));
        }
        let to_screen = |(x, y): (f64, f64)| {
            Pos2::new(
                middle.x + ((x - view.centre.0) * view.radius) as f32,
                middle.y + ((y - view.centre.1) * view.radius) as f32,
            )
        };
        let from_screen = |p: Pos2| {
            (
                view.centre.0 + f64::from(p.x - middle.x) / view.radius,
                view.centre.1 + f64::from(p.y - middle.y) / view.radius,
            )
        };
        let mut picked = Picked::default();
        let pointer = response.interact_pointer_pos().map(from_screen);
        // A drag is seen once the pointer has moved: its path starts where
        // the button went down.
        // A trace lives from its drag's start to its end only: one left
        // over (the grid was not drawn when it ended) must never move a
        // counter later.
        if response.drag_started() || !(response.dragged() || response.drag_stopped()) {
            self.trace = None;
        }
        let stacks = stacks(&painter, map, markers, rules, &to_screen, scale);
        let chips: Vec<&Chip> = stacks.iter().flat_map(Stacked::chips).collect();
        #[cfg(test)]
        {
            self.labels = stacks
                .iter()
                .flat_map(|s| {
                    let beside = matches!(s, Stacked::Beside(..));
                    s.chips().iter().map(move |c| (c, beside))
                })
                .map(|(c, beside)| Drawn {
                    id: markers[c.marker].id,
                    rect: c.rect,
                    px: c.galley.job.sections[0].format.font_id.size,
                    text: c.galley.text().to_string(),
                    label: markers[c.marker].text.clone(),
                    beside,
                })
                .collect();
            self.dots = stacks
                .iter()
                .filter(|s| matches!(s, Stacked::Dot(..)))
                .count();
        }
        if response.drag_started_by(egui::PointerButton::Primary)
            && let Some(pressed) = ui.input(|i| i.pointer.press_origin())
        {
            // The counter whose token is under the pointer, the top one
            // drawn last: its own hex, even where the token overhangs it.
            let grabbed = chips
                .iter()
                .rev()
                .find(|c| c.rect.contains(pressed))
                .map(|c| &markers[c.marker]);
            let hex = grabbed.map(|m| m.hex).or_else(|| {
                map.hex_at(from_screen(pressed))
                    .filter(|hex| markers.iter().any(|m| m.hex == *hex))
            });
            if let Some(hex) = hex {
                self.trace = Some(Trace {
                    counter: grabbed.map(|m| m.id),
                    path: vec![hex],
                    last: map.centre(hex),
                });
            }
        }
        match (&mut self.trace, pointer) {
            (Some(trace), Some(at)) if response.dragged() => {
                trace_path(&mut trace.path, map, trace.last, at);
                trace.last = at;
            }
            _ if response.dragged() => {
                let moved = response.drag_delta();
                let view = self.view_mut();
                view.centre.0 -= f64::from(moved.x) / view.radius;
                view.centre.1 -= f64::from(moved.y) / view.radius;
            }
            _ => {}
        }
        if response.drag_stopped()
            && let Some(Trace { counter, path, .. }) = self.trace.take()
            && path.len() > 1
        {
            picked.dragged = Some(Drag {
                from: path[0],
                counter,
                path: path[1..].to_vec(),
            });
        }
        let visuals = ui.visuals();
        let line = Stroke::new(1.0, visuals.weak_text_color());
        let painter = painter.with_clip_rect(rect);
        let selected_hex = highlight
            .counter
            .and_then(|id| markers.iter().find(|m| m.id == id).map(|m| m.hex));
        let destination = highlight.destination;
        let under = self.image.as_ref().is_some_and(|i| i.shown);
        if let Some(image) = &self.image {
            image.draw(&painter, map, &to_screen);
        }
        for hex in map.hexes() {
            let fill = if Some(hex) == selected_hex {
                visuals.selection.bg_fill.gamma_multiply(0.6)
            } else if Some(hex) == destination {
                Color32::from_rgba_unmultiplied(230, 190, 60, 90)
            } else if Some(hex) == highlight.hex || board.highlight.contains(&hex) {
                visuals.selection.bg_fill.gamma_multiply(0.25)
            } else if under {
                // The printed map shows through.
                Color32::TRANSPARENT
            } else {
                visuals.faint_bg_color
            };
            let corners: Vec<Pos2> = map.corners(hex).iter().map(|&c| to_screen(c)).collect();
            painter.add(Shape::convex_polygon(corners, fill, line));
            let (cx, cy) = map.centre(hex);
            // In the hex when it is big enough for a readable number; in
            // the text's own colour, dimmed (the weak one was too faint on
            // a dark hex).
            if f64::from(scale) >= rules.numbered_radius {
                let (px, top) = rules.number(f64::from(scale), map.orientation);
                painter.text(
                    to_screen((cx, cy - top)),
                    egui::Align2::CENTER_TOP,
                    hex.to_string(),
                    FontId::proportional(px as f32),
                    visuals.text_color().gamma_multiply(0.7),
                );
            }
        }
        // The rows' and columns' numbers at the pane's edges, under the
        // counters: a counter at the edge is never hidden by them.
        let _numbers = margins(&painter, visuals, map, rect, &to_screen, scale);
        #[cfg(test)]
        {
            self.numbers = _numbers;
        }
        for stack in &stacks {
            match stack {
                Stacked::Dot(side, centre) => {
                    painter.circle_filled(*centre, (scale * 0.5).max(2.0), side_colour(*side));
                }
                Stacked::Beside(chips, centre) => {
                    // Off its hex: a line from the hex's centre, marked,
                    // to the names' nearest point.
                    let names = (chips.iter()).fold(egui::Rect::NOTHING, |u, c| u.union(c.rect));
                    if !chips.iter().any(|c| c.rect.contains(*centre)) {
                        let colour = side_colour(markers[chips[0].marker].side);
                        let end = names.clamp(*centre);
                        painter.line_segment([*centre, end], Stroke::new(1.5, colour));
                        painter.circle_filled(*centre, 2.5, colour);
                    }
                    for chip in chips {
                        let counter = &markers[chip.marker];
                        let selected = Some(counter.id) == highlight.counter;
                        draw_token(&painter, chip, counter, selected, rules, visuals);
                    }
                }
                Stacked::Tokens(chips, badge) => {
                    for chip in chips {
                        let counter = &markers[chip.marker];
                        let selected = Some(counter.id) == highlight.counter;
                        draw_token(&painter, chip, counter, selected, rules, visuals);
                    }
                    // The stack's count, on its front token's corner.
                    if let Some((at, radius, px, here)) = badge {
                        painter.circle_filled(*at, *radius, Color32::BLACK);
                        painter.text(
                            *at,
                            egui::Align2::CENTER_CENTER,
                            here.to_string(),
                            FontId::proportional(*px),
                            Color32::WHITE,
                        );
                    }
                }
            }
        }
        if let Some(Trace { path, .. }) = &self.trace {
            let points: Vec<Pos2> = path.iter().map(|h| to_screen(map.centre(*h))).collect();
            painter.add(Shape::line(
                points,
                Stroke::new((0.18 * scale).max(4.0), colour(&rules.colours.path)),
            ));
        }
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            let aligned = match &mut self.image {
                Some(image) => image.click(map, from_screen(p)),
                None => (false, false),
            };
            self.image_changed |= aligned.1;
            if !aligned.0 {
                picked.clicked = map.hex_at(from_screen(p));
            }
        }
        if response.secondary_clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            picked.send_to = map.hex_at(from_screen(p));
        }
        // The counters pointed at, listed with the map's key: a stack's
        // hidden ones, a name drawn beside a small hex in full. The label
        // pointed at is its counter's, wherever it is drawn.
        let pointed = response.hover_pos().and_then(|p| {
            chips
                .iter()
                .rev()
                .find(|c| c.rect.contains(p))
                .map(|c| markers[c.marker].hex)
                .or_else(|| map.hex_at(from_screen(p)))
        });
        if let Some(hex) = pointed {
            let here: Vec<&str> = markers
                .iter()
                .filter(|m| m.hex == hex)
                .map(|m| m.text.as_str())
                .collect();
            if !here.is_empty() {
                let text = std::iter::once(format!("In {hex}: {}", here.join(", ")))
                    .chain(board.key.iter().cloned())
                    .collect::<Vec<_>>()
                    .join("\n");
                response.on_hover_text(text);
            }
        }
        picked
    }

    /// The map's view (set with the map).
    fn view_mut(&mut self) -> &mut View {
        &mut self
            .view
            .as_mut()
            .expect("the map is set before its view")
            .1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster::core::hexmap::{HexMap, Orientation, Shifted};

    fn map() -> HexMap {
        HexMap {
            columns: 20,
            rows: 20,
            first_column: 1,
            first_row: 1,
            orientation: Orientation::FlatTop,
            shifted: Shifted::Even,
        }
    }

    /// A quick drag across three hexes in one frame misses none of them;
    /// dragging back into the hex before takes the last one off.
    #[test]
    fn a_traced_path_has_every_hex_in_order_and_backing_up_undoes_a_step() {
        let map = map();
        let hex = |name: &str| map.hex(name).unwrap();
        let mut path = vec![hex("0505")];
        trace_path(
            &mut path,
            &map,
            map.centre(hex("0505")),
            map.centre(hex("0508")),
        );
        assert_eq!(path, [hex("0505"), hex("0506"), hex("0507"), hex("0508")]);
        for pair in path.windows(2) {
            assert_eq!(map.distance(pair[0], pair[1]), 1, "{path:?}");
        }
        trace_path(
            &mut path,
            &map,
            map.centre(hex("0508")),
            map.centre(hex("0507")),
        );
        assert_eq!(path, [hex("0505"), hex("0506"), hex("0507")]);
    }
}
