//! The dummy-wings printout (issue 14): the map as both players may see it
//! (each leader counter by type and number, "?" until flipped, its Dis
//! counters), every counter with its commitment code and what the flipped
//! ones were, and the log; and, for its owner only and with his
//! passphrase, a page of his own compositions in a file of its own.

use super::game::{Game, Seen};
use crate::print::{self, Printed};
use muster_core::error::RuleError;
use muster_core::intel::Opener;
use muster_core::pdf::{Page, Paper, document, private_document, save_with_private, text_pages};
use muster_core::side::Side;
use muster_core::store::StoreError;
use std::path::{Path, PathBuf};

/// "C0 ?", "C0 (5)", "I1 dummy", "C0 rated 4": a leader counter by its
/// printed type's letter and number, and what the viewer knows of it;
/// "C0 placed" once its Wing is set out as units, whatever its formation
/// (a player read "C1 IC" beside "C2 placed" as two different states).
pub fn marker(s: &Seen) -> String {
    let initial = s.kind.initial();
    let what = match (&s.composition, s.deployed) {
        (_, Some(_)) => "placed".into(),
        (Some(c), None) if c.real => format!("({})", c.units.len()),
        (Some(_), None) => "dummy".into(),
        // Flipped: what the flip showed, on every map at once (a player
        // saw the other's flipped Wing keep its "?" until it was placed).
        (None, None) => match s.face {
            Some(face) if face.real => format!("rated {}", face.rating),
            Some(_) => "dummy".into(),
            None => "?".into(),
        },
    };
    format!("{initial}{} {what}", s.id)
}

/// What a counter's label on the map says, a line each: the map's key,
/// on the screens' maps and the printout's, each with its own line for a
/// placed Wing's formation (`placed`).
pub const KEY: [&str; 5] = [
    "I3, C3, M3: leader counter 3 by its printed type (Inf, Cav, Inf/Cav); d3: its Dis counters",
    "?: face down, real or dummy, sealed until spotted; dummy: your own dummy, or one flipped",
    "(6): your own real Wing, of 6 units",
    "rated 4: flipped face up, a real Wing of command rating 4 (its units show when it is placed)",
    "C3+1: one more counter in its hex than is drawn; pointing at it lists them",
];

/// The key's line for a placed Wing, its formation said `where`.
pub fn placed(formation_where: &str) -> String {
    format!(
        "C3 placed: a Wing set out on the table as units from its leader's hex, in the formation {formation_where}"
    )
}

fn line(game: &Game, s: &Seen) -> String {
    let side = game.setup().name(s.side);
    let what = match &s.composition {
        Some(c) if c.real => {
            let names: Vec<&str> = c
                .units
                .iter()
                .filter_map(|id| game.setup().armies[s.side].iter().find(|u| &u.id == id))
                .map(|u| u.name.as_str())
                .collect();
            format!(
                "a real Wing, rating {}, {}: {}",
                c.rating,
                c.formation.name(),
                names.join(", ")
            )
        }
        Some(c) => format!("a dummy, {}", c.formation.name()),
        None => format!("? (sealed, commitment {})", s.code),
    };
    let dis: Vec<String> = s.dis.iter().map(|d| d.to_string()).collect();
    let place = match s.deployed {
        Some(f) => format!("placed {} from {}", f.name(), s.leader),
        None => format!("in {} with Dis counters in {}", s.leader, dis.join(" and ")),
    };
    format!(
        "{}  {side}'s {} counter {}, {place}: {what}",
        marker(s),
        s.kind.name(),
        s.id
    )
}

fn map_page(game: &Game, page: &mut Page, paper: Paper) {
    let seen = game.table_view();
    let setup = game.setup();
    let when = match game.public().active {
        None => "set-up".to_string(),
        Some(side) => format!("turn {}, {} active", game.public().turn, setup.name(side)),
    };
    let title = format!("Dummy wings: {}", setup.battle.name);
    let subtitle = format!(
        "South: {} · North: {} · {when} · {}, fingerprint {}",
        setup.name(Side::South),
        setup.name(Side::North),
        muster_core::text::count(game.log().len() as u64, "log entry", "log entries"),
        game.log_fingerprint()
    );
    let mut counters = Vec::new();
    // A placed Wing is on the table as units: its leader's hex is marked
    // with its formation, where the players set it out (B8); its Dis
    // counters are gone.
    for s in &seen {
        counters.push(Printed {
            hex: s.leader,
            side: s.side,
            text: marker(s),
            face_up: s.face_up || s.deployed.is_some(),
        });
        for d in s.dis.iter().filter(|_| s.deployed.is_none()) {
            counters.push(Printed {
                hex: *d,
                side: s.side,
                text: format!("d{}", s.id),
                face_up: false,
            });
        }
    }
    let mut key = vec![
        format!("Red: {}", setup.name(Side::South)),
        format!("Blue: {}", setup.name(Side::North)),
    ];
    key.extend(KEY.map(String::from));
    key.push(placed("the next page says"));
    key.push(
        "Every counter with its commitment code is listed on the next page; the log follows."
            .into(),
    );
    print::map_page(
        page,
        paper,
        &setup.battle.map,
        (&title, &subtitle),
        &counters,
        &key,
    );
}

/// The printout both players may keep.
pub fn pdf(game: &Game, paper: Paper) -> Vec<u8> {
    let title = format!("Dummy wings: {}", game.setup().battle.name);
    let lines: Vec<String> = game.table_view().iter().map(|s| line(game, s)).collect();
    let log = game.log_lines();
    document(&title, paper, |font, metrics| {
        let mut page = Page::new(font.clone(), metrics);
        map_page(game, &mut page, paper);
        let mut pages = vec![page.ops];
        pages.extend(text_pages("The counters", &lines, paper, &font, metrics));
        pages.extend(text_pages("The log", log, paper, &font, metrics));
        pages
    })
}

/// `side`'s own compositions, a document of its own (refused when the
/// passphrase does not open his lock).
pub fn ledger_pdf(
    game: &Game,
    side: Side,
    opener: Opener,
    paper: Paper,
) -> Result<Vec<u8>, RuleError> {
    let seen = game.ledger(side, opener)?;
    let name = game.setup().name(side);
    let mut lines = vec![format!(
        "{name} only. This page shows sealed compositions: keep it from the opponent."
    )];
    lines.extend(
        seen.iter()
            .filter(|s| s.side == side)
            .map(|s| line(game, s)),
    );
    Ok(private_document(&ledger_title(game, side), &lines, paper))
}

/// "Fritz's (Prussian) counters".
pub fn ledger_title(game: &Game, side: Side) -> String {
    format!(
        "{} counters",
        muster_core::text::possessive(&game.setup().name(side))
    )
}

/// Writes the printout and, with `private`, its owner's page beside it;
/// returns the files written. Nothing is written when the passphrase is
/// wrong.
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
