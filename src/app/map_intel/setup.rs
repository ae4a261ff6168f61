//! *File > New > Hidden forces* (RULES-map-intel A1, A4-A6): the players
//! and their passphrases, the map's size and numbering, the Exercitus and
//! Agent Stratagem markers per side, and each side's units (name, type,
//! Civis or Client), typed or imported from a roster or a scenario file.
//! The scenario is checked as it is edited; the field at fault is named.

use crate::app::bus::AppCommand;
use crate::app::file_dialog::FileAction;
use crate::app::passphrase::{NewPassphrases, player_row};
use crate::app::seating::Cx;
use eframe::egui;
use muster::core::side::{Side, Sides};
use muster::map_intel::scenario::{Scenario, Status, Unit};

pub struct SetupForm {
    pub names: Sides<String>,
    pub passphrases: NewPassphrases,
    pub scenario: Scenario,
}

impl Default for SetupForm {
    fn default() -> SetupForm {
        SetupForm {
            names: Sides::default(),
            passphrases: NewPassphrases::default(),
            scenario: Scenario::example(),
        }
    }
}

/// A unit id not yet used by either side, from the side's initial.
fn fresh_id(scenario: &Scenario, side: Side) -> String {
    let prefix = &side.name()[..1].to_lowercase();
    (1..)
        .map(|n| format!("{prefix}-{n}"))
        .find(|id| scenario.owner_of(id).is_none())
        .expect("some number is free")
}

impl SetupForm {
    fn draw(&mut self, ui: &mut egui::Ui, cx: &Cx) {
        ui.heading("New game: hidden forces");
        ui.label("Forces face down on a hex map, Exercitus markers that may hold nothing: Muster keeps each player's ledger sealed and checks every reveal (RULES-map-intel A).");
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            let label = ui.label("Scenario");
            ui.add(egui::TextEdit::singleline(&mut self.scenario.name).desired_width(320.0))
                .labelled_by(label.id);
            if ui.button("Import scenario…").clicked() {
                cx.bus.app(AppCommand::Dialog(FileAction::ImportScenario));
            }
        });
        ui.add_space(6.0);
        egui::Grid::new("forces-players")
            .num_columns(4)
            .spacing([12.0, 6.0])
            .show(ui, |ui| {
                for side in Side::BOTH {
                    let (name, keys) = (&mut self.names[side], &mut self.passphrases);
                    player_row(ui, cx, side, name, keys, "their counters' contents");
                    ui.end_row();
                }
            });
        ui.add_space(6.0);
        crate::app::hex_grid::map_settings(ui, &mut self.scenario.map);
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            let label = ui.label("Exercitus markers per side (A4)");
            ui.add(egui::DragValue::new(&mut self.scenario.exercitus).range(0..=9))
                .labelled_by(label.id);
            let label = ui.label("Agent Stratagem markers per side (A6)");
            ui.add(egui::DragValue::new(&mut self.scenario.agents).range(0..=20))
                .labelled_by(label.id);
        });
        ui.add_space(6.0);
        ui.columns(2, |cols| {
            for (col, side) in cols.iter_mut().zip(Side::BOTH) {
                self.army_ui(col, side, cx);
            }
        });
    }

    fn army_ui(&mut self, ui: &mut egui::Ui, side: Side, cx: &Cx) {
        ui.horizontal(|ui| {
            let label = ui.label(format!("{side}'s side"));
            ui.add(
                egui::TextEdit::singleline(&mut self.scenario.sides[side].name)
                    .desired_width(140.0),
            )
            .labelled_by(label.id);
            if ui.button(format!("Import {side}'s roster…")).clicked() {
                cx.bus
                    .app(AppCommand::Dialog(FileAction::ImportRoster(side)));
            }
        });
        let mut remove = None;
        egui::Grid::new(("forces-units", side))
            .num_columns(4)
            .striped(true)
            .show(ui, |ui| {
                ui.weak("Unit");
                ui.weak("Type");
                ui.weak("Status");
                ui.end_row();
                for (i, unit) in self.scenario.sides[side].units.iter_mut().enumerate() {
                    let row = format!("{side}'s unit {}", i + 1);
                    ui.add_sized([215.0, 20.0], egui::TextEdit::singleline(&mut unit.name))
                        .on_hover_text(format!("id {}", unit.id))
                        .accessible_name(format!("{row}: name"));
                    ui.add_sized([125.0, 20.0], egui::TextEdit::singleline(&mut unit.kind))
                        .accessible_name(format!("{row}: type"));
                    egui::ComboBox::from_id_salt(("status", side, i))
                        .selected_text(status_name(unit.status))
                        .width(70.0)
                        .show_ui(ui, |ui| {
                            for status in [Status::Regular, Status::Civis, Status::Client] {
                                ui.selectable_value(&mut unit.status, status, status_name(status));
                            }
                        })
                        .response
                        .accessible_name(format!("{row}: status"));
                    if ui
                        .small_button("Remove")
                        .on_hover_text(format!("Remove {}", unit.name))
                        .clicked()
                    {
                        remove = Some(i);
                    }
                    ui.end_row();
                }
            });
        if let Some(i) = remove {
            self.scenario.sides[side].units.remove(i);
        }
        let add = ui.horizontal(|ui| ui.button(format!("Add a unit to {side}")).clicked());
        if add.inner {
            let id = fresh_id(&self.scenario, side);
            self.scenario.sides[side].units.push(Unit {
                id,
                name: String::new(),
                kind: "infantry".into(),
                status: Status::Regular,
            });
        }
    }
}

fn status_name(status: Status) -> &'static str {
    match status {
        Status::Regular => "regular",
        Status::Civis => "Civis",
        Status::Client => "Client",
    }
}

impl crate::app::seated::Form for SetupForm {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &Cx) {
        self.draw(ui, cx);
    }

    fn passphrases(&mut self) -> &mut NewPassphrases {
        &mut self.passphrases
    }

    fn problem(&self) -> Option<String> {
        let (field, message) = self.scenario.check().err()?;
        Some(format!("{field}: {message}"))
    }
}
