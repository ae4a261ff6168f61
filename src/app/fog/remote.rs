//! A Field of Glory battle played from two machines (docs: "Playing
//! remotely"): the window's commands and its seats' answers go through the
//! remote game's end, not straight to the rules; what the other machine
//! sends is taken once a frame. A battle played remotely is not taken back
//! (its log is both machines'). The host keeps each battle's remote seat
//! (`Kept`), so a battle reopened after his program restarted is hosted
//! again with the same ticket.

use super::{FogCommand, FogWindow};
use crate::app::remote::invite::RemoteView;
use crate::app::remote::kept::Again;
use crate::app::remote::{RemoteEnd, Remoted};
use crate::app::status::Status;
use crate::app::system::{Handled, Start};
use eframe::egui;
use muster::core::remote::Replica;
use muster::core::seat::{Refused, mover};
use muster::core::side::Side;
use muster::fog::battle::{Battle, Command};
use muster_remote::opening::Unlocking;

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
        if let (None, Some(seat)) = (&self.remote, self.hosting.seat())
            && self.battle.given_by(&command) == Some(seat)
        {
            return Err(Refused::Rule(muster::core::error::RuleError::new(
                "remote",
                format!(
                    "{} plays from their own Muster: host the battle again (same ticket), or play it here instead, first",
                    self.player(seat)
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
        let hosting = self.hosting.fresh(self.battle.id(), away, relay)?;
        self.remote = Some(Remoted::invite(net, hosting, wake));
        Ok(())
    }

    /// Hosts the remote seat this battle had again, with the same ticket.
    pub(super) fn host_again(&mut self, wake: muster_remote::Wake) -> Handled {
        match self.hosting.again() {
            Some(Ok((hosting, net))) => {
                self.remote = Some(Remoted::invite(net, hosting, wake));
                Handled::default()
            }
            Some(Err(why)) => Handled::status(Status::Error(why)),
            None => Handled::default(),
        }
    }

    /// The line over the table in a remote game, or the offer to host
    /// again a battle that was played remotely.
    pub(super) fn remote_banner(&self, ui: &mut egui::Ui, out: &mut Vec<FogCommand>) {
        if let Some(remote) = &self.remote {
            let away = self.player(remote.away);
            egui::Panel::top("remote").show(ui, |ui| remote.banner(ui, &away));
        } else if let Some(seat) = self.hosting.seat() {
            match crate::app::remote::kept::offer(ui, "battle", &self.player(seat)) {
                Some(Again::Host) => out.push(FogCommand::HostAgain),
                Some(Again::Here) => out.push(FogCommand::PlayHere),
                None => {}
            }
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
        polled.handled()
    }
}
