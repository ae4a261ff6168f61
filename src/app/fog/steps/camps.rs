//! Camps and field fortifications (RULES 8.1-8.2) in the window: the player
//! whose turn it is clicks the table (or types the position) to put the
//! outline there, sees at once whether the engine accepts it and why not,
//! and places it; the depth limits are drawn on the table.

use super::{MainAction, StepPanel, verdict_line};
use crate::app::fog::FogCommand;
use crate::app::fog::table_view::{Frame, Overlay};
use eframe::egui;
use egui::{Color32, Response, Stroke};
use muster::core::side::Side;
use muster::fog::battle::{
    Battle, Command, DeploymentTurn, Finished, Phase, Settings, camp_footprint,
    fortification_footprint,
};
use muster::fog::geometry::{Footprint, Pose};

#[derive(Default)]
pub struct CampsPanel {
    /// The outline being positioned, and the turn it belongs to.
    draft: Option<(DeploymentTurn, Pose)>,
    /// The player moved the outline in this turn (a click on the table or
    /// a typed position): placing a fortification is then the main action,
    /// else finishing (most armies build none).
    moved: bool,
    /// *Place camp*, *Place fortification* or finishing, for the footer.
    main: Option<MainAction>,
}

fn turn(battle: &Battle) -> Option<DeploymentTurn> {
    match battle.phase() {
        Phase::Deployment(t @ (DeploymentTurn::Camp(_) | DeploymentTurn::Fortifications(_))) => {
            Some(t)
        }
        _ => None,
    }
}

/// Where the outline starts: half-way into `side`'s 12 MU zone, at the
/// first place along it the engine accepts, so the player starts from a
/// legal position.
fn start_pose(battle: &Battle, t: DeploymentTurn) -> Pose {
    let table = &battle.state().settings.table;
    let y = match t.side() {
        Side::South => 6.0,
        Side::North => table.depth - 6.0,
    };
    let middle = table.width / 2.0;
    let tries = (0..12).flat_map(|k| [middle + 3.0 * f64::from(k), middle - 3.0 * f64::from(k)]);
    tries
        .map(|x| Pose::new(x, y, 0.0))
        .find(|pose| battle.check(&CampsPanel::command(t, *pose)).is_ok())
        .unwrap_or(Pose::new(middle, y, 0.0))
}

impl CampsPanel {
    fn pose(&mut self, battle: &Battle, t: DeploymentTurn) -> &mut Pose {
        if self
            .draft
            .as_ref()
            .is_none_or(|(for_turn, _)| *for_turn != t)
        {
            self.draft = Some((t, start_pose(battle, t)));
            self.moved = false;
        }
        &mut self.draft.as_mut().expect("set above").1
    }

    fn command(t: DeploymentTurn, pose: Pose) -> Command {
        match t {
            DeploymentTurn::Camp(side) => Command::PlaceCamp { side, pose },
            _ => Command::PlaceFortification {
                side: t.side(),
                pose,
            },
        }
    }

    fn footprint(battle: &Battle, t: DeploymentTurn, pose: Pose) -> Footprint {
        match t {
            DeploymentTurn::Camp(_) => camp_footprint(battle.ruleset(), pose),
            _ => fortification_footprint(battle.ruleset(), pose),
        }
    }
}

/// The outline's position typed; whether it changed.
fn pose_fields(ui: &mut egui::Ui, pose: &mut Pose, settings: &Settings) -> bool {
    let before = *pose;
    ui.horizontal(|ui| {
        let l = ui.label("Centre x");
        ui.add(super::length_field(&mut pose.x, settings).speed(0.1))
            .labelled_by(l.id);
        let l = ui.label("y");
        ui.add(super::length_field(&mut pose.y, settings).speed(0.1))
            .labelled_by(l.id);
        ui.label("turned");
        ui.add(
            egui::DragValue::new(&mut pose.angle)
                .speed(1.0)
                .range(-180.0..=180.0)
                .suffix("°"),
        );
    });
    *pose != before
}

impl StepPanel for CampsPanel {
    fn footer(&mut self, ui: &mut egui::Ui, _battle: &Battle, out: &mut Vec<FogCommand>) {
        MainAction::show(&mut self.main, ui, out);
    }

    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        self.main = None;
        super::help(ui, battle, "camps");
        let state = battle.state();
        let ruleset = battle.ruleset();
        let Some(t) = turn(battle) else {
            let done = Side::BOTH
                .iter()
                .all(|s| state.deployment.camps[*s].is_some())
                && Side::BOTH
                    .iter()
                    .all(|s| state.deployment.fortifications_done[*s]);
            ui.label(if done {
                "Camps and fortifications are placed."
            } else {
                "Camps are placed once the terrain is on the table."
            });
            return;
        };
        let side = t.side();
        let player = state.armies[side]
            .as_ref()
            .map_or(String::new(), |a| format!(" ({})", a.player));
        let (what, button) = match t {
            DeploymentTurn::Camp(_) => {
                let [w, d] = ruleset.deployment.camp.footprint;
                (
                    format!("{side}{player} places their camp, {w} x {d} MU."),
                    "Place camp",
                )
            }
            _ => {
                let [w, d] = ruleset.deployment.fortifications.footprint;
                let placed = state
                    .deployment
                    .fortifications
                    .iter()
                    .filter(|(s, _)| *s == side)
                    .count();
                (
                    format!(
                        "{side}{player} places field fortifications, {w} x {d} MU sections ({placed} placed so far), or none."
                    ),
                    "Place fortification",
                )
            }
        };
        ui.strong(state.settings.speak(&what));
        ui.label(if matches!(t, DeploymentTurn::Fortifications(_)) {
            "Click the table to put it there, or type the position; a click near the end of a section lays the next one end to end with it."
        } else {
            "Click the table to put it there, or type the position."
        });
        let pose = self.pose(battle, t);
        let typed = pose_fields(ui, pose, &state.settings);
        let pose = *pose;
        self.moved |= typed;
        let [w, d] = match t {
            DeploymentTurn::Camp(_) => ruleset.deployment.camp.footprint,
            _ => ruleset.deployment.fortifications.footprint,
        };
        let shape = muster::fog::geometry::Shape::Rectangle { width: w, depth: d };
        ui.label(super::tape_measure(state, &shape, pose));
        let command = Self::command(t, pose);
        let legal = verdict_line(ui, battle, &command, super::LEGAL_POSITION);
        let place = MainAction::new(button, legal.then_some(FogCommand::Apply(command)));
        if !matches!(t, DeploymentTurn::Fortifications(_)) {
            self.main = Some(place);
            return;
        }
        // Fortifications: finishing is the main action until he puts a
        // section somewhere; then placing it is, and finishing waits here.
        let finish = MainAction::new(
            format!("{side}: finish fortifications"),
            Some(FogCommand::Apply(Command::Finish {
                side,
                step: Finished::Fortifications,
            })),
        );
        let (main, other) = if self.moved {
            (place, finish)
        } else {
            (finish, place)
        };
        self.main = Some(main);
        MainAction::show_aside(other, ui, out);
    }
}

/// A click near the end of one of `side`'s fortification sections lays
/// the next section end to end with it, in line: field works are built as
/// a continuous line, and nobody can click that exactly.
fn abut(battle: &Battle, side: Side, click: [f64; 2]) -> Option<Pose> {
    let [w, _] = battle.ruleset().deployment.fortifications.footprint;
    let reach = w / 2.0 + 1.0;
    battle
        .state()
        .deployment
        .fortifications
        .iter()
        .filter(|(s, _)| *s == side)
        .flat_map(|(_, pose)| {
            // Each end, and the centre a section abutting it would have.
            [1.0, -1.0].map(|dir| {
                (
                    pose.apply([dir * w / 2.0, 0.0]),
                    pose.apply([dir * w, 0.0]),
                    pose.angle,
                )
            })
        })
        .map(|(end, centre, angle)| ((end[0] - click[0]).hypot(end[1] - click[1]), centre, angle))
        .filter(|(d, ..)| *d <= reach)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c, angle)| Pose::new(c[0], c[1], angle))
}

impl Overlay for CampsPanel {
    fn under(&mut self, painter: &egui::Painter, frame: &Frame, battle: &Battle) {
        let Some(t) = turn(battle) else { return };
        let table = &battle.state().settings.table;
        let rules = &battle.ruleset().deployment;
        let line = |depth: f64, x0: f64, x1: f64| {
            let y = match t.side() {
                Side::South => depth,
                Side::North => table.depth - depth,
            };
            painter.line_segment(
                [frame.to_screen([x0, y]), frame.to_screen([x1, y])],
                Stroke::new(2.0, Color32::from_rgb(230, 150, 40)),
            );
        };
        match t {
            DeploymentTurn::Camp(_) => line(rules.camp.max_depth, 0.0, table.width),
            _ => {
                let third = table.width / 3.0;
                let ff = &rules.fortifications;
                line(ff.max_depth, 0.0, third);
                line(ff.central_third_max_depth, third, 2.0 * third);
                line(ff.max_depth, 2.0 * third, table.width);
            }
        }
    }

    fn over(&mut self, ui: &mut egui::Ui, response: &Response, frame: &Frame, battle: &Battle) {
        let Some(t) = turn(battle) else { return };
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            let q = frame.to_table(p);
            let snapped = match t {
                DeploymentTurn::Fortifications(side) => abut(battle, side, q),
                _ => None,
            };
            let pose = self.pose(battle, t);
            match snapped {
                Some(s) => *pose = s,
                None => (pose.x, pose.y) = (q[0], q[1]),
            }
            self.moved = true;
        }
        let pose = *self.pose(battle, t);
        let legal = battle.check(&Self::command(t, pose)).is_ok();
        let colour = if legal {
            Color32::from_rgb(60, 170, 80)
        } else {
            Color32::from_rgb(220, 60, 60)
        };
        let f = Self::footprint(battle, t, pose);
        ui.painter_at(response.rect).extend(frame.footprint(
            &f,
            colour.gamma_multiply(0.35),
            Stroke::new(2.0, colour),
        ));
    }
}
