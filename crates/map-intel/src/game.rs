//! The hidden-forces game (RULES-map-intel 0 and Part A): its setup, the
//! commands players give, the rules that check them, and the log.
//!
//! `apply` checks a command and turns it into events folded into the
//! public state. The running game holds both players' sealing keys (as the
//! deck's dealer does) so it can check a regrouping against what was
//! sealed and open a counter when a rule reveals it; a file holds only the
//! sealed records, and each player's contents open to him when he unlocks.
//! After every command the acting side's units are counted: each is in
//! exactly one place.
//!
//! A command is decided on a `Work` (`work`, with the count of units):
//! regrouping in `regrouping`, moves and reveals in `reveals`, Exercitus
//! markers in `exercitus`, each command's own checks in `decide`.

use super::events::{Area, Contents, Event, Gone, Kind, Public};
use super::map::Hex;
use super::opened::Opened;
use super::scenario::Status;
use super::setup::Setup;
use super::view::{SeenHolder, View};
use muster_core::chained_game::{self, About, Ledger, OnLedger, Rules};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::trail::Locks;
use muster_core::intel::{Opener, PlayerKey, SealKey, Sealed};
use muster_core::side::{Side, Sides};
use serde::{Deserialize, Serialize};
use std::ops::Deref;

/// Where a regrouping sends its units.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// One of the side's counters or holding areas, by id.
    Counter(usize),
    /// A new force in this hex.
    NewForce(Hex),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Units from one of the side's counters or areas to another (A3-A5).
    Transfer {
        side: Side,
        from: usize,
        to: Target,
        units: Vec<String>,
    },
    /// A force or Exercitus to a hex.
    Move {
        id: usize,
        to: Hex,
    },
    /// A force replaced by Exercitus `number`, its units into the holding
    /// area (A4); also the re-placing of an empty one just revealed.
    ToExercitus {
        id: usize,
        number: u8,
    },
    /// Set-up only: Exercitus `number` on a hex with these units from the
    /// off-map area (none for a bluff).
    PlaceExercitus {
        side: Side,
        number: u8,
        hex: Hex,
        units: Vec<String>,
    },
    /// A revealed counter face down again, from its owner's next turn (A3).
    TurnDown {
        id: usize,
    },
    /// Its owner shows it (A2e).
    Reveal {
        id: usize,
    },
    /// An Agent Stratagem marker spent on an enemy counter or area (A2a).
    SpendAgent {
        by: Side,
        id: usize,
    },
    /// Combat in a hex: both sides' counters there are revealed (A2d).
    Combat {
        hex: Hex,
    },
    /// The owner of an empty Exercitus just revealed does not place it.
    DeclineReplace {
        side: Side,
        number: u8,
    },
    /// The step the rules force now (an entry answered, a reveal),
    /// decided with the key of the side that owes it (`owed`).
    Disclose,
    /// Set-up is over; `first` has the first turn.
    Begin {
        first: Side,
    },
    EndTurn,
    /// The players' word, in the active player's turn, that the game is
    /// over (rules reference: "The game's end").
    EndGame,
    /// `side`, who began without a passphrase, sets one (its key held by
    /// the ledger from his screen, `Ledger::prepare_lock`): his sealed
    /// records are sealed anew under it.
    SetPassphrase {
        side: Side,
        lock: muster_core::intel::Lock,
    },
}

pub type Entry = chained_game::Entry<Event>;
pub use muster_core::chained_game::genesis;

/// Hidden forces' rules as the chained ledger folds them.
#[derive(Clone, Copy, Debug)]
pub struct HiddenForces;

impl Rules for HiddenForces {
    const FORMAT: &'static str = super::files::FORMAT;
    const SCHEMA: u32 = super::files::SCHEMA;
    const HEADER: &'static str = "the game's header (its id, players and scenario)";
    const SEALED_CHECK: &'static str = "each of their face-down counters opened, every unit of their in exactly one place after every entry";
    type Setup = Setup;
    type Event = Event;
    type Public = Public;

    fn about(ledger: &Ledger<Self>) -> About {
        let (setup, public) = (ledger.setup(), ledger.public());
        About {
            title: setup.scenario.name.clone(),
            players: format!("{} v {}", setup.name(Side::South), setup.name(Side::North)),
            step: match public.active {
                _ if public.over => format!("hidden forces, over after turn {}", public.turn),
                None => "hidden forces, set-up".to_string(),
                Some(side) => format!(
                    "hidden forces, turn {} ({})",
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

    fn opening(setup: &Setup) -> Public {
        Public::new(setup.scenario.agents)
    }

    fn fold(public: &mut Public, event: &Event, setup: &Setup) -> Result<(), RuleError> {
        // Every hex a counter stands in is on the map.
        if let Event::Created { hex: Some(hex), .. }
        | Event::Moved { to: hex, .. }
        | Event::Placed { hex, .. } = event
        {
            setup.scenario.map.on_map(*hex)?;
        }
        public.fold(event)
    }

    fn describe(event: &Event, setup: &Setup, before: &Public) -> String {
        super::describe::event(event, setup, before)
    }

    /// Each unit of his in exactly one place after every entry, his sealed
    /// contents opened with his key.
    fn check_records(ledger: &Ledger<Self>, side: Side, key: &SealKey) -> Result<(), RuleError> {
        let from = ledger.lock_set_in_log(side).unwrap_or(0);
        super::conservation::check_records(
            ledger.id(),
            ledger.setup(),
            ledger.log(),
            side,
            key,
            from,
        )
    }

    fn lock_set(event: &Event) -> Option<(Side, &muster_core::intel::Lock)> {
        match event {
            Event::LockSet { side, lock } => Some((*side, lock)),
            _ => None,
        }
    }
}

/// A hidden-forces game: its ledger, and the commands that add to it.
#[derive(Clone, Debug)]
pub struct Game {
    ledger: Ledger<HiddenForces>,
    /// The records this session opened or sealed, with their units.
    known: Opened,
}

impl OnLedger for Game {
    type Rules = HiddenForces;
    fn record(&self) -> &Ledger<HiddenForces> {
        &self.ledger
    }
    fn from_ledger(ledger: Ledger<HiddenForces>) -> Result<Game, RuleError> {
        Ok(Game {
            ledger,
            known: Opened::default(),
        })
    }
}

/// Everything the ledger keeps is read through the game; only the game's
/// commands change it.
impl Deref for Game {
    type Target = Ledger<HiddenForces>;
    fn deref(&self) -> &Ledger<HiddenForces> {
        &self.ledger
    }
}

impl Game {
    /// A new game: each side's units start in his holding areas (Civis and
    /// Client face up, the rest off-map sealed), his Exercitus markers off
    /// the map with empty sealed holding areas.
    pub fn new(setup: Setup, keys: Sides<Option<PlayerKey>>) -> Result<Game, RuleError> {
        let mut game = Game {
            ledger: Ledger::new(setup, &keys)?,
            known: Opened::default(),
        };
        let mut events = Vec::new();
        let mut next = 0;
        for side in Side::BOTH {
            let key = game.key(side)?;
            let army = &game.setup().scenario.sides[side];
            let with = |status: Status| -> Vec<String> {
                army.units
                    .iter()
                    .filter(|u| u.status == status)
                    .map(|u| u.id.clone())
                    .collect()
            };
            // Each holder's first record is bound to its id, the count so far.
            let sealed =
                |id: usize, units: &[String]| seal(&place(game.id(), side, id, 1), units, key);
            let mut holders = vec![
                (
                    Kind::Area(Area::OffMap),
                    Contents::Sealed(sealed(next, &with(Status::Regular))?.into()),
                ),
                (
                    Kind::Area(Area::Civis),
                    Contents::Open(sorted(&with(Status::Civis))),
                ),
                (
                    Kind::Area(Area::Client),
                    Contents::Open(sorted(&with(Status::Client))),
                ),
            ];
            for number in 1..=game.setup().scenario.exercitus {
                let id = next + holders.len();
                holders.push((
                    Kind::Exercitus(number),
                    Contents::Sealed(sealed(id, &[])?.into()),
                ));
            }
            for (kind, contents) in holders {
                events.push(Event::Created {
                    id: next,
                    side,
                    kind,
                    hex: None,
                    contents,
                });
                next += 1;
            }
        }
        game.ledger.append(events)?;
        Ok(game)
    }

    /// Checks a command and carries it out, or changes nothing and gives
    /// the rule.
    pub fn apply(&mut self, command: Command) -> Result<Vec<Event>, RuleError> {
        let (events, opened) = self.decided(&command)?;
        self.ledger.append(events.clone())?;
        self.known.keep(opened, self.ledger.public());
        Ok(events)
    }

    /// A command's events, and the records it opened or sealed, without
    /// appending them: what `apply` and a remote game's machine decide.
    pub(crate) fn decided(&self, command: &Command) -> Result<(Vec<Event>, Opened), RuleError> {
        self.writable()?;
        let mut work = Work {
            game: self.id(),
            setup: self.setup(),
            before: self.public(),
            public: self.public().clone(),
            keys: self.keys(),
            events: Vec::new(),
            known: &self.known,
            opened: Default::default(),
            new_key: match command {
                Command::SetPassphrase { side, lock } => {
                    Some(self.ledger.new_seal_key(*side, lock)?)
                }
                _ => None,
            },
        };
        work.decide(command)?;
        let Work { events, opened, .. } = work;
        Ok((events, opened.into_inner()))
    }

    /// What another machine's player showed this one alone of his holder
    /// `id` (an Agent's examination), checked by the caller against its
    /// commitment: kept for this session.
    pub(crate) fn keep_shown(
        &mut self,
        id: usize,
        seals: u32,
        sealed: &Sealed,
        units: Vec<String>,
    ) {
        self.known.insert(id, seals, sealed, units);
    }

    /// The record, for a remote game's seat and tags.
    pub(crate) fn ledger_mut(&mut self) -> &mut Ledger<HiddenForces> {
        &mut self.ledger
    }

    /// What Edit > Undo takes back, or why nothing: the last entry when
    /// it told the opponent nothing he keeps (a move, a regroup, a marker
    /// placed, with no reveal, no examination, no turn begun); never the
    /// opening deal.
    pub fn undoable(&self) -> Result<String, String> {
        if self.log().len() <= 1 {
            return Err("Nothing is recorded yet".into());
        }
        self.ledger.undoable(
            |e| {
                matches!(
                    e,
                    Event::Moved { .. }
                        | Event::Changed { .. }
                        | Event::Created { .. }
                        | Event::Placed { .. }
                        | Event::Removed {
                            why: Gone::Emptied | Gone::Replaced,
                            ..
                        }
                )
            },
            "A reveal, an Agent's examination, a counter turned face down or a new turn is never taken back: both players have seen it (RULES-map-intel A2, A3)",
        )
    }

    /// Takes back the last entry when `undoable` allows it.
    pub fn undo(&mut self) -> Result<String, RuleError> {
        let what = self.undoable().map_err(|why| RuleError::new("undo", why))?;
        self.ledger.pop()?;
        Ok(what)
    }

    /// The records this session opened or sealed.
    #[cfg(test)]
    pub(crate) fn known(&self) -> &Opened {
        &self.known
    }

    /// Whether Edit > Redo has something undone to do again.
    pub fn redoable(&self) -> bool {
        self.ledger.redoable()
    }

    /// Does again what the last undo took back; its words.
    pub fn redo(&mut self) -> Result<String, RuleError> {
        self.ledger.redo()
    }

    /// `by` asks to examine a counter or holding area: his own, or one face
    /// up; anything else is refused with the conditions of A2.
    pub fn examine(&self, by: Side, id: usize) -> Result<Vec<String>, RuleError> {
        let h = self.public().holder(id)?;
        if h.side == by || h.contents.is_open() || self.public().examined_by(by, h) {
            return units_of(self.id(), h, self.keys()[h.side].as_ref());
        }
        refuse(
            "A2",
            format!(
                "{} may not examine {}: only after an Agent Stratagem marker, their unit entering its hex, it entering their units' hex, combat, or its owner revealing it",
                self.setup().name(by),
                h.label(&self.setup().names())
            ),
        )
    }

    /// What `viewer` may see, computed from the public state and his own
    /// key only.
    pub fn view(&self, viewer: Side) -> View {
        self.seen_by(Some(viewer), self.keys()[viewer].as_ref())
    }

    /// What both players see together at the table: face-up contents only.
    pub fn table_view(&self) -> View {
        self.seen_by(None, None)
    }

    /// `side`'s own view opened with his passphrase, whether or not he has
    /// unlocked the game: for his private printout.
    pub fn ledger<'a>(&self, side: Side, opener: impl Into<Opener<'a>>) -> Result<View, RuleError> {
        // Nothing of his is shown from a log changed behind his back.
        let key = self.open_for(side, opener)?;
        Ok(self.seen_by(Some(side), Some(&key)))
    }

    fn seen_by(&self, viewer: Option<Side>, key: Option<&SealKey>) -> View {
        let holders = self
            .public()
            .holders
            .iter()
            .filter(|h| !h.gone)
            .map(|h| {
                let examined = viewer.is_some_and(|v| self.public().examined_by(v, h));
                let units = match &h.contents {
                    Contents::Open(u) => Some(u.clone()),
                    Contents::Sealed(_) if Some(h.side) == viewer => {
                        units_of(self.id(), h, key).ok()
                    }
                    // What his Agent saw, opened with its owner's key while
                    // the game is unlocked: on his own screen only.
                    // (From another machine, as its owner's showed it.)
                    Contents::Sealed(_) if examined => self
                        .known
                        .get(h)
                        .cloned()
                        .or_else(|| units_of(self.id(), h, self.keys()[h.side].as_ref()).ok()),
                    Contents::Sealed(_) => None,
                };
                SeenHolder {
                    id: h.id,
                    side: h.side,
                    kind: h.kind,
                    hex: h.hex,
                    face_up: h.contents.is_open(),
                    units,
                    revealed: h.revealed,
                    code: match &h.contents {
                        Contents::Sealed(s) => Some(s.code()),
                        Contents::Open(_) => None,
                    },
                }
            })
            .collect();
        View {
            viewer,
            turn: self.public().turn,
            active: self.public().active,
            agents: self.public().agents,
            holders,
            may_replace: self.public().may_replace.clone(),
        }
    }

    /// A player unlocks a game read from a file: his passphrase must open
    /// his lock, every tag of his must hold, and each unit of his must be in
    /// one place after every entry.
    pub fn unlock(&mut self, side: Side, passphrase: &str) -> Result<(), RuleError> {
        self.ledger.unlock(side, passphrase)
    }

    /// `unlock` with the key already worked out from the passphrase (the
    /// window derives it on a worker thread): the same checks.
    pub fn unlock_key(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError> {
        self.ledger.unlock_key(side, key)
    }
}

mod decide;
mod exercitus;
mod regrouping;
mod reveals;
mod work;

pub(crate) use reveals::may_turn_down;
use work::{Work, seal, sorted};
pub(crate) use work::{place, units_of};
