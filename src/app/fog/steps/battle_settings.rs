//! The battle step: title, table size, what the rules' unit of length (MU)
//! is on the table, and the unit lengths are shown and typed in.

use super::StepPanel;
use crate::app::fog::FogCommand;
use eframe::egui;
use muster::fog::battle::{Battle, Command, Settings, TableSize};
use muster::fog::units::{LengthUnit, MuScale};

#[derive(Default)]
pub struct SettingsPanel {
    draft: Option<Settings>,
    /// The settings the draft was taken from, to notice undo and loads.
    seen: Option<Settings>,
}

impl StepPanel for SettingsPanel {
    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        let current = &battle.state().settings;
        if self.seen.as_ref() != Some(current) {
            self.seen = Some(current.clone());
            self.draft = Some(current.clone());
        }
        let draft = self.draft.get_or_insert_with(|| current.clone());
        let fixed = !battle.state().placement.laid.is_empty();
        egui::Grid::new("settings")
            .num_columns(2)
            .spacing([12.0, 8.0])
            .show(ui, |ui| {
                let l = ui.label("Battle title");
                ui.text_edit_singleline(&mut draft.title).labelled_by(l.id);
                ui.end_row();
                // The sizes in the unit chosen (the engine keeps MU).
                let shown = draft.clone();
                let l = ui.label("Table width");
                ui.add_enabled(
                    !fixed,
                    super::length_field(&mut draft.table.width, &shown)
                        .range(TableSize::MIN..=TableSize::MAX)
                        .speed(1.0),
                )
                .labelled_by(l.id)
                .on_disabled_hover_text("Fixed once terrain is on the table (rule 5)");
                ui.end_row();
                let l = ui.label("Table depth");
                ui.add_enabled(
                    !fixed,
                    super::length_field(&mut draft.table.depth, &shown)
                        .range(TableSize::MIN..=TableSize::MAX)
                        .speed(1.0),
                )
                .labelled_by(l.id)
                .on_disabled_hover_text("Fixed once terrain is on the table (rule 5)");
                ui.end_row();
                ui.label("The rules' unit of length is");
                ui.horizontal(|ui| {
                    for mu in MuScale::ALL {
                        ui.radio_value(&mut draft.mu, mu, mu.name());
                    }
                });
                ui.end_row();
                ui.label("Show lengths in");
                ui.horizontal(|ui| {
                    for unit in LengthUnit::ALL {
                        ui.radio_value(&mut draft.units, unit, unit.name());
                    }
                });
                ui.end_row();
            });
        ui.add_space(4.0);
        ui.label(draft.speak(&format!(
            "The table is {} x {} MU on the real table.",
            draft.table.width, draft.table.depth
        )));
        ui.label("Default: a 6' x 4' table, 72 x 48 units of 1 inch. The ruleset is Field of Glory AM v3.1.");
        ui.add_space(6.0);
        let changed = draft != current;
        ui.horizontal(|ui| {
            if ui
                .add_enabled(changed, egui::Button::new("Apply settings"))
                .clicked()
            {
                out.push(FogCommand::Apply(Command::Configure {
                    settings: draft.clone(),
                }));
            }
            if ui
                .add_enabled(changed, egui::Button::new("Revert"))
                .clicked()
            {
                *draft = current.clone();
            }
        });
        ui.add_space(10.0);
        record(ui, battle);
        if ui.button("Go to armies").clicked() {
            out.push(FogCommand::ShowStep(muster::fog::battle::Step::Armies));
        }
    }
}

/// What the players can check of the record: the ruleset and log
/// fingerprints (also printed) and who guards the log with a passphrase.
fn record(ui: &mut egui::Ui, battle: &Battle) {
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.strong("The record");
        let ruleset = battle.ruleset();
        ui.label(format!(
            "Ruleset: {} ({}), fingerprint {}",
            ruleset.name,
            ruleset.id,
            ruleset.fingerprint()
        ))
        .on_hover_text("Compare it with the printout or your opponent's copy: another fingerprint means other rules");
        ui.label(format!(
            "Log: {}, fingerprint {}",
            muster_core::text::count(battle.log().len() as u64, "entry", "entries"),
            battle.log_fingerprint()
        ))
        .on_hover_text("Note it when you stop: an older copy of the file would show an older fingerprint");
        for side in muster::core::side::Side::BOTH {
            let who = battle.state().armies[side]
                .as_ref()
                .map_or(side.to_string(), |a| format!("{side} ({})", a.player));
            let text = if battle.has_passphrase(side) {
                format!("🔒 {who}: passphrase set; their unlock finds any entry changed without it")
            } else if battle.state().armies[side].is_some() {
                format!("⚠ {who}: no passphrase; edits and their secrets are not protected")
            } else {
                format!("{who}: sets their passphrase with their army")
            };
            ui.label(text);
        }
    });
}
