//! The action-deck game: its setup, the commands players give, the rules
//! that check them (RULES-deck 3-6), and the log they leave.
//!
//! `apply` checks a command against the rules and turns it into events;
//! the events are folded into the public state both see and into the
//! owner's zones, which the running game holds for both players as the
//! dealer does. Only sealed records of the zones' changes are logged: a
//! file opened later shows the counts to anyone and each player's zones to
//! him once he unlocks. With both unlocked, *Open everything* replays every
//! draw, reshuffle and removal against the rules.

use super::cards::{CardSet, Kind};
use super::events::{DrawReason, Event, Hidden, Public, RemoveReason, SEALED_BYTES};
use super::phase::{Letter, PhaseName};
use super::setup::Setup;
use super::turn::{Destination, Stage, Use, may_play_for};
use super::zones::{Zone, Zones};
use muster_core::chained_game::{self, About, Ledger, OnLedger, Rules};
use muster_core::dice::{AppDice, DiceInput, roll};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::trail::Locks;
use muster_core::intel::{Place, PlayerKey, SealKey, Sealed};
use muster_core::side::{Side, Sides};
use serde::{Deserialize, Serialize};
use std::ops::Deref;

/// A card taken from the hand by its id (*choose*), or `"app"`: the top
/// card of the deck, which the app deals (*draw*).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    Hand(String),
    Deck,
}

impl Serialize for Pick {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Pick::Hand(id) => s.serialize_str(id),
            Pick::Deck => s.serialize_str("app"),
        }
    }
}

impl<'de> Deserialize<'de> for Pick {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Pick, D::Error> {
        let text = String::deserialize(d)?;
        Ok(if text == "app" {
            Pick::Deck
        } else {
            Pick::Hand(text)
        })
    }
}

/// What a player asks for. Cards he chooses are given by id; the deck's
/// cards are dealt by the app.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    ChooseFirst {
        active: Side,
    },
    RollFirst {
        south: DiceInput,
        north: DiceInput,
    },
    PlayEvent {
        player: Side,
        card: String,
    },
    /// The active player plays the current phase, or skips it.
    Declare {
        plays: bool,
    },
    /// The passive player's answer at the start of a declared phase:
    /// an interrupt card, or none.
    Interrupt {
        player: Side,
        card: Option<String>,
    },
    Play {
        player: Side,
        card: Pick,
        #[serde(rename = "use")]
        use_: Use,
        #[serde(default)]
        to: Option<Destination>,
    },
    EndPhase,
    /// The active player ends the phase under way and declares the next,
    /// playing or skipping it (RULES-deck 6): what he says in one breath
    /// at the table, one entry of the log (taken back as one).
    EndPhaseThen {
        plays: bool,
    },
    /// The active player's fatigue removal: a card from his hand; `None`
    /// only with an empty hand (the top card of his deck).
    Fatigue {
        card: Option<String>,
    },
    UnitBreaks {
        player: Side,
        cards: Vec<String>,
    },
    RemoveFromHand {
        player: Side,
        card: String,
        reason: String,
    },
    DrawForText {
        player: Side,
        count: usize,
        reason: String,
    },
    Reshuffle {
        player: Side,
    },
    EndTurn,
    /// A player agrees the game is over (the rules leave the end to the
    /// players); after both, *Open everything* (RULES-deck 7).
    GameOver {
        player: Side,
    },
}

/// One log entry: the events of one command.
pub type Entry = chained_game::Entry<Event>;

pub use muster_core::chained_game::genesis;

/// The action deck's public rules as the chained ledger folds them; each
/// player's zones are the game's, opened with his key.
#[derive(Clone, Copy, Debug)]
pub struct ActionDeck;

impl Rules for ActionDeck {
    const FORMAT: &'static str = super::files::FORMAT;
    const SCHEMA: u32 = super::files::SCHEMA;
    const HEADER: &'static str = "the game's header (its id, players and card set)";
    const SEALED_CHECK: &'static str =
        "their sealed draws and removals, replayed by the rules (their hand rebuilt)";
    type Setup = Setup;
    type Event = Event;
    type Public = Public;

    fn about(ledger: &Ledger<Self>) -> About {
        let setup = ledger.setup();
        let seat = |side: Side| {
            let s = &setup.seats[side];
            let army = setup
                .set
                .army(&s.army)
                .map_or(s.army.as_str(), |a| a.name.as_str());
            format!("{} ({army})", s.name)
        };
        About {
            title: setup.set.name.clone(),
            players: format!("{} v {}", seat(Side::South), seat(Side::North)),
            step: match &ledger.public().turn {
                // Issue 39: a finished game read "turn 5, event phase".
                Some(t) if ledger.public().ended() => format!(
                    "action deck, over ({})",
                    t.over_after(&setup.set.phases).to_lowercase()
                ),
                Some(t) => format!(
                    "action deck, turn {}, {} phase",
                    t.number, setup.set.phases[t.phase]
                ),
                None => "action deck, not started".to_string(),
            },
        }
    }

    fn check(setup: &Setup) -> Result<(), RuleError> {
        setup.check()
    }

    fn locks(setup: &Setup) -> &Locks {
        &setup.locks
    }

    fn name(setup: &Setup, side: Side) -> String {
        setup.name(side).to_string()
    }

    fn opening(setup: &Setup) -> Public {
        setup.opening()
    }

    fn fold(public: &mut Public, event: &Event, setup: &Setup) -> Result<(), RuleError> {
        public.fold(&setup.set, event)
    }

    /// No card of a hand is named.
    fn describe(event: &Event, setup: &Setup, _: &Public) -> String {
        super::describe::event(event, setup, None)
    }
}

/// The game: its ledger, and the zones of the players who opened them in
/// this session (the app deals every card).
#[derive(Clone, Debug)]
pub struct Game {
    ledger: Ledger<ActionDeck>,
    zones: Sides<Option<Zones>>,
    dealer: AppDice,
}

impl OnLedger for Game {
    type Rules = ActionDeck;
    fn record(&self) -> &Ledger<ActionDeck> {
        &self.ledger
    }

    /// Players without a passphrase open their zones at once; the others
    /// when they unlock.
    fn from_ledger(ledger: Ledger<ActionDeck>) -> Result<Game, RuleError> {
        let mut game = Game {
            ledger,
            zones: Sides::default(),
            dealer: AppDice::Os,
        };
        for side in Side::BOTH {
            if game.keys()[side].is_some() {
                game.open_zones(side)?;
            }
        }
        Ok(game)
    }
}

/// Everything the ledger keeps is read through the game; only the game's
/// commands change it.
impl Deref for Game {
    type Target = Ledger<ActionDeck>;
    fn deref(&self) -> &Ledger<ActionDeck> {
        &self.ledger
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

impl Game {
    /// A new game. `keys` are the players' keys from their passphrases
    /// (`None`: he plays without one and seals under the unprotected key).
    pub fn new(setup: Setup, keys: Sides<Option<PlayerKey>>) -> Result<Game, RuleError> {
        let ledger: Ledger<ActionDeck> = Ledger::new(setup, &keys)?;
        let deck = |side: Side| Some(Zones::new(ledger.setup().deck(side)));
        Ok(Game {
            zones: Sides {
                south: deck(Side::South),
                north: deck(Side::North),
            },
            ledger,
            dealer: AppDice::Os,
        })
    }

    /// Draws from a fixed seed (scripts and tests only; never saved).
    pub fn use_dealer(&mut self, dealer: AppDice) {
        self.dealer = dealer;
    }

    pub fn set(&self) -> &CardSet {
        &self.setup().set
    }

    /// A player's own zones, if he opened them in this session.
    pub fn zones(&self, side: Side) -> Option<&Zones> {
        self.zones[side].as_ref()
    }

    /// A player's zones to arrange a position in a test (the log no longer
    /// accounts for them).
    #[cfg(test)]
    pub(crate) fn zones_mut_for_tests(&mut self, side: Side) -> &mut Zones {
        self.zones[side].as_mut().expect("open in tests")
    }

    /// A player unlocks a game read from a file: his passphrase must open
    /// his lock and every tag of his must hold; then his zones are rebuilt
    /// from his sealed records, each checked against the rules.
    pub fn unlock(&mut self, side: Side, passphrase: &str) -> Result<(), RuleError> {
        self.ledger.unlock(side, passphrase)?;
        self.open_zones(side)
    }

    /// `unlock` with the key already worked out from the passphrase (the
    /// window derives it on a worker thread): the same checks.
    pub fn unlock_key(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError> {
        self.ledger.unlock_key(side, key)?;
        self.open_zones(side)
    }

    /// Rebuilds `side`'s zones from the log with his sealing key.
    pub(super) fn open_zones(&mut self, side: Side) -> Result<(), RuleError> {
        let zones = replay_zones(self.id(), self.setup(), self.log(), side, self.key(side)?)?;
        self.zones[side] = Some(zones);
        Ok(())
    }

    /// *Open everything*, after the game: with both players' zones open,
    /// every draw, reshuffle and removal has been replayed against the
    /// rules; returns the full log in words, every card named.
    pub fn open_everything(&self) -> Result<Vec<String>, RuleError> {
        if !self.public().ended() {
            return refuse(
                "RULES-deck 7",
                "Everything is opened after the game: both players first agree it is over",
            );
        }
        let keys = Sides {
            south: self.key(Side::South)?,
            north: self.key(Side::North)?,
        };
        for side in Side::BOTH {
            let zones = replay_zones(self.id(), self.setup(), self.log(), side, keys[side])?;
            let in_play = self.in_play_of(side);
            if zones.all(&in_play) != self.setup().deck(side) {
                return refuse(
                    "RULES-deck 2",
                    format!(
                        "{}'s cards do not add up to their deck",
                        self.setup().name(side)
                    ),
                );
            }
        }
        let mut lines = Vec::new();
        for (i, entry) in self.log().iter().enumerate() {
            for (j, event) in entry.events.iter().enumerate() {
                let opened = match event.sealed() {
                    Some((owner, sealed)) => Some(open_hidden(
                        &place(self.id(), owner, i, j),
                        sealed,
                        keys[owner],
                    )?),
                    None => None,
                };
                lines.push(format!(
                    "{}. {}",
                    i + 1,
                    super::describe::event(event, self.setup(), opened.as_deref())
                ));
            }
        }
        Ok(lines)
    }

    fn in_play_of(&self, side: Side) -> Vec<String> {
        self.public()
            .turn
            .iter()
            .flat_map(|t| &t.in_play)
            .filter(|c| c.owner == side)
            .map(|c| c.card.clone())
            .collect()
    }

    /// Checks a command and carries it out: its events are logged and
    /// folded in, or nothing changes and the rule is given.
    pub fn apply(&mut self, command: Command) -> Result<Vec<Event>, RuleError> {
        self.ledger.writable()?;
        let mut work = Work {
            game: self.ledger.id(),
            entry: self.ledger.log().len(),
            setup: self.ledger.setup(),
            public: self.ledger.public().clone(),
            zones: self.zones.clone(),
            keys: self.ledger.keys(),
            dealer: &mut self.dealer,
            events: Vec::new(),
        };
        work.decide(&command)?;
        let Work { zones, events, .. } = work;
        self.ledger.append(events.clone())?;
        self.zones = zones;
        Ok(events)
    }

    /// The last entry, in words, when the active player may take it back:
    /// only his public choices of the turn's course (declaring or skipping
    /// a phase, ending one), never a draw, a play, a removal or the passive
    /// player's answer, since each of those told somebody something.
    pub fn undoable(&self) -> Option<String> {
        let last = self.log().last()?;
        let choice = |e: &Event| matches!(e, Event::Declared { .. } | Event::PhaseEnded { .. });
        if self.writable().is_err() || !last.events.iter().all(choice) {
            return None;
        }
        let words: Vec<String> = last
            .events
            .iter()
            .map(|e| super::describe::event(e, self.setup(), None))
            .collect();
        Some(words.join("; "))
    }

    /// Takes back the last entry when `undoable` allows it.
    pub fn undo(&mut self) -> Result<String, RuleError> {
        let Some(what) = self.undoable() else {
            return refuse(
                "RULES-deck 6",
                "Only declaring, skipping or ending a phase is taken back: a card drawn, played or removed, or an answer about an interrupt, stays",
            );
        };
        self.ledger.pop()?;
        Ok(what)
    }

    /// Whether Edit > Redo has something undone to do again.
    pub fn redoable(&self) -> bool {
        self.ledger.redoable()
    }

    /// Does again what the last undo took back; its words.
    pub fn redo(&mut self) -> Result<String, RuleError> {
        self.ledger.redo()
    }

    /// `side`'s own log: the public log with the cards he drew and
    /// removed named, opened with his key.
    pub fn private_log(&self, side: Side) -> Result<Vec<String>, RuleError> {
        let key = self.key(side)?;
        let mut lines = Vec::new();
        for (i, entry) in self.log().iter().enumerate() {
            for (j, event) in entry.events.iter().enumerate() {
                let opened = match event.sealed() {
                    Some((owner, sealed)) if owner == side => {
                        Some(open_hidden(&place(self.id(), side, i, j), sealed, key)?)
                    }
                    _ => None,
                };
                lines.push(format!(
                    "{}. {}",
                    i + 1,
                    super::describe::event(event, self.setup(), opened.as_deref())
                ));
            }
        }
        Ok(lines)
    }
}

/// Where a draw or removal is sealed: its game, owner, and the event's
/// place in the log (entry and event, from 0).
pub(crate) fn place(game: &str, owner: Side, entry: usize, event: usize) -> Place<'_> {
    Place {
        game,
        owner,
        kind: "cards",
        slot: format!("entry {entry} event {event}"),
    }
}

fn open_hidden(place: &Place, sealed: &Sealed, key: &SealKey) -> Result<Hidden, RuleError> {
    sealed
        .open::<Hidden>(key, place)
        .map(|r| r.secret)
        .map_err(|e| RuleError::new("trust", e.to_string()))
}

/// `side`'s zones rebuilt from the log, each move checked: a card drawn
/// must be in the deck, a reshuffle must find the deck empty, a card
/// removed or played must be where it is taken from.
fn replay_zones(
    game: &str,
    setup: &Setup,
    log: &[Entry],
    side: Side,
    key: &SealKey,
) -> Result<Zones, RuleError> {
    let mut zones = Zones::new(setup.deck(side));
    // The public fold follows the turn: which cards are in play.
    let mut public = setup.opening();
    for (i, entry) in log.iter().enumerate() {
        let at = |e: RuleError| e.in_entry(i);
        for (j, event) in entry.events.iter().enumerate() {
            let opened = match event.sealed() {
                Some((owner, sealed)) if owner == side => {
                    Some(open_hidden(&place(game, side, i, j), sealed, key).map_err(at)?)
                }
                _ => None,
            };
            fold_zones(
                &mut zones,
                side,
                event,
                opened.as_deref(),
                public.turn.as_ref(),
            )
            .map_err(at)?;
            public.fold(&setup.set, event).map_err(at)?;
        }
    }
    Ok(zones)
}

/// Folds one event into `side`'s zones; `opened` is the sealed record of
/// his, opened.
fn fold_zones(
    zones: &mut Zones,
    side: Side,
    event: &Event,
    opened: Option<&[String]>,
    turn: Option<&super::turn::Turn>,
) -> Result<(), RuleError> {
    if !matches!(event, Event::Drew { player, .. } | Event::Reshuffled { player, .. } if *player == side)
    {
        zones.draw_over();
    }
    match event {
        Event::Drew {
            player, count, why, ..
        } if *player == side => {
            let cards = opened.unwrap_or_default();
            if cards.len() != *count {
                return refuse(
                    "RULES-deck 3",
                    format!("a draw of {count} holds {} cards", cards.len()),
                );
            }
            for card in cards {
                zones.take(card, Zone::Deck, Some(Zone::Hand))?;
            }
            // The opening hand is all new: nothing to point out.
            if *why != DrawReason::Opening {
                zones.drew(cards);
            }
        }
        Event::Reshuffled { player, cards } if *player == side => {
            let moved = zones.reshuffle()?;
            if moved != *cards {
                return refuse(
                    "RULES-deck 3",
                    "the reshuffle's count differs from the pile",
                );
            }
        }
        Event::Played {
            player,
            card,
            from,
            to,
            in_play,
            ..
        } if *player == side => {
            zones.take(card, *from, (!*in_play).then(|| to.zone()))?;
        }
        Event::Removed {
            player,
            from,
            count,
            ..
        } if *player == side => {
            let cards = opened.unwrap_or_default();
            if cards.len() != *count {
                return refuse(
                    "RULES-deck 5",
                    format!("a removal of {count} holds {} cards", cards.len()),
                );
            }
            for card in cards {
                zones.take(card, *from, Some(Zone::Removed))?;
            }
        }
        Event::TurnEnded { .. } => {
            zones.turn_ended();
            for c in turn.iter().flat_map(|t| &t.in_play) {
                if c.owner == side {
                    zones.put(&c.card, c.then.zone());
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// A command being decided: a copy of the state that each event is folded
/// into as it is made, so a command's later events see its earlier ones.
struct Work<'a> {
    /// The game's id and the entry being made: where a sealed record goes.
    game: &'a str,
    entry: usize,
    setup: &'a Setup,
    public: Public,
    zones: Sides<Option<Zones>>,
    keys: &'a Sides<Option<SealKey>>,
    dealer: &'a mut AppDice,
    events: Vec<Event>,
}

impl Work<'_> {
    fn name(&self, side: Side) -> &str {
        self.setup.name(side)
    }

    fn set(&self) -> &CardSet {
        &self.setup.set
    }

    fn push(&mut self, event: Event, opened: Option<&[String]>) -> Result<(), RuleError> {
        let turn = self.public.turn.clone();
        for side in Side::BOTH {
            if let Some(zones) = &mut self.zones[side] {
                let mine = opened.filter(|_| event.player() == Some(side));
                fold_zones(zones, side, &event, mine, turn.as_ref())?;
            }
        }
        self.public.fold(&self.setup.set, &event)?;
        self.events.push(event);
        Ok(())
    }

    fn zones(&self, side: Side) -> Result<&Zones, RuleError> {
        self.zones[side].as_ref().ok_or_else(|| {
            RuleError::new(
                "trust",
                format!("{} must unlock their cards first", self.name(side)),
            )
        })
    }

    fn seal(&self, side: Side, cards: &[String]) -> Result<Sealed, RuleError> {
        let key = self.keys[side].as_ref().ok_or_else(|| {
            RuleError::new("trust", format!("{} must unlock first", self.name(side)))
        })?;
        // Sealed for the event pushed next.
        let place = place(self.game, side, self.entry, self.events.len());
        Sealed::seal(&place, &cards.to_vec(), key, SEALED_BYTES)
            .map_err(|e| RuleError::new("trust", e.to_string()))
    }

    fn turn(&self) -> Result<&super::turn::Turn, RuleError> {
        self.public.turn.as_ref().ok_or_else(|| {
            RuleError::new(
                "RULES-deck 6",
                "The game has not started: settle who is active first",
            )
        })
    }

    fn phase(&self) -> Result<PhaseName, RuleError> {
        Ok(self.set().phases[self.turn()?.phase])
    }

    /// Refuses anything while the passive player is being asked.
    fn not_asking(&self) -> Result<(), RuleError> {
        let turn = self.turn()?;
        if turn.stage == Stage::AskingInterrupt {
            return refuse(
                "RULES-deck 6",
                format!(
                    "{} must first say whether they interrupt the {} phase",
                    self.name(turn.passive()),
                    self.phase()?
                ),
            );
        }
        Ok(())
    }

    fn card(&self, id: &str) -> Result<&super::cards::Card, RuleError> {
        self.set()
            .card(id)
            .ok_or_else(|| RuleError::new("RULES-deck 1", format!("No card has the id {id}")))
    }

    /// `id` from `player`'s hand played for its text, in play until the
    /// turn ends, then to `to`.
    fn play_text(&mut self, player: Side, id: &str, to: Destination) -> Result<(), RuleError> {
        self.in_hand(player, id)?;
        self.push(
            Event::Played {
                player,
                card: id.to_string(),
                from: Zone::Hand,
                use_: Use::Text,
                to,
                in_play: true,
            },
            None,
        )
    }

    fn in_hand(&self, side: Side, id: &str) -> Result<(), RuleError> {
        self.card(id)?;
        if !self.zones(side)?.hand.iter().any(|c| c == id) {
            return refuse(
                "RULES-deck 3",
                format!(
                    "{} has no {} in their hand",
                    self.name(side),
                    self.card(id)?.title
                ),
            );
        }
        Ok(())
    }

    /// The status phase begins with its redraw (RULES-deck 3, 6): each
    /// player draws up to his hand, active first. Nobody decides anything
    /// in it, so it follows the phase before at once.
    fn status_begins(&mut self) -> Result<(), RuleError> {
        if self.turn()?.stage != Stage::Redraw {
            return Ok(());
        }
        let active = self.turn()?.active;
        for side in [active, active.opponent()] {
            let hand = self.zones(side)?.hand.len();
            let need = self.hand_size(side).saturating_sub(hand);
            if need > 0 {
                self.draw(side, need, DrawReason::Redraw)?;
            }
        }
        self.push(Event::Redrawn, None)
    }

    /// Draws `count` cards into `side`'s hand, reshuffling exactly when the
    /// deck runs out, stopping when deck and discard pile are both empty.
    fn draw(&mut self, side: Side, count: usize, why: DrawReason) -> Result<(), RuleError> {
        let mut batch: Vec<String> = Vec::new();
        let mut zones = self.zones(side)?.clone();
        let mut left = count;
        while left > 0 {
            if zones.deck.is_empty() {
                self.flush(side, &mut batch, &why)?;
                if zones.discard.is_empty() {
                    self.push(
                        Event::RanOut {
                            player: side,
                            short: left,
                        },
                        None,
                    )?;
                    return Ok(());
                }
                let cards = zones.reshuffle()?;
                self.push(
                    Event::Reshuffled {
                        player: side,
                        cards,
                    },
                    None,
                )?;
            }
            let i = self.dealer.pick(zones.deck.len())?;
            let card = zones.deck[i].clone();
            zones.take(&card, Zone::Deck, Some(Zone::Hand))?;
            batch.push(card);
            left -= 1;
        }
        self.flush(side, &mut batch, &why)
    }

    fn flush(
        &mut self,
        side: Side,
        batch: &mut Vec<String>,
        why: &DrawReason,
    ) -> Result<(), RuleError> {
        if batch.is_empty() {
            return Ok(());
        }
        let cards = std::mem::take(batch);
        let sealed = self.seal(side, &cards)?;
        self.push(
            Event::Drew {
                player: side,
                count: cards.len(),
                why: why.clone(),
                cards: sealed,
            },
            Some(&cards),
        )
    }

    /// The top card of `side`'s deck, reshuffling first if it is empty;
    /// `None` when deck and discard pile are both empty.
    fn top_card(&mut self, side: Side) -> Result<Option<String>, RuleError> {
        let zones = self.zones(side)?;
        if zones.deck.is_empty() {
            if zones.discard.is_empty() {
                return Ok(None);
            }
            let cards = zones.discard.len();
            self.push(
                Event::Reshuffled {
                    player: side,
                    cards,
                },
                None,
            )?;
        }
        let left = self.zones(side)?.deck.len();
        let i = self.dealer.pick(left)?;
        Ok(Some(self.zones(side)?.deck[i].clone()))
    }

    fn hand_size(&self, side: Side) -> usize {
        self.setup.seats[side].hand_size
    }

    fn remove(
        &mut self,
        side: Side,
        from: Zone,
        cards: Vec<String>,
        why: RemoveReason,
    ) -> Result<(), RuleError> {
        let sealed = self.seal(side, &cards)?;
        self.push(
            Event::Removed {
                player: side,
                from,
                count: cards.len(),
                why,
                cards: sealed,
            },
            Some(&cards),
        )
    }

    fn decide(&mut self, command: &Command) -> Result<(), RuleError> {
        match command {
            Command::GameOver { player } => self.push(Event::GameOver { player: *player }, None),
            Command::ChooseFirst { active } => {
                self.not_started()?;
                self.push(
                    Event::FirstPlayer {
                        active: *active,
                        rolls: None,
                    },
                    None,
                )?;
                self.opening_draw()
            }
            Command::RollFirst { south, north } => {
                self.not_started()?;
                let south = roll(
                    south,
                    1,
                    "South's roll for who is active first",
                    self.dealer,
                    vec![],
                )?;
                let north = roll(
                    north,
                    1,
                    "North's roll for who is active first",
                    self.dealer,
                    vec![],
                )?;
                if south.total == north.total {
                    return self.push(Event::FirstRollTied { south, north }, None);
                }
                let active = if south.total > north.total {
                    Side::South
                } else {
                    Side::North
                };
                self.push(
                    Event::FirstPlayer {
                        active,
                        rolls: Some(Sides { south, north }),
                    },
                    None,
                )?;
                self.opening_draw()
            }
            Command::PlayEvent { player, card } => self.play_event(*player, card),
            Command::Declare { plays } => {
                self.not_asking()?;
                let turn = self.turn()?;
                let phase = self.phase()?;
                if turn.stage != Stage::Declaring {
                    return refuse(
                        "RULES-deck 6",
                        format!("The {phase} phase is not waiting to be declared"),
                    );
                }
                self.push(
                    Event::Declared {
                        phase,
                        plays: *plays,
                    },
                    None,
                )?;
                self.status_begins()
            }
            Command::Interrupt { player, card } => self.interrupt(*player, card.as_deref()),
            Command::Play {
                player,
                card,
                use_,
                to,
            } => self.play(*player, card, *use_, *to),
            Command::EndPhase => {
                self.not_asking()?;
                let turn = self.turn()?;
                let phase = self.phase()?;
                match turn.stage {
                    Stage::Events | Stage::Playing => {
                        self.push(Event::PhaseEnded { phase }, None)?;
                        self.status_begins()
                    }
                    Stage::Declaring => refuse(
                        "RULES-deck 6",
                        format!("Declare the {phase} phase or skip it first"),
                    ),
                    Stage::Redraw | Stage::Fatigue => refuse(
                        "RULES-deck 5",
                        "The status phase ends with the fatigue step",
                    ),
                    Stage::AskingInterrupt | Stage::Ending => refuse(
                        "RULES-deck 6",
                        "Every phase of this turn is done: end the turn",
                    ),
                }
            }
            Command::EndPhaseThen { plays } => {
                self.decide(&Command::EndPhase)?;
                self.decide(&Command::Declare { plays: *plays })
            }
            Command::Fatigue { card } => {
                let turn = self.turn()?;
                if turn.stage != Stage::Fatigue {
                    return refuse(
                        "RULES-deck 5",
                        "The fatigue step comes after the redraw in the status phase",
                    );
                }
                let active = turn.active;
                match card {
                    Some(id) => {
                        self.in_hand(active, id)?;
                        self.remove(active, Zone::Hand, vec![id.clone()], RemoveReason::Fatigue)
                    }
                    None => {
                        if !self.zones(active)?.hand.is_empty() {
                            return refuse(
                                "RULES-deck 5",
                                format!(
                                    "{} removes a card of their choice from their hand; the deck's top card only when their hand is empty",
                                    self.name(active)
                                ),
                            );
                        }
                        let cards: Vec<String> = self.top_card(active)?.into_iter().collect();
                        self.remove(active, Zone::Deck, cards, RemoveReason::Fatigue)
                    }
                }
            }
            Command::UnitBreaks { player, cards } => {
                self.turn()?;
                if cards.is_empty() {
                    return refuse("RULES-deck 5", "Say which cards the broken unit costs");
                }
                let mut hand = self.zones(*player)?.clone();
                for id in cards {
                    self.card(id)?;
                    hand.take(id, Zone::Hand, None).map_err(|_| {
                        RuleError::new(
                            "RULES-deck 5",
                            format!(
                                "{} has not that many {} in their hand",
                                self.name(*player),
                                id
                            ),
                        )
                    })?;
                }
                self.remove(*player, Zone::Hand, cards.clone(), RemoveReason::UnitBroke)
            }
            Command::RemoveFromHand {
                player,
                card,
                reason,
            } => {
                self.turn()?;
                if reason.trim().is_empty() {
                    return refuse(
                        "RULES-deck 5",
                        "Give the event or rule that removes the card",
                    );
                }
                self.in_hand(*player, card)?;
                self.remove(
                    *player,
                    Zone::Hand,
                    vec![card.clone()],
                    RemoveReason::Other(reason.trim().to_string()),
                )
            }
            Command::DrawForText {
                player,
                count,
                reason,
            } => {
                self.turn()?;
                if reason.trim().is_empty() {
                    return refuse("RULES-deck 3", "Give the card or rule that lets them draw");
                }
                let hand = self.zones(*player)?.hand.len();
                let size = self.hand_size(*player);
                // Checked: a count typed or read from a file near usize::MAX
                // must not wrap past the hand-size check.
                if *count == 0 || hand.checked_add(*count).is_none_or(|n| n > size) {
                    return refuse(
                        "RULES-deck 3",
                        format!(
                            "{} holds {hand} of {size} cards: drawing {count} would take their hand over its size",
                            self.name(*player)
                        ),
                    );
                }
                self.draw(*player, *count, DrawReason::Text(reason.trim().to_string()))
            }
            Command::Reshuffle { player } => {
                let deck = self.public.counts[*player].deck;
                if deck > 0 {
                    refuse(
                        "RULES-deck 3",
                        format!(
                            "No voluntary reshuffle: {}'s deck still holds {deck} card{}",
                            self.name(*player),
                            plural(deck)
                        ),
                    )
                } else {
                    refuse(
                        "RULES-deck 3",
                        "A reshuffle happens by itself when a card must be drawn from an empty deck, never before",
                    )
                }
            }
            Command::EndTurn => {
                let turn = self.turn()?;
                if turn.stage != Stage::Ending {
                    return refuse(
                        "RULES-deck 6",
                        format!(
                            "The turn ends after its last phase; it is in the {} phase",
                            self.phase()?
                        ),
                    );
                }
                let number = turn.number;
                self.push(Event::TurnEnded { number }, None)
            }
        }
    }

    fn not_started(&self) -> Result<(), RuleError> {
        if self.public.turn.is_some() {
            return refuse("RULES-deck 6", "Who is active first is already settled");
        }
        Ok(())
    }

    fn opening_draw(&mut self) -> Result<(), RuleError> {
        if !self.set().opening_draw {
            return Ok(());
        }
        for side in Side::BOTH {
            let size = self.hand_size(side);
            self.draw(side, size, DrawReason::Opening)?;
        }
        Ok(())
    }

    fn play_event(&mut self, player: Side, id: &str) -> Result<(), RuleError> {
        self.not_asking()?;
        let turn = self.turn()?;
        let card = self.card(id)?;
        if player != turn.active {
            return refuse(
                "RULES-deck 6",
                format!(
                    "Only the active player ({}) plays events",
                    self.name(turn.active)
                ),
            );
        }
        if turn.stage != Stage::Events {
            return refuse(
                "RULES-deck 6",
                format!(
                    "An event is played in the event phase; this is the {} phase",
                    self.phase()?
                ),
            );
        }
        if turn.event_played {
            return refuse(
                "RULES-deck 6",
                "One event per event phase: this turn's event is played",
            );
        }
        if card.kind != Kind::Event {
            return refuse("RULES-deck 6", format!("{} is not an event", card.title));
        }
        let to = if card.trash {
            Destination::Remove
        } else {
            Destination::Discard
        };
        self.play_text(player, id, to)
    }

    fn interrupt(&mut self, player: Side, id: Option<&str>) -> Result<(), RuleError> {
        let turn = self.turn()?.clone();
        if player == turn.active {
            return refuse("RULES-deck 6", "The active player never plays interrupts");
        }
        let phase = self.phase()?;
        let Some(id) = id else {
            if turn.stage != Stage::AskingInterrupt {
                return refuse("RULES-deck 6", "Nobody is asking for an interrupt now");
            }
            return self.push(Event::NoInterrupt { player }, None);
        };
        let card = self.card(id)?;
        if card.kind != Kind::Interrupt {
            return refuse(
                "RULES-deck 6",
                format!("{} is not an interrupt", card.title),
            );
        }
        let letter = card
            .phase
            .expect("an interrupt has its letter (checked at load)");
        let title = card.title.clone();
        let to = if card.trash {
            Destination::Remove
        } else {
            Destination::Discard
        };
        if turn.interrupt_played {
            return refuse(
                "RULES-deck 6",
                "Only one interrupt per turn: this turn's is played",
            );
        }
        if turn.blocked {
            return refuse(
                "RULES-deck 6",
                "No interrupt may be played in a turn whose event forbids them",
            );
        }
        let named = letter.phase();
        if turn.skipped.contains(&named) {
            return refuse(
                "RULES-deck 6",
                format!(
                    "{} declared they skip the {named} phase: no interrupt for it",
                    self.name(turn.active)
                ),
            );
        }
        if turn.stage != Stage::AskingInterrupt {
            return refuse(
                "RULES-deck 6",
                format!(
                    "{title} is played at the start of the {named} phase, before the active player begins it"
                ),
            );
        }
        if phase.letter() != Some(letter) {
            return refuse(
                "RULES-deck 6",
                format!(
                    "{title} interrupts the {named} phase ({letter}); this is the {phase} phase"
                ),
            );
        }
        self.play_text(player, id, to)
    }

    fn play(
        &mut self,
        player: Side,
        pick: &Pick,
        use_: Use,
        to: Option<Destination>,
    ) -> Result<(), RuleError> {
        self.not_asking()?;
        let turn = self.turn()?.clone();
        let phase = self.phase()?;
        if use_ == Use::Text {
            return refuse(
                "RULES-deck 6",
                "A card is played for its text as this turn's event or as an interrupt",
            );
        }
        if turn.stage != Stage::Playing {
            return refuse(
                "RULES-deck 4",
                format!(
                    "Cards are played for laurels or rally in a declared phase under way; this is the {phase} phase"
                ),
            );
        }
        let letter = phase.letter().expect("a phase under way has a letter");
        if !may_play_for(use_, letter, player, turn.active) {
            let why = match (use_, letter) {
                (Use::Rally, _) if letter != Letter::R => {
                    format!("Rally flags are played in the rally phase; this is the {phase} phase")
                }
                (Use::Laurels, Letter::R) => {
                    "Laurels are played in the movement, shooting or combat phase".to_string()
                }
                _ => format!(
                    "Only the active player ({}) plays cards in the {phase} phase",
                    self.name(turn.active)
                ),
            };
            return refuse("RULES-deck 4", why);
        }
        let destination = match (use_, letter) {
            (Use::Rally, _) => {
                let d = if self.set().rally_removes {
                    Destination::Remove
                } else {
                    Destination::Discard
                };
                if to.is_some_and(|t| t != d) {
                    return refuse(
                        "RULES-deck 4",
                        format!("A card played for rally is {} (card set ruling)", d.verb()),
                    );
                }
                d
            }
            (Use::Laurels, Letter::S | Letter::C) => to.ok_or_else(|| {
                RuleError::new(
                    "RULES-deck 4",
                    format!(
                        "Say whether the card played for laurels in {phase} is discarded or removed"
                    ),
                )
            })?,
            _ => {
                if to == Some(Destination::Remove) {
                    return refuse("RULES-deck 4", "Laurels played in movement are discarded");
                }
                Destination::Discard
            }
        };
        let (card, from) = match pick {
            Pick::Hand(id) => {
                self.in_hand(player, id)?;
                (id.clone(), Zone::Hand)
            }
            Pick::Deck => match self.top_card(player)? {
                Some(card) => (card, Zone::Deck),
                None => {
                    return refuse(
                        "RULES-deck 3",
                        format!(
                            "{}'s deck and discard pile are both empty",
                            self.name(player)
                        ),
                    );
                }
            },
        };
        self.push(
            Event::Played {
                player,
                card,
                from,
                use_,
                to: destination,
                in_play: false,
            },
            None,
        )
    }
}
