//! The seat (docs: the design's "seat"): what one player sees on his
//! private screen now and what his answers there become, said by each
//! system's engine (boardgame.io's `playerView` and moves). The laptop's
//! hand-over screen, his phone's page, a remote window and the tests all
//! draw the `Screen` a system gives here and send back the `Reply` it reads
//! here, in the system's own types, so every place applies the same rules,
//! the follow-ups the rules force included ([`play`]): `muster script`,
//! the window and the phones alike.
//!
//! A system implements [`Seated`] and nothing else for its seats. A seat
//! keeps what is his alone between two screens on his [`Desk`]: what he
//! entered in its forms, the key his passphrase gave, why his last answer
//! was refused, and what the table asked of him in private. [`Desked`] is
//! a game with its players' desks, the plain struct every place that seats
//! players works through.

mod desked;
pub mod mover;
pub mod pin;
pub use desked::{Desked, PrintoutJob};
pub use mover::{Here, Mover};

use crate::error::RuleError;
use crate::hexmap::Hex;
use crate::intel::{Lock, PlayerKey, SealKey};
use crate::screen::{self, Block, Drag, Form, Reply};
use crate::side::{Side, Sides};

/// A system's screen, in its own types.
pub type Screen<G> = screen::Screen<<G as Seated>::Act, <G as Seated>::Field>;

/// A system's answer, in its own types.
pub type ReplyOf<G> = Reply<<G as Seated>::Act, <G as Seated>::Field>;

/// Where a player's private screen is drawn: on the shared laptop behind
/// its hand-over screen, or on a screen of his own (his phone, his own
/// Muster), always at hand. Some rulings differ (RULES 8.5, 10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Place {
    #[default]
    Laptop,
    Own,
}

/// A stretch of play and who plays in it ("Artagur's turn 3, the event
/// phase": Artagur alone; the shooting phase: both). A private screen open
/// on the shared laptop closes by itself once the play moves on to a part
/// that is not its owner's, so it never stays open into the other
/// player's (DESIGN "The seat").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// How the table says it.
    pub words: String,
    /// Who plays in it.
    pub players: Sides<bool>,
}

impl Part {
    /// A part `side` plays alone.
    pub fn of(side: Side, words: impl Into<String>) -> Part {
        let mut players = Sides::default();
        players[side] = true;
        Part {
            words: words.into(),
            players,
        }
    }

    /// A part both play.
    pub fn both(words: impl Into<String>) -> Part {
        Part {
            words: words.into(),
            players: Sides {
                south: true,
                north: true,
            },
        }
    }
}

/// What one player keeps of his private screen between two of its
/// frames, wherever it is drawn. Never shown at the table nor saved.
pub struct Desk<G: Seated + ?Sized> {
    /// What he entered in the screen's forms so far.
    pub form: Form<G::Field>,
    /// The key his passphrase gave to open and seal his records, held
    /// while his private steps need it.
    pub key: Option<SealKey>,
    /// The key his passphrase itself gave, kept beside `key` while his
    /// own device holds the seat: his private printout checks his tags
    /// with it.
    pub player: Option<PlayerKey>,
    /// Why his last answer was refused: shown on his screen alone, since
    /// its words may tell their secret ("the limit is 2" dummies).
    pub refusal: Option<String>,
    /// What the table asked him to do in private, for a system whose
    /// private steps are asked for (an ambush marker to reveal).
    pub asked: Option<G::Request>,
    /// His screen as last built, while neither the game nor his desk
    /// changed since (`Desked::screen`), and where it was drawn for.
    shown: Option<(Place, Screen<G>)>,
    /// Counts each change of what his screen shows: a device is sent his
    /// screen again only for a new version.
    version: u64,
    /// How many times his screen was built (tests count a tap's work).
    builds: u64,
}

impl<G: Seated + ?Sized> Default for Desk<G> {
    fn default() -> Self {
        Desk {
            form: Form::new(),
            key: None,
            player: None,
            refusal: None,
            asked: None,
            shown: None,
            version: 0,
            builds: 0,
        }
    }
}

impl<G: Seated + ?Sized> Clone for Desk<G> {
    fn clone(&self) -> Self {
        Desk {
            form: self.form.clone(),
            key: self.key.clone(),
            player: self.player.clone(),
            refusal: self.refusal.clone(),
            asked: self.asked.clone(),
            shown: self.shown.clone(),
            version: self.version,
            builds: self.builds,
        }
    }
}

impl<G: Seated + ?Sized> Desk<G> {
    /// What his screen shows first: his last refusal.
    pub fn refused_first(&self, mut screen: Screen<G>) -> Screen<G> {
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
        self.form.clear();
        self.refusal = None;
        self.touch();
    }

    /// What his screen shows may have changed: it is built again when
    /// next asked for, under a new version.
    pub fn touch(&mut self) {
        self.shown = None;
        self.version += 1;
    }

    /// The version of what his screen shows now.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// How many times his screen was built.
    pub fn builds(&self) -> u64 {
        self.builds
    }
}

impl<G: Seated> Desk<G> {
    /// His screen at `place` in `game`, as it and his desk are now: built
    /// once for each change of either, kept until the next (`touch`).
    pub fn screen(&mut self, game: &G, side: Side, place: Place) -> &Screen<G> {
        if self.shown.as_ref().is_none_or(|(at, _)| *at != place) {
            let screen = game.screen(side, Sitting { desk: self, place });
            self.builds += 1;
            self.shown = Some((place, screen));
        }
        &self.shown.as_ref().expect("built above").1
    }
}

/// A player as his engine sees him now: his desk, and where his screen
/// is drawn. Reads as his desk.
pub struct Sitting<'a, G: Seated + ?Sized> {
    pub desk: &'a Desk<G>,
    pub place: Place,
}

impl<G: Seated + ?Sized> Clone for Sitting<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Seated + ?Sized> Copy for Sitting<'_, G> {}

impl<G: Seated + ?Sized> std::ops::Deref for Sitting<'_, G> {
    type Target = Desk<G>;
    fn deref(&self) -> &Desk<G> {
        self.desk
    }
}

impl<'a, G: Seated + ?Sized> Sitting<'a, G> {
    /// A player at the shared laptop.
    pub fn laptop(desk: &'a Desk<G>) -> Self {
        Sitting {
            desk,
            place: Place::Laptop,
        }
    }

    /// Whether his screen is one of his own, always at hand.
    pub fn own_screen(&self) -> bool {
        self.place == Place::Own
    }
}

/// What an answer asks of the game.
pub struct Answer<G: Seated + ?Sized> {
    /// The command to apply, if any (a reveal of nothing applies none).
    pub command: Option<G::Command>,
    /// The form's fields it used up, emptied once it is taken.
    pub spent: &'static [G::Field],
    /// What the table asked of him is done.
    pub done: bool,
}

impl<G: Seated + ?Sized> std::fmt::Debug for Answer<G>
where
    G::Command: std::fmt::Debug,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answer")
            .field("command", &self.command)
            .field("spent", &self.spent)
            .field("done", &self.done)
            .finish()
    }
}

impl<G: Seated + ?Sized> Answer<G> {
    /// A command that uses up none of his form.
    pub fn command(command: G::Command) -> Answer<G> {
        Answer {
            command: Some(command),
            spent: &[],
            done: false,
        }
    }

    /// A command whose form fields `spent` are emptied once it is taken.
    pub fn spending(command: G::Command, spent: &'static [G::Field]) -> Answer<G> {
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
    type Command: Clone + serde::Serialize + std::fmt::Debug;
    type Event;
    /// What the table may ask a player to do in private (Field of Glory:
    /// reveal this ambush marker for this reason); `()` where none.
    type Request: Clone + PartialEq;
    /// What the buttons of its screens answer.
    type Act: screen::Act;
    /// The names of its screens' form fields.
    type Field: screen::FieldName;

    /// How the players call `side`'s player ("Decius", "South (Marcus)").
    fn seat_name(&self, side: Side) -> String;

    /// What the table waits for `side` to do on his private screen now
    /// ("places their ambushes"), if anything: their screen is brought to them.
    fn due(&self, side: Side, at: Sitting<'_, Self>) -> Option<String>;

    /// The lock of `side`'s passphrase, if he set one.
    fn lock_of(&self, side: Side) -> Option<Lock>;

    /// The players who must still unlock a reopened game, each with his
    /// passphrase: until then it is read-only.
    fn locked_seats(&self) -> Vec<Side>;

    /// Unlocks for `side` with the key his passphrase gave: every tag of
    /// his is checked, and the first entry that fails is named.
    fn unlock_seat(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError>;

    /// The command by which `side`, who began without a passphrase, sets
    /// one on his own screen once the game is under way (its key held here
    /// for that command), or why he cannot: by default a passphrase is set
    /// when the game begins.
    fn set_lock(
        &mut self,
        side: Side,
        _lock: Lock,
        _key: PlayerKey,
    ) -> Result<Self::Command, RuleError> {
        Err(RuleError::new(
            "trust",
            format!(
                "{}'s passphrase is set when the game begins",
                self.seat_name(side)
            ),
        ))
    }

    /// What a player's private screen holds, as he calls it ("my cards"):
    /// the hand-over screen's button shows it.
    fn secrets(&self) -> &'static str;

    /// A choice of his step that needs no secret, offered on his hand-over
    /// screen so he need not take the screen for it ("South: no
    /// ambushes"): its label and what his screen would answer.
    fn open_choice(&self, _side: Side, _at: Sitting<'_, Self>) -> Option<(String, Self::Act)> {
        None
    }

    /// What his screen keeps showing once his due step is done, for him to
    /// close himself (the deck's passive player may play laurels in
    /// shooting and combat: the phase decides, never his hand).
    fn stays_open(&self, _side: Side) -> bool {
        false
    }

    /// The part of play under way (a turn, a phase, a step) and who plays
    /// in it; `None` where the game has none now (before it starts, once
    /// it is over). A screen of his that the table opened on the laptop
    /// closes by itself when the play moves on to a part he has no share
    /// in.
    fn part(&self) -> Option<Part> {
        None
    }

    /// The lock of his passphrase, when his screen needs his key now and
    /// his desk holds none: he gives his passphrase first.
    fn needs_key(&self, _side: Side, _at: Sitting<'_, Self>) -> Option<Lock> {
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
    fn screen(&self, side: Side, at: Sitting<'_, Self>) -> Screen<Self>;

    /// What his answer asks of the game, checked against what his screen
    /// offers him now: a forged or stale answer is refused, in words for
    /// his screen alone.
    fn answer(
        &self,
        side: Side,
        at: Sitting<'_, Self>,
        reply: &ReplyOf<Self>,
    ) -> Result<Answer<Self>, RuleError>;

    /// What his seat does by itself once his desk holds what it needs
    /// (Field of Glory: his march's word on a roll, with his key).
    fn by_itself(&self, _side: Side, _at: Sitting<'_, Self>) -> Option<Self::Command> {
        None
    }

    /// A hex he tapped on his screen's map, put into his form.
    fn tapped(&self, _side: Side, _form: &mut Form<Self::Field>, _hex: Hex) {}

    /// A counter he dragged on his screen's map, put into his form;
    /// whether it meant anything.
    fn dragged(&self, _side: Side, _form: &mut Form<Self::Field>, _drag: &Drag) -> bool {
        false
    }

    /// Applies a command by the rules; its events, or the rule it breaks.
    fn apply(&mut self, command: Self::Command) -> Result<Vec<Self::Event>, RuleError>;

    /// The one command the rules leave now, if any (the last compulsory
    /// piece): applied at once after a player's command.
    fn forced(&self) -> Option<Self::Command> {
        None
    }

    /// Puts in the game's log that the rules forced `command` (or his seat
    /// made it by itself) and it failed, `why`: both players read it there,
    /// and the table decides. Only a system that forces commands or acts by
    /// itself can stall, and such a system records it (Field of Glory
    /// does); the others have nothing to record.
    fn stalled(&mut self, _command: &Self::Command, _why: &RuleError) {}
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
pub const MAX_FORCED: usize = 8;

/// Applies `command`, then each command the rules force after it: what
/// the window, the phones and `muster script` all do. The events of all.
///
/// A forced command that fails, or more than `MAX_FORCED` of them, is
/// said, never dropped: the command and what was forced before stay
/// applied (they are the rules' own), the failure goes into the game's
/// log (`Seated::stalled`), and the error comes back as `Stalled`.
pub fn play<G: Seated>(game: &mut G, command: G::Command) -> Result<Vec<G::Event>, Refused<G>> {
    let mut events = game.apply(command).map_err(Refused::Rule)?;
    for _ in 0..MAX_FORCED {
        let Some(forced) = game.forced() else {
            return Ok(events);
        };
        match game.apply(forced.clone()) {
            Ok(more) => events.extend(more),
            Err(e) => {
                let why = RuleError::new(
                    e.rule.clone(),
                    format!(
                        "done, but the step the rules force next fails: {}",
                        e.message
                    ),
                );
                game.stalled(&forced, &why);
                return Err(Refused::Stalled { events, why });
            }
        }
    }
    match game.forced() {
        None => Ok(events),
        Some(forced) => {
            let why = RuleError::new(
                "seat",
                format!(
                    "done, but the rules forced {MAX_FORCED} steps in a row and force \
                     another: Muster stops there (see the log)"
                ),
            );
            game.stalled(&forced, &why);
            Err(Refused::Stalled { events, why })
        }
    }
}

/// Why `play` did not apply all it was asked.
pub enum Refused<G: Seated> {
    /// The command breaks a rule: nothing changed.
    Rule(RuleError),
    /// The command was applied (with `events`), but a command the rules
    /// force after it failed, or they forced too many: the game changed,
    /// and the failure is in its log.
    Stalled {
        events: Vec<G::Event>,
        why: RuleError,
    },
}

impl<G: Seated> Refused<G> {
    /// Whether the game changed all the same.
    pub fn changed(&self) -> bool {
        matches!(self, Refused::Stalled { .. })
    }

    /// The rule broken, or the stall.
    pub fn error(&self) -> &RuleError {
        match self {
            Refused::Rule(e) | Refused::Stalled { why: e, .. } => e,
        }
    }

    /// As a rule's error: what a caller that cannot tell the two apart
    /// (a script) reports.
    pub fn into_error(self) -> RuleError {
        match self {
            Refused::Rule(e) | Refused::Stalled { why: e, .. } => e,
        }
    }
}

impl<G: Seated> std::fmt::Display for Refused<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error().fmt(f)
    }
}

impl<G: Seated> std::fmt::Debug for Refused<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Refused({}, changed: {})", self.error(), self.changed())
    }
}

/// Applies what `side`'s answer asks: his form keeps what it did not use
/// up, his refusal is his alone. Whether the game changed, or why not
/// (with whether it changed all the same: a stall).
pub fn answer<G: Seated>(
    game: &mut G,
    mover: Option<&mut (dyn Mover<G> + '_)>,
    side: Side,
    desk: &mut Desk<G>,
    place: Place,
    reply: &ReplyOf<G>,
) -> Result<bool, (String, bool)> {
    // What he entered on his device joins what his desk holds (a hex he
    // tapped stays when he ticks a unit).
    desk.form
        .extend(reply.values.iter().map(|(k, v)| (*k, v.clone())));
    let merged = Reply {
        command: reply.command.clone(),
        values: desk.form.clone(),
    };
    let at = Sitting { desk, place };
    let outcome = match game.answer(side, at, &merged) {
        Err(e) => Err((e.to_string(), false)),
        Ok(answer) => match answer.command.clone() {
            None => Ok((answer, false)),
            Some(command) => match mover::give(mover, game, command) {
                Ok(changed) => Ok((answer, changed)),
                Err(refused) => Err((refused.to_string(), refused.changed())),
            },
        },
    };
    match outcome {
        Ok((answer, changed)) => {
            desk.refusal = None;
            for field in answer.spent {
                desk.form.remove(field);
            }
            if answer.done {
                desk.asked = None;
            }
            Ok(changed)
        }
        Err((why, changed)) => {
            desk.refusal = Some(why.clone());
            Err((why, changed))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screen::{Action, form};
    use serde::{Deserialize, Serialize};

    /// A counter that must reach `goal`; the rules force each step after
    /// 1, and `broken` is a step they force but refuse. Its log holds the
    /// stalls.
    struct Count {
        at: u32,
        goal: u32,
        broken: Option<u32>,
        log: Vec<String>,
    }

    fn count(goal: u32) -> Count {
        Count {
            at: 0,
            goal,
            broken: None,
            log: Vec::new(),
        }
    }

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Press {
        Step(u32),
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Field {
        Note,
        Kept,
    }

    impl Seated for Count {
        type Command = u32;
        type Event = u32;
        type Request = ();
        type Act = Press;
        type Field = Field;
        fn seat_name(&self, side: Side) -> String {
            side.to_string()
        }
        fn due(&self, _: Side, _: Sitting<'_, Self>) -> Option<String> {
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
        fn screen(&self, _: Side, at: Sitting<'_, Self>) -> Screen<Self> {
            at.refused_first(screen::Screen {
                title: "count".into(),
                blocks: vec![Block::Actions {
                    actions: vec![Action::new("one", Press::Step(self.at + 1))],
                }],
            })
        }
        fn answer(
            &self,
            side: Side,
            at: Sitting<'_, Self>,
            reply: &ReplyOf<Self>,
        ) -> Result<Answer<Self>, RuleError> {
            if !self.screen(side, at).offers(&reply.command) {
                return Err(RuleError::new("test", "not offered"));
            }
            let Press::Step(to) = reply.command;
            Ok(Answer::spending(to, &[Field::Note]))
        }
        fn apply(&mut self, to: u32) -> Result<Vec<u32>, RuleError> {
            if to != self.at + 1 || Some(to) == self.broken {
                return Err(RuleError::new("test", format!("{to} is not next")));
            }
            self.at = to;
            Ok(vec![to])
        }
        fn forced(&self) -> Option<u32> {
            (1..self.goal).contains(&self.at).then_some(self.at + 1)
        }
        fn stalled(&mut self, command: &u32, why: &RuleError) {
            self.log.push(format!("{command}: {why}"));
        }
    }

    #[test]
    fn a_command_brings_what_the_rules_force_after_it() {
        let mut c = count(3);
        assert_eq!(play(&mut c, 1).unwrap(), vec![1, 2, 3]);
        assert_eq!(c.at, 3);
        let refused = play(&mut c, 7).unwrap_err();
        assert!(!refused.changed() && c.log.is_empty());
    }

    /// A forced step that fails is said and logged, never dropped; what
    /// was applied before it stays.
    #[test]
    fn a_forced_step_that_fails_is_an_error_the_log_records() {
        let mut c = count(5);
        c.broken = Some(3);
        let refused = play(&mut c, 1).unwrap_err();
        assert!(refused.changed());
        let Refused::Stalled { events, why } = &refused else {
            panic!("{refused:?}")
        };
        assert_eq!(events, &vec![1, 2]);
        assert!(why.message.contains("3 is not next"), "{why}");
        assert_eq!(c.at, 2);
        assert_eq!(c.log.len(), 1);
        assert!(c.log[0].starts_with("3: "), "{:?}", c.log);
    }

    /// More forced steps than the cap: said and logged, not cut short in
    /// silence.
    #[test]
    fn a_chain_of_forced_steps_longer_than_the_cap_is_an_error_the_log_records() {
        let mut c = count(100);
        let refused = play(&mut c, 1).unwrap_err();
        assert!(refused.changed());
        assert_eq!(c.at as usize, 1 + MAX_FORCED);
        assert!(refused.to_string().contains("in a row"), "{refused}");
        assert_eq!(c.log.len(), 1);
        let mut c = count(1 + MAX_FORCED as u32);
        assert!(play(&mut c, 1).is_ok(), "exactly the cap is fine");
    }

    #[test]
    fn an_answer_is_checked_against_the_screen_and_its_refusal_stays_on_his_desk() {
        let mut c = count(3);
        let mut desk = Desk::default();
        let forged = Reply::button(Press::Step(2));
        assert_eq!(
            answer(&mut c, None, Side::South, &mut desk, Place::Laptop, &forged),
            Err(("not offered".to_string(), false))
        );
        assert_eq!(c.at, 0);
        let shown = c.screen(Side::South, Sitting::laptop(&desk));
        assert!(
            matches!(&shown.blocks[0], Block::Refusal { text } if text.contains("not offered"))
        );
        let tapped = Reply {
            command: Press::Step(1),
            values: form(&[(Field::Note, &["x"]), (Field::Kept, &["y"])]),
        };
        assert_eq!(
            answer(&mut c, None, Side::South, &mut desk, Place::Laptop, &tapped),
            Ok(true)
        );
        assert_eq!(c.at, 3, "the forced steps followed");
        assert_eq!(desk.refusal, None);
        assert!(!desk.form.contains_key(&Field::Note) && desk.form.contains_key(&Field::Kept));
    }
}
