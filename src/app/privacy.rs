//! The shared screen's privacy: a player's secrets show only after a
//! full-window hand-over screen ("Pass to North"), and only once he has
//! given his passphrase; when he is done the window shows nothing secret
//! again. The sealing key his passphrase gives lives here,
//! in memory and never saved, for the sitting ([`Sitting`]): he gives his
//! passphrase once, at his first private step on this screen, and the
//! hand-over screen alone opens his later steps, until the window closes
//! the battle or he locks his secrets again (the hand-over screen says so
//! and offers the lock). Setting it with his army or unlocking the battle
//! in the open keeps nothing for his secrets.

use eframe::egui;
use muster::core::intel::SealKey;
use muster::core::passphrase_screen::{self, Answer, Purpose};
use muster::core::screen::Values;
use muster::core::side::Side;
use muster::fog::battle::Battle;

/// What the full-window hand-over screen says, and its button.
pub struct HandOver {
    pub title: String,
    pub text: String,
    pub button: String,
    /// Whether the players may leave it for another step (before a private
    /// session, not after one: then the screen must change hands).
    pub can_wait: bool,
    /// A choice that needs no secret, offered on the screen itself ("South:
    /// no ambushes"): the player decides it in the open and saves passing
    /// the screen back and forth.
    pub open_choice: Option<(String, crate::app::fog::FogCommand)>,
    /// "Lock South's secrets": he gave his passphrase this sitting, and may
    /// want it asked again (he leaves the table a while).
    pub lock: Option<(String, Side)>,
}

/// What was clicked on a hand-over screen.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Clicked {
    Nothing,
    /// Its button: the screen changes hands.
    Button,
    /// The choice made in the open.
    OpenChoice,
    /// "Not now".
    Wait,
    /// The sitting's key is dropped.
    Lock,
}

/// Draws a hand-over screen over the whole window, for any system.
pub fn hand_over_screen(ui: &mut egui::Ui, screen: &HandOver) -> Clicked {
    let mut clicked = Clicked::Nothing;
    egui::CentralPanel::default().show(ui, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() / 3.0);
            ui.heading(egui::RichText::new(&screen.title).size(32.0));
            ui.add_space(12.0);
            ui.label(egui::RichText::new(&screen.text).size(16.0));
            ui.add_space(18.0);
            if ui
                .button(egui::RichText::new(&screen.button).size(18.0))
                .clicked()
            {
                clicked = Clicked::Button;
            }
            if let Some((label, _)) = &screen.open_choice {
                ui.add_space(8.0);
                ui.label("or, with nothing to keep secret:");
                if ui.button(egui::RichText::new(label).size(16.0)).clicked() {
                    clicked = Clicked::OpenChoice;
                }
            }
            ui.add_space(8.0);
            if screen.can_wait && ui.button("Not now: show the battle settings").clicked() {
                clicked = Clicked::Wait;
            }
            if let Some((lock, _)) = &screen.lock {
                ui.add_space(8.0);
                if ui.button(lock).clicked() {
                    clicked = Clicked::Lock;
                }
            }
        });
    });
    clicked
}

/// Who has the one screen, in a system where each player has a private
/// screen (the action deck's hand, hidden forces' ledger).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    /// The table, as both players see it.
    Table,
    /// Waiting for this player to take the laptop.
    HandingTo(Side),
    /// This player's private screen.
    Private(Side),
}

impl Screen {
    /// The full-window hand-over screen, when the laptop changes hands:
    /// `next` says what the player sees next ("his hand is shown next"),
    /// `show` is his button ("show my cards").
    pub fn hand_over(
        self,
        name: impl Fn(Side) -> String,
        next: &str,
        show: &str,
    ) -> Option<HandOver> {
        match self {
            Screen::HandingTo(side) => Some(HandOver {
                title: format!("Pass the laptop to {}", name(side)),
                text: format!("Only {} looks: {next}.", name(side)),
                button: format!("I am {}: {show}", name(side)),
                can_wait: false,
                open_choice: None,
                lock: None,
            }),
            _ => None,
        }
    }

    /// After the hand-over screen's button.
    pub fn handed(self) -> Screen {
        match self {
            Screen::HandingTo(side) => Screen::Private(side),
            _ => Screen::Table,
        }
    }

    /// The player on his private screen is done: the table again, with
    /// nothing secret on it (a "done" screen between would be a click that
    /// decides nothing).
    pub fn hide(self) -> Screen {
        match self {
            Screen::Private(_) => Screen::Table,
            other => other,
        }
    }
}

/// A refusal of a command given on a private screen: shown there only and
/// dropped when the screen closes, since its words may tell what a secret
/// is ("its slowest unit allows 4" is a real Wing). Refusals given at the
/// table go to the shared status line as before.
#[derive(Default)]
pub struct PrivateRefusal(Option<String>);

impl PrivateRefusal {
    /// Where `message` goes: kept here on a private screen, else returned
    /// for the status line.
    pub fn route(&mut self, screen: Screen, message: String) -> Option<crate::app::Status> {
        match screen {
            Screen::Private(_) => {
                self.0 = Some(message);
                None
            }
            _ => Some(crate::app::Status::Error(message)),
        }
    }

    /// Drawn at the top of the private screen.
    pub fn show(&self, ui: &mut egui::Ui) {
        if let Some(why) = &self.0 {
            ui.colored_label(ui.visuals().error_fg_color, why);
        }
    }

    pub fn clear(&mut self) {
        self.0 = None;
    }
}

#[derive(Default)]
pub struct Privacy {
    /// The side whose player holds the screen for his secrets.
    holder: Option<Side>,
    key: Option<SealKey>,
    /// What he typed on his passphrase screen so far.
    typed: Values,
    error: Option<String>,
    /// A refusal of what the holder sent from this session: its words may
    /// tell what his secret is ("the limit is 2" dummy markers), so it is
    /// shown in his session only and goes with it.
    refusal: Option<String>,
    /// The holder's key being worked out from his passphrase, off the
    /// window's thread.
    working: Option<std::sync::mpsc::Receiver<Result<muster::core::intel::PlayerKey, String>>>,
    /// Who holds his seat on a phone: his private steps happen there, so
    /// the laptop never asks for the screen for him.
    phones: muster::core::side::Sides<bool>,
    /// Each player's key for the sitting, shared by every step's session.
    sitting: Sitting,
}

/// The sealing keys the players gave at a private step in this sitting,
/// shared by the private sessions of every step (each panel has its own
/// [`Privacy`]): a player's passphrase is asked once, not at each secret
/// step. In memory only; dropped with the window's battle, when his seat
/// goes to a phone (which keeps its own), or when he locks his secrets.
#[derive(Clone, Default)]
pub struct Sitting(std::rc::Rc<std::cell::RefCell<muster::core::side::Sides<Option<SealKey>>>>);

impl Sitting {
    /// Keeps `side`'s key for the rest of the sitting.
    pub fn remember(&self, side: Side, key: SealKey) {
        self.0.borrow_mut()[side] = Some(key);
    }

    pub fn holds(&self, side: Side) -> bool {
        self.0.borrow()[side].is_some()
    }

    fn key(&self, side: Side) -> Option<SealKey> {
        self.0.borrow()[side].clone()
    }

    /// His passphrase is asked again at his next private step.
    pub fn lock(&self, side: Side) {
        self.0.borrow_mut()[side] = None;
    }
}

fn player(battle: &Battle, side: Side) -> String {
    battle.state().armies[side]
        .as_ref()
        .map_or(side.to_string(), |a| format!("{side} ({})", a.player))
}

impl Privacy {
    /// Shares the sitting's keys with the other steps' sessions.
    pub fn join(&mut self, sitting: &Sitting) {
        self.sitting = sitting.clone();
    }

    /// The hand-over screen to show before `wanted` (a side and what he
    /// does in private) can begin. None after a session: the window then
    /// shows nothing secret, and the next player's hand-over screen, if
    /// any, asks for the screen (a "done" screen between would be a click
    /// that decides nothing).
    pub fn screen(&self, battle: &Battle, wanted: Option<(Side, &str)>) -> Option<HandOver> {
        let (side, what) = wanted?;
        let remembered = self.sitting.holds(side) && battle.has_passphrase(side);
        let asked = if remembered {
            " He gave his passphrase in this sitting: his secrets open at once."
        } else {
            ""
        };
        (self.holder != Some(side) && !self.phones[side]).then(|| HandOver {
            title: format!("Pass to {side}"),
            text: format!(
                "{} {what} in secret. {} looks away until he is done.{asked}",
                player(battle, side),
                player(battle, side.opponent())
            ),
            button: format!("I am {side}: show my secrets"),
            can_wait: true,
            open_choice: None,
            lock: remembered.then(|| {
                (
                    format!("Lock {side}'s secrets: ask his passphrase again"),
                    side,
                )
            }),
        })
    }

    /// The hand-over screen's button was clicked.
    pub fn handed_over(&mut self, wanted: Option<Side>) {
        self.holder = wanted;
        self.clear();
        self.error = None;
    }

    /// Drops the key and what it opened.
    fn clear(&mut self) {
        self.refusal = None;
        self.key = None;
        self.working = None;
        self.typed.clear();
    }

    /// Keeps a refusal of the holder's command for his session; with no
    /// session open, hands it back for the status line.
    pub fn refuse(&mut self, message: String) -> Result<(), String> {
        if self.holder.is_none() {
            return Err(message);
        }
        self.refusal = Some(message);
        Ok(())
    }

    /// The refusal of the holder's last command, if it was refused.
    pub fn show_refusal(&self, ui: &mut egui::Ui) {
        if let Some(why) = &self.refusal {
            ui.colored_label(ui.visuals().error_fg_color, why);
        }
    }

    /// Whether `side` holds the screen.
    pub fn holds(&self, side: Side) -> bool {
        self.holder == Some(side)
    }

    /// Who is on his phone now; a session on the laptop of a player who
    /// just paired his phone ends.
    pub fn set_phones(&mut self, phones: muster::core::side::Sides<bool>) {
        if self.holder.is_some_and(|side| phones[side]) {
            self.forget();
        }
        for side in Side::BOTH.into_iter().filter(|s| phones[*s]) {
            self.sitting.lock(side);
        }
        self.phones = phones;
    }

    pub fn on_phone(&self, side: Side) -> bool {
        self.phones[side]
    }

    /// What the shared screen says while `side`'s private step waits: he
    /// takes the screen, or does it on his phone.
    pub fn waiting(&self, side: Side, what: &str) -> String {
        if self.phones[side] {
            format!("{side} {what} on his phone.")
        } else {
            format!("Waiting for {side} to take the screen.")
        }
    }

    /// Ends the private session: its key (not the sitting's) and what it
    /// opened are dropped.
    pub fn forget(&mut self) {
        self.holder = None;
        self.clear();
    }

    /// The holder's sealing key: his passphrase is asked for until it is
    /// given (Argon2id makes the check take a moment); a player without a
    /// passphrase is told his secrets are not protected.
    pub fn key(&mut self, ui: &mut egui::Ui, battle: &Battle, side: Side) -> Option<SealKey> {
        if !self.holds(side) {
            return None;
        }
        if !battle.has_passphrase(side) {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("⚠ {side} plays without a passphrase: the file does not protect these secrets. They are not written in plain text, but anyone with Muster can open them."),
            );
            return Some(self.key.get_or_insert_with(SealKey::unprotected).clone());
        }
        if let Some(key) = self.key.clone().or_else(|| self.sitting.key(side)) {
            return Some(key);
        }
        if let Some(working) = &self.working {
            match working.try_recv() {
                Ok(Ok(player_key)) => {
                    self.working = None;
                    // The tags are checked here, with the key worked out.
                    match battle.seal_key(side, &player_key) {
                        Ok(key) => {
                            self.key = Some(key.clone());
                            self.sitting.remember(side, key.clone());
                            self.error = None;
                            return Some(key);
                        }
                        Err(e) => self.error = Some(e.message),
                    }
                }
                Ok(Err(e)) => {
                    self.working = None;
                    self.error = Some(e);
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label("Working out the key (Argon2id, slow on purpose)…");
                    });
                    return None;
                }
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    self.working = None;
                    self.error = Some("the key could not be worked out; try again".into());
                }
            }
        }
        let screen = passphrase_screen::screen(
            &side.to_string(),
            Purpose::Open,
            None,
            self.error.as_deref(),
        );
        let reply = crate::app::screen::show(ui, &screen, ("open", side), &mut self.typed);
        let passphrase = match reply.map(|r| passphrase_screen::read(Purpose::Open, &r)) {
            Some(Ok(Answer::Passphrase(p))) => p,
            Some(Err(why)) => {
                self.error = Some(why);
                return None;
            }
            _ => return None,
        };
        self.typed.clear();
        if let Some(lock) = battle.state().locks[side].clone() {
            // Argon2id is slow on purpose: never on the window's thread.
            let (send, receive) = std::sync::mpsc::channel();
            let ctx = ui.ctx().clone();
            std::thread::spawn(move || {
                let _ = send.send(lock.unlock(&passphrase).map_err(|e| e.message));
                ctx.request_repaint();
            });
            self.working = Some(receive);
            self.error = None;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// North's refused try ("the limit is 2" dummy markers) must not be
    /// there when South takes the screen for his own session, nor after
    /// the session was dropped without a hand-over.
    #[test]
    fn a_refusal_goes_with_the_session_it_was_made_in() {
        let mut privacy = Privacy::default();
        assert_eq!(
            privacy.refuse("no session".into()),
            Err("no session".into())
        );
        privacy.handed_over(Some(Side::North));
        privacy
            .refuse("North has placed 2 dummy markers; the limit is 2".into())
            .unwrap();
        assert!(privacy.refusal.is_some());
        privacy.forget();
        assert_eq!(privacy.refusal, None);
        privacy.handed_over(Some(Side::South));
        assert_eq!(privacy.refusal, None);
        privacy.refuse("refused".into()).unwrap();
        privacy.forget();
        assert_eq!(privacy.refusal, None);
    }
}
