//! One player's ledger, on his private screen (RULES-map-intel 0, A1,
//! A3-A5): what each of his counters and holding areas holds, and the
//! regrouping of units between them: to another of his counters, to a new
//! force in a hex, or, in set-up, to an Exercitus placed with 0 or more
//! units (a bluff when none).

use super::ForcesAction;
use super::orders::short;
use eframe::egui;
use muster::core::side::Side;
use muster::map_intel::describe::{place, units};
use muster::map_intel::events::{Area, Kind};
use muster::map_intel::game::{Command, Game, Target};
use muster::map_intel::scenario::Status;
use muster::map_intel::view::View;
use std::collections::BTreeSet;

/// The regrouping being put together.
#[derive(Default)]
pub struct Regroup {
    from: Option<usize>,
    ticked: BTreeSet<String>,
    /// `None`: a new force in `hex`.
    to: Option<usize>,
    /// For a new force or an Exercitus, as printed; a click on the map
    /// fills it.
    pub hex: String,
}

impl Regroup {
    /// The units moved are no longer where they were ticked.
    pub fn after_change(&mut self) {
        self.ticked.clear();
    }
}

pub fn ui(
    ui: &mut egui::Ui,
    game: &Game,
    view: &View,
    side: Side,
    regroup: &mut Regroup,
    out: &mut Vec<ForcesAction>,
) {
    let name = game.setup().name(side);
    ui.horizontal(|ui| {
        ui.heading(format!("{name}'s ledger"));
        if ui.button("Hide my ledger").clicked() {
            out.push(ForcesAction::Hide);
        }
    });
    ui.weak(format!(
        "Only {name} looks: what each of his counters and holding areas holds."
    ));
    let own: Vec<_> = view.holders.iter().filter(|h| h.side == side).collect();
    for h in &own {
        ui.horizontal_wrapped(|ui| {
            ui.strong(format!("{}, {}:", short(h), place(h)));
            ui.label(
                h.units
                    .as_deref()
                    .map_or("locked".into(), |u| units(game.setup(), u)),
            );
        });
    }
    ui.separator();
    ui.strong("Regroup units (A3-A5)");
    ui.horizontal_wrapped(|ui| {
        ui.label("From:");
        for h in own.iter().filter(|h| {
            h.kind == Kind::Area(Area::OffMap) || h.units.as_ref().is_some_and(|u| !u.is_empty())
        }) {
            if ui
                .selectable_label(regroup.from == Some(h.id), short(h))
                .clicked()
            {
                regroup.from = Some(h.id);
                regroup.ticked.clear();
            }
        }
    });
    let Some(from) = regroup.from.and_then(|id| own.iter().find(|h| h.id == id)) else {
        return;
    };
    let scenario = &game.setup().scenario;
    for id in from.units.as_deref().unwrap_or_default() {
        let Some(unit) = scenario.sides[side].unit(id) else {
            continue;
        };
        let status = match unit.status {
            Status::Regular => String::new(),
            Status::Civis => ", Civis".into(),
            Status::Client => ", Client".into(),
        };
        let mut on = regroup.ticked.contains(id);
        if ui
            .checkbox(&mut on, format!("{} ({}{status})", unit.name, unit.kind))
            .changed()
        {
            if on {
                regroup.ticked.insert(id.clone());
            } else {
                regroup.ticked.remove(id);
            }
        }
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("To:");
        for h in own.iter().filter(|h| h.id != from.id) {
            ui.selectable_value(&mut regroup.to, Some(h.id), format!("into {}", short(h)));
        }
        ui.selectable_value(&mut regroup.to, None, "into a new force");
    });
    ui.horizontal(|ui| {
        let label = ui.label("Hex for a new force or an Exercitus");
        ui.add(
            egui::TextEdit::singleline(&mut regroup.hex)
                .hint_text("click the map")
                .desired_width(60.0),
        )
        .labelled_by(label.id);
    });
    let units: Vec<String> = regroup.ticked.iter().cloned().collect();
    let hex = || scenario.map.hex(&regroup.hex);
    if ui.button("Move the ticked units").clicked() {
        let to = match regroup.to {
            Some(id) => Ok(Target::Counter(id)),
            None => hex().map(Target::NewForce),
        };
        out.push(match to {
            Ok(to) => ForcesAction::Apply(Command::Transfer {
                side,
                from: from.id,
                to,
                units: units.clone(),
            }),
            Err(e) => ForcesAction::Refused(e.to_string()),
        });
    }
    if view.active.is_none() && from.kind == Kind::Area(Area::OffMap) {
        ui.weak(
            "Set-up: an Exercitus goes on the map with the ticked units, or with none (a bluff).",
        );
        ui.horizontal_wrapped(|ui| {
            for marker in own
                .iter()
                .filter(|m| matches!(m.kind, Kind::Exercitus(_)) && m.hex.is_none())
            {
                let Kind::Exercitus(number) = marker.kind else {
                    continue;
                };
                if ui.button(format!("Place Exercitus {number}")).clicked() {
                    out.push(match hex() {
                        Ok(hex) => ForcesAction::Apply(Command::PlaceExercitus {
                            side,
                            number,
                            hex,
                            units: units.clone(),
                        }),
                        Err(e) => ForcesAction::Refused(e.to_string()),
                    });
                }
            }
        });
    }
}
