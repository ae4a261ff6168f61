//! The turn's course, command by command (RULES-deck 3, 5, 6;
//! `docs/src/rules/deck.md`): who is active first, declaring or skipping a
//! phase, ending it, the fatigue step, removals and draws a card's text
//! or a broken unit calls for, no voluntary reshuffle, and the turn's end.

use super::Command;
use super::work::Work;
use crate::events::{DrawReason, Event, RemoveReason};
use crate::turn::Stage;
use crate::zones::Zone;
use muster_core::dice::roll;
use muster_core::error::{RuleError, refuse};
use muster_core::side::{Side, Sides};

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

impl Work<'_> {
    pub(super) fn decide(&mut self, command: &Command) -> Result<(), RuleError> {
        if let (Some((side, _)), false) = (self.public.to_draw.first(), command == &Command::Deal) {
            return refuse(
                "RULES-deck 3",
                format!("{} draws first: the rules owe it", self.name(*side)),
            );
        }
        match command {
            Command::Deal => self.deal(),
            Command::SetPassphrase { side, lock } => self.set_passphrase(*side, lock),
            Command::GameOver { player } => self.push(Event::GameOver { player: *player }, None),
            Command::ChooseFirst { active } => {
                self.not_started()?;
                self.push(
                    Event::FirstPlayer {
                        active: *active,
                        rolls: None,
                    },
                    None,
                )?;
                self.opening_draw()
            }
            Command::RollFirst { south, north } => {
                self.not_started()?;
                let south = roll(
                    south,
                    1,
                    "South's roll for who is active first",
                    self.dealer,
                    vec![],
                )?;
                let north = roll(
                    north,
                    1,
                    "North's roll for who is active first",
                    self.dealer,
                    vec![],
                )?;
                if south.total == north.total {
                    return self.push(Event::FirstRollTied { south, north }, None);
                }
                let active = if south.total > north.total {
                    Side::South
                } else {
                    Side::North
                };
                self.push(
                    Event::FirstPlayer {
                        active,
                        rolls: Some(Sides { south, north }),
                    },
                    None,
                )?;
                self.opening_draw()
            }
            Command::PlayEvent { player, card } => self.play_event(*player, card),
            Command::Declare { plays } => {
                self.not_asking()?;
                let turn = self.turn()?;
                let phase = self.phase()?;
                if turn.stage != Stage::Declaring {
                    return refuse(
                        "RULES-deck 6",
                        format!("The {phase} phase is not waiting to be declared"),
                    );
                }
                self.push(
                    Event::Declared {
                        phase,
                        plays: *plays,
                    },
                    None,
                )?;
                self.status_begins()
            }
            Command::Interrupt { player, card } => self.interrupt(*player, card.as_deref()),
            Command::Play {
                player,
                card,
                use_,
                to,
            } => self.play(*player, card, *use_, *to),
            Command::EndPhase => {
                self.not_asking()?;
                let turn = self.turn()?;
                let phase = self.phase()?;
                match turn.stage {
                    Stage::Events | Stage::Playing => {
                        self.push(Event::PhaseEnded { phase }, None)?;
                        self.status_begins()
                    }
                    Stage::Declaring => refuse(
                        "RULES-deck 6",
                        format!("Declare the {phase} phase or skip it first"),
                    ),
                    Stage::Redraw | Stage::Fatigue => refuse(
                        "RULES-deck 5",
                        "The status phase ends with the fatigue step",
                    ),
                    Stage::AskingInterrupt | Stage::Ending => refuse(
                        "RULES-deck 6",
                        "Every phase of this turn is done: end the turn",
                    ),
                }
            }
            Command::EndPhaseThen { plays } => {
                self.decide(&Command::EndPhase)?;
                self.decide(&Command::Declare { plays: *plays })
            }
            Command::Fatigue { card } => {
                let turn = self.turn()?;
                if turn.stage != Stage::Fatigue {
                    return refuse(
                        "RULES-deck 5",
                        "The fatigue step comes after the redraw in the status phase",
                    );
                }
                let active = turn.active;
                match card {
                    Some(id) => {
                        self.in_hand(active, id)?;
                        self.remove(active, Zone::Hand, vec![id.clone()], RemoveReason::Fatigue)
                    }
                    None => {
                        if !self.zones(active)?.hand.is_empty() {
                            return refuse(
                                "RULES-deck 5",
                                format!(
                                    "{} removes a card of their choice from their hand; the deck's top card only when their hand is empty",
                                    self.name(active)
                                ),
                            );
                        }
                        let cards: Vec<String> = self.top_card(active)?.into_iter().collect();
                        self.remove(active, Zone::Deck, cards, RemoveReason::Fatigue)
                    }
                }
            }
            Command::UnitBreaks { player, cards } => {
                self.turn()?;
                if cards.is_empty() {
                    return refuse("RULES-deck 5", "Say which cards the broken unit costs");
                }
                let mut hand = self.zones(*player)?.clone();
                for id in cards {
                    self.card(id)?;
                    hand.take(id, Zone::Hand, None).map_err(|_| {
                        RuleError::new(
                            "RULES-deck 5",
                            format!(
                                "{} has not that many {} in their hand",
                                self.name(*player),
                                id
                            ),
                        )
                    })?;
                }
                self.remove(*player, Zone::Hand, cards.clone(), RemoveReason::UnitBroke)
            }
            Command::RemoveFromHand {
                player,
                card,
                reason,
            } => {
                self.turn()?;
                if reason.trim().is_empty() {
                    return refuse(
                        "RULES-deck 5",
                        "Give the event or rule that removes the card",
                    );
                }
                self.in_hand(*player, card)?;
                self.remove(
                    *player,
                    Zone::Hand,
                    vec![card.clone()],
                    RemoveReason::Other(reason.trim().to_string()),
                )
            }
            Command::DrawForText {
                player,
                count,
                reason,
            } => {
                self.turn()?;
                if reason.trim().is_empty() {
                    return refuse("RULES-deck 3", "Give the card or rule that lets them draw");
                }
                let hand = self.zones(*player)?.hand.len();
                let size = self.hand_size(*player);
                // Checked: a count typed or read from a file near usize::MAX
                // must not wrap past the hand-size check.
                if *count == 0 || hand.checked_add(*count).is_none_or(|n| n > size) {
                    return refuse(
                        "RULES-deck 3",
                        format!(
                            "{} holds {hand} of {size} cards: drawing {count} would take their hand over its size",
                            self.name(*player)
                        ),
                    );
                }
                self.draw(*player, *count, DrawReason::Text(reason.trim().to_string()))
            }
            Command::Reshuffle { player } => {
                let deck = self.public.counts[*player].deck;
                if deck > 0 {
                    refuse(
                        "RULES-deck 3",
                        format!(
                            "No voluntary reshuffle: {}'s deck still holds {deck} card{}",
                            self.name(*player),
                            plural(deck)
                        ),
                    )
                } else {
                    refuse(
                        "RULES-deck 3",
                        "A reshuffle happens by itself when a card must be drawn from an empty deck, never before",
                    )
                }
            }
            Command::EndTurn => {
                let turn = self.turn()?;
                if turn.stage != Stage::Ending {
                    return refuse(
                        "RULES-deck 6",
                        format!(
                            "The turn ends after its last phase; it is in the {} phase",
                            self.phase()?
                        ),
                    );
                }
                let number = turn.number;
                self.push(Event::TurnEnded { number }, None)
            }
        }
    }

    fn not_started(&self) -> Result<(), RuleError> {
        if self.public.turn.is_some() {
            return refuse("RULES-deck 6", "Who is active first is already settled");
        }
        Ok(())
    }
}

impl Work<'_> {
    /// `side` sets the passphrase he began without (rules reference: "A
    /// passphrase set during the game"): his draws from now on are sealed
    /// under it, and his picks hang on a new secret it gives. What he drew
    /// before was sealed under no passphrase. Not a move: between steps.
    fn set_passphrase(
        &mut self,
        side: Side,
        lock: &muster_core::intel::Lock,
    ) -> Result<(), RuleError> {
        let key = muster_core::chained_game::lock_key(self.new_key.as_ref(), self.name(side))?;
        let picks = muster_core::dice::hidden::PickCommitment::new(&key)?;
        self.push(
            Event::LockSet {
                side,
                lock: lock.clone(),
                picks,
            },
            None,
        )
    }
}
