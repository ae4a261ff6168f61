//! One panel per step of the sequence, each a struct owning its UI-only state
//! (drafts, typed dice) behind the small `StepPanel` trait, as in egui's demo
//! app. Panels read the battle and push commands; they never change it.

mod armies;
mod battle_settings;
mod initiative;
mod placement;
mod selection;
mod territory;
mod upcoming;

use super::AppCommand;
use eframe::egui;
use muster::battle::{Battle, Step};

pub use armies::ArmiesPanel;
pub use placement::PlacementPanel;

pub trait StepPanel {
    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<AppCommand>);
}

pub struct Panels {
    pub battle: battle_settings::SettingsPanel,
    pub armies: ArmiesPanel,
    pub initiative: initiative::InitiativePanel,
    pub territory: territory::TerritoryPanel,
    pub selection: selection::SelectionPanel,
    pub placement: PlacementPanel,
}

impl Panels {
    /// Fresh panels; the placement panel draws its pieces from `inventory`.
    pub fn new(inventory: muster::inventory::Inventory) -> Panels {
        Panels {
            battle: Default::default(),
            armies: Default::default(),
            initiative: Default::default(),
            territory: Default::default(),
            selection: Default::default(),
            placement: PlacementPanel::new(inventory),
        }
    }

    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        step: Step,
        battle: &Battle,
        out: &mut Vec<AppCommand>,
    ) {
        ui.heading(format!("{} (rule {})", step.title(), step.rule()));
        ui.add_space(4.0);
        let panel: &mut dyn StepPanel = match step {
            Step::Battle => &mut self.battle,
            Step::Armies => &mut self.armies,
            Step::Initiative => &mut self.initiative,
            Step::Territory => &mut self.territory,
            Step::TerrainSelection => &mut self.selection,
            Step::TerrainPlacement => &mut self.placement,
            _ => {
                upcoming::ui(ui, step, battle);
                return;
            }
        };
        panel.ui(ui, battle, out);
    }
}

/// The ruleset's help text for a step, shown under its heading.
fn help(ui: &mut egui::Ui, battle: &Battle, key: &str) {
    let text = battle.ruleset().help(key);
    if !text.is_empty() {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.label(egui::RichText::new(text).italics());
        });
        ui.add_space(6.0);
    }
}
