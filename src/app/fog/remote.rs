//! A Field of Glory battle played from two machines (docs: "Playing
//! remotely"): the window's commands and its seats' answers go through the
//! remote game's end, not straight to the rules; what the other machine
//! sends is taken once a frame. A battle played remotely is not taken back
//! (its log is both machines'). The host keeps each battle's remote seat
//! (`Kept`), so a battle reopened after his program restarted is hosted
//! again with the same ticket.

use super::{FogCommand, FogWindow};
use crate::app::remote::invite::{RemoteView, net_with};
use crate::app::remote::{RemoteEnd, Remoted};
use crate::app::status::Status;
use crate::app::system::{Handled, Start};
use eframe::egui;
use muster::core::remote::Replica;
use muster::core::seat::{Refused, mover};
use muster::core::side::Side;
use muster::fog::battle::{Battle, Command};
use muster_remote::Hosting;
use muster_remote::opening::Unlocking;
use std::path::PathBuf;

/// Over the step panel while a move of this player's crosses to the other
/// machine and back (or the host makes the joiner's): the panel waits.
pub(super) const SENDING: &str = "Your move is on its way to the other machine…";

impl FogWindow {
    /// The joiner's window on the battle the host's machine sent: his side
    /// unlocked here, then played with the host's machine.
    pub fn joined(
        battle: Battle,
        seated: Unlocking,
        said: &[muster_remote::Event],
        start: &Start,
    ) -> FogWindow {
        let mut window = FogWindow::with(battle, start);
        window.remote = Some(Remoted::joined(seated, said));
        window
    }

    /// The joiner's window when his Muster restarted and holds its own
    /// copy of the battle (its autosave): the host's game is set against
    /// it, so nothing he had taken is lost; and what to tell him.
    pub fn rejoined(
        mut copy: Battle,
        arrived: muster_remote::opening::Arrived<Battle>,
        start: &Start,
    ) -> (FogWindow, Option<Status>) {
        let (remote, polled) = Remoted::joined_with_copy(arrived, &mut copy);
        let mut window = FogWindow::with(copy, start);
        window.remote = (!remote.ended()).then_some(remote);
        (window, polled.status)
    }

    /// A command given on this machine: by the rules here, or through the
    /// remote game (`Ok(false)`: it waits for the other machine).
    pub(super) fn give(&mut self, command: Command) -> Result<bool, Refused<Battle>> {
        // A battle reopened from a remote game: its remote player's moves
        // are his machine's until it is hosted again or played here.
        if let (None, Some(kept)) = (&self.remote, &self.hosting.again)
            && self.battle.given_by(&command) == Some(kept.seat)
        {
            return Err(Refused::Rule(muster::core::error::RuleError::new(
                "remote",
                format!(
                    "{} plays from their own Muster: host the battle again (same ticket), or play it here instead, first",
                    self.player(kept.seat)
                ),
            )));
        }
        let mover = self.remote.as_mut().map(|r| r.mover());
        mover::give(mover, &mut self.battle, command)
    }

    pub(super) fn remote_view(&self) -> Option<RemoteView> {
        self.remote.as_ref().map(RemoteEnd::view)
    }

    /// Whether a player may be invited now, or why not.
    pub(super) fn invitable(&self) -> Result<(), String> {
        if self.remote.is_some() {
            return Err("This battle is played remotely already.".into());
        }
        Ok(())
    }

    /// Invites a player to play `away` from his machine: the battle must
    /// be unlocked by every player but him (he unlocks his side on his
    /// own machine). The seat is kept, so that the host may host it again
    /// with the same ticket after his program restarted.
    pub(super) fn invite_to(
        &mut self,
        away: Side,
        net: muster_remote::Net,
        relay: Option<String>,
        wake: muster_remote::Wake,
    ) -> Result<(), String> {
        self.invitable()?;
        crate::app::remote::others_unlocked(&self.battle, away)?;
        let mut hosting = Hosting::fresh(self.battle.game_id().to_string(), away)?;
        hosting.relay = relay;
        self.hosting.keep(&hosting)?;
        self.remote = Some(Remoted::invite(net, hosting, wake));
        Ok(())
    }

    /// Hosts the remote seat this battle had again, with the same ticket.
    pub(super) fn host_again(&mut self, wake: muster_remote::Wake) -> Handled {
        let Some(hosting) = self.hosting.again.take() else {
            return Handled::default();
        };
        match net_with(&self.hosting.net, hosting.relay.as_deref().unwrap_or("")) {
            Ok(net) => {
                self.remote = Some(Remoted::invite(net, hosting, wake));
                Handled::default()
            }
            Err(why) => Handled::status(Status::Error(why)),
        }
    }

    /// The line over the table in a remote game, or the offer to host
    /// again a battle that was played remotely.
    pub(super) fn remote_banner(&self, ui: &mut egui::Ui, out: &mut Vec<FogCommand>) {
        if let Some(remote) = &self.remote {
            let away = self.player(remote.away);
            egui::Panel::top("remote").show(ui, |ui| remote.banner(ui, &away));
        } else if let Some(hosting) = &self.hosting.again {
            let away = self.player(hosting.seat);
            egui::Panel::top("remote").show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    ui.label(format!(
                        "This battle was played remotely: {away} played from their own Muster."
                    ));
                    if ui.button("Host it again (same ticket)").clicked() {
                        out.push(FogCommand::HostAgain);
                    }
                    if ui.button("Play it here instead").clicked() {
                        out.push(FogCommand::PlayHere);
                    }
                });
            });
        }
    }

    /// What the other machine sent, taken; a remote game whose link could
    /// not be made is dropped (the battle goes on at this table).
    pub(super) fn poll(&mut self) -> Handled {
        let Some(remote) = &mut self.remote else {
            return Handled::default();
        };
        let polled = remote.poll(&mut self.battle);
        if remote.ended() {
            self.remote = None;
        }
        Handled {
            status: polled.status,
            changed: polled.changed,
            dialog: None,
        }
    }
}

/// Where the host keeps the remote seats of its battles (Muster's own
/// folder, beside the autosaves: never in a game's file, readable by its
/// user alone), and the one the open battle had.
pub(in crate::app) struct Kept {
    dir: Option<PathBuf>,
    /// How remote games reach the other machine.
    net: muster_remote::Net,
    /// The seat the open battle had, to host again.
    again: Option<Hosting>,
    /// Its file.
    path: Option<PathBuf>,
}

impl Kept {
    pub(in crate::app) fn of(start: &Start) -> Kept {
        Kept {
            dir: start.autosave.as_ref().map(|d| d.join("remote")),
            net: start.net.clone(),
            again: None,
            path: None,
        }
    }

    /// The file of `game`'s seat; none for an id that is no plain name
    /// (a file's id is only read, never made a path of).
    fn file(&self, game: &str) -> Option<PathBuf> {
        let plain = !game.is_empty()
            && game.len() <= 64
            && game
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        Some(self.dir.as_ref()?.join(format!("{game}.json"))).filter(|_| plain)
    }

    /// The seat `battle` had when it was played remotely from here, if
    /// its file reads (one that does not is left alone: nothing is
    /// offered).
    pub(in crate::app) fn look_up(&mut self, battle: &Battle) {
        let Some(path) = self.file(battle.game_id()) else {
            return;
        };
        self.again = muster::core::store::read_text(&path)
            .ok()
            .and_then(|text| serde_json::from_str::<Hosting>(&text).ok())
            .filter(|h| h.game == battle.game_id());
        self.path = Some(path);
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
    pub(in crate::app) fn seat(&self) -> Option<Side> {
        self.again.as_ref().map(|h| h.seat)
    }

    /// Forgets the seat: the battle is played at this table.
    pub(in crate::app) fn forget(&mut self) {
        self.again = None;
        if let Some(path) = self.path.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}
