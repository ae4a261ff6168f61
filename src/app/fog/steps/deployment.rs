//! Deployment (RULES 8.5-8.7) in the window: the batches Muster computed and
//! whose turn each is, a checklist the player ticks as he sets battle groups
//! on the real table, then dismounting, then commanders; the depth lines are
//! drawn on the table for the side deploying.

use super::{MainAction, StepPanel, verdict_line};
use crate::app::fog::FogCommand;
use crate::app::fog::table_view::{Frame, Overlay};
use eframe::egui;
use egui::{Align2, Color32, FontId, Stroke, Vec2};
use muster::core::side::{Side, Sides};
use muster::fog::battle::{
    Battle, Command, DeploymentTurn, Finished, Phase, batch_plan, deployed_bgs,
};
use std::collections::BTreeSet;

#[derive(Default)]
pub struct DeploymentPanel {
    /// BGs ticked for the current batch or dismounting, and for which turn.
    ticked: BTreeSet<usize>,
    for_turn: Option<DeploymentTurn>,
    /// *Batch n deployed*, for the footer.
    main: Option<MainAction>,
    /// Who is on his phone: his sealed battle groups are checked there.
    /// Where each player's screens are, if not on this laptop.
    pub away: Sides<Option<crate::app::seating::life::Away>>,
}

fn turn(battle: &Battle) -> Option<DeploymentTurn> {
    match battle.phase() {
        Phase::Deployment(
            t @ (DeploymentTurn::Batch { .. }
            | DeploymentTurn::Dismount(_)
            | DeploymentTurn::Commanders(_)),
        ) => Some(t),
        _ => None,
    }
}

impl DeploymentPanel {
    /// Once the batches are in: each player who kept battle groups off the
    /// table may check, on his own screen, that none of them is also on it.
    fn sealed_check(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        let state = battle.state();
        for side in Side::BOTH {
            if state.deployment.off_table[side].unwrap_or(0) == 0 {
                continue;
            }
            if let Some(away) = self.away[side] {
                ui.label(format!(
                    "{side}'s {} checks their sealed battle groups as they deploy.",
                    away.device()
                ));
            } else {
                let ask = ui
                    .button(format!("{side}: check my sealed battle groups in private"))
                    .on_hover_text("On your own screen: is any battle group you put in ambush or on a flank march also deployed?");
                if ask.clicked() {
                    out.push(FogCommand::Show(side));
                }
            }
        }
    }

    /// A new turn starts from Muster's proposal: for a batch of a side
    /// with nothing sealed off the table, the next battle groups of the
    /// roster in order, skipping those deployed; the player changes the
    /// ticks to match what he set on the real table. A side with battle
    /// groups sealed off the table gets no proposal: skipping them would
    /// tell which (issue 32), ticking them would deploy them.
    fn settle(&mut self, battle: &Battle, t: Option<DeploymentTurn>) {
        if self.for_turn == t {
            return;
        }
        self.ticked.clear();
        self.for_turn = t;
        if let Some(DeploymentTurn::Batch { side, size, .. }) = t
            && !sealing(battle, side)
            && let Some(army) = &battle.state().armies[side]
        {
            let done = deployed_bgs(battle.state(), side);
            self.ticked = (0..army.bgs.len())
                .filter(|bg| !done.contains(bg))
                .take(size)
                .collect();
        }
    }
}

/// Whether `side` keeps battle groups sealed off the table.
fn sealing(battle: &Battle, side: Side) -> bool {
    battle.state().deployment.off_table[side].unwrap_or(0) > 0
}

/// "N 1 (3), S 1 (3), ...": the engine's batch plan.
fn schedule_line(battle: &Battle, init: Side) -> String {
    let order: Vec<String> = batch_plan(battle.state(), battle.ruleset(), init)
        .iter()
        .map(|(s, n, size)| format!("{} {n} ({size})", &s.name()[..1]))
        .collect();
    format!("Batch order: {}", order.join(", "))
}

impl StepPanel for DeploymentPanel {
    fn footer(&mut self, ui: &mut egui::Ui, _battle: &Battle, out: &mut Vec<FogCommand>) {
        MainAction::show(&mut self.main, ui, out);
    }

    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        self.main = None;
        super::help(ui, battle, "deployment");
        let t = turn(battle);
        self.settle(battle, t);
        let state = battle.state();
        let ruleset = battle.ruleset();
        let rules = &ruleset.deployment;
        if let Some(init) = state.initiative.winner {
            ui.label(schedule_line(battle, init));
        }
        let Some(t) = t else {
            ui.label(match battle.phase() {
                Phase::MovesFirst | Phase::Play => "Deployment is complete.",
                _ => "Battle groups deploy after ambushes and flank marches.",
            });
            return;
        };
        if !matches!(t, DeploymentTurn::Batch { .. }) {
            self.sealed_check(ui, battle, out);
        }
        let side = t.side();
        let army = state.armies[side].as_ref().expect("armies are set by now");
        ui.add_space(4.0);
        match t {
            DeploymentTurn::Batch { number, size, .. } => {
                let settings = &state.settings;
                ui.heading(format!(
                    "{side}: deploy {}; skirmishers within {}, others within {}",
                    muster_core::text::count(size as u64, "BG", "BGs"),
                    settings.length_mu(rules.skirmisher_depth),
                    settings.length_mu(rules.other_depth)
                ));
                if let (true, Some(away)) = (sealing(battle, side), self.away[side]) {
                    ui.label(format!(
                        "Batch {number}: {side} ticks it {}, which never offers a battle group they keep in ambush or on a flank march.",
                        away.on()
                    ));
                    return;
                }
                // RULES 8.5 ruling: without a phone, a side keeping groups
                // off the table picks here from all not yet on it, nothing
                // ticked or marked (a mark would tell what he sealed); his
                // private check names any he both sealed and deployed.
                if sealing(battle, side) {
                    ui.label(format!("Batch {number}: tick the {size} you set on the table."))
                        .on_hover_text("Muster neither hides nor marks the battle groups you sealed; your private check after the batches names any you both sealed and deployed (RULES 8.5).");
                } else if self.away[side] == Some(crate::app::seating::life::Away::Machine) {
                    // His batch is ticked on his own Muster, not here.
                    ui.label(format!(
                        "Batch {number}: {side} ticks the {size} they set on the table on their own Muster."
                    ));
                } else {
                    ui.label(format!(
                        "Batch {number}. Muster ticked the next {size} of your roster; change the ticks to match what you set on the table."
                    ));
                }
                let done = deployed_bgs(state, side);
                for bg in 0..army.bgs.len() {
                    if done.contains(&bg) {
                        continue;
                    }
                    let group = &army.bgs[bg];
                    let skirmisher = ruleset
                        .troop_types
                        .get(&group.troop_type)
                        .is_some_and(|t| t.skirmisher);
                    let depth = if skirmisher {
                        rules.skirmisher_depth
                    } else {
                        rules.other_depth
                    };
                    let mut on = self.ticked.contains(&bg);
                    let text = format!(
                        "{} ({}, within {})",
                        group.name,
                        ruleset.troop_name(&group.troop_type),
                        settings.length_mu(depth)
                    );
                    if ui.checkbox(&mut on, text).changed() {
                        if on {
                            self.ticked.insert(bg);
                        } else {
                            self.ticked.remove(&bg);
                        }
                    }
                }
                let command = Command::DeployBatch {
                    side,
                    bgs: self.ticked.iter().copied().collect(),
                };
                let legal = verdict_line(ui, battle, &command, "✔ The batch is complete");
                self.main = Some(MainAction::new(
                    format!("Batch {number} deployed"),
                    legal.then_some(FogCommand::Apply(command)),
                ));
            }
            DeploymentTurn::Dismount(_) => {
                ui.heading(format!("{side}: commit to dismounting"));
                let can: Vec<usize> = (0..army.bgs.len())
                    .filter(|bg| army.bgs[*bg].may_dismount)
                    .collect();
                if can.is_empty() {
                    ui.label("No battle group of this army may dismount.");
                }
                for bg in can {
                    let mut on = self.ticked.contains(&bg);
                    if ui
                        .checkbox(&mut on, format!("{} dismounts", army.bgs[bg].name))
                        .changed()
                    {
                        if on {
                            self.ticked.insert(bg);
                        } else {
                            self.ticked.remove(&bg);
                        }
                    }
                }
                let label = if self.ticked.is_empty() {
                    format!("{side}: no dismounting")
                } else {
                    format!("{side}: commit to dismounting")
                };
                self.main = Some(MainAction::new(
                    label,
                    Some(FogCommand::Apply(Command::CommitDismount {
                        side,
                        bgs: self.ticked.iter().copied().collect(),
                    })),
                ));
            }
            DeploymentTurn::Commanders(_) => {
                ui.heading(format!(
                    "{side}: place your commanders within {} of your long edge",
                    state.settings.length_mu(rules.commander_depth)
                ));
                if state
                    .deployment
                    .flank_marches
                    .iter()
                    .any(|m| m.side == side)
                {
                    // The leader is sealed: the list names every commander,
                    // so it must say who of them stays off (issue 39: it
                    // read as if the marching leader were left out).
                    ui.label("Place each commander below except the one who leads your flank march: he arrives with it. The list names them all, since which one marches is sealed.");
                }
                ui.label(format!("C-in-C: {}", army.c_in_c.name));
                for c in &army.commanders {
                    ui.label(format!("{}: {}", c.quality.name(), c.name));
                }
                self.main = Some(MainAction::new(
                    format!("{side}: commanders placed"),
                    Some(FogCommand::Apply(Command::Finish {
                        side,
                        step: Finished::Commanders,
                    })),
                ));
            }
            _ => {}
        }
    }
}

impl Overlay for DeploymentPanel {
    fn under(&mut self, painter: &egui::Painter, frame: &Frame, battle: &Battle) {
        let Some(t) = turn(battle) else { return };
        let table = &battle.state().settings.table;
        let rules = &battle.ruleset().deployment;
        let lines = match t {
            DeploymentTurn::Batch { .. } => vec![rules.other_depth, rules.skirmisher_depth],
            DeploymentTurn::Commanders(_) => vec![rules.commander_depth],
            _ => return,
        };
        let colour = Color32::from_rgb(230, 150, 40);
        for depth in lines {
            let y = match t.side() {
                Side::South => depth,
                Side::North => table.depth - depth,
            };
            let (a, b) = (frame.to_screen([0.0, y]), frame.to_screen([table.width, y]));
            painter.line_segment([a, b], Stroke::new(2.0, colour));
            // Just inside the table's east edge, above its line: outside,
            // a length in cm ran past the margin and was cut ("45.7 cr").
            // The panel's heading says what each line is for.
            painter.text(
                b + Vec2::new(-4.0, -2.0),
                Align2::RIGHT_BOTTOM,
                battle.state().settings.length(depth),
                FontId::proportional(11.0),
                colour,
            );
        }
    }
}
