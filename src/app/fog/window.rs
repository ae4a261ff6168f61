//! Field of Glory's window behind the shell's `SystemWindow`, like every
//! other system's: the step list on the left, the table in the centre, the
//! current step's panel on the right, the log at the bottom; the unlock
//! window, each player's passphrase and hand-over screens over it.
//!
//! Panels never change the battle: they push `FogCommand`s, which
//! `FogWindow::drain` carries out in one place after the frame is laid out
//! (the pattern of rerun's viewer). Everything the panels draw is read from
//! the engine's `Battle`.

use super::phones::{Asked, FogPhones};
use super::steps::Panels;
use super::{FogCommand, inventory_editor, table_view};
use crate::app::file_dialog::{FileAction, Offers, PdfOptions, opener};
use crate::app::log_view::LogView;
use crate::app::system::{Start, SystemWindow};
use crate::app::unlock::{self, Locked, UnlockWindow, Unlocking};
use crate::app::{Status, privacy};
use eframe::egui;
use muster::core::intel::{Lock, PlayerKey};
use muster::core::screen::{Reply, Screen, Values};
use muster::core::side::{Side, Sides};
use muster::core::store::{Autosave, StoreError};
use muster::fog::battle::{Battle, Command, Step, StepStatus};
use muster::fog::files::{self, RosterLibrary};
use muster::fog::inventory::Inventory;
use muster::fog::ruleset::Ruleset;
#[cfg(test)]
use std::any::Any;
use std::path::{Path, PathBuf};

pub struct FogWindow {
    pub(in crate::app) battle: Battle,
    /// The group's saved rosters, beside the autosaves.
    library: Option<RosterLibrary>,
    /// The seed of test runs' dice.
    seed: Option<u64>,
    unlock: UnlockWindow,
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
    queue: Vec<FogCommand>,
    /// What this frame's commands tell the players, and whether the battle
    /// changed (to autosave).
    status: Option<Status>,
    changed: bool,
    wants_file: Option<FileAction>,
    /// The private steps of the players on their phones.
    phones: FogPhones,
    /// Woken when a phone's key is worked out.
    ctx: Option<egui::Context>,
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
            library: start.autosave.as_deref().map(RosterLibrary::beside),
            seed: start.seed,
            unlock: UnlockWindow::default(),
            log_view: LogView::default(),
            shown: None,
            panels: Panels::new(start.inventory.clone()),
            inventory: start.inventory.clone(),
            inventory_path: start.inventory_path.clone(),
            table: table_view::TableView::default(),
            inventory_editor: Default::default(),
            last_rolls: Vec::new(),
            queue: Vec::new(),
            status: None,
            changed: false,
            wants_file: None,
            phones: FogPhones::default(),
            ctx: None,
        };
        if let Some(seed) = window.seed {
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

    /// After the battle changed: back to its current step, and autosaved
    /// by the shell (an empty battle is not worth a place in the list).
    fn after_change(&mut self) {
        self.shown = None;
        self.changed |= !self.battle.log().is_empty();
    }

    /// Keeps the words of the entry just logged if it rolled dice: rolls
    /// made in one frame (*Roll for both*) are shown together.
    fn remember_rolls(&mut self, same_frame: bool) {
        let Some(entry) = self.battle.log().last() else {
            return;
        };
        if !same_frame {
            self.last_rolls.clear();
        }
        if entry.has_roll() {
            let lines = self.battle.log_lines();
            let new = &lines[lines.len() - entry.events.len()..];
            let settings = &self.battle.state().settings;
            self.last_rolls
                .extend(new.iter().map(|(text, _)| settings.speak(text)));
        }
    }

    /// Applies a command; a refusal of one sent from a private session
    /// (`private`) is shown in that session only. `applied` says whether
    /// another command was applied this frame (their rolls show together).
    fn apply(&mut self, command: Command, private: bool, applied: &mut bool) {
        match self.battle.apply(command) {
            Ok(_) => {
                self.status = None;
                self.remember_rolls(*applied);
                *applied = true;
                self.after_change();
            }
            Err(e) if private => {
                self.status = self
                    .panels
                    .refused_in_private(e.to_string())
                    .err()
                    .map(Status::Error)
            }
            Err(e) => self.status = Some(Status::Error(e.to_string())),
        }
    }

    /// Carries out everything the UI asked for this frame.
    fn drain_commands(&mut self) {
        let mut applied = false;
        for command in std::mem::take(&mut self.queue) {
            match command {
                FogCommand::Apply(command) => self.apply(command, false, &mut applied),
                FogCommand::Private(command) => self.apply(command, true, &mut applied),
                FogCommand::FromPhone(side, command, spent) => {
                    self.apply_from_phone(side, command, spent, &mut applied);
                }
                FogCommand::Undo => {
                    match past_forced(&mut self.battle, Battle::undo, Battle::can_undo) {
                        Ok(()) => {
                            self.last_rolls.clear();
                            self.status = Some(Status::Info("Undone".into()));
                            self.after_change();
                        }
                        Err(e) => self.status = Some(Status::Error(e.to_string())),
                    }
                }
                FogCommand::Redo => {
                    match past_forced(&mut self.battle, Battle::redo, Battle::can_redo) {
                        Ok(()) => {
                            self.status = Some(Status::Info("Redone".into()));
                            self.after_change();
                        }
                        Err(e) => self.status = Some(Status::Error(e.to_string())),
                    }
                }
                FogCommand::ShowStep(step) => {
                    // Leaving a step ends any private session on it: the
                    // key and the opened secrets are dropped.
                    if step != self.shown_step() {
                        self.panels.end_private_sessions();
                    }
                    self.shown = Some(step);
                }
                FogCommand::Dialog(action) => self.wants_file = Some(action),
                FogCommand::DraftArmy(side, army) => self.panels.armies.set_draft(side, *army),
                FogCommand::LoadRosterFrom(side, path) => {
                    self.status = Some(self.file_chosen(FileAction::LoadRoster(side), &path));
                }
                FogCommand::SaveRosterToLibrary(side) => {
                    let army = self.panels.armies.draft(side).clone();
                    let saved = match &self.library {
                        Some(library) => library.save(&army, self.battle.ruleset()),
                        None => Err(StoreError::new("this system has no data directory")),
                    };
                    self.status = Some(match saved {
                        Ok(path) => Status::Info(format!(
                            "{} saved to the roster library ({})",
                            army.name,
                            path.display()
                        )),
                        Err(e) => Status::Error(format!("Roster not saved: {e}")),
                    });
                }
                FogCommand::ConfirmArmyWithPassphrase(side, army, lock) => {
                    let (lock, key) = *lock;
                    let set = self.battle.hold_key(side, &key).and_then(|()| {
                        self.battle.apply(Command::SetArmy {
                            side,
                            army: *army,
                            lock: Some(lock),
                        })
                    });
                    match set {
                        Ok(_) => {
                            self.status = Some(Status::Info(format!(
                                "{side}'s army is entered and his passphrase set: every log entry now carries his tag"
                            )));
                            self.panels.armies.passphrase_set(side);
                            self.after_change();
                        }
                        Err(e) => self.status = Some(Status::Error(e.to_string())),
                    }
                }
                FogCommand::Unlock(side, key) => {
                    let result = self.battle.unlock_key(side, &key);
                    if result.is_ok() {
                        self.status = Some(Status::Info(format!(
                            "{side} unlocked the battle: every entry carries his valid tag"
                        )));
                    }
                    self.unlock.answer(side, result);
                }
            }
        }
        // A roll of a march with a sealed modifier: his phone's word.
        for (side, command) in self.phones.words(&self.battle) {
            self.apply_from_phone(side, command, &[], &mut applied);
        }
        // What the rules leave no choice in follows a player's command at
        // once (not an undo: that would take it straight back). Bounded:
        // each forced command moves the sequence on.
        if applied {
            for _ in 0..4 {
                let Some(command) = self.battle.forced() else {
                    break;
                };
                self.apply(command, false, &mut applied);
            }
        }
    }

    /// A command from `side`'s phone; its refusal goes to his phone.
    fn apply_from_phone(
        &mut self,
        side: Side,
        command: Command,
        spent: &[&str],
        applied: &mut bool,
    ) {
        let result = self
            .battle
            .apply(command)
            .map_err(|e| self.speak(&e.to_string()));
        if result.is_ok() {
            self.remember_rolls(*applied);
            *applied = true;
            self.after_change();
        }
        self.phones.forms.answered(side, result.map(|_| ()), spent);
    }

    /// *File > Rosters*: each roster of the library, to load into either
    /// side, and each side's army to save into it.
    fn rosters_menu(&mut self, ui: &mut egui::Ui) {
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
                            self.queue
                                .push(FogCommand::LoadRosterFrom(side, roster.path.clone()));
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
                    self.queue.push(FogCommand::SaveRosterToLibrary(side));
                }
            }
        });
    }

    fn step_list(&mut self, ui: &mut egui::Ui) {
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
                self.queue.push(FogCommand::ShowStep(step));
            }
        }
        for side in Side::BOTH {
            if self.phones.on[side] {
                ui.add_space(6.0);
                ui.weak(format!("{}: on his phone", self.player(side)));
            }
        }
    }

    /// The players still to unlock a reopened battle, each called by his
    /// side and player.
    fn locked(&self) -> Vec<Locked> {
        let state = self.battle.state();
        self.battle
            .locked_sides()
            .into_iter()
            .filter_map(|side| Some((side, self.player(side), state.locks[side].clone()?)))
            .collect()
    }

    /// "South (Ann)", or "South" before his army is entered.
    fn player(&self, side: Side) -> String {
        self.battle.state().armies[side]
            .as_ref()
            .map_or(side.to_string(), |a| format!("{side} ({})", a.player))
    }

    /// The battle's own screens over the whole window: a player unlocking
    /// it or setting his passphrase, or a secret handed over (so nothing
    /// of the other player's inputs shows). True while one covers it.
    fn covering(&mut self, ui: &mut egui::Ui) -> bool {
        match self.unlock.show(ui, "battle", &self.locked()) {
            Unlocking::Covering => return true,
            Unlocking::Key(side, key) => self.queue.push(FogCommand::Unlock(side, key)),
            Unlocking::Nothing => {}
        }
        if self.panels.armies.covering(ui) {
            return true;
        }
        let Some((step, mut screen)) = self.panels.hand_over(self.shown_step(), &self.battle)
        else {
            return false;
        };
        match privacy::hand_over_screen(ui, &screen) {
            privacy::Clicked::Button => self.panels.handed_over(step, &self.battle),
            privacy::Clicked::OpenChoice => {
                if let Some((_, command)) = screen.open_choice.take() {
                    self.queue.push(command);
                }
            }
            privacy::Clicked::Wait => self.queue.push(FogCommand::ShowStep(Step::Battle)),
            privacy::Clicked::Lock => {
                if let Some((_, side)) = screen.lock {
                    self.panels.sitting.lock(side);
                }
            }
            privacy::Clicked::Nothing => {}
        }
        true
    }

    fn window(&mut self, ui: &mut egui::Ui) {
        if self.covering(ui) {
            return;
        }
        let ctx = ui.ctx().clone();
        egui::Panel::bottom("log")
            .resizable(true)
            .default_size(150.0)
            .show(ui, |ui| self.log_view.show(ui, &self.battle));
        egui::Panel::left("steps")
            .resizable(false)
            .default_size(210.0)
            .show(ui, |ui| self.step_list(ui));
        // One width for every step and player, so the table never rescales
        // as the panel changes: a share of the window, within bounds.
        let width = (ctx.content_rect().width() * 0.38).clamp(440.0, 640.0);
        egui::Panel::right("step")
            .resizable(false)
            .exact_size(width)
            .show(ui, |ui| {
                let step = self.shown_step();
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
                egui::ScrollArea::vertical()
                    .auto_shrink([false, false])
                    .max_height(body)
                    .min_scrolled_height(body)
                    .show(ui, |ui| {
                        self.panels.ui(ui, step, &self.battle, &mut self.queue);
                    });
                ui.separator();
                self.panels.footer(ui, step, &self.battle, &mut self.queue);
            });
        let overlay: Option<&mut dyn table_view::Overlay> = match self.shown_step() {
            Step::TerrainPlacement => Some(&mut self.panels.placement),
            Step::CampsAndFortifications => Some(&mut self.panels.camps),
            Step::Ambushes => Some(&mut self.panels.ambushes),
            Step::Deployment => Some(&mut self.panels.deployment),
            Step::Play => Some(&mut self.panels.play),
            _ => None,
        };
        egui::CentralPanel::default().show(ui, |ui| self.table.show(ui, &self.battle, overlay));
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

impl SystemWindow for FogWindow {
    fn locked_seats(&self) -> Vec<Locked> {
        self.locked()
    }

    /// His phone keeps the key for his private steps, so he types his
    /// passphrase once.
    fn unlock_with(&mut self, side: Side, key: PlayerKey) -> Result<(), String> {
        self.battle
            .unlock_key(side, &key)
            .map_err(|e| e.to_string())?;
        let seal = self
            .battle
            .seal_key(side, &key)
            .map_err(|e| e.to_string())?;
        self.phones.hold(side, seal);
        Ok(())
    }

    fn name(&self) -> &'static str {
        "Field of Glory battle"
    }

    fn title(&self) -> Option<String> {
        Some(self.battle.state().settings.title.clone())
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        self.ctx.get_or_insert_with(|| ui.ctx().clone());
        self.window(ui);
    }

    fn on_phones(&mut self, on: Sides<bool>) {
        self.phones.paired(&on);
        self.panels.set_phones(on);
    }

    /// While the armies are entered, a paired player sets his passphrase
    /// on his phone.
    fn new_game_passphrases(
        &mut self,
    ) -> Option<(&mut crate::app::passphrase::NewPassphrases, Sides<String>)> {
        (self.shown_step() == Step::Armies && self.locked().is_empty())
            .then(|| self.panels.armies.new_passphrases())
    }

    fn phone_screen(&mut self, side: Side) -> Option<Screen> {
        let opening = self.panels.play.opening(&self.battle);
        Some(self.phones.screen(&self.battle, side, opening))
    }

    fn phone_values(&mut self, side: Side, values: Values) {
        self.phones.values(side, values);
    }

    fn phone_answer(&mut self, side: Side, reply: Reply) {
        let opening = self.panels.play.opening(&self.battle);
        let ctx = self.ctx.clone();
        let wake = move || {
            if let Some(ctx) = &ctx {
                ctx.request_repaint();
            }
        };
        match self.phones.answer(&self.battle, side, opening, reply, wake) {
            Asked::Nothing => {}
            Asked::Command(command, spent) => {
                self.queue.push(FogCommand::FromPhone(side, command, spent));
            }
            Asked::Revealed(command) => {
                if let Some(command) = command {
                    self.queue.push(FogCommand::FromPhone(side, command, &[]));
                }
                self.panels.play.opened_on_phone();
            }
        }
    }

    fn status_line(&mut self, ui: &mut egui::Ui) {
        let locked = self.locked();
        // A battle's sealed records are opened by their owner's own session
        // or reveal; his unlock checks his tags.
        let unchecked: Vec<String> = locked
            .iter()
            .map(|(_, who, _)| format!("Until {who} unlocks: his tag on every entry"))
            .collect();
        if unlock::read_only_banner(ui, "battle", &locked, &unchecked) {
            self.unlock.reopen();
        }
    }

    fn speak(&self, text: &str) -> String {
        self.battle.state().settings.speak(text)
    }

    fn drain(&mut self) -> (Option<Status>, bool) {
        self.drain_commands();
        let changed = std::mem::take(&mut self.changed);
        (self.status.take(), changed)
    }

    fn game(&self) -> Option<&dyn Autosave> {
        Some(&self.battle)
    }

    fn undoable(&self) -> Option<String> {
        self.battle.can_undo().then(String::new)
    }

    fn undo(&mut self) {
        self.queue.push(FogCommand::Undo);
    }

    fn redoable(&self) -> bool {
        self.battle.can_redo()
    }

    fn redo(&mut self) {
        self.queue.push(FogCommand::Redo);
    }

    fn file_menu(&mut self, ui: &mut egui::Ui) {
        self.rosters_menu(ui);
    }

    fn edit_menu(&mut self, ui: &mut egui::Ui) {
        ui.separator();
        if ui.button("Terrain inventory…").clicked() {
            self.inventory_editor.open = true;
        }
    }

    fn view_menu(&mut self, ui: &mut egui::Ui) {
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
                self.queue.push(FogCommand::Apply(Command::Configure {
                    settings: settings.clone(),
                }));
            }
        }
        ui.separator();
    }

    fn help_step(&self) -> Option<Step> {
        Some(self.shown_step())
    }

    /// The table printout has a private page and the pieces' templates.
    fn printout_offers(&self) -> Offers {
        Offers {
            private: true,
            templates: true,
        }
    }

    fn private_lock(&self, side: Side) -> Option<(String, Lock)> {
        let lock = self.battle.state().locks[side].clone()?;
        Some((self.player(side), lock))
    }

    fn export_pdf(&self, options: &PdfOptions, path: &Path) -> Result<Vec<PathBuf>, StoreError> {
        use muster::fog::export;
        let private = match options.private {
            Some(side) => Some(
                export::private_page(&self.battle, side, opener(options))
                    .map_err(|e| StoreError::new(e.to_string()))?,
            ),
            None => None,
        };
        let mut written = Vec::new();
        export::save_pdf(&self.battle, options.paper, &export::today(), path)?;
        written.push(path.to_path_buf());
        if let Some(page) = &private {
            let private_path = export::private_path(path, page.side);
            export::save_private_pdf(&self.battle, page, options.paper, &private_path)?;
            written.push(private_path);
        }
        if options.templates {
            let templates = export::templates_path(path);
            export::save_templates_pdf(&self.battle, options.paper, &templates)?;
            written.push(templates);
        }
        Ok(written)
    }

    fn wants_file(&mut self) -> Option<FileAction> {
        self.wants_file.take()
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

    #[cfg(test)]
    fn as_any(&self) -> &dyn Any {
        self
    }
}
