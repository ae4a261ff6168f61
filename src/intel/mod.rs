//! Limited intelligence (RULES 8.3-8.4): secrets sealed under their owner's
//! passphrase with a commitment anyone can check when they are revealed.
//!
//! A secret never enters the battle in plain text: the owner's screen seals
//! it before the command is sent, the log keeps only the sealed record, and
//! its contents enter the log only when the rules reveal them, together
//! with the blinding value that lets anyone check them against the
//! commitment made when it was sealed.

mod hex;
mod seal;

pub use hex::{from_hex, to_hex};
pub use seal::{Revealed, SealError, Sealed, commitment};

#[cfg(test)]
mod tests;
