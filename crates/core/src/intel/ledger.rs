//! The authenticated log (RULES 11, DESIGN "Trust"): a SHA-256 chain over
//! the log entries, and for each player with a passphrase an HMAC-SHA-256
//! tag on every link under his log key.
//!
//! The chain alone only catches damage: anyone can recompute it. The tags
//! are what an opponent cannot forge: a tag covers the chain up to its
//! entry, so an edit of an entry (or of the header: the battle's id and its
//! ruleset) breaks every later tag of each player whose passphrase the
//! editor lacks, and that player's unlock names the first entry that fails.
//! Position 0 is the header; entry `n` (1-based, as the log shows it) is
//! position `n`.

use super::keys::LogKey;
use hmac::{KeyInit, Mac};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// A SHA-256 or HMAC-SHA-256 output.
pub type Digest32 = [u8; 32];

/// The chain's start: the battle's id and the ruleset it is played under.
pub fn genesis(id: &str, ruleset_json: &[u8]) -> Digest32 {
    let mut hash = Sha256::new();
    hash.update(b"muster-log-v3");
    hash.update((id.len() as u64).to_be_bytes());
    hash.update(id.as_bytes());
    hash.update(ruleset_json);
    hash.finalize().into()
}

/// The link after `previous` for `entry`: SHA-256 over its JSON, hashed
/// as it is written, a few KiB at a time (an entry with two sealed records
/// is some 5 KB, and building it whole first cost more than hashing it).
pub fn link<T: Serialize>(previous: &Digest32, entry: &T) -> Digest32 {
    let mut hash = Sha256::new();
    hash.update(b"muster-link-v3");
    hash.update(previous);
    let mut json = std::io::BufWriter::with_capacity(4096, Hashing(&mut hash));
    serde_json::to_writer(&mut json, entry).expect("an entry always serializes");
    json.into_inner()
        .map_err(|e| e.into_error())
        .expect("hashing writes nothing that can fail");
    hash.finalize().into()
}

/// Writes into a hash: what `link` hashes is exactly the entry's JSON.
struct Hashing<'a>(&'a mut Sha256);

impl std::io::Write for Hashing<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn mac(key: &LogKey, position: usize, link: &Digest32) -> hmac::Hmac<Sha256> {
    let mut mac =
        hmac::Hmac::<Sha256>::new_from_slice(&key.0).expect("HMAC takes a key of any length");
    mac.update(b"muster-tag-v3");
    mac.update(&(position as u64).to_be_bytes());
    mac.update(link);
    mac
}

/// A player's tag on the link at `position`.
pub fn tag(key: &LogKey, position: usize, link: &Digest32) -> Digest32 {
    mac(key, position, link).finalize().into_bytes().into()
}

/// Whether `stored` is `key`'s tag at `position`, compared in constant time.
pub fn verify(key: &LogKey, position: usize, link: &Digest32, stored: &[u8]) -> bool {
    mac(key, position, link).verify_slice(stored).is_ok()
}
