//! The territory step (RULES 3): the initiative holder picks from his
//! opponent's allowed list; every other type is shown with why it is out.

use super::StepPanel;
use crate::app::fog::FogCommand;
use eframe::egui;
use muster::fog::battle::{Battle, Command, Phase, Step, territory_choices};

#[derive(Default)]
pub struct TerritoryPanel;

impl StepPanel for TerritoryPanel {
    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        super::help(ui, battle, "territory");
        let state = battle.state();
        let ruleset = battle.ruleset();
        if let Some(t) = &state.territory {
            ui.heading(format!("Territory: {}", ruleset.territory_name(t)));
            if ui.button("Go to terrain selection").clicked() {
                out.push(FogCommand::ShowStep(Step::TerrainSelection));
            }
            return;
        }
        let Phase::Territory(holder) = battle.phase() else {
            ui.label("The territory type is chosen once the initiative is decided.");
            return;
        };
        let other = holder.opponent();
        ui.label(format!(
            "{holder} chooses from {other}'s allowed territory types:"
        ));
        let allowed = territory_choices(state, holder);
        for (id, t) in &ruleset.territories {
            let ok = allowed.contains(id);
            ui.horizontal(|ui| {
                let button = egui::Button::new(format!("Choose {}", t.name));
                let response = ui.add_enabled(ok, button);
                if response.clicked() {
                    out.push(FogCommand::Apply(Command::ChooseTerritory {
                        side: holder,
                        territory: id.clone(),
                    }));
                }
                if !ok {
                    ui.weak(format!("not in {other}'s list"));
                }
            });
        }
    }
}
