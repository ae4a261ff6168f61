//! Deploying spotted Wings (RULES-map-intel B6-B9,
//! `docs/src/rules/map-intel.md`; 27.2-27.4): the deployment roll with each
//! side's modifiers, the winning moving Wing's adjustment, the formation
//! each Wing's rule gives it, each placed as units with its record opened,
//! and a Wing deploying of its own accord.

use super::{Event, Formation, Pending, Work};
use crate::map::Hex;
use crate::wings::claims;
use crate::wings::placement;
use crate::wings::roll::{self, Outcome};
use muster_core::dice::{self, DiceInput};
use muster_core::error::{RuleError, refuse};

impl Work<'_> {
    /// A Wing placed as units, its record opened for both (B8).
    pub(super) fn place_wing(&mut self, id: usize, formation: Formation) -> Result<(), RuleError> {
        let contents = self.open(id)?;
        self.push(Event::Deployed {
            id,
            formation,
            contents: Some(contents),
        })
    }

    /// The modifiers of a side's Wing: what its owner said of a spotted
    /// stationary Wing (`Claimed`), otherwise worked out from its record
    /// (his own, or a game saved before such words).
    pub(super) fn modifiers(
        &self,
        id: usize,
        moving: bool,
    ) -> Result<Vec<dice::Modifier>, RuleError> {
        let counter = self.public.counter(id)?;
        if let Some(claim) = counter.claim.as_ref().filter(|c| !c.moving && !moving) {
            return Ok(claim.modifiers.clone());
        }
        let c = self.composition(id)?;
        Ok(claims::modifiers(self.setup, counter.side, &c, moving))
    }

    /// A stationary Wing's last formation: what its owner said of it, or
    /// its record.
    fn last_formation(&self, id: usize) -> Result<Formation, RuleError> {
        match self
            .public
            .counter(id)?
            .claim
            .as_ref()
            .and_then(|c| c.formation)
        {
            Some(formation) => Ok(formation),
            None => Ok(self.composition(id)?.formation),
        }
    }

    pub(super) fn roll(
        &mut self,
        moving_dice: &DiceInput,
        stationary_dice: &DiceInput,
    ) -> Result<(), RuleError> {
        let Some(Pending::Roll { moving, stationary }) = self.public.pending.clone() else {
            return refuse("27.2.1", "no deployment roll is due");
        };
        let m = self.modifiers(moving, true)?;
        let all = (stationary.iter())
            .map(|&id| self.modifiers(id, false))
            .collect::<Result<Vec<_>, _>>()?;
        let s = claims::best(&all).cloned().unwrap_or_default();
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
    pub(super) fn order_placing(
        &mut self,
        moving: usize,
        stationary: &[usize],
        outcome: Outcome,
    ) -> Result<(), RuleError> {
        let rule = |id: usize, moving: bool, last| -> Result<_, RuleError> {
            let side = self.public.counter(id)?.side;
            Ok((
                id,
                claims::placement(self.setup, side, moving, outcome, last),
            ))
        };
        let mut wings = vec![rule(moving, true, self.composition(moving)?.formation)?];
        for &id in stationary {
            wings.push(rule(id, false, self.last_formation(id)?)?);
        }
        self.push(Event::ToPlace { wings })
    }

    pub(super) fn adjust(&mut self, to: Option<Hex>) -> Result<(), RuleError> {
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

    pub(super) fn deploy(&mut self, id: usize, formation: Formation) -> Result<(), RuleError> {
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
                let units = self.setup.unit_allowances(counter.side, &c);
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
