//! The shared screen's privacy, for every system: the full-window hand-over
//! screen ("Pass the laptop to North") that comes before a player's secrets
//! show, with the proof that he is who takes it (his PIN or passphrase)
//! on it, and the centred column his passphrase screen is drawn in. What a
//! seat shows and when is the seats' (`seating`); this draws it.

use crate::app::guard::button;
use eframe::egui;
use muster::core::passphrase_screen::{Field, Reply, Screen};
use muster::core::screen::Form;
use muster::core::side::Side;

/// The width of a passphrase screen's column, centred in the window.
const WIDTH: f32 = 520.0;

/// What the full-window hand-over screen says, and its buttons.
pub struct HandOver {
    pub title: String,
    pub text: String,
    pub button: String,
    /// "Not now": the players may leave a due step for later.
    pub can_wait: bool,
    /// A choice that needs no secret, offered on the screen itself ("South:
    /// no ambushes"): its label.
    pub open_choice: Option<String>,
    /// "Lock South's secrets": he gave their passphrase this sitting, and may
    /// want it asked again (he leaves the table a while).
    pub lock: Option<String>,
    /// The way back to the table, when nothing waits on him.
    pub back: Option<String>,
}

/// What was clicked on a hand-over screen.
#[derive(Clone, PartialEq)]
pub enum Clicked {
    Nothing,
    /// Its button: the screen changes hands.
    Button,
    /// The proof asked on it, answered: the screen changes hands if it
    /// holds.
    Proof(Reply),
    /// The choice made in the open.
    OpenChoice,
    /// "Not now".
    Wait,
    /// The sitting's key is dropped.
    Lock,
    /// Back to the table.
    Back,
}

/// What the one who takes the laptop proves on the hand-over screen
/// itself: the passphrase screen's body (no title, no *Cancel*: the
/// hand-over's own buttons go back), and what he typed so far.
pub struct Proof<'a> {
    pub form: &'a Screen,
    pub side: Side,
    pub typed: &'a mut Form<Field>,
}

/// Draws a hand-over screen over the whole window: its button, or the
/// proof it asks instead (taking the laptop and proving it is he are one
/// act, so the one who takes it types at once). Its buttons go through the
/// click guard: the next player's hand-over screen may put his own button
/// ("South: no ambushes") where the last one's was, and the second click
/// of a double click must not answer for him.
pub fn hand_over_screen(ui: &mut egui::Ui, screen: &HandOver, proof: Option<Proof>) -> Clicked {
    let mut clicked = Clicked::Nothing;
    egui::CentralPanel::default().show(ui, |ui| {
        ui.vertical_centered(|ui| {
            // One place for the heading whether a proof is asked or not:
            // the screens that follow each other do not jump.
            ui.add_space(ui.available_height() / 5.0);
            ui.heading(egui::RichText::new(&screen.title).size(32.0));
            ui.add_space(12.0);
            // A line a reader takes in, not the window's whole width.
            ui.allocate_ui_with_layout(
                egui::vec2(WIDTH + 100.0, 0.0),
                egui::Layout::top_down(egui::Align::Center),
                |ui| ui.label(egui::RichText::new(&screen.text).size(16.0)),
            );
            ui.add_space(18.0);
            match proof {
                Some(Proof { form, side, typed }) => {
                    ui.allocate_ui_with_layout(
                        egui::vec2(WIDTH, 0.0),
                        egui::Layout::top_down(egui::Align::Min),
                        |ui| {
                            // His proof's buttons as big as the hand-over's
                            // own: they take the laptop.
                            ui.style_mut()
                                .text_styles
                                .insert(egui::TextStyle::Button, egui::FontId::proportional(18.0));
                            if let Some(reply) =
                                crate::app::screen::show(ui, form, ("pass", side), typed)
                            {
                                clicked = Clicked::Proof(reply);
                            }
                        },
                    );
                }
                None => {
                    if button(ui, egui::RichText::new(&screen.button).size(18.0)) {
                        clicked = Clicked::Button;
                    }
                }
            }
            if let Some(label) = &screen.open_choice {
                ui.add_space(8.0);
                ui.label("or, with nothing to keep secret:");
                if button(ui, egui::RichText::new(label).size(16.0)) {
                    clicked = Clicked::OpenChoice;
                }
            }
            ui.add_space(8.0);
            if screen.can_wait && button(ui, "Not now: back to the table") {
                clicked = Clicked::Wait;
            }
            if let Some(back) = &screen.back
                && button(ui, back)
            {
                clicked = Clicked::Back;
            }
            if let Some(lock) = &screen.lock {
                ui.add_space(8.0);
                if button(ui, lock) {
                    clicked = Clicked::Lock;
                }
            }
        });
    });
    clicked
}

/// A passphrase screen over the whole window, in one centred column read
/// from its left edge; the reply of the button clicked, if any.
pub fn passphrase_column(
    ui: &mut egui::Ui,
    screen: &Screen,
    side: Side,
    typed: &mut Form<Field>,
) -> Option<Reply> {
    let mut reply = None;
    egui::CentralPanel::default().show(ui, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() / 4.0);
            ui.heading(&screen.title);
            ui.add_space(6.0);
            ui.allocate_ui_with_layout(
                egui::vec2(WIDTH, ui.available_height()),
                egui::Layout::top_down(egui::Align::Min),
                |ui| {
                    let body = Screen {
                        title: String::new(),
                        blocks: screen.blocks.clone(),
                    };
                    reply = crate::app::screen::show(ui, &body, ("pass", side), typed);
                },
            );
        });
    });
    reply
}
