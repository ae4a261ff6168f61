//! The terrain inventory window: each terrain type's normal and large piece
//! as the group owns them (ellipse, rectangle, rounded rectangle or polygon),
//! sizes in the battle's unit, each checked live against the size ruling of
//! RULES 4. Saved to the user's config directory.

use eframe::egui;
use muster::fog::battle::Settings;
use muster::fog::geometry::{Shape, SizeClass, check_size};
use muster::fog::inventory::Inventory;
use muster::fog::ruleset::Ruleset;

#[derive(Default)]
pub struct InventoryEditor {
    pub open: bool,
    draft: Option<Inventory>,
    /// Each polygon's points as typed, by terrain id and row label.
    polygon_text: std::collections::HashMap<(String, String), String>,
    /// The unit they were typed in (per MU): another unit reads them
    /// afresh from the pieces, never re-reads old text in a new unit.
    factor: f64,
    message: Option<Result<String, String>>,
}

const KINDS: [&str; 4] = ["Ellipse", "Rectangle", "Rounded rectangle", "Polygon"];

fn kind_of(shape: &Shape) -> usize {
    match shape {
        Shape::Ellipse { .. } => 0,
        Shape::Rectangle { .. } => 1,
        Shape::RoundedRectangle { .. } => 2,
        Shape::Polygon { .. } => 3,
    }
}

/// The same piece as another kind, keeping its size.
fn with_kind(shape: &Shape, kind: usize) -> Shape {
    let (w, d) = shape.extent();
    match kind {
        0 => Shape::Ellipse { width: w, depth: d },
        1 => Shape::Rectangle { width: w, depth: d },
        2 => Shape::RoundedRectangle {
            width: w,
            depth: d,
            radius: 1.0,
        },
        _ => Shape::Polygon {
            points: shape
                .outline()
                .iter()
                .step_by(shape.outline().len().div_ceil(8).max(1))
                .copied()
                .collect(),
        },
    }
}

/// A polygon's points as typed, in the unit `factor` gives (per MU).
fn points_text(points: &[[f64; 2]], factor: f64) -> String {
    points
        .iter()
        .map(|p| format!("{:.1},{:.1}", p[0] * factor, p[1] * factor))
        .collect::<Vec<_>>()
        .join("; ")
}

fn parse_points(text: &str, factor: f64) -> Result<Vec<[f64; 2]>, String> {
    text.split(';')
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let xy: Vec<&str> = p.split(',').map(str::trim).collect();
            match xy[..] {
                [x, y] => Ok([
                    x.parse::<f64>()
                        .map_err(|_| format!("\"{x}\" is not a number"))?
                        / factor,
                    y.parse::<f64>()
                        .map_err(|_| format!("\"{y}\" is not a number"))?
                        / factor,
                ]),
                _ => Err(format!("\"{}\" is not a point \"x,y\"", p.trim())),
            }
        })
        .collect()
}

impl InventoryEditor {
    /// Shows the window; returns an inventory the user saved, to use from now on.
    pub fn show(
        &mut self,
        ctx: &egui::Context,
        ruleset: &Ruleset,
        settings: &Settings,
        current: &Inventory,
        path: Option<&std::path::Path>,
    ) -> Option<Inventory> {
        if !self.open {
            self.draft = None;
            return None;
        }
        let mut saved = None;
        let mut open = self.open;
        let draft = self.draft.get_or_insert_with(|| current.clone());
        egui::Window::new("Terrain inventory").open(&mut open).default_size([720.0, 560.0]).default_pos(crate::app::under_menu(ctx, 720.0)).show(ctx, |ui| {
            ui.label(settings.speak("Your physical terrain pieces. A normal piece is at least 6 x 4 MU and no two points more than 12 MU apart; a large one fits a 16 MU circle (rule 4)."));
            let unit = settings.units;
            ui.label(format!("Sizes in {} (the battle's unit).", unit.name()));
            // Shown per MU kept.
            let factor = unit.from_mu(1.0, settings.mu);
            if factor != self.factor {
                self.polygon_text.clear();
                self.factor = factor;
            }
            egui::ScrollArea::vertical().max_height(400.0).show(ui, |ui| {
                egui::Grid::new("inventory").striped(true).num_columns(4).show(ui, |ui| {
                    for (id, pieces) in draft.pieces.iter_mut() {
                        let name = ruleset.terrain_name(id).to_string();
                        // (label, large, shape, index among the further pieces)
                        let mut rows: Vec<(String, bool, &mut Shape, Option<usize>)> =
                            vec![(name.clone(), false, &mut pieces.normal, None)];
                        if let Some(l) = pieces.large.as_mut() {
                            rows.push((format!("{name} (large)"), true, l, None));
                        }
                        for (k, m) in pieces.more.iter_mut().enumerate() {
                            let label = format!(
                                "{name}{} piece {}",
                                if m.large { " (large)" } else { "" },
                                k + 2
                            );
                            rows.push((label, m.large, &mut m.shape, Some(k)));
                        }
                        let mut remove = None;
                        for (label, large, shape, spare) in rows {
                            ui.label(&label);
                            let mut kind = kind_of(shape);
                            egui::ComboBox::from_id_salt((id.as_str(), label.as_str()))
                                .selected_text(KINDS[kind])
                                .show_index(ui, &mut kind, KINDS.len(), |i| KINDS[i])
                                .accessible_name(format!("{label} shape"));
                            if kind != kind_of(shape) {
                                *shape = with_kind(shape, kind);
                            }
                            ui.horizontal(|ui| {
                                edit_size(ui, shape, (factor, unit.symbol()), &label, self.polygon_text.entry((id.clone(), label.clone())).or_default());
                                if let Some(k) = spare
                                    && ui.button("✖").on_hover_text("Remove this piece").accessible_name(format!("Remove {label}")).clicked()
                                {
                                    remove = Some(k);
                                }
                            });
                            let class = if large { SizeClass::Large } else { SizeClass::Normal };
                            match check_size(shape, class, &ruleset.piece_sizes) {
                                Ok(()) => ui.colored_label(egui::Color32::from_rgb(60, 170, 80), format!("✔ {} across", settings.length(shape.span()))),
                                Err(e) => ui.colored_label(ui.visuals().error_fg_color, format!("✖ {}", settings.speak(&e))),
                            };
                            ui.end_row();
                        }
                        if let Some(k) = remove {
                            pieces.more.remove(k);
                            self.polygon_text.retain(|(t, _), _| t != id);
                        }
                        if pieces.more.len() < muster::fog::inventory::MAX_MORE {
                            ui.label("");
                            ui.horizontal(|ui| {
                                let mut classes = vec![(false, pieces.normal.clone(), String::new())];
                                if let Some(l) = &pieces.large {
                                    classes.push((true, l.clone(), "large ".to_string()));
                                }
                                for (large, shape, word) in classes {
                                    if ui
                                        .button(format!("Add another {word}{}", name.to_lowercase()))
                                        .on_hover_text("Another physical piece of this type, of another outline; you choose which you lay when it is placed")
                                        .clicked()
                                    {
                                        pieces.more.push(muster::fog::inventory::Spare { large, shape });
                                    }
                                }
                            });
                            ui.end_row();
                        }
                    }
                });
            });
            ui.horizontal(|ui| {
                if ui.button("Save inventory").clicked() {
                    let result = match path {
                        Some(path) => draft.save(path, ruleset).map(|()| path.display().to_string()).map_err(|e| e.to_string()),
                        None => Err("this system has no config directory".into()),
                    };
                    self.message = Some(result.clone().map(|p| format!("Saved to {p}")));
                    if result.is_ok() {
                        saved = Some(draft.clone());
                    }
                }
                if ui
                    .button("Restore the shipped pieces")
                    .on_hover_text("Replaces this draft with Muster's default pieces; nothing is saved until Save inventory")
                    .clicked()
                {
                    *draft = Inventory::builtin();
                    self.polygon_text.clear();
                }
            });
            match &self.message {
                Some(Ok(m)) => {
                    ui.label(m);
                }
                Some(Err(e)) => {
                    ui.colored_label(ui.visuals().error_fg_color, format!("Not saved: {e}"));
                }
                None => {}
            }
        });
        self.open = open;
        saved
    }
}

/// Width, depth and radius fields, or the polygon's points, in the unit.
fn edit_size(
    ui: &mut egui::Ui,
    shape: &mut Shape,
    (factor, symbol): (f64, &str),
    label: &str,
    text: &mut String,
) {
    let field = |ui: &mut egui::Ui, v: &mut f64, what: &str| {
        let mut shown = *v * factor;
        if ui
            .add(
                egui::DragValue::new(&mut shown)
                    .range(0.1..=100.0)
                    .speed(0.1)
                    .max_decimals(2),
            )
            .accessible_name(format!("{label} {what}"))
            .changed()
        {
            *v = shown / factor;
        }
    };
    match shape {
        Shape::Ellipse { width, depth } | Shape::Rectangle { width, depth } => {
            field(ui, width, "width");
            ui.label("x");
            field(ui, depth, "depth");
        }
        Shape::RoundedRectangle {
            width,
            depth,
            radius,
        } => {
            field(ui, width, "width");
            ui.label("x");
            field(ui, depth, "depth");
            ui.label("r");
            field(ui, radius, "corner radius");
        }
        Shape::Polygon { points } => {
            if text.is_empty() {
                *text = points_text(points, factor);
            }
            let edit = ui.add(
                egui::TextEdit::singleline(text)
                    .desired_width(260.0)
                    .hint_text(format!("x,y; x,y; … in {symbol}")),
            );
            edit.accessible_name(format!("{label} points"));
            match parse_points(text, factor) {
                Ok(p) => *points = p,
                Err(e) => {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
            }
        }
    }
}
