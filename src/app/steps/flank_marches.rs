//! Flank marches (RULES 8.4): each player in turn, the player without
//! initiative first, says he is done. Recording a march (which battle
//! groups, which commander, which flank) needs it sealed under its owner's
//! passphrase, which this version of Muster does not have yet; until then
//! a march is written down at the table, and its battle groups are
//! deployed like the rest.

use super::StepPanel;
use crate::app::AppCommand;
use eframe::egui;
use muster::battle::{Battle, Command, DeploymentTurn, Finished, Phase};

#[derive(Default)]
pub struct FlankMarchesPanel;

impl StepPanel for FlankMarchesPanel {
    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<AppCommand>) {
        super::help(ui, battle, "flank_marches");
        let Phase::Deployment(DeploymentTurn::FlankMarches(side)) = battle.phase() else {
            ui.label("Flank marches are recorded after ambushes.");
            return;
        };
        ui.label(
            "Muster cannot yet keep a flank march secret in the file, so it records none: write any march down at the table.",
        );
        if ui
            .button(format!("{side}: done with flank marches"))
            .clicked()
        {
            out.push(AppCommand::Apply(Command::Finish {
                side,
                step: Finished::FlankMarches,
            }));
        }
    }
}
