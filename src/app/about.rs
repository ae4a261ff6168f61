//! Help > About Muster (issue 40): its version and licence, where its
//! autosaves and settings live on this computer, and the fingerprint of
//! the Field of Glory rules it ships, so two players see at a glance they
//! run the same Muster with the same rules.

use eframe::egui;
use std::path::Path;

/// The window's icon, made from `assets/icon/muster.svg` by its `make.sh`.
pub const ICON: &[u8] = include_bytes!("../../assets/icon/muster-256.png");

#[derive(Default)]
pub struct AboutWindow {
    pub open: bool,
    /// The built-in ruleset's fingerprint, worked out when first shown.
    fingerprint: Option<String>,
}

impl AboutWindow {
    pub fn show(&mut self, ctx: &egui::Context, autosaves: Option<&Path>, settings: Option<&Path>) {
        if !self.open {
            return;
        }
        let fingerprint = self
            .fingerprint
            .get_or_insert_with(|| muster::fog::ruleset::Ruleset::builtin().fingerprint())
            .clone();
        let place = |path: Option<&Path>| {
            path.map_or("nowhere on this computer (no home folder)".into(), |p| {
                p.display().to_string()
            })
        };
        egui::Window::new("About Muster")
            .open(&mut self.open)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.heading(format!("Muster {}", env!("CARGO_PKG_VERSION")));
                ui.label("Field of Glory's pre-battle sequence, an action-card deck, hidden forces and dummy wings, kept at the table: rules checked with the reason, dice nobody foresees, each player's secrets sealed.");
                ui.add_space(6.0);
                ui.label(format!("Licence: {}", env!("CARGO_PKG_LICENSE")));
                ui.label(format!("Autosaves: {}", place(autosaves)));
                ui.label(format!("Settings and inventory: {}", place(settings)));
                ui.label("Saved games: wherever you save them (File > Save as…).");
                ui.label(format!("Field of Glory's built-in rules: fingerprint {fingerprint}"));
            });
    }
}

#[cfg(test)]
mod tests {
    use crate::app::tests::{click, harness};
    use egui_kittest::kittest::Queryable;

    #[test]
    fn about_names_the_version_the_licence_the_folders_and_the_rules() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = harness(&dir.path().join("autosaves"));
        h.run();
        click(&mut h, "Help");
        click(&mut h, "About Muster");
        h.get_by_label(&format!("Muster {}", env!("CARGO_PKG_VERSION")));
        h.get_by_label("Licence: MIT");
        h.get_by_label_contains(&format!(
            "Autosaves: {}",
            dir.path().join("autosaves").display()
        ));
        let fingerprint = muster::fog::ruleset::Ruleset::builtin().fingerprint();
        h.get_by_label(&format!(
            "Field of Glory's built-in rules: fingerprint {fingerprint}"
        ));
    }

    #[test]
    fn the_icon_is_a_square_png_the_window_takes() {
        let icon = eframe::icon_data::from_png_bytes(super::ICON).unwrap();
        assert_eq!((icon.width, icon.height), (256, 256));
        // Not blank: the standard and the hex are drawn.
        let opaque = icon.rgba.chunks_exact(4).filter(|p| p[3] == 255).count();
        assert!(opaque > 256 * 256 / 2, "{opaque}");
    }
}
