//! Hidden forces' part of the window (RULES-map-intel 0 and A): the setup
//! form, then the numbered hex grid standing in for the printed map, the
//! turn's orders both players watch, and, when the laptop shows it, one
//! player's ledger of what his counters and holding areas hold. The seated
//! window (`seated`) holds what it shares with the other seated systems.
//!
//! The table shows the game's table view (no side's face-down contents);
//! a private screen shows that player's own view.

mod orders;
mod setup;
#[cfg(test)]
pub(crate) mod tests;

use crate::app::file_dialog::{FileAction, PdfOptions, opener};
use crate::app::hex_grid::{HexGrid, Highlight};
use crate::app::remote::kept::Kept;
use crate::app::seated::{Form, Private, Table, private_panel, side_panel};
use crate::app::seating::Cx;
use crate::app::status::Status;
use crate::app::system::Start;
use crate::app::system::{Handled, Players, imported, players};
use eframe::egui;
use muster::core::side::Side;
use muster::core::store::{self, Autosave, StoreError};
use muster::map_intel::game::{Command, Game};
use muster::map_intel::map::Hex;
use muster::map_intel::scenario::{Army, Scenario};
use muster::map_intel::screens::Form as LedgerForm;
use muster::map_intel::{Setup, View};
use setup::SetupForm;
use std::convert::Infallible;
use std::path::{Path, PathBuf};

/// What the orders' widgets ask for.
pub type ForcesAction = crate::app::seated::Order<Command>;

/// The counter and hex the players picked on the map or in the lists.
#[derive(Default)]
pub struct Selection {
    pub counter: Option<usize>,
    pub hex: Option<Hex>,
    /// Where the selected counter goes, as printed (`0607`), filled by a
    /// click on the map or typed.
    pub to: String,
    /// A drag from a stack that began on no counter's label: the counters
    /// there, and where one goes, until the players pick it.
    pub stack: Option<(Vec<usize>, Hex)>,
}

pub struct ForcesTable {
    form: SetupForm,
    selection: Selection,
    /// The turn the selection was made in: it never outlives it (a double
    /// click on *End … turn* once spent the next player's Agent).
    turn: (u32, Option<Side>),
    pub(crate) grid: HexGrid,
    /// Where the game's map image is kept.
    map_images: crate::app::map_image::Keeper,
}

/// Hidden forces' window.
pub type ForcesWindow = crate::app::seated::SeatedWindow<ForcesTable>;

impl ForcesTable {
    /// A new game's form; map images kept in `autosave`.
    pub fn in_folder(autosave: Option<&Path>) -> ForcesTable {
        ForcesTable {
            map_images: crate::app::map_image::Keeper {
                dir: autosave.map(Path::to_path_buf),
            },
            form: SetupForm::default(),
            selection: Selection::default(),
            turn: (0, None),
            grid: HexGrid::default(),
        }
    }

    /// The window around a game read from a file, with its map image if
    /// one was kept.
    pub fn opened(game: Game, start: &Start) -> ForcesWindow {
        let mut table = ForcesTable::in_folder(start.autosave.as_deref());
        table.grid.lay_kept(&table.map_images, game.id());
        table.turn = (game.public().turn, game.public().active);
        let mut kept = Kept::of(start);
        kept.look_up(game.id());
        let mut window = ForcesWindow::opened(table, game);
        window.kept = Some(kept);
        window
    }

    /// A new game's window, its remote seat kept once it is invited.
    pub fn new_window(start: &Start) -> ForcesWindow {
        let mut window = ForcesWindow::new(ForcesTable::in_folder(start.autosave.as_deref()));
        window.kept = Some(Kept::of(start));
        window
    }

    fn import(&mut self, action: FileAction, path: &Path) -> Status {
        let text = match store::read_text(path) {
            Ok(text) => text,
            Err(e) => return Status::Error(format!("Not imported: {e}")),
        };
        match action {
            FileAction::ImportRoster(side) => imported(
                "Roster",
                Army::from_roster(&text).map_err(|e| e.to_string()),
                |army| {
                    let message = format!(
                        "{side}'s units imported: {} ({})",
                        army.name,
                        muster_core::text::count(army.units.len() as u64, "unit", "units")
                    );
                    self.form.scenario.sides[side] = army;
                    message
                },
            ),
            _ => imported(
                "Scenario",
                Scenario::from_json(&text).map_err(|e| e.to_string()),
                |scenario| {
                    let message = format!("Scenario {} imported", scenario.name);
                    self.form.scenario = scenario;
                    message
                },
            ),
        }
    }
}

impl Table for ForcesTable {
    type Game = Game;
    type Action = Infallible;
    const NAME: &'static str = "Hidden forces";
    const CHAPTER: crate::app::manual::Chapter = crate::app::manual::Chapter::HiddenForces;
    const MAP: bool = true;
    const STARTED: &'static str =
        "Set-up: each player places their forces and Exercitus markers in private";

    crate::app::action::table_actions!(Forces);

    fn form(&mut self) -> &mut dyn Form {
        &mut self.form
    }

    fn start(&mut self) -> Result<Game, String> {
        let f = &self.form;
        let Players {
            names: players,
            locks,
            keys,
        } = players(&f.names, &f.passphrases.keys)?;
        let setup = Setup {
            scenario: f.scenario.clone(),
            players,
            locks,
        };
        Game::new(setup, keys).map_err(|e| e.to_string())
    }

    fn table(
        &mut self,
        ui: &mut egui::Ui,
        game: &Game,
        mut private: Option<Private<'_, Game>>,
        cx: &Cx,
    ) {
        let mut out = Vec::new();
        let viewer = private.as_ref().map(|p| p.side);
        let view: View = match viewer {
            Some(side) => game.view(side),
            None => game.table_view(),
        };
        if viewer.is_some() {
            self.selection = Selection::default();
        }
        // His ledger, when he holds the screen: its form in the panel, its
        // map in the centre.
        let board = private.as_ref().and_then(Private::board);
        side_panel(ui, "forces-orders", 0.36, (400.0, 560.0), |ui| {
            if let Some(private) = &mut private {
                private_panel(ui, private, "my ledger", cx);
                ui.separator();
            }
            orders::ui(ui, game, &view, cx, &mut self.selection, &mut out);
        });
        egui::CentralPanel::default().show(ui, |ui| {
            let table;
            let board = match &board {
                Some(board) => board,
                None => {
                    table = muster::map_intel::screens::board(game, &view, &LedgerForm::new());
                    &table
                }
            };
            let map = &game.setup().scenario.map;
            let highlight = Highlight {
                counter: self.selection.counter,
                hex: self.selection.hex,
                destination: map.hex(&self.selection.to).ok(),
            };
            let hint = "Click a hex to pick it; drag a counter to move it (or right-click where the selected one goes)";
            let names = game.setup().names();
            let picked = self.grid.show(ui, board, &names, &highlight, hint);
            match &mut private {
                // A hex picked on his ledger's map goes into his form only:
                // nothing he picks in private stays on the shared map.
                Some(private) => {
                    if let Some(hex) = picked.clicked {
                        private.tap(hex, cx);
                    }
                    if let Some(drag) = picked.dragged {
                        private.drag(drag, cx);
                    }
                }
                None => orders::picked(&view, &picked, &mut self.selection, &mut out),
            }
        });
        self.grid.after_frame(&self.map_images, game.id(), &cx.bus);
        crate::app::seated::send_orders::<ForcesTable>(out, cx);
    }

    fn act(&mut self, _game: Option<&mut Game>, action: Infallible) -> Handled {
        match action {}
    }

    crate::app::seated::undo_by_the_game!();

    /// A selected counter that left the map is no longer selected, and no
    /// selection outlives the turn it was made in.
    fn changed(&mut self, game: &Game) {
        let public = game.public();
        let turn = (public.turn, public.active);
        if self.turn != turn {
            self.turn = turn;
            self.selection = Selection::default();
        }
        if let Some(id) = self.selection.counter
            && public.holder(id).is_ok_and(|h| h.gone)
        {
            self.selection.counter = None;
        }
    }

    fn export_pdf(
        game: &Game,
        options: &PdfOptions,
        path: &Path,
    ) -> Result<Vec<PathBuf>, StoreError> {
        let private = options.private.map(|side| (side, opener(options)));
        muster::map_intel::export::save_pdf(game, options.paper, private, path)
    }

    fn file_chosen(&mut self, action: FileAction, path: &Path) -> Status {
        match action {
            FileAction::MapImage => self.grid.lay_chosen(path),
            action => self.import(action, path),
        }
    }

    crate::app::seated::remote_table!();
}
