//! Play (RULES 10): the turn counter from who moves first; at the start of
//! each of his turns from turn 2 on, the player rolls for each flank march,
//! with the exact chance it arrives this turn and by each later turn on a
//! chart; an arrived march is revealed on its owner's own screen (the
//! hand-over screen or his phone, brought to him by itself), its
//! commitment checked and each battle group's straggling test rolled. An
//! ambush is revealed the same way, with the reason the table gives.

use super::{MainAction, StepPanel};
use crate::app::fog::FogCommand;
use crate::app::fog::table_view::{Frame, Overlay};
use eframe::egui;
use egui_plot::{Bar, BarChart, Corner, HoverPosition, Legend, Line, Plot};
use muster::core::side::Side;
use muster::fog::battle::{
    Battle, Command, Phase, RevealReason, arrival_by_turn, arrival_chance, arrivals_due,
    current_turn, march_number, marker_number, to_reveal,
};
use muster::fog::screens::Reveal;
use muster::fog::seat::Asked;

#[derive(Default)]
pub struct PlayPanel {
    /// Where each player's screens are, if not on this laptop: on his
    /// phone his reveals happen there; on his own machine (a remote game),
    /// his turns' rolls and ends too.
    pub away: muster::core::side::Sides<Option<crate::app::seating::life::Away>>,
}

impl PlayPanel {
    /// Whether `side` plays from another machine.
    fn remote(&self, side: Side) -> bool {
        self.away[side] == Some(crate::app::seating::life::Away::Machine)
    }
}

/// The exact chance by turn, as bars (this turn) and a line (by then).
fn chance_chart(ui: &mut egui::Ui, id: usize, rows: &[(u32, f64, f64)]) {
    let bars: Vec<Bar> = rows
        .iter()
        .map(|(t, this, _)| Bar::new(f64::from(*t), this * 100.0).width(0.6))
        .collect();
    let line: Vec<[f64; 2]> = rows
        .iter()
        .map(|(t, _, by)| [f64::from(*t), by * 100.0])
        .collect();
    // The legend sits top left, where the rising curve is not; turns are
    // whole numbers on the axis; hovering names a turn and a chance.
    Plot::new(("arrival", id))
        .height(150.0)
        .legend(Legend::default().position(Corner::LeftTop))
        .include_y(0.0)
        .include_y(118.0)
        .x_axis_label("owner's turn")
        .y_axis_label("chance, %")
        .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 2.0, 10.0]))
        .x_axis_formatter(|mark, _| format!("{}", mark.value))
        .label_formatter(|pos| match pos {
            HoverPosition::NearDataPoint {
                plot_name,
                position,
                ..
            } => Some(format!(
                "turn {}: {plot_name} {:.1}%",
                position.x.round(),
                position.y
            )),
            HoverPosition::Elsewhere { .. } => None,
        })
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("arrives that turn", bars));
            plot.line(Line::new("arrived by then", line));
        });
}

impl StepPanel for PlayPanel {
    fn ui(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        super::help(ui, battle, "play");
        let state = battle.state();
        let ruleset = battle.ruleset();
        if battle.phase() != Phase::Play {
            ui.label("Play starts once who moves first is decided.");
            return;
        }
        let Some((turn, side)) = current_turn(state) else {
            return;
        };
        ui.heading(format!("Turn {turn}: {side} to move"));
        let fm = &ruleset.flank_march;
        // Flank marches: each one's public record and chances.
        for (i, m) in state.deployment.flank_marches.iter().enumerate() {
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.set_width(ui.available_width());
                let status = match (&m.revealed, m.arrived(ruleset)) {
                    (Some(_), _) => "arrived and revealed".to_string(),
                    (None, true) => "arrived: reveal it".to_string(),
                    (None, false) if m.awaits_word() => {
                        format!("waiting for {}'s phone to add the sealed modifier", m.side)
                    }
                    (None, false) => format!("{} arrival rolls so far", m.rolls.len()),
                };
                let modifier = m
                    .modifier
                    .map_or("sealed".to_string(), |v| format!("{v:+}"));
                ui.strong(format!(
                    "{}'s flank march {} ({}), modifier {modifier}: {status}",
                    m.side,
                    march_number(state, i),
                    m.sealed.code(),
                ));
                // A sealed modifier's chances are its owner's to know.
                if let (None, false, Some(modifier)) = (&m.revealed, m.arrived(ruleset), m.modifier)
                {
                    let from = if m.side == side { turn } else { turn + 1 }.max(fm.first_roll_turn);
                    let p = arrival_chance(ruleset, modifier);
                    ui.label(format!(
                        "Each roll: 2d6 {modifier:+}, arrives on {}+: {}/{} = {:.1}%",
                        fm.arrives_on,
                        p.num,
                        p.den,
                        p.value() * 100.0
                    ));
                    chance_chart(ui, i, &arrival_by_turn(ruleset, modifier, from, 8));
                }
            });
        }
        // The roll or the reveal itself is the footer's main action.
        for march in arrivals_due(state, ruleset) {
            ui.label(format!(
                "{side}'s turn {turn}: roll for flank march {} before anything else.",
                march_number(state, march)
            ));
        }
        for march in to_reveal(state, ruleset) {
            let owner = state.deployment.flank_marches[march].side;
            let how = self.away[owner].map_or("on their own screen", |a| a.on());
            ui.label(format!(
                "{owner}'s flank march {} has arrived: they reveal it {how} before anything else.",
                march_number(state, march)
            ));
        }
        // Ambushes still hidden, either side's: revealed when the rules say.
        let hidden: Vec<(usize, Side)> = state
            .deployment
            .ambushes
            .iter()
            .enumerate()
            .filter(|(_, a)| a.revealed.is_none())
            .map(|(i, a)| (i, a.side))
            .collect();
        if !hidden.is_empty() {
            ui.add_space(6.0);
            ui.strong("Hidden ambush markers");
        }
        // The marker on a line, its reasons on the next: one button alone
        // on a line of its own read as something else (review).
        for (i, owner) in hidden {
            if self.remote(owner) {
                ui.label(format!(
                    "{owner}'s marker {}{}: they reveal it on their own Muster",
                    &owner.name()[..1],
                    marker_number(state, i)
                ));
                continue;
            }
            ui.label(format!(
                "{owner}'s marker {}{}: reveal it, for",
                &owner.name()[..1],
                marker_number(state, i)
            ));
            ui.horizontal_wrapped(|ui| {
                for reason in RevealReason::ALL {
                    let button = ui.button(reason.short()).on_hover_text(reason.text());
                    if button.clicked() {
                        out.push(FogCommand::Ask(
                            owner,
                            Asked::Reveal(Reveal::Ambush(i, reason)),
                        ));
                    }
                }
            });
        }
    }

    /// A turn's main action: a flank march's arrival roll before anything
    /// else (RULES 10), then the end of the turn (the reveal of an arrived
    /// march opens by itself: see `hand_over`).
    fn footer(&mut self, ui: &mut egui::Ui, battle: &Battle, out: &mut Vec<FogCommand>) {
        let (state, ruleset) = (battle.state(), battle.ruleset());
        // An arrived march's reveal comes before anything else.
        if battle.phase() != Phase::Play || !to_reveal(state, ruleset).is_empty() {
            return;
        }
        let Some((turn, side)) = current_turn(state) else {
            return;
        };
        if self.remote(side) {
            crate::app::remote::waiting_for(
                ui,
                &muster::core::seat::Seated::seat_name(battle, side),
            );
            return;
        }
        if let Some(&march) = arrivals_due(state, ruleset).first() {
            let mut roll = Some(MainAction::roll(
                side.name(),
                usize::from(ruleset.flank_march.dice),
                move |dice| FogCommand::Apply(Command::RollArrival { side, march, dice }),
            ));
            MainAction::show(&mut roll, ui, out);
            return;
        }
        let mut end = Some(MainAction::new(
            format!("End {side}'s turn {turn}"),
            Some(FogCommand::Apply(Command::EndTurn { side })),
        ));
        MainAction::show(&mut end, ui, out);
    }
}

/// Each arrived flank march: where it enters (the side edge of its
/// recorded flank, `Flank::edge`, along its owner's half) and its caption.
fn entries(battle: &Battle) -> Vec<([f64; 2], [f64; 2], String, bool)> {
    let state = battle.state();
    let table = &state.settings.table;
    state
        .deployment
        .flank_marches
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let revealed = m.revealed.as_ref()?;
            let edge = revealed.secret.flank.edge(m.side);
            let west = edge == muster::fog::geometry::SideEdge::West;
            let x = if west { 0.0 } else { table.width };
            let (y0, y1) = match m.side {
                Side::South => (0.0, table.depth / 2.0),
                Side::North => (table.depth / 2.0, table.depth),
            };
            // Short: it stands on the table among the pieces' names; the
            // panel says the rest.
            let text = format!(
                "{} march {} enters",
                &m.side.name()[..1],
                march_number(state, i),
            );
            Some(([x, y0], [x, y1], text, west))
        })
        .collect()
}

impl Overlay for PlayPanel {
    /// The entry edge of each arrived march, with an arrow onto the table.
    fn under(&mut self, painter: &egui::Painter, frame: &Frame, battle: &Battle) {
        let colour = egui::Color32::from_rgb(240, 170, 40);
        for (from, to, _, west) in entries(battle) {
            let (a, b) = (frame.to_screen(from), frame.to_screen(to));
            painter.line_segment([a, b], egui::Stroke::new(6.0, colour));
            let inward = if west { 1.0 } else { -1.0 };
            painter.arrow(
                a + (b - a) / 2.0 - egui::Vec2::new(inward * 20.0, 0.0),
                egui::Vec2::new(inward * 44.0, 0.0),
                egui::Stroke::new(3.0, colour),
            );
        }
    }

    /// Their captions, placed with the pieces' names, clear of them: from
    /// the edge itself, so a free spot is sought beside it first.
    fn labels(&self, frame: &Frame, battle: &Battle) -> Vec<(egui::Pos2, String)> {
        entries(battle)
            .into_iter()
            .map(|(from, to, text, _)| {
                let mid = frame.to_screen([from[0], (from[1] + to[1]) / 2.0]);
                (mid, text)
            })
            .collect()
    }
}
