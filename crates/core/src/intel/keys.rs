//! Player keys: what a player's passphrase unlocks.
//!
//! A passphrase becomes a 32-byte key by Argon2id at a cost that makes an
//! offline guess expensive (64 MiB, 3 passes: the benchmark `keys` gives the
//! time per guess). HKDF-SHA-256 splits it into independent keys: the *log
//! key*, which tags every log entry and stays in memory while the app runs,
//! and the *sealing key*, derived only for a private session. The battle
//! file holds the player's `Lock`: the Argon2id salt and cost and a check
//! value that tells a mistyped passphrase from a changed file. The
//! passphrase and the keys are never written.

use super::encoding::{from_hex, to_hex};
use crate::error::{RuleError, refuse};
use hkdf::Hkdf;
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use std::fmt;

/// Argon2id memory for a new lock, in KiB (64 MiB).
pub const ARGON2_MEMORY_KIB: u32 = 64 * 1024;
/// Argon2id passes for a new lock.
pub const ARGON2_PASSES: u32 = 3;
/// The most a file may ask for: a larger cost is a damaged or hostile file,
/// not a lock Muster made. The cap keeps one unlock under 1 s and 256 MiB
/// on a laptop (64 MiB x 3 passes take 142 ms; time grows with memory x
/// passes), so a file cannot make the victim wait or swap.
const MAX_MEMORY_KIB: u32 = 160 * 1024;
const MAX_PASSES: u32 = 16;
/// Memory x passes, in KiB: half a GiB-pass (issue 32: the largest lock of
/// 1 GiB-pass cost 1.1 to 1.5 s and 267 MiB an attempt; `benches/unlock.rs`
/// measures the largest now).
const MAX_WORK_KIB: u64 = 512 * 1024;

/// What opens a player's lock: his passphrase, worked out here (Argon2id),
/// or the key his own screen already worked out from it, off the window's
/// thread.
#[derive(Clone, Copy)]
pub enum Opener<'a> {
    Passphrase(&'a str),
    Key(&'a PlayerKey),
}

impl<'a> From<&'a str> for Opener<'a> {
    fn from(passphrase: &'a str) -> Opener<'a> {
        Opener::Passphrase(passphrase)
    }
}

impl<'a> From<&'a String> for Opener<'a> {
    fn from(passphrase: &'a String) -> Opener<'a> {
        Opener::Passphrase(passphrase)
    }
}

impl<'a> From<&'a PlayerKey> for Opener<'a> {
    fn from(key: &'a PlayerKey) -> Opener<'a> {
        Opener::Key(key)
    }
}

/// The key a player's desk holds, or none for a player without a
/// passphrase (whom the empty one opens).
impl<'a> From<Option<&'a PlayerKey>> for Opener<'a> {
    fn from(key: Option<&'a PlayerKey>) -> Opener<'a> {
        key.map_or(Opener::Passphrase(""), Opener::Key)
    }
}

impl Opener<'_> {
    /// The key that opens `lock`.
    pub fn open(self, lock: &Lock) -> Result<PlayerKey, RuleError> {
        match self {
            Opener::Passphrase(p) => lock.unlock(p),
            Opener::Key(key) if lock.opens_with(key) => Ok(key.clone()),
            Opener::Key(_) => refuse("trust", "That key does not open this player's lock"),
        }
    }

    /// For a player without a passphrase, whom only an empty one opens.
    pub fn is_empty(self) -> bool {
        matches!(self, Opener::Passphrase(""))
    }
}

/// What the battle file stores of a player's passphrase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lock {
    /// Argon2id salt, 16 bytes as hex.
    pub salt: String,
    /// Argon2id memory in KiB and passes.
    pub memory_kib: u32,
    pub passes: u32,
    /// An HKDF output of the key, 32 bytes as hex: the passphrase is right
    /// when it gives this value.
    pub check: String,
}

/// The key a passphrase unlocked. Never printed, never written.
#[derive(Clone)]
pub struct PlayerKey([u8; 32]);

/// The key that tags a player's log entries (HMAC-SHA-256).
#[derive(Clone, PartialEq, Eq)]
pub struct LogKey(pub(crate) [u8; 32]);

/// The key that seals and opens a player's records.
#[derive(Clone, PartialEq, Eq)]
pub struct SealKey(pub(crate) [u8; 32]);

impl SealKey {
    /// A sealing key from its bytes, for the systems' tests that seal under
    /// a key of their own without working one out from a passphrase.
    pub const fn from_bytes(bytes: [u8; 32]) -> SealKey {
        SealKey(bytes)
    }

    /// Whether `text` holds this key written out (as hex, or as the bytes'
    /// JSON array): what a test searches a transcript for, without the key
    /// ever being handed out.
    pub fn appears_in(&self, text: &str) -> bool {
        let hex = super::to_hex(&self.0);
        let array = serde_json::to_string(&self.0.to_vec()).expect("bytes serialize");
        text.contains(&hex) || text.contains(&hex.to_uppercase()) || text.contains(&array)
    }
}

macro_rules! redacted_debug {
    ($($t:ty),*) => {$(
        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(stringify!($t), "(..)"))
            }
        }
    )*};
}
redacted_debug!(PlayerKey, LogKey, SealKey);

fn expand(ikm: &[u8], info: &[u8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    Hkdf::<Sha256>::new(None, ikm)
        .expand(info, &mut out)
        .expect("32 bytes is a valid HKDF-SHA-256 length");
    out
}

impl PlayerKey {
    pub fn log_key(&self) -> LogKey {
        LogKey(expand(&self.0, b"muster v3 log"))
    }

    pub fn seal_key(&self) -> SealKey {
        SealKey(expand(&self.0, b"muster v3 seal"))
    }

    /// The value a lock stores to recognise this key.
    pub fn check(&self) -> String {
        to_hex(&expand(&self.0, b"muster v3 check"))
    }
}

impl SealKey {
    /// The sealing key of a player who plays without a passphrase: the
    /// records are still never in plain text, but anyone with Muster can
    /// open them, and the app says so.
    pub fn unprotected() -> SealKey {
        SealKey(expand(
            b"muster: played without a passphrase",
            b"muster v3 seal",
        ))
    }
}

fn random<const N: usize>() -> Result<[u8; N], RuleError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| {
        RuleError::new(
            "trust",
            format!("the system could not supply random bytes: {e}"),
        )
    })?;
    Ok(bytes)
}

fn argon2(passphrase: &str, salt: &[u8], memory_kib: u32, passes: u32) -> PlayerKey {
    let params =
        argon2::Params::new(memory_kib, passes, 1, Some(32)).expect("bounds checked by the caller");
    let argon = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params);
    let mut out = [0u8; 32];
    argon
        .hash_password_into(passphrase.as_bytes(), salt, &mut out)
        .expect("a 16-byte salt and 32-byte output are valid");
    PlayerKey(out)
}

impl Lock {
    /// A new lock for a passphrase strong enough to survive an offline
    /// attack (see `strength::check_strength`), and the key it opens.
    pub fn create(passphrase: &str, context: &[&str]) -> Result<(Lock, PlayerKey), RuleError> {
        super::strength::check_strength(passphrase, context)?;
        let salt: [u8; 16] = random()?;
        let key = argon2(passphrase, &salt, ARGON2_MEMORY_KIB, ARGON2_PASSES);
        let lock = Lock {
            salt: to_hex(&salt),
            memory_kib: ARGON2_MEMORY_KIB,
            passes: ARGON2_PASSES,
            check: key.check(),
        };
        Ok((lock, key))
    }

    /// The key `passphrase` opens, if it is this lock's passphrase.
    pub fn unlock(&self, passphrase: &str) -> Result<PlayerKey, RuleError> {
        let key = self.derive(passphrase)?;
        if key.check() == self.check {
            Ok(key)
        } else {
            refuse(
                "trust",
                "That is not the passphrase this player set (or the file's record of it was changed)",
            )
        }
    }

    /// Whether `key` is the key this lock was made with.
    pub fn opens_with(&self, key: &PlayerKey) -> bool {
        key.check() == self.check
    }

    fn derive(&self, passphrase: &str) -> Result<PlayerKey, RuleError> {
        self.well_formed()?;
        let salt = from_hex(&self.salt).expect("checked by well_formed");
        Ok(argon2(passphrase, &salt, self.memory_kib, self.passes))
    }

    /// Checks what a file says of the lock before trusting it with memory
    /// or time.
    pub fn well_formed(&self) -> Result<(), RuleError> {
        let damaged =
            |what: &str| refuse("file", format!("the passphrase lock is damaged: {what}"));
        if from_hex(&self.salt).is_none_or(|s| s.len() != 16) {
            return damaged("its salt is not 16 bytes of hex");
        }
        if from_hex(&self.check).is_none_or(|s| s.len() != 32) {
            return damaged("its check value is not 32 bytes of hex");
        }
        if !(ARGON2_MEMORY_KIB..=MAX_MEMORY_KIB).contains(&self.memory_kib) {
            return damaged(&format!(
                "its memory cost {} KiB is outside {ARGON2_MEMORY_KIB} to {MAX_MEMORY_KIB}",
                self.memory_kib
            ));
        }
        if !(ARGON2_PASSES..=MAX_PASSES).contains(&self.passes) {
            return damaged(&format!(
                "its {} passes are outside {ARGON2_PASSES} to {MAX_PASSES}",
                self.passes
            ));
        }
        let work = u64::from(self.memory_kib) * u64::from(self.passes);
        if work > MAX_WORK_KIB {
            return damaged(&format!(
                "{} KiB x {} passes is more work than one unlock may take ({} MiB-passes at most)",
                self.memory_kib,
                self.passes,
                MAX_WORK_KIB / 1024
            ));
        }
        Ok(())
    }
}

/// The word list suggested passphrases are drawn from: 256 distinct words.
pub(crate) const WORDS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../..",
    "/assets/words/passphrase.txt"
));

/// How many words a suggested passphrase has.
pub const SUGGESTED_WORDS: usize = 6;

/// A passphrase of six different words drawn from the operating system's
/// random source: 256 x 255 x ... x 251 choices, 47.9 bits, far beyond
/// offline reach at Argon2id's cost. Different words, because a guesser
/// tries a word repeated early and the strength check would refuse it.
pub fn suggest_passphrase() -> Result<String, RuleError> {
    let words: Vec<&str> = WORDS.split_whitespace().collect();
    let mut picks: Vec<&str> = Vec::with_capacity(SUGGESTED_WORDS);
    while picks.len() < SUGGESTED_WORDS {
        // 256 words: a byte picks one uniformly; a word already picked is
        // drawn again.
        let bytes: [u8; 16] = random()?;
        for b in bytes {
            let word = words[usize::from(b)];
            if picks.len() < SUGGESTED_WORDS && !picks.contains(&word) {
                picks.push(word);
            }
        }
    }
    Ok(picks.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_list_has_256_distinct_words() {
        let words: std::collections::BTreeSet<&str> = WORDS.split_whitespace().collect();
        assert_eq!(words.len(), 256);
        assert_eq!(WORDS.split_whitespace().count(), 256);
    }

    #[test]
    fn a_lock_opens_with_its_passphrase_only() {
        let (lock, key) = Lock::create("brass otter quarry lantern", &[]).unwrap();
        assert_eq!(lock.memory_kib, 64 * 1024);
        assert_eq!(lock.passes, 3);
        let again = lock.unlock("brass otter quarry lantern").unwrap();
        assert!(again.log_key() == key.log_key());
        assert!(lock.opens_with(&key));
        let e = lock.unlock("brass otter quarry lanterns").unwrap_err();
        assert!(e.message.contains("not the passphrase"), "{e}");
        // The log key and the sealing key are independent of each other.
        assert_ne!(key.log_key().0, key.seal_key().0);
        assert_ne!(key.seal_key().0, SealKey::unprotected().0);
        // Nothing of the key is printed.
        assert_eq!(format!("{key:?}"), "PlayerKey(..)");
    }

    #[test]
    fn a_hostile_lock_is_refused_before_any_work() {
        let (lock, _) = Lock::create("brass otter quarry lantern", &[]).unwrap();
        let huge = Lock {
            memory_kib: u32::MAX,
            ..lock.clone()
        };
        assert!(
            huge.unlock("x")
                .unwrap_err()
                .message
                .contains("memory cost")
        );
        let cheap = Lock {
            memory_kib: 8,
            ..lock.clone()
        };
        assert!(cheap.unlock("x").is_err(), "a lowered cost is refused");
        let passes = Lock {
            passes: 1_000_000,
            ..lock.clone()
        };
        assert!(passes.unlock("x").unwrap_err().message.contains("passes"));
        // Issue 21: 1 GiB and 16 passes cost the victim 19 s and 1 GiB per
        // attempt. Inside each bound alone, but too much work together.
        for (memory_kib, passes) in [
            (1024 * 1024, 16),
            (512 * 1024, 3),
            (256 * 1024, 3),
            (192 * 1024, 3),
            (64 * 1024, 9),
        ] {
            let costly = Lock {
                memory_kib,
                passes,
                ..lock.clone()
            };
            assert!(costly.well_formed().is_err(), "{memory_kib} KiB x {passes}");
        }
        for (memory_kib, passes) in [(160 * 1024, 3), (64 * 1024, 8), (128 * 1024, 4)] {
            let most = Lock {
                memory_kib,
                passes,
                ..lock.clone()
            };
            assert!(most.well_formed().is_ok(), "{memory_kib} KiB x {passes}");
        }
        let salt = Lock {
            salt: "zz".into(),
            ..lock
        };
        assert!(salt.unlock("x").unwrap_err().message.contains("salt"));
    }
}
