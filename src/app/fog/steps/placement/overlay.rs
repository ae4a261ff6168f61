//! The placement step's drawing on the table (RULES 5-6): the piece being
//! placed and its legality live, its handles to drag and turn it, the
//! adjustment's allowance, the road being drawn.

use super::*;

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
pub(super) fn snap_to_edge(battle: &Battle, p: [f64; 2]) -> [f64; 2] {
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
