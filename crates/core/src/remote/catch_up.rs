//! A copy of the game further along than this machine's (docs: "Playing
//! remotely", when a program restarts): the host's Muster restarted on a
//! file older than the joiner's copy (it stopped before it saved, or was
//! given an older file). Nothing both players took is lost: the joiner's
//! machine sends its copy, and the host's takes from it every entry its
//! own player had taken before, which it proves by its own tag on each
//! (a tag only this machine's player's key makes). An entry without that
//! tag never reached the host's player: it is not taken on the other
//! machine's word, and its player gives that move again.
//!
//! The other way, the game a host's machine sends a joiner who was away
//! (either program restarted) may end in entries without his tag: ones
//! the host's player made meanwhile, or whose tag had not reached the
//! host's before it stopped. Those his own copy holds take his tag from
//! it; the others are checked as entries crossing live are (`arrived`)
//! and tagged when he unlocks.

use super::Replica;
use crate::side::Side;

/// How another machine's copy of the game stands against this machine's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compared {
    /// Another game.
    Other,
    /// The same log.
    Same,
    /// Theirs holds every entry of this one and `n` more.
    Behind(usize),
    /// This one holds every entry of theirs and more: the first `vouched`
    /// of those carry the tag of the other machine's player (he had taken
    /// them), the `unvouched` after them do not.
    Ahead { vouched: usize, unvouched: usize },
    /// The two logs differ from entry `n` on (counted from 1): one of
    /// them was rewritten.
    Diverged(usize),
}

/// How `theirs` stands against `mine`, `by` being the other machine's
/// player.
pub fn compare<G: Replica>(mine: &G, theirs: &G, by: Side) -> Compared {
    if mine.game_id() != theirs.game_id() {
        return Compared::Other;
    }
    let common = mine.entries().min(theirs.entries());
    // Links chain every entry before them: the first that differs is
    // where the logs part.
    if let Some(position) = (0..=common).find(|&p| mine.link(p) != theirs.link(p)) {
        return Compared::Diverged(position.max(1));
    }
    if theirs.entries() > mine.entries() {
        return Compared::Behind(theirs.entries() - mine.entries());
    }
    let further = theirs.entries()..mine.entries();
    let vouched = further
        .clone()
        .take_while(|&n| mine.tag(by, n + 1).is_some())
        .count();
    match further.len() {
        0 => Compared::Same,
        n => Compared::Ahead {
            vouched,
            unvouched: n - vouched,
        },
    }
}

/// Takes from `theirs` the entries beyond `mine` that this machine's
/// player `me` had taken (each carries his tag as his key makes it),
/// following each by the rules, and the other player's tags: how many it
/// took. Nothing changes if any does not hold: why, in words.
pub fn catch_up<G: Replica>(mine: &mut G, theirs: &G, me: Side) -> Result<usize, String> {
    match compare(mine, theirs, me.opponent()) {
        Compared::Behind(_) => {}
        Compared::Same => return Ok(0),
        Compared::Other => return Err("it is the copy of another game".into()),
        Compared::Diverged(n) => {
            return Err(format!(
                "its log differs from this machine's from entry {n} on: one of them was rewritten"
            ));
        }
        Compared::Ahead { .. } => {
            return Err("it holds fewer entries than this machine's".into());
        }
    }
    if mine.lock_of(me).is_none() {
        return Err(format!(
            "{} plays without a passphrase: no tag of his proves which of its entries he had taken",
            mine.seat_name(me)
        ));
    }
    let mut next = mine.clone();
    for n in mine.entries()..theirs.entries() {
        let position = n + 1;
        let Some(vouched) = theirs.tag(me, position) else {
            break;
        };
        let entry = theirs
            .entry(n)
            .ok_or("it lists an entry it does not hold")?;
        next.follow(entry)
            .map_err(|e| format!("its entry {position} is refused: {}", e.message))?;
        if next.link(position) != theirs.link(position) {
            return Err(format!(
                "its entry {position} does not chain as its copy says"
            ));
        }
        match next.own_tags(me, position).first() {
            Some((_, made)) if *made == vouched => {}
            Some(_) => {
                return Err(format!(
                    "its entry {position} carries a tag of {} this machine did not make: {} never took it",
                    next.seat_name(me),
                    next.seat_name(me)
                ));
            }
            None => {
                return Err(format!(
                    "{} must unlock here first: only his key checks his tags",
                    next.seat_name(me)
                ));
            }
        }
    }
    let other = me.opponent();
    for position in 0..=next.entries() {
        if let (None, Some(tag)) = (next.tag(other, position), theirs.tag(other, position)) {
            next.add_tag(other, position, tag)
                .map_err(|e| e.message.clone())?;
        }
    }
    let taken = next.entries() - mine.entries();
    *mine = next;
    Ok(taken)
}

/// Readies the game the host's machine sent (`fresh`) for `me`, the
/// joiner, to unlock and play on: his tags taken from `copy` (this
/// machine's own copy of the game, if it has one, which agrees with
/// `fresh` where both hold entries: `compare` said so) where `fresh` lacks
/// them, and the entries after his last tag checked as entries that cross
/// live are, then marked for his unlock to tag. Refused, naming the entry,
/// if one of them is a move of his that this machine never made, or draws
/// a die this machine cannot check was made by both.
pub fn arrived<G: Replica>(fresh: &mut G, copy: Option<&G>, me: Side) -> Result<(), String> {
    if fresh.lock_of(me).is_none() {
        return Ok(());
    }
    let last = fresh.entries();
    if let Some(copy) = copy {
        for position in 0..=last.min(copy.entries()) {
            if let (None, Some(tag)) = (fresh.tag(me, position), copy.tag(me, position)) {
                fresh
                    .add_tag(me, position, tag)
                    .map_err(|e| e.message.clone())?;
            }
        }
    }
    // Only a tail without his tags arrived while he was away: a gap before
    // a tag of his is left for his unlock to name.
    let Some(from) = (1..=last).find(|&p| fresh.tag(me, p).is_none()) else {
        return Ok(());
    };
    if (from..=last).any(|p| fresh.tag(me, p).is_some()) {
        return Ok(());
    }
    for n in from - 1..last {
        let entry = fresh
            .entry(n)
            .ok_or("the game lists an entry it does not hold")?;
        let what = format!(
            "entry {} reached the host's machine while this one was away",
            n + 1
        );
        if fresh.given_in(&entry) == Some(me) {
            return Err(format!(
                "{what}, and is a move of {} this machine never made: it is not taken on the host's word",
                crate::text::possessive(&fresh.seat_name(me))
            ));
        }
        if !G::rolls(&entry).is_empty() {
            return Err(format!(
                "{what}, and draws dice this machine cannot check were made by both machines: it is not taken on the host's word"
            ));
        }
    }
    fresh.arrived_while_away(me, from);
    Ok(())
}
