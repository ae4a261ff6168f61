//! A Field of Glory battle played from two machines (docs: "Playing
//! remotely"): the window's commands and its seats' answers go through the
//! remote game's end, not straight to the rules; what the other machine
//! sends is taken once a frame. A battle played remotely is not taken back
//! (its log is both machines').

use super::FogWindow;
use crate::app::remote::Remoted;
use crate::app::remote::invite::RemoteView;
use crate::app::system::{Handled, Start};
use muster::core::seat::{Refused, Seated, mover};
use muster::core::side::Side;
use muster::fog::battle::{Battle, Command};
use muster_remote::opening::Seated as Arriving;

/// What the table says while a command waits for the other machine.
pub(super) const WAITING: &str =
    "Sent: it is entered once the other machine has made its half of the dice";

/// Why nothing is taken back in a remote game.
pub(super) const NO_UNDO: &str = "Nothing is taken back in a remote game: its log is both machines' (each has checked and tagged every entry)";

impl FogWindow {
    /// The joiner's window on the battle the host's machine sent: his side
    /// unlocked here, then played with the host's machine.
    pub fn joined(
        battle: Battle,
        seated: Arriving,
        said: &[muster_remote::Event],
        start: &Start,
    ) -> FogWindow {
        let mut window = FogWindow::with(battle, start);
        window.remote = Some(Remoted::joined(seated, said));
        window
    }

    /// A command given on this machine: by the rules here, or through the
    /// remote game (`Ok(false)`: it waits for the other machine).
    pub(super) fn give(&mut self, command: Command) -> Result<bool, Refused<Battle>> {
        let mover = self.remote.as_mut().map(|r| r.mover());
        mover::give(mover, &mut self.battle, command)
    }

    pub(super) fn remote_view(&self) -> Option<RemoteView> {
        self.remote.as_ref().map(|r| RemoteView {
            away: r.away,
            ticket: r.ticket.clone(),
            linked: r.linked.clone(),
        })
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
    /// own machine).
    pub(super) fn invite_to(
        &mut self,
        away: Side,
        net: muster_remote::Net,
        wake: muster_remote::Wake,
    ) -> Result<(), String> {
        self.invitable()?;
        if let Some(side) = self.battle.locked_seats().into_iter().find(|s| *s != away) {
            return Err(format!(
                "{side} must unlock this battle with their passphrase first."
            ));
        }
        self.remote = Some(Remoted::invite(net, &self.battle, away, wake));
        Ok(())
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
