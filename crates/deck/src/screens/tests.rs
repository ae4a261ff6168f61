//! The tests of the deck's screens (`screens.rs`).

use super::*;
use crate::tests::started;

#[test]
fn a_game_ended_as_turn_5_begins_is_over_after_turn_4() {
    let g = started(3);
    let fresh = Turn::start(5, Side::North, &g.set().phases);
    assert_eq!(over_after(&g, &fresh), "The game is over after turn 4");
    let mut begun = fresh.clone();
    begun.stage = Stage::Declaring;
    assert_eq!(over_after(&g, &begun), "The game is over during turn 5");
    let first = Turn::start(1, Side::South, &g.set().phases);
    assert!(over_after(&g, &first).contains("before the first turn"));
}

/// The attack: North's screen, serialised as it would go to his phone,
/// is searched for every card of South's that North's own army does not
/// hold. Nothing of South's hand is in it to find.
#[test]
fn a_players_screen_holds_nothing_of_the_other_hand() {
    let g = started(11);
    let json = serde_json::to_string(&hand(&g, Side::North, &Form::new())).unwrap();
    let north = g.setup().deck(Side::North);
    let south_only: Vec<&String> = g
        .zones(Side::South)
        .unwrap()
        .hand
        .iter()
        .filter(|id| !north.contains(id))
        .collect();
    assert!(
        !south_only.is_empty(),
        "the example armies hold cards of their own"
    );
    for id in south_only {
        let card = g.set().card(id).unwrap();
        assert!(!json.contains(id.as_str()), "{id} in North's screen");
        assert!(
            !json.contains(&card.title),
            "{} in North's screen",
            card.title
        );
    }
}

/// The rules take the command offered for the turn's event.
#[test]
fn the_offered_event_is_a_command_the_rules_accept() {
    let mut g = started(11);
    let screen = hand(&g, Side::South, &Form::new());
    let mut event = None;
    for block in &screen.blocks {
        let actions = match block {
            Block::Actions { actions } | Block::Item { actions, .. } => actions,
            _ => continue,
        };
        for action in actions {
            if let (true, HandAct::Play(command)) =
                (action.label.ends_with("as the event"), &action.command)
            {
                event = Some(command.clone());
            }
        }
    }
    let event = event.expect("the example's opening hand holds an event");
    g.apply(event).unwrap();
}

/// A card without flags is not offered for rally, whoever holds it;
/// a rally play's log line counts its flags.
#[test]
fn only_cards_with_flags_are_offered_for_rally_and_the_log_counts_them() {
    let (mut flagless, mut played) = (false, false);
    for seed in 0..20 {
        let mut g = started(seed);
        g.apply(Command::EndPhase).unwrap();
        g.apply(Command::Declare { plays: true }).unwrap();
        g.apply(Command::Interrupt {
            player: Side::North,
            card: None,
        })
        .unwrap();
        let zones = g.zones(Side::South).unwrap().clone();
        let offered = |id: &str| {
            let title = &g.set().card(id).unwrap().title;
            hand(&g, Side::South, &Form::new())
                .blocks
                .iter()
                .any(|b| match b {
                    Block::Item { actions, .. } => actions
                        .iter()
                        .any(|a| a.label == format!("Play {title} for rally")),
                    _ => false,
                })
        };
        for id in &zones.hand {
            let flags = g.set().card(id).unwrap().rally;
            assert_eq!(offered(id), flags > 0, "{id}: {flags} flags");
            flagless |= flags == 0;
        }
        let flagged = zones
            .hand
            .iter()
            .find(|id| g.set().card(id).unwrap().rally > 0);
        if let Some(id) = flagged.filter(|_| !played) {
            let flags = g.set().card(id).unwrap().rally;
            g.apply(Command::Play {
                player: Side::South,
                card: Pick::Hand(id.clone()),
                use_: crate::turn::Use::Rally,
                to: None,
            })
            .unwrap();
            let s = if flags == 1 { "" } else { "s" };
            let line = g.log_lines().last().unwrap().clone();
            assert!(
                line.contains(&format!("for its {flags} rally flag{s}")),
                "{line}"
            );
            played = true;
        }
    }
    assert!(flagless && played, "the deals held both kinds of card");
}

/// A card drawn from the deck for laurels is said on its drawer's own
/// screen, with its value, until the phase ends.
#[test]
fn a_card_drawn_for_laurels_is_shown_to_its_drawer() {
    let mut g = started(3);
    g.apply(Command::EndPhase).unwrap();
    g.apply(Command::Declare { plays: false }).unwrap();
    g.apply(Command::Declare { plays: true }).unwrap();
    g.apply(Command::Interrupt {
        player: Side::North,
        card: None,
    })
    .unwrap();
    g.apply(Command::Play {
        player: Side::North,
        card: Pick::Deck,
        use_: Use::Laurels,
        to: Some(Destination::Discard),
    })
    .unwrap();
    let said = |g: &Game, side| {
        hand(g, side, &Form::new())
            .blocks
            .iter()
            .any(|b| matches!(b, Block::Text { text } if text.starts_with("You drew ")))
    };
    assert!(said(&g, Side::North));
    assert!(!said(&g, Side::South), "their own screen only");
    g.apply(Command::EndPhase).unwrap();
    assert!(!said(&g, Side::North), "gone when the phase ends");
    for _ in 0..2 {
        g.apply(Command::Declare { plays: false }).unwrap();
    }
    let card = g.zones(Side::South).unwrap().hand.first().cloned();
    g.apply(Command::Fatigue { card }).unwrap();
    g.apply(Command::EndTurn).unwrap();
}
