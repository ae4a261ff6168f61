//! Field of Glory's roster library in the window: *File > Rosters* (each
//! roster the group saved, to load into either side's draft; each side's
//! draft to save into it), kept beside the autosaves.

use super::{FogCommand, FogWindow};
use crate::app::status::Status;
use crate::app::system::Handled;
use eframe::egui;
use muster::core::side::Side;
use muster::core::store::StoreError;

impl FogWindow {
    /// *File > Rosters*: each roster of the library, to load into either
    /// side, and each side's army to save into it.
    pub(super) fn rosters_menu(&mut self, ui: &mut egui::Ui, out: &mut Vec<FogCommand>) {
        let Some(library) = &self.library else {
            return;
        };
        let rosters = library.list(self.battle.ruleset());
        let dir = library.dir().display().to_string();
        ui.menu_button("Rosters", |ui| {
            if rosters.is_empty() {
                ui.weak("No saved rosters yet");
            }
            for roster in rosters {
                ui.menu_button(&roster.name, |ui| {
                    for side in Side::BOTH {
                        if ui.button(format!("Load into {side}")).clicked() {
                            out.push(FogCommand::LoadRosterFrom(side, roster.path.clone()));
                        }
                    }
                });
            }
            ui.separator();
            for side in Side::BOTH {
                if ui
                    .button(format!("Save {side}'s army to the library"))
                    .on_hover_text(format!("Kept in {dir}"))
                    .clicked()
                {
                    out.push(FogCommand::SaveRosterToLibrary(side));
                }
            }
        });
    }

    /// Saves `side`'s draft army into the library.
    pub(super) fn save_roster(&self, side: Side) -> Handled {
        let army = self.panels.armies.draft(side).clone();
        let saved = match &self.library {
            Some(library) => library.save(&army, self.battle.ruleset()),
            None => Err(StoreError::new("this system has no data directory")),
        };
        Handled::status(match saved {
            Ok(path) => Status::Info(format!(
                "{} saved to the roster library ({})",
                army.name,
                path.display()
            )),
            Err(e) => Status::Error(format!("Roster not saved: {e}")),
        })
    }
}
