//! One player's own counters, on his private screen (RULES-map-intel B2-B4,
//! B9): what each leader counter stands for and how far it may still move
//! this turn; in set-up, a new real Wing (units, command rating, formation)
//! or dummy with its two Dis counters; in his turn, a move or a voluntary
//! deployment.

use super::{Hexes, WingsAction};
use eframe::egui;
use muster::core::side::Side;
use muster::map_intel::wings::formation::Formation;
use muster::map_intel::wings::game::{Command, Composition, Game, Seen};
use muster::map_intel::wings::scenario::Type;
use std::collections::BTreeSet;

/// The counter being set up, or the one being moved.
pub struct Draft {
    kind: Type,
    real: bool,
    detachment: bool,
    ticked: BTreeSet<String>,
    detached: BTreeSet<String>,
    rating: u32,
    formation: Formation,
    moving: Option<usize>,
}

impl Default for Draft {
    fn default() -> Draft {
        Draft {
            kind: Type::Inf,
            real: true,
            detachment: false,
            ticked: BTreeSet::new(),
            detached: BTreeSet::new(),
            rating: 3,
            formation: Formation::Deployed,
            moving: None,
        }
    }
}

impl Draft {
    pub fn after_change(&mut self) {
        self.ticked.clear();
        self.detached.clear();
    }
}

fn describe(game: &Game, side: Side, c: &Composition) -> String {
    if !c.real {
        return format!("dummy, {}", c.formation.name());
    }
    let names: Vec<&str> = c
        .units
        .iter()
        .filter_map(|id| game.setup().armies[side].iter().find(|u| &u.id == id))
        .map(|u| u.name.as_str())
        .collect();
    format!(
        "real Wing, rating {}, {}: {}",
        c.rating,
        c.formation.name(),
        names.join(", ")
    )
}

pub fn ui(
    ui: &mut egui::Ui,
    game: &Game,
    seen: &[Seen],
    side: Side,
    draft: &mut Draft,
    hexes: &mut Hexes,
    out: &mut Vec<WingsAction>,
) {
    let name = game.setup().name(side);
    ui.horizontal(|ui| {
        ui.heading(format!("{name}'s counters"));
        if ui.button("Hide my counters").clicked() {
            out.push(WingsAction::Hide);
        }
    });
    ui.weak(format!("Only {name} looks."));
    let own: Vec<&Seen> = seen.iter().filter(|s| s.side == side).collect();
    for s in &own {
        let what = s
            .composition
            .as_ref()
            .map_or("locked".into(), |c| describe(game, side, c));
        let left = s.allowance.map_or(String::new(), |a| {
            format!("; may still move {a} hex{}", if a == 1 { "" } else { "es" })
        });
        let dis: Vec<String> = s.dis.iter().map(|d| d.to_string()).collect();
        ui.label(format!(
            "{} counter {} in {} (Dis {}): {what}{left}",
            s.kind.name(),
            s.id,
            s.leader,
            dis.join(", ")
        ));
    }
    ui.separator();
    let map = &game.setup().battle.map;
    let public = game.public();
    hexes.tracing = public.active.is_some();
    if hexes.tracing {
        ui.weak(
            "Trace each counter's path on the map, hex by hex: spotting is checked at every hex entered (B4).",
        );
    } else {
        ui.weak("Click the map: the leader's hex, then the two Dis counters'.");
    }
    let labels = if hexes.tracing {
        ["Leader's path", "First Dis path", "Second Dis path"]
    } else {
        ["Leader hex", "First Dis hex", "Second Dis hex"]
    };
    let [first, second] = &mut hexes.dis;
    for (k, (label, field)) in labels
        .into_iter()
        .zip([&mut hexes.leader, first, second])
        .enumerate()
    {
        ui.horizontal(|ui| {
            if hexes.tracing {
                ui.radio_value(&mut hexes.next, k, "")
                    .on_hover_text("Map clicks add to this path");
            }
            let l = ui.label(label);
            let width = if hexes.tracing { 220.0 } else { 60.0 };
            ui.add(egui::TextEdit::singleline(field).desired_width(width))
                .labelled_by(l.id);
        });
    }
    if public.active.is_none() {
        set_up(ui, game, &own, side, draft, hexes, out);
        return;
    }
    if public.active != Some(side) {
        ui.weak("Not your turn: your counters move in your own turn.");
        return;
    }
    if public.pending.is_some() {
        ui.weak("Settle the spotting at the table first.");
        return;
    }
    ui.strong("Move a counter (27.1.4)");
    ui.horizontal_wrapped(|ui| {
        for s in own.iter().filter(|s| s.deployed.is_none()) {
            ui.selectable_value(&mut draft.moving, Some(s.id), format!("Counter {}", s.id));
        }
    });
    let Some(id) = draft.moving else {
        return;
    };
    ui.horizontal(|ui| {
        if ui.button("Move along the paths").clicked() {
            out.push(match hexes.paths(map) {
                Ok((leader, dis)) => WingsAction::Apply(Command::Move { id, leader, dis }),
                Err(e) => WingsAction::Refused(e),
            });
        }
        if ui
            .button("Deploy it now (27.4)")
            .on_hover_text("An active unspotted Wing that moved at most half its IC allowance")
            .clicked()
        {
            out.push(WingsAction::Apply(Command::Deploy {
                id,
                formation: Formation::Deployed,
            }));
        }
    });
}

fn set_up(
    ui: &mut egui::Ui,
    game: &Game,
    own: &[&Seen],
    side: Side,
    draft: &mut Draft,
    hexes: &Hexes,
    out: &mut Vec<WingsAction>,
) {
    ui.strong("A new leader counter (27.1.1-27.1.2)");
    ui.horizontal(|ui| {
        for kind in [Type::Inf, Type::Cav, Type::InfCav] {
            ui.radio_value(&mut draft.kind, kind, kind.name());
        }
    });
    ui.checkbox(&mut draft.real, "A real Wing (untick for a dummy)");
    ui.checkbox(&mut draft.detachment, "A Detachment stack")
        .on_hover_text("Torgau keeps 3 empty hexes between Detachment stacks and their Dis counters (27.6.4.4)");
    ui.horizontal(|ui| {
        ui.radio_value(&mut draft.formation, Formation::Deployed, "Deployed");
        ui.radio_value(&mut draft.formation, Formation::InColumn, "In column (IC)");
    });
    if draft.real {
        ui.horizontal(|ui| {
            let l = ui.label("Command rating");
            ui.add(egui::DragValue::new(&mut draft.rating).range(0..=9))
                .labelled_by(l.id);
        });
        let grouped: BTreeSet<&String> = own
            .iter()
            .filter_map(|s| s.composition.as_ref())
            .flat_map(|c| &c.units)
            .collect();
        for unit in game.setup().armies[side]
            .iter()
            .filter(|u| !grouped.contains(&u.id))
        {
            toggle(ui, &mut draft.ticked, &unit.id, &unit.name);
        }
        let army = &game.setup().armies[side];
        let commander = army
            .iter()
            .any(|u| u.commander && draft.ticked.contains(&u.id));
        if commander {
            ui.weak("Detached to the Army Commander (at most 2 infantry/cavalry and 2 artillery, 27.1.1):");
            for unit in army
                .iter()
                .filter(|u| draft.ticked.contains(&u.id) && !u.commander)
            {
                toggle(
                    ui,
                    &mut draft.detached,
                    &unit.id,
                    &format!("{} detached", unit.name),
                );
            }
        }
    }
    if ui.button("Place the counter").clicked() {
        let composition = if draft.real {
            Composition {
                real: true,
                units: draft.ticked.iter().cloned().collect(),
                rating: draft.rating,
                formation: draft.formation,
                detached: draft
                    .detached
                    .intersection(&draft.ticked)
                    .cloned()
                    .collect(),
            }
        } else {
            Composition::dummy(draft.formation)
        };
        out.push(match hexes.read(&game.setup().battle.map) {
            Ok((leader, dis)) => WingsAction::Apply(Command::PlaceWing {
                side,
                kind: draft.kind,
                detachment: draft.detachment,
                leader,
                dis,
                composition,
            }),
            Err(e) => WingsAction::Refused(e),
        });
    }
}

/// A checkbox that puts `id` in or out of `set`.
fn toggle(ui: &mut egui::Ui, set: &mut BTreeSet<String>, id: &str, label: &str) {
    let mut on = set.contains(id);
    if ui.checkbox(&mut on, label).changed() {
        if on {
            set.insert(id.to_string());
        } else {
            set.remove(id);
        }
    }
}
