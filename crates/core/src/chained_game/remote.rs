//! A chained game's record played from two machines (docs: "Playing
//! remotely"): the other machine's player keeps his key there, so this
//! machine neither seals nor opens his records (his decisions are refused
//! here, "must unlock first"), and his tags come from there. What
//! `Replica` asks of a chained system's record, shared by every system.

use super::{Ledger, Rules};
use crate::error::RuleError;
use crate::intel::ledger::Digest32;
use crate::side::Side;

impl<R: Rules> Ledger<R> {
    /// `side` plays from the other machine: his sealing key is not held
    /// here, nothing here waits on his unlock, and his tags are added as
    /// his machine sends them.
    pub fn seat_remote(&mut self, side: Side) {
        self.trail.seat_remote(side);
        self.keys[side] = None;
    }

    /// The chain's link at log position `position` (0: the header).
    pub fn link(&self, position: usize) -> Option<Digest32> {
        self.trail.links().get(position).copied()
    }

    /// `side`'s tags of every position from `from` on, made here with his
    /// key.
    pub fn own_tags(&self, side: Side, from: usize) -> Vec<(usize, Digest32)> {
        self.trail.own_tags(side, from)
    }

    /// `side`'s tag of the position `events` would make, appended next, if
    /// his key is held here.
    pub fn tag_next(&self, side: Side, events: &[R::Event]) -> Option<Digest32> {
        self.trail.tag_next(
            side,
            &super::Entry {
                events: events.to_vec(),
            },
        )
    }

    /// `side`'s tag of log position `position`, if the record holds one.
    pub fn tag(&self, side: Side, position: usize) -> Option<Digest32> {
        self.trail.tags().get(position).and_then(|tags| tags[side])
    }

    /// `side`'s tag of log position `position`, made on his machine.
    pub fn add_tag(&mut self, side: Side, position: usize, tag: Digest32) -> Result<(), RuleError> {
        self.trail.add_tag(side, position, tag)
    }

    /// Entries from `from` on reached the other machine while `side`'s
    /// player was away: his unlock tags them.
    pub fn arrived_while_away(&mut self, side: Side, from: usize) {
        self.trail.arrived_while_away(side, from);
    }
}
