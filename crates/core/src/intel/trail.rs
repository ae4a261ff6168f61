//! Who vouches for a log, whatever the system (DESIGN "Trust"): the chain
//! over the game's entries, each player's tag on every link, and the log
//! keys held for this session.
//!
//! A player with a passphrase tags every entry (and the header: the game's
//! id and its rules data) under his log key; when he sets his passphrase he
//! tags everything before too, having seen it. Nothing is added while such a
//! player has not unlocked the game in this session, so every entry of a
//! genuine file carries the tag of every player with a passphrase. His
//! unlock checks them all and names the first that fails: an opponent who
//! edits a past die, a command, the rules or a sealed record, and re-chains
//! the file, cannot make the tags hold without his passphrase.

use super::keys::{Lock, LogKey, PlayerKey, SealKey};
use super::ledger::{self, Digest32};
use super::to_hex;
use crate::error::{RuleError, refuse};
use crate::side::{Side, Sides};
use crate::text::capitalised;
use serde::Serialize;

/// Each player's tag on one link, if he has one there.
pub type Tags = Sides<Option<Digest32>>;

/// Each player's lock, if he set a passphrase.
pub type Locks = Sides<Option<Lock>>;

/// A fresh random game id: 16 bytes as hex, from the operating system
/// (falling back to the clock, which only needs to differ between games).
pub fn new_id() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes = nanos.to_le_bytes();
    }
    to_hex(&bytes)
}

/// A log key held for the session, and the lock check its passphrase
/// gives; or, in a remote game, the other machine's side, whose player's
/// key stays there: his tags come from there, one for each entry.
#[derive(Clone, Debug)]
enum Held {
    Key { log: LogKey, check: String },
    Remote,
}

#[derive(Clone, Debug)]
pub struct Trail {
    /// `links[0]` is the header; `links[n]` follows entry `n`.
    links: Vec<Digest32>,
    /// One per link.
    tags: Vec<Tags>,
    held: Sides<Option<Held>>,
    /// In a remote game, the log position from which entries reached the
    /// other machine while this machine's player was away (its program
    /// restarted): followed here by the rules like the entries that cross
    /// live, they carry no tag of his yet, and his unlock tags them rather
    /// than checks them.
    away: Sides<Option<usize>>,
}

/// The chain from `genesis` over `entries`: the link after each entry, in
/// order (the header's is not included). What a file's hashes must be.
pub fn chain<T: Serialize>(genesis: Digest32, entries: &[T]) -> Vec<Digest32> {
    let mut link = genesis;
    entries
        .iter()
        .map(|entry| {
            link = ledger::link(&link, entry);
            link
        })
        .collect()
}

impl Trail {
    /// A new game's trail, holding each player's key, and each side's
    /// sealing key: a side with a lock must give the key that opens it; a
    /// side without one seals under the unprotected key.
    pub fn begin(
        genesis: Digest32,
        locks: &Locks,
        keys: &Sides<Option<PlayerKey>>,
    ) -> Result<(Trail, Sides<Option<SealKey>>), RuleError> {
        let mut trail = Trail::new(genesis);
        let mut seal = Sides::default();
        for side in Side::BOTH {
            seal[side] = Some(match (&locks[side], &keys[side]) {
                (Some(lock), Some(key)) if lock.opens_with(key) => {
                    trail.vouch(side, key);
                    key.seal_key()
                }
                (Some(_), Some(_)) => {
                    return refuse("trust", format!("{side}'s key does not open their lock"));
                }
                (None, None) => SealKey::unprotected(),
                (Some(_), None) => {
                    return refuse("trust", format!("{side}'s passphrase must be given"));
                }
                (None, Some(_)) => {
                    return refuse("trust", format!("{side} has a key but no lock"));
                }
            });
        }
        Ok((trail, seal))
    }

    /// The trail of a log read from a file: its chain from `genesis`
    /// (`links`: the link after each entry, as `chain` works it out), the
    /// file's tags kept for each player to check at unlock.
    pub fn replayed(
        genesis: Digest32,
        links: Vec<Digest32>,
        tags: Vec<Tags>,
    ) -> Result<Trail, RuleError> {
        let mut trail = Trail::new(genesis);
        trail.links.extend(links);
        trail.tags.resize(trail.links.len(), Tags::default());
        trail.restore(tags)?;
        Ok(trail)
    }

    pub fn new(genesis: Digest32) -> Trail {
        Trail {
            links: vec![genesis],
            tags: vec![Tags::default()],
            held: Sides::default(),
            away: Sides::default(),
        }
    }

    pub fn links(&self) -> &[Digest32] {
        &self.links
    }

    /// The log's fingerprint, "3F2A-91C0-77DE-0A1B-C3D4": the first 80 bits
    /// of the chain's last link. It changes with every entry and with any
    /// edit; players who note it can tell later whether a file is the one
    /// they left (a restored older copy has an older fingerprint).
    pub fn fingerprint(&self) -> String {
        let last = self.links.last().expect("the header is always there");
        super::code(&super::to_hex(last))
    }

    pub fn tags(&self) -> &[Tags] {
        &self.tags
    }

    /// The sides whose players set a passphrase and have not unlocked.
    pub fn locked_sides(&self, locks: &Locks) -> Vec<Side> {
        Side::BOTH
            .into_iter()
            .filter(|s| locks[*s].is_some() && self.held[*s].is_none())
            .collect()
    }

    /// Refuses to add to the log while a player with a passphrase has not
    /// unlocked it: his tag could not be made.
    pub fn writable(&self, locks: &Locks) -> Result<(), RuleError> {
        match self.locked_sides(locks).first() {
            Some(side) => refuse(
                "trust",
                format!("{side} must unlock this game with their passphrase before it goes on"),
            ),
            None => Ok(()),
        }
    }

    /// A new lock needs its player's key held: he has just typed his
    /// passphrase on this screen.
    pub fn check_new_lock(&self, side: Side, lock: &Lock) -> Result<(), RuleError> {
        let checks = match &self.held[side] {
            Some(Held::Key { check, .. }) => *check == lock.check,
            // His machine checked it: his key is there.
            Some(Held::Remote) => true,
            None => false,
        };
        if !checks {
            return refuse(
                "trust",
                format!("{side}'s passphrase must be given on this screen to set it"),
            );
        }
        Ok(())
    }

    /// Extends the chain by `entry` and tags the new link for every held
    /// key of a side with a lock; a side in `new_locks` (whose lock this
    /// entry sets) tags everything before it too.
    pub fn append<T: Serialize>(&mut self, entry: &T, locks: &Locks, new_locks: &[Side]) {
        let previous = *self.links.last().expect("the header is always there");
        self.links.push(ledger::link(&previous, entry));
        self.tags.push(Tags::default());
        let last = self.links.len() - 1;
        for side in Side::BOTH {
            let (Some(_), Some(Held::Key { log, .. })) = (&locks[side], &self.held[side]) else {
                continue;
            };
            let from = if new_locks.contains(&side) { 0 } else { last };
            for position in from..=last {
                self.tags[position][side] = Some(ledger::tag(log, position, &self.links[position]));
            }
        }
    }

    /// `side`'s tag of the position `entry` would make, appended next, if
    /// his key is held here (a joiner's machine sends it with his move).
    pub fn tag_next<T: Serialize>(&self, side: Side, entry: &T) -> Option<Digest32> {
        let Some(Held::Key { log, .. }) = &self.held[side] else {
            return None;
        };
        let previous = self.links.last().expect("the header is always there");
        let link = ledger::link(previous, entry);
        Some(ledger::tag(log, self.links.len(), &link))
    }

    /// The other machine holds `side`'s key in a remote game: nothing here
    /// waits on it, and his tags are added as his machine sends them.
    pub fn seat_remote(&mut self, side: Side) {
        self.held[side] = Some(Held::Remote);
    }

    /// `side`'s tag of log position `position`, as his machine made it
    /// (positions count the header as 0). Kept as sent: his own unlock
    /// checks it, as it checks every tag of his.
    pub fn add_tag(&mut self, side: Side, position: usize, tag: Digest32) -> Result<(), RuleError> {
        match self.tags.get_mut(position) {
            Some(tags) => {
                tags[side] = Some(tag);
                Ok(())
            }
            None => refuse(
                "trust",
                format!("a tag of {side}'s for log position {position}, which does not exist yet"),
            ),
        }
    }

    /// `side`'s tag of every position from `from` on, made with the key he
    /// holds here (a joiner's machine tags what the host sends, and sends
    /// its tags back).
    pub fn own_tags(&self, side: Side, from: usize) -> Vec<(usize, Digest32)> {
        match &self.held[side] {
            Some(Held::Key { log, .. }) => (from..self.links.len())
                .map(|p| (p, ledger::tag(log, p, &self.links[p])))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Drops the tags of players who have no lock (after an undo took back
    /// the entry that set it), so none is left from an abandoned key.
    pub fn drop_unlocked_tags(&mut self, locks: &Locks) {
        for side in Side::BOTH {
            if locks[side].is_none() {
                for tags in &mut self.tags {
                    tags[side] = None;
                }
            }
        }
    }

    /// Drops the last link and its tags (undo).
    pub fn pop(&mut self) {
        if self.links.len() > 1 {
            self.links.pop();
            self.tags.pop();
        }
    }

    /// Puts back the tags a file stored; there must be one per link.
    pub fn restore(&mut self, tags: Vec<Tags>) -> Result<(), RuleError> {
        if tags.len() != self.links.len() {
            return refuse(
                "file",
                format!(
                    "the file has {} tag lines for {} log positions",
                    tags.len(),
                    self.links.len()
                ),
            );
        }
        self.tags = tags;
        Ok(())
    }

    /// Holds the key of a player who sets his passphrase on this screen,
    /// and tags every link so far under it: he has seen them.
    pub fn vouch(&mut self, side: Side, key: &PlayerKey) {
        let log = key.log_key();
        for (position, link) in self.links.iter().enumerate() {
            self.tags[position][side] = Some(ledger::tag(&log, position, link));
        }
        self.held[side] = Some(Held::Key {
            log,
            check: key.check(),
        });
    }

    /// Checks and holds `side`'s key. With a lock, the key must open it and
    /// every tag of his must hold; `name` says what a position is.
    pub fn hold(
        &mut self,
        side: Side,
        key: &PlayerKey,
        lock: Option<&Lock>,
        name: impl Fn(usize) -> String,
    ) -> Result<(), RuleError> {
        self.verify(side, key, lock, name)?;
        let log = key.log_key();
        if lock.is_some()
            && let Some(from) = self.away[side].take()
        {
            for position in from..self.links.len() {
                self.tags[position][side] =
                    Some(ledger::tag(&log, position, &self.links[position]));
            }
        }
        self.held[side] = Some(Held::Key {
            log,
            check: key.check(),
        });
        Ok(())
    }

    /// Entries from log position `from` on reached the other machine while
    /// `side`'s player was away, and this machine followed them as it
    /// follows the entries that cross live (`remote::arrived` checks they
    /// are not his moves and draw no die he could not check): his unlock
    /// here tags them.
    pub fn arrived_while_away(&mut self, side: Side, from: usize) {
        self.away[side] = Some(from);
    }

    /// What `hold` checks, without holding the key: for a private export,
    /// which must name an entry changed behind the owner's back before it
    /// prints anything of his.
    pub fn verify(
        &self,
        side: Side,
        key: &PlayerKey,
        lock: Option<&Lock>,
        name: impl Fn(usize) -> String,
    ) -> Result<(), RuleError> {
        let log = key.log_key();
        if let Some(lock) = lock {
            if !lock.opens_with(key) {
                return refuse("trust", format!("That is not {side}'s passphrase"));
            }
            let away = self.away[side].unwrap_or(self.links.len());
            for (position, link) in self.links.iter().enumerate().take(away) {
                let holds = self.tags[position][side]
                    .is_some_and(|t| ledger::verify(&log, position, link, &t));
                if !holds {
                    let how = if self.tags[position][side].is_some() {
                        "does not carry a valid tag of"
                    } else {
                        "carries no tag of"
                    };
                    return refuse(
                        "trust",
                        format!(
                            "{} {how} {side}'s: it was changed, or added, without {side}'s passphrase. Muster will not go on with this file under {side}'s name; open an earlier copy (File > Recent battles) or compare the printed record",
                            capitalised(&name(position))
                        ),
                    );
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// South, away while North's machine added two entries, unlocks: the
    /// two carry no tag of his, and only the mark of what arrived while he
    /// was away lets his unlock tag them; an entry before the mark without
    /// his tag is still named.
    #[test]
    fn what_arrived_while_away_is_tagged_at_unlock_and_nothing_before_it() {
        let (lock, key) = Lock::create("brass otter quarry lantern", &[]).unwrap();
        let mut locks = Locks::default();
        locks[Side::South] = Some(lock.clone());
        let mut keys = Sides::default();
        keys[Side::South] = Some(key.clone());
        let (mut trail, _) = Trail::begin([1; 32], &locks, &keys).unwrap();
        trail.append(&"a camp", &locks, &[]);
        // His machine stops; the host's goes on without his key.
        trail.seat_remote(Side::South);
        trail.append(&"another camp", &locks, &[]);
        trail.append(&"a third", &locks, &[]);
        let name = |p: usize| format!("log entry {p}");

        let mut unmarked =
            Trail::replayed([1; 32], trail.links[1..].to_vec(), trail.tags.clone()).unwrap();
        let refused = unmarked
            .hold(Side::South, &key, Some(&lock), name)
            .unwrap_err();
        assert!(
            refused.message.contains("Log entry 2 carries no tag"),
            "{}",
            refused.message
        );

        let mut marked = unmarked.clone();
        marked.arrived_while_away(Side::South, 2);
        marked.hold(Side::South, &key, Some(&lock), name).unwrap();
        assert!(marked.tags[2..].iter().all(|t| t[Side::South].is_some()));
        // What he tagged is his key's tag: it holds on the next unlock.
        let again =
            Trail::replayed([1; 32], marked.links[1..].to_vec(), marked.tags.clone()).unwrap();
        again.verify(Side::South, &key, Some(&lock), name).unwrap();

        // A mark past a gap does not cover it.
        let mut gap = unmarked;
        gap.arrived_while_away(Side::South, 3);
        let refused = gap.hold(Side::South, &key, Some(&lock), name).unwrap_err();
        assert!(
            refused.message.contains("Log entry 2 carries no tag"),
            "{}",
            refused.message
        );
    }
}
