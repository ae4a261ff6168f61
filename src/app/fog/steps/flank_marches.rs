//! Flank marches (RULES 8.4): each player in turn records his in private,
//! on his own seat's screen (`muster_fog::seat`): the battle groups of a
//! march, the commander leading it and the flank, sealed; both see only its
//! commitment code. When he is done, Muster states how many of his battle
//! groups stay off the table (the table shows as much).

use super::StepPanel;
use super::ambushes::waiting;
use crate::app::fog::FogCommand;
use eframe::egui;
use muster::core::side::Sides;
use muster::fog::battle::{Battle, DeploymentTurn, Phase};

#[derive(Default)]
pub struct FlankMarchesPanel {
    /// Who is on his phone: his marches are recorded there.
    /// Where each player's screens are, if not on this laptop.
    pub away: Sides<Option<crate::app::seating::life::Away>>,
}

impl StepPanel for FlankMarchesPanel {
    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        super::help(ui, battle, "flank_marches");
        match battle.phase() {
            Phase::Deployment(DeploymentTurn::FlankMarches(side)) => {
                waiting(
                    ui,
                    battle,
                    &self.away,
                    side,
                    "records their flank marches",
                    out,
                );
            }
            _ => {
                ui.label("Flank marches are recorded after ambushes.");
            }
        }
        ui.add_space(6.0);
        for m in &battle.state().deployment.flank_marches {
            ui.label(format!(
                "{}: a flank march, sealed {}",
                m.side,
                m.sealed.code()
            ));
        }
    }
}
