//! Field of Glory's use of the shared trail (`core::intel::trail`): the
//! chain starts from the battle's id and its ruleset, and an `ArmySet` with
//! a lock is what sets a player's passphrase.

use super::{Entry, Event};
use crate::ruleset::Ruleset;
use muster_core::intel::ledger::{self, Digest32};

pub use muster_core::intel::trail::{Tags, new_id};

/// The chain's start: the battle's id and its ruleset.
pub(super) fn genesis(id: &str, ruleset: &Ruleset) -> Digest32 {
    let json = serde_json::to_vec(ruleset).expect("a ruleset always serializes");
    ledger::genesis(id, &json)
}

/// The chain of a battle with this id, ruleset and log: the link after each
/// entry, in order. What a file's hashes must be.
pub fn chain(id: &str, ruleset: &Ruleset, entries: &[Entry]) -> Vec<Digest32> {
    muster_core::intel::trail::chain(genesis(id, ruleset), entries)
}

/// The sides whose lock `events` set.
pub(super) fn new_locks(events: &[Event]) -> Vec<muster_core::side::Side> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::ArmySet {
                side,
                lock: Some(_),
                ..
            } => Some(*side),
            _ => None,
        })
        .collect()
}
