//! Steps this version of Muster does not run yet, said plainly.

use eframe::egui;
use muster::battle::{Battle, Step, StepStatus};

pub fn ui(ui: &mut egui::Ui, step: Step, battle: &Battle) {
    let status = battle.state().step_status(battle.ruleset(), step);
    if status == StepStatus::Current {
        ui.label(format!(
            "The table is set. {}: this version of Muster does not track the game turns yet (flank-march arrival and straggling come next), so play on at the table. File > Save keeps the battle; File > Export PDF prints the layout.",
            step.title()
        ));
    } else {
        ui.label("Complete the earlier steps first.");
    }
}
