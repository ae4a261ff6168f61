//! The initiative step (RULES 2): each side rolls, by the app or typed from
//! the table; each die, modifier and total is shown; a tie re-rolls.

use super::roll_off::RollOffInput;
use super::{MainAction, StepPanel};
use crate::app::fog::FogCommand;
use eframe::egui;
use muster::fog::battle::{Battle, Command, Step};

#[derive(Default)]
pub struct InitiativePanel {
    pub(super) input: RollOffInput,
    main: Option<MainAction>,
}

impl StepPanel for InitiativePanel {
    fn footer(&mut self, ui: &mut egui::Ui, _battle: &Battle, out: &mut Vec<FogCommand>) {
        MainAction::show(&mut self.main, ui, out);
    }

    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        self.main = None;
        super::help(ui, battle, "initiative");
        let state = battle.state();
        let ruleset = battle.ruleset();
        let init = &state.initiative;
        let mods = |side| {
            state.armies[side]
                .as_ref()
                .map_or(Vec::new(), |a| a.initiative_modifiers(ruleset))
        };
        self.main = self.input.ui(
            ui,
            battle,
            init,
            ruleset.initiative.dice,
            mods,
            |side, dice| Command::RollInitiative { side, dice },
            out,
        );
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
