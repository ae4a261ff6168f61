//! The shell's part of a remote game (docs: "Playing remotely"): once a
//! frame, the open window's remote game is polled and its other player's
//! seat made his machine's (a seat kept to host again, too); a joining under way is polled and, once the
//! host's game arrives, opened in its window; the invite and join windows
//! are drawn and what they ask carried out.

use super::join::Arriving;
use super::waker;
use crate::app::MusterApp;
use crate::app::deck::DeckTable;
use crate::app::fog::FogWindow;
use crate::app::map_intel::ForcesTable;
use crate::app::seated::{SeatedWindow, Table};
use crate::app::status::Status;
use crate::app::system::Start;
use crate::app::wings::WingsTable;
use crate::systems;
use eframe::egui;
use muster::fog::battle::Battle;
use muster_remote::opening::Arrived;

impl MusterApp {
    /// The remote game's news this frame, and a joining's.
    pub(in crate::app) fn remote_frame(&mut self, changed: &mut bool) {
        let handled = self.system.poll_remote();
        self.take(handled, changed);
        // A seat kept for another machine stays his machine's until the
        // game is hosted again or played here: this laptop never shows his
        // screens or asks his passphrase meanwhile.
        let away = self.system.remote().map(|view| view.away);
        let kept = self.system.kept_seat().or(self.rejoin.host_side());
        self.seating.remote(away.or(kept));
        match self.join.poll() {
            Ok(Some(arrived)) => {
                let (game, rest) = arrived.take();
                let id = match &game {
                    Arriving::Battle(battle) => battle.id().to_string(),
                    Arriving::Forces(game) => game.id().to_string(),
                    Arriving::Wings(game) => game.id().to_string(),
                    Arriving::Deck(game) => game.id().to_string(),
                };
                match game {
                    Arriving::Battle(battle) => self.joined_battle(rest.with(*battle)),
                    Arriving::Forces(game) => self.joined_seated(
                        rest.with(*game),
                        muster::map_intel::files::load,
                        ForcesTable::opened,
                        systems::forces(),
                    ),
                    Arriving::Wings(game) => self.joined_seated(
                        rest.with(*game),
                        muster::map_intel::wings::files::load,
                        WingsTable::opened,
                        systems::wings(),
                    ),
                    Arriving::Deck(game) => self.joined_seated(
                        rest.with(*game),
                        muster::deck::files::load,
                        DeckTable::opened,
                        systems::deck(),
                    ),
                }
                // Kept once its game is open here, to join it again after
                // a restart.
                let joined = self.system.game().is_some_and(|g| g.id() == id);
                if let Some(ticket) = self.join.ticket().filter(|_| joined)
                    && let Some(said) = self.rejoin.keep(&id, &ticket)
                {
                    self.status = Some(said);
                }
            }
            Ok(None) => {}
            Err(why) => self.status = Some(Status::Error(why)),
        }
    }

    /// A battle arrived: opened against this machine's own copy if it
    /// holds one, else as the host's sent it.
    fn joined_battle(&mut self, mut arrived: Arrived<Battle>) {
        let seat = arrived.seat;
        let id = arrived.game.id().to_string();
        if let Some(copy) = self.own_copy(&id, muster::fog::files::load_battle) {
            let (window, said) = FogWindow::rejoined(copy, arrived, &self.start);
            self.joined_again(Box::new(window), systems::fog(), seat, said);
            return;
        }
        let Some(said) = self.checked(&mut arrived) else {
            return;
        };
        let (game, seated) = arrived.split();
        let window = FogWindow::joined(game, seated, &said, &self.start);
        self.replace(Box::new(window), systems::fog(), None, unlock_yours(seat));
    }

    /// What the link said before the game arrived, once the game is
    /// checked as what crossed while this machine was away (`arrived`: a
    /// joiner whose program restarted holds no copy); none if it is
    /// refused, said on the status line.
    fn checked<G: muster::core::remote::Replica>(
        &mut self,
        arrived: &mut Arrived<G>,
    ) -> Option<Vec<muster_remote::Event>> {
        let said = std::mem::take(&mut arrived.said);
        match muster::core::remote::arrived(&mut arrived.game, None, arrived.seat) {
            Ok(()) => Some(said),
            Err(why) => {
                self.status = Some(Status::Error(format!(
                    "The game the host's Muster sent was not opened: {why}"
                )));
                None
            }
        }
    }

    /// A seated system's game arrived (hidden forces, dummy wings):
    /// opened against this machine's own copy if its autosave holds one
    /// (`load`), else as the host's sent it, the host's moves made while
    /// this machine was away checked as they would cross; `open` makes its
    /// window.
    fn joined_seated<T: Table, E>(
        &mut self,
        mut arrived: Arrived<T::Game>,
        load: impl Fn(&std::path::Path) -> Result<T::Game, E>,
        open: fn(T::Game, &Start) -> SeatedWindow<T>,
        kind: &'static systems::System,
    ) where
        T::Game: muster::core::remote::Replica,
        SeatedWindow<T>: crate::app::system::SystemWindow,
    {
        let seat = arrived.seat;
        let id = muster::core::remote::Replica::game_id(&arrived.game).to_string();
        let start = self.start.clone();
        if let Some(copy) = self.own_copy(&id, load) {
            let (window, said) = SeatedWindow::rejoined(copy, arrived, |g| open(g, &start));
            self.joined_again(Box::new(window), kind, seat, said);
            return;
        }
        let Some(said) = self.checked(&mut arrived) else {
            return;
        };
        let (game, seated) = arrived.split();
        let window = SeatedWindow::joined(game, seated, &said, |g| open(g, &start));
        self.replace(Box::new(window), kind, None, unlock_yours(seat));
    }

    /// This machine's own copy of game `id`, arrived by a join, if its
    /// autosave holds one that reads (`load`): the game played from here
    /// before this Muster restarted.
    fn own_copy<G, E>(
        &self,
        id: &str,
        load: impl Fn(&std::path::Path) -> Result<G, E>,
    ) -> Option<G> {
        let dir = self.start.autosave.as_ref()?;
        load(&muster::core::store::Autosaves::new(dir.clone()).path(id)).ok()
    }

    /// A game joined again with this machine's own copy: its window, and
    /// what the comparison of the two said.
    fn joined_again(
        &mut self,
        window: Box<dyn crate::app::system::SystemWindow>,
        kind: &'static systems::System,
        seat: muster::core::side::Side,
        said: Option<Status>,
    ) {
        self.replace(
            window,
            kind,
            None,
            format!("You joined the game as {seat} again, with this machine's own copy of it"),
        );
        if said.is_some() {
            self.status = said;
        }
    }

    /// The invite and join windows, when open.
    pub(in crate::app) fn remote_windows(&mut self, ctx: &egui::Context) {
        if self.invite.open {
            let view = self.system.remote();
            let names = self.system.roster().names;
            let ready = self.system.can_invite();
            let asked = self
                .invite
                .show(ctx, view.as_ref(), &names, &self.start.net, ready);
            if let Some((away, net, relay)) = asked
                && let Err(why) = self.system.invite(away, net, relay, waker(&self.bus))
            {
                self.status = Some(Status::Error(why));
            }
        }
        if self.join.open
            && let Some(said) = self.join.show(ctx, &self.start.net, &self.bus)
        {
            self.status = Some(said);
        }
    }
}

/// What a joiner is told once the game opened.
fn unlock_yours(seat: muster::core::side::Side) -> String {
    format!("You joined the game as {seat}: unlock your side with your passphrase to play")
}
