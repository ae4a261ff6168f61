//! The placement step's piece in hand (RULES 5-6): the physical piece
//! chosen for a selected one, its draft pose as the player drags and turns
//! it, the adjustment he is making, and the draft put right after each
//! change of the battle.

use super::*;

impl PlacementPanel {
    /// The physical piece chosen for `piece`: the one picked in the panel
    /// among the inventory's pieces of its type and size, else the first.
    pub(super) fn shape_for(&self, battle: &Battle, piece: usize) -> Option<Shape> {
        let pick = &battle.state().selection.picks[piece];
        let shapes = self.inventory.shapes(&pick.terrain, pick.large);
        shapes
            .get(self.physical.unwrap_or(0))
            .or(shapes.first())
            .map(|s| (*s).clone())
    }

    /// When the inventory holds several pieces of this type and size, lets
    /// the player say which one he lays.
    pub(super) fn choose_physical(&mut self, ui: &mut egui::Ui, battle: &Battle, piece: usize) {
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
    pub(super) fn draft_for<'a>(
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

    pub(super) fn adjust_action(&self) -> Option<AdjustAction> {
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
    pub(super) fn settle(&mut self, battle: &Battle) {
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
