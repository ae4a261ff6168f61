//! What happened in Field of Glory's pre-battle sequence: the events the
//! log stores and the state folds (docs: the rules reference's Field of
//! Glory chapter, RULES 1-10), the rolls they record, and the log's entry:
//! a command with its events.

use super::*;

/// What happened. Events are what the log stores and the state folds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    Configured {
        settings: Settings,
    },
    ArmySet {
        side: Side,
        army: Army,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lock: Option<Lock>,
    },
    InitiativeRolled {
        side: Side,
        round: u32,
        roll: Roll,
    },
    InitiativeTied {
        round: u32,
        total: i32,
    },
    InitiativeWon {
        side: Side,
        south: i32,
        north: i32,
    },
    TerritoryChosen {
        side: Side,
        territory: String,
    },
    TerrainSelected {
        side: Side,
        terrain: String,
        large: bool,
        compulsory: bool,
    },
    SelectionFinished {
        side: Side,
    },
    PlacementRolled {
        side: Side,
        piece: usize,
        shape: Shape,
        roll: Roll,
        result: u8,
        /// Whether any legal position exists for the result.
        legal: bool,
    },
    PieceSetAside {
        side: Side,
        piece: usize,
    },
    PiecePlaced {
        side: Side,
        piece: usize,
        shape: Shape,
        pose: Pose,
    },
    GoingRolled {
        side: Side,
        piece: usize,
        roll: Roll,
        class: TerrainClass,
    },
    AdjustmentRolled {
        side: Side,
        piece: usize,
        roll: Roll,
        score: i32,
        allowance: Allowance,
    },
    PieceAdjusted {
        side: Side,
        piece: usize,
        action: AdjustAction,
        pose: Option<Pose>,
    },
    RoadPlaced {
        side: Side,
        points: Vec<[f64; 2]>,
    },
    RoadDeclined {
        side: Side,
    },
    CampPlaced {
        side: Side,
        pose: Pose,
    },
    FortificationPlaced {
        side: Side,
        pose: Pose,
    },
    AmbushPlaced {
        side: Side,
        at: [f64; 2],
        sealed: Sealed,
    },
    FlankMarchRecorded {
        side: Side,
        sealed: Sealed,
        /// `None`: sealed with the march, added on its owner's phone.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        modifier: Option<i32>,
    },
    FlankMarchesFinished {
        side: Side,
        off_table: usize,
    },
    StepFinished {
        side: Side,
        step: Finished,
    },
    BatchDeployed {
        side: Side,
        number: usize,
        bgs: Vec<usize>,
    },
    DismountCommitted {
        side: Side,
        bgs: Vec<usize>,
    },
    SealedChecked {
        side: Side,
        named: bool,
    },
    MovesFirstRolled {
        side: Side,
        round: u32,
        roll: Roll,
    },
    MovesFirstTied {
        round: u32,
        total: i32,
    },
    MovesFirstWon {
        side: Side,
        south: i32,
        north: i32,
    },
    ArrivalRolled {
        side: Side,
        march: usize,
        turn: u32,
        roll: Roll,
        /// `None` for a march whose modifier is sealed: its owner says.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        arrives: Option<bool>,
    },
    ArrivalSaid {
        side: Side,
        march: usize,
        arrives: bool,
    },
    FlankMarchRevealed {
        side: Side,
        march: usize,
        revealed: Revealed<FlankMarchPlan>,
        straggling: Vec<Straggle>,
        /// What the open contents show was wrong, for both to see.
        problems: Vec<String>,
    },
    AmbushRevealed {
        side: Side,
        marker: usize,
        revealed: Revealed<AmbushContent>,
        reason: RevealReason,
        problems: Vec<String>,
    },
    TurnEnded {
        side: Side,
        turn: u32,
    },
    /// The sequence stopped: a step the rules forced failed, for this
    /// reason.
    Stalled {
        why: String,
    },
}

impl Event {
    /// The dice rolls this event records.
    pub fn rolls(&self) -> Vec<&Roll> {
        match self {
            Event::InitiativeRolled { roll, .. }
            | Event::PlacementRolled { roll, .. }
            | Event::GoingRolled { roll, .. }
            | Event::AdjustmentRolled { roll, .. }
            | Event::MovesFirstRolled { roll, .. }
            | Event::ArrivalRolled { roll, .. } => vec![roll],
            Event::FlankMarchRevealed { straggling, .. } => {
                straggling.iter().map(|s| &s.roll).collect()
            }
            _ => Vec::new(),
        }
    }
}

/// One command and the events it produced: the unit of the log and of undo.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub command: Command,
    pub events: Vec<Event>,
}

/// A position of the log's chain, in words, for an unlock's refusal.
pub(super) fn position(log: &[Entry], ruleset: &Ruleset, state: &State, n: usize) -> String {
    match n {
        0 => "the battle's header (its id and ruleset)".to_string(),
        n => format!(
            "log entry {n} ({})",
            describe::entry(&log[n - 1], ruleset, state)
        ),
    }
}

impl Entry {
    pub fn has_roll(&self) -> bool {
        self.events.iter().any(|e| !e.rolls().is_empty())
    }

    /// Why this entry is never undone, if it is not: a roll, once made, or
    /// a secret revealed to both players (an undone reveal would hide again
    /// what the opponent has seen, with no trace in the log).
    pub fn never_undone(&self) -> Option<&'static str> {
        if self.has_roll() {
            return Some("a dice roll; a roll, once made, is never undone");
        }
        self.events
            .iter()
            .any(|e| {
                matches!(
                    e,
                    Event::AmbushRevealed { .. } | Event::FlankMarchRevealed { .. }
                )
            })
            .then_some("a reveal both players saw; what was shown is never hidden again")
    }
}
