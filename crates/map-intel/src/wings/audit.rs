//! The audit at a dummy-wings game's end (rules reference: "The game's
//! end" and "Dummy wings played from two machines"; docs: "Playing
//! remotely"). While the game is played from two machines, each holds only
//! the other player's sealed records: it sees that he sealed them, not
//! what they hold. Once the players say the game is over, each machine
//! sends every record of its player's, opened (the Wing and the blinding
//! value of its commitment; no key crosses), and the other checks each
//! against the commitment its own log holds, then what it could not check
//! before: that a record sealed anew (a Wing turned face down, a
//! passphrase set) held what the counter was placed with, that each flip
//! showed what the record held, and that no counter moved further in a
//! turn than what it held allows (B4a, B4b).

use super::events::{Composition, Event, Face};
use super::game::{DummyWings, Game, place};
use muster_core::chained_game::Rules;
use muster_core::intel::{Revealed, Sealed};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One record of a player's, opened by his machine at the game's end.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Opened {
    id: usize,
    seals: u32,
    contents: Revealed<Composition>,
}

/// Each counter's record under each of its seals, with its side.
type Records = BTreeMap<(usize, u32), (Side, Sealed)>;

impl Game {
    /// Every record the log holds: each counter's as it was placed, turned
    /// face down or sealed anew.
    fn records(&self) -> Records {
        let mut seals: BTreeMap<usize, (Side, u32)> = BTreeMap::new();
        let mut records = Records::new();
        for event in self.log().iter().flat_map(|e| &e.events) {
            match event {
                Event::Placed {
                    id, side, sealed, ..
                } => {
                    seals.insert(*id, (*side, 1));
                    records.insert((*id, 1), (*side, sealed.clone()));
                }
                Event::TurnedDown { id, sealed } | Event::Resealed { id, sealed } => {
                    if let Some((side, n)) = seals.get_mut(id) {
                        *n += 1;
                        records.insert((*id, *n), (*side, sealed.clone()));
                    }
                }
                _ => {}
            }
        }
        records
    }

    /// Every record of `side`'s the log holds, opened with his key (held
    /// here only once the game is over): what his machine sends the other.
    pub fn opened_records(&self, side: Side) -> Option<String> {
        let key = self.keys()[side].as_ref().filter(|_| self.public().over)?;
        let opened: Vec<Opened> = (self.records().into_iter())
            .filter(|(_, (s, _))| *s == side)
            .filter_map(|((id, seals), (_, sealed))| {
                let place = place(self.id(), side, id, seals);
                Some(Opened {
                    id,
                    seals,
                    contents: sealed.open(key, &place).ok()?,
                })
            })
            .collect();
        Some(serde_json::to_string(&opened).expect("always serializes"))
    }

    /// What `side`'s records, as his machine opened them (`body`), show
    /// against the rules, in the players' words: nothing when all holds.
    pub fn audit(&self, side: Side, body: &str) -> Vec<String> {
        let name = self.setup().name(side);
        let theirs = muster_core::text::possessive(&name);
        let opened: Vec<Opened> = match serde_json::from_str(body) {
            Ok(opened) => opened,
            Err(e) => {
                return vec![format!(
                    "{theirs} records, sent at the game's end, do not read ({e})"
                )];
            }
        };
        let opened: BTreeMap<(usize, u32), Revealed<Composition>> = (opened.into_iter())
            .map(|o| ((o.id, o.seals), o.contents))
            .collect();
        let mut held = BTreeMap::new();
        let mut found = Vec::new();
        let records = self.records();
        for (&(id, seals), (_, sealed)) in records.iter().filter(|(_, (s, _))| *s == side) {
            let this =
                sealed.held_at_end(opened.get(&(id, seals)), &place(self.id(), side, id, seals));
            match this {
                Ok(c) => {
                    held.insert((id, seals), c);
                }
                Err(why) => found.push(format!(
                    "{theirs} record of counter {id} (its seal {seals}), sent at the game's end, {why}"
                )),
            }
        }
        if !found.is_empty() {
            return found;
        }
        for (&(id, seals), c) in held.iter().filter(|((_, n), _)| *n > 1) {
            if held.get(&(id, 1)) != Some(c) {
                found.push(format!(
                    "{theirs} counter {id} was sealed anew (its seal {seals}) holding another Wing than the one it was placed with"
                ));
            }
        }
        found.extend(self.replayed(side, &theirs, &held));
        found
    }

    /// The log folded again with `side`'s records opened (`held`): each
    /// flip of his against what its record held, and each move against
    /// the allowance it gives.
    fn replayed(
        &self,
        side: Side,
        theirs: &str,
        held: &BTreeMap<(usize, u32), Composition>,
    ) -> Vec<String> {
        let setup = self.setup();
        let mut public = DummyWings::opening(setup);
        let mut found = Vec::new();
        for event in self.log().iter().flat_map(|e| &e.events) {
            // The log was checked when it was read or followed.
            if public.fold(event, setup).is_err() {
                break;
            }
            let (Event::Flipped { id, .. } | Event::Moved { id, .. }) = event else {
                continue;
            };
            let Some(c) = public.counter(*id).ok().filter(|c| c.side == side) else {
                continue;
            };
            let Some(record) = held.get(&(c.id, c.seals)) else {
                continue;
            };
            match event {
                Event::Flipped {
                    face: Some(face), ..
                } if *face != Face::of(record) => found.push(format!(
                    "FALSE FLIP: {theirs} counter {id} was flipped as a real Wing of command rating {}; its record, opened at the game's end, holds {}",
                    face.rating,
                    if record.real {
                        format!("one of rating {}", record.rating)
                    } else {
                        "a dummy".to_string()
                    }
                )),
                Event::Moved { .. } => {
                    let (most, why) = setup.allowance(side, c.kind, record);
                    let moved = c.moved.max(c.dis_moved[0]).max(c.dis_moved[1]);
                    if moved > most {
                        found.push(format!(
                            "{theirs} counter {id} moved {moved} hexes in turn {}, but {why} {most} (B4a): its record, opened at the game's end, shows it",
                            public.turn
                        ));
                    }
                }
                _ => {}
            }
        }
        found
    }
}
