//! A battle printed as the export dialog says (docs: "The printout"): the
//! table, its schedule and log, a player's private page opened with his
//! key, the templates; made on a worker from a copy of the battle.

use crate::app::file_dialog::{PdfOptions, opener};
use muster::core::store::StoreError;
use muster::fog::battle::Battle;
use std::path::{Path, PathBuf};

/// Prints `battle` as `options` say: the table and its schedule and log,
/// a player's private page, the templates; the files written.
pub(super) fn export(
    battle: &Battle,
    options: &PdfOptions,
    path: &Path,
) -> Result<Vec<PathBuf>, StoreError> {
    use muster::fog::export;
    let private = match options.private {
        Some(side) => Some(
            export::private_page(battle, side, opener(options))
                .map_err(|e| StoreError::new(e.to_string()))?,
        ),
        None => None,
    };
    let mut written = Vec::new();
    export::save_pdf(battle, options.paper, &export::today(), path)?;
    written.push(path.to_path_buf());
    if let Some(page) = &private {
        let private_path = export::private_path(path, page.side);
        export::save_private_pdf(battle, page, options.paper, &private_path)?;
        written.push(private_path);
    }
    if options.templates {
        let templates = export::templates_path(path);
        export::save_templates_pdf(battle, options.paper, &templates)?;
        written.push(templates);
    }
    Ok(written)
}
