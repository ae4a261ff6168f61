//! The file dialog: a typed path, with "Browse…" for the system's native
//! chooser (rfd, through the XDG desktop portal on Linux). The native chooser
//! runs on its own thread so that a desktop with no portal, which may never
//! answer, cannot freeze the window: the typed path always works.

use eframe::egui;
use muster::core::side::{Side, Sides};
use muster::fog::army::Army;
use muster::fog::export::Paper;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// What the chosen file is for.
pub enum FileAction {
    /// Open a saved game of any system.
    OpenGame,
    /// Save the game open, a game of this kind ("battle").
    SaveGame(&'static str),
    /// Start a new game of a system from a file (a battle under a ruleset
    /// file): the system's key and its noun ("battle").
    NewFromFile {
        key: &'static str,
        noun: &'static str,
    },
    LoadRoster(Side),
    SaveRoster(Army),
    /// Print the table layout (or a deck game's summary).
    ExportPdf(PdfOptions),
    /// A card set for a new action-deck game.
    ImportCardSet,
    /// A scenario for a new hidden-forces game.
    ImportScenario,
    /// A side's units for a new hidden-forces game.
    ImportRoster(Side),
    /// A scan or photo of the printed map, to lay under a hex map.
    MapImage,
}

/// The printout's paper, and whether a player adds his private page.
#[derive(Clone, Default)]
pub struct PdfOptions {
    /// What the game's printout can hold beyond the public pages: a
    /// player's private page, the pieces' templates. The dialog offers only
    /// these, so that no choice is silently ignored.
    pub offers: Offers,
    pub paper: Paper,
    /// The player whose sealed records get a page of their own.
    pub private: Option<Side>,
    /// His key for that page only, worked out on his own screen after the
    /// dialog (never typed here, beside everyone).
    pub key: Option<muster::core::intel::PlayerKey>,
    /// Also every piece's template at 1:1 on tiled pages.
    pub templates: bool,
}

/// What opens the chosen player's records for his private page: the key
/// his own screen worked out, or nothing for a player without a lock.
pub fn opener(options: &PdfOptions) -> muster::core::intel::Opener<'_> {
    match &options.key {
        Some(key) => key.into(),
        None => "".into(),
    }
}

#[derive(Clone, Copy, Default)]
pub struct Offers {
    pub private: bool,
    pub templates: bool,
    /// The players whose seat is on their phone: their private page goes
    /// there (their phone's "Send me my private printout"), never to a
    /// file on the laptop.
    pub on_phone: Sides<bool>,
}

impl FileAction {
    fn title(&self) -> String {
        match self {
            FileAction::OpenGame => "Open a saved game".into(),
            FileAction::NewFromFile { noun, .. } => format!("New {noun} with a ruleset file"),
            FileAction::SaveGame(noun) => format!("Save {noun}"),
            FileAction::LoadRoster(side) => format!("Load roster into {side}"),
            FileAction::SaveRoster(army) => format!("Save roster of {}", army.name),
            FileAction::ExportPdf(_) => "Export as PDF".into(),
            FileAction::ImportCardSet => "Import a card set".into(),
            FileAction::ImportScenario => "Import a hidden-forces scenario".into(),
            FileAction::ImportRoster(side) => format!("Import {side}'s units from a roster"),
            FileAction::MapImage => "Lay a map image (PNG or JPEG) under the hex map".into(),
        }
    }

    fn saves(&self) -> bool {
        matches!(
            self,
            FileAction::SaveGame(_) | FileAction::SaveRoster(_) | FileAction::ExportPdf(_)
        )
    }

    fn default_name(&self) -> String {
        match self {
            FileAction::SaveRoster(army) if !army.name.trim().is_empty() => {
                format!(
                    "{}.roster.json",
                    army.name.trim().to_lowercase().replace(' ', "_")
                )
            }
            FileAction::SaveRoster(_) | FileAction::LoadRoster(_) => "army.roster.json".into(),
            FileAction::NewFromFile { .. } => "terrain_tables/fog_am_v3.json".into(),
            FileAction::ImportCardSet => "terrain_tables/deck_example.json".into(),
            FileAction::ImportScenario => "terrain_tables/hidden_forces_example.json".into(),
            FileAction::ImportRoster(_) => "forces.roster.json".into(),
            FileAction::MapImage => "map.png".into(),
            FileAction::ExportPdf(_) => "game.pdf".into(),
            FileAction::OpenGame | FileAction::SaveGame(_) => {
                format!("game.{}", muster::core::store::SAVE_EXTENSION)
            }
        }
    }
}

pub enum DialogOutcome {
    Open,
    Cancel,
    Confirm(PathBuf),
}

type Picked = Arc<Mutex<Option<Option<PathBuf>>>>;

pub struct FileDialog {
    action: FileAction,
    path: String,
    browsing: Option<Picked>,
    note: Option<String>,
}

impl FileDialog {
    pub fn new(action: FileAction, suggested: Option<PathBuf>) -> FileDialog {
        let path = suggested.unwrap_or_else(|| {
            let dir = std::env::current_dir().unwrap_or_default();
            dir.join(action.default_name())
        });
        FileDialog {
            action,
            path: path.display().to_string(),
            browsing: None,
            note: None,
        }
    }

    pub fn into_action(self) -> FileAction {
        self.action
    }

    fn browse(&mut self, ctx: &egui::Context) {
        let picked: Picked = Arc::new(Mutex::new(None));
        let slot = picked.clone();
        let ctx = ctx.clone();
        let saves = self.action.saves();
        let current = PathBuf::from(&self.path);
        let name = self.action.default_name();
        std::thread::spawn(move || {
            let extensions: (&str, &[&str]) = if name.ends_with(".pdf") {
                ("PDF", &["pdf"])
            } else if name.ends_with(muster::core::store::SAVE_EXTENSION) {
                // A game: Muster's own saves, and the older JSON ones.
                (
                    "Muster games",
                    &[muster::core::store::SAVE_EXTENSION, "json"],
                )
            } else {
                ("Muster JSON", &["json"])
            };
            let mut dialog = rfd::FileDialog::new().add_filter(extensions.0, extensions.1);
            if let Some(dir) = current.parent().filter(|d| d.is_dir()) {
                dialog = dialog.set_directory(dir);
            }
            let chosen = if saves {
                dialog.set_file_name(name).save_file()
            } else {
                dialog.pick_file()
            };
            if let Ok(mut slot) = slot.lock() {
                *slot = Some(chosen);
            }
            ctx.request_repaint();
        });
        self.browsing = Some(picked);
    }

    pub fn show(&mut self, ctx: &egui::Context) -> DialogOutcome {
        if let Some(picked) = &self.browsing {
            let answer = picked.lock().ok().and_then(|mut slot| slot.take());
            if let Some(answer) = answer {
                self.browsing = None;
                match answer {
                    Some(path) => return DialogOutcome::Confirm(path),
                    None => {
                        self.note = Some(
                            "No file was chosen (or this desktop has no file chooser): type a path"
                                .into(),
                        );
                    }
                }
            }
        }
        let mut outcome = DialogOutcome::Open;
        let modal = egui::Modal::new(egui::Id::unique("file_dialog")).show(ctx, |ui| {
            ui.set_width(560.0);
            ui.heading(self.action.title());
            ui.add_space(6.0);
            let label = ui.label("File path");
            let edit = ui.add(
                egui::TextEdit::singleline(&mut self.path)
                    .desired_width(f32::INFINITY)
                    .hint_text("/path/to/file.json"),
            );
            edit.labelled_by(label.id);
            if let FileAction::ExportPdf(options) = &mut self.action {
                ui.horizontal(|ui| {
                    ui.label("Paper (landscape):");
                    ui.radio_value(&mut options.paper, Paper::A4, "A4");
                    ui.radio_value(&mut options.paper, Paper::Letter, "Letter");
                });
                if options.offers.templates {
                    ui.checkbox(&mut options.templates, "Also print piece templates at 1:1 on tiled pages")
                        .on_hover_text("Each piece's outline at its true size, cut into pages that join edge to edge: a file of its own beside the printout");
                }
                if options.offers.private {
                    ui.horizontal(|ui| {
                        ui.label("Private page of sealed records:");
                        ui.radio_value(&mut options.private, None, "None");
                        for (side, label) in [(Side::South, "South's"), (Side::North, "North's")] {
                            let phone = options.offers.on_phone[side];
                            ui.add_enabled_ui(!phone, |ui| {
                                ui.radio_value(&mut options.private, Some(side), label)
                                    .on_disabled_hover_text(format!(
                                        "{side}'s seat is on their phone: their private printout goes there (Send me my private printout), never to a file here"
                                    ));
                            });
                        }
                    });
                }
                if let Some(side) = options.private.filter(|_| options.offers.private) {
                    ui.label(format!(
                        "After Save, {side} opens their page on a screen of their own: this PDF will show their secrets"
                    ));
                }
            }
            if let Some(note) = &self.note {
                ui.label(note);
            }
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                let verb = if self.action.saves() { "Save" } else { "Open" };
                let typed = !self.path.trim().is_empty();
                let enter = ui.input(|i| i.key_pressed(egui::Key::Enter));
                if ui.add_enabled(typed, egui::Button::new(verb)).clicked() || (typed && enter) {
                    outcome = DialogOutcome::Confirm(PathBuf::from(self.path.trim()));
                }
                let browsing = self.browsing.is_some();
                let browse = egui::Button::new(if browsing { "Browsing…" } else { "Browse…" });
                if ui.add_enabled(!browsing, browse).clicked() {
                    self.browse(ui.ctx());
                }
                if ui.button("Cancel").clicked() {
                    outcome = DialogOutcome::Cancel;
                }
            });
        });
        if modal.should_close() && matches!(outcome, DialogOutcome::Open) {
            outcome = DialogOutcome::Cancel;
        }
        outcome
    }
}
