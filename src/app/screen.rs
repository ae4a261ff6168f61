//! Draws a system's private screen (`muster::core::screen`) with egui: the
//! same description a player's phone draws. The shell never draws a
//! private screen's content itself; it hands back the command of the
//! action clicked, which the system reads as its own command.

use eframe::egui;
use egui_plot::{Bar, BarChart, Plot};
use muster::core::screen::{Action, Block, Field, Input, Reply, Screen, Values};
use serde_json::Value;
use std::hash::Hash;

/// A row of buttons; a refused one is greyed with its reason on hover.
fn actions(ui: &mut egui::Ui, actions: &[Action], clicked: &mut Option<Value>) {
    ui.horizontal_wrapped(|ui| {
        for action in actions {
            let button = ui.add_enabled(action.refused.is_none(), egui::Button::new(&action.label));
            let button = match (&action.refused, &action.hint) {
                (Some(why), _) => button.on_disabled_hover_text(why),
                (None, Some(hint)) => button.on_hover_text(hint),
                (None, None) => button,
            };
            if button.clicked() {
                *clicked = Some(action.command.clone());
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
fn field(ui: &mut egui::Ui, field: &Field, values: &mut Values, labels: f32) -> bool {
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
                        values.insert(field.name.clone(), vec![option.value.clone()]);
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
                    let ticked = values.entry(field.name.clone()).or_default();
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
                    values.insert(field.name.clone(), vec![text]);
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
                if edit.changed() {
                    values.insert(field.name.clone(), vec![text]);
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
pub fn show(
    ui: &mut egui::Ui,
    screen: &Screen,
    salt: impl Hash + Copy + std::fmt::Debug,
    values: &mut Values,
) -> Option<Reply> {
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
            } if a.is_empty() => {
                ui.horizontal_wrapped(|ui| {
                    ui.strong(format!("{title}:"));
                    ui.label(text);
                });
            }
            Block::Item {
                title,
                text,
                actions: a,
            } => {
                egui::Frame::group(ui.style()).show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    ui.strong(title);
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
                let bars = bars.iter().map(|b| Bar::new(b.x, b.y).width(0.7)).collect();
                Plot::new((i, salt))
                    .height(120.0)
                    .include_y(0.0)
                    .include_y(100.0)
                    .x_axis_label(x_label)
                    .y_axis_label(y_label)
                    .allow_drag(false)
                    .allow_zoom(false)
                    .allow_scroll(false)
                    .show(ui, |plot| plot.bar_chart(BarChart::new(title, bars)));
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
