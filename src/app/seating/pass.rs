//! A seat's passphrase screen (`muster_core::passphrase_screen`), the same
//! on the laptop behind his hand-over screen and on his phone: setting one
//! for a new game, unlocking a reopened game, or opening his sealed records
//! for a private step. What he types stays here until he sends it; the key
//! is worked out on a thread of its own (Argon2id is slow on purpose), one
//! at a time per seat, and comes back as a message on the bus, which wakes
//! the window.

use crate::app::bus::{Bus, Derived, SeatMsg};
use muster::core::intel::{Lock, suggest_passphrase};
use muster::core::passphrase_screen::{self, Answer, Purpose};
use muster::core::screen::{Block, Reply, Screen, Values};
use muster::core::side::Side;

/// What his passphrase is asked for now.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A new game's passphrase; the words the opponent knows of him (his
    /// name, his army), which make one weaker.
    Set(Vec<String>),
    /// The lock of the reopened game.
    Unlock(Lock),
    /// His sealed records, for a private step.
    Open(Lock),
    /// His key, for something he asked of the table (his private page).
    Key(Lock),
}

impl Kind {
    fn purpose(&self) -> Purpose {
        match self {
            Kind::Set(_) => Purpose::Set,
            Kind::Unlock(_) | Kind::Key(_) => Purpose::Unlock,
            Kind::Open(_) => Purpose::Open,
        }
    }
}

/// What his answer on the passphrase screen asks of the seat.
pub enum Asked {
    Nothing,
    /// He cancelled.
    Cancel,
    /// His key is being worked out, on a thread, numbered so.
    Deriving(u64),
}

/// One seat's passphrase screen.
#[derive(Default)]
pub struct Pass {
    /// What it is for now; a change starts it afresh.
    kind: Option<Kind>,
    /// What he typed on the laptop so far (his phone keeps its own).
    pub typed: Values,
    suggested: Option<String>,
    refusal: Option<String>,
    /// What was typed when the refusal came: once he types something
    /// else, it no longer speaks of what is on his screen and goes.
    refused_typed: Values,
    /// The derivation under way, by its number.
    working: Option<u64>,
}

impl Pass {
    /// Asked for `kind` now (or nothing): what was typed for another
    /// purpose is dropped.
    pub fn settle(&mut self, kind: Option<Kind>) {
        if self.kind != kind {
            *self = Pass {
                kind,
                ..Pass::default()
            };
        }
    }

    pub fn kind(&self) -> Option<&Kind> {
        self.kind.as_ref()
    }

    /// A refusal of his key (a wrong passphrase, a tag that fails).
    pub fn refuse(&mut self, why: String) {
        self.working = None;
        self.refused(why);
    }

    fn refused(&mut self, why: String) {
        self.refused_typed = self.typed.clone();
        self.refusal = Some(why);
    }

    /// The derivation `generation` came back: whether it is this one's.
    pub fn worked(&mut self, generation: u64) -> bool {
        if self.working == Some(generation) {
            self.working = None;
            return true;
        }
        false
    }

    /// His screen, called `name`: the form, or a word while it works.
    pub fn screen(&self, name: &str) -> Option<Screen> {
        let kind = self.kind.as_ref()?;
        if self.working.is_some() {
            let working = Block::Text {
                text: "Working out the key (Argon2id, slow on purpose)…".into(),
            };
            // A passphrase sent again meanwhile is told why it waits.
            let again = self
                .refusal
                .iter()
                .map(|text| Block::Refusal { text: text.clone() });
            return Some(Screen {
                title: format!("{name}, your passphrase"),
                blocks: std::iter::once(working).chain(again).collect(),
            });
        }
        let typed_since = self.typed != self.refused_typed;
        Some(passphrase_screen::screen(
            name,
            kind.purpose(),
            self.suggested.as_deref(),
            self.refusal.as_deref().filter(|_| !typed_since),
        ))
    }

    /// His answer: words suggested, a passphrase (its key worked out on a
    /// thread of its own, `generation`, answered on the bus), or cancel.
    /// While `busy` (a derivation of his seat still runs, whatever screen
    /// asked for it) a passphrase starts nothing.
    pub fn answer(
        &mut self,
        side: Side,
        reply: &Reply,
        generation: u64,
        busy: bool,
        bus: &Bus,
    ) -> Asked {
        let Some(kind) = self.kind.clone() else {
            return Asked::Nothing;
        };
        match passphrase_screen::read(kind.purpose(), reply) {
            Err(why) => self.refused(why),
            Ok(Answer::Cancel) => return Asked::Cancel,
            Ok(Answer::Suggest) => match suggest_passphrase() {
                Ok(words) => {
                    for field in ["passphrase", "again"] {
                        self.typed.insert(field.into(), vec![words.clone()]);
                    }
                    self.suggested = Some(words);
                    self.refusal = None;
                }
                Err(e) => self.refused(e.message),
            },
            // One derivation at a time: each holds 64 MiB or more.
            Ok(Answer::Passphrase(_)) if busy || self.working.is_some() => {
                self.refused("Still working out your key: a moment".into());
            }
            Ok(Answer::Passphrase(passphrase)) => {
                self.typed.clear();
                self.refusal = None;
                self.working = Some(generation);
                let bus = bus.clone();
                std::thread::spawn(move || {
                    let result = match kind {
                        Kind::Set(context) => {
                            let context: Vec<&str> = context.iter().map(String::as_str).collect();
                            Lock::create(&passphrase, &context)
                                .map(|(lock, key)| Derived::Set(lock, key))
                        }
                        Kind::Unlock(lock) | Kind::Open(lock) | Kind::Key(lock) => {
                            lock.unlock(&passphrase).map(Derived::Key)
                        }
                    };
                    let result = result.map_err(|e| e.message);
                    bus.seat(side, SeatMsg::Derived { generation, result });
                });
                return Asked::Deriving(generation);
            }
        }
        Asked::Nothing
    }
}
