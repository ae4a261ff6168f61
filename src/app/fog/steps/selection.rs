//! The terrain selection step (RULES 4), in its exact order: the compulsory
//! pieces, then each player's 1 to 5 selections. Every option the rules
//! refuse is shown disabled with the engine's reason.

use super::{MainAction, StepPanel};
use crate::app::fog::FogCommand;
use eframe::egui;
use muster::core::side::Side;
use muster::fog::battle::{Battle, Command, Phase};

#[derive(Default)]
pub struct SelectionPanel {
    /// The log length at which the players acknowledged the last automatic
    /// hand-over (a player's fifth selection ends his turn by itself).
    acknowledged: usize,
    /// *Finish South's selection*, for the footer.
    main: Option<MainAction>,
}

/// The player whose selections just ran out by themselves, if the last
/// entry did that and the players have not yet seen it.
fn auto_finished(battle: &Battle, acknowledged: usize) -> Option<Side> {
    let entry = battle.log().last()?;
    if battle.log().len() == acknowledged || !matches!(entry.command, Command::SelectTerrain { .. })
    {
        return None;
    }
    entry.events.iter().find_map(|e| match e {
        muster::fog::battle::Event::SelectionFinished { side } => Some(*side),
        _ => None,
    })
}

impl StepPanel for SelectionPanel {
    fn footer(&mut self, ui: &mut egui::Ui, _battle: &Battle, out: &mut Vec<FogCommand>) {
        MainAction::show(&mut self.main, ui, out);
    }

    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        self.main = None;
        super::help(ui, battle, "selection");
        let ruleset = battle.ruleset();
        let state = battle.state();
        let Some(territory) = &state.territory else {
            ui.label("Terrain is selected once the territory type is chosen.");
            return;
        };
        ui.label(format!("Territory: {}", ruleset.territory_name(territory)));
        ui.add_space(4.0);
        match battle.phase() {
            Phase::Compulsory(side) => {
                ui.strong(format!(
                    "{side} takes one of the compulsory pieces (normal size):"
                ));
                let mut left = battle.remaining_compulsory();
                left.dedup();
                for terrain in left {
                    let name = ruleset.terrain_name(&terrain);
                    if ui
                        .button(format!("Take {name}"))
                        .on_hover_text(
                            "A compulsory piece of the territory type, normal size (rule 4)",
                        )
                        .clicked()
                    {
                        out.push(FogCommand::Apply(Command::ChooseCompulsory {
                            side,
                            terrain,
                        }));
                    }
                }
            }
            Phase::Selection(side) => match auto_finished(battle, self.acknowledged) {
                // Pause, so the next click is not a pick for the opponent.
                Some(done) => {
                    ui.strong(format!(
                        "{done} has made all their selections. Pass the screen to {side}."
                    ));
                    if ui.button(format!("{side} selects now")).clicked() {
                        self.acknowledged = battle.log().len();
                    }
                }
                None => self.main = Some(options(ui, battle, side, out)),
            },
            Phase::Armies | Phase::Initiative | Phase::Territory(_) => {}
            _ => {
                ui.strong("Terrain selection is complete.");
            }
        }
        ui.add_space(8.0);
        for side in Side::BOTH {
            let picks: Vec<String> = state
                .selection
                .picks
                .iter()
                .filter(|p| p.side == side)
                .map(|p| {
                    let name = ruleset.terrain_name(&p.terrain);
                    match (p.compulsory, p.large) {
                        (true, _) => format!("{name} (compulsory)"),
                        (false, true) => format!("large {name}"),
                        (false, false) => name.to_string(),
                    }
                })
                .collect();
            let used = battle.selections_used(side);
            let max = ruleset.selection.per_player_max;
            let text = if picks.is_empty() {
                "nothing yet".to_string()
            } else {
                picks.join(", ")
            };
            ui.label(format!("{side} ({used} of {max} selections): {text}"));
        }
    }
}

/// The options for `side`, and his *Finish* action for the footer.
fn options(
    ui: &mut egui::Ui,
    battle: &Battle,
    side: Side,
    out: &mut Vec<FogCommand>,
) -> MainAction {
    let ruleset = battle.ruleset();
    let used = battle.selections_used(side);
    let max = ruleset.selection.per_player_max;
    let role = if battle.state().initiative.winner == Some(side) {
        "with the initiative"
    } else {
        "without initiative"
    };
    ui.strong(format!(
        "{side} ({role}) selects: {used} of {max} selections used"
    ));
    egui::Grid::new("options")
        .striped(true)
        .num_columns(4)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            ui.strong("Piece");
            ui.strong("Costs");
            ui.strong("Left");
            ui.strong("");
            ui.end_row();
            for option in battle.selection_options(side) {
                let name = ruleset.terrain_name(&option.terrain);
                let label = if option.large {
                    format!("Large {}", name.to_lowercase())
                } else {
                    name.to_string()
                };
                ui.label(&label);
                ui.label(option.cost.to_string());
                ui.label(option.remaining.to_string());
                match &option.verdict {
                    Ok(()) => {
                        if ui.button(format!("Select {label}")).clicked() {
                            out.push(FogCommand::Apply(Command::SelectTerrain {
                                side,
                                terrain: option.terrain.clone(),
                                large: option.large,
                            }));
                        }
                    }
                    Err(reason) => {
                        // One line a row, so the rows never move; the whole
                        // reason on hover.
                        ui.add(
                            egui::Label::new(egui::RichText::new(&reason.message).weak())
                                .truncate(),
                        )
                        .on_hover_text(&reason.message);
                    }
                }
                ui.end_row();
            }
        });
    let finish = Command::FinishSelection { side };
    let verdict = battle.check(&finish);
    MainAction::new(
        format!("Finish {side}'s selection"),
        verdict.is_ok().then_some(FogCommand::Apply(finish)),
    )
    .why_not(verdict.err().map(|e| e.to_string()))
}
