//! Dummy wings' part of the window (RULES-map-intel B): the setup form,
//! the hex grid with every leader and Dis counter, the questions and rolls
//! both players answer at the table (line of sight, the deployment roll
//! with its odds, the adjustment, the formations), and, when the laptop
//! shows it, one player's own counters: setting them up, their allowances,
//! moving them. The seated window (`seated`) holds what it shares with the
//! other seated systems.

#[cfg(test)]
mod remote_tests;
mod setup;
mod table;
#[cfg(test)]
pub(crate) mod tests;

use crate::app::file_dialog::{FileAction, PdfOptions, opener};
use crate::app::hex_grid::{HexGrid, Highlight};
use crate::app::remote::kept::Kept;
use crate::app::seated::{Form, Private, Table, private_panel, side_panel};
use crate::app::seating::Cx;
use crate::app::seating::life::Life;
use crate::app::status::Status;
use crate::app::system::{Handled, Players, Start, players};
use eframe::egui;
use muster::core::dice::AppDice;
use muster::core::side::{Side, Sides};
use muster::core::store::{Autosave, StoreError};
use muster::map_intel::wings::game::{Command, Game, Seen, Setup};
use muster::map_intel::wings::screens as wings_screens;
use setup::SetupForm;
use std::convert::Infallible;
use std::path::{Path, PathBuf};

/// What the table's widgets ask for.
pub type WingsAction = crate::app::seated::Order<Command>;

pub struct WingsTable {
    form: SetupForm,
    selected: Option<usize>,
    /// Typed deployment dice, and where an adjusted leader goes.
    table: table::Inputs,
    pub(crate) grid: HexGrid,
    seed: Option<u64>,
    /// Where the game's map image is kept.
    map_images: crate::app::map_image::Keeper,
}

/// Dummy wings' window.
pub type WingsWindow = crate::app::seated::SeatedWindow<WingsTable>;

impl WingsTable {
    /// The setup form of a new game; `seed` fixes the app's dice in tests;
    /// map images are kept in `autosave`.
    pub fn new(seed: Option<u64>, autosave: Option<&Path>) -> WingsTable {
        WingsTable {
            map_images: crate::app::map_image::Keeper {
                dir: autosave.map(Path::to_path_buf),
            },
            form: SetupForm::default(),
            selected: None,
            table: table::Inputs::default(),
            grid: HexGrid::default(),
            seed,
        }
    }

    /// The window around a game read from a file, with its map image if
    /// one was kept, and its remote seat if it was played remotely.
    pub fn opened(game: Game, start: &Start) -> WingsWindow {
        let mut table = WingsTable::new(None, start.autosave.as_deref());
        table.grid.lay_kept(&table.map_images, game.id());
        let mut kept = Kept::of(start);
        kept.look_up(game.id());
        let mut window = WingsWindow::opened(table, game);
        window.kept = Some(kept);
        window
    }

    /// A new game's window, its remote seat kept once it is invited.
    pub fn new_window(start: &Start) -> WingsWindow {
        let table = WingsTable::new(start.seed, start.autosave.as_deref());
        let mut window = WingsWindow::new(table);
        window.kept = Some(Kept::of(start));
        window
    }

    fn new_game(&self) -> Result<Game, String> {
        let f = &self.form;
        let Players {
            names: players,
            locks,
            keys,
        } = players(&f.names, &f.passphrases.keys)?;
        let setup = Setup {
            battle: f.battle().clone(),
            players,
            armies: f.armies.clone(),
            activated: f.activated,
            detachments: f.detachments,
            locks,
        };
        let dice = self.seed.map_or_else(AppDice::default, AppDice::seeded);
        Game::new(setup, keys, dice).map_err(|e| e.to_string())
    }
}

impl Table for WingsTable {
    type Game = Game;
    type Action = Infallible;
    const NAME: &'static str = "Dummy wings";
    const CHAPTER: crate::app::manual::Chapter = crate::app::manual::Chapter::DummyWings;
    const MAP: bool = true;
    const STARTED: &'static str =
        "Set-up: each player places their leader and dummy counters in private";

    crate::app::action::table_actions!(Wings);

    fn form(&mut self) -> &mut dyn Form {
        &mut self.form
    }

    fn start(&mut self) -> Result<Game, String> {
        self.new_game()
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
        let seen: Vec<Seen> = match viewer {
            Some(side) => game.view(side),
            None => game.table_view(),
        };
        let name = |side: Side| game.setup().name(side);
        // His counters, when he holds the screen: their form in the panel,
        // their map in the centre.
        let board = private.as_ref().and_then(Private::board);
        side_panel(
            ui,
            "wings-orders",
            0.38,
            (420.0, 580.0),
            |ui| match &mut private {
                Some(private) => private_panel(ui, private, "my counters", cx),
                None => table::ui(
                    ui,
                    game,
                    &seen,
                    cx,
                    &mut self.selected,
                    &mut self.table,
                    &mut out,
                ),
            },
        );
        egui::CentralPanel::default().show(ui, |ui| {
            let table;
            let board = match &board {
                Some(board) => board,
                None => {
                    table = wings_screens::board(game, &seen, None, None);
                    &table
                }
            };
            let highlight = Highlight {
                counter: self.selected,
                hex: None,
                destination: None,
            };
            let names = Sides {
                south: name(Side::South),
                north: name(Side::North),
            };
            // What a click on the shared map does, said for the moment: a
            // leader's move is made on its owner's screen, not here.
            let hint = board.clicks.clone().unwrap_or_else(|| {
                let public = game.public();
                // From two machines only the winner's window shifts it.
                let mover = |id: usize| public.counter(id).ok().map(|c| c.side);
                match public.pending {
                    Some(muster::map_intel::wings::game::Pending::Adjust { moving, .. })
                        if mover(moving).is_none_or(|s| cx.lives[s] != Life::Remote) =>
                    {
                        "Click the hex to shift the leader to (27.2.2), or a counter to find it in the list"
                    }
                    _ => "Click a counter to find it in the Counters list; each player moves his own on his screen",
                }
                .into()
            });
            let picked = self.grid.show(ui, board, &names, &highlight, &hint);
            match &mut private {
                // A hex or a drag on his own map goes into his form.
                Some(private) => {
                    if let Some(drag) = picked.dragged {
                        private.drag(drag, cx);
                    }
                    if let Some(hex) = picked.clicked {
                        private.tap(hex, cx);
                    }
                }
                None => {
                    if let Some(hex) = picked.clicked {
                        self.selected = seen.iter().find(|s| s.leader == hex).map(|s| s.id);
                        self.table.adjust_to = hex.to_string();
                    }
                }
            }
        });
        self.grid.after_frame(&self.map_images, game.id(), &cx.bus);
        crate::app::seated::send_orders::<WingsTable>(out, cx);
    }

    fn act(&mut self, _game: Option<&mut Game>, action: Infallible) -> Handled {
        match action {}
    }

    crate::app::seated::undo_by_the_game!();

    fn export_pdf(
        game: &Game,
        options: &PdfOptions,
        path: &Path,
    ) -> Result<Vec<PathBuf>, StoreError> {
        let private = options.private.map(|side| (side, opener(options)));
        muster::map_intel::wings::export::save_pdf(game, options.paper, private, path)
    }

    fn file_chosen(&mut self, action: FileAction, path: &Path) -> Status {
        match action {
            FileAction::MapImage => self.grid.lay_chosen(path),
            _ => Status::Error("Dummy wings imports no other file".into()),
        }
    }

    crate::app::seated::remote_table!();
}
