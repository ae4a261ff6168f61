//! What a dummy-wings log records and what both players see folded from it
//! (RULES-map-intel B3-B10): the sealed compositions, the counters on the
//! map, what must be settled first, the events and the public state, each
//! event checked against the state before it.

use super::formation::{Formation, Placement};
use super::roll::{self, Outcome};
use super::scenario::Type;
use super::setup::{MAX_ALLOWANCE, Setup, no_hexes};
use super::spotting::InRange;
use crate::map::Hex;
use muster_core::dice::Roll;
use muster_core::error::{RuleError, refuse};
use muster_core::intel::{Revealed, Sealed};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};

/// What a leader counter stands for, sealed under its owner's key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Composition {
    pub real: bool,
    pub units: Vec<String>,
    /// The Wing's command rating (0 for a dummy).
    pub rating: u32,
    pub formation: Formation,
    /// Units of `units` detached to the Army Commander with this Wing
    /// (27.1.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub detached: Vec<String>,
}

impl Composition {
    pub fn dummy(formation: Formation) -> Composition {
        Composition {
            detached: Vec::new(),
            real: false,
            units: Vec::new(),
            rating: 0,
            formation,
        }
    }
}

/// What a flipped leader counter shows both players (B5 ruling): a real
/// Wing or a dummy, and its command rating; never its units, which become
/// public only when they are placed (B8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Face {
    pub real: bool,
    pub rating: u32,
}

impl Face {
    pub fn of(c: &Composition) -> Face {
        Face {
            real: c.real,
            rating: c.rating,
        }
    }
}

/// A leader counter as both players see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Counter {
    pub id: usize,
    pub side: Side,
    pub kind: Type,
    /// A Detachment stack (Torgau's masked stacks keep their spacing).
    pub detachment: bool,
    pub leader: Hex,
    pub dis: Vec<Hex>,
    pub sealed: Sealed,
    /// Its whole record, opened and checked against its commitment: a
    /// dummy once flipped, a real Wing once placed.
    pub shown: Option<Composition>,
    /// Face up: what its flip showed.
    pub face: Option<Face>,
    /// What a real Wing's flip said it is, kept (through a turn face down
    /// too) until its placement opens its record and checks it.
    pub claimed: Option<Face>,
    /// Removed (a dummy) or placed as units (a Wing).
    pub gone: bool,
    pub deployed: Option<Formation>,
    /// Hexes moved this turn by the leader and by each Dis counter.
    pub moved: u32,
    pub dis_moved: [u32; 2],
    /// How many times its composition has been sealed: the current record
    /// is bound to the slot "counter {id} seal {seals}".
    pub seals: u32,
}

impl Counter {
    pub(crate) fn hexes(&self) -> Vec<Hex> {
        std::iter::once(self.leader)
            .chain(self.dis.iter().copied())
            .collect()
    }

    pub(crate) fn hidden(&self) -> bool {
        !self.gone && self.deployed.is_none()
    }
}

/// The hexes the leader and each Dis counter have still to enter on the
/// paths their owner traced (B4c).
pub type Rest = [Vec<Hex>; 3];

fn untraced(rest: &Rest) -> bool {
    rest.iter().all(Vec::is_empty)
}

/// What must be settled before anything else.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "pending", rename_all = "snake_case")]
pub enum Pending {
    /// Enemy Wings tied for the nearest (`tied`): the moving player says
    /// which is the closest (B10 ruling); then its line of sight is asked.
    Closest {
        moving: usize,
        candidates: Vec<InRange>,
        tied: Vec<usize>,
        rest: Rest,
    },
    /// The line of sight from the moving Wing to `candidates[asked]`;
    /// `rest`, what the Wing's move has still to enter if no line is clear.
    Sight {
        moving: usize,
        candidates: Vec<InRange>,
        asked: usize,
        spotted: Vec<usize>,
        rest: Rest,
    },
    Roll {
        moving: usize,
        stationary: Vec<usize>,
    },
    /// The winning moving leader may shift up to `allowed` hexes.
    Adjust {
        moving: usize,
        allowed: u32,
        stationary: Vec<usize>,
    },
    /// These Wings are placed, each as its rule says.
    Place { wings: Vec<(usize, Placement)> },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    Placed {
        id: usize,
        side: Side,
        kind: Type,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        detachment: bool,
        leader: Hex,
        dis: [Hex; 2],
        sealed: Sealed,
    },
    /// Where a move left the counters, and how far the leader (`hexes`)
    /// and each Dis counter moved; a move stops at the hex that brought an
    /// enemy counter within 7 hexes.
    Moved {
        id: usize,
        leader: Hex,
        dis: [Hex; 2],
        hexes: u32,
        #[serde(default, skip_serializing_if = "no_hexes")]
        dis_hexes: [u32; 2],
    },
    /// A move brought enemy counters within 7 hexes, nearest first.
    InRange {
        moving: usize,
        candidates: Vec<InRange>,
        /// The hexes of the traced paths not yet entered: where the Wing
        /// goes on if every line of sight is blocked (27.1.6). Empty in
        /// games saved before the Wing went on by itself.
        #[serde(default, skip_serializing_if = "untraced")]
        rest: Rest,
    },
    /// The moving player's choice of the closest among Wings tied for it
    /// (B10 ruling).
    ClosestChosen {
        wing: usize,
    },
    /// The players' answer to the line-of-sight question; `spotted`: both
    /// leaders real, so this Wing deploys after the roll.
    Sighted {
        moving: usize,
        stationary: usize,
        clear: bool,
        spotted: bool,
    },
    /// A leader counter flipped: a dummy's whole record, opened (it holds
    /// no units); a real Wing's face only, its record opened when it is
    /// placed (B5 ruling). Games saved before the ruling open the record.
    Flipped {
        id: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        contents: Option<Revealed<Composition>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        face: Option<Face>,
    },
    Removed {
        id: usize,
    },
    /// The moving Wing met a dummy: face down again, and it may go on.
    TurnedDown {
        id: usize,
        sealed: Sealed,
    },
    Rolled {
        moving: usize,
        stationary: Vec<usize>,
        moving_roll: Roll,
        stationary_roll: Roll,
        outcome: Outcome,
    },
    Adjusted {
        id: usize,
        to: Hex,
    },
    /// The Wings to place now, each with its formation rule.
    ToPlace {
        wings: Vec<(usize, Placement)>,
    },
    /// A Wing placed as units: its record opened, so both may check its
    /// units and what its flip said (B8).
    Deployed {
        id: usize,
        formation: Formation,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        contents: Option<Revealed<Composition>>,
    },
    TurnBegan {
        number: u32,
        active: Side,
    },
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Public {
    pub counters: Vec<Counter>,
    pub turn: u32,
    pub active: Option<Side>,
    pub pending: Option<Pending>,
    /// The last roll, kept for the formations that follow it.
    pub last: Option<Outcome>,
}

impl Public {
    pub fn counter(&self, id: usize) -> Result<&Counter, RuleError> {
        self.counters
            .get(id)
            .ok_or_else(|| RuleError::new("27.1", format!("there is no counter {id}")))
    }

    fn counter_mut(&mut self, id: usize) -> Result<&mut Counter, RuleError> {
        self.counters
            .get_mut(id)
            .ok_or_else(|| RuleError::new("27.1", format!("there is no counter {id}")))
    }

    fn fits(&self, event: &Event, setup: &Setup) -> Result<(), RuleError> {
        let map = &setup.battle.map;
        let on_map = |hexes: &[Hex]| match hexes.iter().find(|h| !map.contains(**h)) {
            Some(h) => refuse("27.1", format!("{h} is not on the map")),
            None => Ok(()),
        };
        let wrong = |what: &str| refuse("27.1", format!("{what} does not follow from the game"));
        match event {
            Event::Placed {
                side, leader, dis, ..
            } => {
                on_map(&[*leader, dis[0], dis[1]])?;
                let most = setup.armies[*side].len()
                    + setup.battle.dummies(*side, setup.detachments[*side]).len();
                let placed = self.counters.iter().filter(|c| c.side == *side).count();
                if placed >= most || self.active.is_some() {
                    return wrong("a counter placed beyond the army's units and dummies");
                }
            }
            Event::Moved { leader, dis, .. } => on_map(&[*leader, dis[0], dis[1]])?,
            Event::Adjusted { to, id } => {
                on_map(&[*to])?;
                if !matches!(self.pending, Some(Pending::Adjust { moving, .. }) if moving == *id) {
                    return wrong("an adjustment");
                }
            }
            Event::InRange {
                moving,
                candidates,
                rest,
            } => {
                on_map(&rest.concat())?;
                let mover = self.counter(*moving)?;
                let fine = self.pending.is_none()
                    && mover.hidden()
                    && !candidates.is_empty()
                    && candidates.iter().all(|c| {
                        self.counters
                            .get(c.wing)
                            .is_some_and(|o| o.side != mover.side && o.hidden())
                    });
                if !fine {
                    return wrong("a spotting");
                }
            }
            Event::Sighted { moving, .. } => {
                if !matches!(self.pending, Some(Pending::Sight { moving: m, .. }) if m == *moving) {
                    return wrong("a line-of-sight answer");
                }
            }
            Event::ClosestChosen { wing } => {
                if !matches!(&self.pending, Some(Pending::Closest { tied, .. }) if tied.contains(wing))
                {
                    return wrong("a choice of the closest Wing");
                }
            }
            Event::Rolled {
                moving,
                stationary,
                outcome,
                ..
            } => {
                let asked = matches!(&self.pending, Some(Pending::Roll { moving: m, stationary: s })
                    if m == moving && s == stationary);
                if !asked || outcome.adjustment > roll::MAX_ADJUSTMENT {
                    return wrong("a deployment roll");
                }
            }
            Event::ToPlace { wings } => {
                if wings.is_empty() || wings.iter().any(|(id, _)| self.counter(*id).is_err()) {
                    return wrong("the Wings to place");
                }
            }
            Event::TurnBegan { number, .. } => {
                if *number != self.turn.saturating_add(1) {
                    return wrong(&format!("turn {number}"));
                }
            }
            Event::Flipped { .. }
            | Event::Removed { .. }
            | Event::TurnedDown { .. }
            | Event::Deployed { .. } => {}
        }
        Ok(())
    }

    /// A moving Wing removed or turned face down ends its spotting.
    fn end_sight(&mut self, id: usize) {
        if matches!(self.pending, Some(Pending::Sight { moving, .. }) if moving == id) {
            self.pending = None;
        }
    }

    /// Folds one event in; an event that does not fit is refused, so that
    /// a file's log holds only what the rules could have made: counters on
    /// the map and within the army's count, a spotting with someone to
    /// spot, answers and rolls to what was asked.
    pub fn fold(&mut self, event: &Event, setup: &Setup) -> Result<(), RuleError> {
        self.fits(event, setup)?;
        match event {
            Event::Placed {
                id,
                side,
                kind,
                detachment,
                leader,
                dis,
                sealed,
            } => {
                crate::events::next_id(*id, self.counters.len(), "27.1")?;
                self.counters.push(Counter {
                    id: *id,
                    side: *side,
                    kind: *kind,
                    detachment: *detachment,
                    leader: *leader,
                    dis: dis.to_vec(),
                    sealed: sealed.clone(),
                    shown: None,
                    face: None,
                    claimed: None,
                    gone: false,
                    deployed: None,
                    moved: 0,
                    dis_moved: [0, 0],
                    seals: 1,
                });
            }
            Event::Moved {
                id,
                leader,
                dis,
                hexes,
                dis_hexes,
            } => {
                let c = self.counter_mut(*id)?;
                if !c.hidden() {
                    return refuse("27.1.4", format!("counter {id} is not on the map to move"));
                }
                let add = |a: u32, b: u32| {
                    a.checked_add(b)
                        .filter(|n| *n <= MAX_ALLOWANCE)
                        .ok_or_else(|| {
                            RuleError::new(
                                "27.1.4",
                                format!("counter {id} moves beyond any allowance"),
                            )
                        })
                };
                c.moved = add(c.moved, *hexes)?;
                c.dis_moved = [
                    add(c.dis_moved[0], dis_hexes[0])?,
                    add(c.dis_moved[1], dis_hexes[1])?,
                ];
                c.leader = *leader;
                c.dis = dis.to_vec();
            }
            Event::InRange {
                moving,
                candidates,
                rest,
            } => {
                let tied = super::spotting::tied(candidates);
                self.pending = Some(if tied.is_empty() {
                    Pending::Sight {
                        moving: *moving,
                        candidates: candidates.clone(),
                        asked: 0,
                        spotted: Vec::new(),
                        rest: rest.clone(),
                    }
                } else {
                    Pending::Closest {
                        moving: *moving,
                        candidates: candidates.clone(),
                        tied,
                        rest: rest.clone(),
                    }
                });
            }
            Event::ClosestChosen { wing } => {
                let Some(Pending::Closest {
                    moving,
                    candidates,
                    rest,
                    ..
                }) = self.pending.take()
                else {
                    return refuse("27.5", "no closest Wing was asked");
                };
                // The chosen one first; the rest keep their order.
                let (chosen, others): (Vec<InRange>, Vec<InRange>) =
                    candidates.into_iter().partition(|c| c.wing == *wing);
                self.pending = Some(Pending::Sight {
                    moving,
                    candidates: chosen.into_iter().chain(others).collect(),
                    asked: 0,
                    spotted: Vec::new(),
                    rest,
                });
            }
            Event::Sighted {
                stationary,
                clear,
                spotted: seen,
                ..
            } => {
                let Some(Pending::Sight {
                    moving,
                    candidates,
                    asked,
                    spotted,
                    rest,
                }) = &mut self.pending
                else {
                    return refuse("27.1.6", "no line of sight was asked");
                };
                if candidates.get(*asked).map(|c| c.wing) != Some(*stationary) {
                    return refuse(
                        "27.5",
                        format!("counter {stationary} was not the one asked about"),
                    );
                }
                *asked += 1;
                // A clear line settles where the move ends (27.1.6); only
                // blocked ones let the Wing go on.
                if *clear {
                    *rest = Rest::default();
                }
                if *seen {
                    spotted.push(*stationary);
                }
                if *asked == candidates.len() {
                    self.pending = (!spotted.is_empty()).then(|| Pending::Roll {
                        moving: *moving,
                        stationary: std::mem::take(spotted),
                    });
                }
            }
            Event::Flipped { id, contents, face } => {
                let c = self.counter_mut(*id)?;
                match (contents, face) {
                    (Some(contents), _) => {
                        c.sealed
                            .check(contents)
                            .map_err(|e| RuleError::new("27.1.6", format!("counter {id}: {e}")))?;
                        c.shown = Some(contents.secret.clone());
                        c.face = Some(Face::of(&contents.secret));
                    }
                    (None, Some(face)) if face.real => {
                        c.face = Some(*face);
                        c.claimed = Some(*face);
                    }
                    _ => {
                        return refuse(
                            "27.1.6",
                            format!(
                                "counter {id}: a flip shows a real Wing's face, or a dummy's whole record"
                            ),
                        );
                    }
                }
            }
            Event::Removed { id } => {
                self.counter_mut(*id)?.gone = true;
                self.end_sight(*id);
            }
            Event::TurnedDown { id, sealed } => {
                let c = self.counter_mut(*id)?;
                c.sealed = sealed.clone();
                c.seals += 1;
                c.shown = None;
                c.face = None;
                self.end_sight(*id);
            }
            Event::Rolled {
                moving,
                stationary,
                outcome,
                ..
            } => {
                self.last = Some(*outcome);
                self.pending = Some(Pending::Adjust {
                    moving: *moving,
                    allowed: outcome.adjustment,
                    stationary: stationary.clone(),
                });
            }
            Event::Adjusted { id, to } => self.counter_mut(*id)?.leader = *to,
            Event::ToPlace { wings } => {
                self.pending = Some(Pending::Place {
                    wings: wings.clone(),
                })
            }
            Event::Deployed {
                id,
                formation,
                contents,
            } => {
                let c = self.counter_mut(*id)?;
                if let Some(contents) = contents {
                    c.sealed
                        .check(contents)
                        .map_err(|e| RuleError::new("27.3", format!("counter {id}: {e}")))?;
                    let face = Face::of(&contents.secret);
                    if c.claimed.is_some_and(|claimed| claimed != face) {
                        return refuse(
                            "27.1.6",
                            format!("counter {id}: its flip did not show what its record holds"),
                        );
                    }
                    c.shown = Some(contents.secret.clone());
                    c.face = Some(face);
                }
                c.deployed = Some(*formation);
                c.dis.clear();
                if let Some(Pending::Place { wings }) = &mut self.pending {
                    wings.retain(|(w, _)| w != id);
                    if wings.is_empty() {
                        self.pending = None;
                    }
                }
            }
            Event::TurnBegan { number, active } => {
                self.turn = *number;
                self.active = Some(*active);
                for c in &mut self.counters {
                    c.moved = 0;
                    c.dis_moved = [0, 0];
                }
            }
        }
        Ok(())
    }
}
