//! The hidden-forces printout (issue 13): the public map state as both
//! players may see it (every hex named as printed, each counter in its hex,
//! "?" for a face-down one), a list of every counter and holding area with
//! its commitment code, the log; and, for its owner only and with his
//! passphrase, his private ledger in a file of its own. The public pages come from the table
//! view, so no face-down contents can reach them.

use super::describe::{marker, place, units};
use super::events::{label, noun};
use super::game::{Game, SeenHolder, View};
use super::map::HexMap;
use crate::core::error::RuleError;
use crate::core::pdf::{
    MARGIN, MM_PER_PT, Page, Paper, document, grey, private_path, rgb, text_pages, write_pdf,
};
use crate::core::side::Side;
use crate::core::store::StoreError;
use printpdf::PaintMode;
use std::path::{Path, PathBuf};

fn colour(side: Side) -> printpdf::Color {
    match side {
        Side::South => rgb([178, 54, 44]),
        Side::North => rgb([44, 88, 170]),
    }
}

/// The turn, in words.
fn when(game: &Game, view: &View) -> String {
    match view.active {
        None => "set-up".into(),
        Some(side) => format!("turn {}, {} active", view.turn, game.setup().name(side)),
    }
}

/// Every counter and holding area as the table sees it.
pub fn state_lines(game: &Game) -> Vec<String> {
    let view = game.table_view();
    let names = game.setup().names();
    let mut lines = vec![format!(
        "{} v {}, {}; Agent Stratagem markers left: {} {}, {} {}",
        names.south,
        names.north,
        when(game, &view),
        names.south,
        view.agents.south,
        names.north,
        view.agents.north
    )];
    for h in &view.holders {
        let what = match (&h.units, &h.code) {
            (Some(u), _) => units(game.setup(), u),
            (None, Some(code)) => format!("? (sealed, commitment {code})"),
            (None, None) => "?".into(),
        };
        lines.push(format!(
            "{}  {}, {}: {what}",
            marker(h),
            label(&names[h.side], h.kind, h.id),
            place(h)
        ));
    }
    lines
}

/// The map page: the grid with every counter in its hex, and a key.
fn map_page(game: &Game, page: &mut Page, paper: Paper) {
    let (pw, ph) = paper.size();
    let map: &HexMap = &game.setup().scenario.map;
    let view = game.table_view();
    let ink = grey(0.1);
    let title = format!("Hidden forces: {}", game.setup().scenario.name);
    let mut y = page.paragraph(
        MARGIN,
        ph - MARGIN - 4.0,
        pw - 2.0 * MARGIN,
        13.0,
        &ink,
        &title,
    );
    let names = game.setup().names();
    let subtitle = format!(
        "South: {} · North: {} · {} · {} log entries",
        names.south,
        names.north,
        when(game, &view),
        game.log().len()
    );
    y = page.paragraph(MARGIN, y, pw - 2.0 * MARGIN, 9.0, &ink, &subtitle) - 2.0;
    let key_width = 62.0;
    let (ew, eh) = map.extent();
    let area = (pw - 3.0 * MARGIN - key_width, y - MARGIN);
    let scale = (area.0 / ew as f32).min(area.1 / eh as f32);
    let (x0, top) = (MARGIN, y);
    let at = |(x, y): (f64, f64)| (x0 + x as f32 * scale, top - y as f32 * scale);
    let name_size = (scale * 0.9).clamp(3.0, 7.0);
    let counter_size = (scale * 1.1).clamp(3.5, 8.0);
    for hex in map.hexes() {
        let corners: Vec<(f32, f32)> = map.corners(hex).iter().map(|&c| at(c)).collect();
        page.polygon(&corners, grey(1.0), grey(0.55), PaintMode::Stroke);
        let (cx, cy) = map.centre(hex);
        let name = hex.to_string();
        let (mx, my) = at((cx, cy));
        let name_mm = name_size * MM_PER_PT;
        let name_base = my + 0.55 * scale;
        let w = page.metrics.width(&name, name_size);
        page.text(mx - w / 2.0, name_base, name_size, grey(0.5), &name);
        let here: Vec<&SeenHolder> = view.holders.iter().filter(|h| h.hex == Some(hex)).collect();
        // Two counters fit under the name; more are named in the list that
        // follows.
        let shown: Vec<(String, &SeenHolder)> = match here.len() {
            0..=2 => here.iter().map(|h| (marker(h), *h)).collect(),
            n => vec![
                (marker(here[0]), here[0]),
                (format!("+{} more", n - 1), here[1]),
            ],
        };
        let counter_mm = counter_size * MM_PER_PT;
        let step = page.metrics.line_height(counter_size) + 0.4;
        let first = name_base - 0.4 * name_mm - 0.3 - 0.8 * counter_mm;
        for (k, (text, h)) in shown.iter().enumerate() {
            let w = page.metrics.width(text, counter_size);
            let base = first - step * k as f32;
            let frame = if h.face_up {
                rgb([240, 200, 60])
            } else {
                colour(h.side)
            };
            page.rect(
                mx - w / 2.0 - 0.6,
                base - 0.28 * counter_mm - 0.3,
                mx + w / 2.0 + 0.6,
                base + 0.8 * counter_mm + 0.3,
                colour(h.side),
                frame,
            );
            page.text(mx - w / 2.0, base, counter_size, grey(1.0), text);
        }
    }
    let kx = pw - MARGIN - key_width;
    let mut ky = y - 4.0;
    ky = page.paragraph(kx, ky, key_width, 10.0, &ink, "Key") - 1.0;
    for line in [
        format!("Red: {}", names.south),
        format!("Blue: {}", names.north),
        "#12: force 12 · E2: Exercitus 2".to_string(),
        "?: face down, its contents sealed; nobody may examine it without a condition of A2".into(),
        "(3): face up, three units; a gold frame marks it".into(),
        "Each counter's units (when face up) and each sealed record's commitment code are listed on the next page; the log follows.".into(),
    ] {
        ky = page.paragraph(kx, ky, key_width, 7.5, &ink, &line) - 1.2;
    }
}

/// The private ledger of `side`: every counter and holding area of his
/// with its units.
pub fn ledger_lines(game: &Game, side: Side, passphrase: &str) -> Result<Vec<String>, RuleError> {
    let view = game.ledger(side, passphrase)?;
    let mut lines = vec![format!(
        "{}: {} only. This page shows sealed contents: keep it from the opponent.",
        game.setup().name(side),
        game.setup().name(side)
    )];
    for h in view.holders.iter().filter(|h| h.side == side) {
        let held = h
            .units
            .as_deref()
            .map_or("cannot be opened".into(), |u| units(game.setup(), u));
        let code = h
            .code
            .as_ref()
            .map_or(String::new(), |c| format!(" (commitment {c})"));
        lines.push(format!(
            "{}, {}{code}: {held}",
            noun(h.kind, h.id),
            place(h)
        ));
    }
    Ok(lines)
}

/// The printout both players may keep: the map, the list of counters and
/// holding areas, the log.
pub fn pdf(game: &Game, paper: Paper) -> Vec<u8> {
    let title = format!("Hidden forces: {}", game.setup().scenario.name);
    let state = state_lines(game);
    let log = game.log_lines();
    document(&title, paper, |font, metrics| {
        let mut page = Page::new(font.clone(), metrics);
        map_page(game, &mut page, paper);
        let mut pages = vec![page.ops];
        pages.extend(text_pages(
            "The map's counters and holding areas",
            &state,
            paper,
            &font,
            metrics,
        ));
        pages.extend(text_pages("The log", &log, paper, &font, metrics));
        pages
    })
}

/// `side`'s private ledger, a document of its own (refused when the
/// passphrase does not open his lock).
pub fn ledger_pdf(
    game: &Game,
    side: Side,
    passphrase: &str,
    paper: Paper,
) -> Result<Vec<u8>, RuleError> {
    let lines = ledger_lines(game, side, passphrase)?;
    let title = format!("{}'s private ledger", game.setup().name(side));
    Ok(document(&title, paper, |font, metrics| {
        text_pages(&title, &lines, paper, &font, metrics)
    }))
}

/// Writes the printout to `path` and, with `private`, its owner's ledger
/// beside it (`private_path`); returns the files written. Nothing is
/// written when the passphrase is wrong.
pub fn save_pdf(
    game: &Game,
    paper: Paper,
    private: Option<(Side, &str)>,
    path: &Path,
) -> Result<Vec<PathBuf>, StoreError> {
    let ledger = match private {
        Some((side, passphrase)) => Some((
            private_path(path, side),
            ledger_pdf(game, side, passphrase, paper)
                .map_err(|e| StoreError::new(e.to_string()))?,
        )),
        None => None,
    };
    write_pdf(path, &pdf(game, paper))?;
    let mut written = vec![path.to_path_buf()];
    if let Some((at, bytes)) = ledger {
        write_pdf(&at, &bytes)?;
        written.push(at);
    }
    Ok(written)
}
