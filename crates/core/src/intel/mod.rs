//! Limited intelligence and trust (RULES 8.3-8.4, 11): player keys from
//! passphrases, secrets sealed under their owner's key with a commitment
//! anyone can check when they are revealed, and the authenticated log.
//!
//! A secret never enters the battle in plain text: the owner's screen seals
//! it before the command is sent, the log keeps only the sealed record, and
//! its contents enter the log only when the rules reveal them, together
//! with the blinding value that lets anyone check them against the
//! commitment made when it was sealed.

mod encoding;
mod keys;
pub mod ledger;
mod seal;
pub mod strength;
pub mod trail;

pub use encoding::{from_hex, to_hex};
pub use keys::{
    ARGON2_MEMORY_KIB, ARGON2_PASSES, Lock, LogKey, Opener, PlayerKey, SUGGESTED_WORDS, SealKey,
    suggest_passphrase,
};
pub use seal::{Place, Revealed, SealError, Sealed, code, commitment};
pub use strength::check_strength;

#[cfg(test)]
pub(crate) mod tests;
