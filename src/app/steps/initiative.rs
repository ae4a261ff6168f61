//! The initiative step (RULES 2): each side rolls, by the app or typed from
//! the table; each die, modifier and total is shown; a tie re-rolls.

use super::StepPanel;
use crate::app::{AppCommand, dice_input};
use eframe::egui;
use muster::battle::{Battle, Command, Step};
use muster::side::{Side, Sides};

#[derive(Default)]
pub struct InitiativePanel {
    typed: Sides<String>,
    error: Option<String>,
}

impl StepPanel for InitiativePanel {
    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<AppCommand>) {
        super::help(ui, battle, "initiative");
        let state = battle.state();
        let ruleset = battle.ruleset();
        let init = &state.initiative;
        if init.round > 1 && init.winner.is_none() {
            ui.strong(format!(
                "Round {}: the last round was a tie, both roll again.",
                init.round
            ));
        }
        for side in Side::BOTH {
            let Some(army) = &state.armies[side] else {
                ui.label(format!("{side}'s army is not entered yet."));
                continue;
            };
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.strong(format!("{side}: {} ({})", army.player, army.name));
                let mods = army.initiative_modifiers(ruleset);
                if mods.is_empty() {
                    ui.label("No modifiers.");
                }
                for m in &mods {
                    ui.label(format!("{:+} {}", m.value, m.reason));
                }
                match &init.rolls[side] {
                    Some(roll) => {
                        ui.label(
                            egui::RichText::new(format!("Rolled {}", roll.describe())).size(18.0),
                        );
                    }
                    None if init.winner.is_none() => {
                        let count = usize::from(ruleset.initiative.dice);
                        if let Some(dice) = dice_input::show(
                            ui,
                            side.name(),
                            count,
                            &mut self.typed[side],
                            &mut self.error,
                        ) {
                            out.push(AppCommand::Apply(Command::RollInitiative { side, dice }));
                        }
                    }
                    None => {}
                }
            });
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        if let Some(winner) = init.winner {
            ui.add_space(6.0);
            ui.heading(format!("{winner} has the initiative."));
            ui.label(format!(
                "{winner} chooses the territory type from {}'s list.",
                winner.opponent()
            ));
            if ui.button("Go to territory type").clicked() {
                out.push(AppCommand::ShowStep(Step::Territory));
            }
        }
    }
}
