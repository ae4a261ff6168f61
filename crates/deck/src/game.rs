//! The action-deck game: its setup, the commands players give, the rules
//! that check them (RULES-deck 3-6), and the log they leave.
//!
//! `apply` checks a command against the rules and turns it into events;
//! the events are folded into the public state both see and into the
//! owner's zones, which the running game holds for both players as the
//! dealer does. Only sealed records of the zones' changes are logged: a
//! file opened later shows the counts to anyone and each player's zones to
//! him once he unlocks. With both unlocked, *Open everything* replays every
//! draw, reshuffle and removal against the rules.
//!
//! A command is decided on a `Work` (`work`): the turn's course in
//! `decide`, playing a card in `playing`, the dealer's draws, reshuffles
//! and removals in `dealing`; `replay` opens the sealed records and
//! rebuilds a player's zones from them.

use super::cards::CardSet;
use super::events::{Event, Public};
use super::setup::Setup;
use super::turn::{Destination, Use};
use super::zones::Zones;
use muster_core::chained_game::{self, About, Ledger, OnLedger, Rules};
use muster_core::dice::hidden::PickCommitment;
use muster_core::dice::{AppDice, DiceInput};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::trail::Locks;
use muster_core::intel::{Lock, PlayerKey, SealKey};
use muster_core::side::{Side, Sides};
use serde::{Deserialize, Serialize};
use std::ops::Deref;

/// A card taken from the hand by its id (*choose*), or `"app"`: the top
/// card of the deck, which the app deals (*draw*).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    Hand(String),
    Deck,
}

impl Serialize for Pick {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Pick::Hand(id) => s.serialize_str(id),
            Pick::Deck => s.serialize_str("app"),
        }
    }
}

impl<'de> Deserialize<'de> for Pick {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Pick, D::Error> {
        let text = String::deserialize(d)?;
        Ok(if text == "app" {
            Pick::Deck
        } else {
            Pick::Hand(text)
        })
    }
}

/// What a player asks for. Cards he chooses are given by id; the deck's
/// cards are dealt by the app.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    ChooseFirst {
        active: Side,
    },
    RollFirst {
        south: DiceInput,
        north: DiceInput,
    },
    PlayEvent {
        player: Side,
        card: String,
    },
    /// The active player plays the current phase, or skips it.
    Declare {
        plays: bool,
    },
    /// The passive player's answer at the start of a declared phase:
    /// an interrupt card, or none.
    Interrupt {
        player: Side,
        card: Option<String>,
    },
    Play {
        player: Side,
        card: Pick,
        #[serde(rename = "use")]
        use_: Use,
        #[serde(default)]
        to: Option<Destination>,
    },
    EndPhase,
    /// The active player ends the phase under way and declares the next,
    /// playing or skipping it (RULES-deck 6): what he says in one breath
    /// at the table, one entry of the log (taken back as one).
    EndPhaseThen {
        plays: bool,
    },
    /// The active player's fatigue removal: a card from his hand; `None`
    /// only with an empty hand (the top card of his deck).
    Fatigue {
        card: Option<String>,
    },
    UnitBreaks {
        player: Side,
        cards: Vec<String>,
    },
    RemoveFromHand {
        player: Side,
        card: String,
        reason: String,
    },
    DrawForText {
        player: Side,
        count: usize,
        reason: String,
    },
    Reshuffle {
        player: Side,
    },
    EndTurn,
    /// A player agrees the game is over (the rules leave the end to the
    /// players); after both, *Open everything* (RULES-deck 7).
    GameOver {
        player: Side,
    },
    /// The draw the rules owe next (an opening hand, a redraw), made with
    /// its player's key: the step the rules force then.
    Deal,
    /// A player who began without a passphrase sets his, on his own screen
    /// (rules reference: "A passphrase set during the game").
    SetPassphrase {
        side: Side,
        lock: Lock,
    },
}

/// One log entry: the events of one command.
pub type Entry = chained_game::Entry<Event>;

pub use muster_core::chained_game::genesis;

/// The action deck's public rules as the chained ledger folds them; each
/// player's zones are the game's, opened with his key.
#[derive(Clone, Copy, Debug)]
pub struct ActionDeck;

impl Rules for ActionDeck {
    const FORMAT: &'static str = super::files::FORMAT;
    const SCHEMA: u32 = super::files::SCHEMA;
    const HEADER: &'static str = "the game's header (its id, players and card set)";
    const SEALED_CHECK: &'static str =
        "their sealed draws and removals, replayed by the rules (their hand rebuilt)";
    type Setup = Setup;
    type Event = Event;
    type Public = Public;

    fn about(ledger: &Ledger<Self>) -> About {
        let setup = ledger.setup();
        let seat = |side: Side| {
            let s = &setup.seats[side];
            let army = setup
                .set
                .army(&s.army)
                .map_or(s.army.as_str(), |a| a.name.as_str());
            format!("{} ({army})", s.name)
        };
        About {
            title: setup.set.name.clone(),
            players: format!("{} v {}", seat(Side::South), seat(Side::North)),
            step: match &ledger.public().turn {
                // Issue 39: a finished game read "turn 5, event phase".
                Some(t) if ledger.public().ended() => format!(
                    "action deck, over ({})",
                    t.over_after(&setup.set.phases).to_lowercase()
                ),
                Some(t) => format!(
                    "action deck, turn {}, {} phase",
                    t.number, setup.set.phases[t.phase]
                ),
                None => "action deck, not started".to_string(),
            },
        }
    }

    fn check(setup: &Setup) -> Result<(), RuleError> {
        setup.check()
    }

    fn locks(setup: &Setup) -> &Locks {
        &setup.locks
    }

    fn name(setup: &Setup, side: Side) -> String {
        setup.name(side).to_string()
    }

    fn opening(setup: &Setup) -> Public {
        setup.opening()
    }

    fn fold(public: &mut Public, event: &Event, setup: &Setup) -> Result<(), RuleError> {
        public.fold(&setup.set, event)
    }

    /// No card of a hand is named.
    fn describe(event: &Event, setup: &Setup, _: &Public) -> String {
        super::describe::event(event, setup, None)
    }

    fn lock_set(event: &Event) -> Option<(Side, &Lock)> {
        match event {
            Event::LockSet { side, lock, .. } => Some((*side, lock)),
            _ => None,
        }
    }
}

/// The game: its ledger, and the zones of the players who opened them in
/// this session (the app deals every card).
#[derive(Clone, Debug)]
pub struct Game {
    ledger: Ledger<ActionDeck>,
    zones: Sides<Option<Zones>>,
    dealer: AppDice,
}

impl OnLedger for Game {
    type Rules = ActionDeck;
    fn record(&self) -> &Ledger<ActionDeck> {
        &self.ledger
    }

    /// Players without a passphrase open their zones at once; the others
    /// when they unlock.
    fn from_ledger(ledger: Ledger<ActionDeck>) -> Result<Game, RuleError> {
        let mut game = Game {
            ledger,
            zones: Sides::default(),
            dealer: AppDice::Os,
        };
        for side in Side::BOTH {
            if game.keys()[side].is_some() {
                game.open_zones(side)?;
            }
        }
        Ok(game)
    }
}

/// Everything the ledger keeps is read through the game; only the game's
/// commands change it.
impl Deref for Game {
    type Target = Ledger<ActionDeck>;
    fn deref(&self) -> &Ledger<ActionDeck> {
        &self.ledger
    }
}

impl Game {
    /// A new game. `keys` are the players' keys from their passphrases
    /// (`None`: he plays without one and seals under the unprotected key).
    pub fn new(mut setup: Setup, keys: Sides<Option<PlayerKey>>) -> Result<Game, RuleError> {
        // Each player's picks from two machines hang on a secret of his,
        // committed to before any draw (`muster_core::dice::hidden`).
        for side in Side::BOTH {
            let key = keys[side]
                .as_ref()
                .map_or_else(SealKey::unprotected, PlayerKey::seal_key);
            setup.picks[side] = Some(PickCommitment::new(&key)?);
        }
        let ledger: Ledger<ActionDeck> = Ledger::new(setup, &keys)?;
        let deck = |side: Side| Some(Zones::new(ledger.setup().deck(side)));
        Ok(Game {
            zones: Sides {
                south: deck(Side::South),
                north: deck(Side::North),
            },
            ledger,
            dealer: AppDice::Os,
        })
    }

    /// Draws from a fixed seed (scripts and tests only; never saved).
    pub fn use_dealer(&mut self, dealer: AppDice) {
        self.dealer = dealer;
    }

    pub fn set(&self) -> &CardSet {
        &self.setup().set
    }

    /// A player's own zones, if he opened them in this session.
    pub fn zones(&self, side: Side) -> Option<&Zones> {
        self.zones[side].as_ref()
    }

    /// A player's zones to arrange a position in a test (the log no longer
    /// accounts for them).
    #[cfg(test)]
    pub(crate) fn zones_mut_for_tests(&mut self, side: Side) -> &mut Zones {
        self.zones[side].as_mut().expect("open in tests")
    }

    /// A player unlocks a game read from a file: his passphrase must open
    /// his lock and every tag of his must hold; then his zones are rebuilt
    /// from his sealed records, each checked against the rules.
    pub fn unlock(&mut self, side: Side, passphrase: &str) -> Result<(), RuleError> {
        self.ledger.unlock(side, passphrase)?;
        self.open_zones(side)
    }

    /// `unlock` with the key already worked out from the passphrase (the
    /// window derives it on a worker thread): the same checks.
    pub fn unlock_key(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError> {
        self.ledger.unlock_key(side, key)?;
        self.open_zones(side)
    }

    /// Rebuilds `side`'s zones from the log with his sealing key (and the
    /// unprotected key for what he drew before he set a passphrase).
    pub(super) fn open_zones(&mut self, side: Side) -> Result<(), RuleError> {
        let keys = self.keys_of(side, self.key(side)?);
        let zones = replay_zones(self.id(), self.setup(), self.log(), side, &keys)?;
        self.zones[side] = Some(zones);
        Ok(())
    }

    /// `side`'s sealing keys through the log: the unprotected key before
    /// the entry that set his passphrase, if one did, `key` from it on.
    fn keys_of<'k>(&self, side: Side, key: &'k SealKey) -> Keys<'k> {
        Keys {
            from: self.ledger.lock_set_in_log(side).unwrap_or(0),
            before: SealKey::unprotected(),
            key,
        }
    }

    /// The step the rules force now: the draw they owe, made with its
    /// player's key.
    pub fn forced(&self) -> Option<Command> {
        (!self.public().to_draw.is_empty()).then_some(Command::Deal)
    }

    /// The side whose key the step the rules force now needs.
    pub fn forced_side(&self) -> Option<Side> {
        self.public().to_draw.first().map(|(side, _)| *side)
    }

    pub(crate) fn ledger_mut(&mut self) -> &mut Ledger<ActionDeck> {
        &mut self.ledger
    }

    /// `side` plays from another machine: his cards are not held here.
    pub(crate) fn forget_zones(&mut self, side: Side) {
        self.zones[side] = None;
    }

    /// A command's events with `dealer` as the app's dice, and the zones
    /// they leave, without appending them: what `apply` and a remote
    /// game's machine decide.
    pub(crate) fn decided(
        &self,
        command: &Command,
        dealer: &mut AppDice,
    ) -> Result<(Vec<Event>, Sides<Option<Zones>>), RuleError> {
        self.ledger.writable()?;
        let mut work = Work {
            game: self.ledger.id(),
            entry: self.ledger.log().len(),
            setup: self.ledger.setup(),
            public: self.ledger.public().clone(),
            zones: self.zones.clone(),
            keys: self.ledger.keys(),
            dealer,
            events: Vec::new(),
            picks: 0,
            joint: None,
            new_key: match command {
                Command::SetPassphrase { side, lock } => {
                    Some(self.ledger.new_seal_key(*side, lock)?)
                }
                _ => None,
            },
        };
        work.decide(command)?;
        let Work { zones, events, .. } = work;
        Ok((events, zones))
    }

    /// Appends an entry decided on either machine of a remote game, folded
    /// into the zones of each player whose key is held here.
    pub(crate) fn absorb(&mut self, events: Vec<Event>) -> Result<(), RuleError> {
        let entry = self.log().len();
        let mut zones = self.zones.clone();
        let mut public = self.public().clone();
        for (j, event) in events.iter().enumerate() {
            for side in Side::BOTH {
                let (Some(held), Some(key)) = (&mut zones[side], self.keys()[side].as_ref()) else {
                    continue;
                };
                let opened = match event.sealed() {
                    Some((owner, sealed)) if owner == side => {
                        Some(open_hidden(&place(self.id(), side, entry, j), sealed, key)?)
                    }
                    _ => None,
                };
                fold_zones(held, side, event, opened.as_deref(), public.turn.as_ref())?;
            }
            public.fold(&self.setup().set, event)?;
        }
        self.ledger.append(events)?;
        self.zones = zones;
        Ok(())
    }

    /// Appends an entry decided here, with the zones it leaves.
    pub(crate) fn append_decided(
        &mut self,
        events: Vec<Event>,
        zones: Sides<Option<Zones>>,
    ) -> Result<(), RuleError> {
        self.ledger.append(events)?;
        self.zones = zones;
        Ok(())
    }

    /// Checks a command and carries it out: its events are logged and
    /// folded in, or nothing changes and the rule is given.
    ///
    /// The draws the rules owe then follow, each its own entry, while the
    /// keys they need are held here (at one table, both).
    pub fn apply(&mut self, command: Command) -> Result<Vec<Event>, RuleError> {
        let mut dealer = std::mem::take(&mut self.dealer);
        let decided = self.decided(&command, &mut dealer);
        let mut events = Vec::new();
        let result = decided.and_then(|(made, zones)| {
            // At one table every draw is made at once: a player who has not
            // unlocked holds the command up, as before draws were owed.
            if let Some(side) = owed_without_key(&made, self.keys()) {
                return refuse(
                    "trust",
                    format!("{} must unlock their cards first", self.setup().name(side)),
                );
            }
            events.extend(made.iter().cloned());
            self.append_decided(made, zones)?;
            // A draw that cannot be made stays owed: the window's forced
            // step says why, and the log records it.
            while let (Some(deal), Some(side)) = (self.forced(), self.forced_side()) {
                let Some((made, zones)) = self.keys()[side]
                    .as_ref()
                    .and_then(|_| self.decided(&deal, &mut dealer).ok())
                else {
                    break;
                };
                events.extend(made.iter().cloned());
                self.append_decided(made, zones)?;
            }
            Ok(())
        });
        self.dealer = dealer;
        result.map(|()| events)
    }

    /// The last entry, in words, when the active player may take it back:
    /// only his public choices of the turn's course (declaring or skipping
    /// a phase, ending one), never a draw, a play, a removal or the passive
    /// player's answer, since each of those told somebody something.
    pub fn undoable(&self) -> Option<String> {
        let last = self.log().last()?;
        let choice = |e: &Event| matches!(e, Event::Declared { .. } | Event::PhaseEnded { .. });
        if self.writable().is_err() || !last.events.iter().all(choice) {
            return None;
        }
        let words: Vec<String> = last
            .events
            .iter()
            .map(|e| super::describe::event(e, self.setup(), None))
            .collect();
        Some(words.join("; "))
    }

    /// Takes back the last entry when `undoable` allows it.
    pub fn undo(&mut self) -> Result<String, RuleError> {
        let Some(what) = self.undoable() else {
            return refuse(
                "RULES-deck 6",
                "Only declaring, skipping or ending a phase is taken back: a card drawn, played or removed, or an answer about an interrupt, stays",
            );
        };
        self.ledger.pop()?;
        Ok(what)
    }

    /// Whether Edit > Redo has something undone to do again.
    pub fn redoable(&self) -> bool {
        self.ledger.redoable()
    }

    /// Does again what the last undo took back; its words.
    pub fn redo(&mut self) -> Result<String, RuleError> {
        self.ledger.redo()
    }
}

/// A player whose draw `events` owe and whose key is not held here.
fn owed_without_key(events: &[Event], keys: &Sides<Option<SealKey>>) -> Option<Side> {
    events.iter().find_map(|e| match e {
        Event::ToDraw { draws, .. } => draws
            .iter()
            .map(|(side, _)| *side)
            .find(|side| keys[*side].is_none()),
        _ => None,
    })
}

mod dealing;
mod decide;
mod opened;
mod playing;
mod replay;
mod work;

pub(crate) use replay::fold_zones;
pub(crate) use replay::place;
use replay::{Keys, open_hidden, replay_zones};
use work::Work;
