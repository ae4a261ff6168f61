//! The terrain placement step (RULES 5-6) in the window: the river or coast,
//! each piece's placement roll, dragging and turning it on the table with
//! its legality shown live, the opponent's adjustment, then the road.
//!
//! Every verdict shown comes from `Battle::check` on the command the button
//! would send, so the panel can never disagree with the engine.

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

impl PlacementPanel {
    /// The physical piece chosen for `piece`: the one picked in the panel
    /// among the inventory's pieces of its type and size, else the first.
    fn shape_for(&self, battle: &Battle, piece: usize) -> Option<Shape> {
        let pick = &battle.state().selection.picks[piece];
        let shapes = self.inventory.shapes(&pick.terrain, pick.large);
        shapes
            .get(self.physical.unwrap_or(0))
            .or(shapes.first())
            .map(|s| (*s).clone())
    }

    /// When the inventory holds several pieces of this type and size, lets
    /// the player say which one he lays.
    fn choose_physical(&mut self, ui: &mut egui::Ui, battle: &Battle, piece: usize) {
        let state = battle.state();
        let pick = &state.selection.picks[piece];
        let shapes = self.inventory.shapes(&pick.terrain, pick.large);
        if shapes.len() < 2 {
            return;
        }
        let describe =
            |k: usize, s: &Shape| format!("{}: {}", k + 1, state.settings.speak(&s.describe()));
        let chosen = self.physical.unwrap_or(0).min(shapes.len() - 1);
        ui.horizontal(|ui| {
            ui.label("Which of your pieces:");
            egui::ComboBox::from_id_salt(("physical", piece))
                .selected_text(describe(chosen, shapes[chosen]))
                .show_ui(ui, |ui| {
                    for (k, s) in shapes.iter().enumerate() {
                        if ui.selectable_label(chosen == k, describe(k, s)).clicked() {
                            self.physical = Some(k);
                        }
                    }
                })
                .response
                .accessible_name("Physical piece");
        });
    }

    /// The draft for the piece being placed, started at the legal pose
    /// nearest the middle of its zone.
    fn draft_for<'a>(
        slot: &'a mut Option<Draft>,
        battle: &Battle,
        piece: usize,
        result: u8,
        side: Side,
    ) -> &'a mut Draft {
        if slot.as_ref().is_none_or(|d| d.piece != piece) {
            let zones = zone_highlight(battle.state(), battle.ruleset(), side, result);
            let centre = zones.first().map_or([36.0, 24.0], |f| {
                [
                    (f.min()[0] + f.max()[0]) / 2.0,
                    (f.min()[1] + f.max()[1]) / 2.0,
                ]
            });
            let wanted = Pose::new(centre[0], centre[1], 0.0);
            let pose =
                nearest_legal_pose(battle.state(), battle.ruleset(), wanted).unwrap_or(wanted);
            *slot = Some(Draft {
                piece,
                pose,
                drag_from: None,
                turning: false,
            });
        }
        slot.as_mut().expect("set above")
    }

    /// Uses a newly saved inventory for the pieces still to be placed.
    pub fn set_inventory(&mut self, inventory: Inventory) {
        self.inventory = inventory;
    }

    /// The pose of the piece being put down, if any.
    #[cfg(test)]
    pub fn draft_pose(&self) -> Option<Pose> {
        self.draft.as_ref().map(|d| d.pose)
    }

    fn adjust_action(&self) -> Option<AdjustAction> {
        match self.mode? {
            AdjustMode::Slide => Some(AdjustAction::Slide {
                dx: self.slide[0],
                dy: self.slide[1],
            }),
            AdjustMode::Pivot => {
                let p = self.pivot_at?;
                Some(AdjustAction::Pivot {
                    x: p[0],
                    y: p[1],
                    degrees: self.pivot_degrees,
                })
            }
        }
    }

    /// Resets what belongs to one piece when the turn moves on.
    fn settle(&mut self, battle: &Battle) {
        let t = turn(battle);
        let placing = matches!(t, Some(PlacementTurn::Place { .. }));
        if !placing {
            self.draft = None;
        }
        if !matches!(t, Some(PlacementTurn::Adjust { .. })) {
            self.mode = None;
            self.slide = [0.0, 0.0];
            self.pivot_at = None;
            self.pivot_degrees = 0.0;
        }
        if !matches!(t, Some(PlacementTurn::Road { .. })) {
            self.road.clear();
        }
        if !matches!(t, Some(PlacementTurn::Roll { .. })) {
            self.physical = None;
        }
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

impl Overlay for PlacementPanel {
    fn under(&mut self, painter: &egui::Painter, frame: &Frame, battle: &Battle) {
        let Some(t) = turn(battle) else { return };
        let state = battle.state();
        let ruleset = battle.ruleset();
        if let PlacementTurn::Place { side, result, .. } = t {
            for f in zone_highlight(state, ruleset, side, result) {
                painter.extend(frame.footprint(
                    &f,
                    Color32::from_rgba_unmultiplied(255, 230, 90, 60),
                    Stroke::new(1.5, Color32::from_rgb(230, 190, 40)),
                ));
            }
        }
        if matches!(t, PlacementTurn::Roll { .. } | PlacementTurn::Place { .. }) {
            // Clipped to the table: off it the bands mean nothing, and
            // they would cover the edge captions.
            let painter = painter.with_clip_rect(frame.table);
            let exempt = &ruleset.placement.spacing_exempt_near;
            for (i, laid) in state.placement.standing() {
                if exempt.contains(&state.selection.picks[i].terrain) {
                    continue;
                }
                for ring in geometry::buffer(laid.footprint(), ruleset.placement.spacing) {
                    let f = Footprint::from_points(ring);
                    painter.extend(frame.footprint(
                        &f,
                        Color32::from_rgba_unmultiplied(220, 60, 60, 40),
                        Stroke::new(1.0, Color32::from_rgba_unmultiplied(220, 60, 60, 140)),
                    ));
                }
            }
        }
    }

    fn over(&mut self, ui: &mut egui::Ui, response: &Response, frame: &Frame, battle: &Battle) {
        self.settle(battle);
        let Some(t) = turn(battle) else { return };
        let state = battle.state();
        let ruleset = battle.ruleset();
        let painter = ui.painter_at(response.rect);
        let to_mu = |v: Vec2| [f64::from(v.x / frame.scale), f64::from(-v.y / frame.scale)];
        match t {
            PlacementTurn::Waterway { side, piece } => {
                let command = Command::PlaceWaterway {
                    side,
                    edge: self.edge,
                    width: self.width,
                    offset: self.offset,
                };
                if let Ok(events) = battle.check(&command)
                    && let Some(muster::fog::battle::Event::PiecePlaced { shape, pose, .. }) =
                        events.first()
                {
                    let f = Footprint::new(shape, *pose);
                    let c = colour(
                        &state.selection.picks[piece].terrain,
                        ui.visuals().dark_mode,
                    );
                    painter.extend(frame.footprint(&f, c.gamma_multiply(0.6), Stroke::new(2.0, c)));
                }
            }
            PlacementTurn::Place {
                side,
                piece,
                result,
            } => {
                let Some(shape) = state.placement.rolled.as_ref().map(|r| r.shape.clone()) else {
                    return;
                };
                let draft = Self::draft_for(&mut self.draft, battle, piece, result, side);
                let footprint = Footprint::new(&shape, draft.pose);
                // Where the button went down, not where the pointer is now: a
                // drag is recognised only once the pointer has moved.
                let pressed_at = ui.input(|i| i.pointer.press_origin());
                let knob = frame.to_screen(handle(&shape, draft.pose));
                let on_handle = pressed_at.is_some_and(|p| p.distance(knob) <= 9.0);
                let on_piece = pressed_at.is_some_and(|p| footprint.contains(frame.to_table(p)));
                if response.drag_started_by(egui::PointerButton::Primary) && (on_piece || on_handle)
                {
                    draft.drag_from = Some(draft.pose);
                    draft.turning = on_handle;
                }
                if draft.drag_from.is_some() && response.dragged_by(egui::PointerButton::Primary) {
                    if draft.turning {
                        if let Some(p) = response.interact_pointer_pos() {
                            let q = frame.to_table(p);
                            let towards = (q[1] - draft.pose.y)
                                .atan2(q[0] - draft.pose.x)
                                .to_degrees();
                            let snapped = if ui.input(|i| i.modifiers.shift) {
                                towards.round()
                            } else {
                                (towards / 5.0).round() * 5.0
                            };
                            draft.pose.angle = snapped.rem_euclid(360.0);
                        }
                    } else {
                        let d = to_mu(response.drag_delta());
                        draft.pose.x += d[0];
                        draft.pose.y += d[1];
                    }
                }
                let spin = if response.hovered() {
                    turn_keys(ui)
                } else {
                    0.0
                };
                // A turn by the keys lands as a drop of the handle does.
                let from = if spin != 0.0 {
                    Some(draft.pose)
                } else if response.drag_stopped() {
                    draft.drag_from.take()
                } else {
                    None
                };
                draft.pose.angle = (draft.pose.angle + spin).rem_euclid(360.0);
                if let Some(from) = from {
                    let what = if spin != 0.0 { "Turn" } else { "Drop" };
                    let (pose, refusal) = land(battle, side, draft.pose, from, what);
                    draft.pose = pose;
                    self.notice = refusal.map(|r| (battle.log().len(), r));
                }
                let verdict = battle.check(&Command::PlacePiece {
                    side,
                    pose: draft.pose,
                });
                let footprint = Footprint::new(&shape, draft.pose);
                let ok = verdict.is_ok();
                let c = colour(
                    &state.selection.picks[piece].terrain,
                    ui.visuals().dark_mode,
                );
                let edge = if ok {
                    Color32::from_rgb(60, 200, 90)
                } else {
                    Color32::from_rgb(230, 60, 60)
                };
                painter.extend(frame.footprint(
                    &footprint,
                    c.lerp_to_gamma(Color32::WHITE, 0.3),
                    Stroke::new(2.5, edge),
                ));
                painter.circle_filled(frame.to_screen([draft.pose.x, draft.pose.y]), 3.0, edge);
                let knob = frame.to_screen(handle(&shape, draft.pose));
                painter.line_segment(
                    [frame.to_screen([draft.pose.x, draft.pose.y]), knob],
                    Stroke::new(1.5, edge),
                );
                painter.circle(knob, 7.0, Color32::WHITE, Stroke::new(2.0, edge));
            }
            PlacementTurn::Adjust { piece, score, .. } => {
                let Some(laid) = state.placement.laid.get(&piece) else {
                    return;
                };
                let c = colour(
                    &state.selection.picks[piece].terrain,
                    ui.visuals().dark_mode,
                );
                let before = laid.footprint();
                // The piece taken by hand slides, where the rolled score
                // allows a slide: no need to choose *Slide* first.
                let pressed_at = ui.input(|i| i.pointer.press_origin());
                let slides = muster::fog::battle::allowance(
                    ruleset,
                    &state.selection.picks[piece].terrain,
                    score,
                )
                .allows
                .contains(&AdjustmentOption::Slide);
                if self.mode.is_none()
                    && slides
                    && response.drag_started_by(egui::PointerButton::Primary)
                    && pressed_at.is_some_and(|p| before.contains(frame.to_table(p)))
                {
                    self.mode = Some(AdjustMode::Slide);
                    self.slide = [0.0, 0.0];
                }
                match self.mode {
                    Some(AdjustMode::Slide) => {
                        if response.dragged_by(egui::PointerButton::Primary) {
                            let d = to_mu(response.drag_delta());
                            let max = muster::fog::battle::allowance(
                                ruleset,
                                &state.selection.picks[piece].terrain,
                                score,
                            )
                            .slide_max
                            .unwrap_or(0.0);
                            let (mut x, mut y) = (self.slide[0] + d[0], self.slide[1] + d[1]);
                            let len = x.hypot(y);
                            if len > max {
                                x *= max / len;
                                y *= max / len;
                            }
                            self.slide = [x, y];
                        }
                        let pose = Pose {
                            x: laid.pose.x + self.slide[0],
                            y: laid.pose.y + self.slide[1],
                            ..laid.pose
                        };
                        let f = Footprint::new(&laid.shape, pose);
                        painter.extend(frame.footprint(
                            &f,
                            c.gamma_multiply(0.6),
                            Stroke::new(2.5, Color32::from_rgb(80, 160, 230)),
                        ));
                        painter.arrow(
                            frame.to_screen([laid.pose.x, laid.pose.y]),
                            frame.to_screen([pose.x, pose.y])
                                - frame.to_screen([laid.pose.x, laid.pose.y]),
                            Stroke::new(2.0, Color32::WHITE),
                        );
                    }
                    Some(AdjustMode::Pivot) => {
                        if response.clicked()
                            && let Some(p) = response.interact_pointer_pos()
                        {
                            self.pivot_at = Some(before.nearest_boundary_point(frame.to_table(p)));
                        }
                        if response.hovered() {
                            self.pivot_degrees = (self.pivot_degrees + turn_keys(ui) + 180.0)
                                .rem_euclid(360.0)
                                - 180.0;
                        }
                        if let Some(p) = self.pivot_at {
                            let f = Footprint::new(
                                &laid.shape,
                                laid.pose.pivoted(p, self.pivot_degrees),
                            );
                            painter.extend(frame.footprint(
                                &f,
                                c.gamma_multiply(0.6),
                                Stroke::new(2.5, Color32::from_rgb(80, 160, 230)),
                            ));
                            painter.circle_filled(frame.to_screen(p), 5.0, Color32::WHITE);
                        }
                    }
                    None => {}
                }
            }
            PlacementTurn::Road { .. } => {
                if response.clicked()
                    && let Some(p) = response.interact_pointer_pos()
                {
                    self.road.push(snap_to_edge(battle, frame.to_table(p)));
                }
                let pts: Vec<Pos2> = self.road.iter().map(|p| frame.to_screen(*p)).collect();
                for p in &pts {
                    painter.circle_filled(*p, 4.0, Color32::from_rgb(150, 110, 60));
                }
                let width = ruleset.road.width as f32 * frame.scale;
                // Where the next click would take the road, dashed.
                if let (Some(last), Some(hover)) = (pts.last(), response.hover_pos()) {
                    let next = frame.to_screen(snap_to_edge(battle, frame.to_table(hover)));
                    painter.extend(egui::Shape::dashed_line(
                        &[*last, next],
                        Stroke::new(2.0, Color32::from_rgb(150, 110, 60)),
                        8.0,
                        5.0,
                    ));
                    painter.circle_stroke(next, 5.0, Stroke::new(1.5, Color32::WHITE));
                }
                painter.add(egui::Shape::line(
                    pts,
                    Stroke::new(width, Color32::from_rgba_unmultiplied(150, 110, 60, 200)),
                ));
            }
            _ => {}
        }
    }
}

/// A road point within 1.5 MU of a table edge goes onto it.
fn snap_to_edge(battle: &Battle, p: [f64; 2]) -> [f64; 2] {
    let t = battle.state().settings.table;
    let mut q = [p[0].clamp(0.0, t.width), p[1].clamp(0.0, t.depth)];
    let gaps = [
        (q[0], 0, 0.0),
        (t.width - q[0], 0, t.width),
        (q[1], 1, 0.0),
        (t.depth - q[1], 1, t.depth),
    ];
    if let Some((_, axis, value)) = gaps
        .into_iter()
        .filter(|g| g.0 <= 1.5)
        .min_by(|a, b| a.0.total_cmp(&b.0))
    {
        q[axis] = value;
    }
    q
}
