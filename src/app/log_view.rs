//! The log panel: every roll and choice in words, newest at the bottom.
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
}

impl LogView {
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
            self.made_for = Some(now);
        }
        ui.strong("Log");
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .stick_to_bottom(true)
            .show(ui, |ui| {
                if self.lines.is_empty() {
                    ui.weak("Nothing yet: enter the armies to begin.");
                }
                for line in &self.lines {
                    ui.label(line);
                }
            });
    }
}
