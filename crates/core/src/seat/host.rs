//! A game as a shell's seats reach it (issue 37: here, beside `Seated`,
//! not in the app): any system's `Seated` engine with each player's desk
//! beside it, behind one object-safe face, so that the window's seats
//! (hand-over screen, phone, passphrases) serve every system with the same
//! code. A system implements `Seated` alone; a new seat capability is a
//! method of `Seated` and its line here.

use super::{self as seat, Desk, Seated};
use crate::error::RuleError;
use crate::hexmap::Hex;
use crate::intel::{Lock, PlayerKey};
use crate::screen::{Reply, Screen, Values};
use crate::side::{Side, Sides};

/// A private printout being made off the window's thread: its title and
/// its PDF, or why not.
pub type PrintoutJob = Box<dyn FnOnce() -> Result<(String, Vec<u8>), String> + Send>;

pub trait SeatHost {
    fn name(&self, side: Side) -> String;
    /// What their private screen holds, as he calls it ("my cards").
    fn secrets(&self) -> &'static str;
    /// What the table waits for him to do in private now.
    fn due(&self, side: Side) -> Option<String>;
    /// A choice his hand-over screen offers in the open, and its reply.
    fn open_choice(&self, side: Side) -> Option<(String, Reply)>;
    /// Whether his screen stays open once his due step is done.
    fn stays_open(&self, side: Side) -> bool;
    /// The lock to open before his screen shows, if his key is needed.
    fn needs_key(&self, side: Side) -> Option<Lock>;
    fn screen(&self, side: Side) -> Screen;
    /// What he has entered so far on his screen.
    fn values(&mut self, side: Side) -> &mut Values;
    /// His answer applied (with what the rules force after it); whether
    /// the game changed, or why not (his alone).
    fn answer(&mut self, side: Side, reply: &Reply) -> Result<bool, String>;
    fn tapped(&mut self, side: Side, hex: Hex);
    fn dragged(&mut self, side: Side, from: Hex, path: &[Hex]);
    /// His desk takes the key his passphrase gave, checked against his tags.
    fn open(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError>;
    /// Puts a sealing key of the sitting on his desk, or takes it off.
    fn hold(&mut self, side: Side, key: Option<crate::intel::SealKey>);
    /// The key on his desk, to keep for the sitting.
    fn held(&self, side: Side) -> Option<crate::intel::SealKey>;
    /// What each seat does by itself with its desk (a march's word);
    /// whether the game changed. Refusals are dropped: the seat tries
    /// again at the next change.
    fn by_itself(&mut self) -> bool;
    /// Whether his screen is his phone now.
    fn place(&mut self, side: Side, on_phone: bool);
    /// Forgets his last refusal (his private screen closed): its words may
    /// tell his secret. His form waits for him.
    fn forget(&mut self, side: Side);
    fn lock_of(&self, side: Side) -> Option<Lock>;
    /// Whether his private printout can be made now: the system prints
    /// one, and his desk holds the key his passphrase gave (or he has
    /// none).
    fn prints(&self, side: Side) -> bool;
    /// His private printout, as work for a worker (the game taken now):
    /// its title and its PDF; or why it cannot be made.
    fn printout(&self, side: Side) -> Result<PrintoutJob, String>;
    fn locked(&self) -> Vec<Side>;
    fn unlock(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError>;
}

/// A game and its players' desks.
pub struct Desked<'a, G: Seated> {
    pub game: &'a mut G,
    pub desks: &'a mut Sides<Desk<G::Request>>,
}

impl<G: Seated + Clone + Send + 'static> SeatHost for Desked<'_, G>
where
    G::Request: Send + 'static,
{
    fn name(&self, side: Side) -> String {
        self.game.seat_name(side)
    }

    fn secrets(&self) -> &'static str {
        self.game.secrets()
    }

    fn due(&self, side: Side) -> Option<String> {
        self.game.due(side, &self.desks[side])
    }

    fn needs_key(&self, side: Side) -> Option<Lock> {
        self.game.needs_key(side, &self.desks[side])
    }

    fn open_choice(&self, side: Side) -> Option<(String, Reply)> {
        let (label, command) = self.game.open_choice(side, &self.desks[side])?;
        Some((
            label,
            Reply {
                command,
                values: Values::new(),
            },
        ))
    }

    fn stays_open(&self, side: Side) -> bool {
        self.game.stays_open(side)
    }

    fn screen(&self, side: Side) -> Screen {
        self.game.screen(side, &self.desks[side])
    }

    fn values(&mut self, side: Side) -> &mut Values {
        &mut self.desks[side].values
    }

    fn answer(&mut self, side: Side, reply: &Reply) -> Result<bool, String> {
        seat::answer(self.game, side, &mut self.desks[side], reply)
    }

    fn tapped(&mut self, side: Side, hex: Hex) {
        self.game.tapped(side, &mut self.desks[side].values, hex);
    }

    fn dragged(&mut self, side: Side, from: Hex, path: &[Hex]) {
        self.game
            .dragged(side, &mut self.desks[side].values, from, path);
    }

    fn open(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError> {
        self.desks[side].key = Some(self.game.seal_key(side, key)?);
        self.desks[side].player = Some(key.clone());
        Ok(())
    }

    fn hold(&mut self, side: Side, key: Option<crate::intel::SealKey>) {
        if key.is_none() {
            self.desks[side].player = None;
        }
        self.desks[side].key = key;
    }

    fn held(&self, side: Side) -> Option<crate::intel::SealKey> {
        self.desks[side].key.clone()
    }

    fn by_itself(&mut self) -> bool {
        let mut changed = false;
        for side in Side::BOTH {
            // Bounded: each word answers one roll.
            for _ in 0..8 {
                let Some(command) = self.game.by_itself(side, &self.desks[side]) else {
                    break;
                };
                if seat::play(self.game, command).is_err() {
                    break;
                }
                changed = true;
            }
        }
        changed
    }

    fn place(&mut self, side: Side, on_phone: bool) {
        let desk = &mut self.desks[side];
        if desk.on_phone != on_phone {
            // A device that takes the seat (or gives it back) starts with
            // nothing of the last one's: his key is asked again.
            *desk = Desk::default();
            desk.on_phone = on_phone;
        }
    }

    fn forget(&mut self, side: Side) {
        self.desks[side].refusal = None;
    }

    fn lock_of(&self, side: Side) -> Option<Lock> {
        self.game.lock_of(side)
    }

    fn prints(&self, side: Side) -> bool {
        G::PRINTOUT && (self.game.lock_of(side).is_none() || self.desks[side].player.is_some())
    }

    fn printout(&self, side: Side) -> Result<PrintoutJob, String> {
        if !self.prints(side) {
            return Err("Open your secrets with your passphrase first".into());
        }
        // Made from a copy on a worker: a PDF takes milliseconds.
        let (game, key) = (self.game.clone(), self.desks[side].player.clone());
        Ok(Box::new(move || match game.printout(side, key.as_ref()) {
            Some(made) => made.map_err(|e| e.to_string()),
            None => Err("This game prints nothing private".into()),
        }))
    }

    fn locked(&self) -> Vec<Side> {
        self.game.locked_seats()
    }

    fn unlock(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError> {
        self.game.unlock_seat(side, key)
    }
}
