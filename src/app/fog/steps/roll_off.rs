//! A roll-off in the window (initiative, who moves first): each side's
//! modifiers, his roll by the app or typed from the table, and the round.

use crate::app::dice_input;
use eframe::egui;
use muster::core::dice::{DiceInput, Modifier};
use muster::core::side::{Side, Sides};
use muster::fog::battle::{Battle, RollOff};

/// Typed dice and the last error, kept by the panel that shows the roll-off.
#[derive(Default)]
pub struct RollOffInput {
    typed: Sides<String>,
    error: Option<String>,
}

impl RollOffInput {
    /// Shows both sides' rolls; returns the dice of each side that rolls
    /// (both, with *Roll for both*, when both use the app's dice).
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        battle: &Battle,
        contest: &RollOff,
        dice: u8,
        modifiers: impl Fn(Side) -> Vec<Modifier>,
    ) -> Vec<(Side, DiceInput)> {
        let state = battle.state();
        let mut rolled = Vec::new();
        let both_to_roll = contest.winner.is_none()
            && Side::BOTH
                .iter()
                .all(|s| contest.rolls[*s].is_none() && state.armies[*s].is_some());
        if both_to_roll
            && ui
                .button(egui::RichText::new("🎲 Roll for both").size(16.0))
                .on_hover_text("The app rolls South's and North's dice now, one after the other")
                .clicked()
        {
            self.error = None;
            return Side::BOTH.iter().map(|s| (*s, DiceInput::app())).collect();
        }
        if contest.round > 1 && contest.winner.is_none() {
            ui.strong(format!(
                "Round {}: the last round was a tie, both roll again.",
                contest.round
            ));
        }
        for side in Side::BOTH {
            let Some(army) = &state.armies[side] else {
                ui.label(format!("{side}'s army is not entered yet."));
                continue;
            };
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.strong(format!("{side}: {} ({})", army.player, army.name));
                let mods = modifiers(side);
                if mods.is_empty() {
                    ui.label("No modifiers.");
                }
                for m in &mods {
                    ui.label(format!("{:+} {}", m.value, m.reason));
                }
                match &contest.rolls[side] {
                    Some(roll) => {
                        ui.label(
                            egui::RichText::new(format!("Rolled {}", roll.describe())).size(18.0),
                        );
                    }
                    None if contest.winner.is_none() => {
                        if let Some(d) = dice_input::show(
                            ui,
                            side.name(),
                            usize::from(dice),
                            &mut self.typed[side],
                            &mut self.error,
                        ) {
                            rolled.push((side, d));
                        }
                    }
                    None => {}
                }
            });
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        rolled
    }
}
