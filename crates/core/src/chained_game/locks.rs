//! A player's lock set by an entry (docs: "Playing remotely"): a player who
//! had no passphrase when the game began sets one on his own machine once
//! it is under way (a remote joiner, when he joins). His key is held here,
//! from his own screen, until the entry that sets his lock is appended;
//! from then on his records are sealed under it, and he tags every entry,
//! those before it too (he has seen them). A lock once set is never taken
//! back or set again.

use super::{Ledger, Rules};
use crate::error::{RuleError, refuse};
use crate::intel::trail::Locks;
use crate::intel::{Lock, PlayerKey, SealKey};
use crate::side::Side;

/// The locks `events` set, each refused if its side has one already.
pub(super) fn set_by<R: Rules>(
    locks: &Locks,
    events: &[R::Event],
    setup: &R::Setup,
) -> Vec<(Side, Result<Lock, RuleError>)> {
    let mut had = locks.clone();
    events
        .iter()
        .filter_map(R::lock_set)
        .map(|(side, lock)| {
            let set = match had[side] {
                Some(_) => refuse(
                    "trust",
                    format!("{} has set a passphrase already", R::name(setup, side)),
                ),
                None => Ok(lock.clone()),
            };
            had[side] = Some(lock.clone());
            (side, set)
        })
        .collect()
}

impl<R: Rules> Ledger<R> {
    /// Holds `side`'s key, from his own screen, for the entry that sets his
    /// lock; refused if he has one.
    pub fn prepare_lock(&mut self, side: Side, key: PlayerKey) -> Result<(), RuleError> {
        if self.locks[side].is_some() {
            return refuse(
                "trust",
                format!("{} has set a passphrase already", self.name(side)),
            );
        }
        self.new_keys[side] = Some(key);
        Ok(())
    }

    /// The sealing key of `lock`, held here from `side`'s screen: what his
    /// records are sealed anew under as he sets it.
    pub fn new_seal_key(&self, side: Side, lock: &Lock) -> Result<SealKey, RuleError> {
        match &self.new_keys[side] {
            Some(key) if lock.opens_with(key) => Ok(key.seal_key()),
            _ => refuse(
                "trust",
                format!(
                    "{}'s passphrase must be given on their own screen to set it",
                    self.name(side)
                ),
            ),
        }
    }

    /// The entry being appended sets `side`'s lock: his key, if it is held
    /// here, tags every entry and seals from now on; otherwise his key is
    /// on his own machine.
    pub(super) fn take_lock(&mut self, side: Side, lock: Lock) {
        self.keys[side] = match self.new_keys[side].take() {
            Some(key) if lock.opens_with(&key) => {
                self.trail.vouch(side, &key);
                Some(key.seal_key())
            }
            _ => None,
        };
        self.locks[side] = Some(lock);
    }

    /// The entry (from 0) that set `side`'s lock, if an entry did: his
    /// records before it are sealed under the unprotected key.
    pub fn lock_set_in_log(&self, side: Side) -> Option<usize> {
        self.log.iter().position(|e| {
            e.events
                .iter()
                .any(|ev| R::lock_set(ev).is_some_and(|(s, _)| s == side))
        })
    }
}

/// The sealing key a passphrase being set seals under, as its command
/// holds it (`Ledger::new_seal_key`), or why there is none: it is given on
/// its player's own screen (`name`'s).
pub fn lock_key(new_key: Option<&SealKey>, name: &str) -> Result<SealKey, RuleError> {
    new_key.cloned().ok_or_else(|| {
        RuleError::new(
            "trust",
            format!("{name}'s passphrase must be given on their own screen to set it"),
        )
    })
}
