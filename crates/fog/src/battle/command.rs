//! What a player asks of Field of Glory's pre-battle sequence: every
//! command, as the window, a phone and a script send it (docs: the rules
//! reference's Field of Glory chapter, RULES 1-10), its numbers checked
//! before any rule looks at it, and the side whose player gives it.

use super::*;

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
    pub(super) fn check_numbers(&self) -> Result<(), RuleError> {
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
