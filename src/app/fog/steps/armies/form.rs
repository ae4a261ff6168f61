//! The army step's form for one army (RULES 1): its name and commanders,
//! its battle groups row by row with names typed ahead from the army list.

use super::*;

pub(super) fn commander_quality(
    ui: &mut egui::Ui,
    id: impl std::hash::Hash + std::fmt::Debug,
    name: &str,
    q: &mut CommanderQuality,
) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(q.name())
        .show_ui(ui, |ui| {
            for option in CommanderQuality::ALL {
                ui.selectable_value(q, option, option.name());
            }
        })
        .response
        .accessible_name(name);
}

/// The name field of battle group `row` (from 0) of `side`'s form, for
/// moving the keyboard focus to a new row.
/// Type-ahead on a focused choice, as in a form's drop-down list: a letter
/// typed picks the next option whose name starts with it, so Tab, "h",
/// Tab, "s" sets heavy foot, superior without the mouse.
pub(super) fn type_ahead<T: Clone + PartialEq>(
    ui: &egui::Ui,
    choice: &egui::Response,
    options: &[(T, &str)],
    value: &mut T,
) {
    if !choice.has_focus() {
        return;
    }
    let typed = ui.input(|i| {
        i.events.iter().find_map(|e| match e {
            egui::Event::Text(t) => t.chars().next(),
            _ => None,
        })
    });
    let Some(letter) = typed.map(|c| c.to_lowercase().to_string()) else {
        return;
    };
    let now = options.iter().position(|(v, _)| v == value).unwrap_or(0);
    let next = (1..=options.len())
        .map(|k| &options[(now + k) % options.len()])
        .find(|(_, name)| name.to_lowercase().starts_with(&letter));
    if let Some((v, _)) = next {
        *value = v.clone();
    }
}

pub(super) fn bg_name_id(side: Side, row: usize) -> egui::Id {
    egui::Id::unique(("bg name", side, row))
}

/// Who plays the army and its C-in-C: the form's first lines, before his
/// passphrase.
pub(super) fn army_identity(ui: &mut egui::Ui, army: &mut Army, side: Side) {
    egui::Grid::new(("army", side))
        .num_columns(2)
        .spacing([10.0, 6.0])
        .show(ui, |ui| {
            let l = ui.label("Player name");
            ui.text_edit_singleline(&mut army.player).labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Army name");
            ui.text_edit_singleline(&mut army.name).labelled_by(l.id);
            ui.end_row();
            let l = ui.label("C-in-C name");
            ui.text_edit_singleline(&mut army.c_in_c.name)
                .labelled_by(l.id);
            ui.end_row();
            ui.label("C-in-C quality");
            commander_quality(
                ui,
                ("cinc", side),
                "C-in-C quality",
                &mut army.c_in_c.quality,
            );
            ui.end_row();
        });
}

/// The army's territory types, commanders and battle groups: the form's
/// long part, after his passphrase.
pub(super) fn army_body(ui: &mut egui::Ui, army: &mut Army, side: Side, battle: &Battle) {
    let ruleset = battle.ruleset();
    ui.add_space(4.0);
    ui.label("Territory types the army list allows (1 to 8):");
    ui.horizontal_wrapped(|ui| {
        for (id, t) in &ruleset.territories {
            let mut on = army.territories.contains(id);
            if ui.checkbox(&mut on, &t.name).changed() {
                if on {
                    army.territories.push(id.clone());
                } else {
                    army.territories.retain(|x| x != id);
                }
            }
        }
    });
    ui.add_space(4.0);
    egui::CollapsingHeader::new(format!("Other commanders ({})", army.commanders.len()))
        .id_salt(("commanders", side))
        .default_open(true)
        .show(ui, |ui| {
            let mut remove = None;
            for (i, c) in army.commanders.iter_mut().enumerate() {
                ui.horizontal(|ui| {
                    ui.add(egui::TextEdit::singleline(&mut c.name).desired_width(160.0))
                        .accessible_name(format!("Commander {} name", i + 1));
                    commander_quality(
                        ui,
                        ("cq", side, i),
                        &format!("Commander {} quality", i + 1),
                        &mut c.quality,
                    );
                    if ui
                        .button("Remove")
                        .accessible_name(format!("Remove commander {}", i + 1))
                        .clicked()
                    {
                        remove = Some(i);
                    }
                });
            }
            if let Some(i) = remove {
                army.commanders.remove(i);
            }
            if ui.button("Add commander").clicked() {
                army.commanders.push(Commander::default());
            }
        });
    ui.add_space(4.0);
    ui.strong(format!("Battle groups ({})", army.bgs.len()));
    let mut remove = None;
    let mut duplicate = None;
    let mut add_after = None;
    // Two lines per battle group: the name at full width (a narrow column
    // would cut it to a few letters), then its attributes.
    for (i, bg) in army.bgs.iter_mut().enumerate() {
        let row = i + 1;
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(format!("{row}."));
                let name = ui
                    .add(
                        egui::TextEdit::singleline(&mut bg.name)
                            .id(bg_name_id(side, i))
                            .desired_width((ui.available_width() - 40.0).max(120.0)),
                    )
                    .accessible_name(format!("BG {row} name"));
                if name.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    add_after = Some(i);
                }
                // A row just added by Enter: brought into view once.
                let fresh = ui.data_mut(|d| d.remove_temp::<bool>(bg_name_id(side, i)));
                if fresh == Some(true) {
                    name.scroll_to_me(Some(egui::Align::Center));
                }
                name.on_hover_text(format!(
                    "{}\nEnter adds a battle group after this one",
                    bg.name
                ));
                if ui
                    .button("✖")
                    .on_hover_text("Remove this battle group")
                    .accessible_name(format!("Remove BG {row}"))
                    .clicked()
                {
                    remove = Some(i);
                }
            });
            ui.horizontal_wrapped(|ui| {
                let troop = egui::ComboBox::from_id_salt(("troop", side, i))
                    .selected_text(ruleset.troop_name(&bg.troop_type))
                    .width(120.0)
                    .show_ui(ui, |ui| {
                        for (id, t) in &ruleset.troop_types {
                            ui.selectable_value(&mut bg.troop_type, id.clone(), &t.name);
                        }
                    })
                    .response
                    .accessible_name(format!("BG {row} troop type"));
                let troops: Vec<(String, &str)> = ruleset
                    .troop_types
                    .iter()
                    .map(|(id, t)| (id.clone(), t.name.as_str()))
                    .collect();
                type_ahead(ui, &troop, &troops, &mut bg.troop_type);
                let quality = egui::ComboBox::from_id_salt(("quality", side, i))
                    .selected_text(bg.quality.name())
                    .width(80.0)
                    .show_ui(ui, |ui| {
                        for q in Quality::ALL {
                            ui.selectable_value(&mut bg.quality, q, q.name());
                        }
                    })
                    .response
                    .accessible_name(format!("BG {row} quality"));
                let qualities = Quality::ALL.map(|q| (q, q.name()));
                type_ahead(ui, &quality, &qualities, &mut bg.quality);
                ui.checkbox(&mut bg.drilled, "drilled")
                    .accessible_name(format!("BG {row} drilled"));
                ui.add(
                    egui::DragValue::new(&mut bg.bases)
                        .range(1..=99)
                        .suffix(" bases"),
                )
                .accessible_name(format!("BG {row} bases"));
                ui.checkbox(&mut bg.may_dismount, "may dismount")
                    .accessible_name(format!("BG {row} may dismount"));
                if ui
                    .button("Copy")
                    .on_hover_text("Duplicate this battle group")
                    .accessible_name(format!("Duplicate BG {row}"))
                    .clicked()
                {
                    duplicate = Some(i);
                }
            });
        });
    }
    if let Some(i) = remove {
        army.bgs.remove(i);
    }
    if let Some(i) = duplicate {
        let copy = army.bgs[i].clone();
        army.bgs.insert(i + 1, copy);
    }
    if ui.button("Add battle group").clicked() {
        add_after = Some(army.bgs.len().saturating_sub(1));
    }
    if let Some(i) = add_after {
        // Numbered as the row it becomes, or the next number free.
        let name = (army.bgs.len() + 1..)
            .map(|n| format!("BG {n}"))
            .find(|n| army.bgs.iter().all(|b| &b.name != n))
            .expect("some number is free");
        let at = (i + 1).min(army.bgs.len());
        army.bgs.insert(
            at,
            BattleGroup {
                name,
                ..BattleGroup::default()
            },
        );
        // The new row's name is where the next keystrokes go, all of it
        // selected, so typing replaces "BG 5" instead of adding to it.
        let id = bg_name_id(side, at);
        ui.memory_mut(|m| m.request_focus(id));
        let mut state = egui::text_edit::TextEditState::load(ui.ctx(), id).unwrap_or_default();
        let chars = army.bgs[at].name.chars().count();
        state
            .cursor
            .set_char_range(Some(egui::text::CCursorRange::two(
                egui::text::CCursor::new(0),
                egui::text::CCursor::new(chars),
            )));
        state.store(ui.ctx(), id);
        ui.data_mut(|d| d.insert_temp(id, true));
    }
}
