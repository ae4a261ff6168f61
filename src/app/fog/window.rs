//! Field of Glory's window behind the shell's `SystemWindow`, like every
//! other system's: the step list on the left, the table in the centre, the
//! current step's panel on the right (or, when the laptop shows it, a
//! player's private screen in its place, its table drawn over the window's
//! table), the log at the bottom.
//!
//! Panels never change the battle: they collect `FogCommand`s, which go on
//! the shell's bus at the end of the frame and come back to `handle` once
//! per frame, after the UI (the pattern of rerun's viewer). Everything the
//! panels draw is read from the engine's `Battle`; a player's private
//! screen is the engine's seat (`muster_fog::seat`), the same his phone
//! draws.

use super::remote::SENDING;
use super::steps::Panels;
use super::{FogCommand, inventory_editor, table_view};
use crate::app::action::Action;
use crate::app::bus::AppCommand;
use crate::app::bus::SeatMsg;
use crate::app::file_dialog::{FileAction, Offers, PdfOptions};
use crate::app::log_view::LogView;
use crate::app::remote::{NO_UNDO, WAITING};
use crate::app::seated::{Private, private_panel};
use crate::app::seating::{Cx, Seats};
use crate::app::status::Status;
use crate::app::system::{ExportJob, Handled, Menu, Start, SystemWindow};
use eframe::egui;
use muster::core::seat::{Desk, Desked, Seated};
use muster::core::side::{Side, Sides};
use muster::core::store::{Autosave, StoreError};
use muster::fog::battle::{Battle, Command, Step, StepStatus};
use muster::fog::files::{self, RosterLibrary};
use muster::fog::inventory::Inventory;
use muster::fog::ruleset::Ruleset;
use std::path::{Path, PathBuf};

pub struct FogWindow {
    pub(in crate::app) battle: Battle,
    /// Each player's desk: his private screen's form, key and refusal.
    desks: Sides<Desk<Battle>>,
    /// The group's saved rosters, beside the autosaves.
    pub(super) library: Option<RosterLibrary>,
    log_view: LogView,
    /// The step whose panel is shown (the current step unless the players
    /// clicked another).
    shown: Option<Step>,
    pub(in crate::app) panels: Panels,
    /// The group's terrain pieces, and where they are kept.
    pub(in crate::app) inventory: Inventory,
    inventory_path: Option<PathBuf>,
    pub(in crate::app) table: table_view::TableView,
    inventory_editor: inventory_editor::InventoryEditor,
    /// The last roll(s) in words, shown large above the step's panel until
    /// the next action, so a result never vanishes as the step moves on.
    pub(in crate::app) last_rolls: Vec<String>,
    /// The log's length when the window last looked: whatever changed the
    /// battle since (the table, a seat, undo), the window follows.
    seen: usize,
    /// Its remote game, when one player plays from another machine.
    pub(in crate::app) remote: Option<crate::app::remote::Remoted<Battle>>,
    /// Where the host keeps the remote seats of its battles, and the one
    /// this battle had (to host it again with the same ticket).
    pub(in crate::app) hosting: crate::app::remote::kept::Kept,
    /// A player's private table as it was last drawn (tests pick on it
    /// what a player would see).
    #[cfg(test)]
    pub(in crate::app) drawn_private: Option<
        muster::core::screen::Table<
            muster::fog::screens::SecretAct,
            muster::fog::screens::SecretField,
        >,
    >,
}

/// An undo or redo (`step`), once more when it stopped where the rules
/// force the next command: a forced step is no place to stop, so undo goes
/// back past it to the player's own command, and redo forward.
fn past_forced(
    battle: &mut Battle,
    step: fn(&mut Battle) -> Result<(), muster::RuleError>,
    more: fn(&Battle) -> bool,
) -> Result<(), muster::RuleError> {
    step(battle)?;
    if battle.forced().is_some() && more(battle) {
        step(battle)?;
    }
    Ok(())
}

impl FogWindow {
    /// A new battle under `ruleset`.
    pub fn new(ruleset: Ruleset, start: &Start) -> FogWindow {
        FogWindow::with(Battle::new(ruleset), start)
    }

    /// A battle read from a file.
    pub fn with(battle: Battle, start: &Start) -> FogWindow {
        let mut window = FogWindow {
            battle,
            desks: Sides::default(),
            library: start.autosave.as_deref().map(RosterLibrary::beside),
            log_view: LogView::default(),
            shown: None,
            panels: Panels::new(start.inventory.clone()),
            inventory: start.inventory.clone(),
            inventory_path: start.inventory_path.clone(),
            table: table_view::TableView::default(),
            inventory_editor: Default::default(),
            last_rolls: Vec::new(),
            seen: 0,
            remote: None,
            hosting: crate::app::remote::kept::Kept::of(start),
            #[cfg(test)]
            drawn_private: None,
        };
        window.seen = window.battle.log().len();
        window.hosting.look_up(window.battle.id());
        if let Some(seed) = start.seed {
            window
                .battle
                .use_dice(muster::core::dice::AppDice::seeded(seed));
        }
        window
    }

    fn shown_step(&self) -> Step {
        self.shown
            .unwrap_or_else(|| self.battle.state().current_step(self.battle.ruleset()))
    }

    /// After the battle changed: autosaved (an empty battle is not worth
    /// a place in the recent list).
    fn after_change(&mut self) -> Handled {
        Handled {
            status: None,
            // An empty battle is not worth a place in the recent list.
            changed: !self.battle.log().is_empty(),
            dialog: None,
        }
    }

    /// Follows the battle's changes since the last look, whoever made them
    /// (the table, a player's own screen, undo): back to its current step,
    /// and the words of every new entry that rolled dice shown large until
    /// the next action (rolls made in one frame, *Roll for both*, together).
    fn catch_up(&mut self) {
        let log = self.battle.log();
        if log.len() == self.seen {
            return;
        }
        self.shown = None;
        self.last_rolls.clear();
        if log.len() > self.seen {
            let lines = self.battle.log_lines();
            let before: usize = log[..self.seen].iter().map(|e| e.events.len()).sum();
            let mut at = before;
            let settings = &self.battle.state().settings;
            for entry in &log[self.seen..] {
                let n = entry.events.len();
                if entry.has_roll() {
                    self.last_rolls.extend(
                        lines[at..at + n]
                            .iter()
                            .map(|(text, _)| settings.speak(text)),
                    );
                }
                at += n;
            }
        }
        self.seen = log.len();
    }

    /// Applies a command from the table, with what the rules force after
    /// it.
    fn apply(&mut self, command: Command) -> Handled {
        match self.give(command) {
            Ok(true) => self.after_change(),
            Ok(false) => Handled::status(Status::Info(WAITING.into())),
            // Applied, but a step the rules forced after it failed: said
            // loudly, and in the log.
            Err(refused) if refused.changed() => {
                let mut handled = self.after_change();
                handled.status = Some(Status::Error(self.speak(&refused.to_string())));
                handled
            }
            Err(e) => Handled::status(Status::Error(self.speak(&e.to_string()))),
        }
    }

    fn speak(&self, text: &str) -> String {
        self.battle.state().settings.speak(text)
    }

    /// Carries out one of its widgets' commands.
    fn command(&mut self, command: FogCommand) -> Handled {
        match command {
            FogCommand::Apply(command) => return self.apply(command),
            FogCommand::ShowStep(step) => self.shown = Some(step),
            FogCommand::DraftArmy(side, army) => self.panels.armies.set_draft(side, *army),
            FogCommand::LoadRosterFrom(side, path) => {
                return Handled::status(self.file_chosen(FileAction::LoadRoster(side), &path));
            }
            FogCommand::SaveRosterToLibrary(side) => return self.save_roster(side),
            FogCommand::ConfirmArmyWithPassphrase(side, army, lock) => {
                let (lock, key) = *lock;
                if let Err(e) = self.battle.hold_key(side, &key) {
                    return Handled::status(Status::Error(e.to_string()));
                }
                let set = self.give(Command::SetArmy {
                    side,
                    army: *army,
                    lock: Some(lock),
                });
                return match set {
                    Err(refused) if !refused.changed() => {
                        Handled::status(Status::Error(refused.to_string()))
                    }
                    set => {
                        self.panels.armies.passphrase_set(side);
                        let mut handled = self.after_change();
                        handled.status = Some(match set {
                            Ok(false) => Status::Info(WAITING.into()),
                            Ok(true) => Status::Info(format!(
                                "{side}'s army is entered and their passphrase set: every log entry now carries their tag"
                            )),
                            Err(stalled) => Status::Error(stalled.to_string()),
                        });
                        handled
                    }
                };
            }
            // On his desk: his seat brings it to him (phone or hand-over).
            FogCommand::Ask(side, asked) => {
                Desked {
                    game: &mut self.battle,
                    desks: &mut self.desks,
                    mover: None,
                }
                .ask(side, Some(asked));
            }
            // Sent to the bus by the frame that made them, or carried out
            // by `handle` (hosting again needs the bus).
            FogCommand::Dialog(_)
            | FogCommand::Show(_)
            | FogCommand::Resume(_)
            | FogCommand::HostAgain
            | FogCommand::PlayHere => {}
        }
        Handled::default()
    }

    /// Puts what the panels asked for this frame on the bus.
    fn send(out: Vec<FogCommand>, cx: &Cx) {
        for command in out {
            match command {
                FogCommand::Dialog(action) => cx.bus.app(AppCommand::Dialog(action)),
                FogCommand::Show(side) => cx.bus.seat(side, SeatMsg::Show),
                FogCommand::Resume(side) => cx.bus.seat(side, SeatMsg::PassTo),
                // Another step: a private screen up closes (its step's
                // hand-over comes back first), and what was put off with
                // "Not now" is offered again.
                FogCommand::ShowStep(step) => {
                    if let Some(side) = cx.private {
                        cx.bus.seat(side, SeatMsg::Hide);
                    }
                    for side in Side::BOTH {
                        cx.bus.seat(side, SeatMsg::Resume);
                    }
                    cx.bus.system(Action::Fog(FogCommand::ShowStep(step)));
                }
                command => cx.bus.system(Action::Fog(command)),
            }
        }
    }

    fn step_list(&mut self, ui: &mut egui::Ui, cx: &Cx, out: &mut Vec<FogCommand>) {
        ui.heading("Sequence");
        ui.add_space(4.0);
        let state = self.battle.state();
        let ruleset = self.battle.ruleset();
        let shown = self.shown_step();
        for step in Step::ALL {
            let status = state.step_status(ruleset, step);
            let mark = match status {
                StepStatus::Done => "✔",
                StepStatus::Current => "▶",
                StepStatus::Locked => "🔒",
            };
            let text = format!("{mark} {}", step.title());
            let enabled = status != StepStatus::Locked;
            let button = egui::Button::selectable(shown == step, text);
            if ui.add_enabled(enabled, button).clicked() {
                out.push(FogCommand::ShowStep(step));
            }
        }
        for side in Side::BOTH {
            let life = cx.lives[side];
            if life != crate::app::seating::Life::Unpaired {
                ui.add_space(6.0);
                ui.weak(format!("{}: {}", self.player(side), life.words()));
            }
        }
    }

    /// "South (Ann)", or "South" before their army is entered: as his
    /// seat calls him.
    pub(super) fn player(&self, side: Side) -> String {
        self.battle.seat_name(side)
    }

    fn window(&mut self, ui: &mut egui::Ui, cx: &Cx, out: &mut Vec<FogCommand>) {
        let ctx = ui.ctx().clone();
        self.log_view.show(ui, &self.battle);
        egui::Panel::left("steps")
            .resizable(false)
            .default_size(210.0)
            .show(ui, |ui| self.step_list(ui, cx, out));
        let step = self.shown_step();
        // A player's private screen, when the laptop shows it, in the step
        // panel's place.
        let (battle, desks) = (&self.battle, &mut self.desks);
        let mut private = cx
            .private
            .map(|side| Private::of(battle, &mut desks[side], side));
        // One width for every step and player, so the table never rescales
        // as the panel changes: a share of the window, within bounds.
        let width = (ctx.content_rect().width() * 0.38).clamp(440.0, 640.0);
        // A move of this player's on its way to the other machine: the
        // panel waits for it, so no click is made on what it will change.
        let sending = self.remote.as_ref().is_some_and(|r| r.occupied());
        egui::Panel::right("step")
            .resizable(false)
            .exact_size(width)
            .show(ui, |ui| {
                if sending {
                    ui.weak(SENDING);
                }
                ui.add_enabled_ui(!sending, |ui| {
                    if let Some(private) = &mut private {
                        egui::ScrollArea::vertical()
                            .auto_shrink([false, false])
                            .show(ui, |ui| private_panel(ui, private, "my secrets", cx));
                        return;
                    }
                    if !self.last_rolls.is_empty() {
                        egui::Frame::group(ui.style()).show(ui, |ui| {
                            ui.set_width(ui.available_width());
                            for line in &self.last_rolls {
                                ui.label(egui::RichText::new(line).size(17.0).strong());
                            }
                        });
                    }
                    // The panel scrolls above a footer of fixed height, so the
                    // step's main action stays in one place and in view.
                    let footer = 44.0;
                    let body = (ui.available_height() - footer).max(120.0);
                    // Each step, and each army's form, scrolls on its own: a
                    // new one opens at its top.
                    egui::ScrollArea::vertical()
                        .id_salt(("step", format!("{step:?}"), self.panels.armies.side))
                        .auto_shrink([false, false])
                        .max_height(body)
                        .min_scrolled_height(body)
                        .show(ui, |ui| {
                            self.panels.ui(ui, step, &self.battle, out);
                        });
                    ui.separator();
                    self.panels.footer(ui, step, &self.battle, out);
                });
            });
        let shown = step;
        egui::CentralPanel::default().show(ui, |ui| {
            let private_table = private.as_mut().and_then(|p| {
                let table = crate::app::screen::table(p.screen)?;
                Some((table, p.form.clone(), &mut p.form))
            });
            match private_table {
                Some((table, before, values)) => {
                    let mut overlay = table_view::PrivateTable { table, values };
                    self.table.show(ui, &self.battle, Some(&mut overlay));
                    #[cfg(test)]
                    {
                        self.drawn_private = Some(table.clone());
                    }
                    // A point he picked on the table goes to his seat.
                    if let Some(p) = &private {
                        p.send_changes(&before, cx);
                    }
                }
                None => {
                    let overlay = self.panels.overlay(shown, &self.battle);
                    self.table.show(ui, &self.battle, overlay);
                }
            }
        });
        let settings = &self.battle.state().settings;
        let ruleset = self.battle.ruleset();
        let path = self.inventory_path.as_deref();
        if let Some(inventory) =
            self.inventory_editor
                .show(&ctx, ruleset, settings, &self.inventory, path)
        {
            self.panels.placement.set_inventory(inventory.clone());
            self.inventory = inventory;
        }
    }
}

impl Seats for FogWindow {
    type Game = Battle;

    fn desked(&mut self) -> Option<Desked<'_, Battle>> {
        Some(Desked {
            game: &mut self.battle,
            desks: &mut self.desks,
            mover: self.remote.as_mut().map(|r| r.mover()),
        })
    }
}

impl SystemWindow for FogWindow {
    fn name(&self) -> &'static str {
        "Field of Glory battle"
    }

    fn chapter(&self) -> crate::app::manual::Chapter {
        crate::app::manual::Chapter::FieldOfGlory
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &Cx) {
        self.catch_up();
        let mut out = Vec::new();
        self.remote_banner(ui, &mut out);
        self.panels.set_seats(cx);
        self.window(ui, cx, &mut out);
        Self::send(out, cx);
    }

    fn handle(&mut self, action: Action, cx: &Cx) -> Handled {
        let (done, said) = match action {
            Action::Fog(FogCommand::HostAgain) => {
                return self.host_again(crate::app::remote::waker(&cx.bus));
            }
            Action::Fog(FogCommand::PlayHere) => {
                self.hosting.forget();
                return Handled::default();
            }
            Action::Fog(command) => return self.command(command),
            Action::PassphraseSet(side, lock, key) => {
                self.panels.armies.passphrase_made(side, (lock, key));
                return Handled::default();
            }
            Action::Undo | Action::Redo if self.remote.is_some() => {
                return Handled::status(Status::Error(NO_UNDO.into()));
            }
            Action::Undo => (
                past_forced(&mut self.battle, Battle::undo, Battle::can_undo),
                "Undone",
            ),
            Action::Redo => (
                past_forced(&mut self.battle, Battle::redo, Battle::can_redo),
                "Redone",
            ),
            // Another system's, sent before this window replaced it.
            Action::Deck(_) | Action::Forces(_) | Action::Wings(_) => return Handled::default(),
        };
        match done {
            Ok(()) => {
                let mut handled = self.after_change();
                handled.status = Some(Status::Info(said.into()));
                handled
            }
            Err(e) => Handled::status(Status::Error(e.to_string())),
        }
    }

    fn game(&self) -> Option<&dyn Autosave> {
        Some(&self.battle)
    }

    fn undoable(&self) -> Result<String, String> {
        if self.remote.is_some() {
            Err(NO_UNDO.into())
        } else if self.battle.can_undo() {
            Ok(String::new())
        } else {
            Err("nothing to take back".into())
        }
    }

    fn redoable(&self) -> bool {
        if self.remote.is_some() {
            return false;
        }
        self.battle.can_redo()
    }

    fn menu(&mut self, menu: Menu, ui: &mut egui::Ui, cx: &Cx) {
        let mut out = Vec::new();
        match menu {
            Menu::File => self.rosters_menu(ui, &mut out),
            Menu::Edit => {
                ui.separator();
                if ui.button("Terrain inventory…").clicked() {
                    self.inventory_editor.open = true;
                }
            }
            Menu::View => {
                let mut settings = self.battle.state().settings.clone();
                for unit in muster::fog::units::LengthUnit::ALL {
                    if ui
                        .radio(
                            settings.units == unit,
                            format!("Lengths in {}", unit.name()),
                        )
                        .clicked()
                        && settings.units != unit
                    {
                        settings.units = unit;
                        out.push(FogCommand::Apply(Command::Configure {
                            settings: settings.clone(),
                        }));
                    }
                }
                ui.separator();
            }
        }
        Self::send(out, cx);
    }

    fn help_step(&self) -> Option<Step> {
        Some(self.shown_step())
    }

    /// The table printout has a private page and the pieces' templates.
    fn printout_offers(&self) -> Offers {
        Offers {
            private: true,
            templates: true,
            ..Offers::default()
        }
    }

    fn export_job(&self, options: &PdfOptions, path: &Path) -> Result<ExportJob, StoreError> {
        let (battle, options, path) = (self.battle.clone(), options.clone(), path.to_path_buf());
        Ok(Box::new(move || {
            super::printout::export(&battle, &options, &path)
        }))
    }

    fn remote(&self) -> Option<crate::app::remote::invite::RemoteView> {
        self.remote_view()
    }

    fn can_invite(&self) -> Result<(), String> {
        self.invitable()
    }

    fn kept_seat(&self) -> Option<Side> {
        self.hosting.seat()
    }

    fn invite(
        &mut self,
        away: Side,
        net: muster_remote::Net,
        relay: Option<String>,
        wake: muster_remote::Wake,
    ) -> Result<(), String> {
        self.invite_to(away, net, relay, wake)
    }

    fn poll_remote(&mut self) -> Handled {
        self.poll()
    }

    fn file_chosen(&mut self, action: FileAction, path: &Path) -> Status {
        let ruleset = self.battle.ruleset().clone();
        match action {
            FileAction::LoadRoster(side) => match files::load_roster(path, &ruleset) {
                Ok(army) => {
                    self.panels.armies.set_draft(side, army);
                    Status::Info(format!(
                        "Loaded roster {} into {side}'s draft; confirm it to enter it",
                        path.display()
                    ))
                }
                Err(e) => Status::Error(format!("Roster not loaded: {e}")),
            },
            FileAction::SaveRoster(army) => match files::save_roster(path, &army, &ruleset) {
                Ok(()) => Status::Info(format!("Roster saved to {}", path.display())),
                Err(e) => Status::Error(format!("Roster not saved: {e}")),
            },
            _ => Status::Error("That file is not for a Field of Glory battle".into()),
        }
    }
}
