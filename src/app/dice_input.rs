//! The dice widget: let the app roll, or type the dice rolled on the table.
//! Typed faces go to the engine as they are, so a 7 is refused there with the
//! rule it breaks; only text that is not a number is caught here.

use eframe::egui;
use muster::core::dice::{DiceInput, parse_typed};

/// "Roll for X": whether the app is to roll.
pub fn roll_button(ui: &mut egui::Ui, who: &str) -> bool {
    let roll = ui
        .button(format!("Roll for {who}"))
        .on_hover_text("The app rolls from the operating system's random source: nobody can foresee or choose the result, and the log marks it [app dice]");
    crate::app::guard::clicked(&roll)
}

/// The field for dice rolled on the table and its *Enter* button.
pub fn typed_dice(
    ui: &mut egui::Ui,
    who: &str,
    count: usize,
    typed: &mut String,
    error: &mut Option<String>,
) -> Option<DiceInput> {
    let mut out = None;
    ui.horizontal(|ui| {
        let noun = if count == 1 { "die" } else { "dice" };
        let name = format!("{} {noun}", muster_core::text::possessive(who));
        let edit = ui.add(
            egui::TextEdit::singleline(typed)
                .desired_width(60.0)
                .hint_text(if count == 1 { "1-6" } else { "e.g. 3 5" }),
        );
        let edit = edit.accessible_name(name.clone());
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if crate::app::guard::button(ui, format!("Enter {name}")) || enter {
            match parse_typed(typed) {
                Ok(dice) => {
                    typed.clear();
                    *error = None;
                    out = Some(DiceInput::Typed(dice));
                }
                Err(e) => *error = Some(e),
            }
        }
    });
    out
}
