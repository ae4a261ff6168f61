//! The phases of a turn and the letters that name them on interrupt cards
//! (RULES-deck 6): what both the card set and the turn speak of.

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PhaseName {
    Event,
    Rally,
    Shooting,
    Movement,
    Combat,
    Status,
}

impl PhaseName {
    pub const ALL: [PhaseName; 6] = [
        PhaseName::Event,
        PhaseName::Rally,
        PhaseName::Shooting,
        PhaseName::Movement,
        PhaseName::Combat,
        PhaseName::Status,
    ];

    /// The interrupt letter of a phase the active player declares.
    pub fn letter(self) -> Option<Letter> {
        match self {
            PhaseName::Rally => Some(Letter::R),
            PhaseName::Shooting => Some(Letter::S),
            PhaseName::Movement => Some(Letter::M),
            PhaseName::Combat => Some(Letter::C),
            PhaseName::Event | PhaseName::Status => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            PhaseName::Event => "event",
            PhaseName::Rally => "rally",
            PhaseName::Shooting => "shooting",
            PhaseName::Movement => "movement",
            PhaseName::Combat => "combat",
            PhaseName::Status => "status",
        }
    }
}

/// The phase letter of an interrupt (RULES-deck 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Letter {
    R,
    S,
    M,
    C,
}

impl Letter {
    pub const ALL: [Letter; 4] = [Letter::R, Letter::S, Letter::M, Letter::C];

    /// The phase this letter names.
    pub fn phase(self) -> PhaseName {
        match self {
            Letter::R => PhaseName::Rally,
            Letter::S => PhaseName::Shooting,
            Letter::M => PhaseName::Movement,
            Letter::C => PhaseName::Combat,
        }
    }

    pub fn phase_name(self) -> &'static str {
        self.phase().name()
    }
}

impl fmt::Display for Letter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}
