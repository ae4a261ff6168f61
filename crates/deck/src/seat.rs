//! The action deck's seats (RULES-deck 2, 6-7): each player's private
//! screen is his hand (`screens::hand`), with the plays the rules allow him
//! now; the table waits on his hand when he is asked whether they interrupt
//! or must remove a card for fatigue. An answer is taken only if his screen
//! offers it now: a phone never plays, answers or ends anything for the
//! other player.

use super::events::Event;
use super::game::{Command, Game};
use super::screens;
use super::screens::{HandAct, HandField};
use super::turn::Stage;
use muster_core::error::{RuleError, refuse};
use muster_core::seat::{Answer, Part, ReplyOf, Screen, Seated, Sitting};
use muster_core::side::Side;

impl Seated for Game {
    type Command = Command;
    type Event = Event;
    type Request = ();
    type Act = HandAct;
    type Field = HandField;

    fn seat_name(&self, side: Side) -> String {
        self.setup().name(side).to_string()
    }

    fn due(&self, side: Side, _at: Sitting<'_, Self>) -> Option<String> {
        let turn = self.public().turn.as_ref()?;
        match turn.stage {
            Stage::AskingInterrupt if side == turn.passive() => {
                Some("decides whether they interrupt".into())
            }
            Stage::Fatigue if side == turn.active => Some("removes a card (fatigue)".into()),
            _ => None,
        }
    }

    muster_core::ledger_locks!();

    /// "No interrupt", on his hand-over screen (issue 39): any passive
    /// player may decline whatever he holds, so declining in the open
    /// tells nothing and needs no hand-over.
    fn open_choice(&self, side: Side, _at: Sitting<'_, Self>) -> Option<(String, HandAct)> {
        let turn = self.public().turn.as_ref()?;
        (turn.stage == Stage::AskingInterrupt && side == turn.passive()).then(|| {
            let decline = Command::Interrupt {
                player: side,
                card: None,
            };
            (
                format!("{}: no interrupt", self.seat_name(side)),
                HandAct::Play(decline),
            )
        })
    }

    fn secrets(&self) -> &'static str {
        "my cards"
    }

    fn stays_open(&self, side: Side) -> bool {
        self.public().turn.as_ref().is_some_and(|turn| {
            side == turn.passive()
                && turn.stage != Stage::AskingInterrupt
                && screens::passive_plays(self, turn)
        })
    }

    /// The active player's turn (RULES-deck 6): his, but the interrupt
    /// question is the passive player's, and both play laurels in shooting
    /// and combat. Over, no part is anyone's.
    fn part(&self) -> Option<Part> {
        let turn = self
            .public()
            .turn
            .as_ref()
            .filter(|_| !self.public().ended())?;
        let phase = self.set().phases[turn.phase];
        let active = self.seat_name(turn.active);
        if turn.stage == Stage::AskingInterrupt {
            return Some(Part::of(
                turn.passive(),
                format!(
                    "{} deciding whether they interrupt the {phase} phase",
                    self.seat_name(turn.passive())
                ),
            ));
        }
        let words = format!(
            "{} turn {}, the {phase} phase",
            muster_core::text::possessive(&active),
            turn.number
        );
        Some(
            if turn.stage == Stage::Playing && screens::passive_plays(self, turn) {
                Part::both(words)
            } else {
                Part::of(turn.active, words)
            },
        )
    }

    fn screen(&self, side: Side, at: Sitting<'_, Self>) -> Screen<Self> {
        at.refused_first(screens::hand(self, side, &at.form))
    }

    fn answer(
        &self,
        side: Side,
        at: Sitting<'_, Self>,
        reply: &ReplyOf<Self>,
    ) -> Result<Answer<Self>, RuleError> {
        if !screens::hand(self, side, &at.form).offers(&reply.command) {
            return refuse(
                "seat",
                "That is not one of the actions your screen offers now",
            );
        }
        match &reply.command {
            HandAct::Play(command) => Ok(Answer::command(command.clone())),
            HandAct::UnitBreaks => {
                let cards = screens::broken_cards(self, side, &reply.values)
                    .map_err(|why| RuleError::new("RULES-deck 5", why))?;
                Ok(Answer::spending(
                    Command::UnitBreaks {
                        player: side,
                        cards,
                    },
                    &[HandField::Broken],
                ))
            }
        }
    }

    fn apply(&mut self, command: Command) -> Result<Vec<Event>, RuleError> {
        Game::apply(self, command)
    }

    /// An owed draw whose key is not held here waits for its player's
    /// machine; one that is held was made by `apply`, or failed there and
    /// is tried again, the failure recorded.
    fn forced(&self) -> Option<Command> {
        Game::forced(self)
    }

    /// A player who began without a passphrase sets his on his own machine.
    fn set_lock(
        &mut self,
        side: Side,
        lock: muster_core::intel::Lock,
        key: muster_core::intel::PlayerKey,
    ) -> Result<Command, RuleError> {
        self.ledger_mut().prepare_lock(side, key)?;
        Ok(Command::SetPassphrase { side, lock })
    }
}
