//! The dealer's part of a command (RULES-deck 3, 5; `docs/src/rules/deck.md`):
//! drawing, the opening hands and the status phase's redraw, reshuffling
//! exactly when the deck runs out, the deck's top card, and removals, each
//! sealed for its owner.

use super::work::Work;
use crate::events::{DrawReason, Event, RemoveReason};
use crate::turn::Stage;
use crate::zones::Zone;
use muster_core::error::RuleError;
use muster_core::side::Side;

impl Work<'_> {
    /// The status phase begins with its redraw (RULES-deck 3, 6): each
    /// player draws up to his hand, active first. Nobody decides anything
    /// in it, so it follows the phase before at once.
    pub(super) fn status_begins(&mut self) -> Result<(), RuleError> {
        if self.turn()?.stage != Stage::Redraw {
            return Ok(());
        }
        let active = self.turn()?.active;
        for side in [active, active.opponent()] {
            let hand = self.zones(side)?.hand.len();
            let need = self.hand_size(side).saturating_sub(hand);
            if need > 0 {
                self.draw(side, need, DrawReason::Redraw)?;
            }
        }
        self.push(Event::Redrawn, None)
    }

    /// Draws `count` cards into `side`'s hand, reshuffling exactly when the
    /// deck runs out, stopping when deck and discard pile are both empty.
    pub(super) fn draw(
        &mut self,
        side: Side,
        count: usize,
        why: DrawReason,
    ) -> Result<(), RuleError> {
        let mut batch: Vec<String> = Vec::new();
        let mut zones = self.zones(side)?.clone();
        let mut left = count;
        while left > 0 {
            if zones.deck.is_empty() {
                self.flush(side, &mut batch, &why)?;
                if zones.discard.is_empty() {
                    self.push(
                        Event::RanOut {
                            player: side,
                            short: left,
                        },
                        None,
                    )?;
                    return Ok(());
                }
                let cards = zones.reshuffle()?;
                self.push(
                    Event::Reshuffled {
                        player: side,
                        cards,
                    },
                    None,
                )?;
            }
            let i = self.dealer.pick(zones.deck.len())?;
            let card = zones.deck[i].clone();
            zones.take(&card, Zone::Deck, Some(Zone::Hand))?;
            batch.push(card);
            left -= 1;
        }
        self.flush(side, &mut batch, &why)
    }

    fn flush(
        &mut self,
        side: Side,
        batch: &mut Vec<String>,
        why: &DrawReason,
    ) -> Result<(), RuleError> {
        if batch.is_empty() {
            return Ok(());
        }
        let cards = std::mem::take(batch);
        let sealed = self.seal(side, &cards)?;
        self.push(
            Event::Drew {
                player: side,
                count: cards.len(),
                why: why.clone(),
                cards: sealed,
            },
            Some(&cards),
        )
    }

    /// The top card of `side`'s deck, reshuffling first if it is empty;
    /// `None` when deck and discard pile are both empty.
    pub(super) fn top_card(&mut self, side: Side) -> Result<Option<String>, RuleError> {
        let zones = self.zones(side)?;
        if zones.deck.is_empty() {
            if zones.discard.is_empty() {
                return Ok(None);
            }
            let cards = zones.discard.len();
            self.push(
                Event::Reshuffled {
                    player: side,
                    cards,
                },
                None,
            )?;
        }
        let left = self.zones(side)?.deck.len();
        let i = self.dealer.pick(left)?;
        Ok(Some(self.zones(side)?.deck[i].clone()))
    }

    pub(super) fn hand_size(&self, side: Side) -> usize {
        self.setup.seats[side].hand_size
    }

    pub(super) fn remove(
        &mut self,
        side: Side,
        from: Zone,
        cards: Vec<String>,
        why: RemoveReason,
    ) -> Result<(), RuleError> {
        let sealed = self.seal(side, &cards)?;
        self.push(
            Event::Removed {
                player: side,
                from,
                count: cards.len(),
                why,
                cards: sealed,
            },
            Some(&cards),
        )
    }

    pub(super) fn opening_draw(&mut self) -> Result<(), RuleError> {
        if !self.set().opening_draw {
            return Ok(());
        }
        for side in Side::BOTH {
            let size = self.hand_size(side);
            self.draw(side, size, DrawReason::Opening)?;
        }
        Ok(())
    }
}
