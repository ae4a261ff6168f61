//! Ambushes (RULES 8.3) in the window, behind the hand-over screen: each
//! player in turn, the other looking away, sees his private screen
//! (`muster_fog::screens::ambushes`): what a marker stands for, the
//! legality map over the table, the point he picked with the rules'
//! verdict, and places it. The panel draws the screen with the one
//! renderer and its table over the window's table. Away from the owner's
//! private turn, only where markers stand shows.

use super::StepPanel;
use crate::app::fog::FogCommand;
use crate::app::fog::table_view::{Frame, Overlay};
use crate::app::privacy::{HandOver, Privacy};
use eframe::egui;
use egui::Response;
use muster::core::screen::{Screen, Values};
use muster::core::side::Side;
use muster::fog::battle::{AmbushMaps, Battle, Command, DeploymentTurn, Finished, Phase};
use muster::fog::screens::{ambushes, answer_ambush};

#[derive(Default)]
pub struct AmbushesPanel {
    privacy: Privacy,
    /// What the player holding the screen entered in the new marker's form.
    values: Values,
    maps: AmbushMaps,
    /// His screen as last drawn, for its table over the window's table.
    screen: Option<Screen>,
    /// The side whose private session may end with *finish ambushes*, for
    /// the footer.
    finish: Option<Side>,
}

fn turn(battle: &Battle) -> Option<Side> {
    match battle.phase() {
        Phase::Deployment(DeploymentTurn::Ambushes(side)) => Some(side),
        _ => None,
    }
}

impl AmbushesPanel {
    /// Forgets a private view once its turn is over (or was undone).
    fn settle(&mut self, battle: &Battle) {
        let side = turn(battle);
        if side.is_none_or(|s| !self.privacy.holds(s)) {
            self.privacy.forget();
            self.forget_screen();
        }
    }

    fn forget_screen(&mut self) {
        self.values.clear();
        self.screen = None;
    }

    /// Drops the private session's key and opened secrets.
    pub fn end_private_session(&mut self) {
        self.privacy.forget();
        self.forget_screen();
    }

    /// The private session, which keeps its player's refusals.
    pub fn privacy(&mut self) -> &mut Privacy {
        &mut self.privacy
    }

    /// The hand-over screen to show instead of the window, if any: after a
    /// player finishes, always; before one starts, while the ambush step is
    /// `showing`.
    pub fn hand_over(&mut self, battle: &Battle, showing: bool) -> Option<HandOver> {
        let wanted = turn(battle).filter(|_| showing);
        let mut screen = self
            .privacy
            .screen(battle, wanted.map(|s| (s, "places his ambushes")))?;
        if let (Some(side), true) = (wanted, screen.can_wait) {
            screen.open_choice = Some((
                format!("{side}: no ambushes"),
                FogCommand::Apply(Command::Finish {
                    side,
                    step: Finished::Ambushes,
                }),
            ));
        }
        Some(screen)
    }

    /// The hand-over screen's button was clicked.
    pub fn handed_over(&mut self, battle: &Battle) {
        self.privacy.handed_over(turn(battle));
    }
}

impl StepPanel for AmbushesPanel {
    fn footer(&mut self, ui: &mut egui::Ui, _battle: &Battle, out: &mut Vec<FogCommand>) {
        let Some(side) = self.finish else { return };
        let finish = ui
            .button(format!("{side}: finish ambushes"))
            .on_hover_text("Ends your private session: the screen is then passed on");
        if crate::app::guard::clicked(&finish) {
            out.push(FogCommand::Apply(Command::Finish {
                side,
                step: Finished::Ambushes,
            }));
            self.privacy.forget();
            self.forget_screen();
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        self.finish = None;
        self.settle(battle);
        super::help(ui, battle, "ambushes");
        let state = battle.state();
        for side in Side::BOTH {
            let n = state
                .deployment
                .ambushes
                .iter()
                .filter(|a| a.side == side)
                .count();
            let done = if state.deployment.ambushes_done[side] {
                "done"
            } else {
                "not done"
            };
            let s = if n == 1 { "" } else { "s" };
            ui.label(format!("{side}: {n} marker{s} ({done})"));
        }
        let Some(side) = turn(battle) else {
            return;
        };
        if !self.privacy.holds(side) {
            ui.label(self.privacy.waiting(side, "places his ambushes"));
            return;
        }
        ui.add_space(6.0);
        ui.strong(format!("{side}: your ambushes (private)"));
        let Some(key) = self.privacy.key(ui, battle, side) else {
            return;
        };
        match ambushes(battle, side, &key, &self.values, &mut self.maps) {
            Ok(screen) => {
                let reply =
                    crate::app::screen::show(ui, &screen, ("ambush", side), &mut self.values);
                self.screen = Some(screen);
                if let Some(reply) = reply {
                    match answer_ambush(battle, side, &key, &reply) {
                        Ok(command) => {
                            out.push(FogCommand::Private(command));
                            self.values.clear();
                        }
                        Err(e) => _ = self.privacy.refuse(e.to_string()),
                    }
                }
            }
            Err(e) => _ = self.privacy.refuse(e.to_string()),
        }
        self.privacy.show_refusal(ui);
        self.finish = Some(side);
    }
}

impl Overlay for AmbushesPanel {
    fn over(&mut self, ui: &mut egui::Ui, response: &Response, frame: &Frame, battle: &Battle) {
        if turn(battle).is_none_or(|s| !self.privacy.holds(s)) {
            return;
        }
        let Some(table) = self.screen.as_ref().and_then(crate::app::screen::table) else {
            return;
        };
        let frame = *frame;
        crate::app::screen::table_overlay(
            ui,
            response,
            &|p| frame.to_screen(p),
            &|p| frame.to_table(p),
            table,
            &mut self.values,
        );
    }
}
