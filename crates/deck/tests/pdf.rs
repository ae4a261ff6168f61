//! The action deck's printout as a reader sees it: the PDF parsed back.

use muster_core::pdf::Paper;
use muster_testkit::pdf::{assert_clear, text_of, words};

/// An action-deck game of many turns, each with a rally card shown, with a
/// player's name long enough to wrap.
fn long_deck_game() -> (muster_deck::Game, u32) {
    use muster_deck::{Command, Pick, Stage, Use};
    let new = r#"{"cmd": "new", "south": {"name": "Decius Iunius Brutus Albinus, legate of the Ninth and of all cohorts in Britain", "army": "romans"}, "north": {"name": "Artagur", "army": "gauls"}}
{"cmd": "choose_first", "active": "south"}
"#;
    let mut game = None;
    let failed = muster_deck::script::run(&mut game, Some(5), new.as_bytes(), std::io::sink());
    assert_eq!(failed.unwrap(), 0);
    let mut g = game.unwrap();
    let first_of = |g: &muster_deck::Game, side| g.zones(side).unwrap().hand.first().cloned();
    let mut turns = 0;
    'game: for _ in 0..60 {
        let turn = g.public().turn.clone().unwrap();
        let (active, passive) = (turn.active, turn.passive());
        let mut commands = vec![
            Command::EndPhase,
            Command::Declare { plays: true },
            Command::Interrupt {
                player: passive,
                card: None,
            },
        ];
        if let Some(card) = first_of(&g, active) {
            commands.push(Command::Play {
                player: active,
                card: Pick::Hand(card),
                use_: Use::Rally,
                to: None,
            });
        }
        commands.push(Command::EndPhase);
        for command in commands {
            if g.apply(command).is_err() {
                break 'game;
            }
        }
        while g.public().turn.as_ref().unwrap().stage == Stage::Declaring {
            g.apply(Command::Declare { plays: false }).unwrap();
        }
        let card = first_of(&g, active);
        if g.apply(Command::Fatigue { card }).is_err() {
            break;
        }
        g.apply(Command::EndTurn).unwrap();
        turns += 1;
    }
    (g, turns)
}

#[test]
fn the_deck_summary_lists_every_turn_on_clear_pages_on_either_paper() {
    let (game, turns) = long_deck_game();
    assert!(turns >= 20, "only {turns} turns");
    for (paper, size) in [
        (Paper::A4, (841.89, 595.28)),
        (Paper::Letter, (792.0, 612.0)),
    ] {
        let bytes = muster_deck::export::summary_pdf(&game, paper);
        let pdf = lopdf::Document::load_mem(&bytes).unwrap();
        let pages = pdf.get_pages().len() as u32;
        assert!(pages >= 2, "{turns} turns on {pages} page");
        let mut text = String::new();
        for page in 1..=pages {
            assert_clear(&pdf, page, size);
            text.push_str(&words(&text_of(&pdf, page)));
            text.push(' ');
        }
        assert!(text.contains("and of all cohorts in Britain"));
        // A row per turn, each player's plays in his column (issue 25).
        let (header, rows) = muster_deck::export::summary_table(&game);
        assert!(text.contains(&header.join(" ")), "{text}");
        assert_eq!(rows.len() as u32, turns + 1, "the turn under way too");
        for row in &rows {
            assert!(text.contains(&row.join(" ")), "{row:?} in {text}");
        }
        // Each rally card shown is printed in its player's column; no hand is.
        let public = game.public();
        for shown in &public.shown {
            let title = &game.set().card(&shown.card).unwrap().title;
            assert!(text.contains(&format!("rally: {title} for ")), "{title}");
        }
        for side in muster_core::side::Side::BOTH {
            for id in &game.zones(side).unwrap().hand {
                let seen = public.shown.iter().any(|s| &s.card == id);
                let title = &game.set().card(id).unwrap().title;
                assert!(
                    seen || !text.contains(title.as_str()),
                    "hand card {title} printed"
                );
            }
        }
    }
}
