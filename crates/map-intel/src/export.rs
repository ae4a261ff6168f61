//! The hidden-forces printout (issue 13): the public map state as both
//! players may see it (every hex named as printed, each counter in its hex,
//! "?" for a face-down one), a list of every counter and holding area with
//! its commitment code, the log; and, for its owner only and with his
//! passphrase, his private ledger in a file of its own. The public pages come from the table
//! view, so no face-down contents can reach them.

use super::describe::{marker, place, units};
use super::events::{label, noun};
use super::game::Game;
use super::print::{self, Printed};
use super::view::View;
use muster_core::error::RuleError;
use muster_core::intel::Opener;
use muster_core::pdf::{Page, Paper, document, private_document, save_with_private, text_pages};
use muster_core::side::Side;
use muster_core::store::StoreError;
use std::path::{Path, PathBuf};

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
    let view = game.table_view();
    let names = game.setup().names();
    let title = format!("Hidden forces: {}", game.setup().scenario.name);
    let subtitle = format!(
        "South: {} · North: {} · {} · {}, fingerprint {}",
        names.south,
        names.north,
        when(game, &view),
        muster_core::text::count(game.log().len() as u64, "log entry", "log entries"),
        game.log_fingerprint()
    );
    let counters: Vec<Printed> = view
        .holders
        .iter()
        .filter_map(|h| {
            Some(Printed {
                hex: h.hex?,
                side: h.side,
                text: marker(h),
                face_up: h.face_up,
            })
        })
        .collect();
    let key = [
        format!("Red: {}", names.south),
        format!("Blue: {}", names.north),
        "#12: force 12 · E2: Exercitus 2".to_string(),
        "?: face down, its contents sealed; nobody may examine it without a condition of A2".into(),
        "(3): face up, three units; a gold frame marks it".into(),
        "Each counter's units (when face up) and each sealed record's commitment code are listed on the next page; the log follows.".into(),
    ];
    print::map_page(
        page,
        paper,
        &game.setup().scenario.map,
        (&title, &subtitle),
        &counters,
        &key,
    );
}

/// The private ledger of `side`: every counter and holding area of his
/// with its units.
pub fn ledger_lines(game: &Game, side: Side, opener: Opener) -> Result<Vec<String>, RuleError> {
    let view = game.ledger(side, opener)?;
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
        pages.extend(text_pages("The log", log, paper, &font, metrics));
        pages
    })
}

/// `side`'s private ledger, a document of its own (refused when the
/// passphrase does not open his lock).
pub fn ledger_pdf(
    game: &Game,
    side: Side,
    opener: Opener,
    paper: Paper,
) -> Result<Vec<u8>, RuleError> {
    let lines = ledger_lines(game, side, opener)?;
    Ok(private_document(&ledger_title(game, side), &lines, paper))
}

/// "Ann's (Rome) private ledger".
pub fn ledger_title(game: &Game, side: Side) -> String {
    format!(
        "{} private ledger",
        muster_core::text::possessive(&game.setup().name(side))
    )
}

/// Writes the printout to `path` and, with `private`, its owner's ledger
/// beside it (`private_path`); returns the files written. Nothing is
/// written when the passphrase is wrong.
pub fn save_pdf(
    game: &Game,
    paper: Paper,
    private: Option<(Side, Opener)>,
    path: &Path,
) -> Result<Vec<PathBuf>, StoreError> {
    save_with_private(path, &pdf(game, paper), private, |side, opener| {
        ledger_pdf(game, side, opener, paper)
    })
}
