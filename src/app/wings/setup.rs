//! *File > New > Dummy wings* (RULES-map-intel B1): the battle (Rossbach,
//! Leuthen, Zorndorf, Torgau; each side's dummies by type from the data),
//! its placement notes, the players and their passphrases, which armies are
//! activated, and each side's units (arm, movement allowances deployed and
//! in column, a leader's rating), starting from the shipped example units.

use crate::app::passphrase::{NewPassphrases, player_row};
use crate::app::seating::Cx;
use eframe::egui;
use muster::core::side::{Side, Sides};
use muster::map_intel::wings::game::{WingUnit, example_armies};
use muster::map_intel::wings::placement::Arm;
use muster::map_intel::wings::scenario::{Battle, builtin};

pub struct SetupForm {
    battles: Vec<Battle>,
    chosen: usize,
    pub names: Sides<String>,
    pub passphrases: NewPassphrases,
    pub activated: Sides<bool>,
    /// Torgau: the Detachments each side forms (27.6.4).
    pub detachments: Sides<u8>,
    pub armies: Sides<Vec<WingUnit>>,
    /// The shipped example units, to tell while the form still holds them.
    examples: Sides<Vec<WingUnit>>,
}

impl Default for SetupForm {
    fn default() -> SetupForm {
        SetupForm {
            battles: builtin(),
            chosen: 0,
            names: Sides::default(),
            passphrases: NewPassphrases::default(),
            activated: Sides {
                south: true,
                north: true,
            },
            detachments: Sides::default(),
            armies: example_armies(),
            examples: example_armies(),
        }
    }
}

fn arm_name(arm: Arm) -> &'static str {
    match arm {
        Arm::Infantry => "infantry",
        Arm::Cavalry => "cavalry",
        Arm::Artillery => "artillery",
        Arm::Leader => "leader",
    }
}

impl SetupForm {
    pub fn battle(&self) -> &Battle {
        &self.battles[self.chosen]
    }

    fn draw(&mut self, ui: &mut egui::Ui, cx: &Cx) {
        ui.heading("New game: dummy wings");
        ui.label("Leader and dummy counters on the map with their Dis counters, compositions sealed; Muster finds every spotting within 7 hexes, asks the line of sight, rolls the deployment and gives each Wing its formation (RULES-map-intel B, rule 27).");
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            ui.label("Battle:");
            for (i, b) in self.battles.iter().enumerate() {
                ui.radio_value(&mut self.chosen, i, &b.name);
            }
        });
        // The scenario's map, numbered as the players' printed copy is.
        crate::app::hex_grid::map_settings(ui, &mut self.battles[self.chosen].map);
        let battle = &self.battles[self.chosen];
        // Each side's line, its notes wrapped under it (issue 39: a long
        // note in a grid ran off the window and took the form with it).
        for side in Side::BOTH {
            let army = &battle.sides[side];
            let dummies: Vec<String> = army
                .dummies
                .iter()
                .map(|d| {
                    let name = d
                        .name
                        .as_deref()
                        .map_or(String::new(), |n| format!(" ({n})"));
                    format!("{} {}{name}", d.count, d.kind.name())
                })
                .collect();
            ui.horizontal_wrapped(|ui| {
                ui.strong(format!("{side}: {}", army.name));
                ui.label(if dummies.is_empty() {
                    "no dummies".to_string()
                } else {
                    format!("dummies {}", dummies.join(", "))
                });
            });
            if !army.notes.is_empty() {
                ui.add(egui::Label::new(egui::RichText::new(&army.notes).weak()).wrap());
            }
            ui.add_space(2.0);
        }
        ui.add_space(6.0);
        egui::Grid::new("wings-players")
            .num_columns(6)
            .spacing([12.0, 6.0])
            .show(ui, |ui| {
                for side in Side::BOTH {
                    let (name, keys) = (&mut self.names[side], &mut self.passphrases);
                    player_row(ui, cx, side, name, keys, "their Wings' compositions");
                    ui.checkbox(&mut self.activated[side], format!("{side}'s army activated"))
                        .on_hover_text("A stationary Wing of an army not activated is always placed deployed (27.2.3)");
                    if self.battles[self.chosen].torgau_detachments {
                        ui.label("Detachments");
                        ui.add(egui::DragValue::new(&mut self.detachments[side]).range(0..=3))
                            .accessible_name(format!("{side}'s Detachments"))
                            .on_hover_text("Torgau: 1 to 3 Detachment stacks decide the false leaders (27.6.4.3)");
                    }
                    ui.end_row();
                }
            });
        ui.add_space(6.0);
        // The shipped units are an example named after Rossbach's armies:
        // the form says so for any other battle rather than pass them off
        // as that battle's.
        if self.armies == self.examples && battle.name != "Rossbach" {
            ui.label(format!(
                "The units below are Muster's example, named after Rossbach's armies: replace them with your game's units for {}.",
                battle.name
            ));
        }
        ui.columns(2, |cols| {
            for (col, side) in cols.iter_mut().zip(Side::BOTH) {
                self.army_ui(col, side);
            }
        });
    }

    fn army_ui(&mut self, ui: &mut egui::Ui, side: Side) {
        ui.strong(format!("{side}'s units"));
        let mut remove = None;
        egui::Grid::new(("wings-units", side))
            .num_columns(7)
            .striped(true)
            .show(ui, |ui| {
                for label in ["Unit", "Arm", "MA", "IC", "Rating", "C-in-C"] {
                    ui.weak(label);
                }
                ui.end_row();
                for (i, unit) in self.armies[side].iter_mut().enumerate() {
                    let row = format!("{side}'s unit {}", i + 1);
                    ui.add_sized([150.0, 20.0], egui::TextEdit::singleline(&mut unit.name))
                        .accessible_name(format!("{row}: name"));
                    egui::ComboBox::from_id_salt(("arm", side, i))
                        .selected_text(arm_name(unit.arm))
                        .width(80.0)
                        .show_ui(ui, |ui| {
                            for arm in [Arm::Infantry, Arm::Cavalry, Arm::Artillery, Arm::Leader] {
                                ui.selectable_value(&mut unit.arm, arm, arm_name(arm));
                            }
                        })
                        .response
                        .accessible_name(format!("{row}: arm"));
                    ui.add(egui::DragValue::new(&mut unit.ma).range(0..=20))
                        .accessible_name(format!("{row}: movement allowance"));
                    ui.add(egui::DragValue::new(&mut unit.ic).range(0..=30))
                        .accessible_name(format!("{row}: IC allowance"));
                    let mut rating = unit.rating.unwrap_or(0);
                    if ui
                        .add(egui::DragValue::new(&mut rating).range(0..=9))
                        .accessible_name(format!("{row}: rating"))
                        .on_hover_text("A leader's rating; 0 for none")
                        .changed()
                    {
                        unit.rating = (rating > 0).then_some(rating);
                    }
                    ui.checkbox(&mut unit.commander, "")
                        .accessible_name(format!("{row}: Army Commander"))
                        .on_hover_text("The Army Commander: units may be detached to him (27.1.1)");
                    if ui.small_button("Remove").clicked() {
                        remove = Some(i);
                    }
                    ui.end_row();
                }
            });
        if let Some(i) = remove {
            self.armies[side].remove(i);
        }
        let add = ui.horizontal(|ui| ui.button(format!("Add a unit to {side}")).clicked());
        if add.inner {
            let prefix = &side.name()[..1].to_lowercase();
            let id = (1..)
                .map(|n| format!("{prefix}-{n}"))
                .find(|id| {
                    Side::BOTH
                        .iter()
                        .all(|&s| self.armies[s].iter().all(|u| &u.id != id))
                })
                .expect("some number is free");
            self.armies[side].push(WingUnit {
                id,
                name: String::new(),
                arm: Arm::Infantry,
                ma: 3,
                ic: 7,
                rating: None,
                commander: false,
            });
        }
    }
}

impl crate::app::seated::Form for SetupForm {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &Cx) {
        self.draw(ui, cx);
    }

    fn passphrases(&mut self) -> &mut NewPassphrases {
        &mut self.passphrases
    }
}
