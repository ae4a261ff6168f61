//! A joiner's tickets kept (docs: "Playing remotely", when a program
//! restarts): the ticket each game was joined by, in Muster's own folder
//! (beside the autosaves, never in the game's file, readable by its user
//! alone: whoever holds a ticket takes its seat), so that the game reopened
//! after the joiner's Muster restarted is joined again in one click; and
//! the offer over the window to join it again. The host's seat stays the
//! host's machine's: this laptop never asks the host's passphrase.

use crate::app::MusterApp;
use crate::app::status::Status;
use eframe::egui;
use muster::core::side::Side;
use muster_remote::Ticket;
use std::path::PathBuf;

/// The tickets kept, and the one offered for the game open.
#[derive(Default)]
pub struct Rejoin {
    dir: Option<PathBuf>,
    /// The open game's ticket and the host's side, while offered.
    offered: Option<(String, Side)>,
}

impl Rejoin {
    pub fn new(autosave: Option<&PathBuf>) -> Rejoin {
        Rejoin {
            dir: autosave.map(|d| d.join("remote")),
            offered: None,
        }
    }

    /// The file of game `id`'s ticket.
    fn file(&self, id: &str) -> Option<PathBuf> {
        super::kept::file_of(self.dir.as_ref()?, id, "joined")
    }

    /// Keeps the ticket game `id` was just joined by; a ticket that could
    /// not be kept is said (he pastes it again after a restart).
    pub fn keep(&mut self, id: &str, ticket: &str) -> Option<Status> {
        self.offered = None;
        let path = self.file(id)?;
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .map_err(|e| e.to_string())
            .and_then(|()| {
                muster::core::store::write_atomic_private(&path, ticket.trim().as_bytes(), |_| {
                    Ok(())
                })
                .map_err(|e| e.to_string())
            });
        written.err().map(|e| {
            Status::Error(format!(
                "The ticket could not be kept in {} ({e}): after a restart, paste it again",
                path.display()
            ))
        })
    }

    /// Looks up the ticket game `id` was joined by, to offer joining it
    /// again (a file that does not read as a ticket of this game is left
    /// alone: nothing is offered).
    pub fn look_up(&mut self, id: Option<&str>) {
        self.offered = id.and_then(|id| {
            let text = muster::core::store::read_text(&self.file(id)?).ok()?;
            let ticket = Ticket::parse(&text).ok().filter(|t| t.game == id)?;
            Some((text, ticket.seat.opponent()))
        });
    }

    /// The host's side, while joining again is offered: his seat is his
    /// machine's.
    pub fn host_side(&self) -> Option<Side> {
        self.offered.as_ref().map(|(_, host)| *host)
    }
}

impl MusterApp {
    /// The line over a reopened game this machine joined: join it again
    /// with the same ticket. (Nothing offers to play it here: the host's
    /// side is his, and his passphrase is never asked on this machine.)
    pub(in crate::app) fn rejoin_offer(&mut self, ui: &mut egui::Ui) {
        if self.rejoin.offered.is_none() || self.system.remote().is_some() {
            return;
        }
        let mut again = false;
        egui::Panel::top("rejoin").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label("You played this game from your own Muster, joined by the host's ticket.");
                again = ui.button("Join it again (same ticket)").clicked();
            });
        });
        if again && let Some((ticket, _)) = self.rejoin.offered.take() {
            // In the join window, which says how the dialing goes.
            self.join.open = true;
            self.join.text = ticket.clone();
            if let Err(why) = self.join.join(&ticket, &self.start.net, &self.bus) {
                self.status = Some(Status::Error(why));
            }
        }
    }
}
