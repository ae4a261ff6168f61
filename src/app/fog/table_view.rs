//! The table, to scale: a labelled MU grid, the long edges named, halves and
//! thirds drawn faintly, every piece on the table, and whatever the current
//! step overlays (zones, buffers, the piece being placed). Scroll to zoom,
//! drag with the right button to pan, double-click to fit.

use eframe::egui;
use egui::{Align2, Color32, FontId, Pos2, Rect, Response, Sense, Shape, Stroke, StrokeKind, Vec2};
use muster::fog::battle::Battle;
use muster::fog::geometry::Footprint;
use muster::fog::ruleset::PieceKind;
use muster::fog::screens::{SecretAct, SecretField};

/// Maps table MU to screen points and back.
#[derive(Clone, Copy)]
pub struct Frame {
    pub table: Rect,
    /// Screen points per MU.
    pub scale: f32,
}

impl Frame {
    pub fn to_screen(self, p: [f64; 2]) -> Pos2 {
        Pos2::new(
            self.table.left() + p[0] as f32 * self.scale,
            self.table.bottom() - p[1] as f32 * self.scale,
        )
    }

    pub fn to_table(self, p: Pos2) -> [f64; 2] {
        [
            f64::from((p.x - self.table.left()) / self.scale),
            f64::from((self.table.bottom() - p.y) / self.scale),
        ]
    }

    /// A footprint, filled; safe for concave outlines too.
    pub fn footprint(self, f: &Footprint, fill: Color32, stroke: Stroke) -> Vec<Shape> {
        let pts: Vec<Pos2> = f.points().iter().map(|p| self.to_screen(*p)).collect();
        let mesh = fill_mesh(&pts, fill);
        vec![Shape::mesh(mesh), Shape::closed_line(pts, stroke)]
    }
}

/// A fan-triangulated fill from the centroid: right for the convex and
/// star-shaped outlines terrain pieces have.
fn fill_mesh(pts: &[Pos2], fill: Color32) -> egui::Mesh {
    let mut mesh = egui::Mesh::default();
    if pts.len() < 3 {
        return mesh;
    }
    let c = pts.iter().fold(Vec2::ZERO, |a, p| a + p.to_vec2()) / pts.len() as f32;
    mesh.colored_vertex(c.to_pos2(), fill);
    for p in pts {
        mesh.colored_vertex(*p, fill);
    }
    let n = pts.len() as u32;
    for i in 0..n {
        mesh.add_triangle(0, 1 + i, 1 + (i + 1) % n);
    }
    mesh
}

/// What the current step draws over the table and how it answers input.
pub trait Overlay {
    /// Paints under the pieces (zones, buffers).
    fn under(&mut self, _painter: &egui::Painter, _frame: &Frame, _battle: &Battle) {}
    /// Paints over the pieces, under every name (a legality grid, which
    /// must not cover the pieces' names).
    fn over_pieces(&mut self, _painter: &egui::Painter, _frame: &Frame, _battle: &Battle) {}
    /// Paints over the pieces and handles pointer and keys on the table.
    fn over(&mut self, _ui: &mut egui::Ui, _response: &Response, _frame: &Frame, _battle: &Battle) {
    }
    /// Captions to place with the pieces' names, clear of them: where on
    /// the screen each points to, and its text.
    fn labels(&self, _frame: &Frame, _battle: &Battle) -> Vec<(Pos2, String)> {
        Vec::new()
    }
}

/// The colour a terrain type is drawn in (the printout's palette).
pub fn colour(terrain: &str, dark: bool) -> Color32 {
    let [r, g, b] = muster::fog::palette::terrain_colour(terrain);
    let c = Color32::from_rgb(r, g, b);
    if dark { c.gamma_multiply(0.9) } else { c }
}

#[derive(Default)]
pub struct TableView {
    zoom: f32,
    pan: Vec2,
    /// Where the table was drawn last frame (tests aim the pointer with it).
    #[cfg(test)]
    pub frame: Option<Frame>,
}

impl TableView {
    pub fn show(&mut self, ui: &mut egui::Ui, battle: &Battle, overlay: Option<&mut dyn Overlay>) {
        if self.zoom == 0.0 {
            self.zoom = 1.0;
        }
        let state = battle.state();
        let settings = &state.settings;
        let (w, d) = (settings.table.width as f32, settings.table.depth as f32);
        let avail = ui.available_size();
        let (response, painter) = ui.allocate_painter(avail, Sense::click_and_drag());
        let margin = 36.0;
        let fit = ((avail.x - 2.0 * margin) / w)
            .min((avail.y - 2.0 * margin) / d)
            .max(1.0);
        if response.hovered() {
            let (zoom, scroll) = ui.input(|i| (i.zoom_delta(), i.smooth_scroll_delta.y));
            let factor = zoom * (scroll * 0.002).exp();
            if factor != 1.0 {
                self.zoom = (self.zoom * factor).clamp(0.5, 8.0);
            }
        }
        if response.dragged_by(egui::PointerButton::Secondary) {
            self.pan += response.drag_delta();
        }
        if response.double_clicked() {
            self.zoom = 1.0;
            self.pan = Vec2::ZERO;
        }
        let scale = fit * self.zoom;
        let table = Rect::from_center_size(
            response.rect.center() + self.pan,
            Vec2::new(w * scale, d * scale),
        );
        let frame = Frame { table, scale };
        #[cfg(test)]
        {
            self.frame = Some(frame);
        }
        let painter = painter.with_clip_rect(response.rect);
        let dark = ui.visuals().dark_mode;
        let ink = ui.visuals().text_color();
        let cloth = if dark {
            Color32::from_rgb(46, 74, 46)
        } else {
            Color32::from_rgb(196, 222, 170)
        };
        painter.rect_filled(table, 2.0, cloth);
        // The axes in the players' unit, whole numbers: short enough for
        // the margin at any table size.
        let axis = |mu: f32| format!("{:.0}", settings.units.from_mu(f64::from(mu), settings.mu));
        let numbers = grid(&painter, &frame, (w, d), ink, &axis, response.rect);
        let mut overlay = overlay;
        if let Some(o) = overlay.as_deref_mut() {
            o.under(&painter, &frame, battle);
        }
        let extra = overlay
            .as_deref()
            .map_or(Vec::new(), |o| o.labels(&frame, battle));
        let (mut labels, mut taken, banded) = pieces(&painter, &frame, battle, dark, ink);
        // The axes' numbers stay in sight: no label goes over them.
        taken.extend(numbers);
        if let Some(o) = overlay.as_deref_mut() {
            o.over_pieces(&painter, &frame, battle);
        }
        painter.extend(banded);
        // The points the overlay's captions name stay in sight: each
        // caption goes beside its point, a line back to it.
        taken.extend(
            extra
                .iter()
                .map(|(anchor, _)| Rect::from_center_size(*anchor, Vec2::splat(10.0))),
        );
        labels.extend(
            extra
                .into_iter()
                .map(|(anchor, text)| Label { anchor, text }),
        );
        place_labels(&painter, &frame, labels, taken);
        painter.rect_stroke(table, 2.0, Stroke::new(2.0, ink), StrokeKind::Outside);
        let label = FontId::proportional(14.0);
        let player = |a: &Option<muster::fog::army::Army>| {
            a.as_ref()
                .map(|a| format!(" ({})", a.player))
                .unwrap_or_default()
        };
        // The edges' names stay clear of the caption above and the
        // pointer's line below when the table is zoomed past them.
        let south = frame.to_screen([f64::from(w) / 2.0, 0.0]) + Vec2::new(0.0, 18.0);
        let north = frame.to_screen([f64::from(w) / 2.0, f64::from(d)]) - Vec2::new(0.0, 6.0);
        painter.text(
            Pos2::new(south.x, south.y.min(response.rect.bottom() - 40.0)),
            Align2::CENTER_TOP,
            format!("South edge{}", player(&state.armies.south)),
            label.clone(),
            ink,
        );
        painter.text(
            Pos2::new(north.x, north.y.max(response.rect.top() + 38.0)),
            Align2::CENTER_BOTTOM,
            format!("North edge{}", player(&state.armies.north)),
            label,
            ink,
        );
        let units = settings.units;
        // Short enough for the narrowest pane; how to zoom is in Help.
        let caption = settings.speak(&format!(
            "Table {} x {} MU; grid 6 MU; edges numbered in {}",
            settings.table.width,
            settings.table.depth,
            settings.units.name(),
        ));
        painter.text(
            response.rect.left_top() + Vec2::new(6.0, 4.0),
            Align2::LEFT_TOP,
            caption,
            FontId::proportional(12.0),
            ink,
        );
        if let Some(p) = response.hover_pos() {
            let q = frame.to_table(p);
            if (0.0..=settings.table.width).contains(&q[0])
                && (0.0..=settings.table.depth).contains(&q[1])
            {
                // As the markers and the log say a point (from its nearest
                // edges), then as the typed fields take it.
                let text = format!(
                    "Pointer: {} (x {}, y {} from the south-west corner)",
                    settings.point(q),
                    units.format(q[0], settings.mu),
                    units.format(q[1], settings.mu)
                );
                painter.text(
                    response.rect.left_bottom() + Vec2::new(6.0, -4.0),
                    Align2::LEFT_BOTTOM,
                    text,
                    FontId::proportional(12.0),
                    ink,
                );
            }
        }
        if let Some(o) = overlay {
            o.over(ui, &response, &frame, battle);
        }
    }
}

/// The grid every 6 MU, its majors numbered by `axis` (a length in MU
/// as the players' unit writes it).
///
/// The numbers stay inside `bounds` however the table is zoomed and panned:
/// along its lower and left sides when the table's edges are off-screen.
/// Where each number was drawn.
fn grid(
    painter: &egui::Painter,
    frame: &Frame,
    (w, d): (f32, f32),
    ink: Color32,
    axis: &dyn Fn(f32) -> String,
    bounds: Rect,
) -> Vec<Rect> {
    let mut numbers = Vec::new();
    let faint = ink.gamma_multiply(0.18);
    let font = FontId::proportional(11.0);
    let mut x = 0.0;
    while x <= w + 0.01 {
        let major = (x as i32) % 12 == 0;
        let stroke = Stroke::new(if major { 1.0 } else { 0.5 }, faint);
        painter.line_segment(
            [
                frame.to_screen([f64::from(x), 0.0]),
                frame.to_screen([f64::from(x), f64::from(d)]),
            ],
            stroke,
        );
        if major {
            let at = frame.to_screen([f64::from(x), 0.0]) + Vec2::new(0.0, 4.0);
            let at = Pos2::new(at.x, at.y.min(bounds.bottom() - 40.0));
            numbers.push(painter.text(at, Align2::CENTER_TOP, axis(x), font.clone(), ink));
        }
        x += 6.0;
    }
    let mut y = 0.0;
    while y <= d + 0.01 {
        let major = (y as i32) % 12 == 0;
        let stroke = Stroke::new(if major { 1.0 } else { 0.5 }, faint);
        painter.line_segment(
            [
                frame.to_screen([0.0, f64::from(y)]),
                frame.to_screen([f64::from(w), f64::from(y)]),
            ],
            stroke,
        );
        if major {
            let at = frame.to_screen([0.0, f64::from(y)]) - Vec2::new(4.0, 0.0);
            let at = Pos2::new(at.x.max(bounds.left() + 30.0), at.y);
            numbers.push(painter.text(at, Align2::RIGHT_CENTER, axis(y), font.clone(), ink));
        }
        y += 6.0;
    }
    let guide = Stroke::new(1.5, ink.gamma_multiply(0.35));
    painter.line_segment(
        [
            frame.to_screen([0.0, f64::from(d) / 2.0]),
            frame.to_screen([f64::from(w), f64::from(d) / 2.0]),
        ],
        guide,
    );
    for third in [w / 3.0, 2.0 * w / 3.0] {
        painter.line_segment(
            [
                frame.to_screen([f64::from(third), 0.0]),
                frame.to_screen([f64::from(third), f64::from(d)]),
            ],
            Stroke::new(1.0, ink.gamma_multiply(0.25)),
        );
    }
    #[cfg(test)]
    NUMBERS.with(|n| *n.borrow_mut() = numbers.clone());
    numbers
}

/// A name to put on the table near `anchor`, clear of the others.
struct Label {
    anchor: Pos2,
    text: String,
}

/// Every standing piece, the works and the road; their names to place
/// (`place_labels`), the room the banded ones take and those names (a
/// river's along it), to draw over whatever the overlay draws on the
/// pieces.
fn pieces(
    painter: &egui::Painter,
    frame: &Frame,
    battle: &Battle,
    dark: bool,
    ink: Color32,
) -> (Vec<Label>, Vec<Rect>, Vec<Shape>) {
    let state = battle.state();
    let ruleset = battle.ruleset();
    let mut labels = Vec::new();
    let mut taken = Vec::new();
    let mut banded = Vec::new();
    for (i, laid) in state.placement.standing() {
        let pick = &state.selection.picks[i];
        let f = laid.footprint();
        let fill = colour(&pick.terrain, dark).gamma_multiply(0.85);
        painter.extend(frame.footprint(f, fill, Stroke::new(1.5, ink.gamma_multiply(0.8))));
        let kind = ruleset.terrain(&pick.terrain).map(|t| t.kind);
        let mut name = muster::fog::battle::piece_name(state, ruleset, i);
        if let Some(going) = laid.going {
            name = format!("{name} ({going})");
        }
        let centre = frame.to_screen([laid.pose.x, laid.pose.y]);
        if kind == Some(PieceKind::River) || kind == Some(PieceKind::Coast) {
            // Along the band, which no other label may cover.
            let angle = -std::f32::consts::FRAC_PI_2;
            let galley = painter.layout_no_wrap(name, FontId::proportional(12.0), Color32::WHITE);
            let size = galley.size();
            let offset = Vec2::angled(angle) * size.x / 2.0
                + Vec2::angled(angle + std::f32::consts::FRAC_PI_2) * size.y / 2.0;
            banded.push(
                egui::epaint::TextShape::new(centre - offset, galley, Color32::WHITE)
                    .with_angle(angle)
                    .into(),
            );
            taken.push(Rect::from_center_size(centre, Vec2::new(size.y, size.x)));
        } else {
            labels.push(Label {
                anchor: centre,
                text: format!("{name} ({})", &pick.side.name()[..1]),
            });
        }
    }
    works(painter, frame, battle, ink, &mut labels, &mut taken);
    if let Some(road) = &state.placement.road {
        let pts: Vec<Pos2> = road.iter().map(|p| frame.to_screen(*p)).collect();
        let width = ruleset.road.width as f32 * frame.scale;
        painter.add(Shape::line(
            pts,
            Stroke::new(width, {
                let [r, g, b] = muster::fog::palette::ROAD;
                Color32::from_rgb(r, g, b)
            }),
        ));
    }
    (labels, taken, banded)
}

/// Camps, fortifications and ambush markers: what both players may see
/// (a marker's position, never what it stands for).
fn works(
    painter: &egui::Painter,
    frame: &Frame,
    battle: &Battle,
    ink: Color32,
    labels: &mut Vec<Label>,
    taken: &mut Vec<Rect>,
) {
    let state = battle.state();
    let ruleset = battle.ruleset();
    let font = FontId::proportional(11.0);
    let [r, g, b] = muster::fog::palette::CAMP;
    let camp = Color32::from_rgb(r, g, b);
    for side in muster::core::side::Side::BOTH {
        if let Some(pose) = state.deployment.camps[side] {
            let f = muster::fog::battle::camp_footprint(ruleset, pose);
            painter.extend(frame.footprint(&f, camp, Stroke::new(1.5, ink)));
            labels.push(Label {
                anchor: frame.to_screen([pose.x, pose.y]),
                text: format!("Camp ({})", &side.name()[..1]),
            });
        }
    }
    let [r, g, b] = muster::fog::palette::FORTIFICATION;
    let fort = Color32::from_rgb(r, g, b);
    for (side, pose) in &state.deployment.fortifications {
        let f = muster::fog::battle::fortification_footprint(ruleset, *pose);
        painter.extend(frame.footprint(&f, fort, Stroke::new(1.5, Color32::BLACK)));
        // Beside the section, never over it: the label moves off.
        taken.push(Rect::from_two_pos(
            frame.to_screen(f.min()),
            frame.to_screen(f.max()),
        ));
        labels.push(Label {
            anchor: frame.to_screen([pose.x, pose.y]),
            text: format!("Fortification ({})", &side.name()[..1]),
        });
    }
    for (i, a) in state.deployment.ambushes.iter().enumerate() {
        if !a.standing() {
            continue;
        }
        let c = frame.to_screen(a.at);
        painter.circle(
            c,
            6.0,
            Color32::from_rgb(250, 250, 235),
            Stroke::new(1.5, ink),
        );
        let label = match a.revealed {
            Some(muster::fog::battle::AmbushContent::Bg { bg }) => state.armies[a.side]
                .as_ref()
                .and_then(|army| army.bgs.get(bg))
                .map_or(String::new(), |g| g.name.clone()),
            _ => {
                painter.text(c, Align2::CENTER_CENTER, "?", font.clone(), Color32::BLACK);
                format!(
                    "Ambush {}{}",
                    &a.side.name()[..1],
                    muster::fog::battle::marker_number(state, i)
                )
            }
        };
        taken.push(Rect::from_center_size(c, Vec2::splat(14.0)));
        labels.push(Label {
            anchor: c - Vec2::new(0.0, 16.0),
            text: label,
        });
    }
}

/// Draws each label at the first spot near its anchor that no other label
/// or marker covers, on a dark card so it reads on any ground, with a
/// leader line back to its anchor when it had to move.
fn place_labels(painter: &egui::Painter, frame: &Frame, labels: Vec<Label>, taken: Vec<Rect>) {
    use muster::core::labels::{Rect as Box, free_spot};
    let boxed = |r: Rect| Box::new(r.min.x, r.min.y, r.max.x, r.max.y);
    let mut taken: Vec<Box> = taken.into_iter().map(boxed).collect();
    let within = boxed(frame.table.expand(24.0));
    // A crowded small table: farther out, anywhere the window shows.
    let wider = boxed(painter.clip_rect());
    #[cfg(test)]
    PLACED.with(|p| p.borrow_mut().clear());
    #[cfg(test)]
    AVOIDED.with(|a| *a.borrow_mut() = taken.clone());
    for label in labels {
        #[cfg(test)]
        let text = label.text.clone();
        let galley = painter.layout_no_wrap(label.text, FontId::proportional(12.0), Color32::WHITE);
        let size = galley.size() + Vec2::new(8.0, 4.0);
        let a = label.anchor;
        let spot = free_spot((a.x, a.y), (size.x, size.y), 6.0, &within, &taken)
            .or_else(|| free_spot((a.x, a.y), (size.x, size.y), 12.0, &wider, &taken))
            .unwrap_or_else(|| boxed(Rect::from_center_size(a, size)));
        let rect = Rect::from_min_max(Pos2::new(spot.x0, spot.y0), Pos2::new(spot.x1, spot.y1));
        if !rect.contains(a) {
            let end = rect.clamp(a);
            painter.line_segment([a, end], Stroke::new(1.0, Color32::from_white_alpha(200)));
            painter.circle_filled(a, 2.0, Color32::from_white_alpha(200));
        }
        painter.rect_filled(rect, 3.0, Color32::from_black_alpha(150));
        painter.galley(rect.min + Vec2::new(4.0, 2.0), galley, Color32::WHITE);
        taken.push(spot);
        #[cfg(test)]
        PLACED.with(|p| p.borrow_mut().push((rect, text)));
    }
}

#[cfg(test)]
thread_local! {
    /// The labels the table last placed on this thread and their words,
    /// for a test to measure (each test draws its window on a thread of
    /// its own).
    pub(crate) static PLACED: std::cell::RefCell<Vec<(Rect, String)>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Where the axes' numbers were last drawn.
    pub(crate) static NUMBERS: std::cell::RefCell<Vec<Rect>> = const { std::cell::RefCell::new(Vec::new()) };
    /// What those labels were to keep off: the markers, the axes' numbers,
    /// the bands' names, the works.
    pub(crate) static AVOIDED: std::cell::RefCell<Vec<muster::core::labels::Rect>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A player's private screen's table, drawn over the window's table: the
/// legality grid, his markers, the point he picks (into his form).
pub(super) struct PrivateTable<'a> {
    pub(super) table: &'a muster::core::screen::Table<SecretAct, SecretField>,
    pub(super) values: &'a mut muster::core::screen::Form<SecretField>,
}

impl Overlay for PrivateTable<'_> {
    fn over_pieces(&mut self, painter: &egui::Painter, frame: &Frame, _battle: &Battle) {
        let frame = *frame;
        crate::app::screen::table_grid(painter, &|p| frame.to_screen(p), self.table);
    }

    fn labels(&self, frame: &Frame, _battle: &Battle) -> Vec<(egui::Pos2, String)> {
        let frame = *frame;
        crate::app::screen::table_mark_labels(&|p| frame.to_screen(p), self.table)
    }

    fn over(
        &mut self,
        ui: &mut egui::Ui,
        response: &egui::Response,
        frame: &Frame,
        _battle: &Battle,
    ) {
        let frame = *frame;
        crate::app::screen::table_overlay(
            ui,
            response,
            &|p| frame.to_screen(p),
            &|p| frame.to_table(p),
            self.table,
            self.values,
        );
    }
}
