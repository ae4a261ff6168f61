//! The terrain placement step (RULES 5-6) in the window: the river or coast,
//! each piece's placement roll, dragging and turning it on the table with
//! its legality shown live, the opponent's adjustment, then the road.
//!
//! Every verdict shown comes from `Battle::check` on the command the button
//! would send, so the panel can never disagree with the engine.

mod draft;
mod overlay;

use overlay::snap_to_edge;

use super::{MainAction, StepPanel, verdict_line};
use crate::app::fog::FogCommand;
use crate::app::fog::table_view::{Frame, Overlay, colour};
use eframe::egui;
use egui::{Color32, Key, Pos2, Response, Stroke, Vec2};
use muster::core::side::Side;
use muster::fog::battle::{
    AdjustAction, Battle, Command, Phase, PlacementTurn, nearest_legal_pose, piece_name,
    zone_highlight, zone_text,
};
use muster::fog::geometry::{self, Footprint, Pose, Shape, SideEdge};
use muster::fog::inventory::Inventory;
use muster::fog::ruleset::{AdjustmentOption, PieceKind};

/// The piece being put down, before it is confirmed.
struct Draft {
    piece: usize,
    pose: Pose,
    /// Where a drag started, to go back to if it is dropped somewhere illegal.
    drag_from: Option<Pose>,
    /// Whether the drag is on the turning handle rather than the piece.
    turning: bool,
}

/// The turning handle's place: just beyond the piece's right-hand end.
fn handle(shape: &Shape, pose: Pose) -> [f64; 2] {
    let reach = Footprint::new(shape, Pose::default()).max()[0];
    pose.apply([reach + 1.5, 0.0])
}

#[derive(Clone, Copy, PartialEq)]
enum AdjustMode {
    Slide,
    Pivot,
}

/// How far a refused drop may be moved to the nearest legal pose: a hand
/// that lets go a little short of an edge meant the edge.
const SNAP_MU: f64 = 1.0;

pub struct PlacementPanel {
    inventory: Inventory,
    chosen: Option<usize>,
    draft: Option<Draft>,
    edge: SideEdge,
    width: f64,
    offset: f64,
    mode: Option<AdjustMode>,
    /// *Remove* was clicked at this log length: ask before removing.
    removing: Option<usize>,
    slide: [f64; 2],
    pivot_at: Option<[f64; 2]>,
    pivot_degrees: f64,
    road: Vec<[f64; 2]>,
    /// Which of the inventory's pieces of the type is laid (index into
    /// `Inventory::shapes`), chosen before the placement roll.
    physical: Option<usize>,
    /// A road point being typed, in MU.
    road_point: [f64; 2],
    /// A refusal to show, with the log length it belongs to: once anything
    /// is logged (the next piece, the next step) it is stale and hidden.
    notice: Option<(usize, String)>,
    /// The turn's main action (place the piece, the river or the road,
    /// leave a piece as it is), for the footer.
    main: Option<MainAction>,
}

impl PlacementPanel {
    pub fn new(inventory: Inventory) -> Self {
        PlacementPanel {
            inventory,
            chosen: None,
            draft: None,
            edge: SideEdge::West,
            width: 3.0,
            offset: 0.0,
            mode: None,
            removing: None,
            slide: [0.0, 0.0],
            pivot_at: None,
            pivot_degrees: 0.0,
            road: Vec::new(),
            notice: None,
            main: None,
            road_point: [0.0, 0.0],
            physical: None,
        }
    }
}

fn turn(battle: &Battle) -> Option<PlacementTurn> {
    match battle.phase() {
        Phase::Placement(t) => Some(t),
        _ => None,
    }
}

impl StepPanel for PlacementPanel {
    fn footer(&mut self, ui: &mut egui::Ui, _battle: &Battle, out: &mut Vec<FogCommand>) {
        MainAction::show(&mut self.main, ui, out);
    }

    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        self.main = None;
        self.settle(battle);
        let Some(t) = turn(battle) else {
            super::help(ui, battle, "placement");
            let before = matches!(
                battle.phase(),
                Phase::Armies
                    | Phase::Initiative
                    | Phase::Territory(_)
                    | Phase::Compulsory(_)
                    | Phase::Selection(_)
            );
            ui.label(if !before {
                "Terrain placement is complete."
            } else {
                "Terrain is placed once terrain selection is complete."
            });
            return;
        };
        let state = battle.state();
        let ruleset = battle.ruleset();
        let help_key = if matches!(
            t,
            PlacementTurn::AdjustRoll { .. } | PlacementTurn::Adjust { .. }
        ) {
            "adjustment"
        } else {
            "placement"
        };
        egui::CollapsingHeader::new("Rules for this step")
            .default_open(false)
            .show(ui, |ui| {
                super::help(ui, battle, help_key);
            });
        let name = |i: usize| {
            format!(
                "{}'s {}",
                state.selection.picks[i].side,
                piece_name(state, ruleset, i).to_lowercase()
            )
        };
        match t {
            PlacementTurn::Waterway { side, piece } => {
                let terrain = &state.selection.picks[piece].terrain;
                let river = ruleset.terrain(terrain).map(|t| t.kind) == Some(PieceKind::River);
                ui.strong(format!(
                    "{side} places their {} along a side edge.",
                    ruleset.terrain_name(terrain).to_lowercase()
                ));
                ui.horizontal(|ui| {
                    ui.label("Side edge:");
                    ui.radio_value(&mut self.edge, SideEdge::West, "West (x = 0)");
                    ui.radio_value(&mut self.edge, SideEdge::East, "East");
                });
                let max = if river {
                    ruleset.river.max_width
                } else {
                    ruleset.coast.max_depth
                };
                ui.horizontal(|ui| {
                    let l = ui.label(if river { "Width" } else { "Depth" });
                    ui.add(
                        super::length_field(&mut self.width, &state.settings)
                            .range(0.5..=max)
                            .speed(0.1),
                    )
                    .labelled_by(l.id);
                    if river {
                        let l = ui.label("Distance from the edge");
                        let reach = ruleset.river.within_of_side_edge;
                        ui.add(
                            super::length_field(&mut self.offset, &state.settings)
                                .range(0.0..=reach)
                                .speed(0.1),
                        )
                        .labelled_by(l.id);
                    } else {
                        self.offset = 0.0;
                    }
                });
                let command = Command::PlaceWaterway {
                    side,
                    edge: self.edge,
                    width: self.width,
                    offset: self.offset,
                };
                let legal = verdict_line(ui, battle, &command, super::LEGAL_POSITION);
                let label = format!("Place the {}", ruleset.terrain_name(terrain).to_lowercase());
                self.main = Some(MainAction::new(
                    label,
                    legal.then_some(FogCommand::Apply(command)),
                ));
            }
            PlacementTurn::Going { side, .. } => {
                ui.strong(format!("{side} rolls for the river's going."));
                for (face, class) in &ruleset.river.going {
                    ui.label(format!("{face}: {class}"));
                }
                self.main = Some(MainAction::roll(side.name(), 1, move |dice| {
                    FogCommand::Apply(Command::RollGoing { side, dice })
                }));
            }
            PlacementTurn::Roll { side, piece } => {
                if let Some((p, _)) = &state.placement.reroll {
                    ui.colored_label(ui.visuals().warn_fg_color, format!("No legal position for the last result: {side} re-rolls for {} (ruling, rule 5).", name(*p)));
                }
                let piece = match piece {
                    Some(p) => {
                        ui.strong(format!("{side} places {}.", name(p)));
                        p
                    }
                    None => {
                        ui.strong(format!("{side} chooses one of their pieces to place:"));
                        let waiting: Vec<usize> = (0..state.selection.picks.len())
                            .filter(|&i| {
                                let k = &state.selection.picks[i];
                                k.side == side
                                    && !k.compulsory
                                    && !state.placement.laid.contains_key(&i)
                                    && !state.placement.set_aside.contains(&i)
                            })
                            .collect();
                        let chosen = self
                            .chosen
                            .filter(|c| waiting.contains(c))
                            .unwrap_or(waiting[0]);
                        for i in &waiting {
                            if ui
                                .radio(chosen == *i, piece_name(state, ruleset, *i))
                                .clicked()
                            {
                                self.chosen = Some(*i);
                            }
                        }
                        chosen
                    }
                };
                self.choose_physical(ui, battle, piece);
                match self.shape_for(battle, piece) {
                    Some(shape) => {
                        ui.label(format!(
                            "Physical piece: {} (from the terrain inventory)",
                            state.settings.speak(&shape.describe())
                        ));
                        self.main = Some(MainAction::roll(side.name(), 1, move |dice| {
                            FogCommand::Apply(Command::RollPlacement {
                                side,
                                piece,
                                shape: shape.clone(),
                                dice,
                            })
                        }));
                    }
                    None => {
                        ui.colored_label(
                            ui.visuals().error_fg_color,
                            "The terrain inventory has no such piece.",
                        );
                    }
                }
                ui.weak(state.settings.speak(
                    "The shaded bands on the table are the 4 MU no-go zones around pieces.",
                ));
            }
            PlacementTurn::Place {
                side,
                piece,
                result,
            } => {
                ui.strong(state.settings.speak(&format!(
                    "Die {result}: {} must {}.",
                    name(piece),
                    zone_text(ruleset, result, side)
                )));
                ui.label(
                    "Drag it on the table; turn it by dragging its round handle (5° steps, Shift 1°), or with Q and E or the buttons (15°, Shift 1°).",
                );
                let draft = Self::draft_for(&mut self.draft, battle, piece, result, side);
                ui.horizontal(|ui| {
                    if ui
                        .button("⟲ Turn left 15°")
                        .on_hover_text("Anticlockwise; Q on the table, Shift for 1°")
                        .clicked()
                    {
                        draft.pose.angle = (draft.pose.angle + 15.0).rem_euclid(360.0);
                    }
                    if ui
                        .button("⟳ Turn right 15°")
                        .on_hover_text("Clockwise; E on the table, Shift for 1°")
                        .clicked()
                    {
                        draft.pose.angle = (draft.pose.angle - 15.0).rem_euclid(360.0);
                    }
                });
                if let Some(rolled) = &state.placement.rolled {
                    // Three lines' room whatever its length, so nothing
                    // below moves while the piece is dragged.
                    ui.vertical(|ui| {
                        ui.set_min_height(3.0 * ui.text_style_height(&egui::TextStyle::Body));
                        ui.label(super::tape_measure(state, &rolled.shape, draft.pose));
                    });
                }
                let command = Command::PlacePiece {
                    side,
                    pose: draft.pose,
                };
                let legal = verdict_line(ui, battle, &command, super::LEGAL_POSITION);
                self.main = Some(MainAction::new(
                    format!("Place {} here", piece_name(state, ruleset, piece)),
                    legal.then_some(FogCommand::Apply(command)),
                ));
                ui.horizontal(|ui| {
                    if ui
                        .button("Snap to nearest legal position")
                        .on_hover_text("Moves the piece to the nearest position and turn the rules allow for this die")
                        .clicked()
                    {
                        match nearest_legal_pose(state, ruleset, draft.pose) {
                            Some(p) => draft.pose = p,
                            None => {
                                self.notice = Some((
                                    battle.log().len(),
                                    "No legal position exists for this result.".into(),
                                ))
                            }
                        }
                    }
                });
            }
            PlacementTurn::AdjustRoll { side, piece } => {
                ui.strong(format!(
                    "{side} rolls to adjust {}, or leaves it where it lies without a roll (rule 6: the adjuster may decline).",
                    name(piece)
                ));
                self.main = Some(
                    MainAction::roll(side.name(), 1, move |dice| {
                        FogCommand::Apply(Command::RollAdjustment { side, dice })
                    })
                    .or_instead(
                        "Leave it (no roll)",
                        FogCommand::Apply(Command::Adjust {
                            side,
                            action: AdjustAction::Decline,
                        }),
                    ),
                );
            }
            PlacementTurn::Adjust { side, piece, score } => {
                let terrain = &state.selection.picks[piece].terrain;
                let allowance = muster::fog::battle::allowance(ruleset, terrain, score);
                let rolled = state
                    .placement
                    .adjusting
                    .as_ref()
                    .and_then(|a| a.roll.as_ref());
                let roll = rolled.map_or(score.to_string(), |r| r.describe());
                ui.strong(
                    state
                        .settings
                        .speak(&format!("{side} rolled {roll}: {}.", allowance.text)),
                );
                if self.removing == Some(battle.log().len()) {
                    // A removal cannot be undone once made: ask first.
                    let name = piece_name(state, ruleset, piece);
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        format!("Remove {name} from the table? It will not come back."),
                    );
                    ui.horizontal(|ui| {
                        if ui.button(format!("Yes, remove {name}")).clicked() {
                            out.push(FogCommand::Apply(Command::Adjust {
                                side,
                                action: AdjustAction::Remove,
                            }));
                        }
                        if ui.button("No, keep it").clicked() {
                            self.removing = None;
                        }
                    });
                }
                self.main = Some(MainAction::new(
                    "Leave it where it is",
                    Some(FogCommand::Apply(Command::Adjust {
                        side,
                        action: AdjustAction::Decline,
                    })),
                ));
                ui.horizontal_wrapped(|ui| {
                    if allowance.allows.contains(&AdjustmentOption::Remove)
                        && ui
                            .button(format!("Remove {}", piece_name(state, ruleset, piece)))
                            .clicked()
                    {
                        self.removing = Some(battle.log().len());
                    }
                    let modes = [
                        (AdjustmentOption::Slide, AdjustMode::Slide, "Slide"),
                        (AdjustmentOption::Pivot, AdjustMode::Pivot, "Pivot"),
                    ];
                    // Buttons that look like buttons (issue 32: they read
                    // as labels), the chosen one held down.
                    for (option, mode, label) in modes {
                        let chosen = self.mode == Some(mode);
                        if allowance.allows.contains(&option)
                            && ui
                                .add(egui::Button::new(label).selected(chosen).frame(true))
                                .on_hover_text("Click again to leave it where it is")
                                .clicked()
                        {
                            self.mode = (!chosen).then_some(mode);
                        }
                    }
                });
                match self.mode {
                    Some(AdjustMode::Slide) => {
                        let max = allowance.slide_max.unwrap_or(0.0);
                        let length = self.slide[0].hypot(self.slide[1]);
                        ui.label(state.settings.speak(&format!(
                            "Drag the piece on the table: slide {length:.1} MU of {max} MU."
                        )));
                    }
                    Some(AdjustMode::Pivot) => match self.pivot_at {
                        None => {
                            ui.label("Click the point of the piece's edge to pivot about.");
                        }
                        Some(p) => {
                            ui.label(format!(
                                "Pivot about the point {}; Q and E turn it 15°, with Shift 1°.",
                                state.settings.point(p)
                            ));
                            let l = ui.label("Angle (degrees, anticlockwise)");
                            ui.add(
                                egui::DragValue::new(&mut self.pivot_degrees)
                                    .range(-180.0..=180.0)
                                    .speed(1.0),
                            )
                            .labelled_by(l.id);
                        }
                    },
                    None if allowance.allows.contains(&AdjustmentOption::Slide) => {
                        ui.label(state.settings.speak(&format!(
                            "Drag the piece on the table to slide it, up to {} MU.",
                            allowance.slide_max.unwrap_or(0.0)
                        )));
                    }
                    None => {}
                }
                // A slide or pivot chosen is the step's main action now: the
                // footer says so (it said "Leave it where it is" still).
                if let Some(action) = self.adjust_action() {
                    let command = Command::Adjust { side, action };
                    let legal = verdict_line(ui, battle, &command, super::LEGAL_POSITION);
                    let verb = if self.mode == Some(AdjustMode::Slide) {
                        "Slide it here"
                    } else {
                        "Pivot it"
                    };
                    self.main = Some(MainAction::new(
                        verb,
                        legal.then_some(FogCommand::Apply(command)),
                    ));
                }
            }
            PlacementTurn::Road { side } => {
                ui.strong(format!("{side} may place a road."));
                ui.label("Click on the table to lay the road's centre line from one table edge to another; ends near an edge snap onto it. Or type each point, measured from the south-west corner.");
                ui.horizontal(|ui| {
                    for (axis, name) in [(0, "x"), (1, "y")] {
                        let l = ui.label(name);
                        ui.add(
                            super::length_field(&mut self.road_point[axis], &state.settings)
                                .speed(0.1),
                        )
                        .labelled_by(l.id)
                        .accessible_name(format!("Road point {name}"));
                    }
                    if ui
                        .button("Add point")
                        .on_hover_text(state.settings.speak("Adds the typed point to the road; a point within 1.5 MU of an edge goes onto it"))
                        .clicked()
                    {
                        self.road.push(snap_to_edge(battle, self.road_point));
                    }
                });
                if !self.road.is_empty() {
                    let points: Vec<String> =
                        self.road.iter().map(|p| state.settings.point(*p)).collect();
                    ui.label(format!("Road points: {}", points.join("; ")));
                }
                let command = Command::PlaceRoad {
                    side,
                    points: self.road.clone(),
                };
                if self.road.is_empty() {
                    self.main = Some(
                        MainAction::new("Place the road", None)
                            .why_not(Some("Click the table to lay the road's centre line".into())),
                    );
                } else {
                    let legal = verdict_line(ui, battle, &command, super::LEGAL_POSITION);
                    self.main = Some(MainAction::new(
                        "Place the road",
                        legal.then_some(FogCommand::Apply(command)),
                    ));
                    if ui.button("Remove last point").clicked() {
                        self.road.pop();
                    }
                }
                if ui
                    .button("No road")
                    .on_hover_text("The player with the initiative may lay one road (rule 5); this declines it")
                    .clicked()
                {
                    out.push(FogCommand::Apply(Command::DeclineRoad { side }));
                }
            }
        }
        if let Some((at, n)) = &self.notice
            && *at == battle.log().len()
        {
            ui.colored_label(ui.visuals().warn_fg_color, n);
        }
        set_aside(ui, battle);
    }
}

fn set_aside(ui: &mut egui::Ui, battle: &Battle) {
    let state = battle.state();
    for i in &state.placement.set_aside {
        ui.label(format!(
            "Set aside (no legal position): {}",
            piece_name(state, battle.ruleset(), *i)
        ));
    }
}

/// Turn requested by Q/E on the table (Shift: 1°).
/// Where a piece moved or turned from `from` to `pose` comes to rest:
/// there if legal; else at the nearest legal pose within `SNAP_MU` at the
/// same turn (a hand that lets go a little short of an edge meant the
/// edge); else back at `from`, with the refusal to show.
fn land(battle: &Battle, side: Side, pose: Pose, from: Pose, what: &str) -> (Pose, Option<String>) {
    let Err(e) = battle.check(&Command::PlacePiece { side, pose }) else {
        return (pose, None);
    };
    let near = nearest_legal_pose(battle.state(), battle.ruleset(), pose)
        .filter(|p| (p.x - pose.x).hypot(p.y - pose.y) <= SNAP_MU && p.angle == pose.angle);
    match near {
        Some(snapped) => (snapped, None),
        None => (
            from,
            Some(format!(
                "{what} refused: {}",
                battle.state().settings.speak(&e.to_string())
            )),
        ),
    }
}

fn turn_keys(ui: &egui::Ui) -> f64 {
    ui.input(|i| {
        let step = if i.modifiers.shift { 1.0 } else { 15.0 };
        let mut d = 0.0;
        if i.key_pressed(Key::Q) {
            d += step;
        }
        if i.key_pressed(Key::E) {
            d -= step;
        }
        d
    })
}
