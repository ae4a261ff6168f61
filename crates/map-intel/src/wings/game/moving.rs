//! A Wing's move (RULES-map-intel B4, B5): its allowance, the paths traced
//! for its leader and each Dis counter checked against it, and the counters
//! stepped in turn along them, stopping at the first hex entered within 7
//! hexes of an enemy counter (B4c), where the line of sight is asked. The
//! hexes not yet entered wait with the question: if every line is blocked,
//! the Wing goes on along them (27.1.6 spots only with a clear line), and
//! spotting is checked again at each hex it enters.

use super::Work;
use crate::map::Hex;
use crate::wings::events::{Event, Rest};
use crate::wings::{placement, spotting};
use muster_core::error::{RuleError, refuse};

impl Work<'_> {
    /// The most a counter may move this turn, and what sets it
    /// (`Setup::allowance`).
    pub(super) fn allowance(&self, id: usize) -> Result<(u32, &'static str), RuleError> {
        let counter = self.public.counter(id)?;
        let c = self.composition(id)?;
        Ok(self.setup.allowance(counter.side, counter.kind, &c))
    }

    /// A move along the paths traced for the leader and each Dis counter,
    /// each within the allowance (B4a), then stepped (`step`).
    pub(super) fn do_move(
        &mut self,
        id: usize,
        leader: &[Hex],
        dis: &[Vec<Hex>; 2],
    ) -> Result<(), RuleError> {
        self.free()?;
        let counter = self.public.counter(id)?.clone();
        match self.public.active {
            Some(active) if active == counter.side => {}
            Some(_) => return refuse("27.1.4", "a side moves its counters in its own turn"),
            None => return refuse("27.1.4", "the game has not begun"),
        }
        if !counter.hidden() {
            return refuse(
                "27.1.4",
                format!("counter {id} is no longer on the map as a leader"),
            );
        }
        if leader.is_empty() && dis.iter().all(Vec::is_empty) {
            return refuse("27.1.4", format!("counter {id}: trace a path to move it"));
        }
        let paths = [leader.to_vec(), dis[0].clone(), dis[1].clone()];
        self.check_paths(id, &paths)?;
        self.step(id, paths)
    }

    /// The Wing goes on along the hexes its move had still to enter, every
    /// line of sight from where it stopped having been called blocked. They
    /// are checked again as a move (a game's file holds them), and a Wing
    /// that may not go on stays where it is.
    pub(super) fn go_on(&mut self, id: usize, rest: Rest) -> Result<(), RuleError> {
        let hidden = self.public.counter(id).is_ok_and(|c| c.hidden());
        if !hidden || rest.iter().all(Vec::is_empty) || self.check_paths(id, &rest).is_err() {
            return Ok(());
        }
        self.step(id, rest)
    }

    /// Each path within the counter's allowance left this turn, from where
    /// its piece stands, and the Dis counters ending within 2 hexes of the
    /// leader (B4a, 27.1.4).
    fn check_paths(&self, id: usize, paths: &Rest) -> Result<(), RuleError> {
        let counter = self.public.counter(id)?;
        let map = &self.setup.battle.map;
        let (most, why) = self.allowance(id)?;
        let from = [counter.leader, counter.dis[0], counter.dis[1]];
        let moved = [counter.moved, counter.dis_moved[0], counter.dis_moved[1]];
        let names = [
            format!("counter {id}"),
            format!("counter {id}'s first Dis counter"),
            format!("counter {id}'s second Dis counter"),
        ];
        for k in 0..3 {
            placement::check_path(map, &names[k], from[k], &paths[k], moved[k], most, why)?;
        }
        let end = |k: usize| paths[k].last().copied().unwrap_or(from[k]);
        placement::check_trail(map, end(0), [end(1), end(2)])
    }

    /// The counters step in turn, a hex each, so that the Wing moves as a
    /// body and stops together: at the first hex entered within 7 hexes of
    /// an enemy counter (B4c), where the line of sight is asked, the hexes
    /// not yet entered kept with the question.
    fn step(&mut self, id: usize, paths: Rest) -> Result<(), RuleError> {
        let counter = self.public.counter(id)?.clone();
        let map = &self.setup.battle.map;
        let enemies: Vec<(usize, Vec<Hex>)> = self
            .public
            .counters
            .iter()
            .filter(|o| o.side != counter.side && o.hidden())
            .map(|o| (o.id, o.hexes()))
            .collect();
        let mut at = [counter.leader, counter.dis[0], counter.dis[1]];
        let mut steps = [0usize; 3];
        let mut stopped = false;
        let longest = paths.iter().map(Vec::len).max().unwrap_or(0);
        'steps: for i in 0..longest {
            for k in 0..3 {
                let Some(&hex) = paths[k].get(i) else {
                    continue;
                };
                at[k] = hex;
                steps[k] += 1;
                if !spotting::in_range(map, &[hex], &enemies).is_empty() {
                    stopped = true;
                    break 'steps;
                }
            }
        }
        let hexes = |k: usize| steps[k] as u32;
        self.push(Event::Moved {
            id,
            leader: at[0],
            dis: [at[1], at[2]],
            hexes: hexes(0),
            dis_hexes: [hexes(1), hexes(2)],
        })?;
        if !stopped {
            return Ok(());
        }
        let candidates = spotting::in_range(map, &at, &enemies);
        let rest = [0, 1, 2].map(|k| paths[k][steps[k]..].to_vec());
        self.push(Event::InRange {
            moving: id,
            candidates,
            rest,
        })
    }
}
