//! The shell's files (docs: "Files"): a game opened, saved, replaced by a
//! new one, its printout made on a worker, and the file dialogs' answers,
//! for every system alike.

use super::bus::{AppCommand, Msg};
use super::file_dialog::{self, DialogOutcome, FileAction};
use super::status::Status;
use super::system::SystemWindow;
use super::{MusterApp, bus, open_in_viewer, systems};
use crate::systems::System;
use eframe::egui;
use muster::core::store;
use std::path::{Path, PathBuf};

/// A file the players chose that could not be opened, and why.
pub struct NotOpened {
    path: PathBuf,
    why: String,
}

impl MusterApp {
    pub(super) fn recent(&self) -> Vec<store::Recent> {
        self.autosaves.as_ref().map_or(Vec::new(), |a| a.recent())
    }

    /// Puts a system's window in place of the game open: the players'
    /// screens stop with the old game, and its seats go with it.
    pub(super) fn replace(
        &mut self,
        window: Box<dyn SystemWindow>,
        kind: &'static System,
        path: Option<PathBuf>,
        message: String,
    ) {
        let before = self.system.game().map(|g| g.id().to_string());
        self.system = window;
        self.kind = kind;
        self.path = path;
        self.status = Some(Status::Info(message));
        let id = self.system.game().map(|g| g.id().to_string());
        self.seating.reset(before.is_some() && before == id);
        self.unlock = Default::default();
        self.not_opened = None;
        self.rejoin.look_up(id.as_deref());
    }

    /// Opens a saved game of any system; the game open is kept if it
    /// fails. The file is not autosaved until it changes, so opening an
    /// older copy never overwrites the autosave of a game further along.
    /// Why it was not opened, in a player's words naming the file: on the
    /// status line over a game under way, or over the whole window when
    /// there is none (nothing is opened in its place).
    pub(super) fn open(&mut self, path: &Path) -> Option<String> {
        // What it is compared with (Muster's autosave of the game) is on
        // the disk first.
        self.writer.flush();
        let opened = systems::of_file(path)
            .and_then(|kind| (kind.window.open)(path, &self.start).map(|window| (kind, window)));
        match opened {
            Ok((kind, window)) => {
                let message = window.game().map_or_else(
                    || format!("Opened {}", self.file_name(path)),
                    |g| self.opened_note(path, g.id(), g.recent(0).entries),
                );
                self.replace(window, kind, Some(path.to_path_buf()), message);
                None
            }
            Err(e) => {
                let e = e.at(path);
                let refused = format!("Not opened: {e}");
                // A game under way keeps the window; a form not yet begun
                // is no game to keep.
                if self.system.game().is_some_and(|g| g.recent(0).entries > 0) {
                    self.status = Some(Status::Error(refused.clone()));
                } else {
                    self.not_opened = Some(NotOpened {
                        path: path.to_path_buf(),
                        why: e.message,
                    });
                }
                Some(refused)
            }
        }
    }

    /// The file that was not opened, over the whole window while no game
    /// is open: its name, what is wrong with it, and the ways on. Whether
    /// it is shown.
    pub(super) fn not_opened_ui(&mut self, ui: &mut egui::Ui) -> bool {
        let Some(refused) = &self.not_opened else {
            return false;
        };
        let mut dismissed = false;
        egui::CentralPanel::default().show(ui, |ui| {
            ui.add_space(ui.available_height() / 6.0);
            ui.vertical_centered(|ui| {
                let name = refused
                    .path
                    .file_name()
                    .map_or(refused.path.display().to_string(), |n| {
                        n.to_string_lossy().into_owned()
                    });
                ui.heading(format!("{name} was not opened"));
                ui.add_space(8.0);
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    muster::core::text::capitalised(&refused.why),
                );
                ui.weak(refused.path.display().to_string());
                ui.add_space(8.0);
                ui.label("Nothing was opened in its place.");
                ui.add_space(8.0);
                if ui.button("Open another file…").clicked() {
                    self.bus.app(AppCommand::Dialog(FileAction::OpenGame));
                }
                if ui
                    .button(format!("Start a new {} instead", self.kind.noun))
                    .clicked()
                {
                    dismissed = true;
                }
            });
        });
        if dismissed {
            self.not_opened = None;
        }
        true
    }

    /// What opening `path` tells the players: whether Muster's autosave of
    /// the same game is further along, so an older copy (perhaps restored
    /// by one player) is not taken for the game they left.
    pub(super) fn opened_note(&self, path: &Path, id: &str, entries: usize) -> String {
        match self
            .recent()
            .into_iter()
            .find(|r| r.id == id && r.entries > entries)
        {
            Some(newer) => format!(
                "Opened {}. Note: Muster's autosave of this game is further along ({} against {entries} in this file). If nobody meant to go back, reopen it from File > Recent games.",
                self.file_name(path),
                muster_core::text::count(newer.entries as u64, "log entry", "log entries"),
            ),
            None => format!("Opened {}", self.file_name(path)),
        }
    }

    /// A file as the status line names it: an autosave as such (its name is
    /// the game's id, which tells a player nothing), any other by its path.
    fn file_name(&self, path: &Path) -> String {
        match &self.autosaves {
            Some(a) if a.holds(path) => "Muster's autosave of this game".to_string(),
            _ => path.display().to_string(),
        }
    }

    pub(super) fn save(&mut self, path: &Path) {
        let saved = match self.system.game() {
            Some(game) => game.save_to(path),
            None => Err(store::StoreError::new("the game has not started yet")),
        };
        match saved {
            Ok(()) => {
                self.path = Some(path.to_path_buf());
                self.status = Some(Status::Info(format!("Saved to {}", path.display())));
            }
            Err(e) => self.status = Some(Status::Error(format!("Not saved: {e}"))),
        }
    }

    pub(super) fn finish_dialog(&mut self, action: FileAction, path: PathBuf) {
        // Muster writes there now or may later (Ctrl+S): a save killed in
        // that folder is cleaned at the next start.
        if let Some(saves) = &self.autosaves
            && let Err(e) = saves.folders().remember(&path)
        {
            self.status = Some(Status::Error(format!("Muster's folder list: {e}")));
        }
        self.status = Some(match action {
            FileAction::OpenGame => {
                self.open(&path);
                return;
            }
            FileAction::SaveGame(_) => return self.save(&path),
            FileAction::NewFromFile { key, .. } => {
                let Some(system) = systems::by_key(key) else {
                    return;
                };
                let Some(from_file) = &system.window.from_file else {
                    return;
                };
                match (from_file.new)(&path, &self.start) {
                    Ok(started) => {
                        return self.replace(started.window, system, None, started.message);
                    }
                    Err(e) => Status::Error(e),
                }
            }
            FileAction::ExportPdf(options) => self.export(&options, &path),
            action => self.system.file_chosen(action, &path),
        });
    }

    /// Prints the game on a worker thread (a PDF takes milliseconds to
    /// make and sync): the status line spins until it is written.
    pub(super) fn export(&mut self, options: &file_dialog::PdfOptions, path: &Path) -> Status {
        if self.exporting {
            return Status::Error("A printout is still being written: wait for it".into());
        }
        let job = match self.system.export_job(options, path) {
            Ok(job) => job,
            Err(e) => return Status::Error(format!("PDF not written: {e}")),
        };
        self.exporting = true;
        let (bus, path, private) = (
            self.bus.clone(),
            path.to_path_buf(),
            options.private.is_some(),
        );
        let spawned = std::thread::Builder::new()
            .name("printout".into())
            .spawn(move || {
                let result = job().map_err(|e| e.to_string());
                bus.app(AppCommand::Exported {
                    path,
                    private,
                    result,
                });
            });
        if let Err(e) = spawned {
            self.exporting = false;
            return Status::Error(format!("PDF not written: {e}"));
        }
        Status::Info("Writing the PDF…".into())
    }

    /// A printout written. The public printout opens in the desktop's
    /// viewer; a player's private page never does (it would open on the
    /// shared screen): the status line says where it was written.
    pub(super) fn exported(
        &mut self,
        path: &Path,
        private: bool,
        result: Result<Vec<PathBuf>, String>,
    ) -> Status {
        self.exporting = false;
        match result {
            Ok(written) => {
                let private = |p: &PathBuf| private && p != path;
                let opened = open_in_viewer(&self.viewer, path);
                let how = if opened {
                    ", opening it in your PDF viewer"
                } else {
                    ""
                };
                let mut said = format!("PDF written to {}{how}", path.display());
                for page in written.iter().filter(|p| p.as_path() != path) {
                    if private(page) {
                        said += &format!(
                            "; the private page to {} (Muster never opens it: its owner opens it themselves)",
                            page.display()
                        );
                    } else {
                        said += &format!(" and {}", page.display());
                    }
                }
                Status::Info(said)
            }
            Err(e) => Status::Error(format!("PDF not written: {e}")),
        }
    }

    /// Where a dialog starts: a game is saved beside its own file, under
    /// its title and its system's ending; a printout beside it as PDF.
    pub(super) fn suggested_path(&self, action: &FileAction) -> Option<PathBuf> {
        let dir = self
            .path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok())?;
        let title = self.system.game().map(|g| g.headline()).unwrap_or_default();
        match action {
            FileAction::OpenGame => self.path.clone(),
            FileAction::SaveGame(_) => {
                Some(self.path.clone().unwrap_or_else(|| {
                    dir.join(systems::file_name(&title, systems::SAVE_EXTENSION))
                }))
            }
            FileAction::ExportPdf(_) => Some(dir.join(systems::file_name(&title, "pdf"))),
            _ => None,
        }
    }

    /// The open file dialog, and what its answer does. A private printout
    /// is written only with its owner's key, asked on his own screen.
    pub(super) fn show_dialog(&mut self, ctx: &egui::Context) {
        let Some(dialog) = &mut self.dialog else {
            return;
        };
        match dialog.show(ctx) {
            DialogOutcome::Open => {}
            DialogOutcome::Cancel => self.dialog = None,
            DialogOutcome::Confirm(path) => {
                let action = self.dialog.take().expect("shown above").into_action();
                match action {
                    FileAction::ExportPdf(options)
                        if let Some(side) = options.private
                            && let Some(lock) = self.system.roster().locks[side].clone() =>
                    {
                        self.bus.seat(
                            side,
                            bus::SeatMsg::AskKey {
                                lock,
                                then: Box::new(move |key| {
                                    let options = file_dialog::PdfOptions {
                                        key: Some(key),
                                        ..options
                                    };
                                    Msg::App(AppCommand::Chosen(
                                        FileAction::ExportPdf(options),
                                        path,
                                    ))
                                }),
                            },
                        );
                    }
                    action => self.bus.app(AppCommand::Chosen(action, path)),
                }
            }
        }
    }
}
