//! The table, to scale: a labelled MU grid, the two long edges named, halves
//! and thirds drawn faintly, the size in the chosen unit.

use eframe::egui;
use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use muster::battle::Battle;

pub fn show(ui: &mut egui::Ui, battle: &Battle) {
    let settings = &battle.state().settings;
    let (w, d) = (settings.table.width as f32, settings.table.depth as f32);
    let avail = ui.available_size();
    let margin = 36.0;
    let scale = ((avail.x - 2.0 * margin) / w)
        .min((avail.y - 2.0 * margin) / d)
        .max(1.0);
    let (response, painter) = ui.allocate_painter(avail, Sense::hover());
    let size = Vec2::new(w * scale, d * scale);
    let table = Rect::from_center_size(response.rect.center(), size);
    // Table y grows north; screen y grows down.
    let at = |x: f32, y: f32| Pos2::new(table.left() + x * scale, table.bottom() - y * scale);
    let dark = ui.visuals().dark_mode;
    let cloth = if dark {
        Color32::from_rgb(46, 74, 46)
    } else {
        Color32::from_rgb(196, 222, 170)
    };
    let ink = ui.visuals().text_color();
    let faint = ink.gamma_multiply(0.18);
    painter.rect_filled(table, 2.0, cloth);
    let font = FontId::proportional(11.0);
    let mut x = 0.0;
    while x <= w + 0.01 {
        let major = (x as i32) % 12 == 0;
        let stroke = Stroke::new(if major { 1.0 } else { 0.5 }, faint);
        painter.line_segment([at(x, 0.0), at(x, d)], stroke);
        if major {
            painter.text(
                at(x, 0.0) + Vec2::new(0.0, 4.0),
                Align2::CENTER_TOP,
                format!("{x}"),
                font.clone(),
                ink,
            );
        }
        x += 6.0;
    }
    let mut y = 0.0;
    while y <= d + 0.01 {
        let major = (y as i32) % 12 == 0;
        let stroke = Stroke::new(if major { 1.0 } else { 0.5 }, faint);
        painter.line_segment([at(0.0, y), at(w, y)], stroke);
        if major {
            painter.text(
                at(0.0, y) - Vec2::new(4.0, 0.0),
                Align2::RIGHT_CENTER,
                format!("{y}"),
                font.clone(),
                ink,
            );
        }
        y += 6.0;
    }
    let guide = Stroke::new(1.5, ink.gamma_multiply(0.35));
    painter.line_segment([at(0.0, d / 2.0), at(w, d / 2.0)], guide);
    for third in [w / 3.0, 2.0 * w / 3.0] {
        painter.line_segment(
            [at(third, 0.0), at(third, d)],
            Stroke::new(1.0, ink.gamma_multiply(0.25)),
        );
    }
    painter.rect_stroke(table, 2.0, Stroke::new(2.0, ink), StrokeKind::Outside);
    let label = FontId::proportional(14.0);
    let south = battle
        .state()
        .armies
        .south
        .as_ref()
        .map(|a| format!(" ({})", a.player))
        .unwrap_or_default();
    let north = battle
        .state()
        .armies
        .north
        .as_ref()
        .map(|a| format!(" ({})", a.player))
        .unwrap_or_default();
    painter.text(
        at(w / 2.0, 0.0) + Vec2::new(0.0, 18.0),
        Align2::CENTER_TOP,
        format!("South edge{south}"),
        label.clone(),
        ink,
    );
    painter.text(
        at(w / 2.0, d) - Vec2::new(0.0, 6.0),
        Align2::CENTER_BOTTOM,
        format!("North edge{north}"),
        label,
        ink,
    );
    let units = settings.units;
    let caption = format!(
        "{} x {} MU = {} x {} (1 MU = {}); grid 6 MU",
        settings.table.width,
        settings.table.depth,
        units.format(settings.table.width, settings.mu),
        units.format(settings.table.depth, settings.mu),
        settings.mu.name()
    );
    painter.text(
        response.rect.left_top() + Vec2::new(6.0, 4.0),
        Align2::LEFT_TOP,
        caption,
        FontId::proportional(12.0),
        ink,
    );
}
