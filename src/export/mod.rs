//! Exports of a battle. `pdf` prints the table layout to scale
//! (DESIGN.md, "The printout").

mod pdf;
mod private;

pub use pdf::{Paper, table_pdf, today};
pub use private::{PrivatePage, private_page};

use crate::battle::Battle;
use crate::store::{StoreError, write_atomic};
use std::path::Path;

/// Writes the printout to `path` (atomically: a failed write leaves any
/// file already there as it was).
pub fn save_pdf(
    battle: &Battle,
    paper: Paper,
    date: &str,
    private: Option<&PrivatePage>,
    path: &Path,
) -> Result<(), StoreError> {
    let bytes = table_pdf(battle, paper, date, private);
    write_atomic(path, &bytes, |written| {
        if written.starts_with(b"%PDF") {
            Ok(())
        } else {
            Err(StoreError::new("the written file is not a PDF"))
        }
    })
}
