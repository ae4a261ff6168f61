//! Dummy wings played from two machines (docs: "Playing remotely"; the
//! rules reference's "Dummy wings played from two machines"): each machine
//! holds its own player's key only, so each command is decided on the
//! machine of the side whose key it needs (his counters placed, moved and
//! deployed, his line of sight called and his moving Wing flipped, the
//! roll his moving Wing adds to; the stationary side's showing, the step
//! the rules force next), and the other machine follows the entry.
//!
//! The follower cannot decide it again (it cannot open the other's
//! records), so it checks what both players may see: that the entry is
//! one side's move in his part of the game, that every counter it moves,
//! flips, seals or places is his (a moving Wing turned face down by the
//! other side's showing only with the record its owner sealed), that a
//! move ending within 7 hexes of an enemy counter asks about exactly those
//! Wings, that the Wings to place are the roll's, and that every joint die
//! is the one both halves make. The fold checks each event on the state,
//! each record opened against its commitment, and, as each Wing is placed,
//! what its owner said of it before the roll (`claims`).

use super::events::{Event, Pending, Public};
use super::game::{Command, Entry, Game};
use super::spotting;
use muster_core::dice::{AppDice, Roll};
use muster_core::error::{RuleError, refuse};
use muster_core::remote::Replica;
use muster_core::side::Side;

impl Replica for Game {
    type Entry = Entry;

    muster_core::chained_replica!(crate::wings::files);

    fn decide(&self, command: &Command, dice: &mut AppDice) -> Result<Entry, RuleError> {
        Ok(Entry {
            events: self.decided(command, dice)?,
        })
    }

    fn append(&mut self, entry: Entry) -> Result<(), RuleError> {
        self.ledger_mut().append(entry.events)
    }

    fn follow(&mut self, entry: Entry) -> Result<(), RuleError> {
        self.writable()?;
        self.checked(&entry)?;
        self.ledger_mut().append(entry.events)
    }

    fn rolls(entry: &Entry) -> Vec<Roll> {
        entry
            .events
            .iter()
            .flat_map(|e| match e {
                Event::Rolled {
                    moving_roll,
                    stationary_roll,
                    ..
                } => vec![moving_roll.clone(), stationary_roll.clone()],
                _ => Vec::new(),
            })
            .collect()
    }

    fn given_by(&self, command: &Command) -> Option<Side> {
        let public = self.public();
        match command {
            Command::PlaceWing { side, .. } | Command::SetPassphrase { side, .. } => Some(*side),
            Command::Move { id, .. } | Command::Deploy { id, .. } => owner(public, *id),
            Command::Closest { .. }
            | Command::Sight { .. }
            | Command::Roll { .. }
            | Command::Adjust { .. } => moving_side(public),
            Command::Show => shown_side(public),
            Command::EndTurn | Command::EndGame => public.active,
            Command::Begin { .. } => None,
        }
    }

    /// A joiner's entry whose dice were drawn for it: the deployment roll,
    /// made with both machines' dice.
    fn bound(&self, entry: &Entry) -> Option<Command> {
        let app = muster_core::dice::DiceInput::app;
        match entry.events.first()? {
            Event::Rolled { .. } => Some(Command::Roll {
                moving: app(),
                stationary: app(),
            }),
            _ => None,
        }
    }

    fn decided_by(&self, command: &Command) -> Option<Side> {
        match command {
            Command::Show => shown_side(self.public()),
            _ => None,
        }
    }

    fn given_in(&self, entry: &Entry) -> Option<Side> {
        let public = self.public();
        if self.forced().is_some() {
            return shown_side(public);
        }
        match entry.events.first()? {
            Event::Placed { side, .. }
            | Event::LockSet { side, .. }
            | Event::GameOver { by: side } => Some(*side),
            Event::Moved { id, .. }
            | Event::Flipped { id, .. }
            | Event::Deployed { id, .. }
            | Event::Resealed { id, .. } => owner(public, *id),
            Event::ClosestChosen { .. }
            | Event::Sighted { .. }
            | Event::LineClear { .. }
            | Event::Rolled { .. }
            | Event::Adjusted { .. }
            | Event::ToPlace { .. } => moving_side(public),
            // Set-up ends by either player's word.
            Event::TurnBegan { number: 1, .. } => None,
            Event::TurnBegan { .. } => public.active,
            // Never the first of an entry the rules make.
            Event::InRange { .. }
            | Event::Removed { .. }
            | Event::TurnedDown { .. }
            | Event::Claimed { .. } => public.active,
        }
    }

    fn forced_in(&self, _: &Entry) -> bool {
        self.forced().is_some()
    }

    fn decided_in(&self, _: &Entry) -> Option<Side> {
        self.forced().and_then(|_| shown_side(self.public()))
    }

    fn seat_remote(&mut self, side: Side) {
        self.ledger_mut().seat_remote(side);
    }

    fn over(&self) -> bool {
        self.public().over
    }
}

/// The side whose counter `id` is.
fn owner(public: &Public, id: usize) -> Option<Side> {
    public.counter(id).ok().map(|c| c.side)
}

/// The side of the Wing whose move is being settled.
fn moving_side(public: &Public) -> Option<Side> {
    let moving = match public.pending.as_ref()? {
        Pending::Closest { moving, .. }
        | Pending::Sight { moving, .. }
        | Pending::Roll { moving, .. }
        | Pending::Adjust { moving, .. } => *moving,
        Pending::Place { .. } => return None,
    };
    owner(public, moving)
}

/// The side whose Wing is to be shown, its line called clear.
fn shown_side(public: &Public) -> Option<Side> {
    match public.pending.as_ref()? {
        Pending::Sight {
            candidates,
            asked,
            clear: true,
            ..
        } => owner(public, candidates.get(*asked)?.wing),
        _ => None,
    }
}

impl Game {
    /// What the machine that follows an entry checks of it before the fold
    /// (the module's doc).
    fn checked(&self, entry: &Entry) -> Result<(), RuleError> {
        let public = self.public();
        let name = |side: Side| self.setup().name(side);
        muster_core::dice::check_joint(self.id(), &Self::rolls(entry))?;
        let Some(giver) = self.given_in(entry) else {
            return Ok(());
        };
        // Setting one's passphrase is no move; the stationary side's
        // showing and placing are his steps in the other's turn.
        let his_step = matches!(entry.events.first(), Some(Event::LockSet { .. }))
            || matches!(
                public.pending,
                Some(Pending::Sight { clear: true, .. } | Pending::Place { .. })
            );
        if let Some(active) = public.active
            && active != giver
            && !his_step
        {
            return refuse(
                "27.1.2",
                format!(
                    "it is {} turn: {} moves only in their own",
                    muster_core::text::possessive(&name(active)),
                    name(giver)
                ),
            );
        }
        let mut state = public.clone();
        let mut events = entry.events.iter().peekable();
        while let Some(event) = events.next() {
            self.touches(&state, event, giver)?;
            let asked = match events.peek() {
                Some(Event::InRange { candidates, .. }) => Some(candidates.as_slice()),
                _ => None,
            };
            if let Event::Moved { .. } = event {
                self.went(&state, event, asked.is_some())?;
            }
            state.fold(event, self.setup())?;
            if let Event::Moved {
                id,
                hexes,
                dis_hexes,
                ..
            } = event
            {
                let moved = [*hexes, dis_hexes[0], dis_hexes[1]].map(|n| n > 0);
                self.spotted_all(&state, *id, moved, asked)?;
            }
        }
        Ok(())
    }

    /// What a move shows of itself (`before` holds where the counters
    /// stood): each counter went no farther than the hexes it says it
    /// moved, and no farther this turn than its side's fastest unit could
    /// (its own allowance, which its record sets, is checked at the game's
    /// end), and a move that asks nothing ends with the Dis counters
    /// within 2 hexes of their leader (27.1.4, B4a, B4c).
    fn went(&self, before: &Public, moved: &Event, stopped: bool) -> Result<(), RuleError> {
        let Event::Moved {
            id,
            leader,
            dis,
            hexes,
            dis_hexes,
        } = moved
        else {
            return Ok(());
        };
        let counter = before.counter(*id)?;
        let map = &self.setup().battle.map;
        let names = ["", "'s first Dis counter", "'s second Dis counter"];
        let from = [counter.leader, counter.dis[0], counter.dis[1]];
        let to = [*leader, dis[0], dis[1]];
        let said = [*hexes, dis_hexes[0], dis_hexes[1]];
        let so_far = [counter.moved, counter.dis_moved[0], counter.dis_moved[1]];
        let fastest = self.setup().fastest(counter.side);
        for k in 0..3 {
            let measured = map.distance(from[k], to[k]);
            if measured > said[k] {
                return refuse(
                    "27.1.4",
                    format!(
                        "counter {id}{} went from {} to {}, {measured} hexes, in a move it says was {}",
                        names[k], from[k], to[k], said[k]
                    ),
                );
            }
            let total = so_far[k].saturating_add(said[k]);
            if total > fastest {
                return refuse(
                    "27.1.4",
                    format!(
                        "counter {id}{} has moved {total} hexes this turn: no Wing of {} moves more than {fastest}",
                        names[k],
                        self.setup().name(counter.side)
                    ),
                );
            }
        }
        if stopped {
            return Ok(());
        }
        super::placement::check_trail(map, *leader, *dis)
    }

    /// That `event` of `giver`'s entry changes only what is his.
    fn touches(&self, state: &Public, event: &Event, giver: Side) -> Result<(), RuleError> {
        let name = |side: Side| self.setup().name(side);
        let his = |id: usize| owner(state, id) == Some(giver);
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
        let touched = match event {
            Event::Placed { side, .. } | Event::LockSet { side, .. } if *side != giver => {
                return not_his(format!(
                    "{} counters",
                    muster_core::text::possessive(&name(*side))
                ));
            }
            Event::Moved { id, .. }
            | Event::Flipped { id, .. }
            | Event::Removed { id }
            | Event::Adjusted { id, .. }
            | Event::Claimed { id, .. }
            | Event::Resealed { id, .. }
            | Event::Deployed { id, .. } => Some(*id),
            Event::LineClear { moving, .. } => Some(*moving),
            // The other side's showing turns his Wing down only with the
            // record he sealed (the fold checks it is that one).
            Event::TurnedDown { id, .. } => {
                (state.counter(*id).is_ok_and(|c| c.down.is_none())).then_some(*id)
            }
            Event::ToPlace { wings } => {
                let roll = match &state.pending {
                    Some(Pending::Adjust {
                        moving, stationary, ..
                    }) => Some(std::iter::once(moving).chain(stationary).copied()),
                    _ => None,
                };
                let ids = wings.iter().map(|(id, _)| *id);
                if !roll.is_some_and(|roll| roll.eq(ids)) {
                    return refuse("27.2", "the Wings to place are not the roll's");
                }
                None
            }
            _ => None,
        };
        match touched {
            Some(id) if !his(id) => not_his(format!("counter {id}")),
            _ => Ok(()),
        }
    }

    /// A move stops at the first hex it enters within 7 hexes of an enemy
    /// counter and asks about each Wing then within range, and only those
    /// (B4c, B5): a move that asks nothing ends each counter that `moved`
    /// out of range, so none passed an enemy by.
    fn spotted_all(
        &self,
        state: &Public,
        id: usize,
        moved: [bool; 3],
        asked: Option<&[spotting::InRange]>,
    ) -> Result<(), RuleError> {
        let mover = state.counter(id)?;
        let map = &self.setup().battle.map;
        let enemies: Vec<(usize, Vec<crate::map::Hex>)> = (state.counters.iter())
            .filter(|o| o.side != mover.side && o.hidden())
            .map(|o| (o.id, o.hexes()))
            .collect();
        let hexes = mover.hexes();
        let fine = match asked {
            Some(asked) => spotting::in_range(map, &hexes, &enemies) == asked,
            None => (hexes.iter().zip(moved))
                .filter(|(_, moved)| *moved)
                .all(|(hex, _)| spotting::in_range(map, &[*hex], &enemies).is_empty()),
        };
        if !fine {
            return refuse(
                "27.1.6",
                format!(
                    "counter {id}'s move does not stop and ask about the enemy Wings within 7 hexes as the rules have it: an enemy was passed by"
                ),
            );
        }
        Ok(())
    }
}
