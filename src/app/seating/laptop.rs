//! The laptop's hand-over screen (docs: the design's "main window"): the
//! shared laptop handed to one player for his private screen, and taken
//! back. Who has the laptop's screen is one state (`Laptop`); a step the
//! sequence brings a player hands it to him by itself, the table asks for
//! what he looks at when he likes, and nothing of his opens before he
//! proves it is he (his passphrase or his hand-over PIN) on the hand-over
//! screen itself.

use super::pass::Kind;
use super::{Outcome, Seating};
use crate::app::bus::{Bus, SeatMsg};
use crate::app::privacy::{self, HandOver};
use crate::app::status::Status;
use eframe::egui;
use muster::core::seat::{Desked, Seated};
use muster::core::side::{Side, Sides};

/// Why the laptop is handed to a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Why {
    /// A step the sequence brings him.
    Due,
    /// The table asked for his screen.
    Request,
    /// A passphrase is asked of him.
    Passphrase,
    /// His seat's code is asked for (a new one, or the one made shown
    /// again): whoever scans it holds his seat, so it shows only after
    /// his proof.
    Code { new: bool },
}

/// Who has the laptop's screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Laptop {
    /// The table, as both players see it.
    #[default]
    Table,
    /// His hand-over screen.
    Handing(Side, Why),
    /// His private screen.
    Holding(Side, Why),
}

impl Laptop {
    /// The player whose seat's code the laptop is handed (or held) for.
    pub(super) fn code_for(self) -> Option<Side> {
        match self {
            Laptop::Handing(side, Why::Code { .. }) | Laptop::Holding(side, Why::Code { .. }) => {
                Some(side)
            }
            _ => None,
        }
    }
}

impl Seating {
    /// Whether the laptop shows (or is about to show) `side`'s private
    /// screen: a step of his, or what the table asked of him.
    pub(super) fn holding(&self, side: Side) -> bool {
        matches!(self.laptop, Laptop::Holding(s, Why::Due | Why::Request) if s == side)
    }

    /// Whether the laptop is handed (or held) for `side`'s private screen:
    /// his proof is asked on the hand-over screen itself.
    pub(super) fn proving(&self, side: Side) -> bool {
        self.holding(side)
            || self.laptop.code_for() == Some(side)
            || matches!(self.laptop, Laptop::Handing(s, Why::Due | Why::Request) if s == side)
    }

    /// The table asks for `side`'s seat's code: shown once he proved it is
    /// he on his hand-over screen, wherever his seat is (he takes it back
    /// from another device so). At once to a player with no proof to give
    /// (no passphrase, or none yet), and in a reopened game he has not
    /// unlocked: nothing of his opens on the phone that scans it before he
    /// unlocks the game there with his passphrase (never typed on the
    /// shared laptop so). Whether it waits for his proof.
    pub(super) fn code_asked<G: Seated>(
        &mut self,
        side: Side,
        new: bool,
        desked: Option<&Desked<'_, G>>,
    ) -> bool {
        let provable = self.seats[side].pin.is_some()
            || desked.is_some_and(|d| {
                d.game.lock_of(side).is_some() && !d.game.locked_seats().contains(&side)
            });
        if provable {
            self.hand(side, Why::Code { new });
        }
        provable
    }

    /// He proved it is he for his seat's code: the table, with his code.
    fn code_proved<G: Seated>(
        &mut self,
        side: Side,
        new: bool,
        desked: Option<&mut Desked<'_, G>>,
    ) {
        self.close(side, desked);
        if !new && self.seats[side].code.is_some() {
            self.showing = Some(side);
            return;
        }
        match self.pair(side) {
            Ok(_) => self.showing = Some(side),
            Err(e) => self.phones.error = Some(e),
        }
    }

    /// The laptop goes to `side` for a private screen: nothing of his opens
    /// before he proves it is he, on the hand-over screen.
    fn hand(&mut self, side: Side, why: Why) {
        self.laptop = Laptop::Handing(side, why);
        self.seats[side].proved = false;
    }

    /// The laptop passed to `side` in a reopened game not yet unlocked:
    /// his unlocking comes first (the step opens with it), or the table is
    /// told who must unlock before anything opens. Whether it was so.
    pub(super) fn unlock_first<G: Seated>(
        &mut self,
        side: Side,
        desked: Option<&Desked<'_, G>>,
        outcome: &mut Outcome,
    ) -> bool {
        let Some(desked) = desked else {
            return false;
        };
        let locked = desked.game.locked_seats();
        if locked.contains(&side) {
            self.seats[side].unlock = true;
        } else if let Some(first) = locked.first() {
            outcome.status = Some(Status::Info(format!(
                "Read-only until {} unlocks the game: nothing of it opens before",
                desked.game.seat_name(*first)
            )));
        }
        !locked.is_empty()
    }

    /// He proved it is he on his hand-over screen: he holds the laptop.
    pub(super) fn taken(&mut self, side: Side) {
        if let Laptop::Handing(s, why) = self.laptop
            && s == side
        {
            self.laptop = Laptop::Holding(side, why);
        }
    }

    /// The table asks for `side`'s private screen.
    pub(super) fn show<G: Seated>(
        &mut self,
        side: Side,
        desked: Option<&Desked<'_, G>>,
        outcome: &mut Outcome,
    ) {
        let life = self.seats[side].life;
        if life.away() {
            outcome.status = Some(Status::Info(format!("{side}'s screen is {}", life.words())));
        } else if !self.unlock_first(side, desked, outcome) && self.laptop == Laptop::Table {
            self.hand(side, Why::Request);
        }
    }

    /// His hand-over screen's button: he has the laptop, and nothing of
    /// his opens before he proves it is he.
    pub(super) fn took<G: Seated>(&mut self, side: Side, desked: Option<&mut Desked<'_, G>>) {
        if let Laptop::Handing(s, why) = self.laptop
            && s == side
        {
            self.laptop = Laptop::Holding(side, why);
            self.seats[side].proved = false;
            if let Some(desked) = desked {
                desked.hold(side, None);
            }
        }
    }

    /// He is done with his private screen (or its hand-over): the table.
    pub(super) fn hide<G: Seated>(&mut self, side: Side, desked: Option<&mut Desked<'_, G>>) {
        match self.laptop {
            Laptop::Holding(s, _) | Laptop::Handing(s, _) if s == side => {
                let seat = &mut self.seats[side];
                seat.unlock = false;
                if let Laptop::Handing(_, Why::Passphrase) = self.laptop {
                    seat.set = None;
                    seat.key = None;
                }
                self.close(side, desked);
            }
            _ => {}
        }
    }

    /// What his passphrase is asked for now, if anything.
    pub(super) fn kind<G: Seated>(
        &self,
        side: Side,
        desked: Option<&Desked<'_, G>>,
    ) -> Option<Kind> {
        let seat = &self.seats[side];
        if let Some(set) = &seat.set {
            return Some(Kind::Set(set.context.clone()));
        }
        if let Some((lock, _)) = &seat.key {
            return Some(Kind::Key(lock.clone()));
        }
        let desked = desked?;
        let game = &*desked.game;
        if game.locked_seats().contains(&side) {
            let asked = seat.life.on_phone() || seat.unlock;
            return asked
                .then(|| game.lock_of(side).map(Kind::Unlock))
                .flatten();
        }
        let needs_key = || game.needs_key(side, desked.at(side, self.place(side)));
        // The laptop's holder proves he is this player, every time.
        if self.proving(side) && !seat.proved {
            if seat.pin.is_some() {
                return Some(Kind::Pin);
            }
            if let Some(lock) = needs_key() {
                return Some(Kind::Open(lock));
            }
            // On his own machine (the other plays from his own Muster)
            // nobody else holds it: a proof alone is not asked again.
            if self.own_machine(side) {
                return None;
            }
            return game.lock_of(side).map(Kind::Prove);
        }
        if seat.life.on_phone() || self.holding(side) {
            return needs_key().map(Kind::Open);
        }
        None
    }

    /// Who has the laptop, as the dues of this frame have it: a seat that
    /// went to a phone takes its screens with it, a screen the table
    /// opened closes once the play moves on to a part that is not his, a
    /// step done closes its screen, and a step the sequence brings a
    /// player hands him the laptop. What the table is told of a screen
    /// that closed by itself.
    pub(super) fn hand_on<G: Seated>(
        &mut self,
        dues: &Sides<Option<String>>,
        mut desked: Option<&mut Desked<'_, G>>,
    ) -> Option<Status> {
        // (Not for his code: he may be taking his seat back from another
        // device.)
        if let Laptop::Handing(side, why) | Laptop::Holding(side, why) = self.laptop
            && self.seats[side].life.away()
            && !matches!(why, Why::Code { .. })
        {
            self.laptop = Laptop::Table;
        }
        let said = self
            .unlocked_again(desked.as_deref_mut())
            .or(self.part_moved_on(desked.as_deref_mut()));
        // A step one player's own screen brought to the other (a phase
        // declared there asks the other whether they interrupt): his screen
        // closes, and the table hands the laptop on below.
        if let Laptop::Holding(side, Why::Request) = self.laptop {
            let other = side.opponent();
            if dues[side].is_none()
                && dues[other].is_some()
                && self.dues[other].is_none()
                && !self.seats[other].life.away()
            {
                self.close(side, desked.as_deref_mut());
            }
        }
        match self.laptop {
            Laptop::Holding(side, Why::Due) if dues[side].is_none() => {
                if desked.as_deref().is_some_and(|d| d.game.stays_open(side)) {
                    self.laptop = Laptop::Holding(side, Why::Request);
                } else {
                    // Done: the table, with nothing secret on it (a "done"
                    // screen would be a click that decides nothing).
                    self.close(side, desked.as_deref_mut());
                }
            }
            Laptop::Holding(side, Why::Passphrase) | Laptop::Handing(side, Why::Passphrase)
                if self.seats[side].pass.kind().is_none() =>
            {
                self.laptop = Laptop::Table;
            }
            // What he was to be handed is done (or undone) meanwhile.
            Laptop::Handing(side, Why::Due) if dues[side].is_none() => {
                self.laptop = Laptop::Table;
            }
            Laptop::Holding(side, Why::Code { new }) if self.seats[side].proved => {
                self.code_proved(side, new, desked.as_deref_mut());
            }
            _ => {}
        }
        // A reopened game is read-only until its players unlock it: no
        // step of it is brought to anyone before.
        let read_only = desked
            .as_deref()
            .is_some_and(|d| !d.game.locked_seats().is_empty());
        if self.laptop == Laptop::Table {
            for side in Side::BOTH {
                let seat = &self.seats[side];
                if seat.life.away() {
                    continue;
                }
                if seat.set.is_some() || seat.key.is_some() || seat.unlock {
                    self.laptop = Laptop::Handing(side, Why::Passphrase);
                    break;
                }
                if let Some(what) = &dues[side]
                    && seat.not_now.as_ref() != Some(what)
                    && !read_only
                {
                    self.hand(side, Why::Due);
                    break;
                }
            }
        }
        said
    }

    /// The game the host's restarted Muster sent in place of this one is
    /// locked again: on his own machine, his side is unlocked with the key
    /// his last unlock gave (a game whose lock or tags it does not fit asks
    /// his passphrase as before, and says why then).
    fn unlocked_again<G: Seated>(&mut self, desked: Option<&mut Desked<'_, G>>) -> Option<Status> {
        // Only a kept key is looked for each frame: the game is asked
        // whether it is locked only then.
        let side = (Side::BOTH.into_iter())
            .find(|s| self.seats[*s].kept.is_some() && self.own_machine(*s))?;
        let desked = desked?;
        if !desked.game.locked_seats().contains(&side) {
            return None;
        }
        let key = self.seats[side].kept.take()?;
        desked.game.unlock_seat(side, &key).ok()?;
        desked.changed();
        self.seats[side].kept = Some(key);
        Some(Status::Info(format!(
            "{} unlocked again with the passphrase typed before: the game goes on as the host's Muster sent it",
            desked.game.seat_name(side)
        )))
    }

    /// A screen the table opened for a player (or its hand-over) closes by
    /// itself once the play moves on to a part he has no share in (his
    /// turn ends, the phase he plays laurels in ends): it never stays open
    /// into the other player's. What the table is told, if it closed.
    fn part_moved_on<G: Seated>(&mut self, desked: Option<&mut Desked<'_, G>>) -> Option<Status> {
        let now = desked.as_deref().and_then(|d| d.game.part());
        let was = std::mem::replace(&mut self.part, now.clone());
        let (Laptop::Holding(side, Why::Request) | Laptop::Handing(side, Why::Request)) =
            self.laptop
        else {
            return None;
        };
        let part = now.filter(|now| was.as_ref() != Some(now) && !now.players[side])?;
        let name = self.pass_name(side, desked.as_deref());
        self.close(side, desked);
        Some(Status::Info(format!(
            "{} screen closed by itself: the play moved on to {}",
            muster::core::text::possessive(&name),
            part.words
        )))
    }

    /// The laptop leaves `side`'s private screen: his key goes from the
    /// desk (the sitting keeps its own), and his refusal with it.
    pub(super) fn close<G: Seated>(&mut self, side: Side, desked: Option<&mut Desked<'_, G>>) {
        self.laptop = Laptop::Table;
        self.seats[side].proved = false;
        if let Some(desked) = desked {
            desked.hold(side, None);
            desked.forget(side);
        }
    }

    /// The full-window screens the seats put over the window: a hand-over
    /// screen, or a passphrase screen. True while one covers it.
    pub fn covering<G: Seated>(
        &mut self,
        ui: &mut egui::Ui,
        bus: &Bus,
        desked: Option<&mut Desked<'_, G>>,
    ) -> bool {
        let desked = desked.as_deref();
        match self.laptop {
            Laptop::Table => false,
            Laptop::Handing(side, why) => {
                let screen = self.hand_over(side, why, desked);
                let name = self.pass_name(side, desked);
                let pass = &mut self.seats[side].pass;
                let form = pass.on_hand_over(&name);
                let mut typed = pass.typed.clone();
                let proof = form.as_ref().map(|form| privacy::Proof {
                    form,
                    side,
                    typed: &mut typed,
                });
                let clicked = privacy::hand_over_screen(ui, &screen, proof);
                if typed != pass.typed {
                    bus.seat(side, SeatMsg::Typed(sent(&typed)));
                }
                match clicked {
                    privacy::Clicked::Button => bus.seat(side, SeatMsg::Took),
                    privacy::Clicked::Proof(reply) => bus.seat(side, SeatMsg::Reply(sent(&reply))),
                    privacy::Clicked::OpenChoice => bus.seat(side, SeatMsg::Declared),
                    privacy::Clicked::Wait => bus.seat(side, SeatMsg::NotNow),
                    privacy::Clicked::Lock => bus.seat(side, SeatMsg::Lock),
                    privacy::Clicked::Back => bus.seat(side, SeatMsg::Hide),
                    privacy::Clicked::Nothing => {}
                }
                true
            }
            Laptop::Holding(side, _) => {
                let name = self.pass_name(side, desked);
                let seat = &mut self.seats[side];
                let Some(screen) = seat.pass.screen(&name) else {
                    return false;
                };
                let mut typed = seat.pass.typed.clone();
                let reply = privacy::passphrase_column(ui, &screen, side, &mut typed);
                if typed != seat.pass.typed {
                    bus.seat(side, SeatMsg::Typed(sent(&typed)));
                }
                if let Some(reply) = reply {
                    bus.seat(side, SeatMsg::Reply(sent(&reply)));
                }
                true
            }
        }
    }

    /// How his passphrase screen calls him.
    pub(super) fn pass_name<G: Seated>(
        &self,
        side: Side,
        desked: Option<&Desked<'_, G>>,
    ) -> String {
        match &self.seats[side].set {
            Some(set) => set.name.clone(),
            None => desked.map_or(side.to_string(), |d| d.game.seat_name(side)),
        }
    }

    /// Whether this machine is `side`'s own: the other player plays from
    /// his own Muster, so nobody else sits at this one.
    pub(super) fn own_machine(&self, side: Side) -> bool {
        self.seats[side.opponent()].life == super::Life::Remote
    }

    /// The hand-over screen to `side`.
    fn hand_over<G: Seated>(
        &self,
        side: Side,
        why: Why,
        desked: Option<&Desked<'_, G>>,
    ) -> HandOver {
        let name = self.pass_name(side, desked);
        let game = desked.map(|d| &*d.game);
        let other = game.map_or(side.opponent().to_string(), |g| {
            g.seat_name(side.opponent())
        });
        let secrets = game.map_or("my screen", |g| g.secrets());
        // In a remote game this machine is his own: nobody to pass it to,
        // nobody to look away.
        let own_machine = self.own_machine(side);
        let looks_away = if own_machine {
            format!(" {other} plays from their own Muster and sees nothing of it.")
        } else {
            format!(" {other} looks away until {name} is done.")
        };
        let mut screen = HandOver {
            title: if own_machine {
                format!("{name}, on your own Muster")
            } else {
                format!("Pass the laptop to {name}")
            },
            text: format!("Only {name} looks:{looks_away}"),
            button: format!("I am {name}: show {secrets}"),
            can_wait: false,
            open_choice: None,
            lock: None,
            // Before a game begins he came from its form, not a table.
            back: Some(
                if game.is_some() {
                    "Cancel: back to the table"
                } else {
                    "Cancel: back to the form"
                }
                .into(),
            ),
        };
        match why {
            Why::Passphrase => {
                screen.text = format!("Only {name} looks while they type their passphrase.");
                screen.button = format!("I am {name}: type my passphrase");
            }
            Why::Due => {
                let what = desked.and_then(|d| self.due(side, d)).unwrap_or_default();
                screen.text = format!("{name} {what} in secret.{looks_away}");
                screen.back = None;
                screen.can_wait = true;
                screen.open_choice = desked.and_then(|d| {
                    d.game
                        .open_choice(side, d.at(side, self.place(side)))
                        .map(|(label, _)| label)
                });
            }
            Why::Code { .. } => {
                let whose = muster_core::text::possessive(&name);
                screen.title = format!("{whose} seat's code: pass the laptop to {name}");
                screen.text = format!(
                    "Whoever scans this code holds {whose} seat on their phone: only {name} may see it. {other} looks away."
                );
                screen.button = format!("I am {name}: show my code");
            }
            Why::Request => {}
        }
        if why != Why::Passphrase {
            let has_lock = game.is_some_and(|g| g.lock_of(side).is_some());
            let whose = muster_core::text::possessive(&name);
            screen.text += &if !has_lock {
                format!(
                    " {name} set no passphrase: their screen opens for whoever holds the laptop."
                )
            } else if own_machine && self.kind(side, desked).is_none() {
                " It opens at once: nobody else plays at this Muster.".to_string()
            } else if self.seats[side].pin.is_some() {
                format!(" {whose} hand-over PIN opens it.")
            } else {
                format!(" {whose} passphrase opens it.")
            };
            if self.seats[side].pin.is_some() {
                screen.lock = Some(format!(
                    "Lock {whose} screens: drop the PIN, ask the passphrase"
                ));
            }
        }
        screen
    }
}

/// A reply or a form as it crosses to the seat: JSON, read there into the
/// screen's own types as a device's would be.
pub(super) fn sent(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).expect("a screen's answer always serializes")
}
