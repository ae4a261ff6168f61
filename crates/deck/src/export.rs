//! The printable summary of a game (issue 12): the cards each player
//! played, turn by turn, as both saw them, and the counts at the end. Cards
//! that stayed face down are never in it.

use super::game::Game;
use super::turn::Use;
use muster_core::pdf::{Paper, document, text_pages, write_pdf};
use muster_core::side::Side;
use muster_core::store::StoreError;
use std::path::Path;

/// The summary's lines: a heading per turn, then each card shown in it.
pub fn summary_lines(game: &Game) -> Vec<String> {
    let setup = game.setup();
    let public = game.public();
    let mut lines = vec![
        format!(
            "{} ({}) v {} ({}), card set {}",
            setup.seats.south.name,
            army(game, Side::South),
            setup.seats.north.name,
            army(game, Side::North),
            game.set().name
        ),
        format!(
            "Log: {} entries, fingerprint {}",
            game.log().len(),
            game.log_fingerprint()
        ),
    ];
    let last = public.turn.as_ref().map_or(0, |t| t.number);
    for number in 1..=last {
        let shown: Vec<_> = public.shown.iter().filter(|s| s.turn == number).collect();
        lines.push(format!("Turn {number}"));
        if shown.is_empty() {
            lines.push("    no card played".into());
        }
        for s in shown {
            let title = game
                .set()
                .card(&s.card)
                .map_or(s.card.clone(), |c| c.title.clone());
            let how = match s.use_ {
                Use::Laurels => "for laurels",
                Use::Rally => "for rally",
                Use::Text => "for its text",
            };
            lines.push(format!(
                "    {} phase: {} played {title} {how}",
                s.phase,
                setup.name(s.player)
            ));
        }
    }
    for side in Side::BOTH {
        let c = public.counts[side];
        lines.push(format!(
            "At the end, {}: deck {}, hand {}, discard {}, removed {}",
            setup.name(side),
            c.deck,
            c.hand,
            c.discard,
            c.removed
        ));
    }
    lines
}

fn army(game: &Game, side: Side) -> String {
    let id = &game.setup().seats[side].army;
    game.set().army(id).map_or(id.clone(), |a| a.name.clone())
}

pub fn summary_pdf(game: &Game, paper: Paper) -> Vec<u8> {
    let title = "Action deck: the cards played, turn by turn";
    let lines = summary_lines(game);
    document(title, paper, |font, metrics| {
        text_pages(title, &lines, paper, &font, metrics)
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
        let lines = summary_lines(&g).join("\n");
        assert!(lines.contains("Turn 1"));
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
