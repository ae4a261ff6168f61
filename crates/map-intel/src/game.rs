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

use super::conservation::touched;
use super::events::{Area, Contents, Event, Gone, Holder, Kind, Public, Reason};
use super::map::Hex;
use super::opened::Opened;
use super::scenario::{SEALED_BYTES, Status};
use super::setup::Setup;
use super::view::{SeenHolder, View};
use muster_core::chained_game::{self, About, Ledger, OnLedger, Rules};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::trail::Locks;
use muster_core::intel::{Opener, Place, PlayerKey, SealKey, Sealed};
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
    /// Set-up is over; `first` has the first turn.
    Begin {
        first: Side,
    },
    EndTurn,
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
        super::conservation::check_records(ledger.id(), ledger.setup(), ledger.log(), side, key)
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

/// Where holder `id`'s `n`-th sealed contents belong.
pub(crate) fn place(game: &str, owner: Side, id: usize, n: u32) -> Place<'_> {
    Place {
        game,
        owner,
        kind: "holder",
        slot: format!("holder {id} seal {n}"),
    }
}

fn seal(place: &Place, units: &[String], key: &SealKey) -> Result<Sealed, RuleError> {
    let mut sorted = units.to_vec();
    sorted.sort();
    Sealed::seal(place, &sorted, key, SEALED_BYTES)
        .map_err(|e| RuleError::new("trust", e.to_string()))
}

/// A counter's units: face up from the log, face down opened with its
/// owner's key.
pub(crate) fn units_of(
    game: &str,
    holder: &Holder,
    key: Option<&SealKey>,
) -> Result<Vec<String>, RuleError> {
    match &holder.contents {
        Contents::Open(units) => Ok(units.clone()),
        Contents::Sealed(sealed) => {
            let key = key.ok_or_else(|| {
                RuleError::new("trust", format!("{} has not unlocked", holder.side))
            })?;
            sealed
                .open::<Vec<String>>(key, &place(game, holder.side, holder.id, holder.seals))
                .map(|r| r.secret)
                .map_err(|e| RuleError::new("trust", e.to_string()))
        }
    }
}

/// Checks a command against a copy of the state and collects its events.
struct Work<'a> {
    game: &'a str,
    setup: &'a Setup,
    /// The state before the command, for `check_changed`.
    before: &'a Public,
    public: Public,
    keys: &'a Sides<Option<SealKey>>,
    events: Vec<Event>,
    /// The records this game opened or sealed before the command.
    known: &'a Opened,
    /// The records this command opened or sealed: each is opened once.
    opened: std::cell::RefCell<Opened>,
}

impl Work<'_> {
    /// Every unit of `side` still in exactly one place after the command
    /// (RULES-map-intel 0), checked where it could have changed: the
    /// holders the command touched hold, together, exactly the units they
    /// held before, each a unit of his army. The others are as the last
    /// check left them, so a command's work does not grow with the game
    /// (the whole army is checked when a game is opened and unlocked).
    fn check_changed(&self, side: Side) -> Result<(), RuleError> {
        let mut ids: Vec<usize> = self.events.iter().filter_map(touched).collect();
        ids.sort_unstable();
        ids.dedup();
        let key = self.key(side)?;
        let held = |public: &Public, id: usize| -> Result<Vec<String>, RuleError> {
            match public.holder(id) {
                Ok(h) if h.side == side && !h.gone => self.units_with(h, key),
                _ => Ok(Vec::new()),
            }
        };
        let (mut was, mut now) = (Vec::new(), Vec::new());
        for &id in &ids {
            was.extend(held(self.before, id)?);
            now.extend(held(&self.public, id)?);
        }
        if let Some(stranger) = now
            .iter()
            .find(|u| self.setup.scenario.sides[side].unit(u).is_none())
        {
            return refuse(
                "map-intel 0",
                format!("{stranger} is not a unit of {}", self.setup.name(side)),
            );
        }
        was.sort_unstable();
        now.sort_unstable();
        if was != now {
            return refuse(
                "map-intel 0",
                "every unit is in one place: this change would lose or copy a unit",
            );
        }
        Ok(())
    }

    fn push(&mut self, event: Event) -> Result<(), RuleError> {
        self.public.fold(&event)?;
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

    /// `units` sealed as `h`'s next contents, bound to that slot.
    fn seal(&self, h: &Holder, units: &[String]) -> Result<Sealed, RuleError> {
        self.seal_at(h.side, h.id, h.seals + 1, units)
    }

    /// `units` sealed as holder `id`'s `n`-th contents, and kept as opened.
    fn seal_at(
        &self,
        side: Side,
        id: usize,
        n: u32,
        units: &[String],
    ) -> Result<Sealed, RuleError> {
        let sealed = seal(&place(self.game, side, id, n), units, self.key(side)?)?;
        self.opened
            .borrow_mut()
            .insert(id, n, &sealed, sorted(units));
        Ok(sealed)
    }

    /// `h`'s units, its record opened with `key` only if this game has
    /// not opened or sealed it before.
    fn units_with(&self, h: &Holder, key: &SealKey) -> Result<Vec<String>, RuleError> {
        if let Some(units) = self.known.get(h).or(self.opened.borrow().get(h)) {
            return Ok(units.clone());
        }
        let units = units_of(self.game, h, Some(key))?;
        if let Contents::Sealed(sealed) = &h.contents {
            self.opened
                .borrow_mut()
                .insert(h.id, h.seals, sealed, units.clone());
        }
        Ok(units)
    }

    fn holder(&self, id: usize) -> Result<Holder, RuleError> {
        self.public.holder(id).cloned()
    }

    fn label(&self, h: &Holder) -> String {
        h.label(&self.setup.names())
    }

    fn units(&self, h: &Holder) -> Result<Vec<String>, RuleError> {
        self.units_with(h, self.key(h.side)?)
    }

    /// The units left in `h` once `units` leave it; each must be there.
    fn without(&self, h: &Holder, units: &[String]) -> Result<Vec<String>, RuleError> {
        let mut left = self.units(h)?;
        for unit in units {
            let Some(i) = left.iter().position(|u| u == unit) else {
                return refuse(
                    "map-intel 0",
                    format!("{} is not in {}", self.setup.unit_name(unit), self.label(h)),
                );
            };
            left.remove(i);
        }
        Ok(left)
    }

    /// Contents for `h` after a change: face up stays face up.
    fn contents(&self, h: &Holder, units: &[String]) -> Result<Contents, RuleError> {
        Ok(match h.contents {
            Contents::Open(_) => Contents::Open(sorted(units)),
            Contents::Sealed(_) => Contents::Sealed(self.seal(h, units)?.into()),
        })
    }

    /// `side` may change his own counters now: in set-up, or in his turn
    /// with no empty Exercitus waiting to be re-placed.
    fn may_act(&self, side: Side) -> Result<(), RuleError> {
        if let Some((who, number)) = self.public.may_replace.first() {
            return refuse(
                "A4",
                format!(
                    "{} first places their empty Exercitus {number} on a friendly force, or declines",
                    self.setup.name(*who)
                ),
            );
        }
        match self.public.active {
            None => Ok(()),
            Some(active) if active == side => Ok(()),
            Some(active) => refuse(
                "map-intel 0",
                format!(
                    "It is {} turn: {} changes their counters only in their own",
                    muster_core::text::possessive(&self.setup.name(active)),
                    self.setup.name(side)
                ),
            ),
        }
    }

    fn own(&self, side: Side, id: usize) -> Result<Holder, RuleError> {
        let h = self.holder(id)?;
        if h.side != side {
            return refuse(
                "A2",
                format!("{} is not {}'s", self.label(&h), self.setup.name(side)),
            );
        }
        if h.gone {
            return refuse(
                "map-intel 0",
                format!("{} has left the map", self.label(&h)),
            );
        }
        Ok(h)
    }

    fn on_map(&self, hex: Hex) -> Result<Hex, RuleError> {
        self.setup.scenario.map.on_map(hex)
    }

    /// The units that may not go into `to` by their status (A1, A4, A5).
    fn check_statuses(&self, to: &Holder, units: &[String]) -> Result<(), RuleError> {
        for unit in units {
            let name = self.setup.unit_name(unit);
            let status = self.setup.status(unit);
            let refusal = match (to.kind, status, to.contents.is_open()) {
                (Kind::Exercitus(_), Status::Civis, _) => Some((
                    "A4",
                    format!("{name} is a Civis unit: Civis units may not be part of an Exercitus"),
                )),
                (Kind::Exercitus(_), Status::Client, _) => Some((
                    "A5",
                    format!(
                        "{name} is a Client unit: always face up, never in a holding area that may be face down"
                    ),
                )),
                (Kind::Area(Area::OffMap), Status::Civis | Status::Client, _) => Some((
                    if status == Status::Civis { "A1" } else { "A5" },
                    format!(
                        "{name} is never hidden: it goes to the {} area",
                        if status == Status::Civis {
                            "Civis"
                        } else {
                            "Client"
                        }
                    ),
                )),
                (Kind::Area(Area::Civis), s, _) if s != Status::Civis => {
                    Some(("A5", format!("{name} is not a Civis unit")))
                }
                (Kind::Area(Area::Client), s, _) if s != Status::Client => {
                    Some(("A5", format!("{name} is not a Client unit")))
                }
                (Kind::Force, Status::Civis, false) => Some((
                    "A1",
                    format!(
                        "{name} is a Civis unit: never face down, so not into a face-down force"
                    ),
                )),
                (Kind::Force, Status::Client, false) => Some((
                    "A5",
                    format!(
                        "{name} is a Client unit: always face up, so not into a face-down force"
                    ),
                )),
                _ => None,
            };
            if let Some((rule, message)) = refusal {
                return refuse(rule, message);
            }
        }
        Ok(())
    }

    fn transfer(
        &mut self,
        side: Side,
        from: usize,
        to: &Target,
        units: &[String],
    ) -> Result<(), RuleError> {
        self.may_act(side)?;
        let source = self.own(side, from)?;
        if units.is_empty() {
            return refuse("map-intel 0", "Name at least one unit to move");
        }
        let left = self.without(&source, units)?;
        if matches!(source.kind, Kind::Force | Kind::Exercitus(_)) && !source.on_map() {
            return refuse(
                "map-intel 0",
                format!("{} is not on the map", self.label(&source)),
            );
        }
        match to {
            Target::Counter(id) => {
                let target = self.own(side, *id)?;
                if target.id == source.id {
                    return refuse("map-intel 0", "The units are there already");
                }
                if matches!(target.kind, Kind::Exercitus(_)) && !target.on_map() {
                    return refuse(
                        "A4",
                        format!(
                            "{} is not on the map: it replaces a force first",
                            self.label(&target)
                        ),
                    );
                }
                if source.on_map() && target.on_map() && source.hex != target.hex {
                    return refuse(
                        "map-intel 0",
                        format!(
                            "{} and {} are in different hexes: units regroup within one hex",
                            self.label(&source),
                            self.label(&target)
                        ),
                    );
                }
                self.check_statuses(&target, units)?;
                let mut now = self.units(&target)?;
                now.extend(units.iter().cloned());
                let changed = self.contents(&source, &left)?;
                self.push(Event::Changed {
                    id: source.id,
                    contents: changed,
                })?;
                let into = self.contents(&target, &now)?;
                self.push(Event::Changed {
                    id: target.id,
                    contents: into,
                })?;
            }
            Target::NewForce(hex) => {
                let hex = self.on_map(*hex)?;
                if source.on_map() && source.hex != Some(hex) {
                    return refuse(
                        "map-intel 0",
                        format!(
                            "A force splits off in its own hex ({}); move it after",
                            source.hex.expect("on the map")
                        ),
                    );
                }
                let face_up = units
                    .iter()
                    .any(|u| self.setup.status(u) != Status::Regular);
                let contents = if face_up {
                    Contents::Open(sorted(units))
                } else {
                    let id = self.public.holders.len();
                    Contents::Sealed(self.seal_at(side, id, 1, units)?.into())
                };
                let changed = self.contents(&source, &left)?;
                self.push(Event::Changed {
                    id: source.id,
                    contents: changed,
                })?;
                self.push(Event::Created {
                    id: self.public.holders.len(),
                    side,
                    kind: Kind::Force,
                    hex: Some(hex),
                    contents,
                })?;
            }
        }
        if left.is_empty() && source.kind == Kind::Force {
            self.push(Event::Removed {
                id: source.id,
                why: Gone::Emptied,
            })?;
        }
        Ok(())
    }

    fn do_move(&mut self, id: usize, to: Hex) -> Result<(), RuleError> {
        let mover = self.holder(id)?;
        self.may_act(mover.side)?;
        let Some(from) = mover.hex.filter(|_| mover.on_map()) else {
            return refuse(
                "map-intel 0",
                format!("{} is not on the map", self.label(&mover)),
            );
        };
        let to = self.on_map(to)?;
        if to == from {
            return refuse(
                "map-intel 0",
                format!("{} is in {to} already", self.label(&mover)),
            );
        }
        self.push(Event::Moved { id, from, to })?;
        if self.public.active.is_none() {
            // Set-up: forces are placed, nothing is entered.
            return Ok(());
        }
        let enemy = mover.side.opponent();
        let stationary: Vec<Holder> = self
            .public
            .in_hex(to)
            .filter(|h| h.side == enemy)
            .cloned()
            .collect();
        if stationary.is_empty() {
            return Ok(());
        }
        // (b) and (c) are decided on the contents both ways at once, so
        // neither reveal depends on the other's outcome.
        let mover_has_units = !self.units(&mover)?.is_empty();
        let mut stationary_has_units = false;
        for h in &stationary {
            stationary_has_units |= !self.units(h)?.is_empty();
        }
        if mover_has_units {
            for h in &stationary {
                if !h.contents.is_open() {
                    self.reveal(h.id, Reason::EnemyEntered)?;
                }
            }
        }
        if stationary_has_units && !mover.contents.is_open() {
            self.reveal(id, Reason::EnteredEnemy)?;
        }
        Ok(())
    }

    /// Opens a face-down counter to both players, checked against its
    /// commitment; an empty Exercitus then leaves the map (A4 ruling).
    fn reveal(&mut self, id: usize, reason: Reason) -> Result<(), RuleError> {
        let h = self.holder(id)?;
        let Contents::Sealed(sealed) = &h.contents else {
            return refuse("A2", format!("{} is face up already", self.label(&h)));
        };
        let key = self.key(h.side)?;
        let contents = sealed
            .open::<Vec<String>>(key, &place(self.game, h.side, h.id, h.seals))
            .map_err(|e| RuleError::new("trust", e.to_string()))?;
        let empty = contents.secret.is_empty();
        self.push(Event::Revealed {
            id,
            reason,
            contents,
        })?;
        self.check_changed(h.side)?;
        if let (Kind::Exercitus(number), true) = (h.kind, empty) {
            self.push(Event::Removed {
                id,
                why: Gone::EmptyExercitus,
            })?;
            self.push(Event::MayReplace {
                side: h.side,
                number,
            })?;
        }
        Ok(())
    }

    fn replace_with_exercitus(&mut self, id: usize, number: u8) -> Result<(), RuleError> {
        let force = self.holder(id)?;
        let side = force.side;
        let replacing = self.public.may_replace.contains(&(side, number));
        if !replacing {
            self.may_act(side)?;
        }
        let force = self.own(side, id)?;
        if force.kind != Kind::Force || !force.on_map() {
            return refuse(
                "A4",
                format!(
                    "An Exercitus replaces a force on the map; {} is not one",
                    self.label(&force)
                ),
            );
        }
        if replacing && force.contents.is_open() && force.revealed.is_some() {
            // A4 ruling (A3 wins): placing the marker would seal a force
            // the opponent may still examine face up.
            return refuse(
                "A4",
                format!(
                    "{} was revealed and stays face up (A3): the Exercitus goes on a face-down force or on a unit in a hex of its own",
                    self.label(&force)
                ),
            );
        }
        let marker = self.free_marker(side, number)?;
        let units = self.units(&force)?;
        self.check_statuses(&marker, &units)?;
        let hex = force.hex.expect("on the map");
        let contents = self.seal(&marker, &units)?;
        self.push(Event::Placed {
            id: marker.id,
            hex,
            contents,
        })?;
        self.push(Event::Removed {
            id,
            why: Gone::Replaced,
        })
    }

    /// `side`'s Exercitus marker `number`, off the map and so free to place.
    fn free_marker(&self, side: Side, number: u8) -> Result<Holder, RuleError> {
        let Some(marker) = self.public.exercitus(side, number).cloned() else {
            return refuse(
                "A4",
                format!(
                    "{} has Exercitus markers 1 to {}",
                    self.setup.name(side),
                    self.setup.scenario.exercitus
                ),
            );
        };
        if marker.hex.is_some() {
            return refuse(
                "A4",
                format!("{} is on the map already", self.label(&marker)),
            );
        }
        Ok(marker)
    }

    fn place_exercitus(
        &mut self,
        side: Side,
        number: u8,
        hex: Hex,
        units: &[String],
    ) -> Result<(), RuleError> {
        if self.public.active.is_some() {
            return refuse(
                "A4",
                "After set-up an Exercitus only replaces a force on the map",
            );
        }
        let hex = self.on_map(hex)?;
        let marker = self.free_marker(side, number)?;
        let area = self
            .public
            .area(side, Area::OffMap)
            .cloned()
            .expect("every side has an off-map area");
        let left = self.without(&area, units)?;
        self.check_statuses(&marker, units)?;
        // The off-map area is sealed anew even for a bluff, so the log
        // shows the same two records either way.
        let rest = self.contents(&area, &left)?;
        self.push(Event::Changed {
            id: area.id,
            contents: rest,
        })?;
        let contents = self.seal(&marker, units)?;
        self.push(Event::Placed {
            id: marker.id,
            hex,
            contents,
        })
    }

    fn turn_down(&mut self, id: usize) -> Result<(), RuleError> {
        let h = self.holder(id)?;
        self.may_act(h.side)?;
        let h = self.own(h.side, id)?;
        if !h.contents.is_open() {
            return refuse("A3", format!("{} is face down already", self.label(&h)));
        }
        let units = self.units(&h)?;
        if let Some(unit) = units
            .iter()
            .find(|u| self.setup.status(u) != Status::Regular)
        {
            return refuse(
                "A1",
                format!(
                    "{} holds {}, a {} unit: it stays face up",
                    self.label(&h),
                    self.setup.unit_name(unit),
                    if self.setup.status(unit) == Status::Civis {
                        "Civis"
                    } else {
                        "Client"
                    }
                ),
            );
        }
        if matches!(h.kind, Kind::Area(Area::Civis | Area::Client)) {
            return refuse("A5", format!("{} is always face up", self.label(&h)));
        }
        match (self.public.active, h.revealed) {
            (Some(_), Some(turn)) if turn >= self.public.turn => {
                return refuse(
                    "A3",
                    format!(
                        "{} was revealed this turn: it stays face up until the beginning of {} next turn",
                        self.label(&h),
                        muster_core::text::possessive(&self.setup.name(h.side))
                    ),
                );
            }
            _ => {}
        }
        let contents = self.seal(&h, &units)?;
        self.push(Event::TurnedDown { id, contents })
    }

    fn decide(&mut self, command: &Command) -> Result<(), RuleError> {
        let started = self.public.active.is_some();
        let actor = match command {
            Command::Transfer {
                side,
                from,
                to,
                units,
            } => {
                self.transfer(*side, *from, to, units)?;
                Some(*side)
            }
            Command::Move { id, to } => {
                // A move changes no contents, so conservation cannot change;
                // a reveal it causes checks its owner's units itself.
                self.do_move(*id, *to)?;
                None
            }
            Command::ToExercitus { id, number } => {
                self.replace_with_exercitus(*id, *number)?;
                Some(self.holder(*id)?.side)
            }
            Command::PlaceExercitus {
                side,
                number,
                hex,
                units,
            } => {
                self.place_exercitus(*side, *number, *hex, units)?;
                Some(*side)
            }
            Command::TurnDown { id } => {
                self.turn_down(*id)?;
                Some(self.holder(*id)?.side)
            }
            Command::Reveal { id } => {
                let h = self.holder(*id)?;
                if !started {
                    return refuse("A2", "Reveals come once play begins");
                }
                self.reveal(*id, Reason::Voluntary)?;
                Some(h.side)
            }
            Command::SpendAgent { by, id } => {
                let h = self.holder(*id)?;
                if !started {
                    return refuse("A6", "Agents are spent once play begins");
                }
                self.may_act(*by)?;
                if h.side == *by {
                    return refuse(
                        "A5",
                        "A player may always examine their own units: no Agent needed",
                    );
                }
                if h.gone
                    || (matches!(h.kind, Kind::Exercitus(_))
                        && h.hex.is_none()
                        && self.units(&h)?.is_empty())
                {
                    return refuse("A6", format!("{} holds nothing to examine", self.label(&h)));
                }
                if h.contents.is_open() {
                    return refuse(
                        "A6",
                        format!("{} is face up already: no Agent needed", self.label(&h)),
                    );
                }
                if self.public.examined_by(*by, &h) {
                    return refuse(
                        "A6",
                        format!(
                            "{} examined it already: no Agent needed until it changes",
                            self.setup.name(*by)
                        ),
                    );
                }
                if self.public.agents[*by] == 0 {
                    return refuse(
                        "A6",
                        format!(
                            "{} has no Agent Stratagem marker left",
                            self.setup.name(*by)
                        ),
                    );
                }
                self.push(Event::AgentSpent { by: *by })?;
                // A force on the map is revealed like any other condition
                // (A2 ruling): face up for both, A3 applies, and an empty
                // Exercitus is removed (A4). A holding area is shown to him
                // alone; nothing on the map changes.
                if h.on_map() {
                    self.reveal(*id, Reason::Agent)?;
                    Some(h.side)
                } else {
                    self.push(Event::Examined { by: *by, id: *id })?;
                    None
                }
            }
            Command::Combat { hex } => {
                let Some(active) = self.public.active else {
                    return refuse("A2", "Combat comes once play begins");
                };
                self.may_act(active)?;
                let hex = self.on_map(*hex)?;
                let here: Vec<Holder> = self.public.in_hex(hex).cloned().collect();
                if !Side::BOTH.iter().all(|s| here.iter().any(|h| h.side == *s)) {
                    return refuse(
                        "A2",
                        format!("Combat needs counters of both sides in {hex}"),
                    );
                }
                self.push(Event::Combat { hex })?;
                for h in here.iter().filter(|h| !h.contents.is_open()) {
                    self.reveal(h.id, Reason::Combat)?;
                }
                None
            }
            Command::DeclineReplace { side, number } => {
                if !self.public.may_replace.contains(&(*side, *number)) {
                    return refuse(
                        "A4",
                        format!("Exercitus {number} is not waiting to be placed"),
                    );
                }
                self.push(Event::ReplaceDeclined {
                    side: *side,
                    number: *number,
                })?;
                None
            }
            Command::Begin { first } => {
                if started {
                    return refuse("map-intel 0", "Play has begun already");
                }
                self.push(Event::TurnBegan {
                    number: 1,
                    active: *first,
                })?;
                None
            }
            Command::EndTurn => {
                let Some(active) = self.public.active else {
                    return refuse("map-intel 0", "Set-up is not over: begin play first");
                };
                self.may_act(active)?;
                let number = self.public.turn + 1;
                self.push(Event::TurnBegan {
                    number,
                    active: active.opponent(),
                })?;
                None
            }
        };
        if let Some(side) = actor {
            self.check_changed(side)?;
        }
        Ok(())
    }
}

fn sorted(units: &[String]) -> Vec<String> {
    let mut v = units.to_vec();
    v.sort();
    v
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
        };
        work.decide(&command)?;
        let Work { events, opened, .. } = work;
        self.ledger.append(events.clone())?;
        self.known.keep(opened.into_inner(), self.ledger.public());
        Ok(events)
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
                    Contents::Sealed(_) if examined => {
                        units_of(self.id(), h, self.keys()[h.side].as_ref()).ok()
                    }
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
