//! Sealed draws and removals, opened (RULES-deck 2, 3, 5, 7;
//! `docs/src/rules/deck.md`): where each is sealed, and a player's zones
//! rebuilt from the log with his key, every card drawn, reshuffled, played
//! or removed checked against where it is taken from. The running game
//! folds each new event the same way, so a file opened later holds the
//! same zones the dealer held.

use super::Entry;
use crate::events::{DrawReason, Event, Hidden};
use crate::setup::Setup;
use crate::zones::{Zone, Zones};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::{Place, SealKey, Sealed};
use muster_core::side::Side;

/// Where a draw or removal is sealed: its game, owner, and the event's
/// place in the log (entry and event, from 0).
pub(crate) fn place(game: &str, owner: Side, entry: usize, event: usize) -> Place<'_> {
    Place {
        game,
        owner,
        kind: "cards",
        slot: format!("entry {entry} event {event}"),
    }
}

pub(super) fn open_hidden(
    place: &Place,
    sealed: &Sealed,
    key: &SealKey,
) -> Result<Hidden, RuleError> {
    sealed
        .open::<Hidden>(key, place)
        .map(|r| r.secret)
        .map_err(|e| RuleError::new("trust", e.to_string()))
}

/// A player's sealing keys through the log: `before` (the unprotected
/// key) for entries before `from`, where he set his passphrase, `key` on.
pub(crate) struct Keys<'k> {
    pub(crate) from: usize,
    pub(crate) before: SealKey,
    pub(crate) key: &'k SealKey,
}

impl Keys<'_> {
    fn at(&self, entry: usize) -> &SealKey {
        if entry < self.from {
            &self.before
        } else {
            self.key
        }
    }
}

/// `side`'s zones rebuilt from the log, each move checked: a card drawn
/// must be in the deck, a reshuffle must find the deck empty, a card
/// removed or played must be where it is taken from.
pub(super) fn replay_zones(
    game: &str,
    setup: &Setup,
    log: &[Entry],
    side: Side,
    keys: &Keys,
) -> Result<Zones, RuleError> {
    let mut zones = Zones::new(setup.deck(side));
    // The public fold follows the turn: which cards are in play.
    let mut public = setup.opening();
    for (i, entry) in log.iter().enumerate() {
        let at = |e: RuleError| e.in_entry(i);
        for (j, event) in entry.events.iter().enumerate() {
            let opened = match event.sealed() {
                Some((owner, sealed)) if owner == side => {
                    Some(open_hidden(&place(game, side, i, j), sealed, keys.at(i)).map_err(at)?)
                }
                _ => None,
            };
            fold_zones(
                &mut zones,
                side,
                event,
                opened.as_deref(),
                public.turn.as_ref(),
            )
            .map_err(at)?;
            public.fold(&setup.set, event).map_err(at)?;
        }
    }
    Ok(zones)
}

/// Folds one event into `side`'s zones; `opened` is the sealed record of
/// his, opened.
pub(crate) fn fold_zones(
    zones: &mut Zones,
    side: Side,
    event: &Event,
    opened: Option<&[String]>,
    turn: Option<&crate::turn::Turn>,
) -> Result<(), RuleError> {
    if !matches!(event, Event::Drew { player, .. } | Event::Reshuffled { player, .. } if *player == side)
    {
        zones.draw_over();
    }
    match event {
        Event::Drew {
            player, count, why, ..
        } if *player == side => {
            let cards = opened.unwrap_or_default();
            if cards.len() != *count {
                return refuse(
                    "RULES-deck 3",
                    format!("a draw of {count} holds {} cards", cards.len()),
                );
            }
            for card in cards {
                zones.take(card, Zone::Deck, Some(Zone::Hand))?;
            }
            // The opening hand is all new: nothing to point out.
            if *why != DrawReason::Opening {
                zones.drew(cards);
            }
        }
        Event::Reshuffled { player, cards } if *player == side => {
            let moved = zones.reshuffle()?;
            if moved != *cards {
                return refuse(
                    "RULES-deck 3",
                    "the reshuffle's count differs from the pile",
                );
            }
        }
        Event::Played {
            player,
            card,
            from,
            to,
            in_play,
            ..
        } if *player == side => {
            zones.take(card, *from, (!*in_play).then(|| to.zone()))?;
        }
        Event::Removed {
            player,
            from,
            count,
            ..
        } if *player == side => {
            let cards = opened.unwrap_or_default();
            if cards.len() != *count {
                return refuse(
                    "RULES-deck 5",
                    format!("a removal of {count} holds {} cards", cards.len()),
                );
            }
            for card in cards {
                zones.take(card, *from, Some(Zone::Removed))?;
            }
        }
        Event::TurnEnded { .. } => {
            zones.turn_ended();
            for c in turn.iter().flat_map(|t| &t.in_play) {
                if c.owner == side {
                    zones.put(&c.card, c.then.zone());
                }
            }
        }
        _ => {}
    }
    Ok(())
}
