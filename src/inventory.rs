//! The terrain inventory: the shape of each physical piece a group owns, per
//! terrain type, normal and large. Muster ships a default set
//! (`assets/inventory.json`) that meets the size ruling of RULES 4; a group
//! edits it to match its own pieces and it is kept in the user's config
//! directory. Every piece is checked against the size rule on load and save.

use crate::geometry::{Shape, SizeClass, check_size};
use crate::ruleset::Ruleset;
use crate::store::{StoreError, write_atomic};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub const DEFAULT_JSON: &str = include_str!("../assets/inventory.json");
const FORMAT: &str = "muster-inventory";

/// One terrain type's pieces.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pieces {
    pub normal: Shape,
    #[serde(default)]
    pub large: Option<Shape>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inventory {
    pub format: String,
    pub schema: u32,
    pub pieces: IndexMap<String, Pieces>,
}

impl Inventory {
    pub fn builtin() -> Inventory {
        serde_json::from_str(DEFAULT_JSON).expect("the shipped inventory is checked by tests")
    }

    /// The shape for a piece, if the inventory has one.
    pub fn shape(&self, terrain: &str, large: bool) -> Option<&Shape> {
        let p = self.pieces.get(terrain)?;
        if large {
            p.large.as_ref()
        } else {
            Some(&p.normal)
        }
    }

    /// Every piece against the size ruling: the first failure, named.
    pub fn check(&self, ruleset: &Ruleset) -> Result<(), String> {
        for (id, p) in &self.pieces {
            let name = ruleset.terrain_name(id);
            check_size(&p.normal, SizeClass::Normal, &ruleset.piece_sizes)
                .map_err(|e| format!("{name} (normal): {e}"))?;
            if let Some(large) = &p.large {
                check_size(large, SizeClass::Large, &ruleset.piece_sizes)
                    .map_err(|e| format!("{name} (large): {e}"))?;
            }
        }
        Ok(())
    }

    pub fn from_json(text: &str, ruleset: &Ruleset) -> Result<Inventory, StoreError> {
        let inv: Inventory = crate::store::parse(text)?;
        if inv.format != FORMAT {
            return Err(StoreError::new(format!(
                "this is a \"{}\" file, not a \"{FORMAT}\" file",
                inv.format
            )));
        }
        inv.check(ruleset).map_err(StoreError::new)?;
        Ok(inv)
    }

    pub fn save(&self, path: &Path, ruleset: &Ruleset) -> Result<(), StoreError> {
        self.check(ruleset).map_err(StoreError::new)?;
        let text = serde_json::to_string_pretty(self).expect("an inventory always serializes");
        write_atomic(path, text.as_bytes(), |w| {
            Inventory::from_json(std::str::from_utf8(w).unwrap_or(""), ruleset).map(|_| ())
        })
    }

    pub fn load(path: &Path, ruleset: &Ruleset) -> Result<Inventory, StoreError> {
        let text = std::fs::read_to_string(path).map_err(|e| StoreError::new(e.to_string()))?;
        Inventory::from_json(&text, ruleset)
    }
}

/// Where the user's inventory is kept.
pub fn config_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "Muster").map(|d| d.config_dir().join("inventory.json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_inventory_meets_the_size_rule_for_every_area_type() {
        let r = Ruleset::builtin();
        let inv = Inventory::builtin();
        inv.check(&r).unwrap();
        for (id, t) in &r.terrain_types {
            if matches!(
                t.kind,
                crate::ruleset::PieceKind::Area | crate::ruleset::PieceKind::Hill
            ) {
                assert!(inv.shape(id, false).is_some(), "{id}");
                assert_eq!(inv.shape(id, true).is_some(), t.can_be_large, "{id}");
            }
        }
    }

    #[test]
    fn an_oversized_piece_is_refused_with_its_measure() {
        let r = Ruleset::builtin();
        let mut inv = Inventory::builtin();
        inv.pieces["forest"].normal = Shape::Ellipse {
            width: 13.0,
            depth: 7.0,
        };
        let e = inv.check(&r).unwrap_err();
        assert_eq!(
            e,
            "Forest (normal): the piece is 13.0 MU across; a normal piece fits a 12 MU circle (rule 4)"
        );
        inv.pieces["forest"].normal = Shape::Rectangle {
            width: 5.0,
            depth: 4.0,
        };
        assert!(inv.check(&r).unwrap_err().contains("at least 6 x 4 MU"));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("inv.json");
        assert!(inv.save(&path, &r).is_err());
        assert!(!path.exists(), "a bad inventory is never written");
    }
}
