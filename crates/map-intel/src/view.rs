//! What one player, or the table, may see of the hidden-forces map
//! (RULES-map-intel A1-A2): each counter's units only when face up or his
//! own, computed without the rest.

use super::events::Kind;
use super::map::Hex;
use muster_core::side::{Side, Sides};
use serde::Serialize;

/// What a player may see of a counter: its units, or nothing ("?").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeenHolder {
    pub id: usize,
    pub side: Side,
    pub kind: Kind,
    pub hex: Option<Hex>,
    pub face_up: bool,
    /// `None`: the viewer may not examine it.
    pub units: Option<Vec<String>>,
    pub revealed: Option<u32>,
    /// The first 80 bits of its sealed record's commitment.
    pub code: Option<String>,
}

/// One player's view: the public state with his own contents opened and
/// nothing of the other side's face-down contents (not even the sealed
/// bytes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    /// `None`: the table both players watch, no side's contents opened.
    pub viewer: Option<Side>,
    pub turn: u32,
    pub active: Option<Side>,
    pub agents: Sides<u32>,
    pub holders: Vec<SeenHolder>,
    pub may_replace: Vec<(Side, u8)>,
}

impl View {
    /// `side`'s counters he may turn face down again from the start of
    /// his turn (A3), when it is his: face up, revealed before this turn,
    /// neither Civis nor Client, holding only regular units.
    pub fn may_turn_down(
        &self,
        scenario: &super::scenario::Scenario,
        side: Side,
    ) -> Vec<&SeenHolder> {
        use super::events::Area;
        use super::scenario::Status;
        let active = side;
        if self.active != Some(side) {
            return Vec::new();
        }
        let regular = |units: &Option<Vec<String>>| {
            units.as_ref().is_some_and(|u| {
                u.iter().all(|id| {
                    scenario.sides[active]
                        .unit(id)
                        .is_some_and(|unit| unit.status == Status::Regular)
                })
            })
        };
        self.holders
            .iter()
            .filter(|h| {
                h.side == active
                    && h.face_up
                    && !matches!(h.kind, Kind::Area(Area::Civis | Area::Client))
                    && h.revealed.is_none_or(|turn| turn < self.turn)
                    && regular(&h.units)
            })
            .collect()
    }
}
