//! A new game's passphrases on its form (issue 21): each player sets his on
//! a screen of his own (the laptop's behind his hand-over screen, or his
//! paired phone), never on a form beside the other player's field. The
//! form only shows whether he has one; his seat (`seating`) asks for it and
//! the key comes back to the form as a `PassphraseSet` action on the bus.

use crate::app::action::Action;
use crate::app::bus::Msg;
use crate::app::bus::SeatMsg;
use crate::app::seating::Cx;
use eframe::egui;
use muster::core::intel::{Lock, PlayerKey};
use muster::core::side::{Side, Sides};

/// The passphrases of a new game's players.
#[derive(Default)]
pub struct NewPassphrases {
    pub keys: Sides<Option<(Lock, PlayerKey)>>,
}

impl NewPassphrases {
    /// A side's row on the form: whether he has set one, and the button to
    /// set or remove it. `name` is how to call him, `context` the words the
    /// opponent knows of him; `what` says what it seals.
    pub fn row(
        &mut self,
        ui: &mut egui::Ui,
        cx: &Cx,
        side: Side,
        name: &str,
        context: &[&str],
        what: &str,
    ) {
        let name = if name.trim().is_empty() {
            side.to_string()
        } else {
            name.trim().to_string()
        };
        ui.horizontal(|ui| {
            if self.keys[side].is_some() {
                ui.label(format!("✔ {name} has set a passphrase"));
                if ui.button(format!("Remove {side}'s passphrase")).clicked() {
                    self.keys[side] = None;
                }
                return;
            }
            let phone = cx.on_phone(side);
            if phone && cx.setting[side] {
                ui.label(format!("{name} sets it on their phone…"));
                return;
            }
            let label = if phone {
                format!("Set {side}'s passphrase on their phone")
            } else {
                format!("Set {side}'s passphrase…")
            };
            let set = ui.button(label).on_hover_text(format!(
                "On a screen of their own: it seals {what} in the file and tags every log entry. Without one, anyone with Muster can open them from the file"
            ));
            if set.clicked() {
                cx.bus.seat(
                    side,
                    SeatMsg::SetPassphrase {
                        name: name.clone(),
                        context: context.iter().map(|w| w.to_string()).collect(),
                        then: Box::new(move |lock, key| {
                            Msg::System(Action::PassphraseSet(side, lock, key))
                        }),
                    },
                );
            }
            ui.weak("or play without one")
                .on_hover_text("A player who plays from his own Muster leaves it unset here and sets it there when he joins");
        });
    }
}

/// A player's row of a new game's form, in a grid: his name, typed, and
/// his passphrase, set on his own screen; `what` says what it seals.
pub fn player_row(
    ui: &mut egui::Ui,
    cx: &Cx,
    side: Side,
    name: &mut String,
    passphrases: &mut NewPassphrases,
    what: &str,
) {
    let label = ui.label(format!("{side} player"));
    ui.add_sized(
        [155.0, 20.0],
        egui::TextEdit::singleline(name).hint_text("name"),
    )
    .labelled_by(label.id);
    let name = name.clone();
    passphrases.row(ui, cx, side, &name, &[&name], what);
}
