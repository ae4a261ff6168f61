//! A leader counter placed before the first turn (RULES-map-intel B2, B3,
//! B11, `docs/src/rules/map-intel.md`; 27.1.1, 27.1.2, 27.6): a real
//! Wing's units, rating and detached units checked, a unit in one Wing
//! only, the battle's count of dummies and where its data places them, the
//! Dis counters' reach and Torgau's detachment stacks spaced, the
//! composition sealed.

use super::{Arm, Composition, Event, MAX_RATING, Type, Work, place, seal};
use crate::map::Hex;
use crate::wings::placement;
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;

impl Work<'_> {
    pub(super) fn place(
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
    pub(super) fn check_detached(&self, side: Side, c: &Composition) -> Result<(), RuleError> {
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
}
