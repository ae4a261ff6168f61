//! Draws a system's private screen (`muster::core::screen`) with egui: the
//! same description a player's phone draws, in the system's own types. The
//! shell never draws a private screen's content itself; it hands back the
//! answer of the action clicked, which the system reads as its own.

use eframe::egui;
use egui_plot::{Bar, BarChart, Plot};
use muster::core::screen::{
    Act, Action, Block, Field, FieldName, Form, HexBoard, Input, Pattern, Pick, Reply, Screen,
    Table, write_point,
};
use std::hash::Hash;

/// An item's badge ("new"), drawn as a tag before its title.
fn badge_label(ui: &mut egui::Ui, badge: Option<&str>) {
    if let Some(badge) = badge {
        let text = egui::RichText::new(badge)
            .strong()
            .color(ui.visuals().strong_text_color())
            .background_color(ui.visuals().selection.bg_fill);
        ui.label(text);
    }
}

/// A row of buttons; a refused one is greyed with its reason on hover. An
/// action that asks first shows its question in place of its row, with
/// *Yes* and *No*: only *Yes* sends it. The action asked about is known by
/// its answer (unique on a screen, kept as its JSON), wherever its row is
/// drawn.
fn actions<A: Act>(ui: &mut egui::Ui, actions: &[Action<A>], clicked: &mut Option<A>) {
    let asking = egui::Id::unique("screen-action-asked");
    let json = |a: &Action<A>| serde_json::to_string(&a.command).unwrap_or_default();
    let asked: Option<String> = ui.data(|d| d.get_temp(asking));
    let asked = asked.and_then(|command| {
        actions
            .iter()
            .find(|a| a.confirm.is_some() && json(a) == command)
    });
    if let Some(action) = asked {
        ui.label(egui::RichText::new(action.confirm.as_deref().unwrap_or_default()).strong());
        ui.horizontal(|ui| {
            if crate::app::guard::clicked(&ui.button(format!("Yes: {}", action.label))) {
                *clicked = Some(action.command.clone());
                ui.data_mut(|d| d.remove::<String>(asking));
            }
            if ui.button("No").clicked() {
                ui.data_mut(|d| d.remove::<String>(asking));
            }
        });
        return;
    }
    ui.horizontal_wrapped(|ui| {
        for action in actions {
            // In the button style of the ui it is drawn in (egui's buttons
            // take the body's), so a screen may set its buttons apart.
            let label = egui::RichText::new(&action.label).text_style(egui::TextStyle::Button);
            let button = ui.add_enabled(action.refused.is_none(), egui::Button::new(label));
            let button = match (&action.refused, &action.hint) {
                (Some(why), _) => button.on_disabled_hover_text(why),
                (None, Some(hint)) => button.on_hover_text(hint),
                (None, None) => button,
            };
            if crate::app::guard::clicked(&button) {
                if action.confirm.is_some() {
                    ui.data_mut(|d| d.insert_temp(asking, json(action)));
                } else {
                    *clicked = Some(action.command.clone());
                }
            }
        }
    });
}

/// A typed field's label in a column `width` wide, so that the fields of
/// a form line up.
fn label_column(ui: &mut egui::Ui, text: &str, width: f32) -> egui::Response {
    ui.allocate_ui_with_layout(
        egui::vec2(width, ui.spacing().interact_size.y),
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            ui.set_min_width(width);
            ui.label(text)
        },
    )
    .inner
}

/// A form's field, its answer written into `values`; true when Enter
/// was pressed in it (the form's first action is taken). Typed fields'
/// labels take `labels` of width.
fn field<F: FieldName>(
    ui: &mut egui::Ui,
    field: &Field<F>,
    values: &mut Form<F>,
    labels: f32,
) -> bool {
    let mut entered = false;
    match &field.input {
        Input::Choice {
            options,
            many: false,
            selected,
            resets,
        } => {
            ui.horizontal_wrapped(|ui| {
                ui.label(&field.label);
                for option in options {
                    let on = selected.contains(&option.value);
                    if ui.selectable_label(on, &option.label).clicked() && !on {
                        values.insert(field.name, vec![option.value.clone()]);
                        for other in resets {
                            values.remove(other);
                        }
                    }
                }
            });
        }
        Input::Choice {
            options,
            many: true,
            selected,
            ..
        } => {
            if !field.label.is_empty() {
                ui.label(&field.label);
            }
            for option in options {
                let mut on = selected.contains(&option.value);
                if ui.checkbox(&mut on, &option.label).changed() {
                    let ticked = values.entry(field.name).or_default();
                    ticked.retain(|v| *v != option.value);
                    if on {
                        ticked.push(option.value.clone());
                    }
                }
            }
        }
        Input::Text {
            hint,
            value,
            problem,
        } => {
            ui.horizontal(|ui| {
                let label = label_column(ui, &field.label, labels);
                let mut text = value.clone();
                let edit = ui
                    .add(
                        egui::TextEdit::singleline(&mut text)
                            .hint_text(hint)
                            .desired_width(110.0),
                    )
                    .labelled_by(label.id);
                if edit.changed() {
                    values.insert(field.name, vec![text]);
                }
                entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            });
            if let Some(problem) = problem {
                ui.colored_label(ui.visuals().error_fg_color, problem);
            }
        }
        // What he types stays in `values`, never in the screen; the system
        // puts its own offer (`fill`) there itself.
        Input::Secret { hint, .. } => {
            ui.horizontal(|ui| {
                let label = label_column(ui, &field.label, labels);
                let mut text = values
                    .get(&field.name)
                    .and_then(|v| v.first())
                    .cloned()
                    .unwrap_or_default();
                let edit = ui
                    .add(
                        egui::TextEdit::singleline(&mut text)
                            .password(true)
                            .hint_text(hint)
                            .desired_width(240.0),
                    )
                    .labelled_by(label.id);
                // A passphrase or PIN is what the screen asks: typing goes
                // to the first empty one at once, and again after a refusal
                // emptied it and took the focus.
                if text.is_empty() && ui.memory(|m| m.focused().is_none()) {
                    edit.request_focus();
                }
                if edit.changed() {
                    values.insert(field.name, vec![text]);
                }
                entered = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            });
        }
    }
    entered
}

/// Draws `screen`; `salt` keeps its folded lists and charts apart from
/// another player's, and what he enters goes into `values` (the screen is
/// built again from them next frame). Returns his answer, if he gave one.
pub fn show<A: Act, F: FieldName>(
    ui: &mut egui::Ui,
    screen: &Screen<A, F>,
    salt: impl Hash + Copy + std::fmt::Debug,
    values: &mut Form<F>,
) -> Option<Reply<A, F>> {
    let mut clicked = None;
    for (i, block) in screen.blocks.iter().enumerate() {
        match block {
            Block::Heading { text } => {
                ui.heading(text);
            }
            Block::Text { text } => {
                ui.label(text);
            }
            Block::Strong { text } => {
                ui.strong(text);
            }
            Block::Refusal { text } => {
                ui.colored_label(ui.visuals().error_fg_color, text);
            }
            Block::Actions { actions: a } => actions(ui, a, &mut clicked),
            // An item with nothing to do takes one line, as in a ledger.
            Block::Item {
                title,
                text,
                actions: a,
                badge,
            } if a.is_empty() => {
                ui.horizontal_wrapped(|ui| {
                    badge_label(ui, badge.as_deref());
                    ui.strong(format!("{title}:"));
                    ui.label(text);
                });
            }
            Block::Item {
                title,
                text,
                actions: a,
                badge,
            } => {
                egui::Frame::group(ui.style()).show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    ui.horizontal_wrapped(|ui| {
                        badge_label(ui, badge.as_deref());
                        ui.strong(title);
                    });
                    ui.label(text);
                    actions(ui, a, &mut clicked);
                });
            }
            Block::Chart {
                title,
                x_label,
                y_label,
                bars,
            } => {
                // Each bar's value over it, readable without hovering.
                let values: Vec<egui_plot::Text> = bars
                    .iter()
                    .map(|b| {
                        let at = egui_plot::PlotPoint::new(b.x, b.y + 9.0);
                        // At the body's size: the plot's own small text had
                        // 8 px capitals.
                        let value = egui::RichText::new(format!("{:.0}%", b.y))
                            .text_style(egui::TextStyle::Body);
                        egui_plot::Text::new(title.as_str(), at, value)
                    })
                    .collect();
                let bars = bars.iter().map(|b| Bar::new(b.x, b.y).width(0.7)).collect();
                Plot::new((i, salt))
                    .height(120.0)
                    .include_y(0.0)
                    .include_y(112.0)
                    // Every bar's number under it, not one mark in ten.
                    .custom_x_axes(vec![
                        egui_plot::AxisHints::new_x()
                            .label(x_label)
                            .label_spacing(12.0..=20.0),
                    ])
                    .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
                    .y_axis_label(y_label)
                    .allow_drag(false)
                    .allow_zoom(false)
                    .allow_scroll(false)
                    .show(ui, |plot| {
                        plot.bar_chart(BarChart::new(title, bars));
                        for value in values {
                            plot.text(value);
                        }
                    });
            }
            Block::List { title, items } => {
                egui::CollapsingHeader::new(title)
                    .id_salt((i, salt))
                    .show(ui, |ui| {
                        for item in items {
                            ui.label(item);
                        }
                    });
            }
            // The table itself is drawn where the window keeps the table
            // (`table_overlay`); the panel says what the rules say of the
            // point picked.
            Block::Table { table } => {
                if let Some(Pick {
                    verdict: Some(verdict),
                    legal,
                    ..
                }) = &table.pick
                {
                    let colour = if *legal {
                        egui::Color32::from_rgb(60, 170, 80)
                    } else {
                        ui.visuals().error_fg_color
                    };
                    ui.colored_label(colour, verdict);
                }
                table_key(ui, table);
            }
            // The map is drawn where the window keeps its map (`board`).
            Block::HexMap { .. } => {}
            // A phone's own offer: the laptop prints from Export PDF.
            Block::Printout { .. } => {}
            Block::Form { fields, actions: a } => {
                // The widest typed field's label sets the labels' column.
                let font = egui::TextStyle::Body.resolve(ui.style());
                let labels = fields
                    .iter()
                    .filter(|f| matches!(f.input, Input::Text { .. } | Input::Secret { .. }))
                    .map(|f| {
                        let galley = ui.painter().layout_no_wrap(
                            f.label.clone(),
                            font.clone(),
                            egui::Color32::WHITE,
                        );
                        galley.size().x
                    })
                    .fold(0.0, f32::max);
                let mut entered = false;
                for f in fields {
                    entered |= field(ui, f, values, labels);
                }
                actions(ui, a, &mut clicked);
                if entered && let Some(first) = a.iter().find(|a| a.refused.is_none()) {
                    clicked = Some(first.command.clone());
                }
            }
        }
    }
    clicked.map(|command| Reply {
        command,
        values: values.clone(),
    })
}

/// The screen's hex map, if it has one.
pub fn board<A, F>(screen: &Screen<A, F>) -> Option<&HexBoard> {
    screen.blocks.iter().find_map(|b| match b {
        Block::HexMap { board } => Some(board.as_ref()),
        _ => None,
    })
}

/// The key to a table: what each pattern and colour drawn stands for
/// (the grid's kinds of cell that are on it, then the pieces' colours).
fn table_key<A, F>(ui: &mut egui::Ui, table: &Table<A, F>) {
    let entries = table
        .grid
        .iter()
        .flat_map(|g| g.legend.iter().filter(|l| g.cells.contains(l.key)))
        .map(|l| {
            let [r, g, b, a] = l.colour;
            let colour = egui::Color32::from_rgba_unmultiplied(r, g, b, a.max(120));
            (colour, l.pattern, l.meaning.as_str())
        })
        .chain(table.key.iter().map(|s| {
            let [r, g, b] = s.fill;
            (
                egui::Color32::from_rgb(r, g, b),
                Pattern::Tint,
                s.meaning.as_str(),
            )
        }));
    egui::CollapsingHeader::new("Key to the table")
        .default_open(true)
        .show(ui, |ui| {
            for (colour, pattern, meaning) in entries {
                ui.horizontal(|ui| {
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(16.0, 16.0), egui::Sense::hover());
                    let painter = ui.painter();
                    painter.rect_stroke(
                        rect,
                        1.0,
                        egui::Stroke::new(1.0, ui.visuals().weak_text_color()),
                        egui::StrokeKind::Inside,
                    );
                    match pattern {
                        Pattern::Tint => {
                            painter.rect_filled(rect.shrink(1.0), 1.0, colour);
                        }
                        Pattern::Hatch => {
                            let inside = painter.with_clip_rect(rect);
                            for d in [0.0, 6.0, 12.0, 18.0] {
                                inside.line_segment(
                                    [
                                        rect.left_bottom() + egui::vec2(d - 16.0, 0.0),
                                        rect.left_top() + egui::vec2(d, 0.0),
                                    ],
                                    egui::Stroke::new(1.5, colour),
                                );
                            }
                        }
                        Pattern::Dots => {
                            for (x, y) in [(4.0, 4.0), (12.0, 4.0), (4.0, 12.0), (12.0, 12.0)] {
                                painter.circle_filled(rect.min + egui::vec2(x, y), 1.5, colour);
                            }
                        }
                    }
                    ui.label(meaning);
                });
            }
        });
}

/// The screen's table, if it has one.
pub fn table<A, F>(screen: &Screen<A, F>) -> Option<&Table<A, F>> {
    screen.blocks.iter().find_map(|b| match b {
        Block::Table { table } => Some(table.as_ref()),
        _ => None,
    })
}

/// Draws a screen's table's grid over the window's own picture of the
/// table, under the pieces' names: each cell in its colour or pattern.
/// `to_screen` maps the table's unit to the window.
pub fn table_grid<A, F>(
    painter: &egui::Painter,
    to_screen: &dyn Fn([f64; 2]) -> egui::Pos2,
    table: &Table<A, F>,
) {
    if let Some(grid) = &table.grid {
        let half = grid.cell / 2.0;
        let mut mesh = egui::Mesh::default();
        let mut marks = Vec::new();
        for (k, key) in grid.cells.chars().enumerate() {
            let Some(legend) = grid.legend.iter().find(|l| l.key == key) else {
                continue;
            };
            let [r, g, b, a] = legend.colour;
            let colour = egui::Color32::from_rgba_unmultiplied(r, g, b, a);
            let c = [
                ((k % grid.columns) as f64 + 0.5) * grid.cell,
                ((k / grid.columns) as f64 + 0.5) * grid.cell,
            ];
            let rect = egui::Rect::from_two_pos(
                to_screen([c[0] - half, c[1] - half]),
                to_screen([c[0] + half, c[1] + half]),
            );
            // A pattern for what must never be taken for terrain.
            match legend.pattern {
                Pattern::Tint => mesh.add_colored_rect(rect, colour),
                Pattern::Hatch => marks.push(egui::Shape::line_segment(
                    [rect.left_bottom(), rect.right_top()],
                    egui::Stroke::new(1.5, colour),
                )),
                Pattern::Dots => marks.push(egui::Shape::circle_filled(
                    rect.center(),
                    (rect.width() * 0.18).max(1.0),
                    colour,
                )),
            }
        }
        painter.add(egui::Shape::mesh(mesh));
        painter.extend(marks);
    }
}

/// A screen's table's marks' words, to be placed with the pieces' names
/// and clear of them: where each points to, and its text.
pub fn table_mark_labels<A, F>(
    to_screen: &dyn Fn([f64; 2]) -> egui::Pos2,
    table: &Table<A, F>,
) -> Vec<(egui::Pos2, String)> {
    table
        .marks
        .iter()
        .map(|mark| (to_screen(mark.at), mark.label.clone()))
        .collect()
}

/// Draws a screen's table's marks and the point he picked over the
/// window's table (its grid and the marks' words are drawn with the
/// pieces: `table_grid`, `table_mark_labels`); the meaning of the cell
/// under the pointer; a click picks a point into `values`. `to_screen` and
/// `to_table` map the table's unit to the window and back.
pub fn table_overlay<A, F: FieldName>(
    ui: &egui::Ui,
    response: &egui::Response,
    to_screen: &dyn Fn([f64; 2]) -> egui::Pos2,
    to_table: &dyn Fn(egui::Pos2) -> [f64; 2],
    table: &Table<A, F>,
    values: &mut Form<F>,
) {
    let painter = ui.painter_at(response.rect);
    let ink = ui.visuals().text_color();
    for mark in &table.marks {
        painter.circle_filled(to_screen(mark.at), 4.0, egui::Color32::WHITE);
    }
    let Some(pick) = &table.pick else {
        return;
    };
    if response.clicked()
        && let Some(p) = response.interact_pointer_pos()
    {
        values.insert(pick.field, vec![write_point(to_table(p))]);
    }
    if let Some(at) = pick.at {
        // A black ring inside a white one shows on any ground.
        painter.circle_stroke(
            to_screen(at),
            8.0,
            egui::Stroke::new(3.0, egui::Color32::WHITE),
        );
        painter.circle_stroke(
            to_screen(at),
            6.0,
            egui::Stroke::new(2.0, egui::Color32::BLACK),
        );
    }
    let hovered = response.hover_pos().map(to_table);
    let meaning = hovered
        .filter(|q| (0.0..=table.size[0]).contains(&q[0]) && (0.0..=table.size[1]).contains(&q[1]))
        .and_then(|q| table.grid.as_ref()?.at(q))
        .map(|l| l.meaning.as_str());
    if let Some(text) = meaning {
        let galley = painter.layout(
            text.to_string(),
            egui::FontId::proportional(12.0),
            ink,
            response.rect.width() - 12.0,
        );
        let at = response.rect.left_bottom() + egui::Vec2::new(6.0, -22.0 - galley.size().y);
        painter.galley(at, galley, ink);
    }
}
