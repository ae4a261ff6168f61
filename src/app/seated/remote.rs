//! The seated window's remote game (docs: "Playing remotely"): inviting a
//! player to play from his own machine, its end polled once a frame, the
//! line over the table, and a game played remotely before, reopened:
//! hosted again with the same ticket (its seat kept), or played here.

use super::{SeatedWindow, Table};
use crate::app::action::SeatedAction;
use crate::app::bus::{Msg, SeatMsg};
use crate::app::remote::kept::{Again, Kept};
use crate::app::remote::{RemoteEnd, Remoted};
use crate::app::seating::Cx;
use crate::app::status::Status;
use crate::app::system::Handled;
use eframe::egui;
use muster::core::chained_game::OnLedger;
use muster::core::intel::{Lock, PlayerKey};
use muster::core::seat::Seated;
use muster::core::side::Side;

/// This machine's player began without a passphrase: until he sets one
/// (on his own screen, here), the other machine's Muster could open his
/// records. Said, with the way to set it.
fn no_passphrase<T: Table>(ui: &mut egui::Ui, game: &T::Game, me: Side, cx: &Cx) {
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            "Your side has no passphrase yet: until you set one, the other player's Muster can read your secrets (what your counters or your cards hold).",
        );
        let name = game.seat_name(me);
        if ui.button(format!("Set {me}'s passphrase…")).clicked() {
            cx.bus.seat(
                me,
                SeatMsg::SetPassphrase {
                    context: vec![name.clone()],
                    name,
                    then: Box::new(move |lock, key| {
                        Msg::System(T::action(SeatedAction::SetLock(me, lock, key)))
                    }),
                },
            );
        }
    });
}

impl<T: Table> SeatedWindow<T> {
    /// This machine's player sets the passphrase he began without: the
    /// command that sets it, with his key held for it, given as any of his.
    pub(super) fn set_lock(&mut self, side: Side, lock: Lock, key: PlayerKey) -> Handled {
        let Some(game) = &mut self.game else {
            return Handled::default();
        };
        match game.set_lock(side, lock, key) {
            Ok(command) => self.apply(command),
            Err(e) => Handled::status(Status::Error(e.to_string())),
        }
    }

    /// Whether its game can be played remotely now, or why not.
    pub(super) fn invitable(&self) -> Result<(), String> {
        match &self.game {
            _ if !T::REMOTE => Err(crate::app::system::not_remote(T::NAME)),
            _ if self.remote.is_some() => Err("This game is played remotely already.".into()),
            None => Err(
                "Start the game first: its players and passphrases are set at the table.".into(),
            ),
            Some(_) => Ok(()),
        }
    }

    /// Invites a player to play `away` from his machine: every other
    /// player unlocked here first; the seat kept to host it again.
    pub(super) fn invite_to(
        &mut self,
        away: Side,
        net: muster_remote::Net,
        relay: Option<String>,
        wake: muster_remote::Wake,
    ) -> Result<(), String> {
        self.invitable()?;
        let game = self.game.as_mut().expect("checked: started");
        crate::app::remote::others_unlocked(game, away)?;
        // Every system played remotely keeps its seats (`invitable`).
        let kept = self
            .kept
            .as_mut()
            .ok_or_else(|| crate::app::system::not_remote(T::NAME))?;
        let hosting = kept.fresh(game.record().id(), away, relay)?;
        self.remote = Some(T::invite(game, hosting, net, wake)?);
        Ok(())
    }

    /// Hosts the remote seat this game had again, with the same ticket.
    pub(super) fn host_again(&mut self, wake: muster_remote::Wake) -> Handled {
        let (Some(game), Some(kept)) = (&mut self.game, &mut self.kept) else {
            return Handled::default();
        };
        let remote = match kept.again() {
            Some(Ok((hosting, net))) => T::invite(game, hosting, net, wake),
            Some(Err(why)) => Err(why),
            None => return Handled::default(),
        };
        match remote {
            Ok(remote) => {
                self.remote = Some(remote);
                Handled::default()
            }
            Err(why) => Handled::status(Status::Error(why)),
        }
    }

    /// What the other machine sent since the last frame, taken; an end
    /// whose link could not be made is dropped.
    pub(super) fn poll_end(&mut self) -> Handled {
        let (Some(remote), Some(game)) = (&mut self.remote, &mut self.game) else {
            return Handled::default();
        };
        let polled = remote.poll(game);
        if remote.ended() {
            self.remote = None;
        }
        if polled.changed {
            self.table.changed(game);
        }
        polled.handled()
    }

    /// A game reopened from a remote game: its remote player's moves are
    /// his machine's until it is hosted again or played here.
    pub(super) fn kept_refusal(&self, command: &<T::Game as Seated>::Command) -> Option<Handled> {
        let game = self.game.as_ref()?;
        let seat = self.kept.as_ref().and_then(Kept::seat)?;
        (self.remote.is_none() && T::given_by(game, command) == Some(seat)).then(|| {
            Handled::status(Status::Error(format!(
                "{} plays from their own Muster: host the game again (same ticket), or play it here instead, first",
                game.seat_name(seat)
            )))
        })
    }

    /// The line over the table: how the link stands, or the offer to host
    /// again a game played remotely before.
    pub(super) fn remote_line(&self, ui: &mut egui::Ui, game: &T::Game, cx: &Cx) {
        if let Some(remote) = &self.remote {
            let away = game.seat_name(remote.away());
            let me = remote.away().opponent();
            egui::Panel::top("remote").show(ui, |ui| {
                remote.banner(ui, &away);
                if game.lock_of(me).is_none() {
                    no_passphrase::<T>(ui, game, me, cx);
                }
            });
        } else if let Some(seat) = self.kept.as_ref().and_then(Kept::seat) {
            let action = match crate::app::remote::kept::offer(ui, "game", &game.seat_name(seat)) {
                Some(Again::Host) => SeatedAction::HostAgain,
                Some(Again::Here) => SeatedAction::PlayHere,
                None => return,
            };
            cx.bus.system(T::action(action));
        }
    }
}

impl<T: Table> SeatedWindow<T>
where
    T::Game: muster::core::remote::Replica,
{
    /// The joiner's window on the game the host's machine sent, opened by
    /// `open`: his side unlocked here, then played with the host's machine.
    pub fn joined(
        game: T::Game,
        seated: muster_remote::opening::Unlocking,
        said: &[muster_remote::Event],
        open: impl FnOnce(T::Game) -> SeatedWindow<T>,
    ) -> SeatedWindow<T> {
        let mut window = open(game);
        window.remote = Some(Box::new(Remoted::<T::Game>::joined(seated, said)));
        window
    }

    /// The joiner's window when his Muster restarted and holds its own
    /// copy of the game (its autosave): the host's game is set against it,
    /// so nothing he had taken is lost; and what to tell him.
    pub fn rejoined(
        mut copy: T::Game,
        arrived: muster_remote::opening::Arrived<T::Game>,
        open: impl FnOnce(T::Game) -> SeatedWindow<T>,
    ) -> (SeatedWindow<T>, Option<Status>) {
        let (remote, polled) = Remoted::<T::Game>::joined_with_copy(arrived, &mut copy);
        let mut window = open(copy);
        if !RemoteEnd::ended(&remote) {
            window.remote = Some(Box::new(remote));
        }
        (window, polled.status)
    }
}

/// `Table`'s remote play for a system whose game is a `Replica`: invited
/// through `Remoted`, each command's giver as the game says.
macro_rules! remote_table {
    () => {
        const REMOTE: bool = true;

        fn invite(
            _game: &mut Self::Game,
            hosting: muster_remote::Hosting,
            net: muster_remote::Net,
            wake: muster_remote::Wake,
        ) -> Result<Box<dyn crate::app::remote::RemoteEnd<Self::Game>>, String> {
            Ok(Box::new(crate::app::remote::Remoted::<Self::Game>::invite(
                net, hosting, wake,
            )))
        }

        fn given_by(
            game: &Self::Game,
            command: &<Self::Game as muster::core::seat::Seated>::Command,
        ) -> Option<muster::core::side::Side> {
            muster::core::remote::Replica::given_by(game, command)
        }
    };
}
pub(crate) use remote_table;
