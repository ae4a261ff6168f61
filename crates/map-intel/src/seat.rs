//! Hidden forces' seats (RULES-map-intel 0, A1-A5): each player's private
//! screen is his ledger (`screens::ledger`), built from his own view: what
//! each of his counters and holding areas holds, and the regrouping form.
//! A hex he taps on his map goes into the form; an answer becomes a
//! command only as his own (`screens::answer`), which the rules check.

use super::events::Event;
use super::game::{Command, Game};
use super::map::Hex;
use super::screens;
use muster_core::error::RuleError;
use muster_core::screen::{Reply, Screen, Values};
use muster_core::seat::{Answer, Desk, Seated};
use muster_core::side::Side;

impl Seated for Game {
    type Command = Command;
    type Event = Event;
    type Request = ();

    fn seat_name(&self, side: Side) -> String {
        self.setup().name(side)
    }

    /// A ledger is looked at when its player likes: nothing waits on it.
    fn due(&self, _side: Side, _desk: &Desk<()>) -> Option<String> {
        None
    }

    muster_core::ledger_locks!();

    fn secrets(&self) -> &'static str {
        "my ledger"
    }

    fn screen(&self, side: Side, desk: &Desk<()>) -> Screen {
        let view = self.view(side);
        desk.refused_first(screens::ledger(self, &view, side, &desk.values))
    }

    /// The units moved are no longer where they were ticked.
    fn answer(
        &self,
        side: Side,
        _desk: &Desk<()>,
        reply: &Reply,
    ) -> Result<Answer<Command>, RuleError> {
        screens::answer(self, side, reply).map(|c| Answer::spending(c, &["units"]))
    }

    fn tapped(&self, _side: Side, values: &mut Values, hex: Hex) {
        values.insert("hex".into(), vec![hex.to_string()]);
    }

    fn apply(&mut self, command: Command) -> Result<Vec<Event>, RuleError> {
        Game::apply(self, command)
    }
}
