//! Spotting, as the players answer it (RULES-map-intel B5, B10,
//! `docs/src/rules/map-intel.md`; 27.1.6, 27.5): a line of sight answered
//! for the Wing asked, blocked (the move goes on) or clear (the 27.1.6
//! table resolves real and dummy leaders), and a leader counter flipped
//! to show its face or, a dummy, its whole record.
//!
//! A clear line is resolved in two steps, each with one side's key, so
//! that two machines can play it ("Dummy wings played from two
//! machines"): the moving side flips its leader (a dummy is removed
//! there, having revealed nothing), then the stationary side shows its
//! own (`show`), the step the rules force next.

use super::{Composition, Counter, Event, Face, Pending, Work, place, seal};
use crate::wings::claims;
use crate::wings::spotting::{self, Leader};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::{Lock, SealKey};
use muster_core::side::Side;

impl Work<'_> {
    /// Flips a leader counter (B5 ruling): a dummy shows its whole record
    /// (it holds no units); a real Wing its face, its record opened only
    /// when it is placed.
    pub(super) fn flip(&mut self, id: usize) -> Result<Composition, RuleError> {
        let contents = self.open(id)?;
        let c = contents.secret.clone();
        if self.public.counter(id)?.face.is_none() {
            self.push(if c.real {
                Event::Flipped {
                    id,
                    contents: None,
                    face: Some(Face::of(&c)),
                }
            } else {
                Event::Flipped {
                    id,
                    contents: Some(contents),
                    face: None,
                }
            })?;
        }
        Ok(c)
    }

    pub(super) fn sight(&mut self, clear: bool) -> Result<(), RuleError> {
        let Some(Pending::Sight {
            moving,
            candidates,
            asked,
            spotted,
            rest,
            clear: false,
        }) = self.public.pending.clone()
        else {
            return refuse("27.1.6", "no line of sight is asked now");
        };
        let stationary = candidates[asked].wing;
        if !clear {
            self.push(Event::Sighted {
                moving,
                stationary,
                clear,
                spotted: false,
            })?;
            // The last line asked, and none clear: nothing spotted it, and
            // the Wing goes on along its path.
            if self.public.pending.is_none() {
                self.go_on(moving, rest)?;
            }
            return Ok(());
        }
        // The moving side is spotted first (27.1.6); after the nearest Wing,
        // the others only show what they are (27.5).
        let first = spotted.is_empty() && self.public.counter(moving)?.face.is_none();
        let m = self.composition(moving)?;
        // What befalls the moving leader does not hang on the other.
        if spotting::resolve(leader(&m), Leader::Real).moving_removed {
            // A dummy is removed: the stationary Wing is not revealed.
            self.push(Event::Sighted {
                moving,
                stationary,
                clear,
                spotted: false,
            })?;
            self.flip(moving)?;
            return self.push(Event::Removed { id: moving });
        }
        if first {
            self.flip(moving)?;
        }
        // Sealed anew now, by its owner, in case the Wing it met is a dummy.
        let down = match spotted.is_empty() {
            true => {
                let side = self.public.counter(moving)?.side;
                let n = self.public.counter(moving)?.seals + 1;
                Some(seal(
                    &place(self.game, side, moving, n),
                    &m,
                    self.key(side)?,
                )?)
            }
            false => None,
        };
        self.push(Event::LineClear {
            moving,
            stationary,
            down,
        })
    }

    /// The stationary Wing's owner shows what it is to the real Wing whose
    /// line to it was called clear (27.1.6): a dummy is removed, and the
    /// moving Wing, if it spotted nothing yet, turns face down again with
    /// the record its owner sealed; a real Wing is spotted, and says what
    /// it adds to the deployment roll (`Claimed`).
    pub(super) fn show(&mut self) -> Result<(), RuleError> {
        let Some(Pending::Sight {
            moving,
            candidates,
            asked,
            spotted,
            clear: true,
            ..
        }) = self.public.pending.clone()
        else {
            return refuse("27.1.6", "no Wing is to be shown now");
        };
        let stationary = candidates[asked].wing;
        let s = self.composition(stationary)?;
        let r = spotting::resolve(Leader::Real, leader(&s));
        self.push(Event::Sighted {
            moving,
            stationary,
            clear: true,
            spotted: r.deployment,
        })?;
        self.flip(stationary)?;
        if r.deployment {
            let side = self.public.counter(stationary)?.side;
            return self.push(Event::Claimed {
                id: stationary,
                modifiers: claims::modifiers(self.setup, side, &s, false),
                formation: s.formation,
            });
        }
        if r.stationary_removed {
            self.push(Event::Removed { id: stationary })?;
        }
        if r.moving_turned_down && spotted.is_empty() {
            let sealed = self.public.counter(moving)?.down.clone().ok_or_else(|| {
                RuleError::new(
                    "27.1.6",
                    format!("counter {moving} has no record sealed to turn it face down"),
                )
            })?;
            self.push(Event::TurnedDown { id: moving, sealed })?;
        }
        Ok(())
    }

    /// `side` sets the passphrase he began without (rules reference: "A
    /// passphrase set during the game"): each record of his not yet opened,
    /// under the unprotected key until now, is sealed anew under his key,
    /// holding what it held. Not a move: in any turn, between steps.
    pub(super) fn set_passphrase(&mut self, side: Side, lock: &Lock) -> Result<(), RuleError> {
        self.free()?;
        let key =
            muster_core::chained_game::lock_key(self.new_key.as_ref(), &self.setup.name(side))?;
        self.push(Event::LockSet {
            side,
            lock: lock.clone(),
        })?;
        let unprotected = SealKey::unprotected();
        let sealed: Vec<Counter> = self
            .public
            .counters
            .iter()
            .filter(|c| c.side == side && c.hidden() && c.shown.is_none())
            .cloned()
            .collect();
        for c in sealed {
            let held: Composition = c
                .sealed
                .open(&unprotected, &place(self.game, side, c.id, c.seals))
                .map_err(|e| RuleError::new("trust", format!("counter {}: {e}", c.id)))?
                .secret;
            let again = seal(&place(self.game, side, c.id, c.seals + 1), &held, &key)?;
            self.push(Event::Resealed {
                id: c.id,
                sealed: again,
            })?;
        }
        Ok(())
    }
}

fn leader(c: &Composition) -> Leader {
    if c.real { Leader::Real } else { Leader::Dummy }
}
