//! The initiative step (RULES 2): each side rolls, by the app or typed from
//! the table; each die, modifier and total is shown; a tie re-rolls.

use super::StepPanel;
use super::roll_off::RollOffInput;
use crate::app::fog::FogCommand;
use eframe::egui;
use muster::fog::battle::{Battle, Command, Step};

#[derive(Default)]
pub struct InitiativePanel {
    input: RollOffInput,
}

impl StepPanel for InitiativePanel {
    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        super::help(ui, battle, "initiative");
        let state = battle.state();
        let ruleset = battle.ruleset();
        let init = &state.initiative;
        let mods = |side| {
            state.armies[side]
                .as_ref()
                .map_or(Vec::new(), |a| a.initiative_modifiers(ruleset))
        };
        for (side, dice) in self
            .input
            .ui(ui, battle, init, ruleset.initiative.dice, mods)
        {
            out.push(FogCommand::Apply(Command::RollInitiative { side, dice }));
        }
        if let Some(winner) = init.winner {
            ui.add_space(6.0);
            ui.heading(format!("{winner} has the initiative."));
            ui.label(format!(
                "{winner} chooses the territory type from {}'s list.",
                winner.opponent()
            ));
            if ui.button("Go to territory type").clicked() {
                out.push(FogCommand::ShowStep(Step::Territory));
            }
        }
    }
}
