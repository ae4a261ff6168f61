//! The orders both players watch (RULES-map-intel A2-A4, A6): whose turn
//! it is, the selected counter and what may be done with it (move, reveal,
//! replace by an Exercitus, an Agent Stratagem marker spent on it), combat
//! in a hex, the empty Exercitus to re-place, the revealed forces offered
//! face down at the start of their owner's turn, and every counter and
//! holding area in a list.
//!
//! Only commands leave here; the engine refuses what the rules forbid and
//! the status line gives its reason.

use super::{ForcesAction, Selection};
use crate::app::hex_grid::{Picked, side_colour};
use crate::app::seating::Cx;
use crate::app::seating::life::Life;
use eframe::egui;
use muster::core::side::Side;
use muster::map_intel::describe::{place, units};
use muster::map_intel::events::{Kind, label, noun};
use muster::map_intel::game::{Command, Game};
use muster::map_intel::{SeenHolder, View};

/// "force 12", "Exercitus 2", "off-map area": a holder among its side's.
pub fn short(h: &SeenHolder) -> String {
    noun(h.kind, h.id)
}

fn full(game: &Game, h: &SeenHolder) -> String {
    label(&game.setup().name(h.side), h.kind, h.id)
}

/// A picked hex selects its counters in turn (or is the destination when
/// it has none); a right-click moves the selected counter there.
pub fn picked(
    view: &View,
    picked: &Picked,
    selection: &mut Selection,
    out: &mut Vec<ForcesAction>,
) {
    if let Some(hex) = picked.clicked {
        let here: Vec<usize> = view
            .holders
            .iter()
            .filter(|h| h.hex == Some(hex))
            .map(|h| h.id)
            .collect();
        selection.hex = Some(hex);
        if here.is_empty() {
            selection.to = hex.to_string();
        } else {
            let now = selection
                .counter
                .and_then(|c| here.iter().position(|&i| i == c));
            selection.counter = Some(here[now.map_or(0, |k| (k + 1) % here.len())]);
            selection.to.clear();
        }
    }
    if let (Some(to), Some(id)) = (picked.send_to, selection.counter) {
        out.push(ForcesAction::Apply(Command::Move { id, to }));
        selection.to.clear();
    }
    // A counter dragged to a hex moves there: the one whose label the drag
    // began on, or the only one in its hex; from a stack, the players pick.
    if let Some(drag) = &picked.dragged
        && let Some(&to) = drag.path.last()
    {
        let here: Vec<usize> = view
            .holders
            .iter()
            .filter(|h| h.hex == Some(drag.from))
            .map(|h| h.id)
            .collect();
        let id = drag
            .counter
            .filter(|c| here.contains(c))
            .or_else(|| (here.len() == 1).then(|| here[0]));
        match id {
            Some(id) => {
                selection.counter = Some(id);
                out.push(ForcesAction::Apply(Command::Move { id, to }));
                selection.to.clear();
                selection.stack = None;
            }
            None if !here.is_empty() => {
                *selection = Selection {
                    hex: Some(drag.from),
                    to: to.to_string(),
                    stack: Some((here, to)),
                    ..Selection::default()
                };
            }
            None => {}
        }
    }
}

/// A drag from a stack that began on no label: which counter goes.
fn stack_choice(
    ui: &mut egui::Ui,
    game: &Game,
    view: &View,
    selection: &mut Selection,
    out: &mut Vec<ForcesAction>,
) {
    let Some((ids, to)) = selection.stack.clone() else {
        return;
    };
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.strong(format!("Several counters stand there: which goes to {to}?"));
        for h in view.holders.iter().filter(|h| ids.contains(&h.id)) {
            if crate::app::guard::button(ui, format!("Move {} to {to}", full(game, h))) {
                out.push(ForcesAction::Apply(Command::Move { id: h.id, to }));
                *selection = Selection {
                    counter: Some(h.id),
                    ..Selection::default()
                };
            }
        }
        if ui.button("None of them").clicked() {
            selection.stack = None;
        }
    });
}

pub fn ui(
    ui: &mut egui::Ui,
    game: &Game,
    view: &View,
    cx: &Cx,
    selection: &mut Selection,
    out: &mut Vec<ForcesAction>,
) {
    let name = |side: Side| game.setup().name(side);
    let apply = |out: &mut Vec<ForcesAction>, command| out.push(ForcesAction::Apply(command));
    match view.active {
        _ if game.public().over => over(ui, cx),
        None => {
            ui.heading("Set-up");
            ui.label("Each player, on their own screen, puts their forces on the map from their off-map area and places their Exercitus markers with 0 or more units. Civis and Client units stay face up.");
        }
        Some(active) => {
            ui.heading(format!("Turn {}: {} is active", view.turn, name(active)));
        }
    }
    ui.label(format!(
        "Agent Stratagem markers left: {} {}, {} {}",
        name(Side::South),
        view.agents.south,
        name(Side::North),
        view.agents.north
    ));
    if cx.private.is_none() {
        ui.horizontal_wrapped(|ui| {
            for side in Side::BOTH {
                crate::app::seated::seat_line(ui, cx, side, &name(side), "ledger");
            }
        });
    }
    if game.public().over {
        return;
    }
    if view.active.is_none() && cx.private.is_none() {
        ui.horizontal_wrapped(|ui| {
            for first in Side::BOTH {
                if crate::app::guard::button(ui, format!("Begin: {} first", name(first))) {
                    apply(out, Command::Begin { first });
                }
            }
        });
    }
    replace_offers(ui, game, view, cx, out);
    // In a remote game the other machine's player's turn is his: its
    // orders wait here, greyed, saying for whom.
    let theirs = view.active.filter(|a| cx.lives[*a] == Life::Remote);
    if let Some(active) = theirs {
        crate::app::remote::waiting_for(ui, &name(active));
    }
    ui.add_enabled_ui(theirs.is_none(), |ui| {
        ui.separator();
        stack_choice(ui, game, view, selection, out);
        selected(ui, game, view, selection, out);
        if let Some(active) = view.active
            && view.may_replace.is_empty()
            && crate::app::guard::button(
                ui,
                format!("End {} turn", muster_core::text::possessive(&name(active))),
            )
        {
            apply(out, Command::EndTurn);
        }
        if view.active.is_some() && crate::app::remote::end_game(ui, "hidden-forces-end-game") {
            out.push(ForcesAction::Apply(Command::EndGame));
        }
        // Last: offers that come with a new turn (A3) push no order a
        // player aims at.
        turn_down_offers(ui, game, view, out);
    });
    ui.separator();
    ui.collapsing("Counters and holding areas", |ui| {
        for side in Side::BOTH {
            ui.colored_label(side_colour(side), name(side));
            for h in view.holders.iter().filter(|h| h.side == side) {
                let text = format!("{}, {}", full(game, h), place(h));
                if ui
                    .selectable_label(selection.counter == Some(h.id), text)
                    .clicked()
                {
                    selection.counter = Some(h.id);
                    selection.hex = h.hex;
                }
            }
        }
    });
}

/// A game the players have said is over.
fn over(ui: &mut egui::Ui, cx: &Cx) {
    crate::app::remote::game_over(
        ui,
        cx,
        "every unit in one place after every entry, and every word on what a counter held",
    );
}

/// An empty Exercitus just revealed: its owner places it at once on a
/// friendly force, or leaves it off the map (A4 ruling).
fn replace_offers(
    ui: &mut egui::Ui,
    game: &Game,
    view: &View,
    cx: &Cx,
    out: &mut Vec<ForcesAction>,
) {
    for &(side, number) in &view.may_replace {
        if cx.lives[side] == Life::Remote {
            crate::app::remote::waiting_for(ui, &game.setup().name(side));
        }
        let frame = egui::Frame::group(ui.style());
        ui.add_enabled_ui(cx.lives[side] != Life::Remote, |ui| {
            frame.show(ui, |ui| {
                ui.strong(format!(
                    "{} may place Exercitus {number} at once on a face-down friendly force (A4)",
                    game.setup().name(side)
                ));
                // A force revealed and still face up under A3 is not offered:
                // the marker would hide what the opponent may examine.
                for force in view.holders.iter().filter(|h| {
                    h.side == side
                        && h.kind == Kind::Force
                        && h.hex.is_some()
                        && !(h.face_up && h.revealed.is_some())
                }) {
                    let hex = force.hex.map(|h| h.to_string()).unwrap_or_default();
                    if crate::app::guard::button(
                        ui,
                        format!("Place Exercitus {number} on force {} in {hex}", force.id),
                    ) {
                        out.push(ForcesAction::Apply(Command::ToExercitus {
                            id: force.id,
                            number,
                        }));
                    }
                }
                if crate::app::guard::button(ui, format!("Leave Exercitus {number} off the map")) {
                    out.push(ForcesAction::Apply(Command::DeclineReplace {
                        side,
                        number,
                    }));
                }
            })
        });
    }
}

/// From the start of his turn the active player may turn his revealed
/// counters face down again (A3); Muster offers each that may.
fn turn_down_offers(ui: &mut egui::Ui, game: &Game, view: &View, out: &mut Vec<ForcesAction>) {
    let Some(active) = view.active else {
        return;
    };
    let offered = view.may_turn_down(&game.setup().scenario, active);
    if offered.is_empty() {
        return;
    }
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.strong(format!(
            "{} face-up counters that may go face down again (A3, A5)",
            muster_core::text::possessive(&game.setup().name(active))
        ));
        for h in offered {
            if crate::app::guard::button(ui, format!("Turn {} face down", short(h))) {
                out.push(ForcesAction::Apply(Command::TurnDown { id: h.id }));
            }
        }
    });
}

/// The selected counter: what the viewer may know of it, and its orders.
fn selected(
    ui: &mut egui::Ui,
    game: &Game,
    view: &View,
    selection: &mut Selection,
    out: &mut Vec<ForcesAction>,
) {
    let Some(h) = selection
        .counter
        .and_then(|id| view.holders.iter().find(|h| h.id == id))
    else {
        ui.weak("Click a counter on the map or in the list below to select it.");
        combat(ui, view, selection, out);
        return;
    };
    ui.strong(format!("Selected: {}", full(game, h)));
    ui.label(place(h));
    let mine_to_order = view.active.is_none_or(|a| a == h.side);
    let on_map = h.hex.is_some() && matches!(h.kind, Kind::Force | Kind::Exercitus(_));
    if on_map && mine_to_order {
        ui.horizontal(|ui| {
            let label = ui.label("Move to hex");
            let edit = ui
                .add(
                    egui::TextEdit::singleline(&mut selection.to)
                        .hint_text("0607")
                        .desired_width(60.0),
                )
                .labelled_by(label.id);
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if crate::app::guard::button(ui, "Move") || enter {
                match game.setup().scenario.map.hex(&selection.to) {
                    Ok(to) => {
                        out.push(ForcesAction::Apply(Command::Move { id: h.id, to }));
                        selection.to.clear();
                    }
                    Err(e) => out.push(ForcesAction::Refused(e.to_string())),
                }
            }
        });
    }
    if view.active == Some(h.side) {
        ui.horizontal_wrapped(|ui| {
            // Shown face up too, greyed, so the buttons after it stay
            // where the finger is when a reveal arrives.
            let reveal = ui
                .add_enabled(!h.face_up, egui::Button::new("Reveal it (A2e)"))
                .on_disabled_hover_text("It is face up already");
            if crate::app::guard::clicked(&reveal) {
                out.push(ForcesAction::Apply(Command::Reveal { id: h.id }));
            }
            if h.kind == Kind::Force && h.hex.is_some() {
                for marker in view.holders.iter().filter(|m| {
                    m.side == h.side && matches!(m.kind, Kind::Exercitus(_)) && m.hex.is_none()
                }) {
                    let Kind::Exercitus(number) = marker.kind else {
                        continue;
                    };
                    if crate::app::guard::button(
                        ui,
                        format!("Replace with Exercitus {number} (A4)"),
                    ) {
                        out.push(ForcesAction::Apply(Command::ToExercitus {
                            id: h.id,
                            number,
                        }));
                    }
                }
            }
        });
    }
    let spy = h.side.opponent();
    // Not again on what his Agent examined already (until it changes).
    let examined = game
        .public()
        .holder(h.id)
        .is_ok_and(|held| game.public().examined_by(spy, held));
    if !h.face_up && !examined && view.active == Some(spy) && view.agents[spy] > 0 {
        let text = format!(
            "{} spends an Agent Stratagem marker on it (A2a)",
            game.setup().name(spy)
        );
        if crate::app::guard::button(ui, text) {
            out.push(ForcesAction::Apply(Command::SpendAgent {
                by: spy,
                id: h.id,
            }));
        }
    }
    // What it holds comes after its orders: a reveal that lengthens it
    // moves no button.
    match &h.units {
        Some(held) => ui.label(format!("Holds: {}", units(game.setup(), held))),
        None => ui.label(format!(
            "Holds: ? (sealed {}: its owner's ledger shows it; the other player sees it only after a reveal, A2)",
            h.code.as_deref().unwrap_or("")
        )),
    };
    if ui.small_button("Clear the selection").clicked() {
        *selection = Selection::default();
    }
    combat(ui, view, selection, out);
}

/// Combat in the picked hex, when both sides have counters there (A2d).
fn combat(ui: &mut egui::Ui, view: &View, selection: &Selection, out: &mut Vec<ForcesAction>) {
    let Some(hex) = selection.hex else {
        return;
    };
    let here = |side: Side| {
        view.holders
            .iter()
            .any(|h| h.side == side && h.hex == Some(hex))
    };
    if view.active.is_some()
        && here(Side::South)
        && here(Side::North)
        && crate::app::guard::button(ui, format!("Combat in {hex} (A2d)"))
    {
        out.push(ForcesAction::Apply(Command::Combat { hex }));
    }
}
