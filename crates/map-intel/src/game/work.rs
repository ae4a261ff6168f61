//! A hidden-forces command being decided (RULES-map-intel 0,
//! `docs/src/rules/map-intel.md`): a copy of the public state its events
//! are folded into, the sealed records it opens or seals (each opened
//! once), a counter's units, whose counters a player may change now, and
//! the count after every command that each unit is in exactly one place.

use crate::conservation::touched;
use crate::events::{Contents, Event, Holder, Public};
use crate::map::Hex;
use crate::opened::Opened;
use crate::scenario::SEALED_BYTES;
use crate::setup::Setup;
use muster_core::error::{RuleError, refuse};
use muster_core::intel::{Place, SealKey, Sealed};
use muster_core::side::{Side, Sides};

/// Where holder `id`'s `n`-th sealed contents belong.
pub(crate) fn place(game: &str, owner: Side, id: usize, n: u32) -> Place<'_> {
    Place {
        game,
        owner,
        kind: "holder",
        slot: format!("holder {id} seal {n}"),
    }
}

pub(super) fn seal(place: &Place, units: &[String], key: &SealKey) -> Result<Sealed, RuleError> {
    let mut sorted = units.to_vec();
    sorted.sort();
    Sealed::seal(place, &sorted, key, SEALED_BYTES)
        .map_err(|e| RuleError::new("trust", e.to_string()))
}

/// A counter's units: face up from the log, face down opened with its
/// owner's key.
pub(crate) fn units_of(
    game: &str,
    holder: &Holder,
    key: Option<&SealKey>,
) -> Result<Vec<String>, RuleError> {
    match &holder.contents {
        Contents::Open(units) => Ok(units.clone()),
        Contents::Sealed(sealed) => {
            let key = key.ok_or_else(|| {
                RuleError::new("trust", format!("{} has not unlocked", holder.side))
            })?;
            sealed
                .open::<Vec<String>>(key, &place(game, holder.side, holder.id, holder.seals))
                .map(|r| r.secret)
                .map_err(|e| RuleError::new("trust", e.to_string()))
        }
    }
}

/// Checks a command against a copy of the state and collects its events.
pub(super) struct Work<'a> {
    pub(super) game: &'a str,
    pub(super) setup: &'a Setup,
    /// The state before the command, for `check_changed`.
    pub(super) before: &'a Public,
    pub(super) public: Public,
    pub(super) keys: &'a Sides<Option<SealKey>>,
    pub(super) events: Vec<Event>,
    /// The records this game opened or sealed before the command.
    pub(super) known: &'a Opened,
    /// The sealing key of a passphrase being set (`SetPassphrase`).
    pub(super) new_key: Option<SealKey>,
    /// The records this command opened or sealed: each is opened once.
    pub(super) opened: std::cell::RefCell<Opened>,
}

impl Work<'_> {
    /// Every unit of `side` still in exactly one place after the command
    /// (RULES-map-intel 0), checked where it could have changed: the
    /// holders the command touched hold, together, exactly the units they
    /// held before, each a unit of his army. The others are as the last
    /// check left them, so a command's work does not grow with the game
    /// (the whole army is checked when a game is opened and unlocked).
    pub(super) fn check_changed(&self, side: Side) -> Result<(), RuleError> {
        let mut ids: Vec<usize> = self.events.iter().filter_map(touched).collect();
        ids.sort_unstable();
        ids.dedup();
        let key = self.key(side)?;
        let held = |public: &Public, id: usize| -> Result<Vec<String>, RuleError> {
            match public.holder(id) {
                Ok(h) if h.side == side && !h.gone => self.units_with(h, key),
                _ => Ok(Vec::new()),
            }
        };
        let (mut was, mut now) = (Vec::new(), Vec::new());
        for &id in &ids {
            was.extend(held(self.before, id)?);
            now.extend(held(&self.public, id)?);
        }
        if let Some(stranger) = now
            .iter()
            .find(|u| self.setup.scenario.sides[side].unit(u).is_none())
        {
            return refuse(
                "map-intel 0",
                format!("{stranger} is not a unit of {}", self.setup.name(side)),
            );
        }
        was.sort_unstable();
        now.sort_unstable();
        if was != now {
            return refuse(
                "map-intel 0",
                "every unit is in one place: this change would lose or copy a unit",
            );
        }
        Ok(())
    }

    pub(super) fn push(&mut self, event: Event) -> Result<(), RuleError> {
        self.public.fold(&event)?;
        self.events.push(event);
        Ok(())
    }

    pub(super) fn key(&self, side: Side) -> Result<&SealKey, RuleError> {
        self.keys[side].as_ref().ok_or_else(|| {
            RuleError::new(
                "trust",
                format!("{} must unlock first", self.setup.name(side)),
            )
        })
    }

    /// `units` sealed as `h`'s next contents, bound to that slot.
    pub(super) fn seal(&self, h: &Holder, units: &[String]) -> Result<Sealed, RuleError> {
        self.seal_at(h.side, h.id, h.seals + 1, units)
    }

    /// `units` sealed as holder `id`'s `n`-th contents, and kept as opened.
    pub(super) fn seal_at(
        &self,
        side: Side,
        id: usize,
        n: u32,
        units: &[String],
    ) -> Result<Sealed, RuleError> {
        let sealed = seal(&place(self.game, side, id, n), units, self.key(side)?)?;
        self.opened
            .borrow_mut()
            .insert(id, n, &sealed, sorted(units));
        Ok(sealed)
    }

    /// `h`'s units, its record opened with `key` only if this game has
    /// not opened or sealed it before.
    pub(super) fn units_with(&self, h: &Holder, key: &SealKey) -> Result<Vec<String>, RuleError> {
        if let Some(units) = self.known.get(h).or(self.opened.borrow().get(h)) {
            return Ok(units.clone());
        }
        let units = units_of(self.game, h, Some(key))?;
        if let Contents::Sealed(sealed) = &h.contents {
            self.opened
                .borrow_mut()
                .insert(h.id, h.seals, sealed, units.clone());
        }
        Ok(units)
    }

    pub(super) fn holder(&self, id: usize) -> Result<Holder, RuleError> {
        self.public.holder(id).cloned()
    }

    pub(super) fn label(&self, h: &Holder) -> String {
        h.label(&self.setup.names())
    }

    pub(super) fn units(&self, h: &Holder) -> Result<Vec<String>, RuleError> {
        self.units_with(h, self.key(h.side)?)
    }

    /// The units left in `h` once `units` leave it; each must be there.
    pub(super) fn without(&self, h: &Holder, units: &[String]) -> Result<Vec<String>, RuleError> {
        let mut left = self.units(h)?;
        for unit in units {
            let Some(i) = left.iter().position(|u| u == unit) else {
                return refuse(
                    "map-intel 0",
                    format!("{} is not in {}", self.setup.unit_name(unit), self.label(h)),
                );
            };
            left.remove(i);
        }
        Ok(left)
    }

    /// Contents for `h` after a change: face up stays face up.
    pub(super) fn contents(&self, h: &Holder, units: &[String]) -> Result<Contents, RuleError> {
        Ok(match h.contents {
            Contents::Open(_) => Contents::Open(sorted(units)),
            Contents::Sealed(_) => Contents::Sealed(self.seal(h, units)?.into()),
        })
    }

    /// `side` may change his own counters now: in set-up, or in his turn
    /// with no empty Exercitus waiting to be re-placed.
    pub(super) fn may_act(&self, side: Side) -> Result<(), RuleError> {
        if let Some((who, number)) = self.public.may_replace.first() {
            return refuse(
                "A4",
                format!(
                    "{} first places their empty Exercitus {number} on a friendly force, or declines",
                    self.setup.name(*who)
                ),
            );
        }
        match self.public.active {
            None => Ok(()),
            Some(active) if active == side => Ok(()),
            Some(active) => refuse(
                "map-intel 0",
                format!(
                    "It is {} turn: {} changes their counters only in their own",
                    muster_core::text::possessive(&self.setup.name(active)),
                    self.setup.name(side)
                ),
            ),
        }
    }

    pub(super) fn own(&self, side: Side, id: usize) -> Result<Holder, RuleError> {
        let h = self.holder(id)?;
        if h.side != side {
            return refuse(
                "A2",
                format!("{} is not {}'s", self.label(&h), self.setup.name(side)),
            );
        }
        if h.gone {
            return refuse(
                "map-intel 0",
                format!("{} has left the map", self.label(&h)),
            );
        }
        Ok(h)
    }

    pub(super) fn on_map(&self, hex: Hex) -> Result<Hex, RuleError> {
        self.setup.scenario.map.on_map(hex)
    }
}

pub(super) fn sorted(units: &[String]) -> Vec<String> {
    let mut v = units.to_vec();
    v.sort();
    v
}
