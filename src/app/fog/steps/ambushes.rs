//! Ambushes (RULES 8.3) in the window: each player in turn places his
//! markers in private, on his own seat's screen (`muster_fog::seat`): what
//! a marker stands for, the legality map over the table, the point he
//! picked with the rules' verdict. The table shows only how many markers
//! each side has placed, and who is placing his now.

use super::StepPanel;
use crate::app::fog::FogCommand;
use crate::app::seating::life::Away;
use eframe::egui;
use muster::core::side::{Side, Sides};
use muster::fog::battle::{Battle, DeploymentTurn, Phase};

#[derive(Default)]
pub struct AmbushesPanel {
    /// Who is on his phone: his markers are placed there.
    /// Where each player's screens are, if not on this laptop.
    pub away: Sides<Option<Away>>,
}

fn turn(battle: &Battle) -> Option<Side> {
    match battle.phase() {
        Phase::Deployment(DeploymentTurn::Ambushes(side)) => Some(side),
        _ => None,
    }
}

/// What the table says while `side` does his private step: he does it on
/// his phone, or takes the laptop, whose hand-over screen comes again
/// (after "Not now", the table is not a dead end).
pub fn waiting(
    ui: &mut egui::Ui,
    battle: &Battle,
    away: &Sides<Option<Away>>,
    side: Side,
    what: &str,
    out: &mut Vec<FogCommand>,
) {
    // The side and its player: the laptop is passed to a person.
    let name = muster::core::seat::Seated::seat_name(battle, side);
    if let Some(away) = away[side] {
        ui.label(format!("{name} {what} {}.", away.on()));
        return;
    }
    ui.label(format!("Waiting for {name} to take the screen."));
    if crate::app::guard::button(ui, format!("{name} takes the laptop")) {
        out.push(FogCommand::Resume(side));
    }
}

impl StepPanel for AmbushesPanel {
    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
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
        if let Some(side) = turn(battle) {
            waiting(ui, battle, &self.away, side, "places their ambushes", out);
        }
    }
}
