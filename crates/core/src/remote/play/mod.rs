//! What each machine of a remote game does with its commands and with what
//! the other machine sends (docs: "Playing remotely"), as a state machine
//! beside the game: no network here, so two of them talk in a test.
//!
//! The host puts the log in order, one command at a time. A command that
//! draws no die is decided where it is given and sent as its entry (the
//! joiner's only if the log has not moved on since). One that draws dice
//! takes the next round of joint dice: the host asks the joiner's half for
//! its own; the joiner sends an intent bound to his command (its digest)
//! with his half, the host opens its half, and the joiner decides and
//! sends the entry. Each machine follows the other's entries, checking the
//! rules, the joint dice and the chain, and tags each entry with its own
//! player's key. Every intent carries a number; the host answers a repeat
//! with what it answered, so nothing is applied twice; a half once sent for
//! a round stays that round's, so refusing an intent chooses no die.

use super::{Hex32, Replica, Wire, same};
use crate::dice::joint::said;
use crate::dice::joint::{Commitments, Half, Pool};
use crate::dice::{AppDice, WANTED};
use crate::error::RuleError;
use crate::side::Side;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

mod host;
mod joiner;

/// Which machine this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// It puts the log in order; the joiner plays `joiner` from his own.
    Host { joiner: Side },
    /// It plays `me` from here.
    Joiner { me: Side },
}

/// What receiving a message (or giving a command) did, for the window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Happened {
    /// The log grew by an entry: the game changed.
    Appended,
    /// The other machine did something the rules or the protocol refuse:
    /// both players are told, in these words.
    Trouble(String),
    /// A command of this machine's waits for the other machine.
    Waiting,
    /// The other player's tag of an entry was added: the game's file
    /// changed (it is saved again), not the game.
    Tagged,
    /// The other player showed this one something alone (kept for the
    /// session): the screens change, not the game.
    Shown,
    /// The host took `n` entries from the joiner's copy, which its own
    /// restarted program lacked: the game changed, and the two machines
    /// begin again from it.
    CaughtUp(usize),
    /// A move of this player's, put off while the other's came first, no
    /// longer holds on the log as it is now: not made, for this reason.
    Overtaken(String),
    /// The game is over, and the other player's records, opened by his
    /// machine, all hold: in these words. (What does not hold
    /// comes as `Trouble`.)
    Audited(String),
}

/// The most joint rounds committed ahead at a time.
const POOL: usize = 16;

/// A joiner's intent being decided: its number, the log it was given on
/// and its round.
#[derive(Clone, Debug)]
struct Slot {
    intent: u64,
    base: usize,
    round: Option<(u64, Half, Half)>,
    /// What binds the intent to its command.
    digest: Hex32,
}

/// A command given on the joiner's machine, waiting for the host.
struct Pending<C> {
    intent: u64,
    command: C,
    /// Its round and the half sent for it (bound for good), if it draws
    /// dice.
    round: Option<(u64, Half)>,
    /// Opened and decided: the entry sent, waiting to come back in order.
    sent: bool,
    /// The log's length it was last given on.
    base: usize,
}

pub struct Play<G: Replica> {
    role: Role,
    out: Vec<Wire<G::Entry>>,
    // The host's side.
    pool: Option<Pool>,
    slot: Option<Slot>,
    /// A command of the host's waiting for the joiner's half, and its round.
    waiting: Option<(u64, G::Command)>,
    /// What the host answered each intent, by number: a repeat gets it again.
    answered: BTreeMap<u64, Wire<G::Entry>>,
    /// The joiner's intents whose entries are in the log.
    done: std::collections::BTreeSet<u64>,
    // The joiner's side.
    commitments: Option<Commitments>,
    next_intent: u64,
    pending: Option<Pending<G::Command>>,
    /// Halves the joiner sent, by round: a round's half never changes.
    halves: BTreeMap<u64, Half>,
    /// Rounds opened to him, both halves, by number: an entry's joint dice
    /// must be one of these.
    opened: BTreeMap<u64, (Half, Half)>,
    /// Bound commands' digests and nonces, for the audit at the end.
    bound: Vec<(u64, [u8; 32], G::Command)>,
    // Both.
    /// Log positions this machine has tagged and sent its tags for.
    tagged: usize,
    /// Its player's records have gone, opened, the game being over.
    records_sent: bool,
}

impl<G: Replica> Play<G> {
    /// The host's side of `game`, whose `joiner` plays from his machine:
    /// its first commitments are to send.
    pub fn host(game: &mut G, joiner: Side) -> Result<Play<G>, RuleError> {
        game.seat_remote(joiner);
        let mut play = Play::new(Role::Host { joiner }, game);
        play.send_tags(game);
        play.show_all(game);
        let mut pool = Pool::new(game.game_id(), next_round(game));
        let (first, list) = pool.commit_more(POOL)?;
        play.out.push(Wire::Commitments { first, list });
        play.pool = Some(pool);
        Ok(play)
    }

    /// The joiner's side of `game`, his player `me`.
    pub fn joiner(game: &mut G, me: Side) -> Play<G> {
        game.seat_remote(me.opponent());
        let mut play = Play::new(Role::Joiner { me }, game);
        play.send_tags(game);
        play.show_all(game);
        play.commitments = Some(Commitments::new(game.game_id(), next_round(game)));
        play
    }

    fn new(role: Role, _game: &G) -> Play<G> {
        Play {
            role,
            out: Vec::new(),
            pool: None,
            slot: None,
            waiting: None,
            answered: BTreeMap::new(),
            done: Default::default(),
            commitments: None,
            next_intent: 0,
            pending: None,
            halves: BTreeMap::new(),
            opened: BTreeMap::new(),
            bound: Vec::new(),
            tagged: 0,
            records_sent: false,
        }
    }

    pub fn role(&self) -> Role {
        self.role
    }

    /// The messages to send the other machine, in order.
    pub fn outbox(&mut self) -> Vec<Wire<G::Entry>> {
        std::mem::take(&mut self.out)
    }

    /// Whether a command given here waits for the other machine.
    pub fn busy(&self) -> bool {
        self.waiting.is_some() || self.pending.is_some()
    }

    /// Whether a command given here now would be refused for a moment: one
    /// waits for the other machine, or the host is making the joiner's.
    /// The window waits meanwhile, so no click is made on a state about
    /// to change.
    pub fn occupied(&self) -> bool {
        self.busy() || self.slot.is_some()
    }

    /// What this machine waits for from the other, in words, if it waits.
    pub fn waits_for(&self) -> Option<String> {
        if let Some((round, _)) = &self.waiting {
            return Some(format!(
                "its half of round {} of dice, for this player's roll",
                said(*round)
            ));
        }
        self.pending.as_ref().map(|p| match (p.round, p.sent) {
            (Some((round, _)), false) => {
                format!(
                    "its half of round {} of dice, opened for this player's move",
                    said(round)
                )
            }
            _ => "this player's move back in the log".into(),
        })
    }

    /// The side this machine's player plays.
    fn mine(&self) -> Side {
        match self.role {
            Role::Host { joiner } => joiner.opponent(),
            Role::Joiner { me } => me,
        }
    }

    /// A command given on this machine: decided now if it draws no die,
    /// or once the round of dice it takes is made. `Waiting` while it is.
    pub fn give(&mut self, game: &mut G, command: G::Command) -> Result<Happened, RuleError> {
        if self.busy() {
            return Err(RuleError::new(
                "remote",
                "The last move is still on its way to the other machine: a moment",
            ));
        }
        if let Err(why) = self.may_give(game, &command, self.mine()) {
            return Err(RuleError::new("remote", why));
        }
        match self.role {
            Role::Host { .. } => {
                if self.slot.is_some() {
                    return Err(RuleError::new(
                        "remote",
                        "the other player's move is being made: a moment",
                    ));
                }
                match game.decide(&command, &mut AppDice::Wanted) {
                    Ok(entry) => {
                        self.append_own(game, entry)?;
                        Ok(Happened::Appended)
                    }
                    Err(e) if e.rule == WANTED => {
                        let pool = self.pool.as_mut().expect("the host has a pool");
                        let round = pool.next();
                        self.waiting = Some((round, command));
                        self.out.push(Wire::HalfPlease { round });
                        Ok(Happened::Waiting)
                    }
                    Err(e) => Err(e),
                }
            }
            Role::Joiner { .. } => {
                let intent = self.next_intent;
                self.next_intent += 1;
                let base = game.entries();
                match game.decide(&command, &mut AppDice::Wanted) {
                    Ok(entry) => {
                        let tag = game.tag_next(self.mine(), &entry).map(Hex32);
                        self.out.push(Wire::Decided {
                            intent,
                            base,
                            entry,
                            nonce: None,
                            tag,
                        });
                        self.pending = Some(Pending {
                            intent,
                            command,
                            round: None,
                            sent: true,
                            base,
                        });
                        Ok(Happened::Waiting)
                    }
                    Err(e) if e.rule == WANTED => {
                        let commitments = self.commitments.as_ref().expect("the joiner's");
                        let round = commitments.next().ok_or_else(|| {
                            RuleError::new(
                                "remote",
                                "the host's machine has not committed to its dice yet: a moment",
                            )
                        })?;
                        let half = self.half_for(round)?;
                        let digest = self.bind(intent, &command)?;
                        self.out.push(Wire::Intent {
                            intent,
                            base,
                            round,
                            half,
                            digest,
                        });
                        self.pending = Some(Pending {
                            intent,
                            command,
                            round: Some((round, half)),
                            sent: false,
                            base,
                        });
                        Ok(Happened::Waiting)
                    }
                    Err(e) => Err(e),
                }
            }
        }
    }

    /// The joiner's half of `round`: the one he sent already, or a fresh
    /// one, kept for good.
    fn half_for(&mut self, round: u64) -> Result<Half, RuleError> {
        if let Some(half) = self.halves.get(&round) {
            return Ok(*half);
        }
        let half = Half::fresh()?;
        self.halves.insert(round, half);
        Ok(half)
    }

    /// The nonce that opens intent `intent`'s binding.
    fn nonce_of(&self, intent: u64) -> Option<Hex32> {
        self.bound
            .iter()
            .find(|(i, ..)| *i == intent)
            .map(|(_, nonce, _)| Hex32(*nonce))
    }

    /// Binds intent `intent` to `command`: the SHA-256 of the command and
    /// a fresh nonce, the nonce kept for the audit.
    fn bind(&mut self, intent: u64, command: &G::Command) -> Result<Hex32, RuleError> {
        let nonce = Half::fresh()?.0;
        self.bound.push((intent, nonce, command.clone()));
        Ok(digest(&nonce, command))
    }

    /// An entry decided here, appended and sent with this player's tag;
    /// then what the rules force next, where it is this machine's.
    fn append_own(&mut self, game: &mut G, entry: G::Entry) -> Result<(), RuleError> {
        game.append(entry.clone())?;
        self.sent_entry(game, entry, None);
        self.forced(game);
        Ok(())
    }

    /// Sends the log's newest entry (the joiner's intent `answers`, if it
    /// is his), this machine's tags so far, and what its player shows the
    /// other alone after it.
    fn sent_entry(&mut self, game: &G, entry: G::Entry, answers: Option<u64>) {
        let position = game.entries() - 1;
        let link = game.link(position + 1).expect("just appended");
        self.out.push(Wire::Entry {
            position,
            entry,
            link: Hex32(link),
            answers,
        });
        self.send_tags(game);
        self.show(game);
    }

    /// What this machine's player shows the other alone after the log's
    /// newest entry, if anything.
    fn show(&mut self, game: &G) {
        self.show_at(game, game.entries() - 1);
        self.end(game);
    }

    fn show_at(&mut self, game: &G, position: usize) {
        if let Some(body) = game.private_after(self.mine(), position) {
            self.out.push(Wire::Private { position, body });
        }
    }

    /// Everything this machine's player shows the other alone that still
    /// holds, sent again at each start: the other's Muster, restarted,
    /// has it again.
    fn show_all(&mut self, game: &G) {
        for position in 0..game.entries() {
            self.show_at(game, position);
        }
        self.end(game);
    }

    /// Once the game is over, this player's records, opened, for the
    /// other machine's audit (sent again at each start, like what he
    /// showed).
    fn end(&mut self, game: &G) {
        if self.records_sent {
            return;
        }
        if let Some(body) = game.opened_records(self.mine()) {
            self.out.push(Wire::Records { body });
            self.records_sent = true;
        }
    }

    /// The other player's records, opened by his machine at the game's
    /// end: checked here; each fault named to both players.
    fn audited(&mut self, game: &G, body: &str) -> Vec<Happened> {
        let other = self.mine().opponent();
        if !game.over() {
            return vec![self.trouble(
                "the other machine sent its player's records before the game is over: they are not used"
                    .into(),
            )];
        }
        let found = game.audit(other, body);
        if found.is_empty() {
            return vec![Happened::Audited(format!(
                "{} sealed records, opened by their machine at the game's end, all hold: nothing kept hidden broke the rules",
                crate::text::possessive(&game.seat_name(other))
            ))];
        }
        found.into_iter().map(|why| self.trouble(why)).collect()
    }

    /// What the other player showed this one alone, taken.
    fn shown(&mut self, game: &mut G, position: usize, body: &str) -> Vec<Happened> {
        match game.take_private(position, body) {
            Ok(()) => vec![Happened::Shown],
            Err(e) => vec![self.trouble(format!(
                "what the other machine showed after entry {} is refused: {}",
                position + 1,
                e.message
            ))],
        }
    }

    /// This player's tags of what he has not tagged yet; none while his
    /// key is not held here (he has no passphrase yet: once he sets one,
    /// he tags every entry from the first).
    fn send_tags(&mut self, game: &G) {
        let tags = game.own_tags(self.mine(), self.tagged);
        if tags.is_empty() {
            return;
        }
        for (position, tag) in tags {
            self.out.push(Wire::Tag {
                position,
                tag: Hex32(tag),
            });
        }
        self.tagged = game.entries() + 1;
    }

    /// The command the rules force next, if it is this machine's to decide
    /// (the host's unless its decision needs the joiner's key).
    fn forced(&mut self, game: &mut G) {
        let Some(command) = game.forced() else {
            return;
        };
        let decider = game.decided_by(&command).unwrap_or(self.host_side());
        if decider == self.mine()
            && let Err(e) = self.give(game, command)
        {
            self.trouble(format!(
                "the step the rules force next fails: {}",
                e.message
            ));
        }
    }

    /// Whether the machine of `from` may give `command` now: not a move
    /// of the other side's player, unless the rules force it and `from`'s
    /// machine decides what is forced (the host's, unless the decision
    /// needs the other's key).
    fn may_give(&self, game: &G, command: &G::Command, from: Side) -> Result<(), String> {
        let forced = game.forced().is_some_and(|f| same(&f, command));
        self.may(
            game,
            game.given_by(command),
            forced,
            game.decided_by(command),
            from,
        )
    }

    /// Whether an entry the other machine sent, from `from`'s player, is
    /// one his machine may decide: `may_give` of the entry's command.
    fn may_take(&self, game: &G, entry: &G::Entry, from: Side) -> Result<(), String> {
        let (giver, forced) = (game.given_in(entry), game.forced_in(entry));
        self.may(game, giver, forced, game.decided_in(entry), from)
    }

    fn may(
        &self,
        game: &G,
        giver: Option<Side>,
        forced: bool,
        decider: Option<Side>,
        from: Side,
    ) -> Result<(), String> {
        match giver {
            None => Ok(()),
            Some(giver) if giver == from => Ok(()),
            _ if forced && decider.unwrap_or(self.host_side()) == from => Ok(()),
            Some(giver) => Err(format!(
                "{} plays from the other machine: that move is theirs, given on their machine",
                game.seat_name(giver)
            )),
        }
    }

    /// The host's player's side.
    fn host_side(&self) -> Side {
        match self.role {
            Role::Host { joiner } => joiner.opponent(),
            Role::Joiner { me } => me.opponent(),
        }
    }

    /// Says a refusal to the other machine too.
    fn trouble(&mut self, why: String) -> Happened {
        self.out.push(Wire::Trouble { why: why.clone() });
        Happened::Trouble(why)
    }

    /// What the other machine sent: carried out, and what it did.
    pub fn receive(&mut self, game: &mut G, message: Wire<G::Entry>) -> Vec<Happened> {
        match self.role {
            Role::Host { .. } => self.host_receives(game, message),
            Role::Joiner { .. } => self.joiner_receives(game, message),
        }
    }
}

/// What binds an intent to its command: the SHA-256 of the nonce and the
/// command.
pub(super) fn digest<C: serde::Serialize>(nonce: &[u8; 32], command: &C) -> Hex32 {
    let mut hash = Sha256::new();
    hash.update(nonce);
    hash.update(serde_json::to_vec(command).expect("a command always serializes"));
    Hex32(hash.finalize().into())
}

/// The next round of a game: after the last its log used.
fn next_round<G: Replica>(game: &G) -> u64 {
    (0..game.entries())
        .filter_map(|n| game.entry(n))
        .flat_map(|e| super::joint_rounds::<G>(&e))
        .map(|(r, ..)| r + 1)
        .max()
        .unwrap_or(0)
}

/// Every joint round an entry's dice came from must be one opened for it,
/// with the halves both machines gave: a round made up, or a half that is
/// not the one given, is named.
fn rounds_are<G: Replica>(
    _game: &G,
    entry: &G::Entry,
    allowed: Vec<(u64, Half, Half)>,
) -> Result<(), String> {
    let lone = super::lone_rolls::<G>(entry);
    if lone > 0 {
        return Err(format!(
            "{lone} of its rolls were drawn by one machine alone, not by both as every die of a remote game is: a die was chosen; nothing was taken"
        ));
    }
    for (round, host, joiner) in super::joint_rounds::<G>(entry) {
        match allowed.iter().find(|(r, ..)| *r == round) {
            Some((_, h, j)) if *h == host && *j == joiner => {}
            Some(_) => {
                return Err(format!(
                    "round {} of dice is logged with halves other than the two given: a die was chosen",
                    said(round)
                ));
            }
            None => {
                return Err(format!(
                    "round {} of dice was never opened for this move: a die was chosen",
                    said(round)
                ));
            }
        }
    }
    Ok(())
}
