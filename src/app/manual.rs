//! Help > Manual (issue 40): the user manual's chapters (`docs/src`, the
//! same text mdBook builds) shown in the window from the copy built into
//! the program, so a player reads the chapter of the game he has open with
//! no browser and no download. Links between chapters turn the page here;
//! a link to the web opens the browser.

use eframe::egui;
use egui_commonmark::{CommonMarkCache, CommonMarkViewer};

/// A chapter of the manual, as `docs/src/SUMMARY.md` lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chapter {
    Introduction,
    FieldOfGlory,
    ActionDeck,
    HiddenForces,
    DummyWings,
    PlayersScreens,
    Protection,
    Files,
    Scripting,
    Speed,
}

impl Chapter {
    pub const ALL: [Chapter; 10] = [
        Chapter::Introduction,
        Chapter::FieldOfGlory,
        Chapter::ActionDeck,
        Chapter::HiddenForces,
        Chapter::DummyWings,
        Chapter::PlayersScreens,
        Chapter::Protection,
        Chapter::Files,
        Chapter::Scripting,
        Chapter::Speed,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Chapter::Introduction => "Muster",
            Chapter::FieldOfGlory => "Field of Glory",
            Chapter::ActionDeck => "The action deck",
            Chapter::HiddenForces => "Hidden forces",
            Chapter::DummyWings => "Dummy wings",
            Chapter::PlayersScreens => "Players' screens",
            Chapter::Protection => "What Muster protects",
            Chapter::Files => "Files",
            Chapter::Scripting => "Scripting",
            Chapter::Speed => "Faster than paper, and speed",
        }
    }

    /// Its file in `docs/src`.
    fn file(self) -> &'static str {
        match self {
            Chapter::Introduction => "introduction.md",
            Chapter::FieldOfGlory => "field-of-glory.md",
            Chapter::ActionDeck => "action-deck.md",
            Chapter::HiddenForces => "hidden-forces.md",
            Chapter::DummyWings => "dummy-wings.md",
            Chapter::PlayersScreens => "players-screens.md",
            Chapter::Protection => "protection.md",
            Chapter::Files => "files.md",
            Chapter::Scripting => "scripting.md",
            Chapter::Speed => "speed.md",
        }
    }

    fn text(self) -> &'static str {
        match self {
            Chapter::Introduction => include_str!("../../docs/src/introduction.md"),
            Chapter::FieldOfGlory => include_str!("../../docs/src/field-of-glory.md"),
            Chapter::ActionDeck => include_str!("../../docs/src/action-deck.md"),
            Chapter::HiddenForces => include_str!("../../docs/src/hidden-forces.md"),
            Chapter::DummyWings => include_str!("../../docs/src/dummy-wings.md"),
            Chapter::PlayersScreens => include_str!("../../docs/src/players-screens.md"),
            Chapter::Protection => include_str!("../../docs/src/protection.md"),
            Chapter::Files => include_str!("../../docs/src/files.md"),
            Chapter::Scripting => include_str!("../../docs/src/scripting.md"),
            Chapter::Speed => include_str!("../../docs/src/speed.md"),
        }
    }

    /// The chapter a link's target names (`action-deck.md#…`), if any.
    fn of_link(target: &str) -> Option<Chapter> {
        let file = target.split('#').next()?;
        Chapter::ALL.into_iter().find(|c| c.file() == file)
    }
}

/// The manual's window: its contents on the left, a chapter on the right.
pub struct ManualWindow {
    pub open: bool,
    pub chapter: Chapter,
    cache: CommonMarkCache,
}

impl Default for ManualWindow {
    fn default() -> ManualWindow {
        ManualWindow {
            open: false,
            chapter: Chapter::Introduction,
            cache: CommonMarkCache::default(),
        }
    }
}

impl ManualWindow {
    /// Opens it at `chapter`.
    pub fn show_chapter(&mut self, chapter: Chapter) {
        self.chapter = chapter;
        self.open = true;
    }

    pub fn show(&mut self, ctx: &egui::Context) {
        if !self.open {
            return;
        }
        let mut open = true;
        let height = (ctx.content_rect().height() - 80.0).max(240.0);
        egui::Window::new("Muster's manual")
            .open(&mut open)
            .default_size([760.0, height])
            .show(ctx, |ui| {
                ui.horizontal_top(|ui| {
                    ui.vertical(|ui| {
                        ui.set_width(170.0);
                        for chapter in Chapter::ALL {
                            ui.selectable_value(&mut self.chapter, chapter, chapter.title());
                        }
                    });
                    ui.separator();
                    ui.vertical(|ui| self.page(ui));
                });
            });
        self.open = open;
    }

    fn page(&mut self, ui: &mut egui::Ui) {
        let chapter = self.chapter;
        egui::ScrollArea::vertical()
            .id_salt(("manual", chapter.file()))
            .auto_shrink([false, false])
            .show(ui, |ui| {
                CommonMarkViewer::new().show(ui, &mut self.cache, chapter.text());
            });
        // A link to another chapter turns the page here instead of asking
        // the operating system to open a file it has not got.
        let next = ui.ctx().output_mut(|o| {
            let to = o.commands.iter().find_map(|c| match c {
                egui::OutputCommand::OpenUrl(open) => Chapter::of_link(&open.url),
                _ => None,
            });
            if to.is_some() {
                o.commands
                    .retain(|c| !matches!(c, egui::OutputCommand::OpenUrl(open) if Chapter::of_link(&open.url).is_some()));
            }
            to
        });
        if let Some(next) = next {
            self.chapter = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Chapter;
    use crate::app::tests::{click, harness};
    use eframe::egui;
    use egui_kittest::kittest::Queryable;

    /// Every chapter of the book is one of the window's, and the other way
    /// round: SUMMARY.md lists exactly these files (but the developers'
    /// chapter, which a player has no use for at the table).
    #[test]
    fn the_window_holds_every_chapter_of_the_book() {
        let summary = include_str!("../../docs/src/SUMMARY.md");
        for chapter in Chapter::ALL {
            assert!(
                summary.contains(&format!("({})", chapter.file())),
                "{chapter:?}"
            );
            assert!(chapter.text().starts_with("# "), "{chapter:?}");
        }
        let listed = summary.matches(".md)").count();
        assert_eq!(listed, Chapter::ALL.len() + 1, "the layout chapter besides");
    }

    /// Help > Manual opens the chapter of the game that is open: a Field of
    /// Glory battle on start; then the action deck's, once a deck game is.
    #[test]
    fn help_opens_the_chapter_of_the_open_game() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = harness(&dir.path().join("autosaves"));
        h.run();
        click(&mut h, "Help");
        click(&mut h, "Manual: Field of Glory");
        h.get_by_label_contains("pre-battle sequence at the table");
        assert!(h.query_by_label_contains("Decius").is_none());
        // A link to another chapter turns the page in the window.
        click(&mut h, "Muster");
        h.get_by_role_and_label(egui::accesskit::Role::Link, "Players' screens")
            .click();
        h.run();
        h.get_by_label_contains("Each player may pair his phone");
        assert!(
            h.query_by_label_contains("Each player may follow his own screen")
                .is_none()
        );
        let dir = tempfile::tempdir().unwrap();
        let mut h = crate::app::tests::new_small_deck_game(dir.path());
        click(&mut h, "Help");
        click(&mut h, "Manual: The action deck");
        h.get_by_label_contains("each player's deck of action cards");
    }
}
