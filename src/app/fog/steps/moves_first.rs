//! Who moves first (RULES 9): rolled like initiative, the better C-in-C
//! adding the bonus; ties re-roll.

use super::StepPanel;
use super::roll_off::RollOffInput;
use crate::app::fog::FogCommand;
use eframe::egui;
use muster::fog::battle::{Battle, Command, Phase, moves_first_modifiers};

#[derive(Default)]
pub struct MovesFirstPanel {
    input: RollOffInput,
}

impl StepPanel for MovesFirstPanel {
    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        super::help(ui, battle, "moves_first");
        let state = battle.state();
        let ruleset = battle.ruleset();
        if !matches!(battle.phase(), Phase::MovesFirst | Phase::Play) {
            ui.label("Who moves first is rolled once deployment is complete.");
            return;
        }
        let contest = &state.moves_first;
        let mods = |side| moves_first_modifiers(state, ruleset, side);
        for (side, dice) in self
            .input
            .ui(ui, battle, contest, ruleset.who_moves_first.dice, mods)
        {
            out.push(FogCommand::Apply(Command::RollMovesFirst { side, dice }));
        }
        if let Some(winner) = contest.winner {
            ui.add_space(6.0);
            ui.heading(format!("{winner} moves first."));
            ui.label("The table is set: File > Export PDF prints the layout.");
        }
    }
}
