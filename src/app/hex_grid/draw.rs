//! How the hex grid draws what is on it (docs: the design's "hex maps"):
//! the rules' colours, each counter's token in its hex with a stack's
//! tokens each under the one before, or its name beside a hex too small,
//! a finger's trace as the hexes it passed, the column and row numbers
//! along the view's edges, and the map's settings as the printed map has
//! them.

use eframe::egui::{self, Color32, FontId, Pos2, Vec2};
use muster::core::hexmap::{Hex, HexMap, MAX_SIDE, Orientation, Shifted};
use muster::core::mapview::{self, How, Rules};
use muster::core::screen::Counter;
use muster::core::side::Side;

/// A colour of the rules (`#rrggbb`).
pub(super) fn colour(hex: &str) -> Color32 {
    Color32::from_hex(hex).unwrap_or(Color32::GRAY)
}

/// Adds the hexes the pointer passed through from `from` to `to` (map
/// units) to `path`: sampled a quarter of a hex apart, so a quick drag
/// misses none; going back into the hex before the last takes the last
/// one off, as a player undoes a step by dragging back.
pub(super) fn trace_path(
    path: &mut Vec<Hex>,
    map: &muster::core::hexmap::HexMap,
    from: (f64, f64),
    to: (f64, f64),
) {
    // A frame's pointer move is short; a bound keeps a wild one cheap.
    let length = (to.0 - from.0).hypot(to.1 - from.1);
    let steps = (length / 0.25).ceil().clamp(1.0, 400.0) as usize;
    for k in 1..=steps {
        let t = k as f64 / steps as f64;
        let at = (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t);
        let Some(hex) = map.hex_at(at) else { continue };
        if path.last() == Some(&hex) {
            continue;
        }
        if path.len() >= 2 && path[path.len() - 2] == hex {
            path.pop();
        } else {
            path.push(hex);
        }
    }
}

/// A counter's label on the map: which counter, where, and its text laid
/// out.
pub(super) struct Chip {
    pub(super) marker: usize,
    pub(super) rect: egui::Rect,
    pub(super) galley: std::sync::Arc<egui::Galley>,
}

/// What a hex's counters are drawn as: their tokens, their front one's
/// name beside a hex too small for them, or a dot when no place near is
/// free.
pub(super) enum Stacked {
    /// Tokens, back first, and the count's badge (its centre, radius, text
    /// size and the count) when the hex holds more counters than shown.
    Tokens(Vec<Chip>, Option<(Pos2, f32, f32, usize)>),
    /// The counters' names (the front one's with how many more), back
    /// first, on their hex or beside it, with the hex's centre: a line
    /// joins them when they are beside.
    Beside(Vec<Chip>, Pos2),
    /// A dot of the front counter's side, at the hex's centre.
    Dot(Side, Pos2),
}

impl Stacked {
    /// Its labels, in the order drawn.
    pub(super) fn chips(&self) -> &[Chip] {
        match self {
            Stacked::Tokens(chips, _) | Stacked::Beside(chips, _) => chips,
            Stacked::Dot(..) => &[],
        }
    }
}

/// The face every counter's label is drawn in, at `px`: Hack (egui's
/// monospace), whose capital I and lower-case l differ ("I1" is never
/// "l1"); the phone draws in its own monospace face.
pub fn label_font(px: f32) -> FontId {
    FontId::monospace(px)
}

/// Every hex's counters as the rules lay them (`mapview::Rules::lay`):
/// tokens inside their own hex while they read there, the labels
/// shrinking with the hex, then the counters' names alone; on a smaller
/// hex the front counter's name at a readable size on the hex or beside
/// it, clear of every other label. A stack as tokens each a little right
/// of and under the one before, at most `stack_shown` of them, its count on a
/// badge when it holds more. In the order drawn, so the last token is on top: what is drawn,
/// and what a drag begins on.
pub(super) fn stacks(
    painter: &egui::Painter,
    map: &muster::core::hexmap::HexMap,
    markers: &[Counter],
    rules: &Rules,
    to_screen: &impl Fn((f64, f64)) -> Pos2,
    radius: f32,
) -> Vec<Stacked> {
    let measure = |text: &str| {
        let px = rules.label_px as f32;
        let galley = painter.layout_no_wrap(text.to_string(), label_font(px), Color32::WHITE);
        f64::from(galley.size().x / px)
    };
    let counters: Vec<(Hex, [f64; 2], &str)> = markers
        .iter()
        .map(|m| {
            let at = to_screen(map.centre(m.hex));
            (m.hex, [f64::from(at.x), f64::from(at.y)], m.text.as_str())
        })
        .collect();
    let chip = |marker: usize, [x0, y0, x1, y1]: [f64; 4], text: &str, px: f64| Chip {
        marker,
        rect: egui::Rect::from_min_max(
            Pos2::new(x0 as f32, y0 as f32),
            Pos2::new(x1 as f32, y1 as f32),
        ),
        galley: painter.layout_no_wrap(text.to_string(), label_font(px as f32), Color32::WHITE),
    };
    rules
        .lay(map.orientation, f64::from(radius), &counters, &measure)
        .into_iter()
        .map(|laid| {
            let [cx, cy] = laid.centre;
            let centre = Pos2::new(cx as f32, cy as f32);
            match &laid.how {
                How::Dot => Stacked::Dot(markers[laid.shown[0]].side, centre),
                How::Beside(tokens) => {
                    let chips = (laid.shown.iter().zip(tokens).enumerate().rev())
                        .map(|(i, (&marker, token))| {
                            let more = if i == 0 { laid.more() } else { 0 };
                            let text = mapview::callout(&markers[marker].text, more);
                            chip(marker, *token, &text, rules.callout_px)
                        })
                        .collect();
                    Stacked::Beside(chips, centre)
                }
                How::Inside(stack) => {
                    let chips = (laid.shown.iter().zip(stack.boxes(laid.centre)))
                        .rev()
                        .map(|(&marker, token)| {
                            let text = &markers[marker].text;
                            let text = if stack.short {
                                mapview::short(text)
                            } else {
                                text
                            };
                            chip(marker, token, text, stack.px)
                        })
                        .collect();
                    let px = stack.px as f32;
                    let badge = stack.badge.map(|([x, y], r)| {
                        (
                            centre + Vec2::new(x as f32, y as f32),
                            r as f32,
                            0.85 * px,
                            laid.count,
                        )
                    });
                    Stacked::Tokens(chips, badge)
                }
            }
        })
        .collect()
}

/// A counter's token: its side's colour, a frame inside it when it is
/// selected or face up, its label in the middle.
pub(super) fn draw_token(
    painter: &egui::Painter,
    chip: &Chip,
    counter: &Counter,
    selected: bool,
    rules: &Rules,
    visuals: &egui::Visuals,
) {
    let edge = if selected {
        egui::Stroke::new(2.5, visuals.selection.stroke.color)
    } else if counter.face_up {
        egui::Stroke::new(2.0, colour(&rules.colours.face_up))
    } else {
        egui::Stroke::NONE
    };
    painter.rect(
        chip.rect,
        3.0,
        side_colour(counter.side),
        edge,
        egui::StrokeKind::Inside,
    );
    painter.galley(
        chip.rect.center() - chip.galley.size() / 2.0,
        chip.galley.clone(),
        Color32::WHITE,
    );
}

/// The map's size, numbering, orientation and shift, as the printed map
/// has them: the form of every map system (hidden forces, dummy wings).
pub fn map_settings(ui: &mut egui::Ui, map: &mut HexMap) {
    ui.horizontal(|ui| {
        ui.strong("Map");
        for (name, value) in [("Columns", &mut map.columns), ("Rows", &mut map.rows)] {
            let label = ui.label(name);
            ui.add(egui::DragValue::new(value).range(1..=MAX_SIDE))
                .labelled_by(label.id);
        }
        for (name, value) in [
            ("First column", &mut map.first_column),
            ("First row", &mut map.first_row),
        ] {
            let label = ui.label(name);
            ui.add(egui::DragValue::new(value).range(0..=MAX_SIDE - 1))
                .labelled_by(label.id);
        }
    });
    ui.horizontal(|ui| {
        ui.radio_value(&mut map.orientation, Orientation::FlatTop, "Flat-top hexes");
        ui.radio_value(
            &mut map.orientation,
            Orientation::PointyTop,
            "Pointy-top hexes",
        );
        let lines = match map.orientation {
            Orientation::FlatTop => "columns",
            Orientation::PointyTop => "rows",
        };
        ui.separator();
        ui.radio_value(
            &mut map.shifted,
            Shifted::Odd,
            format!("Odd {lines} shifted"),
        );
        ui.radio_value(
            &mut map.shifted,
            Shifted::Even,
            format!("Even {lines} shifted"),
        );
    });
    ui.weak(format!(
        "Hexes {:02}{:02} to {:02}{:02}, named as printed: column then row",
        map.first_column,
        map.first_row,
        map.first_column + map.columns - 1,
        map.first_row + map.rows - 1
    ));
}

/// A side's colour on every map and list, by the rules.
pub fn side_colour(side: Side) -> Color32 {
    let colours = Rules::default().colours;
    colour(match side {
        Side::South => &colours.south,
        Side::North => &colours.north,
    })
}

/// Column numbers along the top and bottom of the view, row numbers
/// along its left and right, each by its hexes wherever the map is
/// panned: readable (11 px on a plate) at any zoom, every column or
/// row while there is room, every second or fifth when there is not.
/// Each edge's numbers lie on a band of the plate's colour, so no hex's
/// own number shows between them; a number that would meet one already
/// drawn (where a column's and a row's meet at a corner) is left out.
/// The boxes drawn, for a test.
pub(super) fn margins(
    painter: &egui::Painter,
    visuals: &egui::Visuals,
    map: &muster::core::hexmap::HexMap,
    rect: egui::Rect,
    to_screen: &impl Fn((f64, f64)) -> Pos2,
    scale: f32,
) -> Vec<egui::Rect> {
    let font = FontId::monospace(11.0);
    let ink = visuals.text_color();
    let plate = visuals.extreme_bg_color.gamma_multiply(0.9);
    // Room for "99" takes about 16 px; a hex is about `scale` wide.
    let every = [1u32, 2, 5, 10]
        .into_iter()
        .find(|n| scale * *n as f32 >= 18.0)
        .unwrap_or(10);
    let first_row = map.first_row;
    let first_column = map.first_column;
    // Beside the map's own edges, or the view's when it runs past them.
    let (lo, hi) = (to_screen((0.0, 0.0)), to_screen(map.extent()));
    let left = (lo.x - 2.0).max(rect.left() + 22.0);
    let right = (hi.x + 2.0).min(rect.right() - 22.0);
    let top = (lo.y - 2.0).max(rect.top() + 16.0);
    let bottom = (hi.y + 2.0).min(rect.bottom() - 16.0);
    let mut numbers: Vec<(Pos2, String, egui::Align2)> = Vec::new();
    for column in (0..map.columns).filter(|c| c % every == 0) {
        let hex = Hex {
            column: first_column + column,
            row: first_row,
        };
        let x = to_screen(map.centre(hex)).x;
        let text = format!("{:02}", first_column + column);
        numbers.push((Pos2::new(x, top), text.clone(), egui::Align2::CENTER_BOTTOM));
        numbers.push((Pos2::new(x, bottom), text, egui::Align2::CENTER_TOP));
    }
    for row in (0..map.rows).filter(|r| r % every == 0) {
        let hex = Hex {
            column: first_column,
            row: first_row + row,
        };
        let y = to_screen(map.centre(hex)).y;
        let text = format!("{:02}", first_row + row);
        numbers.push((Pos2::new(left, y), text.clone(), egui::Align2::RIGHT_CENTER));
        numbers.push((Pos2::new(right, y), text, egui::Align2::LEFT_CENTER));
    }
    let mut drawn: Vec<(egui::Rect, std::sync::Arc<egui::Galley>)> = Vec::new();
    // Each edge's band: its numbers' strip, from the first to the last.
    let mut bands: Vec<(egui::Align2, egui::Rect)> = Vec::new();
    for (at, text, align) in numbers {
        let galley = painter.layout_no_wrap(text, font.clone(), ink);
        let r = align.anchor_size(at, galley.size() + Vec2::new(4.0, 0.0));
        if !rect.contains_rect(r) || drawn.iter().any(|(d, _)| d.intersects(r)) {
            continue;
        }
        drawn.push((r, galley));
        match bands.iter_mut().find(|(a, _)| *a == align) {
            Some((_, band)) => *band = band.union(r),
            None => bands.push((align, r)),
        }
    }
    for (align, mut band) in bands {
        // Where the map runs past the view, out to the view's edges: no
        // cut hex number shows beyond the numbers.
        let past = [
            lo.x < rect.left(),
            lo.y < rect.top(),
            hi.x > rect.right(),
            hi.y > rect.bottom(),
        ];
        let across = align.y() == egui::Align::Center;
        if past[0] && (!across || align.x() == egui::Align::Max) {
            band.min.x = rect.left();
        }
        if past[2] && (!across || align.x() == egui::Align::Min) {
            band.max.x = rect.right();
        }
        if past[1] && (across || align.y() == egui::Align::Max) {
            band.min.y = rect.top();
        }
        if past[3] && (across || align.y() == egui::Align::Min) {
            band.max.y = rect.bottom();
        }
        painter.rect_filled(band, 2.0, plate);
    }
    for (r, galley) in &drawn {
        painter.galley(r.min + Vec2::new(2.0, 0.0), galley.clone(), ink);
    }
    drawn.into_iter().map(|(r, _)| r).collect()
}
