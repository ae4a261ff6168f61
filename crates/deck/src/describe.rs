//! The deck's log in words (RULES-deck 7): every draw, play, discard,
//! removal and reshuffle. A card is named only when both saw it, or in its
//! owner's own log, where his sealed records are opened (`opened`).

use super::events::{DrawReason, Event, RemoveReason};
use super::setup::Setup;
use super::zones::Zone;
use muster_core::side::Side;

fn cards(n: usize) -> String {
    muster_core::text::count(n as u64, "card", "cards")
}

fn title(setup: &Setup, id: &str) -> String {
    setup
        .set
        .card(id)
        .map_or(id.to_string(), |c| c.title.clone())
}

/// The titles of opened cards, ": Valour, Rally Cry".
fn named(setup: &Setup, opened: Option<&[String]>) -> String {
    match opened {
        Some(ids) if !ids.is_empty() => {
            let titles: Vec<String> = ids.iter().map(|id| title(setup, id)).collect();
            format!(": {}", titles.join(", "))
        }
        _ => String::new(),
    }
}

/// One event in words; `opened` names the cards of its sealed record.
pub fn event(event: &Event, setup: &Setup, opened: Option<&[String]>) -> String {
    let name = |side: Side| setup.name(side).to_string();
    match event {
        Event::ToDraw { draws, why } => {
            let who: Vec<String> = draws
                .iter()
                .map(|(side, n)| format!("{} {n}", name(*side)))
                .collect();
            let what = match why {
                DrawReason::Opening => "their opening hands",
                DrawReason::Redraw => "up to their hands",
                DrawReason::Text(_) => "cards",
            };
            format!(
                "To draw {what}, each with their own key: {}",
                who.join(", ")
            )
        }
        Event::LockSet { side, .. } => format!(
            "{} set a passphrase: their cards are sealed under it from now on",
            name(*side)
        ),
        Event::FirstRollTied { south, north } => format!(
            "Who is active first: {} rolls {}, {} rolls {}: a tie, roll again",
            name(Side::South),
            south.describe(),
            name(Side::North),
            north.describe()
        ),
        Event::FirstPlayer { active, rolls } => match rolls {
            Some(r) => format!(
                "Who is active first: {} rolls {}, {} rolls {}: {} is active first",
                name(Side::South),
                r.south.describe(),
                name(Side::North),
                r.north.describe(),
                name(*active)
            ),
            None => format!("{} is chosen to be active first", name(*active)),
        },
        Event::Drew {
            player, count, why, ..
        } => {
            let why = match why {
                DrawReason::Opening => "to start the game".to_string(),
                DrawReason::Redraw => "in the redraw".to_string(),
                DrawReason::Text(reason) => format!("({reason})"),
            };
            format!(
                "{} draws {} {why}{}",
                name(*player),
                cards(*count),
                named(setup, opened)
            )
        }
        Event::Reshuffled { player, cards: n } => format!(
            "{}'s deck has run out: their discard pile of {} is shuffled into a new deck",
            name(*player),
            cards(*n)
        ),
        Event::RanOut { player, short } => format!(
            "{}'s deck and discard pile are both empty: {} not drawn",
            name(*player),
            cards(*short)
        ),
        Event::Declared { phase, plays } => {
            if *plays {
                format!("The {phase} phase is played")
            } else {
                format!("The {phase} phase is skipped")
            }
        }
        Event::NoInterrupt { player } => format!("{} plays no interrupt", name(*player)),
        Event::Played {
            player,
            card,
            from,
            use_,
            to,
            in_play,
            ..
        } => {
            let source = match from {
                Zone::Deck => "drawn from their deck",
                _ => "from their hand",
            };
            let after = if *in_play {
                format!("in play until the turn ends, then {}", to.verb())
            } else {
                to.verb().to_string()
            };
            let how = match setup.set.card(card).map(|c| c.kind) {
                Some(super::cards::Kind::Event) if *use_ == super::turn::Use::Text => {
                    " as the event".to_string()
                }
                Some(super::cards::Kind::Interrupt) if *use_ == super::turn::Use::Text => {
                    " as an interrupt".to_string()
                }
                _ => String::new(),
            };
            // What the play is worth, for both to count (issue 25).
            let worth = |n: u32, one: &str, many: &str| {
                format!("its {}", muster_core::text::count(n, one, many))
            };
            let what = match (use_, setup.set.card(card)) {
                (super::turn::Use::Laurels, Some(c)) => worth(c.laurels, "laurel", "laurels"),
                (super::turn::Use::Rally, Some(c)) => worth(c.rally, "rally flag", "rally flags"),
                _ => use_.name().to_string(),
            };
            format!(
                "{} plays {} ({source}) for {what}{how}; {after}",
                name(*player),
                title(setup, card),
            )
        }
        Event::Removed {
            player,
            from,
            count,
            why,
            ..
        } => {
            let why = match why {
                RemoveReason::Fatigue => "in the fatigue step".to_string(),
                RemoveReason::UnitBroke => "for a broken unit".to_string(),
                RemoveReason::Other(reason) => format!("({reason})"),
            };
            format!(
                "{} removes {} from their {} {why}, face down{}",
                name(*player),
                cards(*count),
                from.name(),
                named(setup, opened)
            )
        }
        Event::Redrawn => "The redraw is done: the fatigue step".to_string(),
        Event::PhaseEnded { phase } => format!("The {phase} phase ends"),
        Event::TurnEnded { number } => format!(
            "Turn {number} ends: the cards in play go to their owners' discard piles or removed boxes"
        ),
        Event::GameOver { player } => {
            format!("{} agrees the game is over", setup.name(*player))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::turn::{Destination, Use};
    use muster_testkit::grammar::assert_english;

    /// Every sentence the log can hold, each count as 1 and as 2, and
    /// every card played both ways: English, with no pronoun.
    #[test]
    fn every_log_sentence_reads_as_english_with_one_and_two() {
        let g = crate::tests::started(7);
        let setup = g.setup().clone();
        let mut lines = g.log_lines().to_vec();
        let sealed = g
            .log()
            .iter()
            .flat_map(|e| &e.events)
            .find_map(|e| e.sealed().map(|(_, s)| s.clone()))
            .expect("the opening draws are sealed");
        let ids: Vec<String> = setup.set.cards.iter().map(|c| c.id.clone()).collect();
        let player = Side::North;
        for n in [1, 2] {
            let opened = Some(&ids[..n]);
            for e in [
                Event::Drew {
                    player,
                    count: n,
                    why: DrawReason::Redraw,
                    cards: sealed.clone(),
                    joint: None,
                    tokens: Vec::new(),
                },
                Event::Reshuffled { player, cards: n },
                Event::RanOut { player, short: n },
                Event::Removed {
                    player,
                    from: Zone::Hand,
                    count: n,
                    why: RemoveReason::UnitBroke,
                    cards: sealed.clone(),
                    joint: None,
                },
                Event::TurnEnded { number: n as u32 },
            ] {
                lines.push(event(&e, &setup, opened));
                lines.push(event(&e, &setup, None));
            }
        }
        for card in &setup.set.cards {
            for use_ in [Use::Laurels, Use::Rally, Use::Text] {
                let e = Event::Played {
                    player,
                    card: card.id.clone(),
                    from: Zone::Hand,
                    use_,
                    to: Destination::Discard,
                    in_play: false,
                    joint: None,
                    drawn: None,
                };
                lines.push(event(&e, &setup, None));
            }
            lines.push(card.text.clone());
        }
        assert_english(lines.iter().map(String::as_str));
    }
}
