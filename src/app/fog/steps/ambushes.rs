//! Ambushes (RULES 8.3) in the window, behind the hand-over screen: each
//! player in turn, the other looking away, chooses what a marker stands for
//! (one of his battle groups or a dummy), sees where that may hide (the
//! legality map over the table, each point's reason on hover) and places
//! it. Away from the owner's private turn, only where markers stand shows.

use super::StepPanel;
use crate::app::AppCommand;
use crate::app::fog::table_view::{Frame, Overlay};
use crate::app::privacy::{HandOver, Privacy};
use eframe::egui;
use egui::{Align2, Color32, FontId, Response, Stroke, Vec2};
use muster::core::side::Side;
use muster::fog::battle::{
    AmbushContent, AmbushMaps, Battle, Command, DeploymentTurn, Finished, Phase, Profile, Verdict,
    check_ambush, seal_ambush,
};

#[derive(Default)]
pub struct AmbushesPanel {
    privacy: Privacy,
    content: Option<AmbushContent>,
    draft: Option<[f64; 2]>,
    maps: AmbushMaps,
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

fn player(battle: &Battle, side: Side) -> String {
    battle.state().armies[side]
        .as_ref()
        .map_or(side.to_string(), |a| format!("{side} ({})", a.player))
}

/// A marker's content in words, for its owner only.
pub fn content_name(battle: &Battle, side: Side, content: AmbushContent) -> String {
    match content {
        AmbushContent::Dummy => "Dummy".into(),
        AmbushContent::Bg { bg } => battle.state().armies[side]
            .as_ref()
            .and_then(|a| a.bgs.get(bg))
            .map_or(format!("Battle group {}", bg + 1), |b| b.name.clone()),
    }
}

impl AmbushesPanel {
    /// Forgets a private view once its turn is over (or was undone).
    fn settle(&mut self, battle: &Battle) {
        let side = turn(battle);
        if side.is_none_or(|s| !self.privacy.holds(s)) {
            self.privacy.forget();
            self.content = None;
            self.draft = None;
        }
    }

    /// Drops the private session's key and opened secrets.
    pub fn end_private_session(&mut self) {
        self.privacy.forget();
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
                AppCommand::Apply(Command::Finish {
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

    fn profile(&self, battle: &Battle, side: Side) -> Option<Profile> {
        let content = self.content?;
        Profile::of(battle.state(), battle.ruleset(), side, content).ok()
    }
}

impl StepPanel for AmbushesPanel {
    fn footer(&mut self, ui: &mut egui::Ui, _battle: &Battle, out: &mut Vec<AppCommand>) {
        let Some(side) = self.finish else { return };
        if ui
            .button(format!("{side}: finish ambushes"))
            .on_hover_text("Ends your private session: the screen is then passed on")
            .clicked()
        {
            out.push(AppCommand::Apply(Command::Finish {
                side,
                step: Finished::Ambushes,
            }));
            self.privacy.release(side.opponent());
            self.content = None;
            self.draft = None;
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<AppCommand>) {
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
            ui.label(format!("Waiting for {side} to take the screen."));
            return;
        }
        ui.add_space(6.0);
        ui.strong(format!("{}: your ambushes (private)", player(battle, side)));
        let Some(key) = self.privacy.key(ui, battle, side) else {
            return;
        };
        let mine = self.privacy.ambushes(battle);
        for (i, content) in &mine {
            ui.label(format!(
                "{} at {}, sealed {}",
                content_name(battle, side, *content),
                state.settings.point(state.deployment.ambushes[*i].at),
                state.deployment.ambushes[*i].sealed.code()
            ));
        }
        let army = state.armies[side].as_ref().expect("armies are set by now");
        let mut choices: Vec<AmbushContent> = (0..army.bgs.len())
            .map(|bg| AmbushContent::Bg { bg })
            .filter(|c| !mine.iter().any(|(_, m)| m == c))
            .collect();
        choices.push(AmbushContent::Dummy);
        let label = self
            .content
            .map_or("Choose...".to_string(), |c| content_name(battle, side, c));
        ui.horizontal(|ui| {
            ui.label("This marker is");
            egui::ComboBox::from_id_salt("ambush content")
                .selected_text(label)
                .show_ui(ui, |ui| {
                    for c in choices {
                        let name = content_name(battle, side, c);
                        ui.selectable_value(&mut self.content, Some(c), name);
                    }
                })
                .response
                .accessible_name("Marker stands for");
        });
        if let Some(profile) = self.profile(battle, side) {
            let map = self.maps.get(state, battle.ruleset(), side, profile);
            ui.label(format!(
                "Green on the table: where {} may hide ({} of the {} cells of {} MU in the ambush zone); hover for why.",
                map.profile.name,
                map.legal_cells(),
                map.zone_cells(),
                map.cell
            ));
            ui.label("Click the table to put the marker there.");
            if let (Some(at), Some(content)) = (self.draft, self.content) {
                ui.label(format!("Marker at {}", state.settings.point(at)));
                let check = check_ambush(state, battle.ruleset(), side, content, at);
                let legal = super::verdict(ui, battle, check.map(|_| ()), super::LEGAL_POSITION);
                let button = egui::Button::new("Seal and place ambush marker");
                let seal = "Encrypts what the marker stands for under your key; both players see only the marker and its commitment code";
                if ui.add_enabled(legal, button).on_hover_text(seal).clicked() {
                    match seal_ambush(state, battle.ruleset(), side, at, content, &key) {
                        Ok(command) => {
                            out.push(AppCommand::Private(command));
                            self.draft = None;
                            self.content = None;
                        }
                        Err(e) => _ = self.privacy.refuse(e.to_string()),
                    }
                }
            }
            self.privacy.show_refusal(ui);
        }
        self.finish = Some(side);
    }
}

impl AmbushesPanel {
    /// The legality map for the chosen marker, over the pieces so that the
    /// cover they give shows.
    fn paint_map(&mut self, painter: &egui::Painter, frame: &Frame, battle: &Battle, side: Side) {
        let Some(profile) = self.profile(battle, side) else {
            return;
        };
        let map = self
            .maps
            .get(battle.state(), battle.ruleset(), side, profile);
        let half = map.cell / 2.0;
        let mut mesh = egui::Mesh::default();
        for (c, verdict) in map.cells() {
            let fill = match verdict {
                Verdict::Legal => Color32::from_rgba_unmultiplied(40, 230, 90, 120),
                Verdict::Seen => Color32::from_rgba_unmultiplied(220, 60, 60, 60),
                Verdict::Terrain => Color32::from_rgba_unmultiplied(90, 90, 90, 90),
                Verdict::OutsideZone => continue,
            };
            let rect = egui::Rect::from_two_pos(
                frame.to_screen([c[0] - half, c[1] - half]),
                frame.to_screen([c[0] + half, c[1] + half]),
            );
            mesh.add_colored_rect(rect, fill);
        }
        painter.add(egui::Shape::mesh(mesh));
    }
}

impl Overlay for AmbushesPanel {
    fn over(&mut self, ui: &mut egui::Ui, response: &Response, frame: &Frame, battle: &Battle) {
        let Some(side) = turn(battle).filter(|s| self.privacy.holds(*s)) else {
            return;
        };
        let painter = ui.painter_at(response.rect);
        let ink = ui.visuals().text_color();
        self.paint_map(&painter, frame, battle, side);
        {
            for (i, content) in self.privacy.ambushes(battle) {
                painter.text(
                    frame.to_screen(battle.state().deployment.ambushes[i].at)
                        + Vec2::new(0.0, 10.0),
                    Align2::CENTER_TOP,
                    content_name(battle, side, content),
                    FontId::proportional(12.0),
                    ink,
                );
            }
        }
        let Some(content) = self.content else { return };
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            self.draft = Some(frame.to_table(p));
        }
        if let Some(at) = self.draft {
            painter.circle_stroke(frame.to_screen(at), 7.0, Stroke::new(2.5, ink));
        }
        // Reasons only for points of the table: off it there is nothing to
        // explain.
        let on_table = |q: [f64; 2]| {
            let t = &battle.state().settings.table;
            (0.0..=t.width).contains(&q[0]) && (0.0..=t.depth).contains(&q[1])
        };
        if let Some(q) = response
            .hover_pos()
            .map(|p| frame.to_table(p))
            .filter(|q| on_table(*q))
        {
            let settings = &battle.state().settings;
            let text = match check_ambush(battle.state(), battle.ruleset(), side, content, q) {
                Ok(why) => format!("✔ {}", settings.speak(&why.to_string())),
                Err(e) => format!("✖ {}", settings.speak(&e.to_string())),
            };
            let width = response.rect.width() - 12.0;
            let galley = painter.layout(text, FontId::proportional(12.0), ink, width);
            let at = response.rect.left_bottom() + Vec2::new(6.0, -22.0 - galley.size().y);
            painter.galley(at, galley, ink);
        }
    }
}
