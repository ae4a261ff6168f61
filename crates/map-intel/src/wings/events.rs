//! What a dummy-wings log records and what both players see folded from it
//! (RULES-map-intel B3-B10): the sealed compositions, the counters on the
//! map, what must be settled first, the events and the public state, each
//! event checked against the state before it.

use super::formation::{Formation, Placement};
use super::roll::Outcome;
use super::scenario::Type;
use super::setup::no_hexes;
use super::spotting::InRange;
use crate::map::Hex;
use muster_core::dice::{Modifier, Roll};
use muster_core::intel::{Lock, Revealed, Sealed};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};

/// What a leader counter stands for, sealed under its owner's key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Composition {
    pub real: bool,
    pub units: Vec<String>,
    /// The Wing's command rating (0 for a dummy).
    pub rating: u32,
    pub formation: Formation,
    /// Units of `units` detached to the Army Commander with this Wing
    /// (27.1.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub detached: Vec<String>,
}

impl Composition {
    pub fn dummy(formation: Formation) -> Composition {
        Composition {
            detached: Vec::new(),
            real: false,
            units: Vec::new(),
            rating: 0,
            formation,
        }
    }
}

/// What a flipped leader counter shows both players (B5 ruling): a real
/// Wing or a dummy, and its command rating; never its units, which become
/// public only when they are placed (B8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Face {
    pub real: bool,
    pub rating: u32,
}

impl Face {
    pub fn of(c: &Composition) -> Face {
        Face {
            real: c.real,
            rating: c.rating,
        }
    }
}

/// A leader counter as both players see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Counter {
    pub id: usize,
    pub side: Side,
    pub kind: Type,
    /// A Detachment stack (Torgau's masked stacks keep their spacing).
    pub detachment: bool,
    pub leader: Hex,
    pub dis: Vec<Hex>,
    pub sealed: Sealed,
    /// Its whole record, opened and checked against its commitment: a
    /// dummy once flipped, a real Wing once placed.
    pub shown: Option<Composition>,
    /// Face up: what its flip showed.
    pub face: Option<Face>,
    /// What a real Wing's flip said it is, kept (through a turn face down
    /// too) until its placement opens its record and checks it.
    pub claimed: Option<Face>,
    /// Removed (a dummy) or placed as units (a Wing).
    pub gone: bool,
    pub deployed: Option<Formation>,
    /// Hexes moved this turn by the leader and by each Dis counter.
    pub moved: u32,
    pub dis_moved: [u32; 2],
    /// How many times its composition has been sealed: the current record
    /// is bound to the slot "counter {id} seal {seals}".
    pub seals: u32,
    /// What its owner said of it for a deployment roll, checked when it
    /// is placed.
    pub claim: Option<Claim>,
    /// The record its owner sealed, as its line was called clear, to turn
    /// it face down with if the Wing it met is a dummy (B5).
    pub down: Option<Sealed>,
}

/// What a real Wing's owner says of it for a deployment roll before its
/// record opens (B6, B7, RULES-map-intel "Dummy wings played from two
/// machines"): what it adds to its die and, a stationary Wing, its last
/// formation. Its placement opens the record and checks both.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Claim {
    /// The moving Wing of the roll (its formation is said by the rule it
    /// is placed under), or a stationary one.
    pub moving: bool,
    pub modifiers: Vec<Modifier>,
    pub formation: Option<Formation>,
}

impl Counter {
    pub(crate) fn hexes(&self) -> Vec<Hex> {
        std::iter::once(self.leader)
            .chain(self.dis.iter().copied())
            .collect()
    }

    pub(crate) fn hidden(&self) -> bool {
        !self.gone && self.deployed.is_none()
    }
}

/// The hexes the leader and each Dis counter have still to enter on the
/// paths their owner traced (B4c).
pub type Rest = [Vec<Hex>; 3];

fn untraced(rest: &Rest) -> bool {
    rest.iter().all(Vec::is_empty)
}

/// What must be settled before anything else.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "pending", rename_all = "snake_case")]
pub enum Pending {
    /// Enemy Wings tied for the nearest (`tied`): the moving player says
    /// which is the closest (B10 ruling); then its line of sight is asked.
    Closest {
        moving: usize,
        candidates: Vec<InRange>,
        tied: Vec<usize>,
        rest: Rest,
    },
    /// The line of sight from the moving Wing to `candidates[asked]`;
    /// `rest`, what the Wing's move has still to enter if no line is clear.
    Sight {
        moving: usize,
        candidates: Vec<InRange>,
        asked: usize,
        spotted: Vec<usize>,
        rest: Rest,
        /// The line to the Wing asked was called clear by a real moving
        /// Wing: its owner shows what it is (`Command::Show`).
        clear: bool,
    },
    Roll {
        moving: usize,
        stationary: Vec<usize>,
    },
    /// The winning moving leader may shift up to `allowed` hexes.
    Adjust {
        moving: usize,
        allowed: u32,
        stationary: Vec<usize>,
    },
    /// These Wings are placed, each as its rule says.
    Place { wings: Vec<(usize, Placement)> },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    Placed {
        id: usize,
        side: Side,
        kind: Type,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        detachment: bool,
        leader: Hex,
        dis: [Hex; 2],
        sealed: Sealed,
    },
    /// Where a move left the counters, and how far the leader (`hexes`)
    /// and each Dis counter moved; a move stops at the hex that brought an
    /// enemy counter within 7 hexes.
    Moved {
        id: usize,
        leader: Hex,
        dis: [Hex; 2],
        hexes: u32,
        #[serde(default, skip_serializing_if = "no_hexes")]
        dis_hexes: [u32; 2],
    },
    /// A move brought enemy counters within 7 hexes, nearest first.
    InRange {
        moving: usize,
        candidates: Vec<InRange>,
        /// The hexes of the traced paths not yet entered: where the Wing
        /// goes on if every line of sight is blocked (27.1.6). Empty in
        /// games saved before the Wing went on by itself.
        #[serde(default, skip_serializing_if = "untraced")]
        rest: Rest,
    },
    /// The moving player's choice of the closest among Wings tied for it
    /// (B10 ruling).
    ClosestChosen {
        wing: usize,
    },
    /// The players' answer to the line-of-sight question; `spotted`: both
    /// leaders real, so this Wing deploys after the roll.
    Sighted {
        moving: usize,
        stationary: usize,
        clear: bool,
        spotted: bool,
    },
    /// A leader counter flipped: a dummy's whole record, opened (it holds
    /// no units); a real Wing's face only, its record opened when it is
    /// placed (B5 ruling). Games saved before the ruling open the record.
    Flipped {
        id: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        contents: Option<Revealed<Composition>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        face: Option<Face>,
    },
    Removed {
        id: usize,
    },
    /// The moving Wing met a dummy: face down again, and it may go on.
    TurnedDown {
        id: usize,
        sealed: Sealed,
    },
    Rolled {
        moving: usize,
        stationary: Vec<usize>,
        moving_roll: Roll,
        stationary_roll: Roll,
        outcome: Outcome,
    },
    Adjusted {
        id: usize,
        to: Hex,
    },
    /// The Wings to place now, each with its formation rule.
    ToPlace {
        wings: Vec<(usize, Placement)>,
    },
    /// A Wing placed as units: its record opened, so both may check its
    /// units and what its flip said (B8).
    Deployed {
        id: usize,
        formation: Formation,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        contents: Option<Revealed<Composition>>,
    },
    TurnBegan {
        number: u32,
        active: Side,
    },
    /// The line of sight from a real moving Wing to the Wing asked called
    /// clear: the stationary Wing's owner shows what it is next; `down`,
    /// the moving Wing's record sealed anew by its owner, turns it face
    /// down if that Wing is a dummy (B5).
    LineClear {
        moving: usize,
        stationary: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        down: Option<Sealed>,
    },
    /// A spotted real Wing's owner says what it adds to the deployment
    /// roll and its last formation (`Claim`).
    Claimed {
        id: usize,
        modifiers: Vec<Modifier>,
        formation: Formation,
    },
    /// A player who began without a passphrase set one (rules reference:
    /// "A passphrase set during the game").
    LockSet {
        side: Side,
        lock: Lock,
    },
    /// A counter's record sealed anew under its owner's new key, holding
    /// what it held.
    Resealed {
        id: usize,
        sealed: Sealed,
    },
    /// The players' word that the game is over, given by `by` in his
    /// turn (rules reference: "The game's end").
    GameOver {
        by: Side,
    },
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Public {
    pub counters: Vec<Counter>,
    pub turn: u32,
    pub active: Option<Side>,
    pub pending: Option<Pending>,
    /// The last roll, kept for the formations that follow it.
    pub last: Option<Outcome>,
    /// The players have said the game is over.
    pub over: bool,
}
