//! A game with its players' desks (docs: the design's "seat"): the plain
//! struct through which the window's seats, the phones and the tests reach
//! any system's `Seated` engine. It holds what every system does alike with
//! a desk: the key his passphrase gave put on it or taken off, what his seat
//! does by itself, his private printout. Everything else is the engine's
//! own, called on `game` with his `Sitting`.

use super::{Desk, Mover, Place, ReplyOf, Screen, Seated, Sitting, mover};
use crate::error::RuleError;
use crate::hexmap::Hex;
use crate::intel::{PlayerKey, SealKey};
use crate::side::{Side, Sides};

/// A private printout being made off the window's thread: its title and
/// its PDF, or why not.
pub type PrintoutJob = Box<dyn FnOnce() -> Result<(String, Vec<u8>), String> + Send>;

/// A game and its players' desks.
pub struct Desked<'a, G: Seated> {
    pub game: &'a mut G,
    pub desks: &'a mut Sides<Desk<G>>,
    /// Where its commands go: the remote play in a remote game, else the
    /// rules here.
    pub mover: Option<&'a mut dyn Mover<G>>,
}

/// The most commands a seat makes by itself after one change: each answers
/// one roll of his (a march's word), so a handful is far more than any
/// game reaches.
pub const MAX_BY_ITSELF: usize = 8;

impl<G: Seated> Desked<'_, G> {
    /// `side` as his engine sees him, his screen at `place`.
    pub fn at(&self, side: Side, place: Place) -> Sitting<'_, G> {
        Sitting {
            desk: &self.desks[side],
            place,
        }
    }

    /// His screen at `place`, as the game and his desk have it now: built
    /// once for each change of either (the game's changes are told by
    /// `changed`), kept until the next.
    pub fn screen(&mut self, side: Side, place: Place) -> &Screen<G> {
        self.desks[side].screen(self.game, side, place)
    }

    /// The game changed: every screen shows it.
    pub fn changed(&mut self) {
        for side in Side::BOTH {
            self.desks[side].touch();
        }
    }

    /// His answer applied, with what the rules force after it (`answer`):
    /// whether the game changed, or why not (his alone) and whether it
    /// changed all the same.
    pub fn answer(
        &mut self,
        side: Side,
        place: Place,
        reply: &ReplyOf<G>,
    ) -> Result<bool, (String, bool)> {
        let done = super::answer(
            self.game,
            self.mover.as_deref_mut(),
            side,
            &mut self.desks[side],
            place,
            reply,
        );
        // What the game or his answer changed shows on both screens (the
        // other's waits on his).
        if matches!(done, Ok(true) | Err((_, true))) {
            self.changed();
        } else {
            self.desks[side].touch();
        }
        done
    }

    /// What he entered so far on his device, for the live checks.
    pub fn typed(&mut self, side: Side, form: crate::screen::Form<G::Field>) {
        let desk = &mut self.desks[side];
        desk.form.extend(form);
        desk.touch();
    }

    /// A hex he tapped on his screen's map.
    pub fn tapped(&mut self, side: Side, hex: Hex) {
        let desk = &mut self.desks[side];
        self.game.tapped(side, &mut desk.form, hex);
        desk.touch();
    }

    /// A counter he dragged on his screen's map.
    pub fn dragged(&mut self, side: Side, drag: &crate::screen::Drag) {
        let desk = &mut self.desks[side];
        if self.game.dragged(side, &mut desk.form, drag) {
            desk.touch();
        }
    }

    /// Forgets his last refusal (his private screen closed, or the game
    /// moved on): its words may tell his secret. His form waits for him.
    pub fn forget(&mut self, side: Side) {
        let desk = &mut self.desks[side];
        if desk.refusal.take().is_some() {
            desk.touch();
        }
    }

    /// A device that takes his seat (or gives it back) starts with nothing
    /// of the last one's: his key is asked again.
    pub fn fresh(&mut self, side: Side) {
        let version = self.desks[side].version;
        self.desks[side] = Desk::default();
        self.desks[side].version = version;
        // What the other is told of him ("waiting on…") may change too.
        self.changed();
    }

    /// His desk takes the key his passphrase gave, checked against his tags.
    pub fn open(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError> {
        self.desks[side].key = Some(self.game.seal_key(side, key)?);
        self.desks[side].player = Some(key.clone());
        self.changed();
        Ok(())
    }

    /// Puts a sealing key of the sitting on his desk, or takes his keys off.
    pub fn hold(&mut self, side: Side, key: Option<SealKey>) {
        let desk = &mut self.desks[side];
        if key.is_none() && desk.key.is_none() && desk.player.is_none() {
            return;
        }
        if key.is_none() {
            desk.player = None;
        }
        desk.key = key;
        self.changed();
    }

    /// The table asks him to do something in private (or nothing).
    pub fn ask(&mut self, side: Side, asked: Option<G::Request>) {
        self.desks[side].asked = asked;
        self.changed();
    }

    /// What each seat does by itself with its desk (a march's word), each
    /// player's screen at `places`: whether the game changed, and what went
    /// wrong, for the player it concerns (a refused word, a stall, or more
    /// than `MAX_BY_ITSELF` in a row), never dropped.
    pub fn by_itself(&mut self, places: Sides<Place>) -> (bool, Vec<(Side, RuleError)>) {
        let mut changed = false;
        let mut wrong = Vec::new();
        for side in Side::BOTH {
            let mut made = 0;
            while let Some(command) = self.game.by_itself(side, self.at(side, places[side])) {
                if made == MAX_BY_ITSELF {
                    let why = RuleError::new(
                        "seat",
                        format!(
                            "a seat made {MAX_BY_ITSELF} moves by itself in a row and \
                             asks another: Muster stops there"
                        ),
                    );
                    self.game.stalled(&command, &why);
                    wrong.push((side, why));
                    break;
                }
                made += 1;
                match mover::give(self.mover.as_deref_mut(), self.game, command.clone()) {
                    Ok(now) => {
                        changed |= now;
                        if !now {
                            // It waits for the other machine: what the
                            // seat makes next waits for it too.
                            break;
                        }
                    }
                    Err(refused) => {
                        let stalled = refused.changed();
                        changed |= stalled;
                        let why = refused.into_error();
                        if !stalled {
                            // Refused outright: its own failure, logged
                            // as a stall of the seat (a forced step that
                            // failed was logged by `play`).
                            self.game.stalled(&command, &why);
                        }
                        wrong.push((side, why));
                        break;
                    }
                }
            }
        }
        (changed, wrong)
    }

    /// Whether his private printout can be made now: the system prints
    /// one, and his desk holds the key his passphrase gave (or he has
    /// none).
    pub fn prints(&self, side: Side) -> bool {
        G::PRINTOUT && (self.game.lock_of(side).is_none() || self.desks[side].player.is_some())
    }

    /// His private printout, as work for a worker (the game taken now):
    /// its title and its PDF; or why it cannot be made.
    pub fn printout(&self, side: Side) -> Result<PrintoutJob, String>
    where
        G: Clone + Send + 'static,
    {
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
}
