//! What a window holds of a remote game, whatever its system (docs:
//! "Playing remotely"): its end as a trait object (`RemoteEnd`, so a
//! seated window holds one for hidden forces as Field of Glory's holds a
//! `Remoted`), and the words and checks both systems' windows share.

use super::{Polled, Remoted, invite};
use eframe::egui;
use muster::core::remote::Replica;
use muster::core::seat::Mover;
use muster::core::side::Side;

/// Before a player is invited to play `away` from his machine, every
/// other player unlocks here (the invited one unlocks on his own).
pub fn others_unlocked<G: muster::core::seat::Seated>(game: &G, away: Side) -> Result<(), String> {
    match game.locked_seats().into_iter().find(|s| *s != away) {
        Some(side) => Err(format!(
            "{} must unlock this game with their passphrase first.",
            game.seat_name(side)
        )),
        None => Ok(()),
    }
}

/// *End the game…*, asked twice (`salt` keeps each system's question
/// apart): whether the players said the game is over.
pub fn end_game(ui: &mut egui::Ui, salt: &str) -> bool {
    let asking = egui::Id::unique(salt);
    let mut asked = ui.data(|d| d.get_temp::<bool>(asking)).unwrap_or(false);
    let mut over = false;
    if !asked {
        asked = ui.button("End the game…").clicked();
    } else {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.label("Nothing more is played once the game is over, and each player's sealed records may then be opened for the other to check.");
            ui.horizontal(|ui| {
                if crate::app::guard::button(ui, "The game is over") {
                    over = true;
                    asked = false;
                }
                if ui.button("Play on").clicked() {
                    asked = false;
                }
            });
        });
    }
    ui.data_mut(|d| d.insert_temp(asking, asked));
    over
}

/// A game the players have said is over, and, played remotely, what each
/// Muster checks of the other's records then (`checked`).
pub fn game_over(ui: &mut egui::Ui, cx: &crate::app::seating::Cx, checked: &str) {
    use crate::app::seating::life::Life;
    ui.heading("The game is over");
    if Side::BOTH.iter().any(|s| cx.lives[*s] == Life::Remote) {
        ui.label(format!("Each Muster sends the other its player's sealed records, opened (no passphrase or key crosses). Each checks the other's against what was sealed during the game, then what it could not check before: {checked}. The result shows above the table."));
    } else {
        ui.label("Nothing more is played. The log and the printout keep the whole game.");
    }
}

/// Over a step or an order that is the other machine's player's: whose it
/// is, and that it waits for him.
pub fn waiting_for(ui: &mut egui::Ui, name: &str) {
    ui.weak(format!("Waiting for {name}, on their own Muster"));
}

/// What the table says while a command waits for the other machine.
pub const WAITING: &str =
    "Sent: it is entered once the other machine has taken it (and made its half of any dice)";

/// Why nothing is taken back in a remote game.
pub const NO_UNDO: &str = "Nothing is taken back in a remote game: its log is both machines' (each has checked and tagged every entry)";

/// A remote game's end as a window holds it, whatever its system: what a
/// seated window (hidden forces) asks of its `Remoted`.
pub trait RemoteEnd<G> {
    /// Where this machine's commands go now.
    fn mover(&mut self) -> &mut dyn Mover<G>;
    /// What arrived since the last frame, taken.
    fn poll(&mut self, game: &mut G) -> Polled;
    /// Whether it ended before it was played (the window drops it).
    fn ended(&self) -> bool;
    /// The side played from the other machine, its ticket and the link.
    fn view(&self) -> invite::RemoteView;
    /// The side played from the other machine (what the frame's line
    /// names, without copying the ticket).
    fn away(&self) -> Side;
    /// The line over the window that says how the link stands.
    fn banner(&self, ui: &mut egui::Ui, away_name: &str);
}

impl<G: Replica> RemoteEnd<G> for Remoted<G> {
    fn mover(&mut self) -> &mut dyn Mover<G> {
        Remoted::mover(self)
    }

    fn poll(&mut self, game: &mut G) -> Polled {
        Remoted::poll(self, game)
    }

    fn ended(&self) -> bool {
        Remoted::ended(self)
    }

    fn view(&self) -> invite::RemoteView {
        invite::RemoteView {
            away: self.away,
            ticket: self.ticket.clone(),
            linked: self.linked.clone(),
        }
    }

    fn away(&self) -> Side {
        self.away
    }

    fn banner(&self, ui: &mut egui::Ui, away_name: &str) {
        Remoted::banner(self, ui, away_name)
    }
}
