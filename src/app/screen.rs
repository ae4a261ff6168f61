//! Draws a system's private screen (`muster::core::screen`) with egui: the
//! same description a player's phone draws. The shell never draws a
//! private screen's content itself; it hands back the command of the
//! action clicked, which the system reads as its own command.

use eframe::egui;
use egui_plot::{Bar, BarChart, Plot};
use muster::core::screen::{Action, Block, Screen};
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

/// Draws `screen`; `salt` keeps its folded lists and charts apart from
/// another player's. Returns the command of the action clicked.
pub fn show(
    ui: &mut egui::Ui,
    screen: &Screen,
    salt: impl Hash + Copy + std::fmt::Debug,
) -> Option<Value> {
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
            Block::Actions { actions: a } => actions(ui, a, &mut clicked),
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
        }
    }
    clicked
}
