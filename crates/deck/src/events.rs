//! What the deck's log records (RULES-deck 3-6), and the public state both
//! players see, folded from it.
//!
//! An event names a card only when both players saw it (a card played).
//! Cards that stay face down (drawn into a hand, removed from a hand or
//! the deck) are in a sealed record under their owner's key, padded to one
//! size: the log says how many, never which.

use super::cards::CardSet;
use super::cards::Kind;
use super::committed::{Committed, Drawn};
use super::phase::PhaseName;
use super::turn::{Destination, InPlay, Stage, Turn, Use, may_play_for};
use super::zones::{Counts, Zone};
use muster_core::dice::hidden::{PickCommitment, Token};
use muster_core::dice::{JointDice, Roll};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::{Lock, Sealed};
use muster_core::side::{Side, Sides};
use serde::{Deserialize, Serialize};

/// Why cards were drawn into a hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawReason {
    /// The start of the game (RULES-deck 3, ruling).
    Opening,
    /// The status phase's redraw step.
    Redraw,
    /// A card's text or a rule, as the player put it.
    Text(String),
}

/// Why cards were removed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RemoveReason {
    /// The active player's fatigue step (RULES-deck 5).
    Fatigue,
    /// One of the player's units broke.
    UnitBroke,
    /// An event or a rule, as the player put it.
    Other(String),
}

/// The ids in a sealed draw or removal.
pub type Hidden = Vec<String>;

/// Bytes every sealed draw or removal is padded to: 12 ids of 24
/// characters and the blinding value fit with room to spare.
pub const SEALED_BYTES: usize = 512;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// Both rolled the same for who is active first: roll again.
    FirstRollTied {
        south: Roll,
        north: Roll,
    },
    FirstPlayer {
        active: Side,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rolls: Option<Sides<Roll>>,
    },
    Drew {
        player: Side,
        count: usize,
        why: DrawReason,
        cards: Sealed,
        /// The round of both machines' dice its picks hang on, from two
        /// machines (`muster_core::dice::hidden`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        joint: Option<JointDice>,
        /// From two machines, each card committed one by one
        /// (`crate::committed`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tokens: Vec<Token>,
    },
    /// The deck ran out mid-draw: the discards became the deck.
    Reshuffled {
        player: Side,
        cards: usize,
    },
    /// Deck and discard pile both empty: `short` cards were not drawn.
    RanOut {
        player: Side,
        short: usize,
    },
    Declared {
        phase: PhaseName,
        plays: bool,
    },
    NoInterrupt {
        player: Side,
    },
    Played {
        player: Side,
        card: String,
        from: Zone,
        #[serde(rename = "use")]
        use_: Use,
        to: Destination,
        /// Events and interrupts stay in play until the turn ends.
        in_play: bool,
        /// The deck's top card, picked from two machines: the round its
        /// pick hangs on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        joint: Option<JointDice>,
        /// A card from the hand: the draw that brought it, shown
        /// (`crate::committed`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        drawn: Option<Drawn>,
    },
    Removed {
        player: Side,
        from: Zone,
        count: usize,
        why: RemoveReason,
        cards: Sealed,
        /// The deck's top card, picked from two machines: the round its
        /// pick hangs on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        joint: Option<JointDice>,
    },
    /// Both players have drawn up to their hands: the fatigue step follows.
    Redrawn,
    PhaseEnded {
        phase: PhaseName,
    },
    TurnEnded {
        number: u32,
    },
    /// A player agrees the game is over; once both have, nothing more is
    /// played and *Open everything* may show every card.
    GameOver {
        player: Side,
    },
    /// The draws the rules owe now, in order: each is made with its
    /// player's key (his opening hand, his redraw), on his machine when
    /// the game is played from two.
    ToDraw {
        draws: Vec<(Side, usize)>,
        why: DrawReason,
    },
    /// A player who began without a passphrase set one (rules reference:
    /// "A passphrase set during the game"), with the commitment to his
    /// picks under it.
    LockSet {
        side: Side,
        lock: Lock,
        picks: PickCommitment,
    },
}

impl Event {
    /// The sealed record in this event and whose it is.
    pub fn sealed(&self) -> Option<(Side, &Sealed)> {
        match self {
            Event::Drew { player, cards, .. } | Event::Removed { player, cards, .. } => {
                Some((*player, cards))
            }
            _ => None,
        }
    }

    /// The player whose zones this event changes.
    pub fn player(&self) -> Option<Side> {
        match self {
            Event::Drew { player, .. }
            | Event::Reshuffled { player, .. }
            | Event::RanOut { player, .. }
            | Event::NoInterrupt { player }
            | Event::Played { player, .. }
            | Event::Removed { player, .. } => Some(*player),
            _ => None,
        }
    }
}

/// One card shown to both, for the record of who played what when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shown {
    pub turn: u32,
    pub phase: PhaseName,
    pub player: Side,
    pub card: String,
    pub use_: Use,
}

/// What both players see: the counts, the turn, the cards in play and
/// every card shown. It holds no card of any hand.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Public {
    pub counts: Sides<Counts>,
    pub turn: Option<Turn>,
    pub shown: Vec<Shown>,
    /// Which players have agreed the game is over.
    pub over: Sides<bool>,
    /// The draws owed now (`Event::ToDraw`), each with the cards it has
    /// still to bring, and why.
    pub to_draw: Vec<(Side, usize)>,
    pub to_draw_why: Option<DrawReason>,
    /// Each player's commitment to his picks' secret, from the setup or
    /// the passphrase he set.
    pub picks: Sides<Option<PickCommitment>>,
    /// Each player's cards drawn from two machines, committed one by one.
    pub committed: Sides<Committed>,
}

impl Public {
    /// A new game: every card in its owner's deck.
    pub fn new(decks: Sides<usize>) -> Public {
        Public {
            counts: Sides {
                south: Counts {
                    deck: decks.south,
                    ..Counts::default()
                },
                north: Counts {
                    deck: decks.north,
                    ..Counts::default()
                },
            },
            turn: None,
            shown: Vec::new(),
            over: Sides::default(),
            to_draw: Vec::new(),
            to_draw_why: None,
            picks: Sides::default(),
            committed: Sides::default(),
        }
    }

    /// Both players agreed the game is over.
    pub fn ended(&self) -> bool {
        self.over.south && self.over.north
    }

    pub fn phase(&self, set: &CardSet) -> Option<PhaseName> {
        self.turn.as_ref().map(|t| set.phases[t.phase])
    }

    /// Folds one event in, refusing what the counts or the turn forbid.
    pub fn fold(&mut self, set: &CardSet, event: &Event) -> Result<(), RuleError> {
        if self.ended() {
            return refuse("RULES-deck 7", "the game is over: both players agreed");
        }
        self.during_draws(event)?;
        match event {
            Event::ToDraw { draws, why } => {
                if !self.to_draw.is_empty() {
                    return refuse("RULES-deck 3", "draws are owed already");
                }
                self.to_draw = draws.iter().filter(|(_, n)| *n > 0).cloned().collect();
                self.to_draw_why = Some(why.clone());
            }
            Event::LockSet { side, picks, .. } => self.picks[*side] = Some(picks.clone()),
            Event::GameOver { player } => {
                if self.over[*player] {
                    return refuse("RULES-deck 7", "they have agreed the game is over already");
                }
                self.over[*player] = true;
            }
            Event::FirstRollTied { .. } => {}
            Event::FirstPlayer { active, .. } => {
                if self.turn.is_some() {
                    return refuse("RULES-deck 6", "who is active first is already settled");
                }
                self.turn = Some(Turn::start(1, *active, &set.phases));
            }
            Event::Drew {
                player,
                count,
                tokens,
                ..
            } => {
                self.counts[*player].shift(Zone::Deck, Some(Zone::Hand), *count)?;
                let under = self.picks[*player].as_ref();
                self.committed[*player].drew(*count, tokens, under)?;
                if let Some((side, left)) = self.to_draw.first_mut()
                    && side == player
                {
                    *left = left.saturating_sub(*count);
                    if *left == 0 {
                        self.to_draw.remove(0);
                    }
                }
            }
            Event::Reshuffled { player, cards } => {
                let c = &mut self.counts[*player];
                if c.deck != 0 {
                    return refuse(
                        "RULES-deck 3",
                        format!("No voluntary reshuffle: the deck still holds {}", c.deck),
                    );
                }
                if c.discard != *cards {
                    return refuse(
                        "RULES-deck 3",
                        format!(
                            "a reshuffle of {cards} from a discard pile of {}",
                            c.discard
                        ),
                    );
                }
                c.deck = c.discard;
                c.discard = 0;
            }
            Event::RanOut { player, .. } => {
                let c = &self.counts[*player];
                if c.deck + c.discard != 0 {
                    return refuse("RULES-deck 3", "drawing stopped while cards were left");
                }
                if self.to_draw.first().is_some_and(|(side, _)| side == player) {
                    self.to_draw.remove(0);
                }
            }
            Event::Declared {
                phase: named,
                plays,
            } => {
                let turn = self.turn_mut()?;
                let phase = set.phases[turn.phase];
                turn.expect(&[Stage::Declaring], "a declaration")?;
                if *named != phase {
                    return refuse(
                        "RULES-deck 6",
                        format!("the {named} phase is declared in the {phase} phase"),
                    );
                }
                if !*plays {
                    turn.skipped.push(phase);
                    advance(turn, set);
                } else if turn.interrupt_open() {
                    turn.stage = Stage::AskingInterrupt;
                } else {
                    turn.stage = Stage::Playing;
                }
            }
            Event::NoInterrupt { player } => {
                let turn = self.turn_mut()?;
                turn.expect(&[Stage::AskingInterrupt], "no interrupt")?;
                if *player != turn.passive() {
                    return refuse("RULES-deck 6", "only the passive player is asked");
                }
                turn.stage = Stage::Playing;
            }
            Event::Played {
                player,
                card,
                from,
                use_,
                to,
                in_play,
                drawn,
                ..
            } => {
                self.may_play(set, *player, card, *use_)?;
                match from {
                    Zone::Hand => (self.committed[*player]).played(
                        &player.to_string(),
                        card,
                        drawn.as_ref(),
                    )?,
                    _ if drawn.is_some() => {
                        return refuse("RULES-deck 3", "only a card from the hand shows its draw");
                    }
                    _ => {}
                }
                let to_zone = (!*in_play).then(|| to.zone());
                self.counts[*player].shift(*from, to_zone, 1)?;
                let phase = self.phase(set).unwrap_or(PhaseName::Event);
                let turn = self.turn_mut()?;
                let number = turn.number;
                if *in_play {
                    turn.in_play.push(InPlay {
                        owner: *player,
                        card: card.clone(),
                        then: *to,
                    });
                }
                if *use_ == Use::Text {
                    let kind = set.card(card).map(|c| (c.kind, c.blocks_interrupts));
                    match kind {
                        Some((super::cards::Kind::Event, blocks)) => {
                            turn.event_played = true;
                            turn.blocked |= blocks;
                        }
                        Some((super::cards::Kind::Interrupt, _)) => {
                            turn.interrupt_played = true;
                            turn.stage = Stage::Playing;
                        }
                        _ => {}
                    }
                }
                self.shown.push(Shown {
                    turn: number,
                    phase,
                    player: *player,
                    card: card.clone(),
                    use_: *use_,
                });
            }
            Event::Removed {
                player,
                from,
                count,
                ..
            } => {
                self.counts[*player].shift(*from, Some(Zone::Removed), *count)?;
                if let Some(turn) = &mut self.turn
                    && turn.stage == Stage::Fatigue
                    && *player == turn.active
                    && matches!(
                        event,
                        Event::Removed {
                            why: RemoveReason::Fatigue,
                            ..
                        }
                    )
                {
                    advance(turn, set);
                }
            }
            Event::Redrawn => {
                let turn = self.turn_mut()?;
                turn.expect(&[Stage::Redraw], "the redraw")?;
                turn.stage = Stage::Fatigue;
            }
            Event::PhaseEnded { .. } => {
                let turn = self.turn_mut()?;
                turn.expect(&[Stage::Events, Stage::Playing], "the end of a phase")?;
                advance(turn, set);
            }
            Event::TurnEnded { number } => {
                let turn = self.turn_mut()?;
                turn.expect(&[Stage::Ending], "the end of the turn")?;
                let next = (*number == turn.number)
                    .then(|| number.checked_add(1))
                    .flatten()
                    .ok_or_else(|| {
                        RuleError::new(
                            "RULES-deck 6",
                            format!("turn {number} ends during turn {}", turn.number),
                        )
                    })?;
                let turn = self.turn.take().ok_or_else(no_turn)?;
                for card in &turn.in_play {
                    *match card.then {
                        Destination::Discard => &mut self.counts[card.owner].discard,
                        Destination::Remove => &mut self.counts[card.owner].removed,
                    } += 1;
                }
                self.turn = Some(Turn::start(next, turn.passive(), &set.phases));
            }
        }
        Ok(())
    }

    /// Refuses a card played where the rules let nobody play it: an event
    /// by the active player in the event phase, an interrupt by the passive
    /// player as a phase is declared, laurels and rally in a phase under
    /// way (RULES-deck 4, 6).
    fn may_play(
        &self,
        set: &CardSet,
        player: Side,
        card: &str,
        use_: Use,
    ) -> Result<(), RuleError> {
        let turn = self.turn.as_ref().ok_or_else(no_turn)?;
        let kind = set.card(card).map(|c| c.kind);
        let fits = match (use_, kind) {
            (Use::Text, Some(Kind::Event)) => {
                turn.stage == Stage::Events && player == turn.active && !turn.event_played
            }
            (Use::Text, Some(Kind::Interrupt)) => {
                turn.stage == Stage::AskingInterrupt
                    && player == turn.passive()
                    && !turn.interrupt_played
            }
            (Use::Text, _) => false,
            (use_, _) => {
                turn.stage == Stage::Playing
                    && set.phases[turn.phase]
                        .letter()
                        .is_some_and(|letter| may_play_for(use_, letter, player, turn.active))
            }
        };
        if fits {
            return Ok(());
        }
        refuse(
            "RULES-deck 6",
            format!(
                "{player} could not play {card} for {} at this point of turn {}",
                use_.name(),
                turn.number
            ),
        )
    }

    /// While draws are owed, only the first one's draw is made.
    fn during_draws(&self, event: &Event) -> Result<(), RuleError> {
        let Some((side, _)) = self.to_draw.first() else {
            return Ok(());
        };
        match event {
            Event::Drew { player, .. }
            | Event::Reshuffled { player, .. }
            | Event::RanOut { player, .. }
                if player == side =>
            {
                Ok(())
            }
            _ => refuse(
                "RULES-deck 3",
                format!("{side} draws first: the rules owe it"),
            ),
        }
    }

    fn turn_mut(&mut self) -> Result<&mut Turn, RuleError> {
        self.turn.as_mut().ok_or_else(no_turn)
    }
}

fn no_turn() -> RuleError {
    RuleError::new(
        "RULES-deck 6",
        "The game has not started: settle who is active first",
    )
}

/// On to the next phase; after the last, the turn waits to end.
fn advance(turn: &mut Turn, set: &CardSet) {
    if turn.phase + 1 < set.phases.len() {
        turn.phase += 1;
        turn.stage = Turn::opening_stage(set.phases[turn.phase]);
    } else {
        turn.stage = Stage::Ending;
    }
}
