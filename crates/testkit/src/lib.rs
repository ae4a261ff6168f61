//! What the engines' tests share and no engine needs: hostile JSON, the
//! example scripts, the attacks on a chained game's file, and the
//! printout read back as a reader sees it. A crate of its own so that each
//! engine's tests use it without compiling the app or its GUI.

pub mod chained;
pub mod grammar;
pub mod json;
pub mod pdf;
pub mod relay;
pub mod remote;
pub mod scripts;

/// A fixture file of the crate whose manifest is in `crate_dir` (its
/// `env!("CARGO_MANIFEST_DIR")`): saved games kept as they were written.
pub fn fixture(crate_dir: &str, name: &str) -> std::path::PathBuf {
    std::path::Path::new(crate_dir)
        .join("tests/fixtures/before-binding")
        .join(name)
}
