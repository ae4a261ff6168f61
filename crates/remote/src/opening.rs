//! How a remote game begins (docs: "Playing remotely"): the host's machine
//! sends the game's file first, as the shared laptop would save it (the
//! log, sealed records and tags: no key, nothing opened), and the side the
//! ticket seats; the joiner's machine reads it as it reads a file from the
//! disk (every entry replayed by the rules, the chain checked), his player
//! unlocks his side there with his own passphrase, and only then do the
//! two machines play: his key never leaves his machine.

use crate::link::{Event, Link};
use crate::remote::{Remote, Said};
use muster_core::error::RuleError;
use muster_core::remote::{Play, Replica, Wire};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};

/// The host's first message.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum Opening {
    Start { file: String, seat: Side },
}

/// The host's end of `game`, its joiner seated as `joiner`: the file goes
/// first, then what the play says.
pub fn host<G: Replica>(game: &mut G, joiner: Side, link: Link) -> Result<Remote<G>, RuleError> {
    let start = Opening::Start {
        file: game.file(),
        seat: joiner,
    };
    link.send(serde_json::to_string(&start).expect("a start serializes"));
    let play = Play::host(game, joiner)?;
    Ok(Remote::new(play, link))
}

/// The joiner's end before the game has arrived.
pub struct Joining {
    link: Link,
    /// What the link said meanwhile (connected, dropped, refused).
    pub said: Vec<Event>,
    /// This machine sent the host's its copy, further along than the
    /// host's restarted program's: what its play says meanwhile is passed
    /// over until the game comes again.
    sent_copy: bool,
}

/// What arrived: the game and the side he plays.
pub struct Arrived<G> {
    pub game: G,
    pub seat: Side,
    /// What the link said before it arrived (connected, dropped).
    pub said: Vec<Event>,
    link: Link,
    /// This machine had sent its copy back before it arrived.
    sent_copy: bool,
}

impl Joining {
    pub fn new(link: Link) -> Joining {
        Joining {
            link,
            said: Vec::new(),
            sent_copy: false,
        }
    }

    /// The game, once the host's file has arrived and reads (`Ok(Ok)`);
    /// still joining while it has not (`Ok(Err)`); why not if what came
    /// does not read (nothing of it is taken).
    pub fn poll<G: Replica>(self) -> Result<Result<Arrived<G>, Joining>, String> {
        self.poll_with(G::from_file)
    }

    /// `poll`, the file read by `read` (a window that joins any system's
    /// game reads it as the system its format names).
    pub fn poll_with<T>(
        mut self,
        read: impl FnOnce(&str) -> Result<T, String>,
    ) -> Result<Result<Arrived<T>, Joining>, String> {
        while let Some(event) = self.link.next() {
            let Event::Message(body) = event else {
                self.said.push(event);
                continue;
            };
            let start = serde_json::from_str(&body);
            if self.sent_copy && start.is_err() {
                // The host's refusal of the copy ends the wait; the rest
                // is its play of the game it had.
                if let Ok(Wire::Trouble { why }) =
                    serde_json::from_str::<Wire<serde::de::IgnoredAny>>(&body)
                {
                    return Err(format!("the host's machine: {why}"));
                }
                continue;
            }
            let Opening::Start { file, seat } = start.map_err(|e| {
                format!("the host's machine did not begin with the game's file ({e})")
            })?;
            let game = read(&file)
                .map_err(|e| format!("the game the host's machine sent does not read: {e}"))?;
            return Ok(Ok(Arrived {
                game,
                seat,
                said: self.said,
                link: self.link,
                sent_copy: self.sent_copy,
            }));
        }
        Ok(Err(self))
    }

    pub fn link(&self) -> &Link {
        &self.link
    }
}

/// The joiner's end once the game arrived, before it plays: his side is
/// unlocked on this machine first (the window holds the game meanwhile).
/// What the host's machine says meanwhile (its commitments to the dice,
/// its tags) is kept for the play, not lost while he types.
pub struct Unlocking {
    pub seat: Side,
    link: Link,
    held: Vec<Event>,
}

impl<T> Arrived<T> {
    /// The game, and the rest of what arrived without it.
    pub fn take(self) -> (T, Arrived<()>) {
        let Arrived {
            game,
            seat,
            said,
            link,
            sent_copy,
        } = self;
        let rest = Arrived {
            game: (),
            seat,
            said,
            link,
            sent_copy,
        };
        (game, rest)
    }
}

impl Arrived<()> {
    /// What arrived, with `game` (as its system reads it).
    pub fn with<G>(self, game: G) -> Arrived<G> {
        Arrived {
            game,
            seat: self.seat,
            said: self.said,
            link: self.link,
            sent_copy: self.sent_copy,
        }
    }
}

impl<G: Replica> Arrived<G> {
    /// Whether this machine had sent its copy back (once is enough: the
    /// host's took what it could).
    pub fn sent_copy(&self) -> bool {
        self.sent_copy
    }

    /// Sends `copy` (this machine's game's file) back to the host's
    /// machine, whose restarted program sent an older one, and waits for
    /// the game again, once the host's took what its player had taken.
    pub fn send_copy(self, copy: String) -> Joining {
        let further = Wire::<()>::Further { file: copy };
        self.link
            .send(serde_json::to_string(&further).expect("a message serializes"));
        Joining {
            link: self.link,
            said: self.said,
            sent_copy: true,
        }
    }

    /// The game, and his end of the link until he plays; the host's side
    /// is the other machine's from now on (nothing here waits on its
    /// key).
    pub fn split(mut self) -> (G, Unlocking) {
        self.game.seat_remote(self.seat.opponent());
        (
            self.game,
            Unlocking {
                seat: self.seat,
                link: self.link,
                held: Vec::new(),
            },
        )
    }
}

impl Unlocking {
    /// Plays `game`, once his side is unlocked on this machine: what the
    /// host's machine said meanwhile is taken first, in order.
    pub fn play<G: Replica>(self, game: &mut G) -> (Remote<G>, Vec<Said>) {
        let play = Play::joiner(game, self.seat);
        let mut remote = Remote::new(play, self.link);
        let said = self
            .held
            .into_iter()
            .flat_map(|event| remote.take(game, event))
            .collect();
        (remote, said)
    }

    /// What the link said meanwhile (connected, dropped), without waiting;
    /// the game's messages are kept for the play.
    pub fn news(&mut self) -> Option<Event> {
        while let Some(event) = self.link.next() {
            match event {
                Event::Message(_) => self.held.push(event),
                other => return Some(other),
            }
        }
        None
    }
}
