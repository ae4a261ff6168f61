//! Regrouping (RULES-map-intel A1, A3-A5, `docs/src/rules/map-intel.md`):
//! units moved between a side's counters and holding areas within one hex,
//! or split off as a new force, each checked against its status (Civis and
//! Client units never hidden, never in an Exercitus), the changed
//! contents sealed anew where they were face down.

use super::Target;
use super::work::{Work, sorted};
use crate::events::{Area, Contents, Event, Gone, Holder, Kind};
use crate::scenario::Status;
use muster_core::error::{RuleError, refuse};
use muster_core::side::Side;

impl Work<'_> {
    /// The units that may not go into `to` by their status (A1, A4, A5).
    pub(super) fn check_statuses(&self, to: &Holder, units: &[String]) -> Result<(), RuleError> {
        for unit in units {
            let name = self.setup.unit_name(unit);
            let status = self.setup.status(unit);
            let refusal = match (to.kind, status, to.contents.is_open()) {
                (Kind::Exercitus(_), Status::Civis, _) => Some((
                    "A4",
                    format!("{name} is a Civis unit: Civis units may not be part of an Exercitus"),
                )),
                (Kind::Exercitus(_), Status::Client, _) => Some((
                    "A5",
                    format!(
                        "{name} is a Client unit: always face up, never in a holding area that may be face down"
                    ),
                )),
                (Kind::Area(Area::OffMap), Status::Civis | Status::Client, _) => Some((
                    if status == Status::Civis { "A1" } else { "A5" },
                    format!(
                        "{name} is never hidden: it goes to the {} area",
                        if status == Status::Civis {
                            "Civis"
                        } else {
                            "Client"
                        }
                    ),
                )),
                (Kind::Area(Area::Civis), s, _) if s != Status::Civis => {
                    Some(("A5", format!("{name} is not a Civis unit")))
                }
                (Kind::Area(Area::Client), s, _) if s != Status::Client => {
                    Some(("A5", format!("{name} is not a Client unit")))
                }
                (Kind::Force, Status::Civis, false) => Some((
                    "A1",
                    format!(
                        "{name} is a Civis unit: never face down, so not into a face-down force"
                    ),
                )),
                (Kind::Force, Status::Client, false) => Some((
                    "A5",
                    format!(
                        "{name} is a Client unit: always face up, so not into a face-down force"
                    ),
                )),
                _ => None,
            };
            if let Some((rule, message)) = refusal {
                return refuse(rule, message);
            }
        }
        Ok(())
    }

    pub(super) fn transfer(
        &mut self,
        side: Side,
        from: usize,
        to: &Target,
        units: &[String],
    ) -> Result<(), RuleError> {
        self.may_act(side)?;
        let source = self.own(side, from)?;
        if units.is_empty() {
            return refuse("map-intel 0", "Name at least one unit to move");
        }
        let left = self.without(&source, units)?;
        if matches!(source.kind, Kind::Force | Kind::Exercitus(_)) && !source.on_map() {
            return refuse(
                "map-intel 0",
                format!("{} is not on the map", self.label(&source)),
            );
        }
        match to {
            Target::Counter(id) => {
                let target = self.own(side, *id)?;
                if target.id == source.id {
                    return refuse("map-intel 0", "The units are there already");
                }
                if matches!(target.kind, Kind::Exercitus(_)) && !target.on_map() {
                    return refuse(
                        "A4",
                        format!(
                            "{} is not on the map: it replaces a force first",
                            self.label(&target)
                        ),
                    );
                }
                if source.on_map() && target.on_map() && source.hex != target.hex {
                    return refuse(
                        "map-intel 0",
                        format!(
                            "{} and {} are in different hexes: units regroup within one hex",
                            self.label(&source),
                            self.label(&target)
                        ),
                    );
                }
                self.check_statuses(&target, units)?;
                let mut now = self.units(&target)?;
                now.extend(units.iter().cloned());
                let changed = self.contents(&source, &left)?;
                self.push(Event::Changed {
                    id: source.id,
                    contents: changed,
                })?;
                let into = self.contents(&target, &now)?;
                self.push(Event::Changed {
                    id: target.id,
                    contents: into,
                })?;
            }
            Target::NewForce(hex) => {
                let hex = self.on_map(*hex)?;
                if source.on_map() && source.hex != Some(hex) {
                    return refuse(
                        "map-intel 0",
                        format!(
                            "A force splits off in its own hex ({}); move it after",
                            source.hex.expect("on the map")
                        ),
                    );
                }
                let face_up = units
                    .iter()
                    .any(|u| self.setup.status(u) != Status::Regular);
                let contents = if face_up {
                    Contents::Open(sorted(units))
                } else {
                    let id = self.public.holders.len();
                    Contents::Sealed(self.seal_at(side, id, 1, units)?.into())
                };
                let changed = self.contents(&source, &left)?;
                self.push(Event::Changed {
                    id: source.id,
                    contents: changed,
                })?;
                self.push(Event::Created {
                    id: self.public.holders.len(),
                    side,
                    kind: Kind::Force,
                    hex: Some(hex),
                    contents,
                })?;
            }
        }
        if left.is_empty() && source.kind == Kind::Force {
            self.push(Event::Removed {
                id: source.id,
                why: Gone::Emptied,
            })?;
        }
        Ok(())
    }
}
