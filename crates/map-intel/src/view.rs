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
