//! Spotting, as the players answer it (RULES-map-intel B5, B10,
//! `docs/src/rules/map-intel.md`; 27.1.6, 27.5): a line of sight answered
//! for the Wing asked, blocked (the move goes on) or clear (the 27.1.6
//! table resolves real and dummy leaders), and a leader counter flipped
//! to show its face or, a dummy, its whole record.

use super::{Composition, Event, Face, Pending, Work, place, seal};
use crate::wings::spotting::{self, Leader};
use muster_core::error::{RuleError, refuse};

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
        let m_real = self.composition(moving)?.real;
        let s_real = self.composition(stationary)?.real;
        let r = spotting::resolve(
            if m_real { Leader::Real } else { Leader::Dummy },
            if s_real { Leader::Real } else { Leader::Dummy },
        );
        self.push(Event::Sighted {
            moving,
            stationary,
            clear,
            spotted: r.deployment,
        })?;
        if first || r.moving_removed {
            self.flip(moving)?;
        }
        if r.stationary_revealed {
            self.flip(stationary)?;
        }
        if r.stationary_removed {
            self.push(Event::Removed { id: stationary })?;
        }
        if r.moving_removed {
            self.push(Event::Removed { id: moving })?;
        } else if r.moving_turned_down && spotted.is_empty() {
            let side = self.public.counter(moving)?.side;
            let c = self.composition(moving)?;
            let n = self.public.counter(moving)?.seals + 1;
            let sealed = seal(&place(self.game, side, moving, n), &c, self.key(side)?)?;
            self.push(Event::TurnedDown { id: moving, sealed })?;
        }
        Ok(())
    }
}
