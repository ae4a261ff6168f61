//! The dealer's part of a command (RULES-deck 3, 5; `docs/src/rules/deck.md`):
//! drawing, the opening hands and the status phase's redraw, reshuffling
//! exactly when the deck runs out, the deck's top card, and removals, each
//! sealed for its owner.
//!
//! The opening hands and the redraw are owed draws (`Event::ToDraw`), each
//! made next with its own player's key (`deal`): at one table at once, from
//! two machines on his.

use super::work::Work;
use crate::events::{DrawReason, Event, RemoveReason};
use crate::turn::Stage;
use crate::zones::Zone;
use muster_core::dice::hidden;
use muster_core::error::{RuleError, refuse};
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
        let draws: Vec<(Side, usize)> = [active, active.opponent()]
            .into_iter()
            .map(|side| {
                let hand = self.public.counts[side].hand;
                (side, self.hand_size(side).saturating_sub(hand))
            })
            .filter(|(_, need)| *need > 0)
            .collect();
        if draws.is_empty() {
            return self.push(Event::Redrawn, None);
        }
        self.push(
            Event::ToDraw {
                draws,
                why: DrawReason::Redraw,
            },
            None,
        )
    }

    /// The first draw the rules owe, made with its player's key; the
    /// redraw's last ends the redraw step.
    pub(super) fn deal(&mut self) -> Result<(), RuleError> {
        let (Some((side, count)), Some(why)) = (
            self.public.to_draw.first().copied(),
            self.public.to_draw_why.clone(),
        ) else {
            return refuse("RULES-deck 3", "No draw is owed now");
        };
        self.draw(side, count, why)?;
        let redraw = self
            .public
            .turn
            .as_ref()
            .is_some_and(|t| t.stage == Stage::Redraw);
        if self.public.to_draw.is_empty() && redraw {
            self.push(Event::Redrawn, None)?;
        }
        Ok(())
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
            let (i, joint) = self.pick(side, zones.deck.len())?;
            self.joint = joint;
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
        // From two machines, each card is committed one by one too.
        let tokens = match self.joint {
            Some(_) => {
                let secret = self.secret(side)?;
                let first = self.public.committed[side].next();
                (cards.iter().zip(first..))
                    .map(|(card, n)| hidden::token(&secret.blinding(self.game, n), card))
                    .collect()
            }
            None => Vec::new(),
        };
        self.push(
            Event::Drew {
                player: side,
                count: cards.len(),
                why: why.clone(),
                cards: sealed,
                joint: self.joint,
                tokens,
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
        let (i, joint) = self.pick(side, left)?;
        self.joint = joint;
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
        let joint = if from == Zone::Deck { self.joint } else { None };
        self.push(
            Event::Removed {
                player: side,
                from,
                count: cards.len(),
                why,
                cards: sealed,
                joint,
            },
            Some(&cards),
        )
    }

    pub(super) fn opening_draw(&mut self) -> Result<(), RuleError> {
        if !self.set().opening_draw {
            return Ok(());
        }
        let draws = Side::BOTH.map(|side| (side, self.hand_size(side))).to_vec();
        self.push(
            Event::ToDraw {
                draws,
                why: DrawReason::Opening,
            },
            None,
        )
    }
}
