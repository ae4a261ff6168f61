//! Where a player's command goes once his screen or the table gives it
//! (docs: "Playing remotely"): played by the rules on this machine, or, in
//! a remote game, handed to the remote play, which decides it here and
//! sends it to the other machine, or waits for that machine's half of the
//! dice first. Every seat answer, every move a seat makes by itself and
//! every command of the table goes through one, so a remote game changes
//! where commands go, not what the screens ask.

use super::{Refused, Seated, play};

/// How this machine carries out a command given here.
pub trait Mover<G: Seated> {
    /// `command` given: `Ok(true)` when the game changed now, `Ok(false)`
    /// when it waits for the other machine (it comes back in the log);
    /// why not otherwise, with whether the game changed all the same.
    fn give(&mut self, game: &mut G, command: G::Command) -> Result<bool, Refused<G>>;
}

/// By the rules, on this machine alone (`play`, with what they force).
pub struct Here;

impl<G: Seated> Mover<G> for Here {
    fn give(&mut self, game: &mut G, command: G::Command) -> Result<bool, Refused<G>> {
        play(game, command).map(|_| true)
    }
}

/// `command` given through `mover`, or here when there is none.
pub fn give<G: Seated>(
    mover: Option<&mut (dyn Mover<G> + '_)>,
    game: &mut G,
    command: G::Command,
) -> Result<bool, Refused<G>> {
    match mover {
        Some(mover) => mover.give(game, command),
        None => Here.give(game, command),
    }
}
