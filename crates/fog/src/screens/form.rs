//! What a Field of Glory player's private screens are answered in (RULES
//! 8.3-8.5, 10): the buttons of his ambushes, flank marches, deployment
//! batch and reveals, and the fields of their forms. The seat reads a
//! device's answer into these types; a button or a field they do not name
//! is refused, naming it.

use crate::battle::Command;
use muster_core::screen;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// What a button of a player's private screen answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SecretAct {
    /// A step of the sequence made as it is (his step finished, an open
    /// choice such as "no ambushes"): taken only while his screen offers
    /// it.
    Step(Box<Command>),
    /// Seal the ambush marker the form describes (RULES 8.3).
    SealAmbush,
    /// Seal the flank march the form describes (RULES 8.4).
    SealMarch,
    /// Deploy the battle groups ticked as his batch (RULES 8.5).
    DeployBatch,
    /// Reveal the sealed record to both players (RULES 8.3, 10).
    Reveal,
    /// Leave an ambush marker's reveal for later.
    CancelReveal,
}

/// The fields of a player's private screens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SecretField {
    /// What an ambush marker stands for ("bg 3", "dummy").
    Content,
    /// Where the marker goes, a point "x y" on the table.
    At,
    /// A flank march's battle groups.
    Bgs,
    /// The commander leading it.
    Commander,
    /// The flank it arrives on.
    Flank,
    /// The battle groups of his deployment batch.
    Batch,
    /// Straggling dice typed as rolled on the table, rather than the app's.
    Typed,
    /// The straggling dice of one battle group of an arrived march.
    Dice(usize),
}

/// A private screen of his.
pub type Screen = screen::Screen<SecretAct, SecretField>;
/// What he entered in its forms.
pub type Form = screen::Form<SecretField>;
/// An answer to it.
pub type Reply = screen::Reply<SecretAct, SecretField>;

const NAMES: [(SecretField, &str); 7] = [
    (SecretField::Content, "content"),
    (SecretField::At, "at"),
    (SecretField::Bgs, "bgs"),
    (SecretField::Commander, "commander"),
    (SecretField::Flank, "flank"),
    (SecretField::Batch, "batch"),
    (SecretField::Typed, "typed"),
];

/// A field's name on the wire: a form's key ("bgs", "dice 3").
impl fmt::Display for SecretField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SecretField::Dice(bg) => write!(f, "dice {bg}"),
            field => {
                let (_, name) = NAMES
                    .iter()
                    .find(|(n, _)| n == field)
                    .expect("every field but Dice is named");
                f.write_str(name)
            }
        }
    }
}

impl FromStr for SecretField {
    type Err = String;
    fn from_str(text: &str) -> Result<SecretField, String> {
        if let Some(bg) = text.strip_prefix("dice ").and_then(|bg| bg.parse().ok()) {
            return Ok(SecretField::Dice(bg));
        }
        NAMES
            .iter()
            .find(|(_, name)| *name == text)
            .map(|(field, _)| *field)
            .ok_or_else(|| format!("no field \"{text}\" on this screen"))
    }
}

impl Serialize for SecretField {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for SecretField {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SecretField, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field reads back from its name, and a name no field has is
    /// refused saying so.
    #[test]
    fn each_field_reads_back_from_its_name() {
        for field in NAMES.iter().map(|(f, _)| *f).chain([SecretField::Dice(12)]) {
            let json = serde_json::to_string(&field).unwrap();
            assert_eq!(serde_json::from_str::<SecretField>(&json).unwrap(), field);
        }
        assert_eq!(SecretField::Dice(3).to_string(), "dice 3");
        for bad in ["dice", "dice x", "xdice 3", "spy"] {
            assert!(bad.parse::<SecretField>().is_err(), "{bad}");
        }
    }
}
