//! The shell's ways into a window's seats (docs: the design's "seat"). The
//! shell holds the window as `dyn SystemWindow`, whose game type is its
//! own; a window says only where its game and its players' desks are
//! (`Seats::desked`), and this one blanket implementation takes every seat
//! message, frame and screen there with the game's own types. Nothing here
//! mirrors the engine's `Seated`: each route is one call of `Seating`'s.

use super::{Cx, Outcome, Seating};
use crate::app::bus::{Bus, PlayersMsg, SeatMsg};
use crate::app::status::Status;
use eframe::egui;
use muster::core::intel::Lock;
use muster::core::seat::{Desked, Seated};
use muster::core::side::{Side, Sides};

/// A window whose game has seats: where its game and desks are, once the
/// game has started.
pub trait Seats {
    type Game: Seated + Clone + Send + 'static;
    fn desked(&mut self) -> Option<Desked<'_, Self::Game>>;
}

/// What the shell's own windows show of the seats (the unlock window, the
/// status line, the players' screens): plain words and locks.
#[derive(Clone, Debug, Default)]
pub struct Roster {
    pub names: Sides<String>,
    /// Who must still unlock the reopened game.
    pub locked: Vec<Side>,
    pub locks: Sides<Option<Lock>>,
}

impl Roster {
    /// Before a game: the sides' own names, nothing locked.
    fn empty() -> Roster {
        Roster {
            names: Sides {
                south: Side::South.to_string(),
                north: Side::North.to_string(),
            },
            ..Roster::default()
        }
    }
}

/// The shell's routes to a window's seats, for any game.
pub trait SeatRoutes {
    /// A message for `side`'s seat.
    fn seat_msg(&mut self, seating: &mut Seating, side: Side, msg: SeatMsg, bus: &Bus) -> Outcome;
    /// What the players' screens window asked for.
    fn players_msg(&mut self, seating: &mut Seating, msg: PlayersMsg, bus: &Bus);
    /// The game changed (on the table, a seat, undo): every screen shows
    /// it, and each seat does what it does by itself.
    fn game_changed(&mut self, seating: &mut Seating) -> Outcome;
    /// Brings the seats up to date, once a frame, after the messages;
    /// what the table is told of a screen that closed by itself.
    fn prepare_seats(&mut self, seating: &mut Seating) -> Option<Status>;
    /// Sends each device its screen, if it changed.
    fn send_screens(&mut self, seating: &mut Seating);
    /// The hand-over or passphrase screen over the window, if any.
    fn cover(&mut self, seating: &mut Seating, ui: &mut egui::Ui, bus: &Bus) -> bool;
    /// The seats' names and locks.
    fn roster(&mut self) -> Roster;
    /// What the window's UI is told of the seats this frame.
    fn cx(&mut self, seating: &Seating, bus: &Bus) -> Cx;
}

impl<W: Seats> SeatRoutes for W {
    fn seat_msg(&mut self, seating: &mut Seating, side: Side, msg: SeatMsg, bus: &Bus) -> Outcome {
        seating.handle(side, msg, bus, self.desked().as_mut())
    }

    fn players_msg(&mut self, seating: &mut Seating, msg: PlayersMsg, bus: &Bus) {
        seating.players(msg, bus, self.desked().as_mut());
    }

    fn game_changed(&mut self, seating: &mut Seating) -> Outcome {
        match self.desked() {
            Some(mut desked) => seating.game_changed(&mut desked),
            None => Outcome::default(),
        }
    }

    fn prepare_seats(&mut self, seating: &mut Seating) -> Option<Status> {
        seating.prepare(self.desked().as_mut())
    }

    fn send_screens(&mut self, seating: &mut Seating) {
        seating.send_screens(self.desked().as_mut());
    }

    fn cover(&mut self, seating: &mut Seating, ui: &mut egui::Ui, bus: &Bus) -> bool {
        seating.covering(ui, bus, self.desked().as_mut())
    }

    fn roster(&mut self) -> Roster {
        let Some(desked) = self.desked() else {
            return Roster::empty();
        };
        let game = &*desked.game;
        Roster {
            names: Sides {
                south: game.seat_name(Side::South),
                north: game.seat_name(Side::North),
            },
            locked: game.locked_seats(),
            locks: Sides {
                south: game.lock_of(Side::South),
                north: game.lock_of(Side::North),
            },
        }
    }

    fn cx(&mut self, seating: &Seating, bus: &Bus) -> Cx {
        seating.cx(bus, self.desked().as_ref())
    }
}
