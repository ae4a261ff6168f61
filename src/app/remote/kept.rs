//! A host's remote seats kept (docs: "Playing remotely", when a program
//! restarts): each game's seat (its endpoint key, token, port and relay)
//! in Muster's own folder, so that a game reopened after the host's
//! program restarted is hosted again with the same ticket; and the offer
//! over the window to host it again or play it here.

use crate::app::system::Start;
use eframe::egui;
use muster::core::side::Side;
use muster_remote::Hosting;
use std::path::PathBuf;

/// What the players chose over a game played remotely before.
pub enum Again {
    Host,
    Here,
}

/// The line over a reopened `what` ("battle", "game") that `away` played
/// from his own Muster: host it again, or play it here.
pub fn offer(ui: &mut egui::Ui, what: &str, away: &str) -> Option<Again> {
    let mut chose = None;
    // Playing it here forgets the seat for good: asked twice, saying so.
    let asking = egui::Id::unique("play-it-here");
    let mut asked = ui.data(|d| d.get_temp::<bool>(asking)).unwrap_or(false);
    egui::Panel::top("remote").show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!(
                "This {what} was played remotely: {away} played from their own Muster."
            ));
            if ui.button("Host it again (same ticket)").clicked() {
                chose = Some(Again::Host);
                asked = false;
            }
            if !asked {
                asked = ui.button("Play it here instead…").clicked();
            }
        });
        if asked {
            ui.horizontal_wrapped(|ui| {
                ui.label(format!("{away}'s Muster can then no longer join it with its ticket, and {away}'s side is played on this laptop."));
                if crate::app::guard::button(ui, "Play it here: forget the remote seat") {
                    chose = Some(Again::Here);
                    asked = false;
                }
                if ui.button("Keep the remote seat").clicked() {
                    asked = false;
                }
            });
        }
    });
    ui.data_mut(|d| d.insert_temp(asking, asked));
    chose
}

/// The file of game `id` in `dir`, ending `ext`; none for an id that is
/// no plain name (a file's id is only read, never made a path of).
pub fn file_of(dir: &std::path::Path, id: &str, ext: &str) -> Option<PathBuf> {
    let plain = !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    plain.then(|| dir.join(format!("{id}.{ext}")))
}

/// Where the host keeps the remote seats of its games (Muster's own
/// folder, beside the autosaves: never in a game's file, readable by its
/// user alone), and the one the open game had.
pub struct Kept {
    dir: Option<PathBuf>,
    /// How remote games reach the other machine.
    net: muster_remote::Net,
    /// The seat the open battle had, to host again.
    again: Option<Hosting>,
    /// Its file.
    path: Option<PathBuf>,
}

impl Kept {
    pub fn of(start: &Start) -> Kept {
        Kept {
            dir: start.autosave.as_ref().map(|d| d.join("remote")),
            net: start.net.clone(),
            again: None,
            path: None,
        }
    }

    /// The file of `game`'s seat.
    fn file(&self, game: &str) -> Option<PathBuf> {
        file_of(self.dir.as_ref()?, game, "json")
    }

    /// The seat game `id` had when it was played remotely from here, if
    /// its file reads (one that does not is left alone: nothing is
    /// offered).
    pub fn look_up(&mut self, id: &str) {
        let Some(path) = self.file(id) else {
            return;
        };
        self.again = muster::core::store::read_text(&path)
            .ok()
            .and_then(|text| serde_json::from_str::<Hosting>(&text).ok())
            .filter(|h| h.game == id);
        self.path = Some(path);
    }

    /// The seat kept, taken to host it again, with the way it reaches the
    /// other machine (its club's relay, if it had one).
    pub fn again(&mut self) -> Option<Result<(Hosting, muster_remote::Net), String>> {
        let hosting = self.again.take()?;
        let relay = hosting.relay.clone().unwrap_or_default();
        Some(super::invite::net_with(&self.net, &relay).map(|net| (hosting, net)))
    }

    /// A new seat of game `id` for `away`, through the club's `relay` if
    /// named, kept to host again; or why it could not be kept.
    pub fn fresh(
        &mut self,
        id: &str,
        away: Side,
        relay: Option<String>,
    ) -> Result<Hosting, String> {
        let mut hosting = Hosting::fresh(id.to_string(), away)?;
        hosting.relay = relay;
        self.keep(&hosting)?;
        Ok(hosting)
    }

    /// Keeps the seat just made, or says why it could not be.
    fn keep(&mut self, hosting: &Hosting) -> Result<(), String> {
        self.again = None;
        let Some(path) = self.file(&hosting.game) else {
            return Ok(());
        };
        let json = serde_json::to_vec(hosting).expect("a seat serializes");
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .map_err(|e| e.to_string())
            .and_then(|()| {
                muster::core::store::write_atomic_private(&path, &json, |_| Ok(()))
                    .map_err(|e| e.to_string())
            });
        self.path = Some(path.clone());
        written.map_err(|e| {
            format!(
                "The remote seat could not be kept in {} ({e}): nothing was started",
                path.display()
            )
        })
    }

    /// The side of the seat kept to host again, if any.
    pub fn seat(&self) -> Option<Side> {
        self.again.as_ref().map(|h| h.seat)
    }

    /// Forgets the seat: the battle is played at this table.
    pub fn forget(&mut self) {
        self.again = None;
        if let Some(path) = self.path.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}
