//! What the status line tells the players: the last outcome worth telling,
//! an error in the warning colour.

/// The last outcome worth telling the players.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Info(String),
    Error(String),
}
