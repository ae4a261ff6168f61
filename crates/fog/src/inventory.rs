//! The terrain inventory: the shape of each physical piece a group owns, per
//! terrain type, normal and large. Muster ships a default set
//! (`assets/inventory.json`) that meets the size ruling of RULES 4; a group
//! edits it to match its own pieces and it is kept in the user's config
//! directory. Every piece is checked against the size rule on load and save.

use crate::geometry::{Shape, SizeClass, check_size};
use crate::ruleset::Ruleset;
use indexmap::IndexMap;
use muster_core::store::{StoreError, write_atomic};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub const DEFAULT_JSON: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../..",
    "/assets/inventory.json"
));
const FORMAT: &str = "muster-inventory";

/// One terrain type's pieces: its first normal and large piece, and any
/// further physical pieces the group owns (three forests of different
/// outlines, say), chosen from when one is placed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pieces {
    pub normal: Shape,
    #[serde(default)]
    pub large: Option<Shape>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more: Vec<Spare>,
}

/// A further physical piece of a terrain type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spare {
    #[serde(default)]
    pub large: bool,
    pub shape: Shape,
}

impl Pieces {
    /// Every piece of one size class, the first first.
    pub fn of_class(&self, large: bool) -> Vec<&Shape> {
        let first = if large {
            self.large.as_ref()
        } else {
            Some(&self.normal)
        };
        first
            .into_iter()
            .chain(
                self.more
                    .iter()
                    .filter(|m| m.large == large)
                    .map(|m| &m.shape),
            )
            .collect()
    }
}

/// The most further pieces a terrain type may list: more than any group
/// owns, few enough to list on one screen.
pub const MAX_MORE: usize = 12;

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

    /// The shape for a piece, if the inventory has one: the first of its
    /// class.
    pub fn shape(&self, terrain: &str, large: bool) -> Option<&Shape> {
        self.shapes(terrain, large).first().copied()
    }

    /// Every physical piece for a terrain type and size class.
    pub fn shapes(&self, terrain: &str, large: bool) -> Vec<&Shape> {
        self.pieces
            .get(terrain)
            .map_or(Vec::new(), |p| p.of_class(large))
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
            if p.more.len() > MAX_MORE {
                return Err(format!(
                    "{name}: {} further pieces; at most {MAX_MORE}",
                    p.more.len()
                ));
            }
            for (k, m) in p.more.iter().enumerate() {
                let class = if m.large {
                    SizeClass::Large
                } else {
                    SizeClass::Normal
                };
                m.shape
                    .validate()
                    .and_then(|()| check_size(&m.shape, class, &ruleset.piece_sizes))
                    .map_err(|e| format!("{name} (piece {}): {e}", k + 2))?;
            }
        }
        Ok(())
    }

    pub fn from_json(text: &str, ruleset: &Ruleset) -> Result<Inventory, StoreError> {
        let inv: Inventory = muster_core::store::parse(text)?;
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
        // Bounded and regular-file only: a link to /dev/zero or a FIFO is
        // refused, not read for ever.
        let text = muster_core::store::read_text(path)?;
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

    /// Issue 32: an inventory linked to /dev/zero grew the app to 1.5 GB
    /// at every start, and a FIFO hung it before its window appeared. Only
    /// a regular file of bounded size is read; the rest is refused at once.
    #[test]
    fn an_inventory_that_is_no_regular_file_is_refused_at_once() {
        let r = Ruleset::builtin();
        let dir = tempfile::tempdir().unwrap();
        let zero = dir.path().join("zero.json");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let e = Inventory::load(&zero, &r).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let fifo = dir.path().join("fifo.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let e = Inventory::load(&fifo, &r).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }

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
    fn several_pieces_of_a_type_save_reload_and_are_each_checked() {
        let r = Ruleset::builtin();
        let mut inv = Inventory::builtin();
        let wide = Shape::Rectangle {
            width: 10.0,
            depth: 5.0,
        };
        inv.pieces["forest"].more.push(Spare {
            large: false,
            shape: wide.clone(),
        });
        let shapes = inv.shapes("forest", false);
        assert_eq!(shapes.len(), 2);
        assert_eq!(shapes[1], &wide);
        assert_eq!(
            inv.shape("forest", false),
            Some(&inv.pieces["forest"].normal)
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("inv.json");
        inv.save(&path, &r).unwrap();
        assert_eq!(Inventory::load(&path, &r).unwrap(), inv);
        // A file without further pieces (schema 1 as shipped) still reads.
        assert!(Inventory::from_json(DEFAULT_JSON, &r).is_ok());
        inv.pieces["forest"].more.push(Spare {
            large: false,
            shape: Shape::Ellipse {
                width: 14.0,
                depth: 7.0,
            },
        });
        let e = inv.check(&r).unwrap_err();
        assert!(e.starts_with("Forest (piece 3): "), "{e}");
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
