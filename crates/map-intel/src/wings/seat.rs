//! Dummy wings' seats (RULES-map-intel B2-B4): each player's private
//! screen is his counters (`screens::counters`), from his own view: what
//! each leader stands for, its allowance, and the set-up or move form. A
//! hex he taps fills the form's next hex or extends the path he traces; a
//! counter he drags traces that counter's path (B4 ruling c).

use super::events::Event;
use super::game::{Command, Game};
use super::screens;
use muster_core::error::RuleError;
use muster_core::hexmap::Hex;
use muster_core::screen::{Reply, Screen, Values};
use muster_core::seat::{Answer, Desk, Seated};
use muster_core::side::Side;

/// A counter placed or moved: its hexes and units are spent.
const SPENT: &[&str] = &["leader", "dis1", "dis2", "next", "units", "detached"];

impl Seated for Game {
    type Command = Command;
    type Event = Event;
    type Request = ();

    fn seat_name(&self, side: Side) -> String {
        self.setup().name(side)
    }

    /// His counters are looked at when he likes: nothing waits on them.
    fn due(&self, _side: Side, _desk: &Desk<()>) -> Option<String> {
        None
    }

    muster_core::ledger_locks!();

    fn secrets(&self) -> &'static str {
        "my counters"
    }

    fn screen(&self, side: Side, desk: &Desk<()>) -> Screen {
        let seen = self.view(side);
        desk.refused_first(screens::counters(self, &seen, side, &desk.values))
    }

    fn answer(
        &self,
        side: Side,
        _desk: &Desk<()>,
        reply: &Reply,
    ) -> Result<Answer<Command>, RuleError> {
        screens::answer(self, side, reply).map(|c| Answer::spending(c, SPENT))
    }

    fn tapped(&self, _side: Side, values: &mut Values, hex: Hex) {
        screens::clicked(self, values, hex);
    }

    fn dragged(&self, side: Side, values: &mut Values, from: Hex, path: &[Hex]) -> bool {
        screens::dragged(self, side, values, from, path)
    }

    fn apply(&mut self, command: Command) -> Result<Vec<Event>, RuleError> {
        Game::apply(self, command)
    }
}
