//! A roll-off in the window (initiative, who moves first): each side's
//! modifiers, his roll by the app or typed from the table, and the round.

use super::MainAction;
use crate::app::dice_input;
use crate::app::fog::FogCommand;
use eframe::egui;
use muster::core::dice::{DiceInput, Modifier};
use muster::core::side::{Side, Sides};
use muster::fog::battle::{Battle, Command, RollOff};

/// Typed dice and the last error, kept by the panel that shows the roll-off.
#[derive(Default)]
pub struct RollOffInput {
    typed: Sides<String>,
    error: Option<String>,
    /// The side played from another machine in a remote game: he rolls
    /// there, never from this window.
    pub remote: Option<Side>,
}

impl RollOffInput {
    /// Shows both sides' modifiers and rolls, and a field for each side's
    /// dice rolled on the table while both still roll; typed dice go out
    /// through `send`. Returns the step's main action for the footer:
    /// *Roll for both* while both still roll here, else the roll of the
    /// side that still rolls here.
    #[allow(clippy::too_many_arguments)]
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        battle: &Battle,
        contest: &RollOff,
        dice: u8,
        modifiers: impl Fn(Side) -> Vec<Modifier>,
        send: fn(Side, DiceInput) -> Command,
        out: &mut Vec<FogCommand>,
    ) -> Option<MainAction> {
        let state = battle.state();
        let to_roll: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|s| {
                contest.winner.is_none()
                    && contest.rolls[*s].is_none()
                    && state.armies[*s].is_some()
            })
            .collect();
        // This window rolls for its own players only.
        let here: Vec<Side> = to_roll
            .iter()
            .copied()
            .filter(|s| Some(*s) != self.remote)
            .collect();
        let both_here = here.len() == 2;
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
                    None if !here.contains(&side) && to_roll.contains(&side) => {
                        ui.label(format!(
                            "{side} rolls on their own Muster, on their machine."
                        ));
                    }
                    // Dice rolled on the table; the app's roll is the
                    // footer's.
                    None if both_here => {
                        ui.horizontal(|ui| {
                            ui.label("Rolled on the table:");
                            if let Some(d) = dice_input::typed_dice(
                                ui,
                                side.name(),
                                usize::from(dice),
                                &mut self.typed[side],
                                &mut self.error,
                            ) {
                                out.push(FogCommand::Apply(send(side, d)));
                            }
                        });
                    }
                    None => {}
                }
            });
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        match here[..] {
            [_, _] => Some(
                MainAction::many(
                    "🎲 Roll for both",
                    Side::BOTH
                        .map(|s| FogCommand::Apply(send(s, DiceInput::app())))
                        .into(),
                )
                .hover("The app rolls South's and North's dice now, one after the other"),
            ),
            [side] => Some(MainAction::roll(side.name(), usize::from(dice), move |d| {
                FogCommand::Apply(send(side, d))
            })),
            _ => None,
        }
    }
}
