//! Moves and reveals (RULES-map-intel A2, A3, `docs/src/rules/map-intel.md`):
//! a counter moved to a hex, entering enemy counters and revealing both
//! ways by what each holds, a face-down counter opened to both players
//! against its commitment, and a revealed one turned face down again from
//! its owner's next turn.

use super::place;
use super::work::Work;
use crate::events::{Area, Contents, Event, Gone, Holder, Kind, Owed, Public, Reason};
use crate::map::Hex;
use crate::scenario::Status;
use crate::setup::Setup;
use muster_core::error::{RuleError, refuse};

impl Work<'_> {
    pub(super) fn do_move(&mut self, id: usize, to: Hex) -> Result<(), RuleError> {
        let mover = self.holder(id)?;
        self.may_act(mover.side)?;
        let Some(from) = mover.hex.filter(|_| mover.on_map()) else {
            return refuse(
                "map-intel 0",
                format!("{} is not on the map", self.label(&mover)),
            );
        };
        let to = self.on_map(to)?;
        if to == from {
            return refuse(
                "map-intel 0",
                format!("{} is in {to} already", self.label(&mover)),
            );
        }
        self.push(Event::Moved { id, from, to })?;
        if self.public.active.is_none() {
            // Set-up: forces are placed, nothing is entered.
            return Ok(());
        }
        let enemy = mover.side.opponent();
        let stationary: Vec<Holder> = self
            .public
            .in_hex(to)
            .filter(|h| h.side == enemy)
            .cloned()
            .collect();
        if stationary.is_empty() {
            return Ok(());
        }
        // (b) hangs on what the mover holds, which only its owner's key
        // shows, and reveals the enemy's face-down counters, which only
        // theirs opens: the enemy answers, by his key (`Owed`), each side
        // deciding on the contents as they stood when it entered.
        if stationary.iter().any(|h| !h.contents.is_open()) {
            let mover_holds = !self.units(&mover)?.is_empty();
            return self.push(Event::Owed {
                owed: Owed::Answer {
                    side: enemy,
                    hex: to,
                    mover: id,
                    mover_holds,
                },
            });
        }
        // All of theirs face up: what they hold is known, and (b) shows
        // nothing more; (c) is the mover's own reveal.
        let stationary_holds = stationary
            .iter()
            .any(|h| matches!(&h.contents, Contents::Open(units) if !units.is_empty()));
        if stationary_holds && !mover.contents.is_open() {
            self.reveal(id, Reason::EnteredEnemy)?;
        }
        Ok(())
    }

    /// The step owed now, by the key of the side that owes it: an entry's
    /// answer (his counters there revealed if the mover holds units, and
    /// whether they hold any, which reveals the mover), or a reveal.
    pub(super) fn disclose(&mut self) -> Result<(), RuleError> {
        match self.public.owed.clone() {
            None => refuse("A2", "No reveal is owed now"),
            Some(Owed::Reveal { ids, reason, .. }) => {
                for id in ids {
                    self.reveal(id, reason)?;
                }
                Ok(())
            }
            Some(Owed::Answer {
                side,
                hex,
                mover,
                mover_holds,
            }) => {
                let here: Vec<Holder> = self
                    .public
                    .in_hex(hex)
                    .filter(|h| h.side == side)
                    .cloned()
                    .collect();
                let mut holds = false;
                for h in &here {
                    holds |= !self.units(h)?.is_empty();
                }
                if mover_holds {
                    for h in here.iter().filter(|h| !h.contents.is_open()) {
                        self.reveal(h.id, Reason::EnemyEntered)?;
                    }
                }
                // Units there reveal the mover next, by its owner's key.
                let face_down = !self.holder(mover)?.contents.is_open();
                self.push(Event::Answered {
                    side,
                    hex,
                    holds: face_down.then_some(holds),
                })
            }
        }
    }

    /// Opens a face-down counter to both players, checked against its
    /// commitment; an empty Exercitus then leaves the map (A4 ruling).
    pub(super) fn reveal(&mut self, id: usize, reason: Reason) -> Result<(), RuleError> {
        let h = self.holder(id)?;
        let Contents::Sealed(sealed) = &h.contents else {
            return refuse("A2", format!("{} is face up already", self.label(&h)));
        };
        let key = self.key(h.side)?;
        let contents = sealed
            .open::<Vec<String>>(key, &place(self.game, h.side, h.id, h.seals))
            .map_err(|e| RuleError::new("trust", e.to_string()))?;
        let empty = contents.secret.is_empty();
        self.push(Event::Revealed {
            id,
            reason,
            contents,
        })?;
        self.check_changed(h.side)?;
        if let (Kind::Exercitus(number), true) = (h.kind, empty) {
            self.push(Event::Removed {
                id,
                why: Gone::EmptyExercitus,
            })?;
            self.push(Event::MayReplace {
                side: h.side,
                number,
            })?;
        }
        Ok(())
    }

    pub(super) fn turn_down(&mut self, id: usize) -> Result<(), RuleError> {
        let h = self.holder(id)?;
        self.may_act(h.side)?;
        let h = self.own(h.side, id)?;
        may_turn_down(self.setup, &self.public, &h)?;
        let units = self.units(&h)?;
        let contents = self.seal(&h, &units)?;
        self.push(Event::TurnedDown { id, contents })
    }
}

/// Whether `h` may go face down now (A1, A3, A5): from what both players
/// see, since a counter going face down is face up; the other machine of a
/// remote game checks it as the owner's does.
pub(crate) fn may_turn_down(setup: &Setup, public: &Public, h: &Holder) -> Result<(), RuleError> {
    let label = h.label(&setup.names());
    let Contents::Open(units) = &h.contents else {
        return refuse("A3", format!("{label} is face down already"));
    };
    if let Some(unit) = units.iter().find(|u| setup.status(u) != Status::Regular) {
        return refuse(
            "A1",
            format!(
                "{label} holds {}, a {} unit: it stays face up",
                setup.unit_name(unit),
                if setup.status(unit) == Status::Civis {
                    "Civis"
                } else {
                    "Client"
                }
            ),
        );
    }
    if matches!(h.kind, Kind::Area(Area::Civis | Area::Client)) {
        return refuse("A5", format!("{label} is always face up"));
    }
    match (public.active, h.revealed) {
        (Some(_), Some(turn)) if turn >= public.turn => refuse(
            "A3",
            format!(
                "{label} was revealed this turn: it stays face up until the beginning of {} next turn",
                muster_core::text::possessive(&setup.name(h.side))
            ),
        ),
        _ => Ok(()),
    }
}
