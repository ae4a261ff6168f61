//! Each hidden-forces command, decided (RULES-map-intel 0, A2-A6,
//! `docs/src/rules/map-intel.md`): what it asks of the rules, Agents spent
//! and combat revealing a hex, set-up's end and the turns, and the acting
//! side's units counted after it.

use super::Command;
use super::work::{Work, place, seal, units_of};
use crate::events::{Contents, Event, Holder, Kind, Owed, Reason};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::{Lock, SealKey};
use muster_core::side::Side;

impl Work<'_> {
    pub(super) fn decide(&mut self, command: &Command) -> Result<(), RuleError> {
        let started = self.public.active.is_some();
        if self.public.over {
            return refuse(
                "map-intel 0",
                "The game is over: nothing more is played in it",
            );
        }
        if let (Some(owed), false) = (&self.public.owed, command == &Command::Disclose) {
            return refuse(
                "A2",
                format!(
                    "{} first: the rules force it",
                    match owed {
                        Owed::Answer { side, hex, .. } =>
                            format!("{} answers the entry into {hex}", self.setup.name(*side)),
                        Owed::Reveal { side, .. } =>
                            format!("{} reveals what the rules reveal", self.setup.name(*side)),
                    }
                ),
            );
        }
        let actor = match command {
            Command::Transfer {
                side,
                from,
                to,
                units,
            } => {
                self.transfer(*side, *from, to, units)?;
                Some(*side)
            }
            Command::Move { id, to } => {
                // A move changes no contents, so conservation cannot change;
                // a reveal it causes checks its owner's units itself.
                self.do_move(*id, *to)?;
                None
            }
            Command::ToExercitus { id, number } => {
                self.replace_with_exercitus(*id, *number)?;
                Some(self.holder(*id)?.side)
            }
            Command::PlaceExercitus {
                side,
                number,
                hex,
                units,
            } => {
                self.place_exercitus(*side, *number, *hex, units)?;
                Some(*side)
            }
            Command::TurnDown { id } => {
                self.turn_down(*id)?;
                Some(self.holder(*id)?.side)
            }
            Command::Reveal { id } => {
                let h = self.holder(*id)?;
                if !started {
                    return refuse("A2", "Reveals come once play begins");
                }
                self.reveal(*id, Reason::Voluntary)?;
                Some(h.side)
            }
            Command::SpendAgent { by, id } => {
                let h = self.holder(*id)?;
                if !started {
                    return refuse("A6", "Agents are spent once play begins");
                }
                self.may_act(*by)?;
                if h.side == *by {
                    return refuse(
                        "A5",
                        "A player may always examine their own units: no Agent needed",
                    );
                }
                // An Exercitus never placed still holds the empty record it
                // was sealed with at the start: known to both, so the
                // examiner's own machine can tell (its key is not needed).
                if h.gone
                    || (matches!(h.kind, Kind::Exercitus(_)) && h.hex.is_none() && h.seals <= 1)
                {
                    return refuse("A6", format!("{} holds nothing to examine", self.label(&h)));
                }
                if h.contents.is_open() {
                    return refuse(
                        "A6",
                        format!("{} is face up already: no Agent needed", self.label(&h)),
                    );
                }
                if self.public.examined_by(*by, &h) {
                    return refuse(
                        "A6",
                        format!(
                            "{} examined it already: no Agent needed until it changes",
                            self.setup.name(*by)
                        ),
                    );
                }
                if self.public.agents[*by] == 0 {
                    return refuse(
                        "A6",
                        format!(
                            "{} has no Agent Stratagem marker left",
                            self.setup.name(*by)
                        ),
                    );
                }
                self.push(Event::AgentSpent { by: *by })?;
                // A force on the map is revealed like any other condition
                // (A2 ruling): face up for both, A3 applies, and an empty
                // Exercitus is removed (A4), by its owner's key. A holding
                // area is shown to him alone; nothing on the map changes.
                if h.on_map() {
                    self.push(Event::Owed {
                        owed: Owed::Reveal {
                            side: h.side,
                            ids: vec![*id],
                            reason: Reason::Agent,
                        },
                    })?;
                    None
                } else {
                    self.push(Event::Examined { by: *by, id: *id })?;
                    None
                }
            }
            Command::Combat { hex } => {
                let Some(active) = self.public.active else {
                    return refuse("A2", "Combat comes once play begins");
                };
                self.may_act(active)?;
                let hex = self.on_map(*hex)?;
                let here: Vec<Holder> = self.public.in_hex(hex).cloned().collect();
                if !Side::BOTH.iter().all(|s| here.iter().any(|h| h.side == *s)) {
                    return refuse(
                        "A2",
                        format!("Combat needs counters of both sides in {hex}"),
                    );
                }
                self.push(Event::Combat { hex })?;
                // The active side's by his key now; the other's by his.
                let (mine, theirs): (Vec<&Holder>, Vec<&Holder>) = here
                    .iter()
                    .filter(|h| !h.contents.is_open())
                    .partition(|h| h.side == active);
                for h in mine {
                    self.reveal(h.id, Reason::Combat)?;
                }
                if !theirs.is_empty() {
                    self.push(Event::Owed {
                        owed: Owed::Reveal {
                            side: active.opponent(),
                            ids: theirs.iter().map(|h| h.id).collect(),
                            reason: Reason::Combat,
                        },
                    })?;
                }
                None
            }
            Command::Disclose => {
                self.disclose()?;
                None
            }
            Command::DeclineReplace { side, number } => {
                if !self.public.may_replace.contains(&(*side, *number)) {
                    return refuse(
                        "A4",
                        format!("Exercitus {number} is not waiting to be placed"),
                    );
                }
                self.push(Event::ReplaceDeclined {
                    side: *side,
                    number: *number,
                })?;
                None
            }
            Command::Begin { first } => {
                if started {
                    return refuse("map-intel 0", "Play has begun already");
                }
                self.push(Event::TurnBegan {
                    number: 1,
                    active: *first,
                })?;
                None
            }
            Command::EndTurn => {
                let Some(active) = self.public.active else {
                    return refuse("map-intel 0", "Set-up is not over: begin play first");
                };
                self.may_act(active)?;
                let number = self.public.turn + 1;
                self.push(Event::TurnBegan {
                    number,
                    active: active.opponent(),
                })?;
                None
            }
            Command::SetPassphrase { side, lock } => {
                self.set_passphrase(*side, lock)?;
                None
            }
            Command::EndGame => {
                let Some(active) = self.public.active else {
                    return refuse("map-intel 0", "Set-up is not over: begin play first");
                };
                self.may_act(active)?;
                self.push(Event::GameOver { by: active })?;
                None
            }
        };
        if let Some(side) = actor {
            self.check_changed(side)?;
        }
        Ok(())
    }
}

impl Work<'_> {
    /// `side` sets the passphrase he began without (rules reference: "A
    /// passphrase set during the game"): each of his sealed records,
    /// under the unprotected key until now, is sealed anew under his key,
    /// holding what it held. Not a move: in any turn, but not while a step
    /// is owed.
    fn set_passphrase(&mut self, side: Side, lock: &Lock) -> Result<(), RuleError> {
        let key =
            muster_core::chained_game::lock_key(self.new_key.as_ref(), &self.setup.name(side))?;
        self.push(Event::LockSet {
            side,
            lock: lock.clone(),
        })?;
        let unprotected = SealKey::unprotected();
        let sealed: Vec<Holder> = self
            .public
            .holders
            .iter()
            .filter(|h| h.side == side && !h.gone && !h.contents.is_open())
            .cloned()
            .collect();
        for h in sealed {
            let units = units_of(self.game, &h, Some(&unprotected))?;
            let again = seal(&place(self.game, side, h.id, h.seals + 1), &units, &key)?;
            self.push(Event::Changed {
                id: h.id,
                contents: Contents::Sealed(again.into()),
            })?;
        }
        Ok(())
    }
}
