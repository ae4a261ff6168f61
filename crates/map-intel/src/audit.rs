//! The audit at the game's end (rules reference: "The game's end"; docs:
//! "Playing remotely"). While a game is played from two machines, each
//! holds only the other player's sealed records: it sees that he sealed
//! them, not what they hold. Once the players say the game is over, each
//! machine sends every record of its player's, opened (its units and the
//! blinding value of its commitment; no key crosses), and the other checks
//! each against the commitment its own log holds, then what it could not
//! check before: every unit of his in exactly one place after every entry
//! (a regrouping a changed program made that lost or copied a unit), and
//! each word he gave on what his counters held that no reveal ever checked
//! (A2c).

use crate::conservation::{check_records_with, touched};
use crate::events::{Contents, Holder};
use crate::game::{Game, HiddenForces, place};
use crate::owed::Claim;
use muster_core::chained_game::Rules;
use muster_core::error::RuleError;
use muster_core::intel::Revealed;
use muster_core::side::Side;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One record of a player's, opened by his machine at the game's end.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Opened {
    id: usize,
    seals: u32,
    contents: Revealed<Vec<String>>,
}

/// Each holder's contents under each of its seals, with its side: the
/// record sealed then, or the units shown face up.
type Records = BTreeMap<(usize, u32), (Side, Contents)>;

impl Game {
    /// Every record of `side`'s the log holds, opened with his key (held
    /// here only once the game is over): what his machine sends the other.
    pub fn opened_records(&self, side: Side) -> Option<String> {
        let key = self.keys()[side].as_ref().filter(|_| self.public().over)?;
        let records = self.records()?;
        let opened: Vec<Opened> = records
            .iter()
            .filter(|(_, (s, _))| *s == side)
            .filter_map(|(&(id, seals), (_, contents))| match contents {
                Contents::Sealed(sealed) => Some(Opened {
                    id,
                    seals,
                    contents: sealed.open(key, &place(self.id(), side, id, seals)).ok()?,
                }),
                Contents::Open(_) => None,
            })
            .collect();
        Some(serde_json::to_string(&opened).expect("always serializes"))
    }

    /// What `side`'s records, as his machine opened them (`body`), show
    /// against the rules, in the players' words: nothing when all holds.
    pub fn audit(&self, side: Side, body: &str) -> Vec<String> {
        let name = self.setup().name(side);
        let theirs = muster_core::text::possessive(&name);
        let Some(records) = self.records() else {
            return Vec::new();
        };
        let opened: Vec<Opened> = match serde_json::from_str(body) {
            Ok(opened) => opened,
            Err(e) => {
                return vec![format!(
                    "{theirs} records, sent at the game's end, do not read ({e})"
                )];
            }
        };
        let opened: BTreeMap<(usize, u32), Revealed<Vec<String>>> = opened
            .into_iter()
            .map(|o| ((o.id, o.seals), o.contents))
            .collect();
        let mut units = BTreeMap::new();
        let mut found = Vec::new();
        for (&(id, seals), (_, contents)) in records.iter().filter(|(_, (s, _))| *s == side) {
            let held = match contents {
                Contents::Open(held) => Ok(held.clone()),
                Contents::Sealed(sealed) => {
                    sealed.held_at_end(opened.get(&(id, seals)), &place(self.id(), side, id, seals))
                }
            };
            match held {
                Ok(held) => {
                    units.insert((id, seals), held);
                }
                Err(why) => found.push(format!(
                    "{theirs} record of counter {id} (its seal {seals}), sent at the game's end, {why}"
                )),
            }
        }
        if !found.is_empty() {
            return found;
        }
        let open = |_: usize, h: &Holder| {
            units.get(&(h.id, h.seals)).cloned().ok_or_else(|| {
                RuleError::new("map-intel 0", format!("counter {} was not opened", h.id))
            })
        };
        if let Err(e) = check_records_with(self.setup(), self.log(), side, &open) {
            found.push(format!(
                "{theirs} records, opened at the game's end, break the rules: {e}"
            ));
        }
        let words = self
            .public()
            .claims
            .iter()
            .filter(|c| c.side == side)
            .filter_map(|claim| {
                let held = claim
                    .of
                    .iter()
                    .map(|at| units.get(at).map(|u| !u.is_empty()))
                    .collect::<Option<Vec<bool>>>()?;
                (held.contains(&true) != claim.holds).then(|| untrue(&name, claim))
            });
        found.extend(words);
        found
    }

    /// Each holder's contents under each of its seals, the log folded
    /// again: a word rests on the seals its counters had when it was given.
    fn records(&self) -> Option<Records> {
        let mut public = HiddenForces::opening(self.setup());
        let mut records = Records::new();
        for event in self.log().iter().flat_map(|e| &e.events) {
            // The log was checked when it was read or followed.
            public.fold(event).ok()?;
            if let Some(h) = touched(event).and_then(|id| public.holder(id).ok()) {
                records
                    .entry((h.id, h.seals))
                    .or_insert_with(|| (h.side, h.contents.clone()));
            }
        }
        Some(records)
    }
}

/// A word found false at the game's end.
fn untrue(name: &str, claim: &Claim) -> String {
    format!(
        "FALSE CLAIM: {name} had said their counters in {} held {}units; their records, opened at the game's end, show they held {}",
        claim.hex,
        if claim.holds { "" } else { "no " },
        if claim.holds { "none" } else { "units" }
    )
}
