//! The Help menu's window: the keyboard shortcuts, and for each step of the
//! sequence what the players do in the window, with the rule it follows.

use crate::systems::System;
use eframe::egui;
use muster::fog::battle::Step;

/// Shortcuts as the menus show them, in every system.
const SHORTCUTS: [(&str, &str); 6] = [
    ("Ctrl+N", "A new game of the same system"),
    ("Ctrl+O", "Open a saved game"),
    (
        "Ctrl+S",
        "Save the game to its file (Save as the first time)",
    ),
    ("Ctrl+Shift+S", "Save the game as…"),
    ("Ctrl+P", "Export the game as a PDF"),
    ("F1", "This help"),
];

/// Field of Glory's own shortcuts.
const BATTLE_SHORTCUTS: [(&str, &str); 4] = [
    ("Ctrl+Z", "Undo the last choice (never a roll)"),
    ("Ctrl+Shift+Z", "Redo"),
    ("Q / E (Shift: 1°)", "Turn the piece being placed"),
    (
        "Scroll / right-drag / double-click",
        "Zoom the table, pan it, fit it again",
    ),
];

/// What the players do in the window at each step.
fn how_to(step: Step) -> &'static str {
    match step {
        Step::Battle => {
            "Set the title, the table size, what 1 MU is and the unit lengths show in; Apply settings. The record box shows the ruleset's and the log's fingerprints."
        }
        Step::Armies => {
            "Each player enters or loads their army, sets their passphrase (or plays without one) and clicks Confirm at the foot of the panel."
        }
        Step::Initiative => {
            "Each player clicks Roll (the app's dice) or types the die they rolled; Roll for both rolls the two at once. Ties roll again."
        }
        Step::Territory => "The initiative holder clicks one of their opponent's territory types.",
        Step::TerrainSelection => {
            "The compulsory pieces first, then each player's 1 to 5 selections; what the rules forbid shows its reason."
        }
        Step::TerrainPlacement => {
            "Pick the piece, roll for where it goes, drag it inside the shaded zone (Q/E turns it) and place it; the opponent then rolls to adjust it."
        }
        Step::CampsAndFortifications => {
            "Click the table where the camp goes, then place any fortification sections, and finish."
        }
        Step::Ambushes => {
            "Behind the hand-over screen, the owner picks what a marker stands for and clicks where it hides: green is legal, hover says why."
        }
        Step::FlankMarches => {
            "Behind the hand-over screen, tick the battle groups, pick the commander and flank, and seal the march."
        }
        Step::Deployment => {
            "Tick each batch's battle groups as they go down on the real table; then dismounting and commanders."
        }
        Step::WhoMovesFirst => "Each player rolls, as for initiative; the better C-in-C adds 1.",
        Step::Play => {
            "End each turn with the button at the foot of the panel; from the owner's turn 2 roll for each flank march, and reveal it when it arrives."
        }
    }
}

#[derive(Default)]
pub struct HelpWindow {
    pub open: bool,
}

impl HelpWindow {
    /// The help of `system`; Field of Glory's steps with `current` open.
    pub fn show(&mut self, ctx: &egui::Context, system: &System, current: Option<Step>) {
        egui::Window::new("Help")
            .open(&mut self.open)
            .default_width(560.0)
            // Tall enough that the open step's how-to shows under the
            // shortcuts, as the manual's window is.
            .default_height((ctx.content_rect().height() - 120.0).max(240.0))
            .default_pos(crate::app::under_menu(ctx, 560.0))
            .vscroll(true)
            .show(ctx, |ui| {
                ui.heading("Keyboard shortcuts");
                let battle = if current.is_some() {
                    &BATTLE_SHORTCUTS[..]
                } else {
                    &[]
                };
                egui::Grid::new("shortcuts").num_columns(2).show(ui, |ui| {
                    for (keys, what) in SHORTCUTS.iter().chain(battle) {
                        ui.strong(*keys);
                        ui.label(*what);
                        ui.end_row();
                    }
                });
                ui.add_space(8.0);
                ui.heading(system.name);
                ui.label(system.help);
                let Some(current) = current else {
                    return;
                };
                ui.add_space(8.0);
                ui.heading("How to, step by step");
                for step in Step::ALL {
                    let title = format!("{} (rule {})", step.title(), step.rule());
                    egui::CollapsingHeader::new(title)
                        .default_open(step == current)
                        .show(ui, |ui| {
                            ui.label(how_to(step));
                        });
                }
            });
    }
}
