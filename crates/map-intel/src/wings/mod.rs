//! Part B of RULES-map-intel: dummy wings and spotting (seed 003, optional
//! rule 27). The rules Muster computes: spotting within 7 hexes and what it
//! does to real and dummy leaders, the deployment roll with its exact odds,
//! the formation each Wing takes, and the distances and counts it can check
//! from the map.

mod audit;
pub mod claims;
pub mod describe;
pub mod drag;
pub mod events;
pub mod export;
pub mod files;
mod fold;
pub mod formation;
pub mod game;
pub mod placement;
mod remote;
pub mod roll;
pub mod scenario;
pub mod screens;
pub mod script;
pub mod seat;
pub mod setup;
pub mod spotting;
