//! A player's passphrase, typed behind his own hand-over screen: set for a
//! new game, or given to unlock a reopened one, never on a form beside the
//! other player's field (issue 21). The laptop passes to him, he types (or
//! takes a suggested one, offered first), and the screen is passed back.
//! The slow key derivation (Argon2id, slow on purpose) runs on a worker
//! thread while the screen says it is working, so the window never freezes.

use crate::app::privacy::{Clicked, HandOver, hand_over_screen};
use eframe::egui;
use muster::core::intel::{Lock, PlayerKey, suggest_passphrase};
use muster::core::passphrase_screen::{self, Answer};
use muster::core::screen::Values;
use muster::core::side::Side;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// The width of his screen's column, centred in the window.
const WIDTH: f32 = 520.0;

/// What the passphrase is for.
#[derive(Clone)]
pub enum Purpose {
    /// A new lock; `context` holds words the opponent knows (names), which
    /// make a passphrase weaker.
    Set { context: Vec<String> },
    /// The lock of a reopened game.
    Unlock(Lock),
}

/// What the worker worked out.
pub enum Outcome {
    Set(Lock, PlayerKey),
    Unlocked(PlayerKey),
}

enum Stage {
    HandingTo,
    /// His screen (`muster_core::passphrase_screen`), with what he typed
    /// so far and the words offered him.
    Typing {
        values: Values,
        suggested: Option<String>,
        error: Option<String>,
    },
    Working(Receiver<Result<Outcome, String>>),
    /// Done: the screen closes.
    Done,
}

/// One player's passphrase screens, from the hand-over to the hand-back.
pub struct PassphraseScreen {
    pub side: Side,
    name: String,
    purpose: Purpose,
    stage: Stage,
}

/// What the screens did this frame.
pub enum Shown {
    /// Still covering the window.
    Open,
    /// Closed: cancelled, or handed back.
    Closed,
    /// The key is worked out: the window applies it, then calls `accepted`
    /// or `refused`.
    Finished(Outcome),
}

impl PassphraseScreen {
    pub fn new(side: Side, name: impl Into<String>, purpose: Purpose) -> PassphraseScreen {
        PassphraseScreen {
            side,
            name: name.into(),
            purpose,
            stage: Stage::HandingTo,
        }
    }

    /// The key was taken: the player hands the laptop back.
    pub fn accepted(&mut self) {
        self.stage = Stage::Done;
    }

    /// The key was refused (a tag that fails, a wrong passphrase): he sees
    /// why on his own screen and may try again.
    pub fn refused(&mut self, why: String) {
        self.stage = Stage::Typing {
            values: Values::new(),
            suggested: None,
            error: Some(why),
        };
    }

    /// Draws the screen over the whole window.
    pub fn show(&mut self, ui: &mut egui::Ui) -> Shown {
        let name = self.name.clone();
        match &mut self.stage {
            Stage::HandingTo => {
                let next = match self.purpose {
                    Purpose::Set { .. } => "he sets his passphrase next",
                    Purpose::Unlock(_) => "he types his passphrase next",
                };
                let screen = HandOver {
                    title: format!("Pass the laptop to {name}"),
                    text: format!("Only {name} looks: {next}."),
                    button: format!("I am {name}: type my passphrase"),
                    can_wait: false,
                    open_choice: None,
                    lock: None,
                };
                match hand_over_screen(ui, &screen) {
                    Clicked::Button => {
                        self.stage = Stage::Typing {
                            values: Values::new(),
                            suggested: None,
                            error: None,
                        };
                        Shown::Open
                    }
                    _ if ui.input(|i| i.key_pressed(egui::Key::Escape)) => Shown::Closed,
                    _ => Shown::Open,
                }
            }
            Stage::Typing {
                values,
                suggested,
                error,
            } => {
                let purpose = match self.purpose {
                    Purpose::Set { .. } => passphrase_screen::Purpose::Set,
                    Purpose::Unlock(_) => passphrase_screen::Purpose::Unlock,
                };
                let screen = passphrase_screen::screen(
                    &name,
                    purpose,
                    suggested.as_deref(),
                    error.as_deref(),
                );
                let mut reply = None;
                egui::CentralPanel::default().show(ui, |ui| {
                    ui.vertical_centered(|ui| {
                        ui.add_space(ui.available_height() / 4.0);
                        ui.heading(&screen.title);
                        ui.add_space(6.0);
                        // One column, read from its left edge, in the middle.
                        ui.allocate_ui_with_layout(
                            egui::vec2(WIDTH, ui.available_height()),
                            egui::Layout::top_down(egui::Align::Min),
                            |ui| {
                                reply = crate::app::screen::show(ui, &screen, self.side, values);
                            },
                        );
                    });
                });
                let Some(reply) = reply else {
                    return Shown::Open;
                };
                match passphrase_screen::read(purpose, &reply) {
                    Err(why) => *error = Some(why),
                    Ok(Answer::Cancel) => return Shown::Closed,
                    Ok(Answer::Suggest) => match suggest_passphrase() {
                        Ok(words) => {
                            for field in ["passphrase", "again"] {
                                values.insert(field.into(), vec![words.clone()]);
                            }
                            *suggested = Some(words);
                        }
                        Err(e) => *error = Some(e.message),
                    },
                    Ok(Answer::Passphrase(passphrase)) => {
                        // What he typed is dropped from the screen's state.
                        values.clear();
                        let purpose = self.purpose.clone();
                        let (send, receive) = channel();
                        let ctx = ui.ctx().clone();
                        std::thread::spawn(move || {
                            let outcome = match purpose {
                                Purpose::Set { context } => {
                                    let context: Vec<&str> =
                                        context.iter().map(String::as_str).collect();
                                    Lock::create(&passphrase, &context)
                                        .map(|(lock, key)| Outcome::Set(lock, key))
                                }
                                Purpose::Unlock(lock) => {
                                    lock.unlock(&passphrase).map(Outcome::Unlocked)
                                }
                            };
                            let _ = send.send(outcome.map_err(|e| e.message));
                            ctx.request_repaint();
                        });
                        self.stage = Stage::Working(receive);
                    }
                }
                Shown::Open
            }
            Stage::Working(receive) => {
                let received = receive.try_recv();
                egui::CentralPanel::default().show(ui, |ui| {
                    ui.vertical_centered(|ui| {
                        ui.add_space(ui.available_height() / 3.0);
                        ui.spinner();
                        ui.label("Working out the key (Argon2id, slow on purpose)…");
                    });
                });
                match received {
                    Ok(Ok(outcome)) => Shown::Finished(outcome),
                    Ok(Err(why)) => {
                        self.refused(why);
                        Shown::Open
                    }
                    Err(TryRecvError::Empty) => Shown::Open,
                    Err(TryRecvError::Disconnected) => {
                        self.refused("the key could not be worked out; try again".into());
                        Shown::Open
                    }
                }
            }
            // Nothing secret is on the screen once the key is taken:
            // back to the table at once (a "done" screen would be a click
            // that decides nothing).
            Stage::Done => Shown::Closed,
        }
    }
}

/// The passphrases of a new game's players, each set on his own screen
/// (the laptop's behind a hand-over, or his paired phone): the form shows
/// only whether he has one.
#[derive(Default)]
pub struct NewPassphrases {
    pub keys: muster::core::side::Sides<Option<(Lock, PlayerKey)>>,
    screen: Option<PassphraseScreen>,
    /// Who holds his seat on a phone (the window says, each frame).
    pub phones: muster::core::side::Sides<bool>,
    on_phone: muster::core::side::Sides<OnPhone>,
}

/// A player setting his passphrase on his phone.
#[derive(Default)]
struct OnPhone {
    /// The words the opponent knows of him, which make a passphrase weaker.
    asked: Option<Vec<String>>,
    suggested: Option<String>,
    refusal: Option<String>,
    working: Option<Receiver<Result<(Lock, PlayerKey), String>>>,
}

impl NewPassphrases {
    /// A side's row on the form: whether he has set one, and the button to
    /// set, change or remove it. `name` is how to call him, `context` the
    /// words the opponent knows of him; `what` says what it seals.
    pub fn row(&mut self, ui: &mut egui::Ui, side: Side, name: &str, context: &[&str], what: &str) {
        let name = if name.trim().is_empty() {
            side.to_string()
        } else {
            name.trim().to_string()
        };
        ui.horizontal(|ui| {
            if self.keys[side].is_some() {
                ui.label(format!("✔ {name} has set a passphrase"));
                if ui.button(format!("Remove {side}'s passphrase")).clicked() {
                    self.keys[side] = None;
                }
            } else if self.phones[side] {
                if self.on_phone[side].asked.is_some() {
                    ui.label(format!("{name} sets it on his phone…"));
                } else if ui
                    .button(format!("Set {side}'s passphrase on his phone"))
                    .clicked()
                {
                    self.on_phone[side] = OnPhone {
                        asked: Some(context.iter().map(|w| w.to_string()).collect()),
                        ..OnPhone::default()
                    };
                }
                ui.weak("optional");
            } else {
                let set = ui
                    .button(format!("Set {side}'s passphrase…"))
                    .on_hover_text(format!(
                        "On a screen of his own: it seals {what} in the file and tags every log entry. Without one, anyone with Muster can open them from the file"
                    ));
                if set.clicked() {
                    self.screen = Some(PassphraseScreen::new(
                        side,
                        name.clone(),
                        Purpose::Set {
                            context: context.iter().map(|w| w.to_string()).collect(),
                        },
                    ));
                }
                ui.weak("optional");
            }
        });
    }

    /// Draws a player's passphrase screen over the whole window while one
    /// is open; true while it covers the window.
    pub fn covering(&mut self, ui: &mut egui::Ui) -> bool {
        let Some(screen) = &mut self.screen else {
            return false;
        };
        match screen.show(ui) {
            Shown::Open => {}
            Shown::Closed => self.screen = None,
            Shown::Finished(Outcome::Set(lock, key)) => {
                self.keys[screen.side] = Some((lock, key));
                screen.accepted();
            }
            Shown::Finished(Outcome::Unlocked(_)) => unreachable!("setting unlocks nothing"),
        }
        true
    }
}

impl NewPassphrases {
    /// `name`'s passphrase screen for his phone, while he sets it there.
    pub fn phone_screen(&mut self, side: Side, name: &str) -> Option<muster::core::screen::Screen> {
        let name = if name.is_empty() { side.name() } else { name };
        let on_phone = &mut self.on_phone[side];
        if let Some(working) = &on_phone.working
            && let Ok(worked) = working.try_recv()
        {
            on_phone.working = None;
            match worked {
                Ok(pair) => {
                    self.keys[side] = Some(pair);
                    *on_phone = OnPhone::default();
                }
                Err(why) => on_phone.refusal = Some(why),
            }
        }
        let on_phone = &self.on_phone[side];
        if self.keys[side].is_some() {
            return Some(muster::core::screen::Screen {
                title: format!("{name}, your passphrase"),
                blocks: vec![muster::core::screen::Block::Text {
                    text:
                        "Set: it seals your secrets and tags every log entry. Keep it to yourself."
                            .into(),
                }],
            });
        }
        on_phone.asked.as_ref()?;
        if on_phone.working.is_some() {
            return Some(muster::core::screen::Screen {
                title: format!("{name}, your passphrase"),
                blocks: vec![muster::core::screen::Block::Text {
                    text: "Working out the key (Argon2id, slow on purpose)…".into(),
                }],
            });
        }
        Some(passphrase_screen::screen(
            name,
            passphrase_screen::Purpose::Set,
            on_phone.suggested.as_deref(),
            on_phone.refusal.as_deref(),
        ))
    }

    /// His answer on his phone: words suggested, a passphrase set (its key
    /// worked out on a thread of its own), or the request withdrawn.
    pub fn phone_answer(&mut self, side: Side, reply: &muster::core::screen::Reply) {
        let on_phone = &mut self.on_phone[side];
        let Some(context) = on_phone.asked.clone() else {
            return;
        };
        match passphrase_screen::read(passphrase_screen::Purpose::Set, reply) {
            Ok(Answer::Suggest) => match suggest_passphrase() {
                Ok(words) => on_phone.suggested = Some(words),
                Err(e) => on_phone.refusal = Some(e.message),
            },
            Ok(Answer::Cancel) => *on_phone = OnPhone::default(),
            Ok(Answer::Passphrase(passphrase)) => {
                let (send, receive) = channel();
                std::thread::spawn(move || {
                    let context: Vec<&str> = context.iter().map(String::as_str).collect();
                    let _ = send.send(Lock::create(&passphrase, &context).map_err(|e| e.message));
                });
                on_phone.working = Some(receive);
                on_phone.refusal = None;
            }
            Err(why) => on_phone.refusal = Some(why),
        }
    }
}
