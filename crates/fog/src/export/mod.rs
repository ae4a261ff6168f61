//! Exports of a battle: the table layout to scale, its schedule and log
//! (DESIGN.md, "The printout"), the templates and the private page.

mod pages;
mod private;
pub mod schedule;
mod table_page;
mod templates;

pub use muster_core::clock::today;
pub use muster_core::pdf::{Paper, private_path};
pub use pages::{private_pdf, table_pdf, templates_pdf};
pub use private::{PrivatePage, private_page};

use crate::battle::Battle;
use muster_core::pdf::{write_pdf, write_private_pdf};
use muster_core::store::StoreError;
use std::path::{Path, PathBuf};

/// Writes the printout to `path` (atomically: a failed write leaves any
/// file already there as it was).
pub fn save_pdf(battle: &Battle, paper: Paper, date: &str, path: &Path) -> Result<(), StoreError> {
    write_pdf(path, &table_pdf(battle, paper, date))
}

/// Writes an owner's private page to its own file, named after the
/// printout's (see `private_path`), never to the printout's name.
pub fn save_private_pdf(
    battle: &Battle,
    page: &PrivatePage,
    paper: Paper,
    path: &Path,
) -> Result<(), StoreError> {
    write_private_pdf(path, &private_pdf(battle, page, paper))
}

/// Writes the piece templates at 1:1 to their own file (see
/// `templates_path`).
pub fn save_templates_pdf(battle: &Battle, paper: Paper, path: &Path) -> Result<(), StoreError> {
    write_pdf(path, &templates_pdf(battle, paper))
}

/// Where the templates go beside the printout: `table.pdf` gives
/// `table-templates.pdf`.
pub fn templates_path(public: &Path) -> PathBuf {
    let stem = public
        .file_stem()
        .map_or("muster".into(), |s| s.to_string_lossy());
    public.with_file_name(format!("{stem}-templates.pdf"))
}
