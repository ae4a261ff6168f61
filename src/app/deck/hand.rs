//! A player's private screen (RULES-deck 2, 7): his hand with the plays
//! the rules allow him now, his discard pile and removed box, and the exact
//! odds of his next redraw as a chart. It is drawn only for the player
//! holding the screen, from his own zones.

use super::DeckAction;
use eframe::egui;
use egui_plot::{Bar, BarChart, Plot};
use muster::core::side::Side;
use muster::deck::game::Pick;
use muster::deck::turn::Turn;
use muster::deck::{Card, Command, Destination, Game, Kind, Stage, Use};

/// Each distinct card of a zone once, with how many.
fn grouped(ids: &[String]) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for id in ids {
        match out.last_mut() {
            Some((last, n)) if last == id => *n += 1,
            _ => out.push((id.clone(), 1)),
        }
    }
    out
}

fn card_line(card: &Card) -> String {
    let kind = match (card.kind, card.phase) {
        (Kind::Event, _) => "event".to_string(),
        (Kind::Interrupt, Some(letter)) => format!("interrupt ({letter})"),
        _ => "no text play".to_string(),
    };
    let trash = if card.trash { ", 🗑" } else { "" };
    let n = |count: u32, what: &str| format!("{count} {what}{}", if count == 1 { "" } else { "s" });
    format!(
        "{}: {}, {}, {kind}{trash}",
        card.title,
        n(card.laurels, "laurel"),
        n(card.rally, "flag")
    )
}

/// What `side` may do with a card from his hand now, as (label, command).
fn plays(game: &Game, turn: &Turn, side: Side, card: &Card) -> Vec<(String, Command)> {
    let set = game.set();
    let phase = set.phases[turn.phase];
    let active = side == turn.active;
    let id = || card.id.clone();
    let mut out = Vec::new();
    match turn.stage {
        Stage::Events if active && !turn.event_played && card.kind == Kind::Event => {
            out.push((
                format!("Play {} as the event", card.title),
                Command::PlayEvent {
                    player: side,
                    card: id(),
                },
            ));
        }
        Stage::AskingInterrupt
            if !active && card.kind == Kind::Interrupt && card.phase == phase.letter() =>
        {
            out.push((
                format!("Interrupt with {}", card.title),
                Command::Interrupt {
                    player: side,
                    card: Some(id()),
                },
            ));
        }
        Stage::Playing => {
            for (label, use_, to) in uses(turn, side, phase) {
                out.push((
                    format!("Play {} for {label}", card.title),
                    Command::Play {
                        player: side,
                        card: Pick::Hand(id()),
                        use_,
                        to,
                    },
                ));
            }
        }
        Stage::Fatigue if active => out.push((
            format!("Remove {} (fatigue)", card.title),
            Command::Fatigue { card: Some(id()) },
        )),
        _ => {}
    }
    out
}

/// The plays for value `side` may make in the phase under way.
fn uses(
    turn: &Turn,
    side: Side,
    phase: muster::deck::PhaseName,
) -> Vec<(&'static str, Use, Option<Destination>)> {
    use muster::deck::PhaseName;
    let active = side == turn.active;
    match phase {
        PhaseName::Rally if active => vec![("rally", Use::Rally, None)],
        PhaseName::Movement if active => vec![("laurels", Use::Laurels, None)],
        PhaseName::Shooting | PhaseName::Combat => vec![
            (
                "laurels, then discard",
                Use::Laurels,
                Some(Destination::Discard),
            ),
            (
                "laurels, then remove",
                Use::Laurels,
                Some(Destination::Remove),
            ),
        ],
        _ => Vec::new(),
    }
}

pub fn ui(ui: &mut egui::Ui, game: &Game, side: Side, out: &mut Vec<DeckAction>) {
    let name = game.setup().name(side).to_string();
    let Some(zones) = game.zones(side) else {
        ui.label(format!(
            "{name}'s cards are sealed: he must unlock the game."
        ));
        return;
    };
    let turn = game.public().turn.as_ref();
    ui.heading(format!(
        "{name}'s hand ({} of {})",
        zones.hand.len(),
        game.setup().seats[side].hand_size
    ));
    if let Some(turn) = turn {
        if turn.stage == Stage::AskingInterrupt && side == turn.passive() {
            let phase = game.set().phases[turn.phase];
            ui.label(format!(
                "{} plays the {phase} phase. Do you interrupt it?",
                game.setup().name(turn.active)
            ));
            if ui.button("No interrupt").clicked() {
                out.push(DeckAction::Apply(Command::Interrupt {
                    player: side,
                    card: None,
                }));
            }
        }
        if turn.stage == Stage::Playing {
            let phase = game.set().phases[turn.phase];
            for (label, use_, to) in uses(turn, side, phase) {
                if ui
                    .button(format!("Draw from the deck for {label}"))
                    .clicked()
                {
                    out.push(DeckAction::Apply(Command::Play {
                        player: side,
                        card: Pick::Deck,
                        use_,
                        to,
                    }));
                }
            }
        }
        if turn.stage == Stage::Fatigue
            && side == turn.active
            && zones.hand.is_empty()
            && ui.button("Remove the deck's top card (fatigue)").clicked()
        {
            out.push(DeckAction::Apply(Command::Fatigue { card: None }));
        }
    }
    for (id, n) in grouped(&zones.hand) {
        let Some(card) = game.set().card(&id) else {
            continue;
        };
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            let times = if n > 1 {
                format!(" ×{n}")
            } else {
                String::new()
            };
            ui.strong(format!("{}{times}", card_line(card)));
            ui.label(&card.text);
            ui.horizontal_wrapped(|ui| {
                if let Some(turn) = turn {
                    for (label, command) in plays(game, turn, side, card) {
                        if ui.button(label).clicked() {
                            out.push(DeckAction::Apply(command));
                        }
                    }
                }
                if ui
                    .button(format!("Remove {} for a broken unit", card.title))
                    .on_hover_text(
                        "A unit of yours broke: remove the cards the rules say, one click each",
                    )
                    .clicked()
                {
                    out.push(DeckAction::Apply(Command::UnitBreaks {
                        player: side,
                        cards: vec![id.clone()],
                    }));
                }
            });
        });
    }
    ui.add_space(6.0);
    odds(ui, game, side);
    for (title, ids) in [
        ("Discard pile", &zones.discard),
        ("Removed box", &zones.removed),
    ] {
        egui::CollapsingHeader::new(format!("{title} ({})", ids.len()))
            .id_salt((title, side))
            .show(ui, |ui| {
                for (id, n) in grouped(ids) {
                    let title = game.set().card(&id).map_or(id.clone(), |c| c.title.clone());
                    ui.label(if n > 1 {
                        format!("{title} ×{n}")
                    } else {
                        title
                    });
                }
            });
    }
}

/// The exact odds of the next redraw, from what the player knows.
fn odds(ui: &mut egui::Ui, game: &Game, side: Side) {
    let Some(zones) = game.zones(side) else {
        return;
    };
    let odds = muster::deck::odds::redraw(zones, game.set(), game.setup().seats[side].hand_size);
    ui.strong("Your next redraw");
    ui.label(format!(
        "draws {} card{}; {} card{} left before the deck runs out",
        odds.draws,
        if odds.draws == 1 { "" } else { "s" },
        odds.deck_left,
        if odds.deck_left == 1 { "" } else { "s" }
    ));
    for (letter, chance, held) in &odds.interrupts {
        let held = if *held { " (one in hand already)" } else { "" };
        ui.label(format!(
            "at least one {} interrupt ({letter}): {:.1}%{held}",
            letter.phase_name(),
            chance * 100.0
        ));
    }
    let bars: Vec<Bar> = odds
        .laurels
        .iter()
        .enumerate()
        .skip(1)
        .map(|(n, p)| Bar::new(n as f64, p * 100.0).width(0.7))
        .collect();
    Plot::new(("laurels-odds", side))
        .height(120.0)
        .include_y(0.0)
        .include_y(100.0)
        .x_axis_label("at least N laurels in hand after it")
        .y_axis_label("chance, %")
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("at least N laurels", bars));
        });
}
