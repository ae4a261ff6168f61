//! Playing a card (RULES-deck 4, 6; `docs/src/rules/deck.md`): the turn's
//! one event, the passive player's one interrupt at the start of its phase,
//! and cards played for laurels or rally in a declared phase, from the hand
//! or the deck's top, each to the destination the rules give it.

use super::Pick;
use super::work::Work;
use crate::cards::Kind;
use crate::events::Event;
use crate::phase::Letter;
use crate::turn::{Destination, Stage, Use, may_play_for};
use crate::zones::Zone;
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;

impl Work<'_> {
    /// `id` from `player`'s hand played for its text, in play until the
    /// turn ends, then to `to`.
    pub(super) fn play_text(
        &mut self,
        player: Side,
        id: &str,
        to: Destination,
    ) -> Result<(), RuleError> {
        self.in_hand(player, id)?;
        let drawn = self.drawn(player, id)?;
        self.push(
            Event::Played {
                player,
                card: id.to_string(),
                from: Zone::Hand,
                use_: Use::Text,
                to,
                in_play: true,
                joint: None,
                drawn,
            },
            None,
        )
    }

    pub(super) fn play_event(&mut self, player: Side, id: &str) -> Result<(), RuleError> {
        self.not_asking()?;
        let turn = self.turn()?;
        let card = self.card(id)?;
        if player != turn.active {
            return refuse(
                "RULES-deck 6",
                format!(
                    "Only the active player ({}) plays events",
                    self.name(turn.active)
                ),
            );
        }
        if turn.stage != Stage::Events {
            return refuse(
                "RULES-deck 6",
                format!(
                    "An event is played in the event phase; this is the {} phase",
                    self.phase()?
                ),
            );
        }
        if turn.event_played {
            return refuse(
                "RULES-deck 6",
                "One event per event phase: this turn's event is played",
            );
        }
        if card.kind != Kind::Event {
            return refuse("RULES-deck 6", format!("{} is not an event", card.title));
        }
        let to = if card.trash {
            Destination::Remove
        } else {
            Destination::Discard
        };
        self.play_text(player, id, to)
    }

    pub(super) fn interrupt(&mut self, player: Side, id: Option<&str>) -> Result<(), RuleError> {
        let turn = self.turn()?.clone();
        if player == turn.active {
            return refuse("RULES-deck 6", "The active player never plays interrupts");
        }
        let phase = self.phase()?;
        let Some(id) = id else {
            if turn.stage != Stage::AskingInterrupt {
                return refuse("RULES-deck 6", "Nobody is asking for an interrupt now");
            }
            return self.push(Event::NoInterrupt { player }, None);
        };
        let card = self.card(id)?;
        if card.kind != Kind::Interrupt {
            return refuse(
                "RULES-deck 6",
                format!("{} is not an interrupt", card.title),
            );
        }
        let letter = card
            .phase
            .expect("an interrupt has its letter (checked at load)");
        let title = card.title.clone();
        let to = if card.trash {
            Destination::Remove
        } else {
            Destination::Discard
        };
        if turn.interrupt_played {
            return refuse(
                "RULES-deck 6",
                "Only one interrupt per turn: this turn's is played",
            );
        }
        if turn.blocked {
            return refuse(
                "RULES-deck 6",
                "No interrupt may be played in a turn whose event forbids them",
            );
        }
        let named = letter.phase();
        if turn.skipped.contains(&named) {
            return refuse(
                "RULES-deck 6",
                format!(
                    "{} declared they skip the {named} phase: no interrupt for it",
                    self.name(turn.active)
                ),
            );
        }
        if turn.stage != Stage::AskingInterrupt {
            return refuse(
                "RULES-deck 6",
                format!(
                    "{title} is played at the start of the {named} phase, before the active player begins it"
                ),
            );
        }
        if phase.letter() != Some(letter) {
            return refuse(
                "RULES-deck 6",
                format!(
                    "{title} interrupts the {named} phase ({letter}); this is the {phase} phase"
                ),
            );
        }
        self.play_text(player, id, to)
    }

    pub(super) fn play(
        &mut self,
        player: Side,
        pick: &Pick,
        use_: Use,
        to: Option<Destination>,
    ) -> Result<(), RuleError> {
        self.not_asking()?;
        let turn = self.turn()?.clone();
        let phase = self.phase()?;
        if use_ == Use::Text {
            return refuse(
                "RULES-deck 6",
                "A card is played for its text as this turn's event or as an interrupt",
            );
        }
        if turn.stage != Stage::Playing {
            return refuse(
                "RULES-deck 4",
                format!(
                    "Cards are played for laurels or rally in a declared phase under way; this is the {phase} phase"
                ),
            );
        }
        let letter = phase.letter().expect("a phase under way has a letter");
        if !may_play_for(use_, letter, player, turn.active) {
            let why = match (use_, letter) {
                (Use::Rally, _) if letter != Letter::R => {
                    format!("Rally flags are played in the rally phase; this is the {phase} phase")
                }
                (Use::Laurels, Letter::R) => {
                    "Laurels are played in the movement, shooting or combat phase".to_string()
                }
                _ => format!(
                    "Only the active player ({}) plays cards in the {phase} phase",
                    self.name(turn.active)
                ),
            };
            return refuse("RULES-deck 4", why);
        }
        let destination = match (use_, letter) {
            (Use::Rally, _) => {
                let d = if self.set().rally_removes {
                    Destination::Remove
                } else {
                    Destination::Discard
                };
                if to.is_some_and(|t| t != d) {
                    return refuse(
                        "RULES-deck 4",
                        format!("A card played for rally is {} (card set ruling)", d.verb()),
                    );
                }
                d
            }
            (Use::Laurels, Letter::S | Letter::C) => to.ok_or_else(|| {
                RuleError::new(
                    "RULES-deck 4",
                    format!(
                        "Say whether the card played for laurels in {phase} is discarded or removed"
                    ),
                )
            })?,
            _ => {
                if to == Some(Destination::Remove) {
                    return refuse("RULES-deck 4", "Laurels played in movement are discarded");
                }
                Destination::Discard
            }
        };
        let (card, from, drawn) = match pick {
            Pick::Hand(id) => {
                self.in_hand(player, id)?;
                (id.clone(), Zone::Hand, self.drawn(player, id)?)
            }
            Pick::Deck => match self.top_card(player)? {
                Some(card) => (card, Zone::Deck, None),
                None => {
                    return refuse(
                        "RULES-deck 3",
                        format!(
                            "{}'s deck and discard pile are both empty",
                            self.name(player)
                        ),
                    );
                }
            },
        };
        self.push(
            Event::Played {
                player,
                card,
                from,
                use_,
                to: destination,
                in_play: false,
                joint: if from == Zone::Deck { self.joint } else { None },
                drawn,
            },
            None,
        )
    }
}
