//! The action deck's seats (RULES-deck 2, 6-7): each player's private
//! screen is his hand (`screens::hand`), with the plays the rules allow him
//! now; the table waits on his hand when he is asked whether they interrupt
//! or must remove a card for fatigue. An answer is taken only if his screen
//! offers it now: a phone never plays, answers or ends anything for the
//! other player.

use super::events::Event;
use super::game::{Command, Game};
use super::screens;
use super::turn::Stage;
use muster_core::error::{RuleError, refuse};
use muster_core::screen::{Reply, Screen};
use muster_core::seat::{Answer, Desk, Seated};
use muster_core::side::Side;

impl Seated for Game {
    type Command = Command;
    type Event = Event;
    type Request = ();

    fn seat_name(&self, side: Side) -> String {
        self.setup().name(side).to_string()
    }

    fn due(&self, side: Side, _desk: &Desk<()>) -> Option<String> {
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
    fn open_choice(&self, side: Side, _desk: &Desk<()>) -> Option<(String, serde_json::Value)> {
        let turn = self.public().turn.as_ref()?;
        (turn.stage == Stage::AskingInterrupt && side == turn.passive()).then(|| {
            let decline = Command::Interrupt {
                player: side,
                card: None,
            };
            (
                format!("{}: no interrupt", self.seat_name(side)),
                serde_json::to_value(decline).expect("a command always serializes"),
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

    fn screen(&self, side: Side, desk: &Desk<()>) -> Screen {
        desk.refused_first(screens::hand(self, side, &desk.values))
    }

    fn answer(
        &self,
        side: Side,
        desk: &Desk<()>,
        reply: &Reply,
    ) -> Result<Answer<Command>, RuleError> {
        if !screens::hand(self, side, &desk.values).offers(&reply.command) {
            return refuse(
                "seat",
                "That is not one of the actions your screen offers now",
            );
        }
        if serde_json::from_value::<screens::HandForm>(reply.command.clone()).is_ok() {
            let cards = screens::broken_cards(self, side, &reply.values)
                .map_err(|why| RuleError::new("RULES-deck 5", why))?;
            return Ok(Answer::spending(
                Command::UnitBreaks {
                    player: side,
                    cards,
                },
                &[screens::BROKEN],
            ));
        }
        serde_json::from_value(reply.command.clone())
            .map(Answer::command)
            .map_err(|e| RuleError::new("seat", format!("That answer is not a deck command: {e}")))
    }

    fn apply(&mut self, command: Command) -> Result<Vec<Event>, RuleError> {
        Game::apply(self, command)
    }
}
