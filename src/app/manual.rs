//! Help > Manual: the players' chapters of the user manual (`docs/src`,
//! the same text mdBook builds) shown in the window from the copy built
//! into the program, pictures included, so a player reads the chapter of
//! the game he has open with no browser and no download (a table as a
//! list: the window cannot wrap a grid). Links between chapters turn the
//! page here; a link to the web opens the browser; Esc closes it.

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
    Remote,
    Protection,
    Files,
    Scripting,
    Faster,
}

impl Chapter {
    pub const ALL: [Chapter; 11] = [
        Chapter::Introduction,
        Chapter::FieldOfGlory,
        Chapter::ActionDeck,
        Chapter::HiddenForces,
        Chapter::DummyWings,
        Chapter::PlayersScreens,
        Chapter::Remote,
        Chapter::Protection,
        Chapter::Files,
        Chapter::Scripting,
        Chapter::Faster,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Chapter::Introduction => "Muster",
            Chapter::FieldOfGlory => "Field of Glory",
            Chapter::ActionDeck => "The action deck",
            Chapter::HiddenForces => "Hidden forces",
            Chapter::DummyWings => "Dummy wings",
            Chapter::PlayersScreens => "Players' screens",
            Chapter::Remote => "Playing remotely",
            Chapter::Protection => "What Muster protects",
            Chapter::Files => "Files",
            Chapter::Scripting => "Scripting",
            Chapter::Faster => "Faster than paper",
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
            Chapter::Remote => "remote.md",
            Chapter::Protection => "protection.md",
            Chapter::Files => "files.md",
            Chapter::Scripting => "scripting.md",
            Chapter::Faster => "faster.md",
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
            Chapter::Remote => include_str!("../../docs/src/remote.md"),
            Chapter::Protection => include_str!("../../docs/src/protection.md"),
            Chapter::Files => include_str!("../../docs/src/files.md"),
            Chapter::Scripting => include_str!("../../docs/src/scripting.md"),
            Chapter::Faster => include_str!("../../docs/src/faster.md"),
        }
    }

    /// The chapter a link's target names (`action-deck.md#…`), if any.
    fn of_link(target: &str) -> Option<Chapter> {
        let file = target.split('#').next()?;
        Chapter::ALL.into_iter().find(|c| c.file() == file)
    }
}

/// Where the window finds a chapter's picture `images/x.png`: egui's
/// loader of bytes given to it, under this name.
const PICTURES_URI: &str = "bytes://manual/";

/// A picture of `docs/src/images`, by its path in the chapters, built in.
macro_rules! picture {
    ($path:literal) => {
        ($path, include_bytes!(concat!("../../docs/src/", $path)))
    };
}

/// Every picture a chapter shows (a test holds this list to the
/// chapters').
const PICTURES: &[(&str, &[u8])] = &[
    picture!("images/deck.png"),
    picture!("images/forces-1280.png"),
    picture!("images/forces.png"),
    picture!("images/phone-fog-ambush.png"),
    picture!("images/phone/deck-360.png"),
    picture!("images/phone/deck-390.png"),
    picture!("images/phone/deck-430.png"),
    picture!("images/phone/fog-360.png"),
    picture!("images/phone/fog-390.png"),
    picture!("images/phone/fog-430.png"),
    picture!("images/phone/fog-north-360.png"),
    picture!("images/phone/fog-north-390.png"),
    picture!("images/phone/fog-north-430.png"),
    picture!("images/phone/forces-360.png"),
    picture!("images/phone/forces-390.png"),
    picture!("images/phone/forces-430.png"),
    picture!("images/phone/forces-map-360.png"),
    picture!("images/phone/forces-map-390.png"),
    picture!("images/phone/forces-map-430.png"),
    picture!("images/phone/forces-pinched.png"),
    picture!("images/phone/forces-stack.png"),
    picture!("images/phone/wings-360.png"),
    picture!("images/phone/wings-390.png"),
    picture!("images/phone/wings-430.png"),
    picture!("images/phone/wings-map-360.png"),
    picture!("images/phone/wings-map-390.png"),
    picture!("images/phone/wings-map-430.png"),
    picture!("images/screenshot.png"),
    picture!("images/wings-1280.png"),
    picture!("images/wings.png"),
];

/// A chapter as the window shows it: a table as a list, one row an item,
/// each cell after its column's name: the chapters' tables have long cells
/// (and pictures), which a grid as wide as the window cannot wrap.
fn for_window(text: &str) -> String {
    let mut out = Vec::new();
    let mut header: Option<Vec<String>> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if !trimmed.starts_with('|') {
            header = None;
            out.push(line.to_string());
            continue;
        }
        // The line under the header: bars and dashes only.
        if trimmed.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ')) {
            continue;
        }
        let cells: Vec<String> = trimmed
            .trim_matches('|')
            .split(" | ")
            .map(|c| c.trim().to_string())
            .collect();
        match &header {
            None => header = Some(cells),
            Some(names) => {
                let mut item = format!("- **{}**", cells.first().map_or("", String::as_str));
                for (name, cell) in names.iter().zip(&cells).skip(1) {
                    // Each cell on a line of its own under the row's first,
                    // after its column's name (a hard break: two spaces).
                    item.push_str(&format!("  \n  *{name}*: {cell}"));
                }
                out.push(item);
            }
        }
    }
    out.join("\n")
}

/// The manual's window: its contents on the left, a chapter on the right.
pub struct ManualWindow {
    pub open: bool,
    pub chapter: Chapter,
    cache: CommonMarkCache,
    /// Each chapter as the window shows it, made when first shown.
    shown: std::collections::HashMap<&'static str, String>,
    /// Whether the pictures were handed to egui's loaders yet.
    pictures: bool,
}

impl Default for ManualWindow {
    fn default() -> ManualWindow {
        ManualWindow {
            open: false,
            chapter: Chapter::Introduction,
            cache: CommonMarkCache::default(),
            shown: Default::default(),
            pictures: false,
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
        if !self.pictures {
            // PNG decoding by the image crate; the bytes are the book's.
            egui_extras::install_image_loaders(ctx);
            for (path, bytes) in PICTURES {
                ctx.include_bytes(format!("{PICTURES_URI}{path}"), *bytes);
            }
            self.pictures = true;
        }
        // Esc closes it, as a reader expects of a window he opened to read.
        let mut open = !ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape));
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
                let text = self
                    .shown
                    .entry(chapter.file())
                    .or_insert_with(|| for_window(chapter.text()));
                CommonMarkViewer::new()
                    .default_implicit_uri_scheme(PICTURES_URI)
                    .show(ui, &mut self.cache, text);
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

    /// Every players' chapter of the book is one of the window's, and the
    /// other way round: SUMMARY.md lists exactly these files before its
    /// developers' part (the code, the design, the rules reference, the
    /// evidence, the speed), which a player has no use for at the table.
    #[test]
    fn the_window_holds_every_players_chapter_of_the_book() {
        let summary = include_str!("../../docs/src/SUMMARY.md");
        let (players, developers) = summary
            .split_once("# For developers")
            .expect("SUMMARY.md has a developers' part");
        for chapter in Chapter::ALL {
            assert!(
                players.contains(&format!("({})", chapter.file())),
                "{chapter:?}"
            );
            assert!(chapter.text().starts_with("# "), "{chapter:?}");
        }
        assert_eq!(players.matches(".md)").count(), Chapter::ALL.len());
        assert!(developers.contains("(layout.md)"), "{developers}");
    }

    /// The window's text: pictures kept, tables as lists, every cell kept
    /// with its column's name.
    #[test]
    fn tables_are_written_for_the_window() {
        let text = "# T\n\n![A map](images/a.png)\n\n| step | rule | state |\n|---|---|---|\n| Armies | 1 | done. |\n| Play: a, b | ![p](x.png) | done |\n\nafter\n";
        let shown = super::for_window(text);
        assert!(shown.contains("![A map](images/a.png)"), "{shown}");
        assert!(
            shown.contains("- **Armies**  \n  *rule*: 1  \n  *state*: done."),
            "{shown}"
        );
        assert!(
            shown.contains("- **Play: a, b**  \n  *rule*: ![p](x.png)  \n  *state*: done"),
            "{shown}"
        );
        assert!(!shown.contains('|'), "{shown}");
        assert!(shown.ends_with("after"), "{shown}");
    }

    /// Every picture a chapter shows is built in (none would show as a
    /// failed load), and every one built in is shown somewhere.
    #[test]
    fn every_picture_of_the_chapters_is_built_in() {
        let mut shown = std::collections::BTreeSet::new();
        for chapter in Chapter::ALL {
            let mut rest = chapter.text();
            while let Some(at) = rest.find("![") {
                let after = &rest[at..];
                let (_, target) = after.split_once("](").expect("a picture's target");
                let path = &target[..target.find(')').expect("its end")];
                assert!(
                    super::PICTURES.iter().any(|(p, _)| *p == path),
                    "{chapter:?} shows {path}, which is not built in"
                );
                shown.insert(path);
                rest = &after[2..];
            }
        }
        for (path, bytes) in super::PICTURES {
            assert!(shown.contains(path), "{path} is built in but shown nowhere");
            assert!(bytes.starts_with(b"\x89PNG"), "{path}");
        }
    }

    /// Help > Manual shows the chapter's picture itself, decoded, and Esc
    /// closes the window.
    #[test]
    fn the_manual_shows_its_pictures_and_closes_on_esc() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = harness(&dir.path().join("autosaves"));
        h.run();
        click(&mut h, "Help");
        click(&mut h, "Manual: Field of Glory");
        let uri = format!("{}images/screenshot.png", super::PICTURES_URI);
        let mut loaded = None;
        for _ in 0..200 {
            h.run();
            match h.ctx.try_load_image(&uri, egui::load::SizeHint::default()) {
                Ok(egui::load::ImagePoll::Ready { image }) => {
                    loaded = Some(image.size);
                    break;
                }
                Ok(egui::load::ImagePoll::Pending { .. }) => {
                    std::thread::sleep(std::time::Duration::from_millis(10))
                }
                Err(e) => panic!("{uri}: {e}"),
            }
        }
        let size = loaded.expect("the picture decoded within 2 s");
        assert!(size[0] >= 1000 && size[1] >= 500, "{size:?}");
        h.get_by_label_contains("pre-battle sequence at the table");
        h.key_press(egui::Key::Escape);
        h.run();
        assert!(
            h.query_by_label_contains("pre-battle sequence at the table")
                .is_none()
        );
        assert!(h.query_by_label("Muster's manual").is_none());
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
