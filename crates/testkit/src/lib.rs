//! What the engines' tests share and no engine needs: hostile JSON, the
//! example scripts, the attacks on a chained game's file, and the
//! printout read back as a reader sees it. A crate of its own so that each
//! engine's tests use it without compiling the app or its GUI.

pub mod chained;
pub mod json;
pub mod pdf;
pub mod scripts;
