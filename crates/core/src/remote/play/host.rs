//! What the host's machine does with what the joiner's sends (docs:
//! "Playing remotely"): his intents given their round of dice, his entries
//! checked and put in the log in order, his halves and his tags.

use super::{Happened, POOL, Play, Role, Slot, digest, rounds_are};
use crate::dice::AppDice;
use crate::dice::joint::said;
use crate::remote::{Replica, Wire};

impl<G: Replica> Play<G> {
    pub(super) fn host_receives(&mut self, game: &mut G, message: Wire<G::Entry>) -> Vec<Happened> {
        let Role::Host { joiner } = self.role else {
            unreachable!("the host's")
        };
        match message {
            Wire::Intent {
                intent,
                base,
                round,
                half,
                digest,
            } => {
                if let Some(answer) = self.answered.get(&intent) {
                    self.out.push(answer.clone());
                    return Vec::new();
                }
                if base != game.entries() || self.slot.is_some() || self.waiting.is_some() {
                    let later = Wire::Later {
                        intent,
                        why: "the host's move came first".into(),
                    };
                    self.out.push(later);
                    return Vec::new();
                }
                let pool = self.pool.as_mut().expect("the host's");
                match pool.open(round, half) {
                    Ok(opened) => {
                        let go = Wire::Go {
                            intent,
                            round,
                            host: opened.host,
                        };
                        self.slot = Some(Slot {
                            intent,
                            base,
                            round: Some((round, opened.host, half)),
                            digest,
                        });
                        self.answered.insert(intent, go.clone());
                        self.out.push(go);
                        self.top_up();
                        Vec::new()
                    }
                    Err(e) => vec![self.trouble(format!("Your move's dice: {}", e.message))],
                }
            }
            Wire::Decided {
                intent,
                base,
                entry,
                nonce,
                tag,
            } => {
                let expected = match &self.slot {
                    Some(slot) => slot.intent == intent && slot.base == base,
                    None => self.waiting.is_none() && base == game.entries(),
                };
                if !expected {
                    if self.done.contains(&intent) {
                        // A repeat of one already in the log.
                        return Vec::new();
                    }
                    self.out.push(Wire::Later {
                        intent,
                        why: "the host's move came first".into(),
                    });
                    return Vec::new();
                }
                if let Err(why) = self.may_take(game, &entry, joiner) {
                    self.slot = None;
                    return vec![self.trouble(format!("{why}; nothing was taken"))];
                }
                let slot = self.slot.take();
                let round = slot.as_ref().and_then(|s| s.round);
                if let Err(why) = rounds_are(game, &entry, round.into_iter().collect()) {
                    return vec![self.trouble(why)];
                }
                if let Some(slot) = slot
                    && nonce.zip(game.bound(&entry)).map(|(n, c)| digest(&n.0, &c))
                        != Some(slot.digest)
                {
                    return vec![self.trouble(format!(
                        "{joiner}'s move is not the one his machine bound before the dice were known: a move was chosen after seeing them; nothing was taken"
                    ))];
                }
                match game.follow(entry.clone()) {
                    Ok(()) => {
                        // Kept as sent: only his own unlock checks it.
                        if let Some(tag) = tag {
                            let _ = game.add_tag(joiner, game.entries(), tag.0);
                        }
                        self.done.insert(intent);
                        self.sent_entry(game, entry, Some(intent));
                        self.forced(game);
                        vec![Happened::Appended]
                    }
                    Err(e) => {
                        vec![self.trouble(format!(
                            "{} move is refused: {}",
                            crate::text::possessive(&game.seat_name(joiner)),
                            e.message
                        ))]
                    }
                }
            }
            Wire::Half { round, half } => {
                let Some((waiting, command)) = self.waiting.take() else {
                    return Vec::new();
                };
                if waiting != round {
                    self.waiting = Some((waiting, command));
                    return vec![self.trouble(format!(
                        "a half for round {} of dice, while round {} was asked",
                        said(round),
                        said(waiting)
                    ))];
                }
                let pool = self.pool.as_mut().expect("the host's");
                let opened = match pool.open(round, half) {
                    Ok(opened) => opened,
                    Err(e) => return vec![self.trouble(e.message)],
                };
                let host = opened.host;
                self.top_up();
                let decided = game.decide(&command, &mut AppDice::Joint(Box::new(opened)));
                self.out.push(Wire::Opened { round, host });
                match decided {
                    Ok(entry) => match self.append_own(game, entry) {
                        Ok(()) => vec![Happened::Appended],
                        Err(e) => vec![Happened::Trouble(e.message)],
                    },
                    Err(e) => vec![Happened::Trouble(e.message)],
                }
            }
            Wire::Tag { position, tag } => match game.add_tag(joiner, position, tag.0) {
                Ok(()) => vec![Happened::Tagged],
                Err(e) => vec![Happened::Trouble(e.message)],
            },
            Wire::Further { file } => {
                let mine = joiner.opponent();
                let taken = G::from_file(&file)
                    .map_err(|e| format!("it does not read: {e}"))
                    .and_then(|theirs| super::super::catch_up(game, &theirs, mine));
                match taken {
                    Ok(n) => vec![Happened::CaughtUp(n)],
                    Err(why) => vec![self.trouble(format!(
                        "the copy {joiner}'s machine sent back is not taken: {why}"
                    ))],
                }
            }
            Wire::Private { position, body } => self.shown(game, position, &body),
            Wire::Records { body } => self.audited(game, &body),
            Wire::Trouble { why } => vec![Happened::Trouble(why)],
            Wire::Entry { .. }
            | Wire::Commitments { .. }
            | Wire::Go { .. }
            | Wire::Later { .. }
            | Wire::HalfPlease { .. }
            | Wire::Opened { .. } => vec![
                self.trouble("the joiner's machine sent what only the host's machine sends".into()),
            ],
        }
    }

    /// Commits to more rounds while few are left.
    fn top_up(&mut self) {
        let pool = self.pool.as_mut().expect("the host's");
        if pool.left() < POOL / 2
            && let Ok((first, list)) = pool.commit_more(POOL)
        {
            self.out.push(Wire::Commitments { first, list });
        }
    }
}
