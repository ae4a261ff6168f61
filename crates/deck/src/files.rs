//! The action deck's file (`"format": "muster-deck"`): the game's id, its
//! setup (card set, players, locks) and its log, each entry with the hash
//! that chains it and the players' tags. Hands and the owner-only zones are
//! never in it: only the sealed records of their changes. A file must read
//! back byte for byte as Muster writes it.

use super::game::Game;

pub const FORMAT: &str = "muster-deck";
pub const SCHEMA: u32 = 1;

muster_core::chained_files!(Game);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Command, Entry, genesis};
    use crate::setup::Setup;
    use crate::tests::{setup, started};
    use crate::{CardSet, Game};
    use muster_core::chained_game::OnLedger;
    use muster_core::intel::Lock;
    use muster_core::intel::trail::Tags;
    use muster_core::side::Side;
    use muster_core::side::Sides;
    use muster_core::store::chained;
    use muster_core::store::chained::Parts;

    const PASS: &str = "lantern quarry thistle ember falcon";

    #[test]
    fn a_game_reads_back_as_written_and_its_hands_reopen() {
        let mut g = started(21);
        g.apply(Command::EndPhase).unwrap();
        let text = to_json(&g);
        let again = from_json(&text).unwrap();
        assert_eq!(again.public(), g.public());
        assert_eq!(again.zones(Side::South), g.zones(Side::South));
        assert_eq!(to_json(&again), text);
    }

    #[test]
    fn the_file_holds_no_card_of_a_hand() {
        let g = started(22);
        let text = to_json(&g);
        let log = &text[text.find("\"log\"").unwrap()..];
        for side in Side::BOTH {
            for id in &g.zones(side).unwrap().hand {
                assert!(!log.contains(id.as_str()), "{id}");
                let title = &g.set().card(id).unwrap().title;
                assert!(!text.contains(&format!("{title}\"")) || g.set().card(id).is_some());
                assert!(!log.contains(title.as_str()), "{title}");
            }
        }
    }

    #[test]
    fn an_edit_is_named_and_a_passphrase_holder_must_unlock() {
        let (lock, key) = Lock::create(PASS, &[]).unwrap();
        let mut s = setup(CardSet::example());
        s.locks.south = Some(lock);
        let mut g = Game::new(
            s,
            Sides {
                south: Some(key),
                north: None,
            },
        )
        .unwrap();
        g.apply(Command::ChooseFirst {
            active: Side::North,
        })
        .unwrap();
        let text = to_json(&g);
        let mut again = from_json(&text).unwrap();
        assert!(
            again.zones(Side::South).is_none(),
            "sealed until they unlock"
        );
        assert!(again.zones(Side::North).is_some(), "no passphrase: open");
        assert!(again.apply(Command::EndPhase).is_err(), "locked");
        assert!(
            again
                .unlock(Side::South, "wrong horse battery staple")
                .is_err()
        );
        again.unlock(Side::South, PASS).unwrap();
        assert_eq!(again.zones(Side::South), g.zones(Side::South));
        // North's opponent edits who went first and re-chains the file: the
        // chain catches the edit, and re-chaining cannot forge South's tags.
        let forged = text.replace("\"active\": \"north\"", "\"active\": \"south\"");
        assert!(from_json(&forged).is_err());
    }

    #[test]
    fn a_draw_of_a_card_not_in_the_deck_is_named_when_the_zones_open() {
        use crate::events::{Event, SEALED_BYTES};
        use muster_core::intel::{SealKey, Sealed};
        let g = started(23);
        let mut log = g.log().to_vec();
        // South's opening draw re-sealed with a Gallic card in it: the
        // opponent (or a damaged file) cannot slip it past the replay.
        // Entry 0 settles who is first and owes the opening hands; South's
        // is drawn in entry 1.
        let Event::Drew { cards, .. } = &mut log[1].events[0] else {
            panic!("{:?}", log[1].events[0]);
        };
        let mut hand = g.zones(Side::South).unwrap().hand.clone();
        hand[0] = "e-frenzy".into();
        // Sealed in the draw's own place, so only the replay can refuse it.
        let place = crate::game::place(g.id(), Side::South, 1, 0);
        *cards = Sealed::seal(&place, &hand, &SealKey::unprotected(), SEALED_BYTES).unwrap();
        let tags = vec![Tags::default(); log.len() + 1];
        let parts = chained::Parts {
            id: g.id().into(),
            setup: g.setup().clone(),
            log,
            tags,
        };
        let e = muster_core::chained_game::Ledger::replay(parts)
            .and_then(Game::from_ledger)
            .unwrap_err();
        assert!(
            e.message
                .contains("log entry 2: e-frenzy is not in the deck"),
            "{e}"
        );
    }

    fn rechain(text: &str, edit: impl FnOnce(&mut Parts<Setup, Entry>)) -> String {
        chained::rechain(text, FORMAT, SCHEMA, genesis, edit).expect("a good file")
    }

    #[test]
    fn a_rechained_edit_is_named_when_the_passphrase_holder_unlocks() {
        use crate::events::Event;
        let (lock, key) = Lock::create(PASS, &[]).unwrap();
        let mut s = setup(CardSet::example());
        s.locks.south = Some(lock);
        let keys = Sides {
            south: Some(key),
            north: None,
        };
        let mut g = Game::new(s, keys).unwrap();
        g.apply(Command::ChooseFirst {
            active: Side::North,
        })
        .unwrap();
        g.apply(Command::EndPhase).unwrap();
        let text = to_json(&g);
        // North, who set no passphrase, makes himself not the first active
        // player and re-chains every hash: the file opens and replays.
        let first = (g.log().iter())
            .position(|e| matches!(e.events.first(), Some(Event::FirstPlayer { .. })))
            .unwrap();
        let forged = rechain(&text, |f| {
            let events = &mut f.log[first].events;
            let Some(Event::FirstPlayer { active, .. }) = events.first_mut() else {
                panic!("{events:?}");
            };
            *active = Side::South;
        });
        let mut opened = from_json(&forged).expect("a re-chained legal edit opens");
        assert_eq!(opened.public().turn.as_ref().unwrap().active, Side::South);
        // South's tags cannot be forged without his passphrase: the entry
        // is named the moment he unlocks, and the game stays locked.
        let e = opened.unlock(Side::South, PASS).unwrap_err();
        assert!(
            e.message.starts_with(&format!("Log entry {}", first + 1)),
            "{e}"
        );
        assert!(e.message.contains("without South's passphrase"), "{e}");
        assert_eq!(opened.locked_sides(), vec![Side::South]);
        assert!(opened.apply(Command::EndPhase).is_err());
        // An edit of the setup itself (a player renamed) is named as the
        // header.
        let forged = rechain(&text, |f| f.setup.seats.north.name = "Mallory".into());
        let mut opened = from_json(&forged).expect("the forged file opens");
        let e = opened.unlock(Side::South, PASS).unwrap_err();
        assert!(e.message.starts_with("The game's header"), "{e}");
    }

    /// Issue 21: no fold trusts an event the rules could not make. A file
    /// re-chained with every hash recomputed still replays through the
    /// turn's order: a turn that ends as turn 4,294,967,295 (its successor
    /// would wrap), a phase declared while the events phase runs, an
    /// interrupt asked of nobody, a laurel card in the events phase.
    #[test]
    fn a_rechained_event_out_of_turn_is_refused_at_load() {
        use crate::events::Event;
        use crate::turn::Use;
        let mut g = started(5);
        let text = to_json(&g);
        let last = g.log().len();
        let forged = |events: Vec<Event>| {
            rechain(&text, |f| {
                f.log.push(Entry { events });
            })
        };
        let refusal = |events: Vec<Event>| {
            from_json(&forged(events))
                .expect_err("an event out of turn opens")
                .to_string()
        };
        let e = refusal(vec![Event::TurnEnded { number: u32::MAX }]);
        assert!(e.contains("the end of the turn does not fit turn 1"), "{e}");
        let e = refusal(vec![Event::Declared {
            phase: crate::phase::PhaseName::Shooting,
            plays: true,
        }]);
        assert!(e.contains("a declaration does not fit turn 1"), "{e}");
        let e = refusal(vec![Event::NoInterrupt {
            player: Side::North,
        }]);
        assert!(e.contains("no interrupt does not fit"), "{e}");
        let card = g.zones(Side::South).unwrap().hand[0].clone();
        let e = refusal(vec![Event::Played {
            player: Side::South,
            card: card.clone(),
            from: crate::zones::Zone::Hand,
            use_: Use::Laurels,
            to: crate::turn::Destination::Discard,
            in_play: false,
            joint: None,
            drawn: None,
        }]);
        assert!(e.contains("could not play"), "{e}");
        assert!(e.contains(&format!("log entry {}", last + 1)), "{e}");
        // The same turn played out by the rules ends and opens again.
        g.apply(Command::EndPhase).unwrap();
        from_json(&to_json(&g)).unwrap();
    }
}
