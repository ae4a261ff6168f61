//! The shell's menus, shortcuts and status line (docs: the design's "main
//! window"): File, Edit, View and Help for every system, each system's own
//! entries added where it says, keyboard shortcuts, and the one-line status
//! with the read-only reminder of a reopened game.

use super::bus::AppCommand;
use super::file_dialog::FileAction;
use super::seating::Cx;
use super::status::Status;
use super::system::Menu;
use super::{MusterApp, systems, unlock};
use eframe::egui;
use egui::{Key, KeyboardShortcut, Modifiers};

impl MusterApp {
    pub(super) fn shortcuts(&mut self, ctx: &egui::Context) {
        let cmd = |key| KeyboardShortcut::new(Modifiers::COMMAND, key);
        let cmd_shift = |key| KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, key);
        ctx.input_mut(|i| {
            // The shifted ones first: Ctrl+Shift+Z also matches Ctrl+Z.
            if i.consume_shortcut(&cmd_shift(Key::Z)) {
                if self.system.redoable() {
                    self.bus.app(AppCommand::Redo);
                }
            } else if i.consume_shortcut(&cmd(Key::Z)) && self.system.undoable().is_ok() {
                self.bus.app(AppCommand::Undo);
            }
            if i.consume_shortcut(&cmd_shift(Key::S)) {
                self.bus
                    .app(AppCommand::Dialog(FileAction::SaveGame(self.kind.noun)));
            } else if i.consume_shortcut(&cmd(Key::S)) {
                self.bus.app(AppCommand::Save);
            }
            if i.consume_shortcut(&cmd(Key::O)) {
                self.bus.app(AppCommand::Dialog(FileAction::OpenGame));
            }
            if i.consume_shortcut(&cmd(Key::P)) {
                self.bus.app(AppCommand::Dialog(FileAction::ExportPdf(
                    self.pdf_options(),
                )));
            }
            if i.consume_shortcut(&cmd(Key::N)) {
                self.bus.app(AppCommand::NewGame(self.kind.key));
            }
            if i.consume_key(Modifiers::NONE, Key::F1) {
                self.help.open = !self.help.open;
            }
        });
    }

    pub(super) fn menu_bar(&mut self, ui: &mut egui::Ui, cx: &Cx) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                ui.menu_button("New", |ui| {
                    for system in &systems::ALL {
                        let mut button = egui::Button::new(system.name);
                        if std::ptr::eq(system, self.kind) {
                            button = button.shortcut_text("Ctrl+N");
                        }
                        if ui.add(button).on_hover_text(system.about).clicked() {
                            self.bus.app(AppCommand::NewGame(system.key));
                        }
                        if let Some(from_file) = &system.window.from_file
                            && ui
                                .button(from_file.label)
                                .on_hover_text(from_file.about)
                                .clicked()
                        {
                            self.bus.app(AppCommand::Dialog(FileAction::NewFromFile {
                                key: system.key,
                                noun: system.noun,
                            }));
                        }
                    }
                });
                if ui
                    .add(egui::Button::new("Open…").shortcut_text("Ctrl+O"))
                    .clicked()
                {
                    self.bus.app(AppCommand::Dialog(FileAction::OpenGame));
                }
                if ui
                    .add(egui::Button::new("Save").shortcut_text("Ctrl+S"))
                    .clicked()
                {
                    self.bus.app(AppCommand::Save);
                }
                if ui
                    .add(egui::Button::new("Save as…").shortcut_text("Ctrl+Shift+S"))
                    .clicked()
                {
                    self.bus
                        .app(AppCommand::Dialog(FileAction::SaveGame(self.kind.noun)));
                }
                let export = egui::Button::new("Export PDF…").shortcut_text("Ctrl+P");
                if ui.add(export).clicked() {
                    self.bus.app(AppCommand::Dialog(FileAction::ExportPdf(
                        self.pdf_options(),
                    )));
                }
                if ui
                    .button("Players' screens…")
                    .on_hover_text(
                        "Each player pairs their phone: their secrets show there, never here",
                    )
                    .clicked()
                {
                    self.players.open = true;
                }
                if ui
                    .button("Invite a remote player…")
                    .on_hover_text("A player plays from their own Muster on another machine, by a ticket you send them")
                    .clicked()
                {
                    self.invite.open = true;
                }
                if ui
                    .button("Join a game…")
                    .on_hover_text("Play from this machine in a game another player's Muster hosts: paste their ticket")
                    .clicked()
                {
                    self.join.open = true;
                }
                self.system.menu(Menu::File, ui, cx);
                let recent = self.recent();
                ui.add_enabled_ui(!recent.is_empty(), |ui| {
                    ui.menu_button("Recent games", |ui| {
                        for battle in recent {
                            let button = egui::Button::new(battle.describe())
                                .wrap_mode(egui::TextWrapMode::Extend);
                            if ui.add(button).clicked() {
                                self.bus.app(AppCommand::OpenRecent(battle.id));
                            }
                        }
                    });
                });
                ui.separator();
                if ui.button("Quit").clicked() {
                    // A remote game's other player waits on this Muster:
                    // asked first, a Quit that slipped is not his loss.
                    if self.system.remote().is_some() {
                        self.quit_asked = true;
                    } else {
                        ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                    }
                }
            });
            ui.menu_button("Edit", |ui| {
                let what = self.system.undoable();
                let label = match &what {
                    Ok(w) if !w.is_empty() => format!("Undo: {w}"),
                    _ => "Undo".to_string(),
                };
                let undo = egui::Button::new(label).shortcut_text("Ctrl+Z");
                let undo = ui.add_enabled(what.is_ok(), undo);
                let undo = match &what {
                    Err(why) => undo.on_disabled_hover_text(why),
                    Ok(_) => undo,
                };
                if undo.clicked() {
                    self.bus.app(AppCommand::Undo);
                }
                let redo = egui::Button::new("Redo").shortcut_text("Ctrl+Shift+Z");
                if self.system.redoable() && ui.add(redo).clicked() {
                    self.bus.app(AppCommand::Redo);
                }
                self.system.menu(Menu::Edit, ui, cx);
            });
            ui.menu_button("View", |ui| {
                self.system.menu(Menu::View, ui, cx);
                egui::widgets::global_theme_preference_buttons(ui);
            });
            self.help_menu(ui);
        });
    }

    pub(super) fn help_menu(&mut self, ui: &mut egui::Ui) {
        ui.menu_button("Help", |ui| {
            if ui
                .add(egui::Button::new("Shortcuts and how-to…").shortcut_text("F1"))
                .clicked()
            {
                self.help.open = true;
            }
            let chapter = self.system.chapter();
            if ui.button(format!("Manual: {}", chapter.title())).clicked() {
                self.manual.show_chapter(chapter);
            }
            if ui.button("About Muster").clicked() {
                self.about.open = true;
            }
        });
    }

    /// The status line: the read-only reminder of a reopened game, then
    /// the last outcome worth telling.
    pub(super) fn status_line(&mut self, ui: &mut egui::Ui) {
        // One line whatever it says (the whole text on hover): a status
        // that wrapped, or a read-only reminder on a row of its own (issue
        // 39), moved the map and the panel under a planned click.
        let text = match &self.status {
            Some(Status::Error(text)) => {
                egui::RichText::new(format!("⚠ {text}")).color(ui.visuals().error_fg_color)
            }
            Some(Status::Info(text)) => egui::RichText::new(text),
            None => egui::RichText::new(self.system.name()).weak(),
        };
        let mut reopen = false;
        ui.horizontal(|ui| {
            reopen = unlock::read_only_banner(ui, &self.system.roster());
            if self.exporting {
                ui.spinner();
            }
            ui.add(egui::Label::new(text).truncate());
        });
        if reopen {
            self.unlock.reopen();
        }
    }

    /// Quit asked while a remote game is played: said what it does to the
    /// other player, and asked again.
    pub(super) fn quit_question(&mut self, ctx: &egui::Context) {
        if !self.quit_asked {
            return;
        }
        let mut answer = None;
        egui::Modal::new(egui::Id::unique("quit-remote")).show(ctx, |ui| {
            ui.heading("Quit Muster?");
            ui.label("The other player plays this game from their own Muster: theirs waits for this one until you open the game again (it is saved), host or join it again, and play on.");
            ui.horizontal(|ui| {
                if ui.button("Quit").clicked() {
                    answer = Some(true);
                }
                if ui.button("Stay").clicked() {
                    answer = Some(false);
                }
            });
        });
        if let Some(quit) = answer {
            self.quit_asked = false;
            if quit {
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }
}
