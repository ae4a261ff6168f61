//! A command being decided (RULES-deck 3-6, `docs/src/rules/deck.md`):
//! a copy of the game's state that each event is folded into as it is
//! made, and what every rule asks of it: whose zones are open, the turn and
//! phase under way, the card named and whether it is in the hand.

use super::replay::{fold_zones, place};
use crate::cards::{Card, CardSet};
use crate::committed::Drawn;
use crate::events::{Event, Public, SEALED_BYTES};
use crate::phase::PhaseName;
use crate::setup::Setup;
use crate::turn::{Stage, Turn};
use crate::zones::Zones;
use muster_core::dice::hidden::{self, PickSecret};
use muster_core::dice::{AppDice, JointDice};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::{SealKey, Sealed};
use muster_core::side::{Side, Sides};

/// A command being decided: a copy of the state that each event is folded
/// into as it is made, so a command's later events see its earlier ones.
pub(super) struct Work<'a> {
    /// The game's id and the entry being made: where a sealed record goes.
    pub(super) game: &'a str,
    pub(super) entry: usize,
    pub(super) setup: &'a Setup,
    pub(super) public: Public,
    pub(super) zones: Sides<Option<Zones>>,
    pub(super) keys: &'a Sides<Option<SealKey>>,
    pub(super) dealer: &'a mut AppDice,
    pub(super) events: Vec<Event>,
    /// Picks made so far from this entry's round of both machines' dice,
    /// and the round the last came from.
    pub(super) picks: u64,
    pub(super) joint: Option<JointDice>,
    /// The sealing key of a passphrase being set (`SetPassphrase`).
    pub(super) new_key: Option<SealKey>,
}

impl Work<'_> {
    pub(super) fn name(&self, side: Side) -> &str {
        self.setup.name(side)
    }

    pub(super) fn set(&self) -> &CardSet {
        &self.setup.set
    }

    pub(super) fn push(
        &mut self,
        event: Event,
        opened: Option<&[String]>,
    ) -> Result<(), RuleError> {
        let turn = self.public.turn.clone();
        for side in Side::BOTH {
            if let Some(zones) = &mut self.zones[side] {
                let mine = opened.filter(|_| event.player() == Some(side));
                fold_zones(zones, side, &event, mine, turn.as_ref())?;
            }
        }
        self.public.fold(&self.setup.set, &event)?;
        self.events.push(event);
        Ok(())
    }

    pub(super) fn zones(&self, side: Side) -> Result<&Zones, RuleError> {
        self.zones[side].as_ref().ok_or_else(|| {
            RuleError::new(
                "trust",
                format!("{} must unlock their cards first", self.name(side)),
            )
        })
    }

    pub(super) fn seal(&self, side: Side, cards: &[String]) -> Result<Sealed, RuleError> {
        let key = self.key(side)?;
        // Sealed for the event pushed next.
        let place = place(self.game, side, self.entry, self.events.len());
        Sealed::seal(&place, &cards.to_vec(), key, SEALED_BYTES)
            .map_err(|e| RuleError::new("trust", e.to_string()))
    }

    /// One of the `n` cards of `side`'s deck, as the dealer picks it: from
    /// two machines, from both machines' round and his secret, which the
    /// other machine lacks (`muster_core::dice::hidden`); and the round.
    pub(super) fn pick(
        &mut self,
        side: Side,
        n: usize,
    ) -> Result<(usize, Option<JointDice>), RuleError> {
        let AppDice::Joint(round) = &*self.dealer else {
            return Ok((self.dealer.pick(n)?, None));
        };
        let joint = JointDice {
            round: round.number,
            host: round.host,
            joiner: round.joiner,
        };
        let secret = self.secret(side)?;
        let i = hidden::pick(&secret, self.game, &joint, self.picks, n);
        self.picks += 1;
        Ok((i, Some(joint)))
    }

    /// `side`'s secret for his picks from two machines.
    pub(super) fn secret(&self, side: Side) -> Result<PickSecret, RuleError> {
        let no_secret = || {
            RuleError::new(
                "RULES-deck 3",
                format!(
                    "{}'s cards cannot be drawn from two machines: this game was begun before such draws (play it at one table)",
                    self.name(side)
                ),
            )
        };
        let commitment = self.public.picks[side].as_ref().ok_or_else(no_secret)?;
        commitment.secret(self.key(side)?).ok_or_else(no_secret)
    }

    fn key(&self, side: Side) -> Result<&SealKey, RuleError> {
        self.keys[side].as_ref().ok_or_else(|| {
            RuleError::new("trust", format!("{} must unlock first", self.name(side)))
        })
    }

    /// What `card`, played from `side`'s hand, shows of the draw that
    /// brought it (`crate::committed`): none for a card drawn at one table.
    pub(super) fn drawn(&self, side: Side, card: &str) -> Result<Option<Drawn>, RuleError> {
        let key = self.key(side)?;
        let committed = &self.public.committed[side];
        let shown = committed.show(self.game, card, |c| c.secret_under(key));
        if shown.is_none() && committed.all_committed() {
            return Err(RuleError::new(
                "trust",
                format!(
                    "{}'s {card} matches none of the cards committed as they were drawn: their key is not the one they drew with",
                    self.name(side)
                ),
            ));
        }
        Ok(shown)
    }

    pub(super) fn turn(&self) -> Result<&Turn, RuleError> {
        self.public.turn.as_ref().ok_or_else(|| {
            RuleError::new(
                "RULES-deck 6",
                "The game has not started: settle who is active first",
            )
        })
    }

    pub(super) fn phase(&self) -> Result<PhaseName, RuleError> {
        Ok(self.set().phases[self.turn()?.phase])
    }

    /// Refuses anything while the passive player is being asked.
    pub(super) fn not_asking(&self) -> Result<(), RuleError> {
        let turn = self.turn()?;
        if turn.stage == Stage::AskingInterrupt {
            return refuse(
                "RULES-deck 6",
                format!(
                    "{} must first say whether they interrupt the {} phase",
                    self.name(turn.passive()),
                    self.phase()?
                ),
            );
        }
        Ok(())
    }

    pub(super) fn card(&self, id: &str) -> Result<&Card, RuleError> {
        self.set()
            .card(id)
            .ok_or_else(|| RuleError::new("RULES-deck 1", format!("No card has the id {id}")))
    }

    pub(super) fn in_hand(&self, side: Side, id: &str) -> Result<(), RuleError> {
        self.card(id)?;
        if !self.zones(side)?.hand.iter().any(|c| c == id) {
            return refuse(
                "RULES-deck 3",
                format!(
                    "{} has no {} in their hand",
                    self.name(side),
                    self.card(id)?.title
                ),
            );
        }
        Ok(())
    }
}
