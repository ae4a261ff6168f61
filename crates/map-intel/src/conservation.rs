//! Every unit in exactly one place (RULES-map-intel 0), checked over a
//! whole log when a player's key first opens his sealed records (at his
//! unlock, or when a game without his passphrase is read).
//!
//! The rule holds after every entry. The check keeps a tally of where each
//! of his units is and, after each entry, opens only the records of the
//! holders that entry changed: each sealed record is opened once, so
//! reading a game costs its length, not its length times its holders (a
//! 12,000-command game took most of a second to open and save). Where the
//! tally finds a fault, the whole state is checked as the rule words it,
//! so the refusal names what it always named.

use super::events::{Event, Holder, Public};
use super::game::{Entry, HiddenForces, units_of};
use super::setup::Setup;
use muster_core::chained_game::Rules;
use muster_core::error::{RuleError, refuse};
use muster_core::intel::SealKey;
use muster_core::side::Side;
use std::collections::{BTreeMap, BTreeSet};

/// The holder an event changes (its contents, its record or whether it is
/// still in play), if any: a move changes only its hex.
pub(crate) fn touched(event: &Event) -> Option<usize> {
    match event {
        Event::Created { id, .. }
        | Event::Changed { id, .. }
        | Event::Placed { id, .. }
        | Event::Removed { id, .. }
        | Event::Revealed { id, .. }
        | Event::TurnedDown { id, .. } => Some(*id),
        _ => None,
    }
}

/// What a holder of his holds after entry `n`, from its record: opened
/// with his key, or as his machine opened it at the game's end (`audit`).
pub(crate) type Open<'a> = &'a dyn Fn(usize, &Holder) -> Result<Vec<String>, RuleError>;

/// Each unit of `side`'s in exactly one place after every entry of the
/// log, his sealed contents opened with his key; before entry `from`
/// (where he set his passphrase, if he began without one) with the
/// unprotected key.
pub(crate) fn check_records(
    game: &str,
    setup: &Setup,
    log: &[Entry],
    side: Side,
    key: &SealKey,
    from: usize,
) -> Result<(), RuleError> {
    let unprotected = SealKey::unprotected();
    check_records_with(setup, log, side, &|n, h| {
        units_of(game, h, Some(if n < from { &unprotected } else { key }))
    })
}

/// `check_records`, each of his records opened by `open`.
pub(crate) fn check_records_with(
    setup: &Setup,
    log: &[Entry],
    side: Side,
    open: Open,
) -> Result<(), RuleError> {
    let mut public = HiddenForces::opening(setup);
    let mut tally = Tally::new(setup, side);
    for (i, entry) in log.iter().enumerate() {
        for event in &entry.events {
            public.fold(event)?;
        }
        let mut ids: Vec<usize> = entry.events.iter().filter_map(touched).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut counted = true;
        for id in ids {
            let h = public.holder(id)?;
            match held(i, h, side, open) {
                Ok(units) => tally.hold(id, units),
                // A record that does not open: the whole check says which.
                Err(_) => counted = false,
            }
        }
        if !(counted && tally.holds()) {
            check_conservation(setup, &public, side, &|h| open(i, h)).map_err(|e| e.in_entry(i))?;
        }
    }
    Ok(())
}

/// What `h` holds of `side`'s units: nothing once it has left the map, or
/// if it is the other side's.
fn held(n: usize, h: &Holder, side: Side, open: Open) -> Result<Vec<String>, RuleError> {
    if h.side == side && !h.gone {
        open(n, h)
    } else {
        Ok(Vec::new())
    }
}

/// Where one side's units are, holder by holder, and which units are not
/// where the rule wants them: a unit of his army held other than once, or
/// anything else held at all.
struct Tally<'a> {
    setup: &'a Setup,
    side: Side,
    held: BTreeMap<usize, Vec<String>>,
    count: BTreeMap<String, usize>,
    wrong: BTreeSet<String>,
}

impl<'a> Tally<'a> {
    /// Before the first entry: nothing is anywhere yet.
    fn new(setup: &'a Setup, side: Side) -> Tally<'a> {
        Tally {
            setup,
            side,
            held: BTreeMap::new(),
            count: BTreeMap::new(),
            wrong: setup.scenario.sides[side]
                .units
                .iter()
                .map(|u| u.id.clone())
                .collect(),
        }
    }

    /// Holder `id` now holds `units`, in place of what it held.
    fn hold(&mut self, id: usize, units: Vec<String>) {
        let before = self.held.insert(id, units.clone()).unwrap_or_default();
        for unit in before {
            self.add(unit, false);
        }
        for unit in units {
            self.add(unit, true);
        }
    }

    fn add(&mut self, unit: String, one_more: bool) {
        let count = self.count.entry(unit.clone()).or_default();
        *count = if one_more { *count + 1 } else { *count - 1 };
        let right = match self.setup.scenario.sides[self.side].unit(&unit) {
            Some(_) => *count == 1,
            None => *count == 0,
        };
        if right {
            self.wrong.remove(&unit);
        } else {
            self.wrong.insert(unit);
        }
    }

    /// Whether every unit is where the rule wants it.
    fn holds(&self) -> bool {
        self.wrong.is_empty()
    }
}

/// Every unit of `side` in exactly one place (RULES-map-intel 0), the whole
/// state checked: the refusal names the first holder at fault.
pub(crate) fn check_conservation(
    setup: &Setup,
    public: &Public,
    side: Side,
    open: &dyn Fn(&Holder) -> Result<Vec<String>, RuleError>,
) -> Result<(), RuleError> {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    let names = setup.names();
    for h in public.holders.iter().filter(|h| h.side == side && !h.gone) {
        for unit in open(h)? {
            if setup.scenario.sides[side].unit(&unit).is_none() {
                return refuse(
                    "map-intel 0",
                    format!(
                        "{} holds {unit}, not a unit of {}",
                        h.label(&names),
                        names[side]
                    ),
                );
            }
            if let Some(other) = seen.insert(unit.clone(), h.label(&names)) {
                return refuse(
                    "map-intel 0",
                    format!(
                        "{} is in two places: {other} and {}",
                        setup.unit_name(&unit),
                        h.label(&names)
                    ),
                );
            }
        }
    }
    if let Some(missing) = setup.scenario.sides[side]
        .units
        .iter()
        .find(|u| !seen.contains_key(&u.id))
    {
        return refuse(
            "map-intel 0",
            format!("{} is nowhere: every unit is in one place", missing.name),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::Contents;
    use crate::game::{Command, place};
    use crate::scenario::SEALED_BYTES;
    use crate::tests::{Play, deploy, game, random_command};
    use muster_core::intel::Sealed;
    use proptest::prelude::*;

    /// The rule checked as it reads: the whole state after every entry.
    fn after_every_entry(
        game: &str,
        setup: &Setup,
        log: &[Entry],
        side: Side,
        key: &SealKey,
    ) -> Result<(), RuleError> {
        let mut public = HiddenForces::opening(setup);
        for (i, entry) in log.iter().enumerate() {
            for event in &entry.events {
                public.fold(event)?;
            }
            let open = |h: &Holder| units_of(game, h, Some(key));
            check_conservation(setup, &public, side, &open).map_err(|e| e.in_entry(i))?;
        }
        Ok(())
    }

    /// The sealed records of a log: (entry, event) of each.
    fn records(log: &[Entry]) -> Vec<(usize, usize)> {
        let mut at = Vec::new();
        for (i, entry) in log.iter().enumerate() {
            for (j, event) in entry.events.iter().enumerate() {
                let sealed = match event {
                    Event::Created { contents, .. } | Event::Changed { contents, .. } => {
                        !contents.is_open()
                    }
                    Event::Placed { .. } | Event::TurnedDown { .. } => true,
                    _ => false,
                };
                if sealed {
                    at.push((i, j));
                }
            }
        }
        at
    }

    /// Record `(i, j)` of `log` sealed anew with `units`, at its own place
    /// or (`moved`) at the next seal's: what a forger with the unprotected
    /// key can write. Nothing, if an earlier forgery broke the log before it.
    fn forge(game: &str, log: &mut [Entry], (i, j): (usize, usize), units: &[String], moved: bool) {
        let mut public = HiddenForces::opening(&crate::tests::setup());
        let before = log[..i].iter().flat_map(|e| &e.events);
        for event in before.chain(&log[i].events[..j]) {
            if public.fold(event).is_err() {
                return;
            }
        }
        let event = &mut log[i].events[j];
        let id = touched(event).expect("a record's holder");
        let (owner, seals) = match (&*event, public.holder(id)) {
            (Event::Created { side, .. }, _) => (*side, 1),
            (_, Ok(h)) => (h.side, h.seals + 1),
            (_, Err(e)) => panic!("{e}"),
        };
        let at = place(game, owner, id, seals + u32::from(moved));
        let sealed = Sealed::seal(&at, &units, &SealKey::unprotected(), SEALED_BYTES).unwrap();
        match event {
            Event::Created { contents, .. } | Event::Changed { contents, .. } => {
                *contents = Contents::Sealed(sealed.into())
            }
            Event::Placed { contents, .. } | Event::TurnedDown { contents, .. } => {
                *contents = sealed
            }
            _ => unreachable!("a record"),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]
        /// The tally, which opens only what each entry changed, refuses
        /// exactly what checking every holder after every entry refuses,
        /// in the same words, on random games whose records are forged:
        /// a unit in two places, one lost, a stranger, a record moved.
        #[test]
        fn the_tally_refuses_what_the_whole_check_refuses(
            choices in proptest::collection::vec(any::<u32>(), 60),
            forgeries in proptest::collection::vec((any::<prop::sample::Index>(), proptest::collection::vec(any::<prop::sample::Index>(), 0..4), any::<bool>()), 0..3),
        ) {
            let mut g = game();
            deploy(&mut g, Side::South, "0505", &["r-leg-3", "r-leg-6"]);
            deploy(&mut g, Side::North, "0606", &["p-cat-1", "p-ha-1"]);
            g.play(Command::Begin { first: Side::South }).unwrap();
            for c in choices {
                if let Some(command) = random_command(&g, c) {
                    let _ = g.play(command);
                }
            }
            let setup = g.setup();
            let every: Vec<String> = Side::BOTH
                .iter()
                .flat_map(|s| setup.scenario.sides[*s].units.iter().map(|u| u.id.clone()))
                .collect();
            let mut log = g.log().to_vec();
            let key = SealKey::unprotected();
            for side in Side::BOTH {
                prop_assert_eq!(check_records(g.id(), setup, &log, side, &key, 0), Ok(()));
            }
            for (record, units, moved) in forgeries {
                let at = *record.get(&records(&log));
                let units: Vec<String> = units.iter().map(|u| u.get(&every).clone()).collect();
                forge(g.id(), &mut log, at, &units, moved);
            }
            for side in Side::BOTH {
                prop_assert_eq!(
                    check_records(g.id(), setup, &log, side, &key, 0),
                    after_every_entry(g.id(), setup, &log, side, &key)
                );
            }
        }
    }
}
