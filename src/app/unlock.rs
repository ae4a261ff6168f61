//! The unlock window, for every system: a reopened battle or game whose
//! players set passphrases stays read-only until each of them unlocks it. Each player types his own
//! passphrase (masked) while the other looks away; Muster checks every tag
//! of his and names the first log entry that fails, so an edit made
//! without his passphrase is found the moment he unlocks.

use eframe::egui;
use muster::RuleError;
use muster::core::side::{Side, Sides};

#[derive(Default)]
pub struct UnlockWindow {
    typed: Sides<String>,
    errors: Sides<Option<String>>,
    /// The players chose to look at the battle read-only for now.
    closed: bool,
}

impl UnlockWindow {
    /// Shows the window again after it was put aside.
    pub fn reopen(&mut self) {
        self.closed = false;
    }

    /// What the battle said to `side`'s unlock.
    pub fn answer(&mut self, side: Side, result: Result<(), RuleError>) {
        self.typed[side].clear();
        self.errors[side] = result.err().map(|e| e.message);
    }

    /// The window over `what` ("battle", "game") while `locked` (each side
    /// with how to call him) have not unlocked; returns a side's attempt.
    pub fn show(
        &mut self,
        ctx: &egui::Context,
        what: &str,
        locked: &[(Side, String)],
    ) -> Option<(Side, String)> {
        if locked.is_empty() || self.closed {
            return None;
        }
        let mut attempt = None;
        egui::Window::new(format!("Unlock this {what}"))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.set_max_width(520.0);
                ui.label(format!(
                    "Each player who set a passphrase unlocks the {what} before it goes on. Muster checks that every entry of the log carries his tag, so nobody can have changed it without him."
                ));
                ui.add_space(8.0);
                for (side, who) in locked {
                    let side = *side;
                    ui.strong(format!("{who}: type your passphrase; the other player looks away."));
                    let mut go = false;
                    ui.horizontal(|ui| {
                        let edit = ui.add(
                            egui::TextEdit::singleline(&mut self.typed[side])
                                .password(true)
                                .desired_width(260.0),
                        );
                        let edit = edit.accessible_name(format!("{side}'s passphrase to unlock"));
                        go |= edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                        go |= ui.button(format!("Unlock as {side}")).clicked();
                    });
                    if go {
                        attempt = Some((side, std::mem::take(&mut self.typed[side])));
                    }
                    if let Some(e) = &self.errors[side] {
                        ui.colored_label(ui.visuals().error_fg_color, format!("✖ {e}"));
                    }
                    ui.add_space(6.0);
                }
                ui.separator();
                if ui
                    .button("Look at it read-only for now")
                    .on_hover_text(format!(
                        "See the {what} without changing it; unlock later from the status line"
                    ))
                    .clicked()
                {
                    self.closed = true;
                }
            });
        attempt
    }
}

/// The status line's reminder that `locked` must still unlock the `what`;
/// true when "Unlock…" is clicked to show the window again.
pub fn read_only_banner(ui: &mut egui::Ui, what: &str, locked: &[(Side, String)]) -> bool {
    if locked.is_empty() {
        return false;
    }
    ui.horizontal(|ui| {
        let names: Vec<&str> = locked.iter().map(|(_, who)| who.as_str()).collect();
        let one = locked.len() == 1;
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!(
                "🔒 Read-only until {} unlock{} the {what} with {} passphrase.",
                names.join(" and "),
                if one { "s" } else { "" },
                if one { "his" } else { "their" }
            ),
        );
        ui.button("Unlock…").clicked()
    })
    .inner
}
