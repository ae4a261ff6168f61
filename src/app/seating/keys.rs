//! A seat's keys (docs: the design's "trust"): what his passphrase
//! screen's answers do (a key worked out on a thread, a hand-over PIN
//! tried), and what the key does once it comes back: a new game's lock
//! set, the reopened game unlocked with his tags checked, his sealed
//! records opened on his desk, or his proof on the laptop.

use super::laptop::Why;
use super::pass::{self, Kind};
use super::transport::Transport;
use super::{Laptop, Outcome, Seating};
use crate::app::bus::{Bus, Derived};
use crate::app::status::Status;
use muster::core::passphrase_screen::Reply;
use muster::core::seat::pin::{TRIES, Tried};
use muster::core::seat::{Desked, Seated};
use muster::core::side::Side;

impl Seating {
    /// His answer to his passphrase (or PIN) screen.
    pub(super) fn pass_reply<G: Seated>(
        &mut self,
        side: Side,
        reply: &Reply,
        bus: &Bus,
        desked: Option<&mut Desked<'_, G>>,
    ) -> Outcome {
        self.generation += 1;
        let generation = self.generation;
        let busy = self.deriving[side].is_some();
        match self.seats[side]
            .pass
            .answer(side, reply, generation, busy, bus)
        {
            pass::Asked::Cancel => {
                let seat = &mut self.seats[side];
                seat.set = None;
                seat.key = None;
                seat.unlock = false;
                if matches!(self.laptop, Laptop::Holding(s, _) if s == side) {
                    self.close(side, desked);
                }
            }
            pass::Asked::Deriving(generation) => self.deriving[side] = Some(generation),
            pass::Asked::Pin(typed) => return self.pin(side, &typed, desked),
            pass::Asked::Forgot => self.seats[side].pin = None,
            pass::Asked::Nothing => {}
        }
        Outcome::default()
    }

    /// His hand-over PIN, typed to open his private screen: right, he has
    /// it, with what his passphrase opened; three wrong tries drop it. An
    /// empty field (or one of spaces) is no try: he is asked to type it.
    fn pin<G: Seated>(
        &mut self,
        side: Side,
        typed: &str,
        desked: Option<&mut Desked<'_, G>>,
    ) -> Outcome {
        let mut outcome = Outcome::default();
        let seat = &mut self.seats[side];
        if typed.trim().is_empty() {
            seat.pass.refuse("Type your PIN first".into());
            return outcome;
        }
        match seat.pin.as_mut().map(|(pin, _)| pin.try_pin(typed)) {
            Some(Tried::Right) => {
                seat.proved = true;
                self.taken(side);
                let key = self.seats[side]
                    .pin
                    .as_ref()
                    .and_then(|(_, key)| key.clone());
                if let Some(desked) = desked {
                    desked.hold(side, key);
                    outcome = Outcome::by_itself(desked, self.places());
                }
            }
            Some(Tried::Wrong(left)) => seat.pass.refuse(format!(
                "Wrong PIN: {left} {} left",
                if left == 1 { "try" } else { "tries" }
            )),
            Some(Tried::Dropped) | None => {
                seat.pin = None;
                seat.dropped = Some(format!(
                    "{TRIES} wrong PINs: the PIN is dropped. Type your passphrase"
                ));
            }
        }
        outcome
    }

    /// A key worked out for `side`.
    pub(super) fn derived<G: Seated>(
        &mut self,
        side: Side,
        result: Result<Derived, String>,
        bus: &Bus,
        desked: Option<&mut Desked<'_, G>>,
    ) -> Outcome {
        let mut outcome = Outcome::default();
        let proving = self.proving(side);
        let own_machine = self.own_machine(side);
        let places = self.places();
        let seat = &mut self.seats[side];
        let key = match result {
            Err(why) => {
                seat.pass.refuse(why);
                return outcome;
            }
            Ok(Derived::Set(lock, key)) => {
                if seat.life.on_phone() {
                    self.phones.proved(side);
                }
                if let Some(set) = seat.set.take() {
                    bus.send((set.then)(lock, key));
                }
                return outcome;
            }
            Ok(Derived::Key(key)) => key,
        };
        if let Some((_, then)) = seat.key.take() {
            bus.send(then(key));
            return outcome;
        }
        let Some(desked) = desked else {
            return outcome;
        };
        match seat.pass.kind().cloned() {
            Some(Kind::Unlock(_)) => match desked.game.unlock_seat(side, &key) {
                Ok(()) => {
                    desked.changed();
                    seat.unlock = false;
                    if own_machine {
                        seat.kept = Some(key.clone());
                    }
                    outcome.status = Some(Status::Info(format!(
                        "{} unlocked the game: every entry carries their valid tag",
                        desked.game.seat_name(side)
                    )));
                    // His phone keeps the key for his private steps, so he
                    // types his passphrase once.
                    if seat.life.on_phone() {
                        let _ = desked.open(side, &key);
                        self.phones.proved(side);
                    }
                    // On the laptop, the PIN he chose beside it opens them
                    // instead, with what his key opens kept beside it (a
                    // game whose records are open keeps none: the PIN is
                    // his proof alone); his desk is cleared again until a
                    // step of his comes.
                    if seat.pass.chosen.is_some() {
                        let _ = desked.open(side, &key);
                        let held = desked.desks[side].key.clone();
                        if let Some(refused) = seat.keep_chosen_pin(held) {
                            outcome.status = Some(refused);
                        }
                        desked.hold(side, None);
                    }
                    // He has just proved it is he on this hand-over: a
                    // step of his that the unlocking brings (the game no
                    // longer read-only) opens at once, not after a second
                    // hand-over asking the same proof.
                    let at = desked.at(side, places[side]);
                    if !seat.life.on_phone()
                        && desked.game.locked_seats().is_empty()
                        && desked.game.due(side, at).is_some()
                        // His key on his desk if the step needs it (a
                        // game whose records are open asks his proof only).
                        && (desked.game.needs_key(side, at).is_none()
                            || desked.open(side, &key).is_ok())
                    {
                        seat.proved = true;
                        self.laptop = Laptop::Holding(side, Why::Due);
                        let done = Outcome::by_itself(desked, places);
                        outcome.changed = done.changed;
                        outcome.status = done.status.or(outcome.status);
                    }
                }
                Err(e) => seat.pass.refuse(e.message),
            },
            Some(kind @ (Kind::Open(_) | Kind::Prove(_))) => {
                // Proof alone (his cards, which the game opened already)
                // needs no key on his desk: a game that keeps none says so.
                if let (Err(e), Kind::Open(_)) = (desked.open(side, &key), kind) {
                    seat.pass.refuse(e.message);
                    return outcome;
                }
                // His key given on his phone: that phone keeps his seat.
                if seat.life.on_phone() {
                    self.phones.proved(side);
                }
                if proving {
                    seat.proved = true;
                    let held = desked.desks[side].key.clone();
                    if let Some(refused) = seat.keep_chosen_pin(held) {
                        outcome.status = Some(refused);
                    }
                    self.taken(side);
                }
                let done = Outcome::by_itself(desked, places);
                outcome.changed = done.changed;
                outcome.status = done.status.or(outcome.status);
            }
            _ => {}
        }
        outcome
    }
}
