//! The seat (DESIGN, "The seat"): what one player sees on their private
//! screen now and what his answers there become, said by each system's
//! engine (boardgame.io's `playerView` and moves). The laptop's hand-over
//! screen, his phone's page and the tests all draw the `Screen` a system
//! gives here and send back the `Reply` it reads here, so every place
//! applies the same rules, the follow-ups the rules force included
//! ([`play`]): `muster script`, the window and the phones alike.
//!
//! A seat keeps what is his alone between two screens on his [`Desk`]:
//! what he entered in its forms, the key his passphrase gave, why his last
//! answer was refused, and what the table asked of him in private.

mod host;
pub mod pin;
pub use host::{Desked, PrintoutJob, SeatHost};

use crate::error::RuleError;
use crate::hexmap::Hex;
use crate::intel::{Lock, PlayerKey, SealKey};
use crate::screen::{Block, Reply, Screen, Values};
use crate::side::Side;

/// What one player keeps of his private screen between two of its
/// frames, wherever it is drawn. Never shown at the table nor saved.
#[derive(Clone, Debug)]
pub struct Desk<R> {
    /// What he entered in the screen's forms so far.
    pub values: Values,
    /// The key his passphrase gave to open and seal his records, held
    /// while his private steps need it.
    pub key: Option<SealKey>,
    /// The key his passphrase itself gave, kept beside `key` while his
    /// phone holds the seat: his private printout checks his tags with it.
    pub player: Option<PlayerKey>,
    /// Why his last answer was refused: shown on his screen alone, since
    /// its words may tell their secret ("the limit is 2" dummies).
    pub refusal: Option<String>,
    /// What the table asked him to do in private, for a system whose
    /// private steps are asked for (an ambush marker to reveal).
    pub asked: Option<R>,
    /// His screen is his own phone: where a ruling differs for a paired
    /// player (Field of Glory seals a march's modifier with it, RULES 10).
    pub on_phone: bool,
}

impl<R> Default for Desk<R> {
    fn default() -> Self {
        Desk {
            values: Values::new(),
            key: None,
            player: None,
            refusal: None,
            asked: None,
            on_phone: false,
        }
    }
}

impl<R> Desk<R> {
    /// What his screen shows first: his last refusal.
    pub fn refused_first(&self, mut screen: Screen) -> Screen {
        if let Some(why) = &self.refusal {
            screen
                .blocks
                .insert(0, Block::Refusal { text: why.clone() });
        }
        screen
    }

    /// Forgets what he entered and why he was refused: the step they
    /// were for is over. His key stays.
    pub fn clear(&mut self) {
        self.values.clear();
        self.refusal = None;
    }
}

/// What an answer asks of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer<C> {
    /// The command to apply, if any (a reveal of nothing applies none).
    pub command: Option<C>,
    /// The form's fields it used up, emptied once it is taken.
    pub spent: &'static [&'static str],
    /// What the table asked of him is done.
    pub done: bool,
}

impl<C> Answer<C> {
    /// A command that uses up none of his form.
    pub fn command(command: C) -> Answer<C> {
        Answer {
            command: Some(command),
            spent: &[],
            done: false,
        }
    }

    /// A command whose form fields `spent` are emptied once it is taken.
    pub fn spending(command: C, spent: &'static [&'static str]) -> Answer<C> {
        Answer {
            command: Some(command),
            spent,
            done: false,
        }
    }
}

/// A game as its seats see it: each system's engine says, for each
/// player, what he sees in private now and what his answers become.
pub trait Seated {
    type Command: Clone + serde::Serialize;
    type Event;
    /// What the table may ask a player to do in private (Field of Glory:
    /// reveal this ambush marker for this reason); `()` where none.
    type Request: Clone + PartialEq;

    /// How the players call `side`'s player ("Decius", "South (Marcus)").
    fn seat_name(&self, side: Side) -> String;

    /// What the table waits for `side` to do on his private screen now
    /// ("places their ambushes"), if anything: their screen is brought to them.
    fn due(&self, side: Side, desk: &Desk<Self::Request>) -> Option<String>;

    /// The lock of `side`'s passphrase, if he set one.
    fn lock_of(&self, side: Side) -> Option<Lock>;

    /// The players who must still unlock a reopened game, each with his
    /// passphrase: until then it is read-only.
    fn locked_seats(&self) -> Vec<Side>;

    /// Unlocks for `side` with the key his passphrase gave: every tag of
    /// his is checked, and the first entry that fails is named.
    fn unlock_seat(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError>;

    /// What a player's private screen holds, as he calls it ("my cards"):
    /// the hand-over screen's button shows it.
    fn secrets(&self) -> &'static str;

    /// A choice of his step that needs no secret, offered on his hand-over
    /// screen so he need not take the screen for it ("South: no
    /// ambushes"): its label and the command their screen would send.
    fn open_choice(
        &self,
        _side: Side,
        _desk: &Desk<Self::Request>,
    ) -> Option<(String, serde_json::Value)> {
        None
    }

    /// What his screen keeps showing once his due step is done, for him to
    /// close himself (the deck's passive player may play laurels in
    /// shooting and combat: the phase decides, never his hand).
    fn stays_open(&self, _side: Side) -> bool {
        false
    }

    /// The lock of his passphrase, when his screen needs his key now and
    /// his desk holds none: he gives his passphrase first.
    fn needs_key(&self, _side: Side, _desk: &Desk<Self::Request>) -> Option<Lock> {
        None
    }

    /// The key his passphrase gave, checked against his tags, for his desk.
    fn seal_key(&self, _side: Side, _key: &PlayerKey) -> Result<SealKey, RuleError> {
        Err(RuleError::new(
            "seat",
            "this game keeps no sealed records on its players' desks",
        ))
    }

    /// Whether the system prints a private page for a player
    /// (`printout`), which his phone then offers him.
    const PRINTOUT: bool = false;

    /// His private printout (Field of Glory's private page, a ledger, his
    /// counters), made with the key his passphrase gave (`None`: he plays
    /// without one): its title and its PDF; `None` for a system that
    /// prints nothing private.
    fn printout(
        &self,
        _side: Side,
        _key: Option<&PlayerKey>,
    ) -> Option<Result<(String, Vec<u8>), RuleError>> {
        None
    }

    /// His private screen now, from what he may see and his desk.
    fn screen(&self, side: Side, desk: &Desk<Self::Request>) -> Screen;

    /// What his answer asks of the game, checked against what his screen
    /// offers him now: a forged or stale answer is refused, in words for
    /// his screen alone.
    fn answer(
        &self,
        side: Side,
        desk: &Desk<Self::Request>,
        reply: &Reply,
    ) -> Result<Answer<Self::Command>, RuleError>;

    /// What his seat does by itself once his desk holds what it needs
    /// (Field of Glory: his march's word on a roll, with his key).
    fn by_itself(&self, _side: Side, _desk: &Desk<Self::Request>) -> Option<Self::Command> {
        None
    }

    /// A hex he tapped on his screen's map, put into his form.
    fn tapped(&self, _side: Side, _values: &mut Values, _hex: Hex) {}

    /// A counter he dragged on his screen's map from `from` through
    /// `path`, put into his form; whether it meant anything.
    fn dragged(&self, _side: Side, _values: &mut Values, _from: Hex, _path: &[Hex]) -> bool {
        false
    }

    /// Applies a command by the rules; its events, or the rule it breaks.
    fn apply(&mut self, command: Self::Command) -> Result<Vec<Self::Event>, RuleError>;

    /// The one command the rules leave now, if any (the last compulsory
    /// piece): applied at once after a player's command.
    fn forced(&self) -> Option<Self::Command> {
        None
    }
}

/// `Seated`'s locks for a game on a chained ledger (`chained_game`): the
/// lock each player set, who must still unlock, and the unlock itself,
/// all the ledger's.
#[macro_export]
macro_rules! ledger_locks {
    () => {
        fn lock_of(&self, side: $crate::side::Side) -> Option<$crate::intel::Lock> {
            $crate::chained_game::OnLedger::record(self)
                .lock(side)
                .ok()
                .cloned()
        }

        fn locked_seats(&self) -> Vec<$crate::side::Side> {
            $crate::chained_game::OnLedger::record(self).locked_sides()
        }

        fn unlock_seat(
            &mut self,
            side: $crate::side::Side,
            key: &$crate::intel::PlayerKey,
        ) -> Result<(), $crate::error::RuleError> {
            self.unlock_key(side, key)
        }
    };
}

/// The most forced commands that may follow one command: each moves the
/// sequence on, so a handful is far more than any rules need.
const MAX_FORCED: usize = 8;

/// Applies `command`, then each command the rules force after it: what
/// the window, the phones and `muster script` all do. The events of all.
pub fn play<G: Seated>(game: &mut G, command: G::Command) -> Result<Vec<G::Event>, RuleError> {
    let mut events = game.apply(command)?;
    for _ in 0..MAX_FORCED {
        let Some(forced) = game.forced() else { break };
        match game.apply(forced) {
            Ok(more) => events.extend(more),
            Err(_) => break,
        }
    }
    Ok(events)
}

/// Applies what `side`'s answer asks: his form keeps what it did not use
/// up, his refusal is his alone. Whether the game changed.
pub fn answer<G: Seated>(
    game: &mut G,
    side: Side,
    desk: &mut Desk<G::Request>,
    reply: &Reply,
) -> Result<bool, String> {
    // What he entered on his device joins what his desk holds (a hex he
    // tapped stays when he ticks a unit).
    desk.values
        .extend(reply.values.iter().map(|(k, v)| (k.clone(), v.clone())));
    let merged = Reply {
        command: reply.command.clone(),
        values: desk.values.clone(),
    };
    let outcome =
        game.answer(side, desk, &merged)
            .and_then(|answer| match answer.command.clone() {
                Some(command) => play(game, command).map(|_| (answer, true)),
                None => Ok((answer, false)),
            });
    match outcome {
        Ok((answer, changed)) => {
            desk.refusal = None;
            for field in answer.spent {
                desk.values.remove(*field);
            }
            if answer.done {
                desk.asked = None;
            }
            Ok(changed)
        }
        Err(e) => {
            let why = e.to_string();
            desk.refusal = Some(why.clone());
            Err(why)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screen::Action;

    /// A counter that must reach 3; the rules force each step after 1.
    struct Count(u32);

    impl Seated for Count {
        type Command = u32;
        type Event = u32;
        type Request = ();
        fn seat_name(&self, side: Side) -> String {
            side.to_string()
        }
        fn due(&self, _: Side, _: &Desk<()>) -> Option<String> {
            None
        }
        fn secrets(&self) -> &'static str {
            "my count"
        }
        fn lock_of(&self, _: Side) -> Option<Lock> {
            None
        }
        fn locked_seats(&self) -> Vec<Side> {
            Vec::new()
        }
        fn unlock_seat(&mut self, _: Side, _: &PlayerKey) -> Result<(), RuleError> {
            Ok(())
        }
        fn screen(&self, _: Side, desk: &Desk<()>) -> Screen {
            desk.refused_first(Screen {
                title: "count".into(),
                blocks: vec![Block::Actions {
                    actions: vec![Action::new("one", &(self.0 + 1))],
                }],
            })
        }
        fn answer(
            &self,
            side: Side,
            desk: &Desk<()>,
            reply: &Reply,
        ) -> Result<Answer<u32>, RuleError> {
            if !self.screen(side, desk).offers(&reply.command) {
                return Err(RuleError::new("test", "not offered"));
            }
            Ok(Answer::spending(
                serde_json::from_value(reply.command.clone()).unwrap(),
                &["note"],
            ))
        }
        fn apply(&mut self, to: u32) -> Result<Vec<u32>, RuleError> {
            if to != self.0 + 1 {
                return Err(RuleError::new("test", format!("{to} is not next")));
            }
            self.0 = to;
            Ok(vec![to])
        }
        fn forced(&self) -> Option<u32> {
            (1..3).contains(&self.0).then_some(self.0 + 1)
        }
    }

    #[test]
    fn a_command_brings_what_the_rules_force_after_it() {
        let mut count = Count(0);
        assert_eq!(play(&mut count, 1).unwrap(), vec![1, 2, 3]);
        assert_eq!(count.0, 3);
        assert!(play(&mut count, 7).is_err());
    }

    #[test]
    fn an_answer_is_checked_against_the_screen_and_its_refusal_stays_on_his_desk() {
        let mut count = Count(0);
        let mut desk = Desk::default();
        let forged = Reply {
            command: serde_json::json!(2),
            values: Values::new(),
        };
        assert_eq!(
            answer(&mut count, Side::South, &mut desk, &forged),
            Err("not offered".to_string())
        );
        assert_eq!(count.0, 0);
        let shown = count.screen(Side::South, &desk);
        assert!(
            matches!(&shown.blocks[0], Block::Refusal { text } if text.contains("not offered"))
        );
        let mut values = Values::new();
        values.insert("note".into(), vec!["x".into()]);
        values.insert("kept".into(), vec!["y".into()]);
        let tapped = Reply {
            command: serde_json::json!(1),
            values,
        };
        assert_eq!(
            answer(&mut count, Side::South, &mut desk, &tapped),
            Ok(true)
        );
        assert_eq!(count.0, 3, "the forced steps followed");
        assert_eq!(desk.refusal, None);
        assert!(!desk.values.contains_key("note") && desk.values.contains_key("kept"));
    }
}
