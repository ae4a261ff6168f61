//! The action deck played from two machines (docs: "Playing remotely";
//! the rules reference's "Cards drawn from two machines"): each machine
//! holds its own player's key and zones only, so each command is decided
//! on the machine of the player who gives it (his plays, his draws for a
//! card's text, the active player's course of the turn), and the draws the
//! rules owe (opening hands, the redraw) on the machine of the player who
//! draws. Every pick hangs on a round of both machines' dice and on its
//! owner's committed secret (`muster_core::dice::hidden`), so neither
//! chooses a card and the other never learns one.
//!
//! The follower cannot decide an entry again (it cannot open the other's
//! cards), so it checks what both may see: that every event that changes a
//! player's cards is the giver's own, that every joint round is one opened
//! for it; the fold checks the counts, the turn's course, and that a card
//! played from a hand is one its player committed to as he drew it
//! (`crate::committed`). What only the owner's cards show (that each draw
//! is the one both machines' dice and his secret gave, that a card removed
//! face down is not played later) is checked when the game is over, from
//! his records opened (`audit`).

use super::events::{DrawReason, Event, RemoveReason};
use super::game::{Command, Entry, Game, Pick};
use super::zones::Zone;
use muster_core::dice::{AppDice, DiceInput, DiceSource, Roll};
use muster_core::error::{RuleError, refuse};
use muster_core::remote::Replica;
use muster_core::side::Side;

impl Replica for Game {
    type Entry = Entry;

    muster_core::chained_replica!(crate::files);

    fn decide(&self, command: &Command, dice: &mut AppDice) -> Result<Entry, RuleError> {
        Ok(Entry {
            events: self.decided(command, dice)?.0,
        })
    }

    fn append(&mut self, entry: Entry) -> Result<(), RuleError> {
        self.absorb(entry.events)
    }

    fn follow(&mut self, entry: Entry) -> Result<(), RuleError> {
        self.writable()?;
        self.checked(&entry)?;
        self.absorb(entry.events)
    }

    /// The rolls for who is active first, and each pick's round (no face:
    /// the card it gave is its owner's secret).
    fn rolls(entry: &Entry) -> Vec<Roll> {
        let pick = |joint: &Option<muster_core::dice::JointDice>| {
            joint.map(|j| Roll::new(Vec::new(), DiceSource::Joint(Box::new(j)), Vec::new()))
        };
        entry
            .events
            .iter()
            .flat_map(|e| match e {
                Event::FirstRollTied { south, north } => vec![south.clone(), north.clone()],
                Event::FirstPlayer {
                    rolls: Some(rolls), ..
                } => vec![rolls.south.clone(), rolls.north.clone()],
                Event::Drew { joint, .. }
                | Event::Played { joint, .. }
                | Event::Removed { joint, .. } => pick(joint).into_iter().collect(),
                _ => Vec::new(),
            })
            .collect()
    }

    fn given_by(&self, command: &Command) -> Option<Side> {
        let active = self.public().turn.as_ref().map(|t| t.active);
        match command {
            Command::ChooseFirst { .. } | Command::RollFirst { .. } => None,
            Command::PlayEvent { player, .. }
            | Command::Interrupt { player, .. }
            | Command::Play { player, .. }
            | Command::UnitBreaks { player, .. }
            | Command::RemoveFromHand { player, .. }
            | Command::DrawForText { player, .. }
            | Command::Reshuffle { player }
            | Command::GameOver { player } => Some(*player),
            Command::SetPassphrase { side, .. } => Some(*side),
            Command::Declare { .. }
            | Command::EndPhase
            | Command::EndPhaseThen { .. }
            | Command::Fatigue { .. }
            | Command::EndTurn => active,
            Command::Deal => self.forced_side(),
        }
    }

    /// A joiner's entry whose dice were drawn for it: the command each of
    /// his that draws shows (none names a card of his hand).
    fn bound(&self, entry: &Entry) -> Option<Command> {
        if self.forced().is_some() {
            return self.forced();
        }
        let app = DiceInput::app;
        // A draw may begin with the reshuffle it needs.
        let first = (entry.events.iter()).find(|e| !matches!(e, Event::Reshuffled { .. }));
        match first? {
            Event::FirstRollTied { .. } | Event::FirstPlayer { .. } => Some(Command::RollFirst {
                south: app(),
                north: app(),
            }),
            Event::Drew {
                player,
                count,
                why: DrawReason::Text(reason),
                ..
            } => Some(Command::DrawForText {
                player: *player,
                count: *count,
                reason: reason.clone(),
            }),
            Event::Removed {
                from: Zone::Deck,
                why: RemoveReason::Fatigue,
                ..
            } => Some(Command::Fatigue { card: None }),
            Event::Played {
                player,
                from: Zone::Deck,
                use_,
                to,
                ..
            } => {
                let turn = self.public().turn.as_ref()?;
                let phase = self.set().phases[turn.phase];
                let (_, use_, to) = crate::screens::uses(turn, *player, phase)
                    .into_iter()
                    .find(|(_, u, t)| u == use_ && t.is_none_or(|t| t == *to))?;
                Some(Command::Play {
                    player: *player,
                    card: Pick::Deck,
                    use_,
                    to,
                })
            }
            _ => None,
        }
    }

    fn decided_by(&self, command: &Command) -> Option<Side> {
        match command {
            Command::Deal => self.forced_side(),
            _ => None,
        }
    }

    fn given_in(&self, entry: &Entry) -> Option<Side> {
        if let Some(side) = self.forced_side() {
            return Some(side);
        }
        let active = self.public().turn.as_ref().map(|t| t.active);
        match entry.events.first()? {
            Event::FirstRollTied { .. } | Event::FirstPlayer { .. } => None,
            Event::GameOver { player } => Some(*player),
            Event::LockSet { side, .. } => Some(*side),
            Event::Declared { .. }
            | Event::PhaseEnded { .. }
            | Event::TurnEnded { .. }
            | Event::Redrawn
            | Event::ToDraw { .. } => active,
            e => e.player(),
        }
    }

    fn forced_in(&self, _: &Entry) -> bool {
        self.forced().is_some()
    }

    fn decided_in(&self, _: &Entry) -> Option<Side> {
        self.forced_side()
    }

    fn seat_remote(&mut self, side: Side) {
        self.ledger_mut().seat_remote(side);
        self.forget_zones(side);
    }

    fn over(&self) -> bool {
        self.public().ended()
    }
}

impl Game {
    /// What the machine that follows an entry checks of it before the fold
    /// (the module's doc): every joint die and round, and that it changes
    /// the cards of its giver only.
    fn checked(&self, entry: &Entry) -> Result<(), RuleError> {
        muster_core::dice::check_joint(self.id(), &Self::rolls(entry))?;
        let Some(giver) = self.given_in(entry) else {
            return Ok(());
        };
        let name = |side: Side| self.setup().name(side).to_string();
        for event in &entry.events {
            // A card from the deck comes by both machines' dice.
            let alone = match event {
                Event::Drew { joint, .. } => joint.is_none(),
                Event::Played {
                    joint,
                    from: Zone::Deck,
                    ..
                }
                | Event::Removed {
                    joint,
                    from: Zone::Deck,
                    ..
                } => joint.is_none(),
                _ => false,
            };
            if alone {
                return refuse(
                    "RULES-deck 3",
                    "a card was drawn by one machine alone, not by both machines' dice as every draw of a remote game is: a card was chosen; nothing was taken",
                );
            }
            let whose = match event {
                Event::LockSet { side, .. } => Some(*side),
                Event::GameOver { player } => Some(*player),
                e => e.player(),
            };
            if let Some(whose) = whose.filter(|w| *w != giver) {
                return refuse(
                    "RULES-deck 2",
                    format!(
                        "{} decided on {} machine changes {} cards, which are not theirs",
                        name(giver),
                        muster_core::text::possessive(&name(giver)),
                        muster_core::text::possessive(&name(whose))
                    ),
                );
            }
        }
        Ok(())
    }
}
