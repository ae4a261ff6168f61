//! The sealed records a hidden-forces game already opened or sealed in
//! this session, with their units (RULES-map-intel 0: a regroup is checked
//! against what its counters held). A command looks its counters' records
//! up here before it opens one: a regroup opened both its records again,
//! one turn after it had sealed them itself, and opening is a key
//! derivation, a decryption and a commitment check each.
//!
//! A record is known by its place (holder and seal number) and its
//! commitment, which binds its units (its opening checks them against it):
//! a record taken back by an undo and another sealed later in the same
//! place have different commitments, so no lookup ever finds units that
//! are not the record's. Only each holder's record as it is now is kept.

use super::events::{Contents, Holder, Public};
use muster_core::intel::Sealed;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default)]
pub(crate) struct Opened(BTreeMap<(usize, u32), Known>);

#[derive(Clone, Debug)]
struct Known {
    commitment: String,
    units: Vec<String>,
}

impl Opened {
    /// `h`'s units, if its record as it is now was opened or sealed here.
    pub(crate) fn get(&self, h: &Holder) -> Option<&Vec<String>> {
        let Contents::Sealed(sealed) = &h.contents else {
            return None;
        };
        self.0
            .get(&(h.id, h.seals))
            .filter(|known| known.commitment == sealed.commitment)
            .map(|known| &known.units)
    }

    /// `sealed`, holder `id`'s record number `seals`, holds `units`.
    pub(crate) fn insert(&mut self, id: usize, seals: u32, sealed: &Sealed, units: Vec<String>) {
        let commitment = sealed.commitment.clone();
        self.0.insert((id, seals), Known { commitment, units });
    }

    /// How many records are known.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Keeps what a command opened and sealed that its holders hold now
    /// (`public`, after it), in place of what they held before.
    pub(crate) fn keep(&mut self, command: Opened, public: &Public) {
        for ((id, seals), known) in command.0 {
            if public.holder(id).is_ok_and(|h| h.seals == seals) {
                let others: Vec<(usize, u32)> = self
                    .0
                    .range((id, 0)..=(id, u32::MAX))
                    .map(|(place, _)| *place)
                    .collect();
                for place in others {
                    self.0.remove(&place);
                }
                self.0.insert((id, seals), known);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::events::Contents;
    use crate::game::{Command, Game, Target, units_of};
    use crate::tests::{Play, deploy, game, random_command};
    use muster_core::side::Side;
    use proptest::prelude::*;

    /// A unit of the active side's from one of his counters on the map to
    /// another in its hex, or to a new force there.
    fn regroup(g: &Game, choice: u32) -> Option<Command> {
        let side = g.public().active?;
        let view = g.view(side);
        let mine: Vec<_> = view
            .holders
            .iter()
            .filter(|h| h.side == side && h.hex.is_some())
            .collect();
        let from = mine.get(choice as usize % mine.len().max(1))?;
        let units = from.units.as_ref()?;
        let unit = units.get(choice as usize / 7 % units.len().max(1))?;
        let to = mine
            .iter()
            .find(|h| h.id != from.id && h.hex == from.hex)
            .map_or(Target::NewForce(from.hex?), |h| Target::Counter(h.id));
        Some(Command::Transfer {
            side,
            from: from.id,
            to,
            units: vec![unit.clone()],
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
        /// After random commands, undos and redos, every record the game
        /// knows holds what opening it anew finds, and the game holds no
        /// more than one record a holder.
        #[test]
        fn what_is_known_of_a_record_is_what_opening_it_finds(
            choices in proptest::collection::vec(any::<u32>(), 80)
        ) {
            let mut g = game();
            deploy(&mut g, Side::South, "0505", &["r-leg-3", "r-leg-6"]);
            deploy(&mut g, Side::North, "0606", &["p-cat-1", "p-ha-1"]);
            g.play(Command::Begin { first: Side::South }).unwrap();
            let mut known = 0;
            for c in choices {
                match c % 11 {
                    0 => { let _ = g.undo(); }
                    1 => { let _ = g.redo(); }
                    2 | 3 => {
                        if let Some(command) = regroup(&g, c / 11) {
                            let _ = g.play(command);
                        }
                    }
                    _ => {
                        if let Some(command) = random_command(&g, c / 11) {
                            let _ = g.play(command);
                        }
                    }
                }
                for h in &g.public().holders {
                    if let (Some(units), Contents::Sealed(_)) = (g.known().get(h), &h.contents) {
                        let key = g.keys()[h.side].as_ref();
                        prop_assert_eq!(units, &units_of(g.id(), h, key).unwrap());
                        known += 1;
                    }
                }
                prop_assert!(g.known().len() <= g.public().holders.len());
            }
            prop_assert!(known > 0, "the test looked at no known record");
        }
    }
}
