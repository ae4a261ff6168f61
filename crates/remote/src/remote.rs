//! A remote game's machine: the engines' remote play (`Play`, which says
//! what crosses) on a link (which carries it), for the window and the
//! command line (docs: "Playing remotely"). What arrives is read as the
//! game's messages, a message that does not read is named and nothing of
//! it is taken; what the play has to send goes on the link at once.

use crate::link::{Event, Link};
use muster_core::error::RuleError;
use muster_core::remote::{Happened, Play, Replica, Wire};
use muster_core::seat::{Mover, Refused};
use std::time::{Duration, Instant};

/// How long a move may wait for the other machine before the players are
/// told: a machine that withholds its half of the dice (to see the host's
/// roll first, or to stop a roll it would lose) is named, not waited on in
/// silence.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// What a poll or a command did, for the window's status line and log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// The game: an entry appended, a move waiting, a refusal.
    Game(Happened),
    /// The link: connected, dropped, refused (never a message: those are
    /// the game's).
    Link(Event),
    /// A move of this machine's has waited longer than the patience for
    /// what the other machine owes it (told once; it holds while the move
    /// waits, `Remote::overdue_now`).
    Overdue(String),
}

/// This machine's end of a remote game.
pub struct Remote<G: Replica> {
    play: Play<G>,
    link: Link,
    /// Since when a move of this machine's waits, and whether the players
    /// were told it waits too long.
    waiting: Option<(Instant, bool)>,
    patience: Duration,
    /// Whether the link is up: a move waits on the connection, not on the
    /// other machine, while it is down (the drop is said instead).
    connected: bool,
}

impl<G: Replica> Remote<G> {
    /// `play` carried on `link`; what it has to say first goes now.
    pub fn new(play: Play<G>, link: Link) -> Remote<G> {
        let mut remote = Remote {
            play,
            link,
            waiting: None,
            patience: PATIENCE,
            connected: true,
        };
        remote.flush();
        remote
    }

    /// A command given on this machine.
    pub fn give(&mut self, game: &mut G, command: G::Command) -> Result<Happened, RuleError> {
        let happened = self.play.give(game, command);
        self.flush();
        happened
    }

    /// Everything that arrived, taken in order, without waiting; it stops
    /// after the other program is found restarted: what follows is that
    /// program's new beginning (the game's file, when the host's
    /// restarted), for the caller to begin anew with.
    pub fn poll(&mut self, game: &mut G) -> Vec<Said> {
        let mut said = Vec::new();
        while let Some(event) = self.link.next() {
            let restarted = matches!(
                event,
                Event::Connected {
                    restarted: true,
                    ..
                }
            );
            said.extend(self.take(game, event));
            if restarted {
                break;
            }
        }
        said.extend(self.overdue());
        said
    }

    /// How long a move waits before the players are told (tests shorten
    /// it).
    pub fn set_patience(&mut self, patience: Duration) {
        self.patience = patience;
    }

    /// Tells the players, once, that a move of this machine's has waited
    /// longer than the patience for what the other machine owes it.
    pub fn overdue(&mut self) -> Option<Said> {
        let Some(what) = self.play.waits_for().filter(|_| self.connected) else {
            self.waiting = None;
            return None;
        };
        let (since, told) = self.waiting.get_or_insert((Instant::now(), false));
        if *told || since.elapsed() < self.patience {
            return None;
        }
        *told = true;
        Some(Said::Overdue(format!(
            "the other machine has not sent {what} for {} seconds: it withholds it, or its program is stuck; the move waits",
            self.patience.as_secs()
        )))
    }

    /// Whether the players were told a move waits too long, and it still
    /// waits.
    pub fn overdue_now(&self) -> bool {
        matches!(self.waiting, Some((_, true))) && self.play.waits_for().is_some()
    }

    /// One event of the link, taken.
    pub fn take(&mut self, game: &mut G, event: Event) -> Vec<Said> {
        let said = match event {
            Event::Message(body) => match serde_json::from_str::<Wire<G::Entry>>(&body) {
                Ok(message) => self
                    .play
                    .receive(game, message)
                    .into_iter()
                    .map(Said::Game)
                    .collect(),
                Err(e) => vec![Said::Game(Happened::Trouble(format!(
                    "the other machine sent a message this Muster does not read ({e}); nothing of it was taken"
                )))],
            },
            other => {
                match &other {
                    Event::Connected { .. } => self.connected = true,
                    Event::Dropped(_) | Event::Refused(_) => self.connected = false,
                    Event::Message(_) => {}
                }
                vec![Said::Link(other)]
            }
        };
        self.flush();
        said
    }

    /// Whether a command given here waits for the other machine.
    pub fn busy(&self) -> bool {
        self.play.busy()
    }

    /// Whether a command given here now must wait a moment (`Play::occupied`).
    pub fn occupied(&self) -> bool {
        self.play.occupied()
    }

    /// Whether everything said has reached the other machine.
    pub fn settled(&self) -> bool {
        self.link.settled()
    }

    pub fn link(&self) -> &Link {
        &self.link
    }

    /// Its link, the play dropped: the host begins anew on it when the
    /// joiner's program restarted (what that program held is gone).
    pub fn into_link(self) -> Link {
        self.link
    }

    /// What this machine's player gives through his own seats and the
    /// table: decided here and sent, or waiting for the other machine.
    pub fn mover(&mut self) -> &mut dyn Mover<G> {
        self
    }

    fn flush(&mut self) {
        for message in self.play.outbox() {
            self.link
                .send(serde_json::to_string(&message).expect("a message always serializes"));
        }
    }
}

impl<G: Replica> Mover<G> for Remote<G> {
    fn give(&mut self, game: &mut G, command: G::Command) -> Result<bool, Refused<G>> {
        match Remote::give(self, game, command) {
            Ok(Happened::Appended) => Ok(true),
            Ok(
                Happened::Waiting
                | Happened::Tagged
                | Happened::Shown
                | Happened::CaughtUp(_)
                | Happened::Audited(_),
            ) => Ok(false),
            Ok(Happened::Trouble(why) | Happened::Overtaken(why)) => {
                Err(Refused::Rule(RuleError::new("remote", why)))
            }
            Err(e) => Err(Refused::Rule(e)),
        }
    }
}
