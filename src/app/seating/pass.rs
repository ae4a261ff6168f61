//! A seat's passphrase screen (`muster_core::passphrase_screen`), the same
//! on the laptop behind his hand-over screen and on his phone: setting one
//! for a new game, unlocking a reopened game, or opening his sealed records
//! for a private step; and on the laptop his hand-over PIN's screen
//! (`muster_core::seat::pin`), which he may choose beside his passphrase.
//! What he types stays here until he sends it; the key
//! is worked out on a thread of its own (Argon2id is slow on purpose), one
//! at a time per seat, and comes back as a message on the bus, which wakes
//! the window.

use crate::app::bus::{Bus, Derived, SeatMsg};
use muster::core::intel::{Lock, suggest_passphrase};
use muster::core::passphrase_screen::{self, Answer, Button, Field, Purpose, Reply, Screen};
use muster::core::screen::{self, Action, Block, Input};
use muster::core::seat::pin;
use muster::core::side::Side;

/// What he typed on a passphrase screen, by field.
pub type Typed = screen::Form<Field>;

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
    /// Proof that the laptop's holder is he, for a private screen of a
    /// system whose records the game opened already (his cards).
    Prove(Lock),
    /// His hand-over PIN of the sitting, for a private screen.
    Pin,
}

impl Kind {
    fn purpose(&self) -> Purpose {
        match self {
            Kind::Set(_) => Purpose::Set,
            Kind::Unlock(_) | Kind::Key(_) => Purpose::Unlock,
            Kind::Open(_) | Kind::Prove(_) | Kind::Pin => Purpose::Open,
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
    /// His hand-over PIN, typed.
    Pin(String),
    /// He forgot his PIN: his passphrase, please.
    Forgot,
}

/// One seat's passphrase screen.
#[derive(Default)]
pub struct Pass {
    /// What it is for now; a change starts it afresh.
    kind: Option<Kind>,
    /// What he typed on the laptop so far (his phone keeps its own).
    pub typed: Typed,
    suggested: Option<String>,
    refusal: Option<String>,
    /// What was typed when the refusal came: once he types something
    /// else, it no longer speaks of what is on his screen and goes.
    refused_typed: Typed,
    /// The derivation under way, by its number.
    working: Option<u64>,
    /// A hand-over PIN may be chosen beside the passphrase (the laptop,
    /// while he has none).
    pub offer_pin: bool,
    /// The PIN he chose beside the passphrase being worked out: kept once
    /// the passphrase proves right.
    pub chosen: Option<String>,
}

impl Pass {
    /// Asked for `kind` now (or nothing): what was typed for another
    /// purpose is dropped. Whether it changed.
    pub fn settle(&mut self, kind: Option<Kind>) -> bool {
        if self.kind == kind {
            return false;
        }
        *self = Pass {
            kind,
            offer_pin: self.offer_pin,
            ..Pass::default()
        };
        true
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
        let refusal = self.refusal.as_deref().filter(|_| !typed_since);
        if *kind == Kind::Pin {
            return Some(pin_screen(name, refusal));
        }
        let mut screen =
            passphrase_screen::screen(name, kind.purpose(), self.suggested.as_deref(), refusal);
        if self.offer_pin && matches!(kind, Kind::Unlock(_) | Kind::Open(_) | Kind::Prove(_)) {
            let form = screen
                .blocks
                .iter()
                .position(|b| matches!(b, Block::Form { .. }))
                .unwrap_or(screen.blocks.len());
            screen.blocks.insert(
                form,
                Block::Text {
                    text: format!(
                        "Beside it you may choose a hand-over PIN of {} to {} digits: until the window closes or you lock your screens, it opens them instead of the passphrase.",
                        pin::DIGITS.start(),
                        pin::DIGITS.end()
                    ),
                },
            );
            for block in &mut screen.blocks {
                if let Block::Form { fields, .. } = block {
                    fields.push(screen::Field {
                        name: Field::Pin,
                        label: format!(
                            "{} hand-over PIN for this sitting (optional)",
                            muster::core::text::possessive(name)
                        ),
                        input: Input::Secret {
                            hint: format!(
                                "{} to {} digits",
                                pin::DIGITS.start(),
                                pin::DIGITS.end()
                            ),
                            fill: String::new(),
                        },
                    });
                }
            }
        }
        Some(screen)
    }

    /// His screen as the hand-over screen asks it (`privacy::Proof`): its
    /// body, without a title or a *Cancel* (the hand-over's own buttons
    /// lead back).
    pub fn on_hand_over(&self, name: &str) -> Option<Screen> {
        let mut screen = self.screen(name)?;
        screen.title.clear();
        for block in &mut screen.blocks {
            if let Block::Form { actions, .. } = block {
                actions.retain(|a| a.command != Button::Cancel);
            }
        }
        Some(screen)
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
        if kind == Kind::Pin {
            return self.pin_answer(reply);
        }
        let chosen = screen::first(&reply.values, Field::Pin)
            .filter(|typed| self.offer_pin && !typed.is_empty());
        match passphrase_screen::read(kind.purpose(), reply) {
            Err(why) => self.refused(why),
            Ok(Answer::Cancel) => return Asked::Cancel,
            Ok(Answer::Suggest) => match suggest_passphrase() {
                Ok(words) => {
                    for field in [Field::Passphrase, Field::Again] {
                        self.typed.insert(field, vec![words.clone()]);
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
            Ok(Answer::Passphrase(_)) if let Some(why) = chosen.and_then(pin::refusal) => {
                // The refused PIN goes, so its empty field takes his next
                // try at once (`screen::show` focuses it).
                self.typed.remove(&Field::Pin);
                self.refused(why);
            }
            Ok(Answer::Passphrase(passphrase)) => {
                self.chosen = chosen.map(str::to_string);
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
                        Kind::Unlock(lock)
                        | Kind::Open(lock)
                        | Kind::Key(lock)
                        | Kind::Prove(lock) => lock.unlock(&passphrase).map(Derived::Key),
                        Kind::Pin => unreachable!("a PIN is checked at once"),
                    };
                    let result = result.map_err(|e| e.message);
                    bus.seat(side, SeatMsg::Derived { generation, result });
                });
                return Asked::Deriving(generation);
            }
        }
        Asked::Nothing
    }

    /// His answer to the PIN screen.
    fn pin_answer(&mut self, reply: &Reply) -> Asked {
        match reply.command {
            Button::Cancel => Asked::Cancel,
            Button::UsePassphrase => Asked::Forgot,
            Button::OpenWithPin => {
                let typed = screen::first(&reply.values, Field::Pin)
                    .unwrap_or_default()
                    .to_string();
                self.typed.clear();
                Asked::Pin(typed)
            }
            Button::Suggest | Button::Submit => {
                self.refused("That is a button of the passphrase screen, not of this one".into());
                Asked::Nothing
            }
        }
    }
}

/// `name`'s PIN screen: his hand-over PIN, or his passphrase instead.
fn pin_screen(name: &str, refusal: Option<&str>) -> Screen {
    let mut blocks = vec![
        Block::Text {
            text: format!(
                "You chose a hand-over PIN this sitting: it opens your screens. {} wrong tries drop it, and your passphrase is asked.",
                pin::TRIES
            ),
        },
        Block::Form {
            fields: vec![screen::Field {
                name: Field::Pin,
                label: format!("{} hand-over PIN", muster::core::text::possessive(name)),
                input: Input::Secret {
                    hint: "PIN".into(),
                    fill: String::new(),
                },
            }],
            actions: vec![
                Action::new("Open with my PIN", Button::OpenWithPin),
                Action::new("Use my passphrase instead", Button::UsePassphrase)
                    .hint("Drops the PIN; choose a new one beside the passphrase"),
                Action::new("Cancel", Button::Cancel),
            ],
        },
    ];
    if let Some(why) = refusal {
        blocks.push(Block::Refusal {
            text: format!("✖ {why}"),
        });
    }
    Screen {
        title: format!("{name}, your PIN"),
        blocks,
    }
}
