//! The battle: commands in, events out, state as a fold of the event log.
//!
//! `Battle::apply` checks a command against the rules and, if legal, turns it
//! into events, appends them to the log and folds them into the state. The log
//! is the saved battle; replaying it reproduces the state exactly. Undo removes
//! the last *choice*; a dice roll is never undone (RULES 11). One submodule per
//! step of the sequence decides its commands.

mod adjustment;
mod ambush;
mod deployment;
mod describe;
mod flank_march;
mod initiative;
mod moves_first;
mod off_table;
mod placement;
mod play;
mod selection;
mod settings;
mod state;
mod territory;
mod trust;

pub use adjustment::{AdjustAction, Allowance, allowance, check_adjust};
pub use ambush::{
    AMBUSH_RECORD_BYTES, AmbushMap, AmbushMaps, Profile, RevealReason, Verdict, check_ambush,
    enemy_area, open_ambushes, reveal_ambush, seal_ambush, sightlines,
};
pub use deployment::{
    Ambush, AmbushContent, DeploymentState, DeploymentTurn, Finished, batch_order, batch_plan,
    batch_sizes, camp_footprint, check_camp, check_fortification, describe_turn,
    fortification_footprint, march_number, marker_number, on_table_count, reach, sealed_check_due,
};
pub use describe::zone_text;
pub use flank_march::{
    FLANK_MARCH_RECORD_BYTES, Flank, FlankMarch, FlankMarchPlan, Straggle, arrival_by_turn,
    arrival_chance, arrival_modifiers, check_plan, due as arrivals_due, open_marches, reveal_plan,
    straggle_chance, straggle_modifiers, to_reveal, word as arrival_word,
};
pub use moves_first::modifiers as moves_first_modifiers;
use muster_core::intel::trail::Trail;
pub use off_table::{misplaced_bgs, seal_march, sealed_bgs};
pub use placement::{
    Laid, PlacementState, PlacementTurn, check_pose, check_road, legal_pose_exists,
    nearest_legal_pose, piece_name, placement_rolled, zone_highlight,
};
pub use selection::{SelectOption, compulsory_pieces};
pub use settings::{Settings, TableSize};
pub use state::current as current_turn;
pub use state::{Phase, Pick, RollOff, SelectionState, State, Step, StepStatus, deployed_bgs};
pub use territory::choices as territory_choices;
pub use trust::{Tags, chain, new_id as new_battle_id};

use crate::army::Army;
use crate::geometry::{Pose, Shape, SideEdge};
use crate::ruleset::{Ruleset, TerrainClass};
use muster_core::dice::{AppDice, DiceInput, Roll};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::ledger::Digest32;
use muster_core::intel::{Lock, Opener, PlayerKey, Revealed, SealKey, Sealed};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};

/// What a player asks for. The UI and the scripting interface send the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Battle title, table size, what 1 MU is, display unit.
    Configure { settings: Settings },
    /// Enters or replaces a side's army (RULES 1), until initiative is rolled,
    /// with the lock of the player's passphrase when he sets one.
    SetArmy {
        side: Side,
        army: Army,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lock: Option<Lock>,
    },
    /// A side's initiative roll (RULES 2).
    RollInitiative { side: Side, dice: DiceInput },
    /// The initiative holder picks the territory type (RULES 3).
    ChooseTerritory { side: Side, territory: String },
    /// One of the two compulsory pieces (RULES 4, steps 1-2).
    ChooseCompulsory { side: Side, terrain: String },
    /// One selection of remaining terrain (RULES 4, steps 3-4).
    SelectTerrain {
        side: Side,
        terrain: String,
        #[serde(default)]
        large: bool,
    },
    /// The player is done selecting (RULES 4, steps 3-4).
    FinishSelection { side: Side },
    /// The initiative holder lays his river or coast along a side edge:
    /// `width` MU wide, `offset` MU in from the edge (a coast: 0) (RULES 5).
    PlaceWaterway {
        side: Side,
        edge: SideEdge,
        width: f64,
        #[serde(default)]
        offset: f64,
    },
    /// The river's going (RULES 5).
    RollGoing { side: Side, dice: DiceInput },
    /// The placer picks a selected piece, the physical piece (shape) he will
    /// use for it, and rolls for where it goes (RULES 5).
    RollPlacement {
        side: Side,
        piece: usize,
        shape: Shape,
        dice: DiceInput,
    },
    /// Puts the rolled piece down at a pose (RULES 5).
    PlacePiece { side: Side, pose: Pose },
    /// The placer's opponent rolls to adjust the piece just placed (RULES 6).
    RollAdjustment { side: Side, dice: DiceInput },
    /// The adjustment, or declining it (RULES 6).
    Adjust { side: Side, action: AdjustAction },
    /// The initiative holder's road: its centre line, edge to edge (RULES 5).
    PlaceRoad { side: Side, points: Vec<[f64; 2]> },
    /// The initiative holder places no road.
    DeclineRoad { side: Side },
    /// The camp, a footprint from the ruleset at a pose (RULES 8.1).
    PlaceCamp { side: Side, pose: Pose },
    /// One field fortification section (RULES 8.2).
    PlaceFortification { side: Side, pose: Pose },
    /// An ambush marker at a point, what it is sealed (RULES 8.3); made by
    /// `seal_ambush` on the owner's screen.
    PlaceAmbush {
        side: Side,
        at: [f64; 2],
        sealed: Sealed,
    },
    /// A flank march, sealed, with its arrival modifier stated, or sealed
    /// with it when its owner keeps it on his phone (RULES 8.4, 10); made
    /// by `seal_march` on the owner's screen.
    RecordFlankMarch {
        side: Side,
        sealed: Sealed,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        modifier: Option<i32>,
    },
    /// The player has recorded his flank marches; `off_table` is how many
    /// battle groups he keeps off the table, in ambush or marching.
    FinishFlankMarches { side: Side, off_table: usize },
    /// The player is done with a deployment step (RULES 8).
    Finish { side: Side, step: Finished },
    /// The battle groups set on the real table in this batch (RULES 8.5).
    DeployBatch { side: Side, bgs: Vec<usize> },
    /// The battle groups that will dismount; none is a valid answer (RULES 8.6).
    CommitDismount { side: Side, bgs: Vec<usize> },
    /// His private check at the end of deployment (RULES 8.5 ruling) is
    /// made: whether it named a battle group both sealed and deployed. His
    /// word, which nobody else can check until a reveal; the log says only
    /// that much, never which group.
    CheckSealed { side: Side, named: bool },
    /// A side's roll for who moves first (RULES 9).
    RollMovesFirst { side: Side, dice: DiceInput },
    /// A flank march's arrival roll at the start of its owner's turn (RULES 10).
    RollArrival {
        side: Side,
        march: usize,
        dice: DiceInput,
    },
    /// An arrived flank march revealed, with one straggling roll per battle
    /// group (RULES 10); made by `reveal_plan` on the owner's screen.
    RevealFlankMarch {
        side: Side,
        march: usize,
        revealed: Revealed<FlankMarchPlan>,
        straggling: Vec<DiceInput>,
    },
    /// An ambush marker revealed, and why (RULES 8.3); made by
    /// `reveal_ambush` on the owner's screen.
    RevealAmbush {
        side: Side,
        marker: usize,
        revealed: Revealed<AmbushContent>,
        reason: RevealReason,
    },
    /// The owner of a march whose modifier is sealed says whether its last
    /// arrival roll brings it on (RULES 10, players' screens ruling): his
    /// phone adds the modifier; the reveal checks his word.
    SayArrival {
        side: Side,
        march: usize,
        arrives: bool,
    },
    /// The player to move ends his turn.
    EndTurn { side: Side },
    /// A note in the log that a step the rules forced failed (`seat::play`
    /// writes it, never a player): both players read why the sequence
    /// stopped, and decide at the table.
    Stalled { why: String },
}

impl Command {
    /// The side whose player gives the command (`None`: the table's, as
    /// the battle's settings, or the log's own note).
    pub fn side(&self) -> Option<Side> {
        use Command::*;
        match self {
            Configure { .. } | Stalled { .. } => None,
            SetArmy { side, .. }
            | RollInitiative { side, .. }
            | ChooseTerritory { side, .. }
            | ChooseCompulsory { side, .. }
            | SelectTerrain { side, .. }
            | FinishSelection { side }
            | PlaceWaterway { side, .. }
            | RollGoing { side, .. }
            | RollPlacement { side, .. }
            | PlacePiece { side, .. }
            | RollAdjustment { side, .. }
            | Adjust { side, .. }
            | PlaceRoad { side, .. }
            | DeclineRoad { side }
            | PlaceCamp { side, .. }
            | PlaceFortification { side, .. }
            | PlaceAmbush { side, .. }
            | RecordFlankMarch { side, .. }
            | FinishFlankMarches { side, .. }
            | Finish { side, .. }
            | DeployBatch { side, .. }
            | CommitDismount { side, .. }
            | CheckSealed { side, .. }
            | RollMovesFirst { side, .. }
            | RollArrival { side, .. }
            | RevealFlankMarch { side, .. }
            | RevealAmbush { side, .. }
            | SayArrival { side, .. }
            | EndTurn { side } => Some(*side),
        }
    }

    /// Every length, coordinate and angle in the command must be a finite
    /// number of sensible size, and a shape a shape, before any rule or any
    /// geometry looks at it. The refusal names the field.
    fn check_numbers(&self) -> Result<(), RuleError> {
        use crate::geometry::MAX_COORDINATE;
        let pose = |p: &Pose| vec![("pose.x", p.x), ("pose.y", p.y), ("pose.angle", p.angle)];
        let numbers: Vec<(&str, f64)> = match self {
            Command::Configure { settings } => vec![
                ("settings.table.width", settings.table.width),
                ("settings.table.depth", settings.table.depth),
            ],
            Command::PlaceWaterway { width, offset, .. } => {
                vec![("width", *width), ("offset", *offset)]
            }
            Command::RollPlacement { shape, .. } => {
                shape
                    .validate()
                    .map_err(|e| RuleError::new("input", format!("shape.{e}")))?;
                vec![]
            }
            Command::PlacePiece { pose: p, .. }
            | Command::PlaceCamp { pose: p, .. }
            | Command::PlaceFortification { pose: p, .. } => pose(p),
            Command::Adjust { action, .. } => match action {
                AdjustAction::Slide { dx, dy } => vec![("action.dx", *dx), ("action.dy", *dy)],
                AdjustAction::Pivot { x, y, degrees } => vec![
                    ("action.x", *x),
                    ("action.y", *y),
                    ("action.degrees", *degrees),
                ],
                _ => vec![],
            },
            Command::PlaceRoad { points, .. } => {
                if points.len() > crate::geometry::MAX_POLYGON_POINTS {
                    return refuse(
                        "input",
                        format!(
                            "points: a road has at most {} points",
                            crate::geometry::MAX_POLYGON_POINTS
                        ),
                    );
                }
                points
                    .iter()
                    .flat_map(|p| [("points", p[0]), ("points", p[1])])
                    .collect()
            }
            Command::PlaceAmbush { at, .. } => vec![("at", at[0]), ("at", at[1])],
            _ => vec![],
        };
        match numbers
            .into_iter()
            .find(|(_, v)| !v.is_finite() || v.abs() > MAX_COORDINATE)
        {
            Some((field, v)) => refuse(
                "input",
                format!(
                    "{field}: {v} is not a number Muster can use (finite, at most {MAX_COORDINATE} MU or degrees)"
                ),
            ),
            None => Ok(()),
        }
    }
}

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

/// `pick` must be one of `offered` (ids), each named for the player by
/// `name`; refused citing `rule` otherwise, in the words `why` gives for
/// the pick's name and the offered names.
fn one_of(
    rule: &str,
    pick: &str,
    offered: &[String],
    name: impl Fn(&str) -> String,
    why: impl FnOnce(&str, String) -> String,
) -> Result<(), RuleError> {
    if offered.iter().any(|o| o == pick) {
        return Ok(());
    }
    let names: Vec<String> = offered.iter().map(|o| name(o)).collect();
    refuse(rule, why(&name(pick), names.join(", ")))
}

/// A record of a player's opened with his sealing key where it is sealed
/// (an ambush marker, a flank march); why not, citing `rule`.
fn opened<T: Serialize + serde::de::DeserializeOwned>(
    sealed: &Sealed,
    key: &SealKey,
    place: &muster_core::intel::Place,
    rule: &str,
) -> Result<Revealed<T>, RuleError> {
    sealed
        .open(key, place)
        .map_err(|e| RuleError::new(rule, e.to_string()))
}

/// One command and the events it produced: the unit of the log and of undo.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub command: Command,
    pub events: Vec<Event>,
}

/// A position of the log's chain, in words, for an unlock's refusal.
fn position(log: &[Entry], ruleset: &Ruleset, state: &State, n: usize) -> String {
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

/// A battle in progress.
#[derive(Clone, Debug)]
pub struct Battle {
    ruleset: Ruleset,
    /// A random name for this battle: autosaves are kept per battle, and the
    /// log's chain starts from it.
    id: String,
    log: Vec<Entry>,
    state: State,
    /// Entries taken back by undo, newest last; cleared by any new command.
    redo: Vec<Entry>,
    /// Where app dice come from; never saved.
    dice: AppDice,
    /// The log's chain, each player's tags on it, and the log keys held.
    trust: Trail,
    /// Each side's ambush legality map for his private screen, worked out
    /// again only when the terrain changes (a cache, never saved).
    ambush_maps: ambush::MapCache,
}

impl Battle {
    /// A new battle on default settings, with a fresh id and the operating
    /// system's dice.
    pub fn new(ruleset: Ruleset) -> Battle {
        Battle::with_id(ruleset, trust::new_id())
    }

    fn with_id(ruleset: Ruleset, id: String) -> Battle {
        let trust = Trail::new(trust::genesis(&id, &ruleset));
        Battle {
            ruleset,
            state: State {
                game: id.clone(),
                ..State::default()
            },
            id,
            log: Vec::new(),
            redo: Vec::new(),
            dice: AppDice::Os,
            trust,
            ambush_maps: Default::default(),
        }
    }

    /// The battle's cache of each side's ambush legality map, for his
    /// private screen.
    pub fn ambush_maps(&self) -> &ambush::MapCache {
        &self.ambush_maps
    }

    /// Draws app dice from `dice` from now on (a fixed seed for scripted
    /// tests and demonstrations; never stored).
    pub fn use_dice(&mut self, dice: AppDice) {
        self.dice = dice;
    }

    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn log(&self) -> &[Entry] {
        &self.log
    }

    pub fn phase(&self) -> Phase {
        self.state.phase(&self.ruleset)
    }

    /// Checks a command without applying it. App dice in it are thrown for
    /// the look only, from the operating system: the roll that counts is the
    /// one `apply` makes.
    pub fn check(&self, command: &Command) -> Result<Vec<Event>, RuleError> {
        self.decide(command, &mut AppDice::Os)
    }

    fn decide(&self, command: &Command, app: &mut AppDice) -> Result<Vec<Event>, RuleError> {
        command.check_numbers()?;
        let (s, r) = (&self.state, &self.ruleset);
        match command {
            Command::Configure { settings } => settings::decide(s, settings),
            Command::SetArmy { side, army, lock } => {
                initiative::decide_army(s, r, *side, army, lock.as_ref())
            }
            Command::RollInitiative { side, dice } => {
                initiative::decide_roll(s, r, app, *side, dice)
            }
            Command::ChooseTerritory { side, territory } => {
                territory::decide(s, r, *side, territory)
            }
            Command::ChooseCompulsory { side, terrain } => {
                selection::decide_compulsory(s, r, *side, terrain)
            }
            Command::SelectTerrain {
                side,
                terrain,
                large,
            } => selection::decide_select(s, r, *side, terrain, *large),
            Command::FinishSelection { side } => selection::decide_finish(s, r, *side),
            Command::PlaceWaterway {
                side,
                edge,
                width,
                offset,
            } => placement::decide_waterway(s, r, *side, *edge, *width, *offset),
            Command::RollGoing { side, dice } => placement::decide_going(s, r, app, *side, dice),
            Command::RollPlacement {
                side,
                piece,
                shape,
                dice,
            } => placement::decide_roll(s, r, app, *side, *piece, shape, dice),
            Command::PlacePiece { side, pose } => placement::decide_place(s, r, *side, *pose),
            Command::RollAdjustment { side, dice } => {
                adjustment::decide_roll(s, r, app, *side, dice)
            }
            Command::Adjust { side, action } => adjustment::decide_adjust(s, r, *side, action),
            Command::PlaceRoad { side, points } => {
                placement::decide_road(s, r, *side, Some(points))
            }
            Command::DeclineRoad { side } => placement::decide_road(s, r, *side, None),
            Command::PlaceCamp { side, pose } => deployment::decide_camp(s, r, *side, *pose),
            Command::PlaceFortification { side, pose } => {
                deployment::decide_fortification(s, r, *side, *pose)
            }
            Command::PlaceAmbush { side, at, sealed } => {
                ambush::decide_place(s, r, *side, *at, sealed)
            }
            Command::RecordFlankMarch {
                side,
                sealed,
                modifier,
            } => flank_march::decide_record(s, r, *side, sealed, *modifier),
            Command::FinishFlankMarches { side, off_table } => {
                flank_march::decide_finish(s, r, *side, *off_table)
            }
            Command::RollArrival { side, march, dice } => {
                flank_march::decide_roll(s, r, app, *side, *march, dice)
            }
            Command::SayArrival {
                side,
                march,
                arrives,
            } => flank_march::decide_say(s, *side, *march, *arrives),
            Command::RevealFlankMarch {
                side,
                march,
                revealed,
                straggling,
            } => flank_march::decide_reveal(s, r, app, *side, *march, revealed, straggling),
            Command::RevealAmbush {
                side,
                marker,
                revealed,
                reason,
            } => ambush::decide_reveal(s, r, *side, *marker, revealed, *reason),
            Command::EndTurn { side } => play::decide_end_turn(s, r, *side),
            Command::Stalled { why } => Ok(vec![Event::Stalled { why: why.clone() }]),
            Command::Finish { side, step } => deployment::decide_finish(s, r, *side, *step),
            Command::DeployBatch { side, bgs } => deployment::decide_batch(s, r, *side, bgs),
            Command::CommitDismount { side, bgs } => deployment::decide_dismount(s, r, *side, bgs),
            Command::CheckSealed { side, named } => deployment::decide_checked(s, r, *side, *named),
            Command::RollMovesFirst { side, dice } => {
                moves_first::decide_roll(s, r, app, *side, dice)
            }
        }
    }

    /// Notes in the log that a step the rules forced failed, `why` (see
    /// `Command::Stalled`); a battle nothing may be added to (read-only
    /// until unlocked) changed nothing that could stall.
    pub fn note_stall(&mut self, why: &RuleError) {
        let _ = self.apply(Command::Stalled {
            why: why.to_string(),
        });
    }

    /// Applies a command: on success its events are logged, tagged by every
    /// player whose key is held, and folded in. While a player with a
    /// passphrase has not unlocked the battle, nothing can be added.
    pub fn apply(&mut self, command: Command) -> Result<Vec<Event>, RuleError> {
        self.trust.writable(&self.state.locks)?;
        let mut dice = std::mem::take(&mut self.dice);
        let decided = self.decide(&command, &mut dice);
        self.dice = dice;
        let events = decided?;
        self.new_locks_held(&events)?;
        self.append(command, events.clone());
        self.redo.clear();
        Ok(events)
    }

    /// A lock `events` set needs its player's key held here (he has just
    /// typed his passphrase on this screen), or his machine's word in a
    /// remote game.
    fn new_locks_held(&self, events: &[Event]) -> Result<(), RuleError> {
        for side in trust::new_locks(events) {
            if self.state.locks[side].is_none()
                && let Some(lock) = events.iter().find_map(|e| match e {
                    Event::ArmySet {
                        side: s,
                        lock: Some(lock),
                        ..
                    } if *s == side => Some(lock),
                    _ => None,
                })
            {
                self.trust.check_new_lock(side, lock)?;
            }
        }
        Ok(())
    }

    /// Logs an entry, folds its events in, extends the chain and tags it.
    fn append(&mut self, command: Command, events: Vec<Event>) {
        for event in &events {
            self.state.fold(&self.ruleset, event);
        }
        self.log.push(Entry { command, events });
        let entry = self.log.last().expect("just pushed");
        self.trust
            .append(entry, &self.state.locks, &trust::new_locks(&entry.events));
    }

    /// Takes back the last entry if it is a choice. A roll is refused.
    pub fn undo(&mut self) -> Result<(), RuleError> {
        self.trust.writable(&self.state.locks)?;
        let Some(last) = self.log.last() else {
            return refuse("11", "There is nothing to undo");
        };
        if let Some(why) = last.never_undone() {
            let what = describe::entry(last, &self.ruleset, &self.state);
            return refuse("11", format!("The last entry ({what}) is {why}"));
        }
        let entry = self.log.pop().expect("checked above");
        self.trust.pop();
        self.redo.push(entry);
        self.refold();
        self.trust.drop_unlocked_tags(&self.state.locks);
        Ok(())
    }

    /// Puts back the entry the last undo took.
    pub fn redo(&mut self) -> Result<(), RuleError> {
        self.trust.writable(&self.state.locks)?;
        let Some(entry) = self.redo.pop() else {
            return refuse("11", "There is nothing to redo");
        };
        self.append(entry.command, entry.events);
        Ok(())
    }

    pub fn can_undo(&self) -> bool {
        self.trust.writable(&self.state.locks).is_ok()
            && self.log.last().is_some_and(|e| e.never_undone().is_none())
    }

    pub fn can_redo(&self) -> bool {
        self.trust.writable(&self.state.locks).is_ok() && !self.redo.is_empty()
    }

    fn refold(&mut self) {
        self.state = State {
            game: self.id.clone(),
            ..State::default()
        };
        for event in self.log.iter().flat_map(|e| &e.events) {
            self.state.fold(&self.ruleset, event);
        }
    }

    /// Rebuilds a battle from a stored log by re-applying every command and
    /// checking it gives the stored events, so a damaged or hand-edited log
    /// is refused rather than trusted. App dice are not drawn again: each
    /// roll's stored faces are read back and must be what the rules allow
    /// (the right count, 1 to 6, re-rolls where the quality calls for them).
    /// Errors name the 1-based entry. Tags are not checked here: each
    /// player checks his own when he unlocks (`unlock`).
    pub fn replay(ruleset: Ruleset, id: String, log: &[Entry]) -> Result<Battle, RuleError> {
        let mut battle = Battle::with_id(ruleset, id);
        for (i, entry) in log.iter().enumerate() {
            let events = battle.checked(entry, i + 1)?;
            battle.append(entry.command.clone(), events);
        }
        Ok(battle)
    }

    /// The events the rules give for logged entry `n` (from 1), its app
    /// dice read back from it and each joint die derived again from both
    /// machines' halves: they must be the entry's own, or the entry is
    /// refused, named.
    fn checked(&self, entry: &Entry, n: usize) -> Result<Vec<Event>, RuleError> {
        let not_legal =
            |e: RuleError| RuleError::new("file", format!("log entry {n} is not legal: {e}"));
        let mut dice = AppDice::recorded(entry.events.iter().flat_map(Event::rolls));
        let events = self.decide(&entry.command, &mut dice).map_err(not_legal)?;
        if dice.left_over() > 0 {
            return refuse(
                "file",
                format!(
                    "log entry {n} records more app dice than its command rolls; the file was edited or is damaged"
                ),
            );
        }
        if events != entry.events {
            return refuse(
                "file",
                format!(
                    "log entry {n}: the stored events differ from what the rules give for its command; the file was edited or is damaged"
                ),
            );
        }
        muster_core::dice::check_joint(&self.id, entry.events.iter().flat_map(Event::rolls))
            .map_err(|e| RuleError::new("file", format!("log entry {n}: {}", e.message)))?;
        Ok(events)
    }

    /// The log's fingerprint (`Trail::fingerprint`).
    pub fn log_fingerprint(&self) -> String {
        self.trust.fingerprint()
    }

    /// The players' tags as a file stores them, header first.
    pub fn tags(&self) -> &[Tags] {
        self.trust.tags()
    }

    /// The link of the chain at each position, header first.
    pub fn links(&self) -> &[Digest32] {
        self.trust.links()
    }

    /// Puts back the tags a file stored (checked by each player's unlock).
    pub fn restore_tags(&mut self, tags: Vec<Tags>) -> Result<(), RuleError> {
        self.trust.restore(tags)
    }

    /// The sides with a passphrase whose players have not unlocked the
    /// battle in this session.
    pub fn locked_sides(&self) -> Vec<Side> {
        self.trust.locked_sides(&self.state.locks)
    }

    /// Whether `side` has set a passphrase.
    pub fn has_passphrase(&self, side: Side) -> bool {
        self.state.locks[side].is_some()
    }

    /// A player unlocks the battle: his passphrase must open his lock, and
    /// every tag of his must hold; the first entry that fails is named.
    pub fn unlock(&mut self, side: Side, passphrase: &str) -> Result<(), RuleError> {
        let Some(lock) = &self.state.locks[side] else {
            return refuse("trust", format!("{side} plays without a passphrase"));
        };
        let key = lock.unlock(passphrase)?;
        self.hold_key(side, &key)
    }

    /// `unlock` with the key already worked out from the passphrase (the
    /// window derives it on a worker thread): the same checks.
    pub fn unlock_key(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError> {
        if self.state.locks[side].is_none() {
            return refuse("trust", format!("{side} plays without a passphrase"));
        }
        self.hold_key(side, key)
    }

    /// Holds a player's key for this session: for a side with a lock, after
    /// checking every tag of his; for a side about to set his passphrase
    /// (`SetArmy` with a new lock), until that command comes.
    pub fn hold_key(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError> {
        let lock = self.state.locks[side].as_ref();
        let (log, ruleset, state) = (&self.log, &self.ruleset, &self.state);
        self.trust
            .hold(side, key, lock, |n| position(log, ruleset, state, n))
    }

    /// The key that seals and opens `side`'s records, from his passphrase
    /// (Argon2id: slow on purpose), once every tag of his holds: a private
    /// page is never printed from a log changed behind his back. A side
    /// without a passphrase seals under the unprotected key, and
    /// `passphrase` must be empty.
    pub fn seal_key<'a>(
        &self,
        side: Side,
        opener: impl Into<Opener<'a>>,
    ) -> Result<SealKey, RuleError> {
        let opener = opener.into();
        match &self.state.locks[side] {
            Some(lock) => {
                let key = opener.open(lock)?;
                let (log, ruleset, state) = (&self.log, &self.ruleset, &self.state);
                self.trust
                    .verify(side, &key, Some(lock), |n| position(log, ruleset, state, n))?;
                Ok(key.seal_key())
            }
            None if opener.is_empty() => Ok(SealKey::unprotected()),
            None => refuse(
                "trust",
                format!("{side} plays without a passphrase: give none to open their records"),
            ),
        }
    }

    /// Each line of `log_lines` with its prefix: the 1-based number of its
    /// log entry on the entry's first line, the lines after it indented
    /// under it (as the chained systems' logs), so no number repeats and
    /// the count the printout and the Battle step give ("79 entries") is
    /// the last number of the log.
    pub fn log_prefixes(&self) -> Vec<String> {
        self.log
            .iter()
            .enumerate()
            .flat_map(|(i, entry)| {
                (0..entry.events.len()).map(move |at| match at {
                    0 => format!("{:>3}. ", i + 1),
                    _ => " ".repeat(7),
                })
            })
            .collect()
    }

    pub fn log_lines(&self) -> Vec<(String, bool)> {
        self.log
            .iter()
            .flat_map(|entry| &entry.events)
            .map(|e| {
                (
                    describe::event(e, &self.ruleset, &self.state),
                    !e.rolls().is_empty(),
                )
            })
            .collect()
    }

    /// What selecting each terrain would do for `side` now (RULES 4): every
    /// option with why it is refused, if it is.
    pub fn selection_options(&self, side: Side) -> Vec<SelectOption> {
        selection::options(&self.state, &self.ruleset, side)
    }

    /// The compulsory pieces not yet taken.
    pub fn remaining_compulsory(&self) -> Vec<String> {
        selection::remaining_compulsory(&self.state, &self.ruleset)
    }

    /// Selections `side` has used of his 1 to 5 (RULES 4).
    pub fn selections_used(&self, side: Side) -> u32 {
        selection::used(&self.state, &self.ruleset, side)
    }

    /// The one command the rules leave now, when they leave no choice: the
    /// last compulsory piece (RULES 4), a dismount commitment of nothing for
    /// an army none of whose battle groups may dismount (RULES 8.6). A front end sends it itself after a player's command,
    /// so nobody clicks for what nobody decides; it is logged as any other.
    pub fn forced(&self) -> Option<Command> {
        let command = match self.phase() {
            Phase::Compulsory(side) => match &self.remaining_compulsory()[..] {
                [last] => Command::ChooseCompulsory {
                    side,
                    terrain: last.clone(),
                },
                _ => return None,
            },
            Phase::Deployment(DeploymentTurn::Dismount(side)) => {
                let army = self.state.armies[side].as_ref()?;
                if army.bgs.iter().any(|bg| bg.may_dismount) {
                    return None;
                }
                Command::CommitDismount { side, bgs: vec![] }
            }
            _ => return None,
        };
        self.check(&command).is_ok().then_some(command)
    }
}

mod remote;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod placement_tests;

#[cfg(test)]
mod deployment_tests;

#[cfg(test)]
pub(crate) mod flank_march_tests;
