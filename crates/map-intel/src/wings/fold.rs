//! The dummy-wings log folded into what both players see (RULES-map-intel
//! B3-B10, `docs/src/rules/map-intel.md`): each event checked against the
//! state before it (counters on the map and within the army's count, a
//! spotting with someone to spot, answers and rolls to what was asked),
//! and what a Wing's owner said of it checked once its record opens.

use super::claims;
use super::events::{Claim, Counter, Event, Face, Pending, Public, Rest};
use super::formation::Formation;
use super::placement;
use super::roll;
use super::setup::{MAX_ALLOWANCE, Setup};
use super::spotting::InRange;
use crate::map::Hex;
use muster_core::dice::Modifier;
use muster_core::error::{RuleError, refuse};

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
            Event::Sighted { moving, clear, .. } => {
                // After a line called clear, only its owner's showing.
                if !matches!(self.pending, Some(Pending::Sight { moving: m, clear: c, .. })
                    if m == *moving && (*clear || !c))
                {
                    return wrong("a line-of-sight answer");
                }
            }
            Event::LineClear {
                moving, stationary, ..
            } => {
                let asked = matches!(&self.pending, Some(Pending::Sight { moving: m, candidates, asked, clear: false, .. })
                    if m == moving && candidates.get(*asked).map(|c| c.wing) == Some(*stationary));
                let real = self.counter(*moving)?.face.is_some_and(|f| f.real);
                if !asked || !real {
                    return wrong("a line called clear");
                }
            }
            Event::Claimed { id, .. } => {
                let c = self.counter(*id)?;
                if !c.hidden() || !c.face.is_some_and(|f| f.real) {
                    return wrong("a spotted Wing's claim");
                }
            }
            Event::Resealed { id, .. } => {
                let c = self.counter(*id)?;
                if !c.hidden() || c.shown.is_some() {
                    return wrong("a record sealed anew");
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
                moving_roll,
                stationary_roll,
            } => {
                let asked = matches!(&self.pending, Some(Pending::Roll { moving: m, stationary: s })
                    if m == moving && s == stationary);
                let decided = match (&moving_roll.dice[..], &stationary_roll.dice[..]) {
                    (&[m], &[s]) => roll::decide(
                        (m, s),
                        roll::total(&moving_roll.modifiers),
                        roll::total(&stationary_roll.modifiers),
                    )
                    .ok(),
                    _ => None,
                };
                if !asked || decided != Some(*outcome) {
                    return wrong("a deployment roll");
                }
                // The stationary side adds the best its owner said of its
                // spotted Wings (games saved before such words say none).
                let said: Option<Vec<&Vec<Modifier>>> = stationary
                    .iter()
                    .map(|id| Some(&self.counter(*id).ok()?.claim.as_ref()?.modifiers))
                    .collect();
                if let Some(said) = said
                    && claims::best(said) != Some(&stationary_roll.modifiers)
                {
                    return wrong("what the stationary side adds to its die");
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
            | Event::Deployed { .. }
            | Event::LockSet { .. } => {}
            Event::GameOver { by } => {
                if self.active != Some(*by) || self.pending.is_some() {
                    return wrong("the game's end");
                }
            }
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
        if self.over {
            return refuse("27.1", "the game is over: nothing follows its end");
        }
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
                    claim: None,
                    down: None,
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
                        clear: false,
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
                    clear: false,
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
                    clear: shown,
                }) = &mut self.pending
                else {
                    return refuse("27.1.6", "no line of sight was asked");
                };
                *shown = false;
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
                // Its owner's record, sealed as the line was called clear.
                if c.down.take().is_some_and(|down| down != *sealed) {
                    return refuse(
                        "27.1.6",
                        format!(
                            "counter {id} is turned face down with a record its owner did not seal"
                        ),
                    );
                }
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
                moving_roll,
                ..
            } => {
                self.last = Some(*outcome);
                self.counter_mut(*moving)?.claim = Some(Claim {
                    moving: true,
                    modifiers: moving_roll.modifiers.clone(),
                    formation: None,
                });
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
                let rule = match (&self.pending, self.last) {
                    (Some(Pending::Place { wings }), Some(last)) => wings
                        .iter()
                        .find(|(w, _)| w == id)
                        .map(|(_, rule)| (*rule, last)),
                    _ => None,
                };
                let voluntary = !matches!(self.pending, Some(Pending::Place { .. }));
                let c = self.counter_mut(*id)?;
                if let Some(contents) = contents {
                    if let Some(claim) = c.claim.take() {
                        claims::check(setup, c.side, *id, &claim, &contents.secret, rule)?;
                    }
                    // Of its own accord (27.4): its record, open now, says
                    // whether it could.
                    if voluntary {
                        let units = setup.unit_allowances(c.side, &contents.secret);
                        let column = placement::allowance(&units, Formation::InColumn);
                        let half = placement::voluntary_deployment(column.unwrap_or(0));
                        if !contents.secret.real
                            || *formation != Formation::Deployed
                            || c.moved > half
                        {
                            return refuse(
                                "27.4",
                                format!(
                                    "counter {id} could not deploy of its own accord: a real Wing that moved at most {half} hexes deploys so, placed deployed"
                                ),
                            );
                        }
                    }
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
                    c.down = None;
                }
            }
            Event::LineClear { moving, down, .. } => {
                self.counter_mut(*moving)?.down = down.clone();
                if let Some(Pending::Sight { clear, .. }) = &mut self.pending {
                    *clear = true;
                }
            }
            Event::Claimed {
                id,
                modifiers,
                formation,
            } => {
                self.counter_mut(*id)?.claim = Some(Claim {
                    moving: false,
                    modifiers: modifiers.clone(),
                    formation: Some(*formation),
                });
            }
            Event::LockSet { .. } => {}
            Event::GameOver { .. } => self.over = true,
            Event::Resealed { id, sealed } => {
                let c = self.counter_mut(*id)?;
                c.sealed = sealed.clone();
                c.seals += 1;
            }
        }
        Ok(())
    }
}
