//! The battle state: what the folded log says, and where in the sequence the
//! battle stands.

use super::deployment::{self, DeploymentState, DeploymentTurn};
use super::placement::{self, PlacementState, PlacementTurn};
use super::{Event, Settings};
use crate::army::Army;
use crate::ruleset::Ruleset;
use muster_core::dice::Roll;
use muster_core::intel::Lock;
use muster_core::side::{Side, Sides};
use serde::Serialize;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct State {
    /// The battle's id, which binds each sealed record to this battle (set
    /// by the battle, not folded from the log).
    pub game: String,
    pub settings: Settings,
    pub armies: Sides<Option<Army>>,
    /// Each player's passphrase lock, once he sets one (it never changes).
    pub locks: Sides<Option<Lock>>,
    pub initiative: RollOff,
    pub territory: Option<String>,
    pub selection: SelectionState,
    pub placement: PlacementState,
    pub deployment: DeploymentState,
    pub moves_first: RollOff,
    /// Turns played to their end (RULES 10).
    pub turns_ended: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RollOff {
    /// 1 for the first roll-off, one more after each tie.
    pub round: u32,
    /// This round's rolls.
    pub rolls: Sides<Option<Roll>>,
    pub winner: Option<Side>,
}

impl Default for RollOff {
    fn default() -> Self {
        RollOff {
            round: 1,
            rolls: Sides::default(),
            winner: None,
        }
    }
}

impl RollOff {
    /// Whether anyone has rolled yet (armies are fixed from then on).
    pub fn started(&self) -> bool {
        self.round > 1 || self.rolls.south.is_some() || self.rolls.north.is_some()
    }
}

/// A terrain piece a player has selected (RULES 4).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pick {
    pub side: Side,
    pub terrain: String,
    pub large: bool,
    pub compulsory: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SelectionState {
    pub picks: Vec<Pick>,
    pub finished: Sides<bool>,
}

/// Where the battle stands: whose move it is and what kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Armies,
    Initiative,
    Territory(Side),
    Compulsory(Side),
    Selection(Side),
    /// Terrain placement and adjustment (RULES 5-6).
    Placement(PlacementTurn),
    /// Camps to commanders (RULES 8).
    Deployment(DeploymentTurn),
    /// Both roll for who moves first (RULES 9).
    MovesFirst,
    /// The battle is on.
    Play,
}

impl Phase {
    /// The side whose move it is, when it is one side's (the armies, the
    /// roll-offs and play are both players').
    pub fn side(self) -> Option<Side> {
        match self {
            Phase::Territory(s) | Phase::Compulsory(s) | Phase::Selection(s) => Some(s),
            Phase::Placement(turn) => Some(turn.side()),
            Phase::Deployment(turn) => Some(turn.side()),
            Phase::Armies | Phase::Initiative | Phase::MovesFirst | Phase::Play => None,
        }
    }
}

/// The steps of the pre-battle sequence, as the step list shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    Battle,
    Armies,
    Initiative,
    Territory,
    TerrainSelection,
    TerrainPlacement,
    CampsAndFortifications,
    Ambushes,
    FlankMarches,
    Deployment,
    WhoMovesFirst,
    Play,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepStatus {
    Done,
    Current,
    Locked,
}

impl Step {
    pub const ALL: [Step; 12] = [
        Step::Battle,
        Step::Armies,
        Step::Initiative,
        Step::Territory,
        Step::TerrainSelection,
        Step::TerrainPlacement,
        Step::CampsAndFortifications,
        Step::Ambushes,
        Step::FlankMarches,
        Step::Deployment,
        Step::WhoMovesFirst,
        Step::Play,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Step::Battle => "Battle",
            Step::Armies => "Armies",
            Step::Initiative => "Initiative",
            Step::Territory => "Territory type",
            Step::TerrainSelection => "Terrain selection",
            Step::TerrainPlacement => "Terrain placement",
            Step::CampsAndFortifications => "Camps and fortifications",
            Step::Ambushes => "Ambushes",
            Step::FlankMarches => "Flank marches",
            Step::Deployment => "Deployment",
            Step::WhoMovesFirst => "Who moves first",
            Step::Play => "Play",
        }
    }

    /// The section of the rules reference (`docs/src/rules/fog.md`) the
    /// step implements.
    pub fn rule(self) -> &'static str {
        match self {
            Step::Battle => "units",
            Step::Armies => "1",
            Step::Initiative => "2",
            Step::Territory => "3",
            Step::TerrainSelection => "4",
            Step::TerrainPlacement => "5-6",
            Step::CampsAndFortifications => "8.1-8.2",
            Step::Ambushes => "8.3",
            Step::FlankMarches => "8.4",
            Step::Deployment => "8.5-8.7",
            Step::WhoMovesFirst => "9",
            Step::Play => "10",
        }
    }
}

impl State {
    /// The table as geometry sees it.
    pub fn table(&self) -> crate::geometry::Table {
        self.settings.table.geometry()
    }

    pub fn phase(&self, ruleset: &Ruleset) -> Phase {
        if self.armies.south.is_none() || self.armies.north.is_none() {
            return Phase::Armies;
        }
        let Some(init) = self.initiative.winner else {
            return Phase::Initiative;
        };
        let other = init.opponent();
        let Some(territory) = &self.territory else {
            return Phase::Territory(init);
        };
        let compulsory = self.selection.picks.iter().filter(|p| p.compulsory).count();
        let needed = super::compulsory_pieces(ruleset, territory).len();
        if compulsory == 0 && needed > 0 {
            return Phase::Compulsory(other);
        }
        if compulsory < needed {
            return Phase::Compulsory(init);
        }
        if !self.selection.finished[other] {
            return Phase::Selection(other);
        }
        if !self.selection.finished[init] {
            return Phase::Selection(init);
        }
        if let Some(turn) = placement::turn(self, ruleset) {
            return Phase::Placement(turn);
        }
        if let Some(turn) = deployment::turn(self, ruleset, init) {
            return Phase::Deployment(turn);
        }
        match self.moves_first.winner {
            None => Phase::MovesFirst,
            Some(_) => Phase::Play,
        }
    }

    /// The step the battle is at.
    pub fn current_step(&self, ruleset: &Ruleset) -> Step {
        match self.phase(ruleset) {
            Phase::Armies => Step::Armies,
            Phase::Initiative => Step::Initiative,
            Phase::Territory(_) => Step::Territory,
            Phase::Compulsory(_) | Phase::Selection(_) => Step::TerrainSelection,
            Phase::Placement(_) => Step::TerrainPlacement,
            Phase::Deployment(turn) => match turn {
                DeploymentTurn::Camp(_) | DeploymentTurn::Fortifications(_) => {
                    Step::CampsAndFortifications
                }
                DeploymentTurn::Ambushes(_) => Step::Ambushes,
                DeploymentTurn::FlankMarches(_) => Step::FlankMarches,
                DeploymentTurn::Batch { .. }
                | DeploymentTurn::Dismount(_)
                | DeploymentTurn::Commanders(_) => Step::Deployment,
            },
            Phase::MovesFirst => Step::WhoMovesFirst,
            Phase::Play => Step::Play,
        }
    }

    pub fn step_status(&self, ruleset: &Ruleset, step: Step) -> StepStatus {
        let current = self.current_step(ruleset);
        let index = |s: Step| Step::ALL.iter().position(|x| *x == s).unwrap_or(0);
        if step == Step::Battle {
            return StepStatus::Done;
        }
        match index(step).cmp(&index(current)) {
            std::cmp::Ordering::Less => StepStatus::Done,
            std::cmp::Ordering::Equal => StepStatus::Current,
            std::cmp::Ordering::Greater => StepStatus::Locked,
        }
    }

    /// Folds one event in. Events come from `Battle::check`, so they are legal.
    pub(super) fn fold(&mut self, ruleset: &Ruleset, event: &Event) {
        match event {
            Event::Configured { settings } => self.settings = settings.clone(),
            Event::ArmySet { side, army, lock } => {
                self.armies[*side] = Some(army.clone());
                if lock.is_some() {
                    self.locks[*side] = lock.clone();
                }
            }
            Event::InitiativeRolled { side, roll, .. } => {
                self.initiative.rolls[*side] = Some(roll.clone());
            }
            Event::InitiativeTied { round, .. } => {
                self.initiative.round = round + 1;
                self.initiative.rolls = Sides::default();
            }
            Event::InitiativeWon { side, .. } => self.initiative.winner = Some(*side),
            Event::TerritoryChosen { territory, .. } => self.territory = Some(territory.clone()),
            Event::TerrainSelected {
                side,
                terrain,
                large,
                compulsory,
            } => self.selection.picks.push(Pick {
                side: *side,
                terrain: terrain.clone(),
                large: *large,
                compulsory: *compulsory,
            }),
            Event::SelectionFinished { side } => self.selection.finished[*side] = true,
            Event::MovesFirstRolled { side, roll, .. } => {
                self.moves_first.rolls[*side] = Some(roll.clone());
            }
            Event::MovesFirstTied { round, .. } => {
                self.moves_first.round = round + 1;
                self.moves_first.rolls = Sides::default();
            }
            Event::MovesFirstWon { side, .. } => self.moves_first.winner = Some(*side),
            Event::TurnEnded { .. } => self.turns_ended += 1,
            Event::Stalled { .. } => {}
            Event::CampPlaced { .. }
            | Event::FortificationPlaced { .. }
            | Event::AmbushPlaced { .. }
            | Event::FlankMarchRecorded { .. }
            | Event::FlankMarchesFinished { .. }
            | Event::StepFinished { .. }
            | Event::BatchDeployed { .. }
            | Event::DismountCommitted { .. }
            | Event::SealedChecked { .. }
            | Event::ArrivalRolled { .. }
            | Event::ArrivalSaid { .. }
            | Event::FlankMarchRevealed { .. }
            | Event::AmbushRevealed { .. } => deployment::fold(&mut self.deployment, event),
            Event::AdjustmentRolled { .. } | Event::PieceAdjusted { .. } => {
                super::adjustment::fold(&mut self.placement, event);
            }
            _ => placement::fold(&mut self.placement, ruleset, &self.selection.picks, event),
        }
    }
}

/// The game turn and the side to move, once who moves first is decided.
pub fn current(state: &State) -> Option<(u32, Side)> {
    let first = state.moves_first.winner?;
    let ended = state.turns_ended;
    let side = if ended.is_multiple_of(2) {
        first
    } else {
        first.opponent()
    };
    Some((ended / 2 + 1, side))
}

/// The BGs `side` has set on the table so far.
pub fn deployed_bgs(state: &State, side: Side) -> Vec<usize> {
    state
        .deployment
        .batches
        .iter()
        .filter(|(s, _)| *s == side)
        .flat_map(|(_, bgs)| bgs.iter().copied())
        .collect()
}
