//! Field of Glory's log: every roll and choice in words, newest at the
//! bottom, in the log panel every system shares.
//! The words are made once per change of the log, not once per frame: the
//! log only grows or is cut back, and its chain's last link names it.

use eframe::egui;
use muster::core::intel::ledger::Digest32;
use muster::fog::battle::Battle;

#[derive(Default)]
pub struct LogView {
    /// The log the lines were made for: its length and its last link.
    made_for: Option<(usize, Option<Digest32>)>,
    lines: Vec<String>,
    fingerprint: String,
    /// Unfolded or folded by the players; until then, by the window's
    /// height.
    open: Option<bool>,
}

impl LogView {
    /// The log at the window's foot (`system::log_panel`): folded to its
    /// last line on a short screen until the players unfold it, so the
    /// step's panel keeps its room.
    pub fn show(&mut self, ui: &mut egui::Ui, battle: &Battle) {
        let now = (battle.log().len(), battle.links().last().copied());
        if self.made_for != Some(now) {
            let settings = &battle.state().settings;
            self.lines = battle
                .log_lines()
                .iter()
                .zip(battle.log_prefixes())
                .map(|((line, roll), n)| {
                    // A roll is marked; a number needs no bullet beside it.
                    let mark = if *roll { "🎲 " } else { "" };
                    format!("{n}{mark}{}", settings.speak(line))
                })
                .collect();
            self.fingerprint = battle.log_fingerprint();
            self.made_for = Some(now);
        }
        let mut open = self
            .open
            .unwrap_or(ui.ctx().content_rect().height() >= 800.0);
        let was = open;
        crate::app::system::log_panel(
            ui,
            "log",
            150.0,
            &self.lines,
            (battle.log().len(), &self.fingerprint),
            &mut open,
        );
        if open != was {
            self.open = Some(open);
        }
    }
}
