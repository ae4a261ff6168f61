//! The chained game every system with a log of entries shares (the action
//! deck, hidden forces, dummy wings): the game's id, its setup, the log,
//! the public state folded from it with the log in words, the players'
//! sealing keys and the trail of hashes and tags. A system supplies its
//! rules (`Rules`): its setup's checks, its events' fold and their words;
//! its commands decide the events, which `Ledger::append` records.
//!
//! Replay checks the setup as a new game does and folds every entry
//! through the system's rules, so a file the rules could not have made is
//! refused with the entry named; a player's tags and sealed records are
//! checked when he unlocks (until then, `locked_sides` names him).

mod locks;
pub use locks::lock_key;
mod remote;

use crate::error::{RuleError, refuse};
use crate::intel::ledger::{self, Digest32};
use crate::intel::trail::{Locks, Tags, Trail, chain, new_id};
use crate::intel::{Lock, Opener, PlayerKey, SealKey};
use crate::side::{Side, Sides};
use crate::store::chained::{Parts, System};
use crate::store::{Autosave, Recent, StoreError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// What a chained system supplies to the ledger.
pub trait Rules {
    /// The file's format name and schema.
    const FORMAT: &'static str;
    const SCHEMA: u32;
    /// The chain's first position in words, for an unlock's refusal: "the
    /// game's header (its id, players and …)".
    const HEADER: &'static str;
    /// What replay cannot check of a player's records until he unlocks
    /// (besides their tag on every entry): "their sealed draws, replayed by
    /// the rules".
    const SEALED_CHECK: &'static str;
    type Setup: Serialize + DeserializeOwned + Clone + Debug;
    type Event: Serialize + DeserializeOwned + Clone + Debug + PartialEq;
    type Public: Clone + Debug;

    /// What a new game and a replay both check of a setup.
    fn check(setup: &Self::Setup) -> Result<(), RuleError>;
    fn locks(setup: &Self::Setup) -> &Locks;
    /// A player's name, for refusals.
    fn name(setup: &Self::Setup, side: Side) -> String;
    /// The public state before the first entry.
    fn opening(setup: &Self::Setup) -> Self::Public;
    /// Folds one event into the public state, or refuses an event the
    /// rules could not have made.
    fn fold(
        public: &mut Self::Public,
        event: &Self::Event,
        setup: &Self::Setup,
    ) -> Result<(), RuleError>;
    /// An event in words as both players may read it, in the state before it.
    fn describe(event: &Self::Event, setup: &Self::Setup, before: &Self::Public) -> String;
    /// What File > Recent says of the game (beside its id, time and length).
    fn about(ledger: &Ledger<Self>) -> About
    where
        Self: Sized;

    /// What a player's key must open before it is held (at his unlock, or
    /// at once at replay without a passphrase): his sealed records, checked
    /// against the rules. Nothing by default.
    fn check_records(_ledger: &Ledger<Self>, _side: Side, _key: &SealKey) -> Result<(), RuleError>
    where
        Self: Sized,
    {
        Ok(())
    }

    /// The lock an event sets, for a player who had none (he sets his
    /// passphrase on his own machine once the game is under way), if any.
    fn lock_set(_event: &Self::Event) -> Option<(Side, &Lock)> {
        None
    }
}

/// A game as File > Recent lists it: its title, its players ("Ann (Rome)
/// v Bob (Parthia)"), where it stands.
pub struct About {
    pub title: String,
    pub players: String,
    pub step: String,
}

/// One log entry: the events one command made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "E: Serialize + DeserializeOwned")]
pub struct Entry<E> {
    pub events: Vec<E>,
}

/// The chain's start: the game's id and its setup.
pub fn genesis<S: Serialize>(id: &str, setup: &S) -> Digest32 {
    let json = serde_json::to_vec(setup).expect("a setup always serializes");
    ledger::genesis(id, &json)
}

/// A log line's words without its entry's number ("12. Ann moves" is
/// "Ann moves"): what the status line and a panel repeat of it.
pub fn words(line: &str) -> &str {
    let line = line.trim_start();
    line.split_once(". ")
        .filter(|(n, _)| n.chars().all(|c| c.is_ascii_digit()))
        .map_or(line, |(_, words)| words)
}

/// A chained game's record: what every chained system keeps the same way.
#[derive(Clone, Debug)]
pub struct Ledger<R: Rules> {
    id: String,
    setup: R::Setup,
    log: Vec<Entry<R::Event>>,
    public: R::Public,
    keys: Sides<Option<SealKey>>,
    /// Each player's lock: the setup's, or the one an entry set.
    locks: Locks,
    /// The key of a player about to set his lock by an entry, held until
    /// it is appended (`locks.rs`).
    new_keys: Sides<Option<PlayerKey>>,
    trail: Trail,
    /// The public log in words, each event described once, as it came.
    lines: Vec<String>,
    /// What Undo took back, the last on top, for Redo; any new entry
    /// clears it. Never saved: a reopened game has nothing to redo.
    undone: Vec<Vec<R::Event>>,
}

impl<R: Rules> Ledger<R> {
    /// A new game. `keys` are the players' keys from their passphrases
    /// (`None`: he plays without one and seals under the unprotected key).
    pub fn new(setup: R::Setup, keys: &Sides<Option<PlayerKey>>) -> Result<Self, RuleError> {
        R::check(&setup)?;
        let id = new_id();
        let (trail, keys) = Trail::begin(genesis(&id, &setup), R::locks(&setup), keys)?;
        Ok(Ledger {
            public: R::opening(&setup),
            id,
            locks: R::locks(&setup).clone(),
            new_keys: Sides::default(),
            setup,
            log: Vec::new(),
            keys,
            trail,
            lines: Vec::new(),
            undone: Vec::new(),
        })
    }

    /// A game read from a file: the setup checked as `new` checks it, every
    /// entry folded through the rules (the entry named if one could not have
    /// been made), the chain rebuilt with the file's tags for each player to
    /// check when he unlocks. Players without a passphrase are open at once.
    pub fn replay(parts: Parts<R::Setup, Entry<R::Event>>) -> Result<Self, RuleError> {
        let links = chain(genesis(&parts.id, &parts.setup), &parts.log);
        Self::replay_linked(parts, links)
    }

    /// `replay` of a log whose chain (`links`, the link after each entry)
    /// was worked out as its file was read.
    fn replay_linked(
        parts: Parts<R::Setup, Entry<R::Event>>,
        links: Vec<Digest32>,
    ) -> Result<Self, RuleError> {
        let Parts {
            id,
            setup,
            log,
            tags,
        } = parts;
        R::check(&setup)?;
        // Every system's locks, checked at open: a file's lock may not
        // cost an unlock more than the one cap (`Lock::well_formed`).
        for lock in Side::BOTH
            .iter()
            .filter_map(|s| R::locks(&setup)[*s].as_ref())
        {
            lock.well_formed()?;
        }
        let mut public = R::opening(&setup);
        let mut lines = Vec::new();
        let mut locks = R::locks(&setup).clone();
        for (i, entry) in log.iter().enumerate() {
            fold_entry::<R>(&setup, &mut public, i + 1, &entry.events, &mut lines)
                .map_err(|e| e.in_entry(i))?;
            for (side, lock) in locks::set_by::<R>(&locks, &entry.events, &setup) {
                let lock = lock.map_err(|e| e.in_entry(i))?;
                lock.well_formed().map_err(|e| e.in_entry(i))?;
                locks[side] = Some(lock);
            }
        }
        let trail = Trail::replayed(genesis(&id, &setup), links, tags)?;
        let mut ledger = Ledger {
            id,
            setup,
            log,
            public,
            keys: Sides::default(),
            locks,
            new_keys: Sides::default(),
            trail,
            lines,
            undone: Vec::new(),
        };
        for side in Side::BOTH {
            if ledger.locks[side].is_none() {
                let key = SealKey::unprotected();
                R::check_records(&ledger, side, &key)?;
                ledger.keys[side] = Some(key);
            }
        }
        Ok(ledger)
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn setup(&self) -> &R::Setup {
        &self.setup
    }

    pub fn log(&self) -> &[Entry<R::Event>] {
        &self.log
    }

    pub fn public(&self) -> &R::Public {
        &self.public
    }

    pub fn tags(&self) -> &[Tags] {
        self.trail.tags()
    }

    pub fn links(&self) -> &[Digest32] {
        self.trail.links()
    }

    /// The log's fingerprint (`Trail::fingerprint`): on screen and printed.
    pub fn log_fingerprint(&self) -> String {
        self.trail.fingerprint()
    }

    /// The players with a passphrase who have not unlocked this game.
    /// How the players call `side`.
    pub fn name(&self, side: Side) -> String {
        R::name(&self.setup, side)
    }

    /// What replay could not check yet, by the player whose unlock checks
    /// it: his tag on every entry and his sealed records.
    pub fn unchecked(&self) -> Vec<String> {
        self.locked_sides()
            .into_iter()
            .map(|side| {
                format!(
                    "Until {} unlocks: their tag on every entry; {}",
                    self.name(side),
                    R::SEALED_CHECK
                )
            })
            .collect()
    }

    pub fn locked_sides(&self) -> Vec<Side> {
        self.trail.locked_sides(&self.locks)
    }

    /// The log in words, as both may read it.
    pub fn log_lines(&self) -> &[String] {
        &self.lines
    }

    /// The game's parts as its file holds them.
    pub fn parts(&self) -> Parts<&R::Setup, &Entry<R::Event>> {
        Parts {
            id: self.id.clone(),
            setup: &self.setup,
            log: self.log.iter().collect(),
            tags: self.tags().to_vec(),
        }
    }

    /// Every player's sealing key held in this session.
    pub fn keys(&self) -> &Sides<Option<SealKey>> {
        &self.keys
    }

    /// `side`'s sealing key, held once he unlocked (at once without a
    /// passphrase).
    pub fn key(&self, side: Side) -> Result<&SealKey, RuleError> {
        self.keys[side].as_ref().ok_or_else(|| {
            RuleError::new(
                "trust",
                format!("{} has not unlocked", R::name(&self.setup, side)),
            )
        })
    }

    /// Whether a command may be recorded: every player with a passphrase
    /// has unlocked, so every entry gets his tag.
    pub fn writable(&self) -> Result<(), RuleError> {
        self.trail.writable(&self.locks)
    }

    /// Records one command's events, each folded and described in the state
    /// before it; nothing changes if the rules refuse one.
    pub fn append(&mut self, events: Vec<R::Event>) -> Result<(), RuleError> {
        self.push(events)?;
        // A new course: what was undone is no longer what comes next.
        self.undone.clear();
        Ok(())
    }

    /// Appends an entry, checked and tagged, as `append` does.
    fn push(&mut self, events: Vec<R::Event>) -> Result<(), RuleError> {
        self.writable()?;
        let set: Vec<(Side, Lock)> = locks::set_by::<R>(&self.locks, &events, &self.setup)
            .into_iter()
            .map(|(side, lock)| lock.map(|lock| (side, lock)))
            .collect::<Result<_, _>>()?;
        // Folded in place, not on a copy: copying the public state for
        // every entry cost more than the rules' own work. The systems
        // check their events on a copy before they append them, so a
        // refusal here is rare; it folds the state again from the log.
        let lines = self.lines.len();
        if let Err(e) = fold_entry::<R>(
            &self.setup,
            &mut self.public,
            self.log.len() + 1,
            &events,
            &mut self.lines,
        ) {
            self.lines.truncate(lines);
            self.public = self.folded(self.log.len())?;
            return Err(e);
        }
        let entry = Entry { events };
        let new: Vec<Side> = set.iter().map(|(side, _)| *side).collect();
        for (side, lock) in set {
            self.take_lock(side, lock);
        }
        self.trail.append(&entry, &self.locks, &new);
        self.log.push(entry);
        Ok(())
    }

    /// The public state after the first `entries` entries of the log.
    fn folded(&self, entries: usize) -> Result<R::Public, RuleError> {
        let mut public = R::opening(&self.setup);
        for event in self.log[..entries].iter().flat_map(|e| &e.events) {
            R::fold(&mut public, event, &self.setup)?;
        }
        Ok(public)
    }

    /// The last entry in words, when `may` lets each of its events be
    /// taken back (the system's rules say which); else `why` not.
    pub fn undoable(&self, may: impl Fn(&R::Event) -> bool, why: &str) -> Result<String, String> {
        self.writable().map_err(|e| e.to_string())?;
        let last = self.log.last().ok_or("Nothing is recorded yet")?;
        if !last.events.iter().all(may) {
            return Err(why.to_string());
        }
        Ok(self.last_words(last.events.len()))
    }

    /// The last `taken` lines of the log, without their numbers.
    fn last_words(&self, taken: usize) -> String {
        let words: Vec<&str> = self.lines[self.lines.len() - taken..]
            .iter()
            .map(|line| words(line))
            .collect();
        words.join("; ")
    }

    /// Whether Redo has an entry to put back.
    pub fn redoable(&self) -> bool {
        self.writable().is_ok() && !self.undone.is_empty()
    }

    /// Puts back the entry the last Undo took, checked and tagged as
    /// any entry is; its words.
    pub fn redo(&mut self) -> Result<String, RuleError> {
        let Some(events) = self.undone.pop() else {
            return refuse("undo", "Nothing was taken back to do again");
        };
        let taken = events.len();
        if let Err(e) = self.push(events.clone()) {
            self.undone.push(events);
            return Err(e);
        }
        Ok(self.last_words(taken))
    }

    /// Takes back the last entry (the system says when it may): the public
    /// state folded again from the start, the entry's words and link gone.
    pub fn pop(&mut self) -> Result<(), RuleError> {
        self.writable()?;
        let Some(last) = self.log.last() else {
            return refuse("undo", "The log is empty");
        };
        if last.events.iter().any(|e| R::lock_set(e).is_some()) {
            return refuse("undo", "A passphrase once set is not taken back");
        }
        let taken = last.events.len();
        self.public = self.folded(self.log.len() - 1)?;
        if let Some(entry) = self.log.pop() {
            self.undone.push(entry.events);
        }
        self.lines.truncate(self.lines.len() - taken);
        self.trail.pop();
        Ok(())
    }

    /// A player unlocks a game read from a file: his passphrase must open
    /// his lock, every tag of his must hold and his sealed records must
    /// pass the system's check (`Rules::check_records`) before his key is
    /// held.
    pub fn unlock(&mut self, side: Side, passphrase: &str) -> Result<(), RuleError> {
        let key = self.lock(side)?.unlock(passphrase)?;
        self.unlock_key(side, &key)
    }

    /// `unlock` with the key already worked out from the passphrase (the
    /// window derives it on a worker thread): the same checks.
    pub fn unlock_key(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError> {
        self.lock(side)?;
        let (log, lock) = (&self.log, self.locks[side].as_ref());
        self.trail
            .hold(side, key, lock, |n| position::<R>(log, n))?;
        let seal_key = key.seal_key();
        R::check_records(self, side, &seal_key)?;
        self.keys[side] = Some(seal_key);
        Ok(())
    }

    /// `side`'s sealing key from his passphrase (or the key his screen
    /// worked out), whether or not he has unlocked: for his private
    /// printout, which shows nothing of his from a log changed behind his
    /// back.
    pub fn open_for<'a>(
        &self,
        side: Side,
        opener: impl Into<Opener<'a>>,
    ) -> Result<SealKey, RuleError> {
        match &self.locks[side] {
            Some(lock) => {
                let key = opener.into().open(lock)?;
                self.trail
                    .verify(side, &key, Some(lock), |n| position::<R>(&self.log, n))?;
                Ok(key.seal_key())
            }
            None => Ok(SealKey::unprotected()),
        }
    }

    /// `side`'s lock, or why he has none.
    pub fn lock(&self, side: Side) -> Result<&crate::intel::Lock, RuleError> {
        self.locks[side].as_ref().ok_or_else(|| {
            RuleError::new(
                "trust",
                format!("{} plays without a passphrase", R::name(&self.setup, side)),
            )
        })
    }
}

/// A system's game kept on a `Ledger`: its file is the ledger's file.
pub trait OnLedger: Sized {
    type Rules: Rules;
    fn record(&self) -> &Ledger<Self::Rules>;
    /// The game around a ledger read from a file.
    fn from_ledger(ledger: Ledger<Self::Rules>) -> Result<Self, RuleError>;
}

impl<G: OnLedger> System for G {
    const FORMAT: &'static str = <G::Rules as Rules>::FORMAT;
    const SCHEMA: u32 = <G::Rules as Rules>::SCHEMA;
    type Setup = <G::Rules as Rules>::Setup;
    type Entry = Entry<<G::Rules as Rules>::Event>;

    fn genesis(id: &str, setup: &Self::Setup) -> Digest32 {
        genesis(id, setup)
    }

    fn parts(&self) -> Parts<&Self::Setup, &Self::Entry> {
        self.record().parts()
    }

    fn links(&self) -> &[Digest32] {
        self.record().links()
    }

    fn replay(
        parts: Parts<Self::Setup, Self::Entry>,
        links: Vec<Digest32>,
    ) -> Result<Self, StoreError> {
        Ledger::replay_linked(parts, links)
            .and_then(G::from_ledger)
            .map_err(|e| StoreError::new(e.message))
    }
}

impl<G: OnLedger> Autosave for G {
    fn id(&self) -> &str {
        self.record().id()
    }

    fn recent(&self, saved: u64) -> Recent {
        let About {
            title,
            players,
            step,
        } = G::Rules::about(self.record());
        Recent {
            id: self.record().id().to_string(),
            title,
            players,
            step,
            saved,
            entries: self.record().log().len(),
        }
    }

    fn save_job(&self, path: &std::path::Path) -> crate::store::SaveJob {
        crate::store::chained::save_job(path, self)
    }
}

/// Folds entry `number` (from 1) into `public`, each event described in
/// the state before it, onto `lines`.
fn fold_entry<R: Rules>(
    setup: &R::Setup,
    public: &mut R::Public,
    number: usize,
    events: &[R::Event],
    lines: &mut Vec<String>,
) -> Result<(), RuleError> {
    // The entry's number on its first line only; the lines after it are
    // indented under it, so no number repeats.
    let numbered = format!("{number}. ");
    for (i, event) in events.iter().enumerate() {
        let words = R::describe(event, setup, public);
        lines.push(if i == 0 {
            format!("{numbered}{words}")
        } else {
            format!("{:width$}{words}", "", width = numbered.len() + 2)
        });
        R::fold(public, event, setup)?;
    }
    Ok(())
}

/// A position of the log's chain, in words, for an unlock's refusal.
fn position<R: Rules>(log: &[Entry<R::Event>], n: usize) -> String {
    match n {
        0 => R::HEADER.to_string(),
        n => format!(
            "log entry {n} ({})",
            crate::text::count(log[n - 1].events.len() as u64, "event", "events")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy system: a running total that may never go below zero.
    #[derive(Clone, Debug)]
    struct Total;

    #[derive(Clone, Debug, Serialize, Deserialize)]
    struct Setup {
        start: i64,
        locks: Locks,
    }

    impl Rules for Total {
        const FORMAT: &'static str = "muster-test-total";
        const SCHEMA: u32 = 1;
        const HEADER: &'static str = "the game's header";
        const SEALED_CHECK: &'static str = "nothing more";
        type Setup = Setup;
        type Event = i64;
        type Public = i64;
        fn check(setup: &Setup) -> Result<(), RuleError> {
            if setup.start < 0 {
                return refuse("test", "the start is below zero");
            }
            Ok(())
        }
        fn locks(setup: &Setup) -> &Locks {
            &setup.locks
        }
        fn name(_: &Setup, side: Side) -> String {
            side.to_string()
        }
        fn opening(setup: &Setup) -> i64 {
            setup.start
        }
        fn fold(public: &mut i64, event: &i64, _: &Setup) -> Result<(), RuleError> {
            *public += event;
            if *public < 0 {
                return refuse("test", "the total went below zero");
            }
            Ok(())
        }
        fn describe(event: &i64, _: &Setup, before: &i64) -> String {
            format!("{before} {event:+}")
        }
        fn about(ledger: &Ledger<Self>) -> About {
            About {
                title: "total".into(),
                players: "South v North".into(),
                step: format!("at {}", ledger.public()),
            }
        }
    }

    fn ledger() -> Ledger<Total> {
        let setup = Setup {
            start: 2,
            locks: Sides::default(),
        };
        Ledger::new(setup, &Sides::default()).unwrap()
    }

    #[test]
    fn an_entry_the_rules_refuse_changes_nothing() {
        let mut l = ledger();
        l.append(vec![3, -4]).unwrap();
        assert_eq!(*l.public(), 1);
        // The entry's number once, its further lines under it.
        assert_eq!(l.log_lines(), ["1. 2 +3", "     5 -4"]);
        let links = l.links().to_vec();
        assert!(l.append(vec![1, -5]).is_err());
        assert_eq!((*l.public(), l.log().len()), (1, 1));
        assert_eq!(l.log_lines().len(), 2);
        assert_eq!(l.links(), links);
        l.append(vec![1]).unwrap();
        l.pop().unwrap();
        assert_eq!(
            (*l.public(), l.log_lines().len(), l.links()),
            (1, 2, &links[..])
        );
    }

    /// Issue 39: Redo puts back what Undo took, with its link and tag as
    /// the first time (the chain is the same), twice over; any new entry
    /// ends what Redo had.
    #[test]
    fn redo_puts_back_what_undo_took_until_a_new_entry() {
        let mut l = ledger();
        l.append(vec![3]).unwrap();
        l.append(vec![1, 2]).unwrap();
        let (links, lines) = (l.links().to_vec(), l.log_lines().to_vec());
        assert!(!l.redoable());
        l.pop().unwrap();
        l.pop().unwrap();
        assert!(l.redoable());
        assert_eq!(l.redo().unwrap(), "2 +3");
        assert_eq!(l.redo().unwrap(), "5 +1; 6 +2");
        assert_eq!((l.links(), l.log_lines()), (&links[..], &lines[..]));
        assert!(l.redo().is_err() && !l.redoable());
        l.pop().unwrap();
        l.append(vec![4]).unwrap();
        assert!(!l.redoable(), "a new entry ends what Redo had");
        assert_eq!(*l.public(), 9);
    }

    #[test]
    fn replay_checks_the_setup_and_names_the_entry_the_rules_refuse() {
        let mut l = ledger();
        l.append(vec![1]).unwrap();
        let parts = |setup: Setup, log: Vec<Entry<i64>>| Parts {
            id: l.id().to_string(),
            setup,
            log,
            tags: vec![Tags::default(); 1 + l.log().len()],
        };
        let again = Ledger::<Total>::replay(parts(l.setup().clone(), l.log().to_vec())).unwrap();
        assert_eq!((*again.public(), again.links()), (3, l.links()));
        let mut bad = l.setup().clone();
        bad.start = -1;
        let e = Ledger::<Total>::replay(parts(bad, l.log().to_vec())).unwrap_err();
        assert!(e.message.contains("below zero"), "{e}");
        let forged = vec![Entry { events: vec![-9] }];
        let e = Ledger::<Total>::replay(parts(l.setup().clone(), forged)).unwrap_err();
        assert!(e.message.contains("log entry 1"), "{e}");
    }

    /// A game read from a file says what it could not check yet, and
    /// whose unlock checks it; once he unlocks, nothing is left.
    #[test]
    fn a_replayed_game_says_what_waits_for_whose_unlock() {
        let (lock, key) = crate::intel::Lock::create("brass otter quarry lantern", &[]).unwrap();
        let setup = Setup {
            start: 2,
            locks: Sides {
                south: Some(lock),
                north: None,
            },
        };
        let keys = Sides {
            south: Some(key),
            north: None,
        };
        let mut l = Ledger::<Total>::new(setup, &keys).unwrap();
        l.append(vec![1]).unwrap();
        assert!(
            l.unchecked().is_empty(),
            "the players who made it hold their keys"
        );
        let parts = Parts {
            id: l.id().to_string(),
            setup: l.setup().clone(),
            log: l.log().to_vec(),
            tags: l.tags().to_vec(),
        };
        let mut again = Ledger::<Total>::replay(parts).unwrap();
        assert_eq!(
            again.unchecked(),
            ["Until South unlocks: their tag on every entry; nothing more"]
        );
        again
            .unlock(Side::South, "brass otter quarry lantern")
            .unwrap();
        assert!(again.unchecked().is_empty());
    }
}
