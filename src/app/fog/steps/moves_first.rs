//! Who moves first (RULES 9): rolled like initiative, the better C-in-C
//! adding the bonus; ties re-roll.

use super::roll_off::RollOffInput;
use super::{MainAction, StepPanel};
use crate::app::fog::FogCommand;
use eframe::egui;
use muster::fog::battle::{Battle, Command, Phase, moves_first_modifiers};

#[derive(Default)]
pub struct MovesFirstPanel {
    pub(super) input: RollOffInput,
    main: Option<MainAction>,
}

impl StepPanel for MovesFirstPanel {
    fn footer(&mut self, ui: &mut egui::Ui, _battle: &Battle, out: &mut Vec<FogCommand>) {
        MainAction::show(&mut self.main, ui, out);
    }

    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        self.main = None;
        super::help(ui, battle, "moves_first");
        let state = battle.state();
        let ruleset = battle.ruleset();
        if !matches!(battle.phase(), Phase::MovesFirst | Phase::Play) {
            ui.label("Who moves first is rolled once deployment is complete.");
            return;
        }
        let contest = &state.moves_first;
        let mods = |side| moves_first_modifiers(state, ruleset, side);
        self.main = self.input.ui(
            ui,
            battle,
            contest,
            ruleset.who_moves_first.dice,
            mods,
            |side, dice| Command::RollMovesFirst { side, dice },
            out,
        );
        if let Some(winner) = contest.winner {
            ui.add_space(6.0);
            ui.heading(format!("{winner} moves first."));
            ui.label("The table is set: File > Export PDF prints the layout.");
        }
    }
}
