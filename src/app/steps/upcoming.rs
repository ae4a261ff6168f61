//! Steps this version of Muster does not run yet, said plainly.

use eframe::egui;
use muster::battle::{Battle, Step, StepStatus};

pub fn ui(ui: &mut egui::Ui, step: Step, battle: &Battle) {
    let status = battle.state().step_status(battle.ruleset(), step);
    if status == StepStatus::Current {
        ui.label(format!(
            "Terrain is on the table. {} is the next step of the sequence; this version of Muster does not run it yet, so continue it at the table. File > Save keeps the battle so far.",
            step.title()
        ));
    } else {
        ui.label("Complete the earlier steps first.");
    }
}
