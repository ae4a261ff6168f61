//! Hidden forces played from two machines (docs: "Playing remotely"; the
//! rules reference's "Reveals decided by their owner"): each machine holds
//! its own player's key only, so each command is decided on the machine of
//! the side whose key it needs (his own moves, his steps owed), and the
//! other machine follows the entry.
//!
//! The follower cannot decide it again (it cannot seal or open the other's
//! records), so it checks what both players may see: that the entry is one
//! side's move in his part of the game (his turn, or the step he owes),
//! that every counter it changes, seals or reveals is his and every record
//! it seals is sealed by him, that a counter going face down may (A1, A3,
//! A5); the fold then checks each event on the state and every reveal
//! against its commitment. What only his key shows (every unit in one
//! place, each word on what a counter holds) is checked with his key: his
//! own machine's unlock, and the other's at the game's end.

use crate::events::{Contents, Event, Holder};
use crate::game::{Command, Entry, Game, place};
use muster_core::dice::{AppDice, Roll};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::Revealed;
use muster_core::remote::Replica;
use muster_core::side::Side;
use serde::{Deserialize, Serialize};

impl Replica for Game {
    type Entry = Entry;

    muster_core::chained_replica!(crate::files);

    fn decide(&self, command: &Command, _dice: &mut AppDice) -> Result<Entry, RuleError> {
        // Hidden forces rolls no die.
        let (events, _) = self.decided(command)?;
        Ok(Entry { events })
    }

    fn append(&mut self, entry: Entry) -> Result<(), RuleError> {
        self.ledger_mut().append(entry.events)
    }

    fn follow(&mut self, entry: Entry) -> Result<(), RuleError> {
        self.writable()?;
        self.checked(&entry)?;
        self.ledger_mut().append(entry.events)
    }

    fn rolls(_: &Entry) -> Vec<Roll> {
        Vec::new()
    }

    fn given_by(&self, command: &Command) -> Option<Side> {
        let owner = |id: &usize| self.public().holder(*id).ok().map(|h| h.side);
        match command {
            Command::Transfer { side, .. }
            | Command::SetPassphrase { side, .. }
            | Command::PlaceExercitus { side, .. }
            | Command::DeclineReplace { side, .. } => Some(*side),
            Command::SpendAgent { by, .. } => Some(*by),
            Command::Move { id, .. }
            | Command::ToExercitus { id, .. }
            | Command::TurnDown { id }
            | Command::Reveal { id } => owner(id),
            Command::Disclose => self.public().owed.as_ref().map(|o| o.side()),
            Command::Combat { .. } | Command::EndTurn | Command::EndGame => self.public().active,
            Command::Begin { .. } => None,
        }
    }

    fn decided_by(&self, command: &Command) -> Option<Side> {
        match command {
            Command::Disclose => self.public().owed.as_ref().map(|o| o.side()),
            _ => None,
        }
    }

    fn given_in(&self, entry: &Entry) -> Option<Side> {
        let public = self.public();
        if let Some(owed) = &public.owed {
            return Some(owed.side());
        }
        let owner = |id: &usize| public.holder(*id).ok().map(|h| h.side);
        match entry.events.first()? {
            Event::Created { side, .. }
            | Event::LockSet { side, .. }
            | Event::MayReplace { side, .. }
            | Event::ReplaceDeclined { side, .. }
            | Event::Answered { side, .. } => Some(*side),
            Event::AgentSpent { by } | Event::Examined { by, .. } | Event::GameOver { by } => {
                Some(*by)
            }
            Event::Changed { id, .. }
            | Event::Moved { id, .. }
            | Event::Placed { id, .. }
            | Event::Removed { id, .. }
            | Event::Revealed { id, .. }
            | Event::TurnedDown { id, .. } => owner(id),
            // Set-up ends by either player's word.
            Event::TurnBegan { number: 1, .. } => None,
            Event::Combat { .. } | Event::TurnBegan { .. } => public.active,
            Event::Owed { owed } => Some(owed.side().opponent()),
        }
    }

    fn forced_in(&self, _: &Entry) -> bool {
        self.public().owed.is_some()
    }

    fn decided_in(&self, _: &Entry) -> Option<Side> {
        self.public().owed.as_ref().map(|o| o.side())
    }

    fn seat_remote(&mut self, side: Side) {
        self.ledger_mut().seat_remote(side);
    }

    fn over(&self) -> bool {
        self.public().over
    }

    /// What an Agent of the other side found in `me`'s holding areas (A2a),
    /// each opened with its blinding value, while it still holds: shown to
    /// the examiner alone.
    fn private_after(&self, me: Side, n: usize) -> Option<String> {
        let key = self.keys()[me].as_ref()?;
        let shown: Vec<Shown> = self
            .log()
            .get(n)?
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Examined { by, id } if *by != me => {
                    let h = self.public().holder(*id).ok()?;
                    // Still what he saw: not sealed anew since.
                    self.public().examined_by(*by, h).then_some(h)
                }
                _ => None,
            })
            .filter(|h| h.side == me)
            .filter_map(|h| match &h.contents {
                Contents::Sealed(sealed) => Some(Shown {
                    id: h.id,
                    seals: h.seals,
                    contents: sealed
                        .open(key, &place(self.id(), me, h.id, h.seals))
                        .ok()?,
                }),
                Contents::Open(_) => None,
            })
            .collect();
        (!shown.is_empty()).then(|| serde_json::to_string(&shown).expect("always serializes"))
    }

    /// What the other player's machine showed of his holders this player's
    /// Agent examined: each checked against the record the log holds, then
    /// kept for this session's screens.
    fn take_private(&mut self, n: usize, body: &str) -> Result<(), RuleError> {
        let shown: Vec<Shown> = serde_json::from_str(body)
            .map_err(|e| RuleError::new("A2a", format!("it does not read ({e})")))?;
        let examined: Vec<(Side, usize)> = self
            .log()
            .get(n)
            .map(|e| {
                e.events
                    .iter()
                    .filter_map(|e| match e {
                        Event::Examined { by, id } => Some((*by, *id)),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        for s in shown {
            let h = self.public().holder(s.id)?.clone();
            let asked = examined
                .iter()
                .any(|(by, id)| *id == s.id && self.public().examined_by(*by, &h));
            let Contents::Sealed(sealed) = &h.contents else {
                return refuse("A2a", format!("counter {} is face up", s.id));
            };
            if !asked || s.seals != h.seals {
                return refuse(
                    "A2a",
                    format!("counter {} was not examined in that entry", s.id),
                );
            }
            sealed
                .check(&s.contents)
                .map_err(|e| RuleError::new("A2a", format!("counter {}: {e}", s.id)))?;
            self.keep_shown(s.id, s.seals, sealed, s.contents.secret);
        }
        Ok(())
    }
}

/// A holding area's record opened for the other player's Agent (A2a).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Shown {
    id: usize,
    seals: u32,
    contents: Revealed<Vec<String>>,
}

impl Game {
    /// What the machine that follows an entry checks of it before the fold
    /// (the module's doc): whose move it is, and that it touches and seals
    /// only what is his.
    fn checked(&self, entry: &Entry) -> Result<(), RuleError> {
        let public = self.public();
        let name = |side: Side| self.setup().name(side);
        let Some(giver) = self.given_in(entry) else {
            return Ok(());
        };
        // Setting one's passphrase is no move: it waits for no turn.
        let move_of_his = !matches!(entry.events.first(), Some(Event::LockSet { .. }));
        if public.owed.is_none() && move_of_his {
            // The owner of an empty Exercitus just revealed places it or
            // declines at once, in either player's turn (A4 ruling).
            match public.may_replace.first() {
                Some((who, number)) if *who != giver => {
                    return refuse(
                        "A4",
                        format!(
                            "{} first places their empty Exercitus {number}, or declines",
                            name(*who)
                        ),
                    );
                }
                Some(_) => return self.checked_touches(entry, giver),
                None => {}
            }
            if let Some(active) = public.active
                && active != giver
            {
                return refuse(
                    "map-intel 0",
                    format!(
                        "it is {} turn: {} moves only in their own",
                        muster_core::text::possessive(&name(active)),
                        name(giver)
                    ),
                );
            }
        }
        self.checked_touches(entry, giver)
    }

    /// That an entry of `giver`'s touches and seals only what is his, and
    /// turns face down only what may go.
    fn checked_touches(&self, entry: &Entry, giver: Side) -> Result<(), RuleError> {
        let public = self.public();
        let name = |side: Side| self.setup().name(side);
        let not_his = |what: String| {
            refuse(
                "map-intel 0",
                format!(
                    "{} decided on {} machine changes {what}, which is not theirs",
                    name(giver),
                    muster_core::text::possessive(&name(giver))
                ),
            )
        };
        // Counters the entry makes are numbered after those there now.
        let made: Vec<usize> = entry
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Created { id, side, .. } if *side == giver => Some(*id),
                _ => None,
            })
            .collect();
        let his =
            |id: usize| made.contains(&id) || public.holder(id).is_ok_and(|h| h.side == giver);
        for event in &entry.events {
            let (touched, sealed) = touches(event);
            if let Some(id) = touched.filter(|id| !his(*id)) {
                return not_his(format!("counter {id}"));
            }
            if let Event::Created { side, .. } = event
                && *side != giver
            {
                return not_his(format!(
                    "{} counters",
                    muster_core::text::possessive(&name(*side))
                ));
            }
            if let Some(owner) = sealed.filter(|owner| *owner != giver) {
                return not_his(format!(
                    "a record sealed as {}",
                    muster_core::text::possessive(&name(owner))
                ));
            }
            if let Event::TurnedDown { id, .. } = event {
                let h: &Holder = public.holder(*id)?;
                crate::game::may_turn_down(self.setup(), public, h)?;
            }
        }
        Ok(())
    }
}

/// The counter an event changes, seals or reveals, if any, and the side a
/// record it seals is sealed by.
fn touches(event: &Event) -> (Option<usize>, Option<Side>) {
    let sealed = |c: &Contents| match c {
        Contents::Sealed(s) => Some(s.owner),
        Contents::Open(_) => None,
    };
    match event {
        Event::Created { id, contents, .. } | Event::Changed { id, contents } => {
            (Some(*id), sealed(contents))
        }
        Event::Placed { id, contents, .. } | Event::TurnedDown { id, contents } => {
            (Some(*id), Some(contents.owner))
        }
        Event::Moved { id, .. } | Event::Removed { id, .. } | Event::Revealed { id, .. } => {
            (Some(*id), None)
        }
        _ => (None, None),
    }
}
