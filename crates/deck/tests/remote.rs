//! The action deck from two machines, talking in memory as their links do
//! (docs: "Playing remotely"): each machine holds its own player's key and
//! cards only; each draws his own hand with both machines' dice and his own
//! secret; at the end each checks the other's cards; and the attacks of a
//! machine whose program was changed.

use muster_core::intel::Sealed;
use muster_core::remote::{Happened, Replica, Wire};
use muster_core::side::{Side, Sides};
use muster_deck::events::{Event, SEALED_BYTES};
use muster_deck::game::{Command, Entry, Game, Pick};
use muster_deck::setup::Setup;
use muster_deck::turn::{Destination, Stage, Use};
use muster_deck::zones::Zone;

use muster_testkit::remote::keys;

type Two = muster_testkit::remote::Two<Game>;

/// Decius (South, the host's) against Artagur (North, the joiner's), both
/// passphrases set at one table; nothing dealt yet.
fn two() -> Two {
    let k = keys();
    let setup = Setup::example(Sides {
        south: Some(k.south.0.clone()),
        north: Some(k.north.0.clone()),
    });
    let both = Sides {
        south: Some(k.south.1.clone()),
        north: Some(k.north.1.clone()),
    };
    let file = Game::new(setup, both).unwrap().file();
    let mut h = Game::from_file(&file).unwrap();
    h.unlock_key(Side::South, &k.south.1).unwrap();
    let mut j = Game::from_file(&file).unwrap();
    j.unlock_key(Side::North, &k.north.1).unwrap();
    Two::new(h, j, Side::North)
}

fn give(t: &mut Two, side: Side, command: Command) {
    t.give(side, command).unwrap();
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    assert!(t.same(), "the two logs differ");
}

fn hand(t: &mut Two, side: Side) -> Vec<String> {
    t.machine(side).0.zones(side).unwrap().hand.clone()
}

/// The active player skips every phase to his fatigue step, removes the
/// first card of his hand, and ends his turn.
fn a_quiet_turn(t: &mut Two) {
    let active = t.host.0.public().turn.as_ref().unwrap().active;
    give(t, active, Command::EndPhaseThen { plays: false });
    for _ in 0..3 {
        give(t, active, Command::Declare { plays: false });
    }
    let card = hand(t, active)[0].clone();
    give(t, active, Command::Fatigue { card: Some(card) });
    give(t, active, Command::EndTurn);
}

/// Each player's hand dealt on his own machine with both machines' dice,
/// the redraws of three turns too; neither machine holds the other's
/// cards, and no card of a hand, key or passphrase crosses. At the end each
/// finds the other's cards hold.
#[test]
fn each_hand_is_dealt_on_its_owners_machine_and_checked_at_the_end() {
    let mut t = two();
    give(
        &mut t,
        Side::South,
        Command::ChooseFirst {
            active: Side::South,
        },
    );
    assert!(t.host.0.zones(Side::North).is_none());
    assert!(t.joiner.0.zones(Side::South).is_none());
    assert_eq!(hand(&mut t, Side::South).len(), 7);
    assert_eq!(hand(&mut t, Side::North).len(), 7);
    let drawn: Vec<_> = (t.host.0.log().iter().flat_map(|e| &e.events))
        .filter_map(|e| match e {
            Event::Drew { joint, .. } => Some(joint.is_some()),
            _ => None,
        })
        .collect();
    assert_eq!(drawn, vec![true, true], "both hands by both machines' dice");
    for _ in 0..3 {
        a_quiet_turn(&mut t);
    }
    // Each redrew to 7 in the other's turn (on his own machine), then
    // South's fatigue in turn 3 took one.
    assert_eq!(hand(&mut t, Side::South).len(), 6);
    assert_eq!(hand(&mut t, Side::North).len(), 7);
    let redraws = (t.host.0.log().iter().flat_map(|e| &e.events))
        .filter(|e| {
            matches!(
                e,
                Event::Drew {
                    why: muster_deck::events::DrawReason::Redraw,
                    joint: Some(_),
                    ..
                }
            )
        })
        .count();
    assert_eq!(redraws, 2, "South's in turn 2, North's in turn 3");
    // No card of a hand ever crossed: the other's cards are sealed.
    let norths = hand(&mut t, Side::North);
    let souths = hand(&mut t, Side::South);
    for card in &norths {
        let quoted = format!("\"{card}\"");
        assert!(
            !t.to_host.iter().any(|m| m.contains(&quoted)) || souths.contains(card),
            "{card} reached the host's machine"
        );
    }

    give(
        &mut t,
        Side::South,
        Command::GameOver {
            player: Side::South,
        },
    );
    give(
        &mut t,
        Side::North,
        Command::GameOver {
            player: Side::North,
        },
    );
    let audited = (t.said.iter())
        .filter(|h| matches!(h, Happened::Audited(words) if words.contains("all hold")))
        .count();
    assert_eq!(audited, 2, "{:?}", t.said);
    t.no_passphrase_or_key_crossed();
}

/// North (the joiner) to play in the movement phase, his hand dealt on
/// his machine: North ended his event phase, skipped the two phases
/// before movement and declared it; South was asked and did not interrupt.
/// His hand, and a card of his deck he never drew.
fn north_to_play(t: &mut Two) -> (Vec<String>, String) {
    give(
        t,
        Side::South,
        Command::ChooseFirst {
            active: Side::North,
        },
    );
    give(t, Side::North, Command::EndPhaseThen { plays: false });
    give(t, Side::North, Command::Declare { plays: false });
    give(t, Side::North, Command::Declare { plays: true });
    if t.host.0.public().turn.as_ref().unwrap().stage == Stage::AskingInterrupt {
        give(
            t,
            Side::South,
            Command::Interrupt {
                player: Side::South,
                card: None,
            },
        );
    }
    let held = hand(t, Side::North);
    let deck = t.host.0.setup().deck(Side::North);
    let never = (deck.iter().find(|c| !held.contains(c)))
        .expect("a deck larger than a hand")
        .clone();
    (held, never)
}

fn laurels(card: &str) -> Command {
    Command::Play {
        player: Side::North,
        card: Pick::Hand(card.to_string()),
        use_: Use::Laurels,
        to: None,
    }
}

/// A card North plays from his hand shows the draw that brought it, and
/// South's machine checks it at once, not at the game's end: a card of
/// his deck he never drew, a card other than the one committed as it was
/// drawn, or a card shown twice is refused and named as it is played.
/// The honest play is taken, and shows nothing of the cards still in his
/// hand.
#[test]
fn a_card_played_from_the_hand_is_checked_at_once_against_its_draw() {
    let mut t = two();
    let (held, never) = north_to_play(&mut t);

    // His machine, changed, plays a card of his deck he never drew.
    let played = |card: &str, drawn| Entry {
        events: vec![Event::Played {
            player: Side::North,
            card: card.to_string(),
            from: Zone::Hand,
            use_: Use::Laurels,
            to: Destination::Discard,
            in_play: false,
            joint: None,
            drawn,
        }],
    };
    let forged = t.forged(played(&never, None));
    t.refused_by_host(forged, "without showing the draw that brought it");

    // The honest play: its draw shown, taken by both.
    give(&mut t, Side::North, laurels(&held[0]));
    let shown = match t.host.0.log().last().unwrap().events.as_slice() {
        [Event::Played { card, drawn, .. }] if *card == held[0] => drawn.clone(),
        other => panic!("{other:?}"),
    };
    let shown = shown.expect("a card drawn from two machines shows its draw");
    for card in &held[1..] {
        let quoted = format!("\"{card}\"");
        assert!(
            !t.to_host.iter().any(|m| m.contains(&quoted)) || *card == held[0],
            "{card}, still in his hand, crossed"
        );
    }

    // The same draw shown again, for the card it brought or another.
    let again = t.forged(played(&held[0], Some(shown.clone())));
    t.refused_by_host(again, "whose card was played already");
    let spent = t.forged(played(&never, Some(shown)));
    t.refused_by_host(spent, "whose card was played already");
}

/// His machine, changed, shows a draw of his for a card it did not bring:
/// refused, naming the card committed to as it was drawn.
#[test]
fn a_card_shown_with_another_cards_draw_is_refused() {
    let mut t = two();
    let (held, never) = north_to_play(&mut t);
    let before = t.host.0.entries();
    let swapped = never.clone();
    let (g, p) = t.machine(Side::North);
    p.give(g, laurels(&held[0])).unwrap();
    t.sent_changed(Side::North, move |m| {
        if let Wire::Decided { entry, .. } = m {
            for ev in &mut entry.events {
                if let Event::Played { card, .. } = ev {
                    *card = swapped.clone();
                }
            }
        }
    });
    assert_eq!(t.host.0.entries(), before, "nothing was taken");
    let troubles = t.troubles().join("\n");
    assert!(
        troubles.contains(&format!(
            "played {never}, but the card committed to as it was drawn is another"
        )),
        "{troubles}"
    );
}

/// Who is active first settled on the host's machine, and the opening
/// hands dealt with every draw North's machine sends through `change` (a
/// changed program's): its draws are taken, nothing can tell.
fn dealt_changed(t: &mut Two, change: impl Fn(&mut Event)) {
    let (g, p) = &mut t.host;
    p.give(
        g,
        Command::ChooseFirst {
            active: Side::South,
        },
    )
    .unwrap();
    for _ in 0..6 {
        t.sent_changed(Side::South, |_| {});
        t.sent_changed(Side::North, |m| {
            if let Wire::Decided { entry, .. } = m {
                entry.events.iter_mut().for_each(&change);
            }
        });
    }
    t.pump();
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    assert!(t.same());
}

/// Both say the game is over; South's machine's audit of Artagur's cards
/// names what broke the rules, in `words`.
fn ended_naming(t: &mut Two, words: &str) {
    give(
        t,
        Side::South,
        Command::GameOver {
            player: Side::South,
        },
    );
    t.give(
        Side::North,
        Command::GameOver {
            player: Side::North,
        },
    )
    .unwrap();
    let troubles = t.troubles().join("\n");
    assert!(
        troubles.contains("Artagur's cards, opened at the game's end, break the rules")
            && troubles.contains(words),
        "{troubles}"
    );
}

/// North's machine, changed, draws his hand honestly but commits each
/// card as another (so that it could later show a card he never drew):
/// nothing tells while the game goes on; at the end South's machine names
/// it.
#[test]
fn cards_committed_as_others_are_named_at_the_end() {
    let mut t = two();
    let liar = muster_core::dice::hidden::PickCommitment::new(&keys().north.1.seal_key())
        .unwrap()
        .secret(&keys().north.1.seal_key())
        .unwrap();
    dealt_changed(&mut t, |event| {
        if let Event::Drew { tokens, .. } = event {
            for (n, token) in tokens.iter_mut().enumerate() {
                let blinding = liar.blinding("elsewhere", n as u64);
                *token = muster_core::dice::hidden::token(&blinding, "e-best");
            }
        }
    });
    ended_naming(&mut t, "was drawn is another card");
}

/// North's machine, changed, deals him a hand of its choosing (the best
/// seven cards of his deck, sealed under his own key): nothing can tell
/// while the game goes on, and the host's machine takes it; at the game's
/// end its audit names the first card that is not the one both machines'
/// dice and his secret gave. A draw made by one machine alone is refused
/// at once.
#[test]
fn a_hand_a_changed_program_chose_is_named_at_the_end_and_a_lone_draw_refused() {
    let mut t = two();
    let id = t.host.0.id().to_string();
    let deck = t.host.0.setup().deck(Side::North);
    // Who is first takes an entry, South's opening draw the next.
    let entry = t.host.0.log().len() + 2;
    let key = keys().north.1.seal_key();
    let chosen: Vec<String> = deck.iter().rev().take(7).cloned().collect();
    dealt_changed(&mut t, |event| {
        if let Event::Drew { cards, .. } = event {
            let place = muster_core::intel::Place {
                game: &id,
                owner: Side::North,
                kind: "cards",
                slot: format!("entry {entry} event 0"),
            };
            *cards = Sealed::seal(&place, &chosen, &key, SEALED_BYTES).unwrap();
        }
    });

    // A lone draw: North's machine draws for a card's text by itself.
    let lone = t.host.0.log().len();
    let forged = t.forged(Entry {
        events: vec![Event::Drew {
            player: Side::North,
            count: 1,
            why: muster_deck::events::DrawReason::Text("a card says so".into()),
            cards: Sealed::seal(
                &muster_core::intel::Place {
                    game: &id,
                    owner: Side::North,
                    kind: "cards",
                    slot: format!("entry {lone} event 0"),
                },
                &vec![deck[0].clone()],
                &key,
                SEALED_BYTES,
            )
            .unwrap(),
            joint: None,
            tokens: Vec::new(),
        }],
    });
    t.refused_by_host(forged, "drawn by one machine alone");
    ended_naming(&mut t, "but both machines' dice and their secret gave");
}
