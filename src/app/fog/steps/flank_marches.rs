//! Flank marches (RULES 8.4) in private: each player in turn, behind the
//! hand-over screen and with his passphrase, ticks the battle groups of a
//! march, picks the commander leading it and the flank, and seals it; both
//! see only its commitment code. When he is done, Muster states how many
//! of his battle groups stay off the table (the table shows as much).

use super::StepPanel;
use crate::app::AppCommand;
use crate::app::privacy::{HandOver, Privacy};
use eframe::egui;
use muster::core::side::Side;
use muster::fog::battle::{
    AmbushContent, Battle, Command, DeploymentTurn, Flank, FlankMarchPlan, Phase,
    arrival_modifiers, seal_plan,
};
use std::collections::BTreeSet;

pub struct FlankMarchesPanel {
    privacy: Privacy,
    ticked: BTreeSet<usize>,
    commander: usize,
    flank: Flank,
    error: Option<String>,
    /// The side in session and his off-table count, for *done with flank
    /// marches* in the footer.
    finish: Option<(Side, usize)>,
}

impl Default for FlankMarchesPanel {
    fn default() -> Self {
        FlankMarchesPanel {
            privacy: Privacy::default(),
            ticked: BTreeSet::new(),
            commander: 0,
            flank: Flank::Left,
            error: None,
            finish: None,
        }
    }
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
                AppCommand::Apply(Command::FinishFlankMarches { side, off_table: 0 }),
            ));
        }
        Some(screen)
    }

    pub fn handed_over(&mut self, battle: &Battle) {
        self.privacy.handed_over(turn(battle));
        self.ticked.clear();
    }
}

impl StepPanel for FlankMarchesPanel {
    fn footer(&mut self, ui: &mut egui::Ui, _battle: &Battle, out: &mut Vec<AppCommand>) {
        let Some((side, off_table)) = self.finish else {
            return;
        };
        if ui
            .button(format!("{side}: done with flank marches"))
            .clicked()
        {
            out.push(AppCommand::Apply(Command::FinishFlankMarches {
                side,
                off_table,
            }));
            self.privacy.release(side.opponent());
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<AppCommand>) {
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
    fn private_session(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<AppCommand>) {
        let state = battle.state();
        let Some(side) = turn(battle) else {
            ui.label("Flank marches are recorded after ambushes.");
            return;
        };
        if !self.privacy.holds(side) {
            ui.label(format!("Waiting for {side} to take the screen."));
            return;
        }
        ui.strong(format!("{side}: your flank marches (private)"));
        let Some(key) = self.privacy.key(ui, battle, side) else {
            return;
        };
        let army = state.armies[side].as_ref().expect("armies are set by now");
        let marches = self.privacy.marches(battle);
        let ambushes = self.privacy.ambushes(battle);
        let mut hidden: BTreeSet<usize> = ambushes
            .iter()
            .filter_map(|(_, c)| match c {
                AmbushContent::Bg { bg } => Some(*bg),
                AmbushContent::Dummy => None,
            })
            .collect();
        for (i, m) in &marches {
            let plan = &m.secret;
            let names: Vec<&str> = plan
                .bgs
                .iter()
                .map(|b| army.bgs[*b].name.as_str())
                .collect();
            ui.label(format!(
                "March {}: {} on the {} flank, led by {}",
                muster::fog::battle::march_number(battle.state(), *i),
                names.join(", "),
                plan.flank.name(),
                army.commanders
                    .get(plan.commander)
                    .map_or("?", |c| c.name.as_str())
            ));
            hidden.extend(plan.bgs.iter().copied());
        }
        if army.commanders.is_empty() {
            ui.label("This army has no commander besides the C-in-C to lead a flank march.");
        } else {
            ui.add_space(4.0);
            ui.label("A new march: tick its battle groups.");
            for (bg, group) in army.bgs.iter().enumerate() {
                if hidden.contains(&bg) {
                    continue;
                }
                let mut on = self.ticked.contains(&bg);
                if ui
                    .checkbox(&mut on, format!("{} marches", group.name))
                    .changed()
                {
                    if on {
                        self.ticked.insert(bg);
                    } else {
                        self.ticked.remove(&bg);
                    }
                }
            }
            self.commander = self.commander.min(army.commanders.len() - 1);
            ui.horizontal(|ui| {
                ui.label("Led by");
                egui::ComboBox::from_id_salt("march commander")
                    .selected_text(&army.commanders[self.commander].name)
                    .show_ui(ui, |ui| {
                        for (i, c) in army.commanders.iter().enumerate() {
                            let text = format!("{} ({})", c.name, c.quality.name());
                            ui.selectable_value(&mut self.commander, i, text);
                        }
                    })
                    .response
                    .accessible_name("Led by");
                ui.radio_value(&mut self.flank, Flank::Left, "Left flank");
                ui.radio_value(&mut self.flank, Flank::Right, "Right flank");
            });
            let plan = FlankMarchPlan {
                bgs: self.ticked.iter().copied().collect(),
                commander: self.commander,
                flank: self.flank,
            };
            let mods = arrival_modifiers(battle.ruleset(), army, &plan);
            let total: i32 = mods.iter().map(|m| m.value).sum();
            let why: Vec<String> = mods
                .iter()
                .map(|m| format!("{:+} {}", m.value, m.reason))
                .collect();
            ui.label(format!(
                "Arrival modifier {total:+}{}",
                if why.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", why.join(", "))
                }
            ));
            if ui
                .add_enabled(!plan.bgs.is_empty(), egui::Button::new("Seal flank march"))
                .on_hover_text("Encrypts the march under your key and logs only its commitment code: your opponent learns that a march exists, not what it is")
                .clicked()
            {
                match seal_plan(state, battle.ruleset(), side, &plan, &key) {
                    Ok(command) => {
                        out.push(AppCommand::Apply(command));
                        self.ticked.clear();
                        self.error = None;
                    }
                    Err(e) => self.error = Some(e.to_string()),
                }
            }
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        ui.add_space(6.0);
        let off_table = hidden.len();
        ui.label(format!(
            "{off_table} of your battle groups stay off the table (in ambush or marching); both players will see that number."
        ));
        self.finish = Some((side, off_table));
    }
}
