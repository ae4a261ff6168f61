//! A dummy-wings game (RULES-map-intel B2-B10): each leader counter, real
//! or dummy, on the map with its two Dis counters and a sealed composition
//! (a dummy's record is the size of a real Wing's), placed by `set_up`;
//! moves checked against the allowance and the Dis trail; every enemy
//! counter a move brings within 7 hexes found and put to the players,
//! nearest first, as a line of sight question whose answer is logged, the
//! Wing going on along its traced path when every line is blocked
//! (`moving`); spotting resolved by 27.1.6 (`sighting`); one deployment
//! roll for all Wings spotted together, with its exact odds shown first;
//! the winner's adjustment; each Wing placed in the formation the rules
//! give it (`deploying`).
//!
//! Rulings: one roll serves every stationary Wing spotted by one move, with
//! the best modifier among them (27.5 says "the same deployment die roll");
//! a dummy may move as far as the fastest real Wing of its type could, in
//! its formation, whether or not such a Wing is still on the map (B4b; an
//! Inf/Cav dummy: infantry or cavalry); the leader and each Dis counter
//! move along traced paths within the allowance, and spotting is checked
//! at every hex entered (B4a, B4c).

use super::formation::Formation;
use super::placement::Arm;
use super::roll;
use super::scenario::Type;
use crate::map::Hex;
use muster_core::chained_game::{self, About, Ledger, OnLedger, Rules};
use muster_core::dice::{self, AppDice, DiceInput};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::trail::Locks;
use muster_core::intel::{Lock, Opener, Place, PlayerKey, Revealed, SealKey, Sealed};
use muster_core::side::{Side, Sides};
use serde::{Deserialize, Serialize};
use std::ops::Deref;

pub use super::events::{Composition, Counter, Event, Face, Pending, Public};
use super::setup::MAX_RATING;
pub use super::setup::{
    EXAMPLE_ARMIES_JSON, MAX_UNITS, SEALED_BYTES, Setup, WingUnit, armies_from_json, example_armies,
};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Set-up: a leader counter, real (with its composition) or a dummy.
    PlaceWing {
        side: Side,
        kind: Type,
        /// A Detachment stack rather than a main-army Wing.
        #[serde(default)]
        detachment: bool,
        leader: Hex,
        dis: [Hex; 2],
        composition: Composition,
    },
    Begin {
        first: Side,
    },
    /// A counter's move: the hexes its leader and each Dis counter enter,
    /// in order (RULES-map-intel B4c); an empty path stays put.
    Move {
        id: usize,
        #[serde(default)]
        leader: Vec<Hex>,
        #[serde(default)]
        dis: [Vec<Hex>; 2],
    },
    /// The moving player's choice of the closest among enemy Wings tied
    /// for it (B10 ruling).
    Closest {
        wing: usize,
    },
    /// The players' answer: is the line of sight clear? Given by the
    /// moving side (from two machines, on his: a blocked line lets his
    /// Wing go on, a clear one flips it).
    Sight {
        clear: bool,
    },
    /// The stationary Wing's owner shows what it is, its line called clear
    /// (27.1.6): the step the rules force then, decided with his key.
    Show,
    /// The active player says the game is over (rules reference: "The
    /// game's end"): nothing is played after it.
    EndGame,
    /// A player who began without a passphrase sets his, on his own screen
    /// (rules reference: "A passphrase set during the game").
    SetPassphrase {
        side: Side,
        lock: Lock,
    },
    Roll {
        moving: DiceInput,
        stationary: DiceInput,
    },
    /// The winning moving leader's new hex, or `None` to stay.
    Adjust {
        to: Option<Hex>,
    },
    /// A spotted Wing placed as units, or an active unspotted Wing that
    /// deploys of its own accord (27.4).
    Deploy {
        id: usize,
        formation: Formation,
    },
    EndTurn,
}

pub type Entry = chained_game::Entry<Event>;
pub use muster_core::chained_game::genesis;

/// Dummy wings' rules as the chained ledger folds them.
#[derive(Clone, Copy, Debug)]
pub struct DummyWings;

impl Rules for DummyWings {
    const FORMAT: &'static str = super::files::FORMAT;
    const SCHEMA: u32 = super::files::SCHEMA;
    const HEADER: &'static str = "the game's header (its id, players and battle)";
    const SEALED_CHECK: &'static str =
        "each of their sealed Wing compositions opened against its commitment";
    type Setup = Setup;
    type Event = Event;
    type Public = Public;

    fn about(ledger: &Ledger<Self>) -> About {
        let (setup, public) = (ledger.setup(), ledger.public());
        About {
            title: setup.battle.name.clone(),
            players: format!("{} v {}", setup.name(Side::South), setup.name(Side::North)),
            step: match public.active {
                None => "dummy wings, set-up".to_string(),
                _ if public.over => format!("dummy wings, over after turn {}", public.turn),
                Some(side) => format!(
                    "dummy wings, turn {} ({})",
                    public.turn, setup.players[side]
                ),
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
        setup.name(side)
    }

    fn opening(_: &Setup) -> Public {
        Public::default()
    }

    fn fold(public: &mut Public, event: &Event, setup: &Setup) -> Result<(), RuleError> {
        public.fold(event, setup)
    }

    fn describe(event: &Event, setup: &Setup, before: &Public) -> String {
        super::describe::event(event, setup, before)
    }

    /// Each of his sealed compositions opens with his key.
    /// A record opened for both was checked against its commitment then
    /// (and, sealed before a passphrase set during the game, is under the
    /// unprotected key).
    fn check_records(ledger: &Ledger<Self>, side: Side, key: &SealKey) -> Result<(), RuleError> {
        let counters = ledger.public().counters.iter();
        for c in counters.filter(|c| c.side == side && c.shown.is_none()) {
            c.sealed
                .open::<Composition>(key, &place(ledger.id(), side, c.id, c.seals))
                .map_err(|e| RuleError::new("trust", format!("counter {}: {e}", c.id)))?;
        }
        Ok(())
    }

    fn lock_set(event: &Event) -> Option<(Side, &Lock)> {
        match event {
            Event::LockSet { side, lock } => Some((*side, lock)),
            _ => None,
        }
    }
}

/// A dummy-wings game: its ledger, the dice it rolls, and the commands
/// that add to it.
#[derive(Clone, Debug)]
pub struct Game {
    ledger: Ledger<DummyWings>,
    dice: AppDice,
}

impl OnLedger for Game {
    type Rules = DummyWings;
    fn record(&self) -> &Ledger<DummyWings> {
        &self.ledger
    }
    fn from_ledger(ledger: Ledger<DummyWings>) -> Result<Game, RuleError> {
        Ok(Game {
            ledger,
            dice: AppDice::default(),
        })
    }
}

/// Everything the ledger keeps is read through the game; only the game's
/// commands change it.
impl Deref for Game {
    type Target = Ledger<DummyWings>;
    fn deref(&self) -> &Ledger<DummyWings> {
        &self.ledger
    }
}

/// Where counter `id`'s `n`-th sealed composition belongs.
pub(super) fn place(game: &str, owner: Side, id: usize, n: u32) -> Place<'_> {
    Place {
        game,
        owner,
        kind: "wing",
        slot: format!("counter {id} seal {n}"),
    }
}

fn seal(place: &Place, c: &Composition, key: &SealKey) -> Result<Sealed, RuleError> {
    Sealed::seal(place, c, key, SEALED_BYTES).map_err(|e| RuleError::new("trust", e.to_string()))
}

/// Checks a command against a copy of the state and collects its events.
struct Work<'a> {
    game: &'a str,
    setup: &'a Setup,
    public: Public,
    keys: &'a Sides<Option<SealKey>>,
    dice: &'a mut AppDice,
    events: Vec<Event>,
    /// The sealing key of a passphrase being set (`SetPassphrase`).
    new_key: Option<SealKey>,
}

/// `command`'s events on `ledger` now, with `dice`.
fn decided(
    ledger: &Ledger<DummyWings>,
    command: &Command,
    dice: &mut AppDice,
) -> Result<Vec<Event>, RuleError> {
    ledger.writable()?;
    let mut work = Work::new(ledger, ledger.keys(), dice);
    if let Command::SetPassphrase { side, lock } = command {
        work.new_key = Some(ledger.new_seal_key(*side, lock)?);
    }
    work.decide(command)?;
    Ok(work.events)
}

impl<'a> Work<'a> {
    fn new(
        ledger: &'a Ledger<DummyWings>,
        keys: &'a Sides<Option<SealKey>>,
        dice: &'a mut AppDice,
    ) -> Work<'a> {
        Work {
            game: ledger.id(),
            setup: ledger.setup(),
            public: ledger.public().clone(),
            keys,
            dice,
            events: Vec::new(),
            new_key: None,
        }
    }
}

impl Work<'_> {
    fn push(&mut self, event: Event) -> Result<(), RuleError> {
        self.public.fold(&event, self.setup)?;
        self.events.push(event);
        Ok(())
    }

    fn key(&self, side: Side) -> Result<&SealKey, RuleError> {
        self.keys[side].as_ref().ok_or_else(|| {
            RuleError::new(
                "trust",
                format!("{} must unlock first", self.setup.name(side)),
            )
        })
    }

    fn open(&self, id: usize) -> Result<Revealed<Composition>, RuleError> {
        let c = self.public.counter(id)?;
        c.sealed
            .open(self.key(c.side)?, &place(self.game, c.side, id, c.seals))
            .map_err(|e| RuleError::new("trust", e.to_string()))
    }

    fn composition(&self, id: usize) -> Result<Composition, RuleError> {
        Ok(self.open(id)?.secret)
    }

    fn free(&self) -> Result<(), RuleError> {
        if let Some(p) = &self.public.pending {
            let what = match p {
                Pending::Closest { .. } => "the moving player says which Wing is the closest first",
                Pending::Sight { clear: true, .. } => {
                    "the Wing whose line was called clear is shown first"
                }
                Pending::Sight { .. } => "the line of sight is asked first",
                Pending::Roll { .. } => "the deployment roll comes first",
                Pending::Adjust { .. } => "the winner's adjustment comes first",
                Pending::Place { .. } => "the spotted Wings are placed first",
            };
            return refuse("27.1.6", what);
        }
        Ok(())
    }

    fn decide(&mut self, command: &Command) -> Result<(), RuleError> {
        if self.public.over {
            return refuse("27.1", "The game is over: nothing more is played in it");
        }
        match command {
            Command::PlaceWing {
                side,
                kind,
                detachment,
                leader,
                dis,
                composition,
            } => self.place(*side, (*kind, *detachment), *leader, *dis, composition),
            Command::Begin { first } => {
                self.free()?;
                if self.public.active.is_some() {
                    return refuse("27.1.2", "the game has begun already");
                }
                // Each side sets up before play begins (a remote player
                // may not have joined yet).
                if let Some(side) = (Side::BOTH.into_iter())
                    .find(|s| !self.public.counters.iter().any(|c| c.side == *s))
                {
                    return refuse(
                        "27.1.2",
                        format!(
                            "{} has placed no counter yet: each side sets up before play begins",
                            self.setup.name(side)
                        ),
                    );
                }
                self.push(Event::TurnBegan {
                    number: 1,
                    active: *first,
                })
            }
            Command::Move { id, leader, dis } => self.do_move(*id, leader, dis),
            Command::Closest { wing } => {
                let Some(Pending::Closest { tied, .. }) = &self.public.pending else {
                    return refuse("27.5", "no closest Wing is asked now");
                };
                if !tied.contains(wing) {
                    return refuse(
                        "27.5",
                        format!("counter {wing} is not one of the Wings equally near"),
                    );
                }
                self.push(Event::ClosestChosen { wing: *wing })
            }
            Command::Sight { clear } => self.sight(*clear),
            Command::Show => self.show(),
            Command::SetPassphrase { side, lock } => self.set_passphrase(*side, lock),
            Command::Roll { moving, stationary } => self.roll(moving, stationary),
            Command::Adjust { to } => self.adjust(*to),
            Command::Deploy { id, formation } => self.deploy(*id, *formation),
            Command::EndGame => {
                self.free()?;
                let Some(by) = self.public.active else {
                    return refuse("27.1.2", "the game has not begun");
                };
                self.push(Event::GameOver { by })
            }
            Command::EndTurn => {
                self.free()?;
                let Some(active) = self.public.active else {
                    return refuse("27.1.2", "the game has not begun");
                };
                self.push(Event::TurnBegan {
                    number: self.public.turn + 1,
                    active: active.opponent(),
                })
            }
        }
    }
}

/// One player's view: his own compositions opened, the enemy's only once
/// flipped, not even sealed bytes otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Seen {
    pub id: usize,
    pub side: Side,
    pub kind: Type,
    pub leader: Hex,
    pub dis: Vec<Hex>,
    pub composition: Option<Composition>,
    /// Face up: what its flip showed (a real Wing's rating, before its
    /// units are placed).
    pub face: Option<Face>,
    pub face_up: bool,
    pub deployed: Option<Formation>,
    /// His own unspotted counter's allowance left this turn.
    pub allowance: Option<u32>,
    pub code: String,
}

impl Game {
    pub fn new(
        setup: Setup,
        keys: Sides<Option<PlayerKey>>,
        dice: AppDice,
    ) -> Result<Game, RuleError> {
        Ok(Game {
            ledger: Ledger::new(setup, &keys)?,
            dice,
        })
    }

    /// What Edit > Undo takes back, or why nothing: a counter placed in
    /// set-up, or a move that brought no enemy within 7 hexes (B4, B5);
    /// never a spotting, a flip, a roll or a new turn.
    pub fn undoable(&self) -> Result<String, String> {
        self.ledger.undoable(
            |e| matches!(e, Event::Placed { .. } | Event::Moved { .. }),
            "Only a counter placed in set-up or a move that spotted nothing is taken back: a spotting, a flip, a roll or a new turn stays (RULES-map-intel B5, B6)",
        )
    }

    /// Takes back the last entry when `undoable` allows it.
    pub fn undo(&mut self) -> Result<String, RuleError> {
        let what = self.undoable().map_err(|why| RuleError::new("undo", why))?;
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

    pub fn apply(&mut self, command: Command) -> Result<Vec<Event>, RuleError> {
        let events = decided(&self.ledger, &command, &mut self.dice)?;
        self.ledger.append(events.clone())?;
        Ok(events)
    }

    /// A command's events, with `dice`, without appending them: what a
    /// remote game's machine decides.
    pub(crate) fn decided(
        &self,
        command: &Command,
        dice: &mut AppDice,
    ) -> Result<Vec<Event>, RuleError> {
        decided(&self.ledger, command, dice)
    }

    pub(crate) fn ledger_mut(&mut self) -> &mut Ledger<DummyWings> {
        &mut self.ledger
    }

    /// The step the rules force now: the Wing whose line was called clear
    /// shown by its owner (27.1.6).
    pub fn forced(&self) -> Option<Command> {
        matches!(
            self.public().pending,
            Some(Pending::Sight { clear: true, .. })
        )
        .then_some(Command::Show)
    }

    /// A player unlocks a game read from a file: his passphrase must open
    /// his lock, every tag of his must hold, and each of his sealed
    /// compositions must open with his key.
    pub fn unlock(&mut self, side: Side, passphrase: &str) -> Result<(), RuleError> {
        self.ledger.unlock(side, passphrase)
    }

    /// `unlock` with the key already worked out from the passphrase (the
    /// window derives it on a worker thread): the same checks.
    pub fn unlock_key(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError> {
        self.ledger.unlock_key(side, key)
    }

    /// The chance each side wins the deployment roll now due.
    pub fn odds(&self) -> Option<roll::Odds> {
        let (m, s) = self.roll_modifiers()?;
        Some(roll::odds(roll::total(&m), roll::total(&s)))
    }

    /// What each side adds to its die in the deployment roll now due
    /// (moving, stationary): the odds are shown with their reasons. The
    /// stationary side adds the best of its spotted Wings'.
    pub fn roll_modifiers(&self) -> Option<(Vec<dice::Modifier>, Vec<dice::Modifier>)> {
        let Some(Pending::Roll { moving, stationary }) = &self.public().pending else {
            return None;
        };
        let mut dice = AppDice::default();
        let work = Work::new(&self.ledger, self.keys(), &mut dice);
        let m = work.modifiers(*moving, true).ok()?;
        let s: Vec<Vec<dice::Modifier>> = stationary
            .iter()
            .filter_map(|&id| work.modifiers(id, false).ok())
            .collect();
        Some((m, super::claims::best(&s)?.clone()))
    }

    /// What `viewer` may see: his own compositions, the enemy's once
    /// flipped.
    pub fn view(&self, viewer: Side) -> Vec<Seen> {
        self.seen_by(Some(viewer))
    }

    /// What both players see together at the table: flipped compositions
    /// only.
    pub fn table_view(&self) -> Vec<Seen> {
        self.seen_by(None)
    }

    /// `side`'s own view opened with his passphrase, whether or not he has
    /// unlocked the game: for his private printout.
    pub fn ledger<'a>(
        &self,
        side: Side,
        opener: impl Into<Opener<'a>>,
    ) -> Result<Vec<Seen>, RuleError> {
        // Nothing of his is shown from a log changed behind his back.
        let mut keys = Sides::default();
        keys[side] = Some(self.open_for(side, opener)?);
        Ok(self.seen_with(Some(side), &keys))
    }

    fn seen_by(&self, viewer: Option<Side>) -> Vec<Seen> {
        self.seen_with(viewer, self.keys())
    }

    fn seen_with(&self, viewer: Option<Side>, keys: &Sides<Option<SealKey>>) -> Vec<Seen> {
        let mut dice = AppDice::default();
        let work = Work::new(&self.ledger, keys, &mut dice);
        self.public()
            .counters
            .iter()
            .filter(|c| !c.gone)
            .map(|c| {
                let own = Some(c.side) == viewer;
                let composition = match (&c.shown, own) {
                    (Some(shown), _) => Some(shown.clone()),
                    (None, true) => work.composition(c.id).ok(),
                    (None, false) => None,
                };
                let allowance = (own && c.hidden())
                    .then(|| {
                        work.allowance(c.id)
                            .ok()
                            .map(|(a, _)| a.saturating_sub(c.moved))
                    })
                    .flatten();
                Seen {
                    id: c.id,
                    side: c.side,
                    kind: c.kind,
                    leader: c.leader,
                    dis: c.dis.clone(),
                    composition,
                    face: c.face,
                    face_up: c.face.is_some(),
                    deployed: c.deployed,
                    allowance,
                    code: c.sealed.code(),
                }
            })
            .collect()
    }
}

mod deploying;
mod moving;
mod set_up;
mod sighting;
#[cfg(test)]
mod tests;
