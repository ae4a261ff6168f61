//! Field of Glory's part of the window: a panel per step of the sequence,
//! the table to scale with each step's overlay, and the terrain inventory
//! editor.

pub mod inventory_editor;
pub mod steps;
pub mod table_view;
