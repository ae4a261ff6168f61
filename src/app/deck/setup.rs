//! *File > New > Action deck*: the players, their armies from the card set,
//! hand sizes, passphrases and who is active first; and the card-set
//! editor, which checks the set as it is typed and names the field and line
//! of its first error.

use crate::app::bus::AppCommand;
use crate::app::file_dialog::FileAction;
use crate::app::passphrase::{NewPassphrases, player_row};
use crate::app::seating::Cx;
use eframe::egui;
use muster::core::side::{Side, Sides};
use muster::deck::CardSet;

/// How the first active player is settled.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum First {
    Roll,
    Chosen(Side),
    /// Settled on the table once both players are seated: a player who
    /// plays from his own Muster draws his hand there, after he joined.
    Later,
}

pub struct SetupForm {
    pub names: Sides<String>,
    pub armies: Sides<String>,
    pub hand_sizes: Sides<usize>,
    pub passphrases: NewPassphrases,
    pub first: First,
    pub set: CardSet,
    editor: Option<Editor>,
}

/// The card set as JSON text being edited, and what is wrong with it.
struct Editor {
    text: String,
    error: Option<String>,
}

impl Default for SetupForm {
    fn default() -> SetupForm {
        SetupForm::with_set(CardSet::example())
    }
}

impl SetupForm {
    pub fn with_set(set: CardSet) -> SetupForm {
        let army = |i: usize| set.armies[i.min(set.armies.len() - 1)].clone();
        SetupForm {
            names: Sides::default(),
            armies: Sides {
                south: army(0).id,
                north: army(1).id,
            },
            hand_sizes: Sides {
                south: army(0).hand_size,
                north: army(1).hand_size,
            },
            passphrases: NewPassphrases::default(),
            first: First::Roll,
            set,
            editor: None,
        }
    }

    /// Takes a card set (imported or edited): the armies reset to its own.
    pub fn use_set(&mut self, set: CardSet) {
        let names = self.names.clone();
        *self = SetupForm::with_set(set);
        self.names = names;
    }

    fn draw(&mut self, ui: &mut egui::Ui, cx: &Cx) {
        ui.heading("New game: action deck");
        ui.label("Each player's deck of action cards, held by Muster: hands stay secret, every card rule is kept (RULES-deck).");
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            ui.label(format!("Card set: {}", self.set.name));
            if ui
                .button("Edit card set…")
                .on_hover_text("The set as JSON, checked as you type")
                .clicked()
            {
                self.editor = Some(Editor {
                    text: self.set.to_json(),
                    error: None,
                });
            }
            if ui.button("Import card set…").clicked() {
                cx.bus.app(AppCommand::Dialog(FileAction::ImportCardSet));
            }
        });
        ui.add_space(6.0);
        egui::Grid::new("deck-seats")
            .num_columns(3)
            .spacing([12.0, 6.0])
            .show(ui, |ui| {
                for side in Side::BOTH {
                    let (name, keys) = (&mut self.names[side], &mut self.passphrases);
                    player_row(ui, cx, side, name, keys, "their hand");
                    ui.end_row();
                }
            });
        for side in Side::BOTH {
            ui.horizontal(|ui| {
                let label = ui.label(format!("{side}'s army"));
                let current = self
                    .set
                    .army(&self.armies[side])
                    .map_or(self.armies[side].clone(), |a| a.name.clone());
                egui::ComboBox::from_id_salt(("army", side))
                    .selected_text(current)
                    .show_ui(ui, |ui| {
                        for army in &self.set.armies {
                            if ui
                                .selectable_label(self.armies[side] == army.id, &army.name)
                                .clicked()
                            {
                                self.armies[side] = army.id.clone();
                                self.hand_sizes[side] = army.hand_size;
                            }
                        }
                    })
                    .response
                    .labelled_by(label.id);
                let hand = ui.label("hand size");
                ui.add(egui::DragValue::new(&mut self.hand_sizes[side]).range(1..=12))
                    .labelled_by(hand.id);
                let deck = self.set.deck_of(&self.armies[side]).len();
                ui.weak(format!("deck of {deck}"));
            });
        }
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            ui.label("Who is active first:");
            ui.radio_value(&mut self.first, First::Roll, "Roll for it");
            for side in Side::BOTH {
                ui.radio_value(
                    &mut self.first,
                    First::Chosen(side),
                    format!("{side} chosen"),
                );
            }
            ui.radio_value(&mut self.first, First::Later, "Later, on the table")
                .on_hover_text("For a player who plays from his own Muster: invite him first; his hand is drawn on his machine once he has joined and set his passphrase");
        });
        self.editor_window(ui.ctx());
    }

    fn editor_window(&mut self, ctx: &egui::Context) {
        let Some(editor) = &mut self.editor else {
            return;
        };
        let mut open = true;
        let mut chosen = None;
        egui::Window::new("Card set editor")
            .open(&mut open)
            .default_size([560.0, 480.0])
            .show(ctx, |ui| {
                match &editor.error {
                    Some(e) => ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {e}")),
                    None => ui.label("The set is valid."),
                };
                if ui.button("Use this card set").clicked() {
                    match CardSet::from_json(&editor.text) {
                        Ok(set) => chosen = Some(set),
                        Err(e) => editor.error = Some(e.to_string()),
                    }
                }
                egui::ScrollArea::vertical().show(ui, |ui| {
                    let edit = ui.add(
                        egui::TextEdit::multiline(&mut editor.text)
                            .code_editor()
                            .desired_width(f32::INFINITY),
                    );
                    if edit.changed() {
                        editor.error = CardSet::from_json(&editor.text)
                            .err()
                            .map(|e| e.to_string());
                    }
                });
            });
        if let Some(set) = chosen {
            self.use_set(set);
        } else if !open {
            self.editor = None;
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
