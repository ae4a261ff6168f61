//! The turn (RULES-deck 6): players alternate as active and passive; a
//! turn's phases run in the card set's order (data; by default event, rally,
//! shooting, movement, combat, status). The active player declares each of
//! the rally, shooting, movement and combat phases or skips it; before a
//! declared phase begins the passive player may interrupt it, once per turn.
//! Events and interrupts played for their text stay in play until the
//! turn ends.

use super::phase::{Letter, PhaseName};
use super::zones::Zone;
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};
use std::fmt;

impl fmt::Display for PhaseName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether `player` may play a card for `use_` (laurels or rally) in a
/// declared phase of letter `letter` under way (RULES-deck 4).
pub fn may_play_for(use_: Use, letter: Letter, player: Side, active: Side) -> bool {
    match (use_, letter) {
        (Use::Rally, Letter::R) => player == active,
        (Use::Laurels, Letter::M) => player == active,
        // Both sides play laurels in shooting and combat (Muster's reading:
        // the shooting and combat rules, which it does not model, have both
        // sides play).
        (Use::Laurels, Letter::S | Letter::C) => true,
        _ => false,
    }
}

/// Where the turn stands within its phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// The event phase: the active player may play one event.
    Events,
    /// The active player says whether he plays the phase.
    Declaring,
    /// The passive player says whether they interrupt the declared phase.
    AskingInterrupt,
    /// The phase is under way: cards are played for laurels or rally.
    Playing,
    /// The status phase's redraw step: both players draw up to their hand,
    /// in the command that ends the phase before (nothing to decide).
    Redraw,
    /// The active player's fatigue step.
    Fatigue,
    /// Everything is done: the turn may end.
    Ending,
}

/// How a card is played (RULES-deck 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Use {
    Laurels,
    Rally,
    /// For its text, as an event or an interrupt.
    Text,
}

impl Use {
    pub fn name(self) -> &'static str {
        match self {
            Use::Laurels => "its laurels",
            Use::Rally => "its rally flags",
            Use::Text => "its text",
        }
    }
}

/// Discarded or removed after a play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Destination {
    Discard,
    Remove,
}

impl Destination {
    pub fn zone(self) -> Zone {
        match self {
            Destination::Discard => Zone::Discard,
            Destination::Remove => Zone::Removed,
        }
    }

    pub fn verb(self) -> &'static str {
        match self {
            Destination::Discard => "discarded",
            Destination::Remove => "removed",
        }
    }
}

/// A card in play, face up, until the turn ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InPlay {
    pub owner: Side,
    pub card: String,
    pub then: Destination,
}

/// The turn under way, as both players see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub number: u32,
    pub active: Side,
    /// Index into the card set's phase order.
    pub phase: usize,
    pub stage: Stage,
    pub event_played: bool,
    pub interrupt_played: bool,
    /// A `blocks_interrupts` event was played this turn.
    pub blocked: bool,
    /// Phases the active player declared they skip this turn.
    pub skipped: Vec<PhaseName>,
    pub in_play: Vec<InPlay>,
}

impl Turn {
    /// When the game ended, this being its last turn, in turns: a turn
    /// the ending left untouched (the last one ended and this one began on
    /// its own) is not counted.
    pub fn over_after(&self, phases: &[PhaseName]) -> String {
        let fresh = Turn::start(self.number, self.active, phases);
        match self.number {
            1 if *self == fresh => "The game is over before the first turn was played".into(),
            n if *self == fresh => format!("The game is over after turn {}", n - 1),
            n => format!("The game is over during turn {n}"),
        }
    }

    /// Turn `number` with `active` starting the first phase of `phases`.
    pub fn start(number: u32, active: Side, phases: &[PhaseName]) -> Turn {
        let mut turn = Turn {
            number,
            active,
            phase: 0,
            stage: Stage::Events,
            event_played: false,
            interrupt_played: false,
            blocked: false,
            skipped: Vec::new(),
            in_play: Vec::new(),
        };
        turn.stage = Turn::opening_stage(phases[0]);
        turn
    }

    pub fn passive(&self) -> Side {
        self.active.opponent()
    }

    /// Refuses `what` unless the turn stands at one of `stages`: an event
    /// read from a file is held to the same order of play as a command.
    pub fn expect(&self, stages: &[Stage], what: &str) -> Result<(), RuleError> {
        if stages.contains(&self.stage) {
            return Ok(());
        }
        refuse(
            "RULES-deck 6",
            format!(
                "{what} does not fit turn {} as it stands ({:?})",
                self.number, self.stage
            ),
        )
    }

    /// The stage a phase opens with.
    pub fn opening_stage(phase: PhaseName) -> Stage {
        match phase {
            PhaseName::Event => Stage::Events,
            PhaseName::Status => Stage::Redraw,
            _ => Stage::Declaring,
        }
    }

    /// Whether the passive player may still interrupt a phase this turn.
    pub fn interrupt_open(&self) -> bool {
        !self.interrupt_played && !self.blocked
    }
}
