//! What a dummy-wings game is played with (RULES-map-intel B2, 27.6): the
//! battle, the players, each side's units, the Detachments and the locks,
//! bounded and checked the same way for a new game and a file.

use super::events::Composition;
use super::formation::Formation;
use super::placement::{self, Arm};
use super::scenario::Battle;
use super::scenario::Type;
use muster_core::error::RuleError;
use muster_core::intel::trail::Locks;
use muster_core::side::{Side, Sides};
use muster_core::text::{look_alikes, name_fault};
use serde::{Deserialize, Serialize};

/// Bytes every composition is padded to: a dummy's and a whole Wing's
/// records are one size.
pub const SEALED_BYTES: usize = 1024;
pub(crate) const MAX_RATING: u32 = 9;

/// One unit of a side's army, as its owner enters it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WingUnit {
    pub id: String,
    pub name: String,
    pub arm: Arm,
    /// Movement allowance deployed and in column (IC).
    pub ma: u32,
    pub ic: u32,
    /// A leader's rating (Army Commander, Special Leader).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<u32>,
    /// The Army Commander, to whom units may be detached (27.1.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub commander: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub battle: Battle,
    pub players: Sides<String>,
    pub armies: Sides<Vec<WingUnit>>,
    /// Whether each army is activated (27.2.3).
    pub activated: Sides<bool>,
    /// Torgau: how many Detachments each side forms (27.6.4.2-3), which
    /// decides its false leaders. Left out of the file when none, so a
    /// setup hashes as it did before the field existed.
    #[serde(default, skip_serializing_if = "no_detachments")]
    pub detachments: Sides<u8>,
    pub locks: Locks,
}

pub(crate) fn no_hexes(h: &[u32; 2]) -> bool {
    *h == [0, 0]
}

fn no_detachments(d: &Sides<u8>) -> bool {
    d.south == 0 && d.north == 0
}

pub const EXAMPLE_ARMIES_JSON: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../..",
    "/terrain_tables/dummy_wings_example_armies.json"
));

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmiesFile {
    // Checked by `check_header`; named here so that unknown fields are refused.
    #[serde(rename = "format")]
    _format: String,
    #[serde(rename = "schema")]
    _schema: u32,
    #[serde(default, rename = "note")]
    _note: String,
    #[serde(flatten)]
    armies: Sides<Vec<WingUnit>>,
}

/// Both sides' units from an armies file (`"format":
/// "muster-wings-armies"`); errors name their field and line.
pub fn armies_from_json(
    text: &str,
) -> Result<Sides<Vec<WingUnit>>, muster_core::locate::DataError> {
    muster_core::store::check_header(text, "muster-wings-armies", 1, 1)?;
    let file: ArmiesFile = muster_core::store::parse(text)?;
    Ok(file.armies)
}

/// The example units shipped for trying the rule.
pub fn example_armies() -> Sides<Vec<WingUnit>> {
    armies_from_json(EXAMPLE_ARMIES_JSON).expect("the example armies are checked by tests")
}

/// Bounds on what a setup may hold, so that a file cannot make the game
/// allocate or loop without end: far above any real army.
pub const MAX_UNITS: usize = 500;
pub(crate) const MAX_ALLOWANCE: u32 = 99;
const MAX_DETACHMENTS: u8 = 3;

impl Setup {
    /// The example game: Rossbach, Fritz (Prussian, South) against Charles
    /// (Franco-Imperial, North), the example units, the French army not
    /// activated; with `locks`.
    pub fn example(locks: Locks) -> Setup {
        Setup {
            battle: super::scenario::builtin()
                .into_iter()
                .find(|b| b.id == "rossbach")
                .expect("Rossbach is built in"),
            players: Sides {
                south: "Fritz".into(),
                north: "Charles".into(),
            },
            armies: example_armies(),
            activated: Sides {
                south: true,
                north: false,
            },
            detachments: Sides::default(),
            locks,
        }
    }

    /// What `Game::new` and a replay from a file both check: the battle as
    /// a scenario file would be, each army's units, the Detachment counts.
    pub fn check(&self) -> Result<(), RuleError> {
        let field = |f: String, m: String| RuleError::new("27.6", format!("setup.{f}: {m}"));
        self.battle.check("battle.").map_err(|(f, m)| field(f, m))?;
        for side in Side::BOTH {
            let at = side.name().to_lowercase();
            if let Some(why) = name_fault(&self.players[side]) {
                return Err(field(
                    format!("players.{at}"),
                    format!("the player's name {why}"),
                ));
            }
            let units = &self.armies[side];
            if units.len() > MAX_UNITS {
                return Err(field(
                    format!("armies.{at}"),
                    format!("{} units: at most {MAX_UNITS}", units.len()),
                ));
            }
            for (i, u) in units.iter().enumerate() {
                let here = format!("armies.{at}[{i}]");
                if let Some(why) = name_fault(&u.id) {
                    return Err(field(format!("{here}.id"), format!("the unit's id {why}")));
                }
                if let Some(why) = name_fault(&u.name) {
                    return Err(field(
                        format!("{here}.name"),
                        format!("the unit's name {why}"),
                    ));
                }
                if units[..i].iter().any(|o| o.id == u.id) {
                    return Err(field(
                        format!("{here}.id"),
                        format!("{} is used twice", u.id),
                    ));
                }
                if u.ma > MAX_ALLOWANCE || u.ic > MAX_ALLOWANCE {
                    return Err(field(
                        format!("{here}.ma"),
                        format!("movement allowances run 0 to {MAX_ALLOWANCE}"),
                    ));
                }
                if u.rating.is_some_and(|r| r > MAX_RATING) {
                    return Err(field(
                        format!("{here}.rating"),
                        format!("ratings run 0 to {MAX_RATING}"),
                    ));
                }
            }
            // The owner's counters and the log name each unit.
            let names: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
            if let Some((first, second)) = look_alikes(&names) {
                let i = names.iter().rposition(|n| *n == second).unwrap_or(0);
                return Err(field(
                    format!("armies.{at}[{i}].name"),
                    format!(
                        "\"{second}\" looks like \"{first}\", a unit of the same side: its owner and the log could not tell them apart"
                    ),
                ));
            }
            if self.detachments[side] > MAX_DETACHMENTS {
                return Err(field(
                    format!("detachments.{at}"),
                    format!("at most {MAX_DETACHMENTS} Detachments (27.6.4.2)"),
                ));
            }
        }
        let (south, north) = (&self.players.south, &self.players.north);
        if muster_core::text::confusable(south, north) {
            return Err(field(
                "players.north".into(),
                format!("\"{north}\" looks like \"{south}\": the log could not tell them apart"),
            ));
        }
        Ok(())
    }

    pub fn name(&self, side: Side) -> String {
        format!("{} ({})", self.players[side], self.battle.sides[side].name)
    }

    /// Each unit of a Wing's: its movement allowance deployed and in
    /// column.
    pub fn unit_allowances(&self, side: Side, c: &Composition) -> Vec<(u32, u32)> {
        (c.units.iter())
            .filter_map(|u| self.unit(side, u))
            .map(|u| (u.ma, u.ic))
            .collect()
    }

    /// The most a counter of `side`'s of `kind` holding `c` may move in a
    /// turn, and what sets it: a real Wing's slowest unit; a dummy what the
    /// fastest real Wing of its type could move in the dummy's formation,
    /// i.e. the fastest such unit of its side, on the map or not
    /// (RULES-map-intel B4b).
    pub fn allowance(&self, side: Side, kind: Type, c: &Composition) -> (u32, &'static str) {
        if c.real {
            let units = self.unit_allowances(side, c);
            let most = placement::allowance(&units, c.formation).unwrap_or(0);
            return (most, "its slowest unit allows");
        }
        let pick = |u: &WingUnit| match c.formation {
            Formation::Deployed => u.ma,
            Formation::InColumn => u.ic,
        };
        let most = self.of_type(side, kind).map(pick).max().unwrap_or(0);
        (most, "the fastest real Wing of its type could move")
    }

    /// The most any counter of `side`'s may move in a turn, whatever it
    /// holds and its formation (a real Wing's slowest unit, a dummy's
    /// fastest of its type): what the other player's machine, which cannot
    /// open it, checks a move against at once.
    pub fn fastest(&self, side: Side) -> u32 {
        (self.armies[side].iter())
            .map(|u| u.ma.max(u.ic))
            .max()
            .unwrap_or(0)
    }

    /// `side`'s units of the arm a dummy of `kind` stands for.
    fn of_type(&self, side: Side, kind: Type) -> impl Iterator<Item = &WingUnit> {
        self.armies[side].iter().filter(move |u| match kind {
            Type::Inf => u.arm == Arm::Infantry,
            Type::Cav => u.arm == Arm::Cavalry,
            Type::InfCav => matches!(u.arm, Arm::Infantry | Arm::Cavalry),
        })
    }

    pub fn unit(&self, side: Side, id: &str) -> Option<&WingUnit> {
        self.armies[side].iter().find(|u| u.id == id)
    }
}
