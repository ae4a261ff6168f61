//! The printed map's scan or photo under the hex grid (docs: "Hidden
//! forces", "Dummy wings"): laid from the file the players chose or the one
//! kept beside the game, read off the window's thread, and kept or
//! forgotten beside the game once aligned or removed.

use super::HexGrid;
use crate::app::bus::{AppCommand, Bus};
use crate::app::file_dialog::FileAction;
use crate::app::map_image::{Keeper, Read, Saved};
use crate::app::status::Status;

impl HexGrid {
    /// Lays game `id`'s image kept by `keeper` under the grid (a texture
    /// at its next frame).
    pub fn lay_kept(&mut self, keeper: &Keeper, id: &str) {
        self.to_read = keeper.kept(id).map(|saved| (saved, false));
    }

    /// A map image file chosen in the dialog: read off the window's
    /// thread, laid when it is ready, then aligned by two clicks.
    pub fn lay_chosen(&mut self, path: &std::path::Path) -> Status {
        self.to_read = Some((
            Saved {
                path: path.to_path_buf(),
                pins: None,
            },
            true,
        ));
        Status::Info(format!("Reading the map image {}…", path.display()))
    }

    /// After the grid was drawn: the dialog for a new image, if its
    /// toolbar asked; an image aligned or removed since, kept or forgotten
    /// by `keeper` beside game `id`, a failure said on the status line.
    pub fn after_frame(&mut self, keeper: &Keeper, id: &str, bus: &Bus) {
        if let Some((saved, chosen)) = self.to_read.take() {
            let (send, reading) = std::sync::mpsc::channel();
            self.reading = Some(reading);
            let bus = bus.clone();
            // Before the first frame said it, egui's own smallest.
            let side = match self.texture_side {
                0 => 2048,
                side => u32::try_from(side).unwrap_or(u32::MAX),
            };
            std::thread::spawn(move || {
                let path = saved.path.display().to_string();
                let said = match Read::from(saved, side) {
                    Ok(read) => {
                        let _ = send.send(read);
                        chosen.then(|| Status::Info(format!(
                            "Map image {path} laid: align it by the two clicks the map's status line asks for"
                        )))
                    }
                    Err(e) if chosen => {
                        Some(Status::Error(format!("The map image was not laid: {e}")))
                    }
                    // A kept image whose file is gone or changed is left
                    // out: the game opens as ever.
                    Err(_) => None,
                };
                drop(send);
                // Either wakes the window, which lays the image.
                bus.app(said.map_or(AppCommand::Wake, AppCommand::Say));
            });
        }
        if std::mem::take(&mut self.wants_image) {
            bus.app(AppCommand::Dialog(FileAction::MapImage));
        }
        if std::mem::take(&mut self.image_changed) {
            let change = self.image.as_ref().map(|i| i.saved().clone());
            if let Err(e) = keeper.keep_change(id, change) {
                bus.app(AppCommand::Say(Status::Error(format!(
                    "The map image is not kept: {e}"
                ))));
            }
        }
    }
}
