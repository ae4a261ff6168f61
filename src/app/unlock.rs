//! The unlock window, for every system: a reopened game whose players set
//! passphrases stays read-only until each of them unlocks it. Each player
//! unlocks on his own seat's passphrase screen (behind his hand-over screen,
//! or on his phone, which asks at once), never beside the other's field;
//! Muster checks every tag of his and names the first log entry that fails,
//! so an edit made without his passphrase is found the moment he unlocks.
//! The refusal shows on his own screen.

use crate::app::bus::Bus;
use crate::app::bus::SeatMsg;
use crate::app::seating::{Cx, Roster};
use eframe::egui;

#[derive(Default)]
pub struct UnlockWindow {
    /// The players chose to look at the game read-only for now.
    closed: bool,
}

impl UnlockWindow {
    /// Shows the window again after it was put aside.
    pub fn reopen(&mut self) {
        self.closed = false;
    }

    /// The window while players must still unlock: a button each (a paired
    /// player unlocks on his phone; one whose seat is `kept` for his own
    /// machine unlocks there, once the game is hosted again).
    pub fn show(
        &mut self,
        ctx: &egui::Context,
        roster: &Roster,
        kept: Option<muster::core::side::Side>,
        cx: &Cx,
        bus: &Bus,
    ) {
        let locked = roster.locked.clone();
        if locked.is_empty() || self.closed {
            return;
        }
        egui::Window::new("Unlock this game")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.set_max_width(520.0);
                ui.label("Each player who set a passphrase unlocks the game before it goes on, on a screen of their own. Muster checks that every entry of the log carries their tag, so nobody can have changed it without them.");
                ui.add_space(8.0);
                for side in locked {
                    let who = &roster.names[side];
                    if cx.on_phone(side) {
                        ui.label(format!("{who} unlocks on their phone."));
                    } else if kept == Some(side) {
                        ui.label(format!(
                            "{who} played from their own Muster: once the game is hosted or joined again (the line above), they unlock it on their machine."
                        ));
                    } else if ui.button(format!("Unlock as {who}…")).clicked() {
                        bus.seat(side, SeatMsg::Unlock);
                    }
                    ui.add_space(4.0);
                }
                ui.separator();
                if ui
                    .button("Look at it read-only for now")
                    .on_hover_text("See the game without changing it; unlock later from the status line")
                    .clicked()
                {
                    self.closed = true;
                }
            });
    }
}

/// The status line's reminder that players must still unlock the game,
/// drawn at the start of its row; true when "Unlock…" is clicked to show
/// the window again.
pub fn read_only_banner(ui: &mut egui::Ui, roster: &Roster) -> bool {
    let locked = &roster.locked;
    if locked.is_empty() {
        return false;
    }
    let names: Vec<String> = locked
        .iter()
        .map(|side| roster.names[*side].clone())
        .collect();
    let one = locked.len() == 1;
    let unchecked: Vec<String> = names
        .iter()
        .map(|who| format!("Until {who} unlocks: their tag on every entry"))
        .collect();
    ui.colored_label(
        ui.visuals().warn_fg_color,
        format!(
            "🔒 Read-only until {} unlock{} the game, {} their own passphrase.",
            names.join(" and "),
            if one { "s" } else { "" },
            if one { "with" } else { "each with" }
        ),
    )
    .on_hover_text(format!("Not checked yet:\n{}", unchecked.join("\n")));
    ui.button("Unlock…").clicked()
}
