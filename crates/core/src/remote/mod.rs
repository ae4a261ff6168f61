//! A game played from two machines (docs: "Playing remotely"; the design's
//! "remote seats"): both hold the same log, chained and tagged; the host's
//! machine puts the entries in order. A command is decided on the machine
//! of the player who gives it, with his key there and dice both machines
//! make (`dice::joint`); the other machine follows the entry, checking
//! what it can: the rules again where they need no key of the other
//! player's, every joint die, the chain. Each player's own tags are made on
//! his own machine and sent to the other. What crosses is `Wire`, typed;
//! what each machine does with it is `Play`, which a test drives without
//! any network.

mod catch_up;
mod play;

pub use catch_up::{Compared, arrived, catch_up, compare};
pub use play::{Happened, Play, Role};

use crate::dice::joint::{Commitment, Half};
use crate::dice::{AppDice, DiceSource, Roll};
use crate::error::RuleError;
use crate::intel::ledger::Digest32;
use crate::seat::Seated;
use crate::side::Side;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// A game as the two machines of a remote game share it.
pub trait Replica: Seated + Clone + Send + 'static {
    /// One entry of its log, as it crosses between the machines.
    type Entry: Clone + PartialEq + Debug + Serialize + DeserializeOwned + Send + 'static;

    /// The game's id (joint dice are bound to it).
    fn game_id(&self) -> &str;

    /// How many entries its log holds.
    fn entries(&self) -> usize;

    /// Entry `n` (from 0).
    fn entry(&self, n: usize) -> Option<Self::Entry>;

    /// The chain's link at log position `position`: 0 is the header, `n`
    /// follows entry `n - 1`.
    fn link(&self, position: usize) -> Option<Digest32>;

    /// The entry the rules make of `command` now, with `dice` as the app's
    /// dice (`AppDice::Wanted` refuses a command that draws one), without
    /// appending it.
    fn decide(&self, command: &Self::Command, dice: &mut AppDice)
    -> Result<Self::Entry, RuleError>;

    /// Appends an entry decided on this machine.
    fn append(&mut self, entry: Self::Entry) -> Result<(), RuleError>;

    /// Appends an entry the other machine decided, once checked as far as
    /// this machine can (the rules again, every joint die): refused,
    /// naming what is wrong, otherwise.
    fn follow(&mut self, entry: Self::Entry) -> Result<(), RuleError>;

    /// Every roll an entry logs.
    fn rolls(entry: &Self::Entry) -> Vec<Roll>;

    /// The game as its file, which the host sends a joiner first: what the
    /// shared laptop's file holds (the log, sealed records and tags), no
    /// key and nothing opened.
    fn file(&self) -> String;

    /// A game from a file another machine sent, checked as a file opened
    /// from the disk is (every entry replayed by the rules, the chain), or
    /// why not.
    fn from_file(text: &str) -> Result<Self, String>
    where
        Self: Sized;

    /// The side whose player gives a command (his moves, his rolls), if it
    /// is one side's; `None` for one either player may give. The other
    /// machine neither gives it nor takes it from the other machine,
    /// unless the rules force it and that machine decides what is forced.
    fn given_by(&self, _command: &Self::Command) -> Option<Side> {
        None
    }

    /// The command an entry logs, if its entries keep their commands
    /// (Field of Glory's do; a chained game's keep only its events, some of
    /// whose commands name secrets).
    fn command_of(entry: &Self::Entry) -> Option<Self::Command>;

    /// The side whose move an entry is, as `given_by` says of its command.
    fn given_in(&self, entry: &Self::Entry) -> Option<Side> {
        Self::command_of(entry).and_then(|c| self.given_by(&c))
    }

    /// The command a joiner's entry whose dice were drawn for it comes
    /// from, as this machine tells it from the entry, to set against the
    /// one his machine bound before the dice were known: the command the
    /// entry logs, or the step the rules force now; a game whose entries
    /// keep no command says which of its commands an entry shows, where
    /// the command holds no secret.
    fn bound(&self, entry: &Self::Entry) -> Option<Self::Command> {
        Self::command_of(entry).or_else(|| self.forced().filter(|_| self.forced_in(entry)))
    }

    /// Whether an entry is the step the rules force now.
    fn forced_in(&self, entry: &Self::Entry) -> bool {
        match (self.forced(), Self::command_of(entry)) {
            (Some(forced), Some(command)) => same(&forced, &command),
            _ => false,
        }
    }

    /// `side`'s tag of the log position `entry` would make, appended next,
    /// if his key is held here.
    fn tag_next(&self, _side: Side, _entry: &Self::Entry) -> Option<Digest32> {
        None
    }

    /// The side whose key an entry's decision needed, as `decided_by` says
    /// of its command.
    fn decided_in(&self, entry: &Self::Entry) -> Option<Side> {
        Self::command_of(entry).and_then(|c| self.decided_by(&c))
    }

    /// The side whose key a command's decision needs (his sealed records
    /// opened), if any: decided on his machine, whoever gives it.
    fn decided_by(&self, _command: &Self::Command) -> Option<Side> {
        None
    }

    /// `side` is played from the other machine: his key stays there, and
    /// his tags come from there.
    fn seat_remote(&mut self, side: Side);

    /// `side`'s tags of every log position from `from` on, made here with
    /// his key.
    fn own_tags(&self, side: Side, from: usize) -> Vec<(usize, Digest32)>;

    /// `side`'s tag of log position `position`, if the game holds one.
    fn tag(&self, side: Side, position: usize) -> Option<Digest32>;

    /// `side`'s tag of log position `position`, made on his machine.
    fn add_tag(&mut self, side: Side, position: usize, tag: Digest32) -> Result<(), RuleError>;

    /// What this machine's player `me` shows the other player alone after
    /// entry `n`, as the rules have it (an Agent's examination of his
    /// holding area), if anything: sent to the other machine only.
    fn private_after(&self, _me: Side, _n: usize) -> Option<String> {
        None
    }

    /// What the other machine's player showed this one alone after entry
    /// `n`: checked against the log's commitments and kept for this
    /// session, or why not.
    fn take_private(&mut self, n: usize, _body: &str) -> Result<(), RuleError> {
        Err(RuleError::new(
            "remote",
            format!("nothing is shown privately after entry {}", n + 1),
        ))
    }

    /// Entries from log position `from` on reached the other machine while
    /// `side`'s player was away, checked here (`arrived`): his unlock on
    /// this machine tags them rather than checks them.
    fn arrived_while_away(&mut self, side: Side, from: usize);

    /// Whether the players have said the game is over: each machine then
    /// sends its player's records, opened, for the other's audit.
    fn over(&self) -> bool {
        false
    }

    /// Once the game is over, every sealed record of `side`'s the log
    /// holds, opened with his key here (contents and blinding values, no
    /// key), if it is held here.
    fn opened_records(&self, _side: Side) -> Option<String> {
        None
    }

    /// What `side`'s records, as his machine opened them at the game's end
    /// (`opened_records` there), show that could not be checked while the
    /// game went on, in the players' words: nothing when all holds.
    fn audit(&self, _side: Side, _body: &str) -> Vec<String> {
        Vec::new()
    }
}

/// `Replica`'s methods a game on a chained ledger (`chained_game`) answers
/// from its ledger alike: its id, entries, links and tags, its file
/// (`$files::to_json`, `$files::from_json`), no command kept in an entry
/// (a chained game's log keeps events, some of whose commands name
/// secrets), and its records at the game's end through its own
/// `opened_records` and `audit`. The game has `ledger_mut()`.
#[macro_export]
macro_rules! chained_replica {
    ($files:path) => {
        fn game_id(&self) -> &str {
            $crate::chained_game::OnLedger::record(self).id()
        }

        fn entries(&self) -> usize {
            $crate::chained_game::OnLedger::record(self).log().len()
        }

        fn entry(&self, n: usize) -> Option<Self::Entry> {
            $crate::chained_game::OnLedger::record(self)
                .log()
                .get(n)
                .cloned()
        }

        fn link(&self, position: usize) -> Option<$crate::intel::ledger::Digest32> {
            $crate::chained_game::OnLedger::record(self).link(position)
        }

        fn file(&self) -> String {
            use $files as files;
            files::to_json(self)
        }

        fn from_file(text: &str) -> Result<Self, String> {
            use $files as files;
            files::from_json(text).map_err(|e| e.to_string())
        }

        fn command_of(_: &Self::Entry) -> Option<Self::Command> {
            None
        }

        fn own_tags(
            &self,
            side: $crate::side::Side,
            from: usize,
        ) -> Vec<(usize, $crate::intel::ledger::Digest32)> {
            $crate::chained_game::OnLedger::record(self).own_tags(side, from)
        }

        fn tag_next(
            &self,
            side: $crate::side::Side,
            entry: &Self::Entry,
        ) -> Option<$crate::intel::ledger::Digest32> {
            $crate::chained_game::OnLedger::record(self).tag_next(side, &entry.events)
        }

        fn tag(
            &self,
            side: $crate::side::Side,
            position: usize,
        ) -> Option<$crate::intel::ledger::Digest32> {
            $crate::chained_game::OnLedger::record(self).tag(side, position)
        }

        fn add_tag(
            &mut self,
            side: $crate::side::Side,
            position: usize,
            tag: $crate::intel::ledger::Digest32,
        ) -> Result<(), $crate::error::RuleError> {
            self.ledger_mut().add_tag(side, position, tag)
        }

        fn arrived_while_away(&mut self, side: $crate::side::Side, from: usize) {
            self.ledger_mut().arrived_while_away(side, from);
        }

        fn opened_records(&self, side: $crate::side::Side) -> Option<String> {
            Self::opened_records(self, side)
        }

        fn audit(&self, side: $crate::side::Side, body: &str) -> Vec<String> {
            Self::audit(self, side, body)
        }
    };
}

/// Whether two commands are the same (commands are compared as they
/// cross).
fn same<C: Serialize>(a: &C, b: &C) -> bool {
    serde_json::to_value(a).ok() == serde_json::to_value(b).ok()
}

/// Each joint round an entry's dice were drawn from, with both halves as
/// it logs them.
pub fn joint_rounds<G: Replica>(entry: &G::Entry) -> Vec<(u64, Half, Half)> {
    G::rolls(entry)
        .iter()
        .filter_map(Roll::joint)
        .map(|j| (j.round, j.host, j.joiner))
        .collect()
}

/// How many of an entry's rolls one machine drew alone (app dice not
/// made by both): none may be, in a remote game.
pub fn lone_rolls<G: Replica>(entry: &G::Entry) -> usize {
    G::rolls(entry)
        .iter()
        .filter(|r| matches!(r.source, DiceSource::App {}))
        .count()
}

/// 32 bytes as 64 hex digits: a chain link or a tag, as it crosses.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Hex32(pub Digest32);

impl Debug for Hex32 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}…", crate::intel::to_hex(&self.0[..4]))
    }
}

impl From<Hex32> for String {
    fn from(h: Hex32) -> String {
        crate::intel::to_hex(&h.0)
    }
}

impl TryFrom<String> for Hex32 {
    type Error = String;
    fn try_from(text: String) -> Result<Hex32, String> {
        Half::try_from(text).map(|h| Hex32(h.0))
    }
}

/// Everything the two machines say to each other about the game, once the
/// link is made (each in one frame, sealed by the link itself). `E` is the
/// game's log entry; a command never crosses as it is (only bound in an
/// intent's digest), so no secret of a command does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    deny_unknown_fields,
    bound(serialize = "E: Serialize", deserialize = "E: DeserializeOwned")
)]
pub enum Wire<E> {
    /// Either way: entry `position` (from 0) of the log, as the sender
    /// holds it, the chain's link after it, and the joiner's intent it is
    /// (his move, back in order), if it is one.
    Entry {
        position: usize,
        entry: E,
        link: Hex32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        answers: Option<u64>,
    },
    /// Either way: the sender's player's tag of log position `position`.
    Tag { position: usize, tag: Hex32 },
    /// Host: its commitments to the halves of rounds `first` on.
    Commitments { first: u64, list: Vec<Commitment> },
    /// Host: the joiner's intent `intent` is next; here is the host's half
    /// of its round: decide it now.
    Go { intent: u64, round: u64, host: Half },
    /// Host: the joiner's intent cannot be taken now (the log moved on, or
    /// the host is deciding one of its own); it comes again as it was.
    Later { intent: u64, why: String },
    /// Host: the joiner's half of `round`, for a command of the host's.
    HalfPlease { round: u64 },
    /// Host: the half it opened `round` with, its entry following.
    Opened { round: u64, host: Half },
    /// Joiner: he gives a command that draws dice, decided on his machine
    /// once the round is opened. He is bound to it before any die is
    /// known: `digest` is the SHA-256 of the command and a nonce of his,
    /// which he opens with the decided entry.
    Intent {
        intent: u64,
        base: usize,
        round: u64,
        half: Half,
        digest: Hex32,
    },
    /// Joiner: the entry his machine decided for intent `intent` (or for a
    /// command that draws no die), on a log of `base` entries; for an
    /// intent bound by a digest, the nonce that opens it: the host checks
    /// at once that the move decided is the one bound before any die of
    /// its round was known.
    Decided {
        intent: u64,
        base: usize,
        entry: E,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nonce: Option<Hex32>,
        /// His tag of the log position the entry makes, so the host's file
        /// proves it his even if his Muster stops before it comes back.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tag: Option<Hex32>,
    },
    /// Joiner: his half of `round`, asked by the host.
    Half { round: u64, half: Half },
    /// Joiner: the host's program restarted on a file older than his
    /// copy: his copy's file, for the host's machine to take what its own
    /// player had taken of it (`catch_up`).
    Further { file: String },
    /// Either way: what the sender's player shows the other player alone
    /// after the entry at `position` (hidden forces: what an Agent found in
    /// a holding area, A2a), never part of the log; the receiver checks it
    /// against the commitments its log holds.
    Private { position: usize, body: String },
    /// Either way, once the game is over: every record of the sender's
    /// player, opened (its contents and its commitment's blinding value;
    /// no key), for the receiver's audit against the commitments its log
    /// holds.
    Records { body: String },
    /// Either way: the sender refuses what the other machine did, and says
    /// why; both players read it.
    Trouble { why: String },
}

#[cfg(test)]
mod tests;
