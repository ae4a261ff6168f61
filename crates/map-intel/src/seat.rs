//! The map systems' seats (RULES-map-intel 0, A1-A5, B2-B4): each player's
//! private screen is his own counters, built from his own view: hidden
//! forces' ledger (what each counter and holding area holds, and the
//! regrouping form), dummy wings' counters (what each leader stands for,
//! its allowance, the set-up or move form). He looks at it when he likes:
//! nothing waits on it. A hex he taps goes into its form (dummy wings: the
//! next hex field, or the path he traces; a counter he drags traces that
//! counter's path, B4 ruling c); an answer becomes a command only as his
//! own, which the rules check.

use super::events::Event;
use super::game::{Command, Game};
use super::map::Hex;
use super::screens;
use screens::{Form, LedgerField};

/// The heading of a map system's private screen: where the game is and
/// what is asked of `side`, in the system's words for set-up, his turn
/// and the other's.
pub fn whose_turn<A, F>(
    active: Option<muster_core::side::Side>,
    turn: u32,
    side: muster_core::side::Side,
    name: impl Fn(muster_core::side::Side) -> String,
    [set_up, yours, theirs]: [&str; 3],
) -> muster_core::screen::Block<A, F> {
    let text = match active {
        None => format!("Set-up: {set_up}"),
        Some(active) if active == side => format!("Your turn {turn}: {yours}"),
        Some(active) => format!(
            "{} turn {turn}: {theirs}",
            muster_core::text::possessive(&name(active))
        ),
    };
    muster_core::screen::Block::Heading { text }
}

/// A map system's seat: its game, what the screen is called, the screen
/// from his view and his form, the command his answer makes and the form's
/// fields it spends, and how a tapped hex and a drag fill the form.
macro_rules! counters_seat {
    (
        $game:ty, $event:ty, $command:ty, $act:ty, $field:ty, $secrets:literal,
        screen: $screen:expr,
        answer: $answer:expr,
        spent: $spent:expr,
        tapped: $tapped:expr,
        dragged: $dragged:expr,
        printout: $printout:expr,
        forced: $forced:expr
        $(, set_lock: $set_lock:expr)? $(,)?
    ) => {
        impl muster_core::seat::Seated for $game {
            type Command = $command;
            type Event = $event;
            type Request = ();
            type Act = $act;
            type Field = $field;

            fn seat_name(&self, side: muster_core::side::Side) -> String {
                self.setup().name(side)
            }

            fn due(
                &self,
                _side: muster_core::side::Side,
                _at: muster_core::seat::Sitting<'_, Self>,
            ) -> Option<String> {
                None
            }

            muster_core::ledger_locks!();

            fn secrets(&self) -> &'static str {
                $secrets
            }

            /// The set-up is both players'; then each turn is its active
            /// player's alone (RULES-map-intel 0).
            fn part(&self) -> Option<muster_core::seat::Part> {
                let public = self.public();
                Some(match public.active {
                    None => muster_core::seat::Part::both("the set-up"),
                    Some(active) => muster_core::seat::Part::of(
                        active,
                        format!(
                            "{} turn {}",
                            muster_core::text::possessive(&self.seat_name(active)),
                            public.turn
                        ),
                    ),
                })
            }

            fn screen(
                &self,
                side: muster_core::side::Side,
                at: muster_core::seat::Sitting<'_, Self>,
            ) -> muster_core::seat::Screen<Self> {
                at.refused_first($screen(self, side, &at.form))
            }

            fn answer(
                &self,
                side: muster_core::side::Side,
                _at: muster_core::seat::Sitting<'_, Self>,
                reply: &muster_core::seat::ReplyOf<Self>,
            ) -> Result<muster_core::seat::Answer<Self>, muster_core::error::RuleError> {
                $answer(self, side, reply).map(|c| muster_core::seat::Answer::spending(c, $spent))
            }

            fn tapped(
                &self,
                _side: muster_core::side::Side,
                values: &mut muster_core::screen::Form<$field>,
                hex: muster_core::hexmap::Hex,
            ) {
                $tapped(self, values, hex)
            }

            fn dragged(
                &self,
                side: muster_core::side::Side,
                values: &mut muster_core::screen::Form<$field>,
                drag: &muster_core::screen::Drag,
            ) -> bool {
                $dragged(self, side, values, drag)
            }

            const PRINTOUT: bool = true;

            fn printout(
                &self,
                side: muster_core::side::Side,
                key: Option<&muster_core::intel::PlayerKey>,
            ) -> Option<Result<(String, Vec<u8>), muster_core::error::RuleError>> {
                Some($printout(self, side, key))
            }

            fn apply(
                &mut self,
                command: $command,
            ) -> Result<Vec<$event>, muster_core::error::RuleError> {
                <$game>::apply(self, command)
            }

            fn forced(&self) -> Option<$command> {
                $forced(self)
            }

            $(
                fn set_lock(
                    &mut self,
                    side: muster_core::side::Side,
                    lock: muster_core::intel::Lock,
                    key: muster_core::intel::PlayerKey,
                ) -> Result<$command, muster_core::error::RuleError> {
                    $set_lock(self, side, lock, key)
                }
            )?
        }
    };
}

pub(crate) use counters_seat;

counters_seat!(
    Game, Event, Command, screens::LedgerAct, LedgerField, "my ledger",
    screen: |game: &Game, side, values| screens::ledger(game, &game.view(side), side, values),
    answer: screens::answer,
    // The units moved are no longer where they were ticked; a move
    // dragged is made; the hex is where they went, not where the next go
    // (issue 39: a set-up hex stayed into later turns, and a new force
    // went there unasked).
    spent: &[LedgerField::Units, LedgerField::Drag, LedgerField::Hex],
    tapped: |_: &Game, values: &mut Form, hex: Hex| {
        values.insert(LedgerField::Hex, vec![hex.to_string()]);
    },
    dragged: screens::dragged,
    printout: |game: &Game, side, key: Option<&muster_core::intel::PlayerKey>| {
        crate::export::ledger_pdf(game, side, key.into(), muster_core::pdf::Paper::A4)
            .map(|pdf| (crate::export::ledger_title(game, side), pdf))
    },
    // An entry answered, a reveal: decided at once by the key that owes it.
    forced: |game: &Game| game.public().owed.as_ref().map(|_| Command::Disclose),
    // A player who began without a passphrase sets his on his own machine.
    set_lock: |game: &mut Game, side, lock, key| {
        game.ledger_mut().prepare_lock(side, key)?;
        Ok(Command::SetPassphrase { side, lock })
    },
);
