//! The log panel: every roll and choice in words, newest at the bottom.

use eframe::egui;
use muster::fog::battle::Battle;

pub fn show(ui: &mut egui::Ui, battle: &Battle) {
    ui.strong("Log");
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .stick_to_bottom(true)
        .show(ui, |ui| {
            let lines = battle.log_lines();
            if lines.is_empty() {
                ui.weak("Nothing yet: enter the armies to begin.");
            }
            for (i, (line, roll)) in lines.iter().enumerate() {
                let mark = if *roll { "🎲" } else { "•" };
                let line = battle.state().settings.speak(line);
                ui.label(format!("{:>3}. {mark} {line}", i + 1));
            }
        });
}
