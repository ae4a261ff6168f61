//! Steps the rules force, and the claims they rest on (RULES-map-intel A2,
//! `docs/src/rules/map-intel.md`, "Reveals decided by their owner").
//!
//! A reveal opens a sealed record, which only its owner's key opens; what
//! a counter holds is known to its owner alone. So a command of one player
//! that makes the other's counters show (entering them, combat, an Agent
//! on a counter on the map) ends in a step owed by the other (`Owed`), which
//! his key decides: at one table at once, from two machines on his. Where
//! a reveal hangs on what a face-down counter holds (A2b, c), its owner
//! says whether it holds units: a claim, logged, and checked against its
//! contents once they are shown (`Public::check_claims`). A claim found
//! false is kept and named in the log. The log tells no more than the
//! reveals it decides would: each claim is one the reveal (or its absence)
//! makes public anyway.

use crate::events::{Event, Gone, Public, Reason};
use crate::map::Hex;
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};

/// The step the rules force next, and whose it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case", deny_unknown_fields)]
pub enum Owed {
    /// `mover` entered `side`'s counters in `hex`, some face down; it holds
    /// units or not, as its owner says. `side` answers: his counters there
    /// face down are revealed if it holds units (A2b), and he says whether
    /// they hold any while it is face down (A2c).
    Answer {
        side: Side,
        hex: Hex,
        mover: usize,
        mover_holds: bool,
    },
    /// `side` reveals his counters `ids`, for `reason`.
    Reveal {
        side: Side,
        ids: Vec<usize>,
        reason: Reason,
    },
}

impl Owed {
    /// The side whose key decides it.
    pub fn side(&self) -> Side {
        match self {
            Owed::Answer { side, .. } | Owed::Reveal { side, .. } => *side,
        }
    }
}

/// A side's word on whether some of his counters hold units, with each
/// one's seal then: checked once all are shown under those seals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Claim {
    pub side: Side,
    pub hex: Hex,
    /// Each counter's id and seal count when the claim was made.
    pub of: Vec<(usize, u32)>,
    pub holds: bool,
}

impl Public {
    /// Refuses an event that is not part of the step owed now: nothing
    /// else happens until it is done.
    pub(crate) fn during_owed(&self, event: &Event) -> Result<(), RuleError> {
        let Some(owed) = &self.owed else {
            return Ok(());
        };
        let part = match (owed, event) {
            // His counters there are revealed only if the mover holds units.
            (
                Owed::Answer {
                    side,
                    hex,
                    mover_holds: true,
                    ..
                },
                Event::Revealed {
                    id,
                    reason: Reason::EnemyEntered,
                    ..
                },
            ) => self
                .holder(*id)
                .is_ok_and(|h| h.side == *side && h.hex == Some(*hex)),
            (Owed::Answer { .. }, Event::Answered { .. }) => true,
            (Owed::Reveal { ids, reason, .. }, Event::Revealed { id, reason: r, .. }) => {
                ids.contains(id) && r == reason
            }
            // An empty Exercitus revealed leaves the map (A4 ruling).
            (
                _,
                Event::Removed {
                    why: Gone::EmptyExercitus,
                    ..
                }
                | Event::MayReplace { .. },
            ) => true,
            _ => false,
        };
        if !part {
            return refuse(
                "A2",
                format!(
                    "{} must first {}: the rules force it",
                    owed.side(),
                    match owed {
                        Owed::Answer { hex, .. } => format!("answer the entry into {hex}"),
                        Owed::Reveal { .. } => "reveal what the rules reveal".to_string(),
                    }
                ),
            );
        }
        Ok(())
    }

    /// A step owed from now on (the event `Owed`).
    pub(crate) fn owe(&mut self, owed: &Owed) -> Result<(), RuleError> {
        if self.owed.is_some() {
            return refuse("A2", "a step is owed already");
        }
        if let Owed::Answer {
            mover,
            mover_holds,
            hex,
            side,
        } = owed
        {
            let m = self.holder(*mover)?;
            if m.side == *side || m.hex != Some(*hex) {
                return refuse("A2", format!("counter {mover} did not enter {hex}"));
            }
            self.claim(m.side, *hex, vec![(m.id, m.seals)], *mover_holds);
        }
        if let Owed::Reveal { ids, .. } = owed
            && ids.is_empty()
        {
            return refuse("A2", "a reveal owed of no counter");
        }
        self.owed = Some(owed.clone());
        Ok(())
    }

    /// The answer to an entry (the event `Answered`): after the reveals
    /// the mover's units call for (A2b), and saying what his counters
    /// there hold while the mover is face down (A2c), which reveals the
    /// mover next if they hold units.
    pub(crate) fn answered(
        &mut self,
        side: Side,
        hex: Hex,
        holds: Option<bool>,
    ) -> Result<(), RuleError> {
        let (mover, mover_holds) = match &self.owed {
            Some(Owed::Answer {
                side: s,
                hex: h,
                mover,
                mover_holds,
            }) if *s == side && *h == hex => (*mover, *mover_holds),
            _ => return refuse("A2", format!("{side} was not asked to answer in {hex}")),
        };
        let theirs: Vec<(usize, u32, bool)> = self
            .in_hex(hex)
            .filter(|h| h.side == side)
            .map(|h| (h.id, h.seals, h.contents.is_open()))
            .collect();
        if mover_holds && theirs.iter().any(|(.., open)| !open) {
            return refuse(
                "A2b",
                format!(
                    "an enemy holding units entered {hex}: {side}'s counters there are revealed before the answer"
                ),
            );
        }
        let m = self.holder(mover)?;
        let (mover_side, face_down) = (m.side, !m.contents.is_open());
        if holds.is_some() != face_down {
            return refuse(
                "A2c",
                format!(
                    "{side} says what their counters in {hex} hold when, and only when, the enemy that entered is face down"
                ),
            );
        }
        self.owed = None;
        if let Some(holds) = holds {
            let of = theirs.iter().map(|(id, seals, _)| (*id, *seals)).collect();
            self.claim(side, hex, of, holds);
            if holds {
                self.owed = Some(Owed::Reveal {
                    side: mover_side,
                    ids: vec![mover],
                    reason: Reason::EnteredEnemy,
                });
            }
        }
        Ok(())
    }

    /// A reveal owed is done once each of its counters is shown.
    pub(crate) fn revealed_owed(&mut self, id: usize) {
        if let Some(Owed::Reveal { ids, .. }) = &mut self.owed {
            ids.retain(|i| *i != id);
            if ids.is_empty() {
                self.owed = None;
            }
        }
    }

    fn claim(&mut self, side: Side, hex: Hex, of: Vec<(usize, u32)>, holds: bool) {
        self.claims.push(Claim {
            side,
            hex,
            of,
            holds,
        });
        self.check_claims();
    }

    /// Checks each claim whose counters are all shown under the seals it
    /// was made on; one found false is kept in `false_claims`.
    pub(crate) fn check_claims(&mut self) {
        let holders = &self.holders;
        let shown = |(id, seals): &(usize, u32)| {
            holders.get(*id).and_then(|h| match &h.contents {
                crate::events::Contents::Open(units) if h.seals == *seals => {
                    Some(!units.is_empty())
                }
                _ => None,
            })
        };
        let (mut checked, mut open) = (Vec::new(), Vec::new());
        for claim in std::mem::take(&mut self.claims) {
            match claim.of.iter().map(shown).collect::<Option<Vec<bool>>>() {
                Some(held) => checked.push((held.contains(&true), claim)),
                None => open.push(claim),
            }
        }
        self.claims = open;
        self.false_claims.extend(
            checked
                .into_iter()
                .filter(|(held, claim)| *held != claim.holds)
                .map(|(_, claim)| claim),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Command;
    use crate::tests::{Play, contact_position};
    use muster_core::seat::Seated;

    fn hex(name: &str) -> Hex {
        Hex::parse(name).unwrap()
    }

    /// The legions enter the cataphracts' hex: the entry is three steps,
    /// each decided with one side's key. South's says his force holds
    /// units (nothing of North's opened); North's reveals the cataphracts
    /// and says they hold units; South's reveals the legions. Nothing else
    /// is taken in between.
    #[test]
    fn an_entry_is_answered_in_steps_each_by_one_sides_key() {
        let (mut g, legions, cataphracts) = contact_position();
        let events = g
            .apply(Command::Move {
                id: legions,
                to: hex("0909"),
            })
            .unwrap();
        assert!(matches!(
            &events[..],
            [
                Event::Moved { .. },
                Event::Owed {
                    owed: Owed::Answer {
                        side: Side::North,
                        mover_holds: true,
                        ..
                    }
                }
            ]
        ));
        assert_eq!(g.forced(), Some(Command::Disclose));
        let e = g.apply(Command::EndTurn).unwrap_err();
        assert!(
            e.message
                .contains("Bob (Parthia) answers the entry into 0909 first"),
            "{e}"
        );
        let events = g.apply(Command::Disclose).unwrap();
        assert!(matches!(
            &events[..],
            [
                Event::Revealed { id, reason: Reason::EnemyEntered, .. },
                Event::Answered { side: Side::North, holds: Some(true), .. }
            ] if *id == cataphracts
        ));
        let events = g.apply(Command::Disclose).unwrap();
        assert!(matches!(
            &events[..],
            [Event::Revealed { id, reason: Reason::EnteredEnemy, .. }] if *id == legions
        ));
        assert_eq!(g.forced(), None);
        assert!(g.public().claims.is_empty() && g.public().false_claims.is_empty());
        let log = g.log_lines().join("\n");
        assert!(
            log.contains("holds units, as its owner says, so theirs face down are revealed"),
            "{log}"
        );
    }

    /// The attacks of a player whose machine decides his step: he says his
    /// force holds no units though it does (the enemy's counters then stay
    /// hidden), or reveals counters an entry does not call for. The first
    /// is named in the log once his force is shown; the second is refused.
    #[test]
    fn a_false_claim_is_named_when_shown_and_a_reveal_not_called_for_refused() {
        let (mut g, legions, cataphracts) = contact_position();
        let before = g.public().clone();
        g.play(Command::Move {
            id: legions,
            to: hex("0909"),
        })
        .unwrap();
        let honest: Vec<Event> = g
            .log()
            .iter()
            .rev()
            .take(3)
            .rev()
            .flat_map(|e| e.events.clone())
            .collect();
        let revealed = |id: usize| {
            honest
                .iter()
                .find(|e| matches!(e, Event::Revealed { id: i, .. } if *i == id))
                .unwrap()
                .clone()
        };
        let setup = g.setup().clone();

        // He said "no units": North answers that his hold some, and the
        // legions shown hold two.
        let mut forged = before.clone();
        let lie = [
            honest[0].clone(),
            Event::Owed {
                owed: Owed::Answer {
                    side: Side::North,
                    hex: hex("0909"),
                    mover: legions,
                    mover_holds: false,
                },
            },
            Event::Answered {
                side: Side::North,
                hex: hex("0909"),
                holds: Some(true),
            },
        ];
        for event in &lie {
            forged.fold(event).unwrap();
        }
        let shown = revealed(legions);
        let words = crate::describe::event(&shown, &setup, &forged);
        forged.fold(&shown).unwrap();
        assert_eq!(forged.false_claims.len(), 1, "{words}");
        assert_eq!(forged.false_claims[0].side, Side::South);
        assert!(
            words.contains("FALSE CLAIM: Ann (Rome) had said their counters in 0909 held no units"),
            "{words}"
        );

        // With "no units" said, North's cataphracts are not his to reveal.
        let mut forged = before;
        forged.fold(&lie[0]).unwrap();
        forged.fold(&lie[1]).unwrap();
        let e = forged.fold(&revealed(cataphracts)).unwrap_err();
        assert!(
            e.message
                .contains("North must first answer the entry into 0909"),
            "{e}"
        );
    }
}
