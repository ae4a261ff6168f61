//! A remote game in the window (docs: "Playing remotely"): one player
//! plays from his own Muster on another machine, joined by a ticket. The
//! window holds its end of the game here (`Remoted`): the link being made
//! off the window's thread, then the engines' remote play on it. Every
//! command this machine's player gives (his seat's answers, the table's
//! buttons, a seat's moves by itself) goes through it (`Mover`), and what
//! the other machine sends is taken once a frame (`poll`). The other
//! player's seat is his machine's (`Life::Remote`): this laptop never
//! shows his screens nor asks his passphrase.
//!
//! The host invites (`invite`: the ticket as text, link and QR code); the
//! joiner pastes it (`join`), and his Muster opens the game the host's
//! sends once it reads as a file does.

mod banner;
mod end;
pub mod invite;
pub mod join;
pub mod kept;
pub mod rejoin;
mod shell;

pub use end::{NO_UNDO, RemoteEnd, WAITING, end_game, game_over, others_unlocked, waiting_for};

use crate::app::bus::{AppCommand, Bus};
use crate::app::status::Status;
use muster::core::error::RuleError;
use muster::core::remote::{self as core_remote, Compared, Happened, Replica, compare};
use muster::core::seat::{Mover, Refused};
use muster::core::side::Side;
use muster_remote::link::Event;
use muster_remote::opening::{self, Arrived, Joining, Unlocking};
use muster_remote::{Hosting, Link, Net, Remote, Said, Ticket, Wake};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::Instant;

/// How the link to the other machine stands, for the banner.
#[derive(Clone, Debug, PartialEq)]
pub enum Linked {
    /// The host's endpoint is being opened (its relay reached).
    Opening,
    /// The ticket is made; the other player has not connected yet.
    Waiting,
    /// Connected, to a machine running `program`.
    Connected { program: String },
    /// The connection dropped (`why`) at `since`; it is dialed again by
    /// itself.
    Dropped { why: String, since: Instant },
    /// It could not be made at all.
    Failed(String),
}

/// What a move meets before the joiner unlocked his side here.
const UNLOCK_FIRST: NotYet = NotYet("unlock your side with your passphrase first");

/// What a move meets while the host's restarted program sends the game.
const REJOINING: NotYet = NotYet("the host's Muster restarted: its game is on its way again");

/// Where this machine's commands go before the game is played remotely:
/// nowhere, with the reason.
struct NotYet(&'static str);

impl<G: Replica> Mover<G> for NotYet {
    fn give(&mut self, _: &mut G, _: G::Command) -> Result<bool, Refused<G>> {
        Err(Refused::Rule(RuleError::new("remote", self.0)))
    }
}

enum Stage<G: Replica> {
    /// The host's endpoint being opened on a thread of its own.
    /// The host's endpoint opening; with whether its ticket's text
    /// changed (the kept port was taken, and no relay leads to it).
    Opening(Receiver<Result<(Link, Ticket, bool), String>>, NotYet),
    /// The joiner's end, his side still to unlock on this machine.
    Unlocking(Option<Unlocking>, NotYet),
    Playing(Box<Remote<G>>),
    /// The joiner's end after the host's program restarted: waiting for
    /// the game as the host's machine holds it now.
    Rejoining(Option<Joining>, NotYet),
    /// The link failed: nothing is played remotely.
    Ended(NotYet),
}

/// This machine's end of a remote game.
pub struct Remoted<G: Replica> {
    /// The side played from the other machine.
    pub away: Side,
    stage: Stage<G>,
    /// The host's ticket, once made: shown until the other player joins,
    /// and again when asked.
    pub ticket: Option<Ticket>,
    pub linked: Linked,
    /// What the other machine did that the rules or the protocol refuse,
    /// newest last: both players read it.
    pub troubles: Vec<String>,
    /// The newest of them, over the table until the game moves on.
    trouble: Option<String>,
    /// What this machine has waited too long for, while it waits.
    overdue: Option<String>,
    /// The other player's records checked at the game's end, all holding:
    /// in words.
    audited: Option<String>,
    /// The game is over (its records are awaited until `audited`).
    over: bool,
    /// A move of this machine's waited when the host's Muster restarted:
    /// said once the game is back.
    move_lost: bool,
}

/// What a frame's poll did, for the window.
#[derive(Default)]
pub struct Polled {
    pub changed: bool,
    pub status: Option<Status>,
}

impl Polled {
    /// What the window does with it: autosave if changed, say the status.
    pub fn handled(self) -> crate::app::system::Handled {
        crate::app::system::Handled {
            status: self.status,
            changed: self.changed,
            dialog: None,
        }
    }
}

/// Wakes the window when the link has news.
pub fn waker(bus: &Bus) -> Wake {
    let bus = bus.clone();
    std::sync::Arc::new(move || bus.app(AppCommand::Wake))
}

impl<G: Replica> Remoted<G> {
    /// The host invites a player to play `hosting`'s side from his
    /// machine (a new seat, or the one he had, with the same ticket): the
    /// endpoint opens off the window's thread (it waits for its relay),
    /// and the game plays once it has.
    pub fn invite(net: Net, hosting: Hosting, wake: Wake) -> Remoted<G> {
        let (tx, rx) = mpsc::channel();
        let away = hosting.seat;
        let done = wake.clone();
        std::thread::spawn(move || {
            let opened = Link::host_as(net, &hosting, wake).map(|(link, ticket)| {
                let addrs = || ticket.host.ip_addrs();
                let moved = hosting.port.is_some_and(|port| {
                    ticket.host.relay_urls().next().is_none() && !addrs().any(|a| a.port() == port)
                });
                (link, ticket, moved)
            });
            let _ = tx.send(opened);
            done();
        });
        Remoted {
            away,
            stage: Stage::Opening(rx, NotYet("the remote game is being set up: a moment")),
            ticket: None,
            linked: Linked::Opening,
            troubles: Vec::new(),
            trouble: None,
            audited: None,
            over: false,
            move_lost: false,
            overdue: None,
        }
    }

    /// The joiner's end of a game that arrived, the link having `said`
    /// what it did meanwhile: his side plays once he unlocked it here.
    pub fn joined(seated: Unlocking, said: &[Event]) -> Remoted<G> {
        Remoted {
            away: seated.seat.opponent(),
            stage: Stage::Unlocking(Some(seated), UNLOCK_FIRST),
            ticket: None,
            linked: said.iter().fold(Linked::Waiting, |l, e| linked(&l, e)),
            troubles: Vec::new(),
            trouble: None,
            audited: None,
            over: false,
            move_lost: false,
            overdue: None,
        }
    }

    /// Whether this machine is the host's.
    pub fn hosting(&self) -> bool {
        self.ticket.is_some() || matches!(self.stage, Stage::Opening(..))
    }

    /// Whether it ended before it was played (the link could not be
    /// made): the window drops it.
    pub fn ended(&self) -> bool {
        matches!(self.stage, Stage::Ended(_))
    }

    /// Whether a command given now must wait a moment for the other
    /// machine: the window waits meanwhile.
    pub fn occupied(&self) -> bool {
        matches!(&self.stage, Stage::Playing(remote) if remote.occupied())
    }

    /// Where this machine's commands go now.
    pub fn mover(&mut self) -> &mut dyn Mover<G> {
        match &mut self.stage {
            Stage::Playing(remote) => remote.as_mut(),
            Stage::Opening(_, not_yet)
            | Stage::Unlocking(_, not_yet)
            | Stage::Rejoining(_, not_yet)
            | Stage::Ended(not_yet) => not_yet,
        }
    }

    /// Takes what arrived since the last frame: the link made, the game's
    /// messages, the link's news.
    pub fn poll(&mut self, game: &mut G) -> Polled {
        self.over = game.over();
        let mut polled = Polled::default();
        match &mut self.stage {
            Stage::Opening(rx, _) => match rx.try_recv() {
                Ok(Ok((link, ticket, moved))) => match opening::host(game, self.away, link) {
                    Ok(remote) => {
                        if moved {
                            polled.status = Some(Status::Error(
                                "The port this game was hosted on is taken, so its ticket changed: File > Invite a remote player… shows the new one; send it to the other player again".into(),
                            ));
                        }
                        self.ticket = Some(ticket);
                        self.linked = Linked::Waiting;
                        self.stage = Stage::Playing(Box::new(remote));
                    }
                    Err(e) => self.fail(e.to_string(), &mut polled),
                },
                Ok(Err(why)) => self.fail(why, &mut polled),
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => {
                    self.fail("the network thread stopped".into(), &mut polled)
                }
            },
            Stage::Unlocking(seated, _) => {
                while let Some(event) = seated.as_mut().and_then(Unlocking::news) {
                    self.linked = linked(&self.linked, &event);
                }
                if !game.locked_seats().contains(&self.away.opponent())
                    && let Some(seated) = seated.take()
                {
                    let (remote, said) = seated.play(game);
                    self.stage = Stage::Playing(Box::new(remote));
                    let how = if game.lock_of(self.away.opponent()).is_some() {
                        "Your side is unlocked"
                    } else {
                        "Joined"
                    };
                    polled.status = Some(Status::Info(format!(
                        "{how}: the game goes on from both machines"
                    )));
                    let _ = self.took(said, &mut polled);
                }
            }
            Stage::Playing(remote) => {
                let said = remote.poll(game);
                if !remote.overdue_now() && self.overdue.take().is_some() {
                    polled.status = Some(Status::Info(
                        "The other machine answered: the move that waited goes on".into(),
                    ));
                }
                let (restarted, caught_up) = self.took(said, &mut polled);
                if self.over
                    && self.audited.is_some()
                    && matches!(self.linked, Linked::Dropped { .. })
                {
                    self.close_finished(&mut polled);
                } else if caught_up || (restarted && self.ticket.is_some()) {
                    self.begin_again(game, &mut polled);
                } else if restarted {
                    self.rejoin();
                }
            }
            Stage::Rejoining(joining, _) => {
                if let Some(joining) = joining.take() {
                    self.rejoining(joining, game, &mut polled);
                }
            }
            Stage::Ended(_) => {}
        }
        polled
    }

    /// A finished game whose records were checked here: the other Muster
    /// went (it may be hosting another game), so this one stops calling it
    /// rather than dial for ever under a red line (the window drops the
    /// ended link; the game stays open, over).
    fn close_finished(&mut self, polled: &mut Polled) {
        self.stage = Stage::Ended(NotYet("the game is over"));
        polled.status = Some(Status::Info(
            "The game is over and its records were checked; the other Muster has gone, so the connection is closed".into(),
        ));
    }

    /// Drops the connection now, as a network would (tests of what the
    /// players are told, and of the link coming back by itself).
    #[cfg(test)]
    pub fn cut(&self) {
        if let Stage::Playing(remote) = &self.stage {
            remote.link().cut();
        }
    }

    /// How long a move waits before the players are told (tests shorten
    /// it).
    #[cfg(test)]
    pub fn set_patience(&mut self, patience: std::time::Duration) {
        if let Stage::Playing(remote) = &mut self.stage {
            remote.set_patience(patience);
        }
    }

    /// The joiner's program restarted and took his seat again with the
    /// same ticket: what it held is gone, so the host sends the game as it
    /// is now and plays anew on the same link (nothing of the log is
    /// lost: it is on both machines' disks, and the host's is in order).
    fn begin_again(&mut self, game: &mut G, polled: &mut Polled) {
        let ended = Stage::Ended(NotYet("the remote game is being set up again: a moment"));
        let Stage::Playing(remote) = std::mem::replace(&mut self.stage, ended) else {
            return;
        };
        match opening::host(game, self.away, remote.into_link()) {
            Ok(remote) => self.stage = Stage::Playing(Box::new(remote)),
            Err(e) => self.fail(e.to_string(), polled),
        }
    }

    /// The host's program restarted (with the same ticket): what this
    /// machine played with it is gone there, so the game comes again as
    /// the host's machine holds it.
    fn rejoin(&mut self) {
        let ended = Stage::Rejoining(None, NotYet("the host's Muster restarted"));
        self.overdue = None;
        if let Stage::Playing(remote) = std::mem::replace(&mut self.stage, ended) {
            // Given for the program that stopped, it never reached the log.
            self.move_lost = remote.busy();
            self.stage = Stage::Rejoining(Some(Joining::new(remote.into_link())), REJOINING);
        }
    }

    /// Waits for the host's game, and takes it in place of this one once
    /// it reads as a file does: its player unlocks his side again.
    fn rejoining(&mut self, mut joining: Joining, game: &mut G, polled: &mut Polled) {
        for event in joining.said.drain(..) {
            self.linked = linked(&self.linked, &event);
        }
        let me = self.away.opponent();
        match joining.poll::<G>() {
            Ok(Ok(arrived)) if arrived.seat != me => self.fail(
                format!(
                    "the host's Muster now seats this machine as {}",
                    arrived.seat
                ),
                polled,
            ),
            Ok(Ok(arrived)) => self.compared(
                arrived,
                game,
                polled,
                "The host's Muster restarted and sent the game as it holds it now",
            ),
            Ok(Err(joining)) => self.stage = Stage::Rejoining(Some(joining), REJOINING),
            Err(why) => self.fail(why, polled),
        }
    }

    /// The joiner's end of a game that arrived while this machine holds
    /// its own copy of it (its Muster restarted and read its autosave):
    /// the two are compared as when the host's program restarts, so
    /// nothing either player had taken is lost.
    pub fn joined_with_copy(arrived: Arrived<G>, copy: &mut G) -> (Remoted<G>, Polled) {
        let mut remoted = Remoted {
            away: arrived.seat.opponent(),
            stage: Stage::Rejoining(None, REJOINING),
            ticket: None,
            linked: arrived
                .said
                .iter()
                .fold(Linked::Waiting, |l, e| linked(&l, e)),
            troubles: Vec::new(),
            trouble: None,
            audited: None,
            over: false,
            move_lost: false,
            overdue: None,
        };
        let mut polled = Polled::default();
        let lead = format!(
            "You joined the game as {} again, with this machine's own copy of it",
            arrived.seat
        );
        remoted.compared(arrived, copy, &mut polled, &lead);
        (remoted, polled)
    }

    /// The host's game, arrived, set against this machine's copy (`game`):
    /// taken in its place when it holds everything this one's player took,
    /// this one's copy sent back first when the host's lacks entries its
    /// own player had taken, this one kept (and said why) otherwise.
    /// `lead` says what happened, first.
    fn compared(&mut self, arrived: Arrived<G>, game: &mut G, polled: &mut Polled, lead: &str) {
        let me = self.away.opponent();
        match compare(game, &arrived.game, self.away) {
            Compared::Other => self.fail(
                "the host's Muster sent another game; this machine's copy is kept".into(),
                polled,
            ),
            Compared::Diverged(n) => self.fail(
                format!(
                    "the game the host's Muster sent differs from this machine's copy from entry {n} on: its history was rewritten. This machine's copy is kept"
                ),
                polled,
            ),
            Compared::Ahead {
                vouched,
                unvouched,
            } if game.lock_of(self.away).is_none() => self.fail(
                format!(
                    "the host's Muster restarted on a file {} entries older than this machine's copy, and {name} plays without a passphrase, so it cannot check which of them it had taken. This machine's copy is kept: save it (File > Save as…) for {name} to open and host again",
                    vouched + unvouched,
                    name = game.seat_name(self.away)
                ),
                polled,
            ),
            Compared::Ahead { vouched, .. } if vouched > 0 && !arrived.sent_copy() => {
                polled.status = Some(Status::Info(format!(
                    "The host's Muster restarted on an older file, without {vouched} entries it had taken: this machine sent them back, and the game goes on once it has them"
                )));
                let joining = arrived.send_copy(game.file());
                self.stage = Stage::Rejoining(Some(joining), REJOINING);
            }
            Compared::Ahead { vouched, .. } if vouched > 0 => self.fail(
                format!(
                    "the host's Muster did not take back the {vouched} entries it had taken before it restarted. This machine's copy is kept"
                ),
                polled,
            ),
            compared => {
                let (mut fresh, seated) = arrived.split();
                if let Err(why) = core_remote::arrived(&mut fresh, Some(game), me) {
                    self.fail(
                        format!("the game the host's Muster sent: {why}. This machine's copy is kept"),
                        polled,
                    );
                    return;
                }
                *game = fresh;
                let move_lost = std::mem::take(&mut self.move_lost);
                let lost = match compared {
                    Compared::Ahead { unvouched, .. } => format!(
                        " Your last {unvouched} move(s) had not reached it before it stopped: give them again (their dice are rolled anew)."
                    ),
                    _ if move_lost => " Your last move had not reached it before it stopped: it was not made; give it again (any dice it rolls are rolled anew).".to_string(),
                    _ => String::new(),
                };
                polled.changed = true;
                let again = match game.lock_of(me) {
                    // His records go to the other machine again once his
                    // key is here: for its check at the game's end.
                    Some(_) if game.over() => {
                        ": the game is over; unlock your side again to send your records for the other player's check"
                    }
                    Some(_) => ": unlock your side again to go on",
                    None => "",
                };
                polled.status = Some(Status::Error(format!("{lead}{again}.{lost}")));
                self.stage = Stage::Unlocking(Some(seated), UNLOCK_FIRST);
            }
        }
    }

    /// What the remote play said, told to the window; whether the other
    /// machine's program was found restarted, and whether this one took
    /// entries from the joiner's copy (the two begin again from it).
    fn took(&mut self, said: Vec<Said>, polled: &mut Polled) -> (bool, bool) {
        let (mut restarted, mut caught_up) = (false, false);
        for said in said {
            match said {
                // A tag changes the file to autosave: without the other
                // player's last tag it would not open under his name
                // after a restart.
                Said::Game(Happened::Appended) => {
                    polled.changed = true;
                    self.trouble = None;
                }
                Said::Game(Happened::Tagged | Happened::Shown) => polled.changed = true,
                Said::Game(Happened::Waiting) => {}
                Said::Game(Happened::CaughtUp(n)) => {
                    caught_up = true;
                    polled.changed = true;
                    polled.status = Some(Status::Info(format!(
                        "The other machine's copy held {n} entries this file lacked, each taken here before: taken again; the game goes on from both machines"
                    )));
                }
                Said::Game(Happened::Audited(words)) => {
                    self.audited = Some(words);
                }
                // His own click lost a race with the other's move: said as
                // his, not as something the other machine did.
                Said::Game(Happened::Overtaken(why)) => {
                    polled.status = Some(Status::Error(format!(
                        "Your last move was not made: the other player's move came first, and then the rules said: {why}"
                    )));
                }
                Said::Game(Happened::Trouble(why)) => {
                    // Said over the table (`banner`), not twice.
                    self.trouble = Some(why.clone());
                    self.troubles.push(why);
                }
                Said::Overdue(why) => {
                    self.overdue = Some(why);
                }
                Said::Link(event) => {
                    // A move that waits on a dropped connection is said
                    // by the drop, not as one the other machine withholds.
                    if matches!(event, Event::Dropped(_)) {
                        self.overdue = None;
                    }
                    restarted |= matches!(
                        event,
                        Event::Connected {
                            restarted: true,
                            ..
                        }
                    );
                    self.linked = linked(&self.linked, &event);
                    polled.status =
                        banner::said_of(&event, self.hosting()).or(polled.status.take());
                }
            }
        }
        (restarted, caught_up)
    }

    fn fail(&mut self, why: String, polled: &mut Polled) {
        polled.status = Some(Status::Error(format!(
            "The remote game could not be opened: {why}"
        )));
        self.linked = Linked::Failed(why);
        self.stage = Stage::Ended(NotYet("the remote game could not be opened"));
    }
}

/// How the link stands after `event`.
fn linked(before: &Linked, event: &Event) -> Linked {
    match event {
        Event::Connected { program, .. } => Linked::Connected {
            program: program.clone(),
        },
        Event::Dropped(why) => match before {
            // Still the first drop's time: the players see how long.
            Linked::Dropped { since, .. } => Linked::Dropped {
                why: why.clone(),
                since: *since,
            },
            _ => Linked::Dropped {
                why: why.clone(),
                since: Instant::now(),
            },
        },
        Event::Refused(why) => Linked::Failed(why.clone()),
        Event::Message(_) => before.clone(),
    }
}
