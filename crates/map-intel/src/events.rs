//! What the hidden-forces log records, and the public state both players
//! see, folded from it (RULES-map-intel 0, A1-A6).
//!
//! Every place that holds a side's units is a *holder*: a force on the map,
//! an Exercitus marker with its numbered holding area, or one of the side's
//! other holding areas (off-map, Civis, Client). A holder's contents are
//! either open (face up: the unit ids in the log) or a sealed record under
//! its owner's key, padded to one size. A change of sealed contents is a
//! new sealed record; a reveal publishes the contents with the blinding
//! value, so anyone can check them against the commitment made at sealing.

use super::map::Hex;
pub use crate::owed::{Claim, Owed};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::{Revealed, Sealed};
use muster_core::side::{Side, Sides};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A side's holding areas other than the Exercitus ones (A5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Area {
    /// Recruits and units off the map: may be face down.
    OffMap,
    /// Civis units: Muster keeps it face up (they are never hidden, A1).
    Civis,
    /// Client units: always face up (A5).
    Client,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Force,
    /// An Exercitus marker by its number, and its holding area (A4).
    Exercitus(u8),
    Area(Area),
}

/// A unit list as the log shows it: face up, or sealed. A sealed record
/// is shared, not copied, between the log, the public state and the copy
/// a command is checked on (a record is some 2 KB of hex: copying every
/// holder's for each command was most of a command's work); it is written
/// and read exactly as the record itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Contents {
    Open(Vec<String>),
    Sealed(Arc<Sealed>),
}

impl Contents {
    pub fn is_open(&self) -> bool {
        matches!(self, Contents::Open(_))
    }
}

/// Why a holder was revealed (A2 a-e).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// (a) an Agent Stratagem marker spent on it.
    Agent,
    /// (b) a unit of the other side entered its hex.
    EnemyEntered,
    /// (c) it entered a hex holding the other side's units.
    EnteredEnemy,
    /// (d) combat in its hex.
    Combat,
    /// (e) its owner showed it.
    Voluntary,
}

impl Reason {
    pub fn words(self) -> &'static str {
        match self {
            Reason::Agent => "an Agent Stratagem marker was spent on it (A2a)",
            Reason::EnemyEntered => "an enemy unit entered its hex (A2b)",
            Reason::EnteredEnemy => "it entered a hex holding enemy units (A2c)",
            Reason::Combat => "combat in its hex (A2d)",
            Reason::Voluntary => "its owner revealed it (A2e)",
        }
    }
}

/// Why a holder left the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gone {
    /// Its last units went to another holder.
    Emptied,
    /// An Exercitus took its place (A4).
    Replaced,
    /// An Exercitus revealed with no units (A4 ruling).
    EmptyExercitus,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// A holder comes into being: the side's areas and Exercitus markers at
    /// the start, a new force later. `hex` is its place on the map.
    Created {
        id: usize,
        side: Side,
        kind: Kind,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hex: Option<Hex>,
        contents: Contents,
    },
    /// New contents of a holder, in the owner's turn.
    Changed {
        id: usize,
        contents: Contents,
    },
    Moved {
        id: usize,
        from: Hex,
        to: Hex,
    },
    /// An Exercitus marker goes on the map, its holding area sealed anew.
    Placed {
        id: usize,
        hex: Hex,
        contents: Sealed,
    },
    /// A holder leaves the map (or, for an Exercitus, goes off it).
    Removed {
        id: usize,
        why: Gone,
    },
    /// The sealed contents shown to both, checkable against the commitment.
    Revealed {
        id: usize,
        reason: Reason,
        contents: Revealed<Vec<String>>,
    },
    /// A revealed holder turned face down again at its owner's turn.
    TurnedDown {
        id: usize,
        contents: Sealed,
    },
    AgentSpent {
        by: Side,
    },
    /// Combat in `hex` (A2d): its counters face down are revealed next;
    /// logged even when all were face up already.
    Combat {
        hex: Hex,
    },
    /// An Agent's intelligence mission (A2a): `by` examines the enemy
    /// holder `id`, its contents shown to him alone; both see only that he
    /// did. It stays face down.
    Examined {
        by: Side,
        id: usize,
    },
    /// An empty Exercitus was revealed: its owner may place it at once on
    /// a friendly force (A4 ruling), or decline.
    MayReplace {
        side: Side,
        number: u8,
    },
    ReplaceDeclined {
        side: Side,
        number: u8,
    },
    /// Set-up is over (turn 1) or a side's turn begins.
    TurnBegan {
        number: u32,
        active: Side,
    },
    /// A step the rules force next, decided with its side's key (an
    /// entry's answer, a reveal).
    Owed {
        owed: Owed,
    },
    /// `side` answers an entry into his counters in `hex`; while the mover
    /// is face down, he says whether they hold units (A2c).
    Answered {
        side: Side,
        hex: Hex,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        holds: Option<bool>,
    },
    /// The players' word that the game is over, given by `by` in his
    /// turn: nothing follows, and each player's records may be opened for
    /// the other to check (rules reference: "The game's end").
    GameOver {
        by: Side,
    },
    /// `side`, who began without a passphrase, sets one on his own
    /// machine: his records are sealed anew under it in the same entry
    /// (rules reference: "A passphrase set during the game").
    LockSet {
        side: Side,
        lock: muster_core::intel::Lock,
    },
}

/// A holder as both players see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Holder {
    pub id: usize,
    pub side: Side,
    pub kind: Kind,
    pub hex: Option<Hex>,
    pub contents: Contents,
    /// The turn in which it was last revealed, while it is face up for it.
    pub revealed: Option<u32>,
    /// Left the map for good (a force).
    pub gone: bool,
    /// How many times its contents have been sealed: the current record is
    /// bound to the slot "holder {id} seal {seals}".
    pub seals: u32,
}

impl Holder {
    pub fn on_map(&self) -> bool {
        self.hex.is_some() && !self.gone
    }

    /// "Ann's (Rome) force 14", "Bob's (Parthia) Exercitus 2".
    pub fn label(&self, names: &Sides<String>) -> String {
        label(&names[self.side], self.kind, self.id)
    }
}

/// A holder's name in the log and on screen.
pub fn label(who: &str, kind: Kind, id: usize) -> String {
    format!("{} {}", muster_core::text::possessive(who), noun(kind, id))
}

/// A holder among its side's: "force 14", "Exercitus 2", "off-map area".
pub fn noun(kind: Kind, id: usize) -> String {
    match kind {
        Kind::Force => format!("force {id}"),
        Kind::Exercitus(number) => format!("Exercitus {number}"),
        Kind::Area(area) => format!(
            "{} area",
            match area {
                Area::OffMap => "off-map",
                Area::Civis => "Civis",
                Area::Client => "Client",
            }
        ),
    }
}

/// The state both players see.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Public {
    pub holders: Vec<Holder>,
    /// 0 during set-up; then each side's turn counts one.
    pub turn: u32,
    pub active: Option<Side>,
    pub agents: Sides<u32>,
    /// Empty Exercitus markers their owners may place at once.
    pub may_replace: Vec<(Side, u8)>,
    /// Who examined which holder with an Agent, and the seal he saw: what
    /// he learnt holds until its contents are sealed anew.
    pub examined: Vec<Examination>,
    /// The step the rules force next, if any.
    pub owed: Option<Owed>,
    /// Claims not yet checked against what the counters hold.
    pub claims: Vec<Claim>,
    /// Claims found false once the counters were shown.
    pub false_claims: Vec<Claim>,
    /// The players have said the game is over.
    pub over: bool,
}

/// One Agent's examination (A2a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Examination {
    pub by: Side,
    pub id: usize,
    pub seals: u32,
}

impl Public {
    /// Whether `viewer` examined `h` as it is sealed now.
    pub fn examined_by(&self, viewer: Side, h: &Holder) -> bool {
        self.examined.contains(&Examination {
            by: viewer,
            id: h.id,
            seals: h.seals,
        })
    }
}

impl Public {
    pub fn new(agents: u32) -> Public {
        Public {
            agents: Sides {
                south: agents,
                north: agents,
            },
            ..Public::default()
        }
    }

    pub fn holder(&self, id: usize) -> Result<&Holder, RuleError> {
        self.holders
            .get(id)
            .ok_or_else(|| RuleError::new("map-intel 0", format!("there is no counter {id}")))
    }

    fn holder_mut(&mut self, id: usize) -> Result<&mut Holder, RuleError> {
        self.holders
            .get_mut(id)
            .ok_or_else(|| RuleError::new("map-intel 0", format!("there is no counter {id}")))
    }

    /// `side`'s Exercitus marker `number`.
    pub fn exercitus(&self, side: Side, number: u8) -> Option<&Holder> {
        self.holders
            .iter()
            .find(|h| h.side == side && h.kind == Kind::Exercitus(number))
    }

    pub fn area(&self, side: Side, area: Area) -> Option<&Holder> {
        self.holders
            .iter()
            .find(|h| h.side == side && h.kind == Kind::Area(area))
    }

    /// The holders on the map in a hex.
    pub fn in_hex(&self, hex: Hex) -> impl Iterator<Item = &Holder> {
        self.holders
            .iter()
            .filter(move |h| h.on_map() && h.hex == Some(hex))
    }

    /// Folds one event in; an event that does not fit is refused.
    pub fn fold(&mut self, event: &Event) -> Result<(), RuleError> {
        if self.over {
            return refuse("map-intel 0", "the game is over");
        }
        self.during_owed(event)?;
        match event {
            Event::Created {
                id,
                side,
                kind,
                hex,
                contents,
            } => {
                next_id(*id, self.holders.len(), "map-intel 0")?;
                self.holders.push(Holder {
                    id: *id,
                    side: *side,
                    kind: *kind,
                    hex: *hex,
                    contents: contents.clone(),
                    revealed: None,
                    gone: false,
                    seals: u32::from(!contents.is_open()),
                });
            }
            Event::Changed { id, contents } => {
                let h = self.holder_mut(*id)?;
                if contents.is_open() != h.contents.is_open() {
                    return refuse(
                        "map-intel 0",
                        format!("counter {id} changes face without a reveal"),
                    );
                }
                h.contents = contents.clone();
                h.seals += u32::from(!contents.is_open());
            }
            Event::Moved { id, from, to } => {
                let h = self.holder_mut(*id)?;
                if h.hex != Some(*from) || h.gone || from == to {
                    return refuse("map-intel 0", format!("counter {id} is not in {from}"));
                }
                h.hex = Some(*to);
            }
            Event::Placed { id, hex, contents } => {
                let h = self.holder_mut(*id)?;
                let (side, kind) = (h.side, h.kind);
                h.hex = Some(*hex);
                h.contents = Contents::Sealed(Arc::new(contents.clone()));
                h.seals += 1;
                h.revealed = None;
                if let Kind::Exercitus(number) = kind {
                    self.may_replace.retain(|p| *p != (side, number));
                }
            }
            Event::Removed { id, .. } => {
                let h = self.holder_mut(*id)?;
                // An Exercitus off the map stays revealed for A3's turn.
                match h.kind {
                    Kind::Exercitus(_) => h.hex = None,
                    _ => {
                        h.gone = true;
                        h.revealed = None;
                    }
                }
            }
            Event::Revealed { id, contents, .. } => {
                let turn = self.turn;
                let h = self.holder_mut(*id)?;
                let Contents::Sealed(sealed) = &h.contents else {
                    return refuse("map-intel 0", format!("counter {id} is face up already"));
                };
                sealed
                    .check(contents)
                    .map_err(|e| RuleError::new("map-intel 0", format!("counter {id}: {e}")))?;
                h.contents = Contents::Open(contents.secret.clone());
                h.revealed = Some(turn);
                self.revealed_owed(*id);
                self.check_claims();
            }
            Event::TurnedDown { id, contents } => {
                let (playing, turn) = (self.active.is_some(), self.turn);
                let h = self.holder_mut(*id)?;
                if !h.contents.is_open() {
                    return refuse("A3", format!("counter {id} is face down already"));
                }
                // An Exercitus revealed and taken off the map this turn was
                // turned down at once in games saved before A3 held it
                // too: those still read; the rules refuse it now
                // (`may_turn_down`).
                if playing && h.hex.is_some() && h.revealed.is_some_and(|revealed| revealed >= turn)
                {
                    return refuse(
                        "A3",
                        format!("counter {id} goes face down in the turn it was revealed"),
                    );
                }
                h.contents = Contents::Sealed(Arc::new(contents.clone()));
                h.seals += 1;
                h.revealed = None;
            }
            Event::Combat { hex } => {
                if self.active.is_none() {
                    return refuse("A2", format!("combat in {hex} before play begins"));
                }
            }
            Event::AgentSpent { by } => {
                if self.agents[*by] == 0 {
                    return refuse("A6", format!("{by} has no Agent Stratagem marker left"));
                }
                self.agents[*by] -= 1;
            }
            Event::Examined { by, id } => {
                let h = self.holder(*id)?;
                if h.side == *by || h.contents.is_open() {
                    return refuse(
                        "A2",
                        format!("counter {id} is not a face-down enemy counter of {by}'s"),
                    );
                }
                let seen = Examination {
                    by: *by,
                    id: *id,
                    seals: h.seals,
                };
                self.examined.push(seen);
            }
            Event::MayReplace { side, number } => self.may_replace.push((*side, *number)),
            Event::ReplaceDeclined { side, number } => {
                self.may_replace.retain(|p| *p != (*side, *number))
            }
            Event::TurnBegan { number, active } => {
                // Turns follow one another, the players alternating.
                if self.turn.checked_add(1) != Some(*number) || self.active == Some(*active) {
                    return refuse(
                        "map-intel 0",
                        format!("turn {number} ({active}) cannot follow turn {}", self.turn),
                    );
                }
                self.turn = *number;
                self.active = Some(*active);
            }
            Event::Owed { owed } => self.owe(owed)?,
            Event::Answered { side, hex, holds } => self.answered(*side, *hex, *holds)?,
            // The ledger keeps the lock; his records follow as `Changed`.
            Event::LockSet { .. } => {}
            Event::GameOver { by } => {
                if self.active != Some(*by) {
                    return refuse(
                        "map-intel 0",
                        format!("{by} ends the game outside their turn"),
                    );
                }
                self.over = true;
            }
        }
        Ok(())
    }
}

/// A new counter's id must be the next one: counters are numbered in the
/// order they were made, so one out of order is refused, citing `rule`.
pub(crate) fn next_id(id: usize, made: usize, rule: &str) -> Result<(), RuleError> {
    if id != made {
        return refuse(rule, format!("counter {id} is out of order"));
    }
    Ok(())
}
