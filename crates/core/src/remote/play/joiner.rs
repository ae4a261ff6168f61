//! What the joiner's machine does with what the host's sends (docs:
//! "Playing remotely"): the host's commitments kept, a round opened only
//! against them, each entry of the host's log followed by the rules and
//! checked against the chain, and his own move given again if the host's
//! came first.

use super::{Happened, Pending, Play, digest, rounds_are};
use crate::dice::AppDice;
use crate::dice::joint::Half;
use crate::dice::joint::said;
use crate::remote::{Hex32, Replica, Wire};

impl<G: Replica> Play<G> {
    pub(super) fn joiner_receives(
        &mut self,
        game: &mut G,
        message: Wire<G::Entry>,
    ) -> Vec<Happened> {
        match message {
            Wire::Commitments { first, list } => {
                let commitments = self.commitments.as_mut().expect("the joiner's");
                match commitments.take(first, &list) {
                    Ok(()) => Vec::new(),
                    Err(e) => vec![self.trouble(e.message)],
                }
            }
            Wire::Go {
                intent,
                round,
                host,
            } => {
                let Some(pending) = self.pending.as_mut().filter(|p| p.intent == intent) else {
                    return Vec::new();
                };
                let Some((mine, half)) = pending.round else {
                    return vec![self.trouble(format!("no dice were asked for move {intent}"))];
                };
                if round != mine || pending.sent {
                    return Vec::new();
                }
                let commitments = self.commitments.as_mut().expect("the joiner's");
                let opened = match commitments.open(round, host, half) {
                    Ok(opened) => opened,
                    Err(e) => return vec![self.trouble(e.message)],
                };
                self.opened.insert(round, (host, half));
                pending.sent = true;
                let base = game.entries();
                pending.base = base;
                let command = pending.command.clone();
                match game.decide(&command, &mut AppDice::Joint(Box::new(opened))) {
                    Ok(entry) => {
                        let nonce = self.nonce_of(intent);
                        let tag = game.tag_next(self.mine(), &entry).map(Hex32);
                        self.out.push(Wire::Decided {
                            intent,
                            base,
                            entry,
                            nonce,
                            tag,
                        });
                        vec![Happened::Waiting]
                    }
                    Err(e) => {
                        // His move no longer holds on the log as it is: he
                        // is told, and the round is spent (it was opened).
                        self.pending = None;
                        vec![Happened::Overtaken(e.message)]
                    }
                }
            }
            Wire::Later { intent, why: _ } => {
                // Given again as it was on the log as it is now (its round
                // and half stay the same: a refusal chooses no die): at
                // once if the host's move that came first is here already,
                // else when it comes.
                let Some(pending) = self.pending.as_mut().filter(|p| p.intent == intent) else {
                    return Vec::new();
                };
                pending.sent = false;
                if pending.base == game.entries() {
                    return Vec::new();
                }
                let again = self.pending.take().expect("checked");
                self.again(game, again)
            }
            Wire::HalfPlease { round } => match self.half_for(round) {
                Ok(half) => {
                    self.out.push(Wire::Half { round, half });
                    Vec::new()
                }
                Err(e) => vec![Happened::Trouble(e.message)],
            },
            Wire::Opened { round, host } => {
                let Some(half) = self.halves.get(&round).copied() else {
                    return vec![self.trouble(format!(
                        "the host's machine opened round {} of dice without asking this machine's half",
                        said(round)
                    ))];
                };
                let commitments = self.commitments.as_mut().expect("the joiner's");
                match commitments.open(round, host, half) {
                    Ok(_) => {
                        self.opened.insert(round, (host, half));
                        Vec::new()
                    }
                    Err(e) => vec![self.trouble(e.message)],
                }
            }
            Wire::Entry {
                position,
                entry,
                link,
                answers,
            } => self.joiner_follows(game, position, entry, link, answers),
            Wire::Tag { position, tag } => {
                let host = self.mine().opponent();
                match game.add_tag(host, position, tag.0) {
                    Ok(()) => vec![Happened::Tagged],
                    Err(e) => vec![Happened::Trouble(e.message)],
                }
            }
            Wire::Private { position, body } => self.shown(game, position, &body),
            Wire::Records { body } => self.audited(game, &body),
            Wire::Trouble { why } => vec![Happened::Trouble(why)],
            Wire::Intent { .. }
            | Wire::Decided { .. }
            | Wire::Half { .. }
            | Wire::Further { .. } => vec![
                self.trouble("the host's machine sent what only the joiner's machine sends".into()),
            ],
        }
    }

    /// An entry of the host's log: the next one, followed by the rules; one
    /// already held must be the same (a history the host rewrote is named).
    fn joiner_follows(
        &mut self,
        game: &mut G,
        position: usize,
        entry: G::Entry,
        link: Hex32,
        answers: Option<u64>,
    ) -> Vec<Happened> {
        if position < game.entries() {
            if game.entry(position).as_ref() == Some(&entry)
                && game.link(position + 1) == Some(link.0)
            {
                return Vec::new();
            }
            return vec![self.trouble(format!(
                "the host's machine sent entry {} again, changed: the history was rewritten there",
                position + 1
            ))];
        }
        if position > game.entries() {
            return vec![self.trouble(format!(
                "the host's machine sent entry {} before entry {}",
                position + 1,
                game.entries() + 1
            ))];
        }
        let mine = self
            .pending
            .as_ref()
            .is_some_and(|p| answers == Some(p.intent));
        if !mine && let Err(why) = self.may_take(game, &entry, self.mine().opponent()) {
            return vec![self.trouble(format!(
                "entry {} from the host's machine: {why}; nothing was taken",
                position + 1
            ))];
        }
        let rounds: Vec<(u64, Half, Half)> =
            self.opened.iter().map(|(r, (h, j))| (*r, *h, *j)).collect();
        if let Err(why) = rounds_are(game, &entry, rounds) {
            return vec![self.trouble(why)];
        }
        if let Err(e) = game.follow(entry) {
            return vec![self.trouble(format!(
                "entry {} from the host's machine is refused: {}",
                position + 1,
                e.message
            ))];
        }
        if game.link(position + 1) != Some(link.0) {
            return vec![self.trouble(format!(
                "entry {} does not chain as the host's machine says: the history differs there",
                position + 1
            ))];
        }
        for (round, ..) in
            crate::remote::joint_rounds::<G>(game.entry(position).as_ref().expect("followed"))
        {
            self.opened.remove(&round);
        }
        self.send_tags(game);
        self.show(game);
        // His own move, back in order: done. Another's: his, if it waits,
        // goes again on the log as it is now.
        let mut happened = vec![Happened::Appended];
        if let Some(pending) = &self.pending {
            if answers == Some(pending.intent) {
                self.pending = None;
            } else if !pending.sent {
                let again = self.pending.take().expect("checked");
                happened.extend(self.again(game, again));
            }
        }
        self.forced(game);
        happened
    }

    /// A move of his that the host put off, given again on the log as it
    /// is now, with its round and half as they were.
    fn again(&mut self, game: &mut G, pending: Pending<G::Command>) -> Vec<Happened> {
        let base = game.entries();
        match pending.round {
            Some((round, half)) => {
                let digest = match self.bound.iter().find(|(i, ..)| *i == pending.intent) {
                    Some((_, nonce, command)) => digest(nonce, command),
                    None => return vec![Happened::Trouble("a move lost its binding".into())],
                };
                self.out.push(Wire::Intent {
                    intent: pending.intent,
                    base,
                    round,
                    half,
                    digest,
                });
                self.pending = Some(Pending { base, ..pending });
                vec![Happened::Waiting]
            }
            None => match game.decide(&pending.command, &mut AppDice::Wanted) {
                Ok(entry) => {
                    let tag = game.tag_next(self.mine(), &entry).map(Hex32);
                    self.out.push(Wire::Decided {
                        intent: pending.intent,
                        base,
                        entry,
                        nonce: None,
                        tag,
                    });
                    self.pending = Some(Pending {
                        sent: true,
                        base,
                        ..pending
                    });
                    vec![Happened::Waiting]
                }
                Err(e) => vec![Happened::Overtaken(e.message)],
            },
        }
    }
}
