//! Flank marches (RULES 8.4) in private: each player in turn, behind the
//! hand-over screen and with his passphrase, ticks the battle groups of a
//! march, picks the commander leading it and the flank, and seals it; both
//! see only its commitment code. When he is done, Muster states how many
//! of his battle groups stay off the table (the table shows as much).

use super::StepPanel;
use crate::app::fog::FogCommand;
use crate::app::privacy::{HandOver, Privacy};
use eframe::egui;
use muster::core::screen::Values;
use muster::core::side::Side;
use muster::fog::battle::{Battle, Command, DeploymentTurn, Phase};
use muster::fog::screens::{answer_flank_march, flank_marches};

#[derive(Default)]
pub struct FlankMarchesPanel {
    privacy: Privacy,
    /// What the player holding the screen entered in the new march's form.
    values: Values,
    /// The side in session and his off-table count, for *done with flank
    /// marches* in the footer.
    finish: Option<(Side, usize)>,
}

fn turn(battle: &Battle) -> Option<Side> {
    match battle.phase() {
        Phase::Deployment(DeploymentTurn::FlankMarches(side)) => Some(side),
        _ => None,
    }
}

impl FlankMarchesPanel {
    /// Drops the private session's key and opened secrets.
    pub fn end_private_session(&mut self) {
        self.privacy.forget();
    }

    /// The private session, which keeps its player's refusals.
    pub fn privacy(&mut self) -> &mut Privacy {
        &mut self.privacy
    }

    pub fn hand_over(&mut self, battle: &Battle, showing: bool) -> Option<HandOver> {
        if turn(battle).is_none_or(|s| !self.privacy.holds(s)) {
            self.privacy.forget();
        }
        let wanted = turn(battle).filter(|_| showing);
        let mut screen = self
            .privacy
            .screen(battle, wanted.map(|s| (s, "records his flank marches")))?;
        // Without an ambush marker nothing of his is off the table yet, so
        // "none" needs no secret: the off-table count is 0 for all to see.
        let no_markers = |side: Side| {
            !battle
                .state()
                .deployment
                .ambushes
                .iter()
                .any(|a| a.side == side)
        };
        if let (Some(side), true) = (wanted, screen.can_wait)
            && no_markers(side)
        {
            screen.open_choice = Some((
                format!("{side}: no flank marches"),
                FogCommand::Apply(Command::FinishFlankMarches { side, off_table: 0 }),
            ));
        }
        Some(screen)
    }

    pub fn handed_over(&mut self, battle: &Battle) {
        self.privacy.handed_over(turn(battle));
        self.values.clear();
    }
}

impl StepPanel for FlankMarchesPanel {
    fn footer(&mut self, ui: &mut egui::Ui, _battle: &Battle, out: &mut Vec<FogCommand>) {
        let Some((side, off_table)) = self.finish else {
            return;
        };
        if crate::app::guard::button(ui, format!("{side}: done with flank marches")) {
            out.push(FogCommand::Apply(Command::FinishFlankMarches {
                side,
                off_table,
            }));
            self.privacy.forget();
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        self.finish = None;
        super::help(ui, battle, "flank_marches");
        self.private_session(ui, battle, out);
        // The public records last, so the passphrase field above stands in
        // the same place for both players.
        ui.add_space(6.0);
        for m in &battle.state().deployment.flank_marches {
            ui.label(format!(
                "{}: a flank march, sealed {}",
                m.side,
                m.sealed.code()
            ));
        }
    }
}

impl FlankMarchesPanel {
    /// The player's own flank marches, once he holds the screen and has
    /// given his passphrase.
    fn private_session(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        let Some(side) = turn(battle) else {
            ui.label("Flank marches are recorded after ambushes.");
            return;
        };
        if !self.privacy.holds(side) {
            ui.label(self.privacy.waiting(side, "records his flank marches"));
            return;
        }
        ui.strong(format!("{side}: your flank marches (private)"));
        let Some(key) = self.privacy.key(ui, battle, side) else {
            return;
        };
        match flank_marches(battle, side, &key, &self.values) {
            Ok((screen, off_table)) => {
                let reply =
                    crate::app::screen::show(ui, &screen, ("march", side), &mut self.values);
                if let Some(reply) = reply {
                    match answer_flank_march(battle, side, &key, &reply, false) {
                        Ok(command) => {
                            out.push(FogCommand::Private(command));
                            self.values.remove("bgs");
                        }
                        Err(e) => _ = self.privacy.refuse(e.to_string()),
                    }
                }
                self.finish = Some((side, off_table));
            }
            Err(e) => _ = self.privacy.refuse(e.to_string()),
        }
        self.privacy.show_refusal(ui);
    }
}
