//! The printable summary of a game (issue 12): the cards each player
//! played, turn by turn, as both saw them, and the counts at the end. Cards
//! that stayed face down are never in it.

use super::game::Game;
use super::turn::Use;
use muster_core::pdf::{MARGIN, Page, Paper, Table, document, grey, table_pages, write_pdf};
use muster_core::side::Side;
use muster_core::store::StoreError;
use std::path::Path;

/// The summary's words around its table: who played which armies with
/// which set, the log's length and fingerprint, then the counts at the end.
pub fn summary_lines(game: &Game) -> (Vec<String>, Vec<String>) {
    let setup = game.setup();
    let public = game.public();
    let head = vec![
        format!(
            "{} ({}) v {} ({}), card set {}",
            setup.seats.south.name,
            army(game, Side::South),
            setup.seats.north.name,
            army(game, Side::North),
            game.set().name
        ),
        format!(
            "Log: {}, fingerprint {}",
            muster_core::text::count(game.log().len() as u64, "entry", "entries"),
            game.log_fingerprint()
        ),
    ];
    let end = Side::BOTH
        .into_iter()
        .map(|side| {
            let c = public.counts[side];
            format!(
                "At the end, {}: deck {}, hand {}, discard {}, removed {}",
                setup.name(side),
                c.deck,
                c.hand,
                c.discard,
                c.removed
            )
        })
        .collect();
    (head, end)
}

/// The cards played as a table (issue 25): a row per turn, each player's
/// plays in his own column, phase by phase, with what each was played for.
pub fn summary_table(game: &Game) -> (Vec<String>, Vec<Vec<String>>) {
    let setup = game.setup();
    let public = game.public();
    let header = vec![
        "Turn".to_string(),
        format!("{}'s plays", setup.name(Side::South)),
        format!("{}'s plays", setup.name(Side::North)),
    ];
    let last = public.turn.as_ref().map_or(0, |t| t.number);
    let plays = |number: u32, side: Side| {
        let shown: Vec<String> = public
            .shown
            .iter()
            .filter(|s| s.turn == number && s.player == side)
            .map(|s| {
                let card = game.set().card(&s.card);
                let title = card.map_or(s.card.clone(), |c| c.title.clone());
                let worth =
                    |n: u32, one: &str| format!("for {n} {one}{}", if n == 1 { "" } else { "s" });
                let how = match (s.use_, card) {
                    (Use::Laurels, Some(c)) => worth(c.laurels, "laurel"),
                    (Use::Rally, Some(c)) => worth(c.rally, "rally flag"),
                    (Use::Text, _) => "for its text".into(),
                    _ => "for its value".into(),
                };
                format!("{}: {title} {how}", s.phase)
            })
            .collect();
        if shown.is_empty() {
            "none".to_string()
        } else {
            shown.join("; ")
        }
    };
    let rows = (1..=last)
        .map(|n| vec![n.to_string(), plays(n, Side::South), plays(n, Side::North)])
        .collect();
    (header, rows)
}

fn army(game: &Game, side: Side) -> String {
    let id = &game.setup().seats[side].army;
    game.set().army(id).map_or(id.clone(), |a| a.name.clone())
}

pub fn summary_pdf(game: &Game, paper: Paper) -> Vec<u8> {
    let title = "Action deck: the cards played, turn by turn";
    let (head, end) = summary_lines(game);
    let (header, rows) = summary_table(game);
    let intro = head.join(". ");
    document(title, paper, |font, metrics| {
        let table = Table {
            title,
            intro: &intro,
            header: &header,
            rows: &rows,
            shares: &[0.08, 0.46, 0.46],
        };
        let (mut pages, mut page, mut y) = table_pages(&table, paper, &font, metrics);
        let width = paper.size().0 - 2.0 * MARGIN;
        for line in &end {
            if y < MARGIN + 20.0 {
                pages.push(std::mem::replace(&mut page, Page::new(font.clone(), metrics)).ops);
                y = paper.size().1 - MARGIN - 4.0;
            }
            y = page.paragraph(MARGIN, y - 2.0, width, 8.5, &grey(0.1), line);
        }
        pages.push(page.ops);
        pages
    })
}

pub fn save_summary_pdf(game: &Game, paper: Paper, path: &Path) -> Result<(), StoreError> {
    write_pdf(path, &summary_pdf(game, paper))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Command;
    use crate::tests::started;

    #[test]
    fn the_summary_names_played_cards_by_turn_and_no_hand() {
        let mut g = started(31);
        let event = g
            .zones(Side::South)
            .unwrap()
            .hand
            .iter()
            .find(|id| g.set().card(id).unwrap().kind == crate::Kind::Event)
            .cloned();
        if let Some(card) = event {
            g.apply(Command::PlayEvent {
                player: Side::South,
                card,
            })
            .unwrap();
        }
        let (header, rows) = summary_table(&g);
        let lines = [header.join(" "), rows.concat().join(" ")].join("\n");
        assert!(lines.contains("Decius's plays") && rows[0][0] == "1");
        let shown: Vec<&String> = g.public().shown.iter().map(|s| &s.card).collect();
        for id in &g.zones(Side::North).unwrap().hand {
            if shown.contains(&id) {
                continue;
            }
            let title = &g.set().card(id).unwrap().title;
            assert!(!lines.contains(title.as_str()), "{title}");
        }
        let pdf = summary_pdf(&g, Paper::A4);
        assert!(pdf.starts_with(b"%PDF"));
    }
}
