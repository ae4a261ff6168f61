//! A dummy-wings game (RULES-map-intel B2-B10): each leader counter, real
//! or dummy, on the map with its two Dis counters and a sealed composition
//! (a dummy's record is the size of a real Wing's); moves checked against
//! the allowance and the Dis trail; every enemy counter a move brings
//! within 7 hexes found and put to the players, nearest first, as a line
//! of sight question whose answer is logged, the Wing going on along its
//! traced path when every line is blocked (`moving`); spotting resolved by
//! 27.1.6; one deployment roll for all Wings spotted together, with its
//! exact odds shown first; the winner's adjustment; each Wing placed in the
//! formation the rules give it.
//!
//! Rulings: one roll serves every stationary Wing spotted by one move, with
//! the best modifier among them (27.5 says "the same deployment die roll");
//! a dummy may move as far as the fastest real Wing of its type could, in
//! its formation, whether or not such a Wing is still on the map (B4b; an
//! Inf/Cav dummy: infantry or cavalry); the leader and each Dis counter
//! move along traced paths within the allowance, and spotting is checked
//! at every hex entered (B4a, B4c).

use super::formation::{self, Formation};
use super::placement::{self, Arm};
use super::roll::{self, Outcome, Role};
use super::scenario::Type;
use super::spotting::{self, Leader};
use crate::map::Hex;
use muster_core::chained_game::{self, About, Ledger, OnLedger, Rules};
use muster_core::dice::{self, AppDice, DiceInput};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::trail::Locks;
use muster_core::intel::{Opener, Place, PlayerKey, Revealed, SealKey, Sealed};
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
    /// The players' answer: is the line of sight clear?
    Sight {
        clear: bool,
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
    fn check_records(ledger: &Ledger<Self>, side: Side, key: &SealKey) -> Result<(), RuleError> {
        for c in ledger.public().counters.iter().filter(|c| c.side == side) {
            c.sealed
                .open::<Composition>(key, &place(ledger.id(), side, c.id, c.seals))
                .map_err(|e| RuleError::new("trust", format!("counter {}: {e}", c.id)))?;
        }
        Ok(())
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
fn place(game: &str, owner: Side, id: usize, n: u32) -> Place<'_> {
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
            Command::Roll { moving, stationary } => self.roll(moving, stationary),
            Command::Adjust { to } => self.adjust(*to),
            Command::Deploy { id, formation } => self.deploy(*id, *formation),
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

    fn place(
        &mut self,
        side: Side,
        (kind, detachment): (Type, bool),
        leader: Hex,
        dis: [Hex; 2],
        c: &Composition,
    ) -> Result<(), RuleError> {
        if self.public.active.is_some() {
            return refuse("27.1.2", "leader counters are placed before the first turn");
        }
        let map = &self.setup.battle.map;
        for hex in std::iter::once(leader).chain(dis) {
            map.hex(&hex.to_string())?;
        }
        let name = self.setup.name(side);
        if c.real {
            if c.units.is_empty() {
                return refuse("27.1.1", "a real Wing has units");
            }
            if c.rating > MAX_RATING {
                return refuse(
                    "27.2.1",
                    format!("a command rating of {} is beyond {MAX_RATING}", c.rating),
                );
            }
            let mut arms = Vec::new();
            for id in &c.units {
                let unit = self.setup.unit(side, id).ok_or_else(|| {
                    RuleError::new("27.1.1", format!("{id} is not one of {name}'s units"))
                })?;
                arms.push(unit.arm);
            }
            placement::check_wing(&format!("{name}'s {} Wing", kind.name()), &arms)?;
            self.check_detached(side, c)?;
            // Once grouped, a unit belongs to one Wing (27.1.1).
            for other in self.public.counters.iter().filter(|o| o.side == side) {
                let theirs = self.composition(other.id)?;
                if let Some(unit) = c.units.iter().find(|u| theirs.units.contains(u)) {
                    return refuse(
                        "27.1.1",
                        format!("{unit} is already in the Wing of counter {}", other.id),
                    );
                }
            }
        } else {
            let allowed = self
                .setup
                .battle
                .dummies(side, self.setup.detachments[side])
                .iter()
                .filter(|d| d.kind == kind)
                .count();
            let mut placed = 0;
            for other in self
                .public
                .counters
                .iter()
                .filter(|o| o.side == side && o.kind == kind)
            {
                if !self.composition(other.id)?.real {
                    placed += 1;
                }
            }
            if placed >= allowed {
                return refuse(
                    "27.6",
                    format!(
                        "{name} has {allowed} {} dummies in {}: all are placed",
                        kind.name(),
                        self.setup.battle.name
                    ),
                );
            }
            // A dummy of a type the data places near a hex (Leuthen's Von
            // Loudon within 5 hexes of 2114, 27.6.2), when every dummy of
            // that type is so placed.
            let limits: Option<Vec<_>> = self.setup.battle.sides[side]
                .dummies
                .iter()
                .filter(|d| d.kind == kind)
                .map(|d| d.within.as_ref())
                .collect();
            if let Some(w) = limits.and_then(|l| l.first().copied()) {
                let measured = map.distance(leader, w.of);
                if measured > w.hexes {
                    return refuse(
                        "27.6",
                        format!(
                            "this {} dummy goes within {} hexes of {}: {leader} is {measured} away",
                            kind.name(),
                            w.hexes,
                            w.of
                        ),
                    );
                }
            }
        }
        // Units are combat units; leaders do not count (B3 ruling).
        let combat = |id: &String| {
            self.setup
                .unit(side, id)
                .is_some_and(|u| u.arm != Arm::Leader)
        };
        let reach =
            placement::dis_reach(c.real.then(|| c.units.iter().filter(|u| combat(u)).count()));
        placement::check_set_up(map, leader, dis, reach)?;
        if detachment && self.setup.battle.torgau_detachments {
            let mut stacks = vec![(
                "the new stack".to_string(),
                std::iter::once(leader).chain(dis).collect(),
            )];
            stacks.extend(
                self.public
                    .counters
                    .iter()
                    .filter(|o| o.side == side && o.detachment)
                    .map(|o| (format!("the stack of counter {}", o.id), o.hexes())),
            );
            placement::check_spacing(map, &stacks)?;
        }
        let id = self.public.counters.len();
        let sealed = seal(&place(self.game, side, id, 1), c, self.key(side)?)?;
        self.push(Event::Placed {
            id: self.public.counters.len(),
            side,
            kind,
            detachment,
            leader,
            dis,
            sealed,
        })
    }

    /// Units detached to the Army Commander: he is with this Wing, they are
    /// of it, at most 2 infantry/cavalry and 2 artillery (27.1.1).
    fn check_detached(&self, side: Side, c: &Composition) -> Result<(), RuleError> {
        if c.detached.is_empty() {
            return Ok(());
        }
        let Some(commander) = c
            .units
            .iter()
            .filter_map(|u| self.setup.unit(side, u))
            .find(|u| u.commander)
        else {
            return refuse(
                "27.1.1",
                "units are detached only to the Army Commander, and he is not with this Wing",
            );
        };
        let mut arms = Vec::new();
        for id in &c.detached {
            if !c.units.contains(id) {
                return refuse("27.1.1", format!("{id} is detached but not in this Wing"));
            }
            arms.extend(self.setup.unit(side, id).map(|u| u.arm));
        }
        placement::check_detached(&commander.name, &arms)
    }

    /// Flips a leader counter (B5 ruling): a dummy shows its whole record
    /// (it holds no units); a real Wing its face, its record opened only
    /// when it is placed.
    fn flip(&mut self, id: usize) -> Result<Composition, RuleError> {
        let contents = self.open(id)?;
        let c = contents.secret.clone();
        if self.public.counter(id)?.face.is_none() {
            self.push(if c.real {
                Event::Flipped {
                    id,
                    contents: None,
                    face: Some(Face::of(&c)),
                }
            } else {
                Event::Flipped {
                    id,
                    contents: Some(contents),
                    face: None,
                }
            })?;
        }
        Ok(c)
    }

    /// A Wing placed as units, its record opened for both (B8).
    fn place_wing(&mut self, id: usize, formation: Formation) -> Result<(), RuleError> {
        let contents = self.open(id)?;
        self.push(Event::Deployed {
            id,
            formation,
            contents: Some(contents),
        })
    }

    fn sight(&mut self, clear: bool) -> Result<(), RuleError> {
        let Some(Pending::Sight {
            moving,
            candidates,
            asked,
            spotted,
            rest,
        }) = self.public.pending.clone()
        else {
            return refuse("27.1.6", "no line of sight is asked now");
        };
        let stationary = candidates[asked].wing;
        if !clear {
            self.push(Event::Sighted {
                moving,
                stationary,
                clear,
                spotted: false,
            })?;
            // The last line asked, and none clear: nothing spotted it, and
            // the Wing goes on along its path.
            if self.public.pending.is_none() {
                self.go_on(moving, rest)?;
            }
            return Ok(());
        }
        // The moving side is spotted first (27.1.6); after the nearest Wing,
        // the others only show what they are (27.5).
        let first = spotted.is_empty() && self.public.counter(moving)?.face.is_none();
        let m_real = self.composition(moving)?.real;
        let s_real = self.composition(stationary)?.real;
        let r = spotting::resolve(
            if m_real { Leader::Real } else { Leader::Dummy },
            if s_real { Leader::Real } else { Leader::Dummy },
        );
        self.push(Event::Sighted {
            moving,
            stationary,
            clear,
            spotted: r.deployment,
        })?;
        if first || r.moving_removed {
            self.flip(moving)?;
        }
        if r.stationary_revealed {
            self.flip(stationary)?;
        }
        if r.stationary_removed {
            self.push(Event::Removed { id: stationary })?;
        }
        if r.moving_removed {
            self.push(Event::Removed { id: moving })?;
        } else if r.moving_turned_down && spotted.is_empty() {
            let side = self.public.counter(moving)?.side;
            let c = self.composition(moving)?;
            let n = self.public.counter(moving)?.seals + 1;
            let sealed = seal(&place(self.game, side, moving, n), &c, self.key(side)?)?;
            self.push(Event::TurnedDown { id: moving, sealed })?;
        }
        Ok(())
    }

    /// The modifiers of a side's Wing: its rating or its best leader's, and
    /// the Prussian cavalry bonus when it did not move.
    fn modifiers(&self, id: usize, moving: bool) -> Result<Vec<dice::Modifier>, RuleError> {
        let counter = self.public.counter(id)?;
        let c = self.composition(id)?;
        let units: Vec<&WingUnit> = c
            .units
            .iter()
            .filter_map(|u| self.setup.unit(counter.side, u))
            .collect();
        let leaders: Vec<(String, u32)> = units
            .iter()
            .filter_map(|u| u.rating.map(|r| (u.name.clone(), r)))
            .collect();
        let cavalry = !moving
            && self.setup.battle.sides[counter.side].prussian
            && units
                .iter()
                .all(|u| matches!(u.arm, Arm::Cavalry | Arm::Leader));
        Ok(roll::modifiers(c.rating, &leaders, cavalry))
    }

    fn roll(
        &mut self,
        moving_dice: &DiceInput,
        stationary_dice: &DiceInput,
    ) -> Result<(), RuleError> {
        let Some(Pending::Roll { moving, stationary }) = self.public.pending.clone() else {
            return refuse("27.2.1", "no deployment roll is due");
        };
        let m = self.modifiers(moving, true)?;
        let mut s = Vec::new();
        for &id in &stationary {
            let these = self.modifiers(id, false)?;
            if s.is_empty() || roll::total(&these) > roll::total(&s) {
                s = these;
            }
        }
        let moving_roll = dice::roll(
            moving_dice,
            1,
            "the moving side's deployment roll",
            self.dice,
            m,
        )?;
        let stationary_roll = dice::roll(
            stationary_dice,
            1,
            "the stationary side's deployment roll",
            self.dice,
            s,
        )?;
        let outcome = roll::decide(
            (moving_roll.dice[0], stationary_roll.dice[0]),
            roll::total(&moving_roll.modifiers),
            roll::total(&stationary_roll.modifiers),
        )?;
        self.push(Event::Rolled {
            moving,
            stationary: stationary.clone(),
            moving_roll,
            stationary_roll,
            outcome,
        })?;
        if outcome.adjustment == 0 {
            self.order_placing(moving, &stationary, outcome)?;
        }
        Ok(())
    }

    /// Each Wing of the spotting with the formation its rule gives it.
    fn order_placing(
        &mut self,
        moving: usize,
        stationary: &[usize],
        outcome: Outcome,
    ) -> Result<(), RuleError> {
        let won = outcome.winner == Role::Moving;
        let mut wings = vec![(
            moving,
            formation::moving(won, self.composition(moving)?.formation),
        )];
        for &id in stationary {
            let side = self.public.counter(id)?.side;
            let last = self.composition(id)?.formation;
            wings.push((
                id,
                formation::stationary(!won, self.setup.activated[side], last),
            ));
        }
        self.push(Event::ToPlace { wings })
    }

    fn adjust(&mut self, to: Option<Hex>) -> Result<(), RuleError> {
        let Some(Pending::Adjust {
            moving,
            allowed,
            stationary,
        }) = self.public.pending.clone()
        else {
            return refuse("27.2.2", "no adjustment is due");
        };
        if let Some(to) = to {
            let map = &self.setup.battle.map;
            map.hex(&to.to_string())?;
            let from = self.public.counter(moving)?.leader;
            placement::check_adjustment(map, from, to, allowed)?;
            self.push(Event::Adjusted { id: moving, to })?;
        }
        let outcome = self.public.last.expect("a roll came first");
        self.order_placing(moving, &stationary, outcome)
    }

    fn deploy(&mut self, id: usize, formation: Formation) -> Result<(), RuleError> {
        match self.public.pending.clone() {
            Some(Pending::Place { wings }) => {
                let Some((_, rule)) = wings.iter().find(|(w, _)| *w == id) else {
                    return refuse(
                        "27.3",
                        format!("counter {id} is not among the Wings to place"),
                    );
                };
                if let Some(must) = rule.must
                    && must != formation
                {
                    return refuse(
                        rule.rule(),
                        format!("counter {id} is placed {}: {}", must.name(), rule.why()),
                    );
                }
                self.place_wing(id, formation)
            }
            Some(_) => self.free(),
            None => {
                // Voluntary deployment (27.4): an active unspotted real Wing
                // that moved no more than half its IC allowance.
                let counter = self.public.counter(id)?.clone();
                if self.public.active != Some(counter.side) || !counter.hidden() {
                    return refuse(
                        "27.4",
                        "only an active, unspotted Wing deploys of its own accord",
                    );
                }
                let c = self.composition(id)?;
                if !c.real {
                    return refuse("27.4", "a dummy has no units to deploy");
                }
                if formation != Formation::Deployed {
                    return refuse(
                        "27.4",
                        "a voluntary deployment places the Wing deployed (27.3.1)",
                    );
                }
                let units = self.unit_allowances(counter.side, &c);
                let half = placement::voluntary_deployment(
                    placement::allowance(&units, Formation::InColumn).unwrap_or(0),
                );
                if counter.moved > half {
                    return refuse(
                        "27.4",
                        format!(
                            "it moved {} hexes: a Wing deploying of its own accord moves at most {half}",
                            counter.moved
                        ),
                    );
                }
                self.flip(id)?;
                self.place_wing(id, formation)
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
        self.ledger.writable()?;
        let mut work = Work {
            game: self.ledger.id(),
            setup: self.ledger.setup(),
            public: self.ledger.public().clone(),
            keys: self.ledger.keys(),
            dice: &mut self.dice,
            events: Vec::new(),
        };
        work.decide(&command)?;
        let events = work.events;
        self.ledger.append(events.clone())?;
        Ok(events)
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
        let work = Work {
            game: self.id(),
            setup: self.setup(),
            public: self.public().clone(),
            keys: self.keys(),
            dice: &mut AppDice::default(),
            events: Vec::new(),
        };
        let m = work.modifiers(*moving, true).ok()?;
        let s = stationary
            .iter()
            .filter_map(|&id| work.modifiers(id, false).ok())
            .max_by_key(|m| roll::total(m))?;
        Some((m, s))
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
        let work = Work {
            game: self.id(),
            setup: self.setup(),
            public: self.public().clone(),
            keys,
            dice: &mut AppDice::default(),
            events: Vec::new(),
        };
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

mod moving;
#[cfg(test)]
mod tests;
