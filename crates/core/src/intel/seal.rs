//! One sealed record: a secret encrypted with ChaCha20-Poly1305 under a key
//! derived (HKDF, with a random salt per record) from its owner's sealing
//! key, and a SHA-256 commitment to it, salted with a random blinding value
//! kept inside the encryption.
//!
//! A record is bound to its place: the game's id, its owner, its kind and
//! its slot go in as associated data, so a record moved to another marker,
//! holder, log entry, player or game does not open, even under a key both
//! could use (a player without a passphrase). Records written before the
//! binding existed carry no `bound` flag and open as they always did; a
//! flag removed from a bound record only makes it fail to open.
//!
//! The plaintext is padded to one fixed length per kind of record, so the
//! ciphertext's size tells nothing (a dummy ambush and a real one, a flank
//! march of one battle group or twelve, are the same size). A player who
//! plays without a passphrase seals under `SealKey::unprotected`: the file
//! still never holds the secret in plain text, but anyone with Muster can
//! open it, and the app says so.
//!
//! The ciphertext is written as base64 (flagged `base64`), a third shorter
//! than the hex of records sealed before it: padded records are most of a
//! hidden-forces game's file, and a save's cost is its file's size. A
//! record without the flag is hex and opens as it always did; the flag is
//! covered by the log's chain like every other byte of the entry.

use super::encoding::{from_base64, from_hex, to_base64, to_hex};
use super::keys::SealKey;
use crate::side::Side;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Hex digits of the commitment in the code players compare: 80 bits, far
/// beyond finding a second secret with the same code.
const CODE_DIGITS: usize = 20;

/// A secret as the log stores it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sealed {
    pub owner: Side,
    /// The record key's HKDF salt, 16 bytes as hex.
    pub salt: String,
    /// ChaCha20-Poly1305 nonce, 12 bytes as hex.
    pub nonce: String,
    /// The encrypted secret with its blinding value, padded: base64 if
    /// `base64`, else hex (records sealed before base64).
    pub ciphertext: String,
    /// SHA-256 over the blinding value and the secret, as hex.
    pub commitment: String,
    /// Sealed with its place as associated data (every record Muster
    /// seals now; absent in files from before).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bound: bool,
    /// The ciphertext is base64 (every record Muster seals now; absent,
    /// and hex, in files from before). Last, so a record from before
    /// writes back byte for byte as it was read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub base64: bool,
}

/// Where a sealed record belongs: its game, owner, kind ("ambush",
/// "hand", ...) and slot within the kind (a marker's number, a log entry,
/// a holder's n-th sealing). The opener computes it from where it finds
/// the record, never from the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place<'a> {
    pub game: &'a str,
    pub owner: Side,
    pub kind: &'static str,
    pub slot: String,
}

impl Place<'_> {
    pub(super) fn associated_data(&self) -> Vec<u8> {
        // Each part is length-prefixed, so no two places share bytes.
        let mut out = b"muster-place-v1".to_vec();
        for part in [self.game, self.owner.name(), self.kind, &self.slot] {
            out.extend_from_slice(&(part.len() as u64).to_be_bytes());
            out.extend_from_slice(part.as_bytes());
        }
        out
    }
}

/// A secret as its reveal publishes it: the contents and the blinding value
/// that make its commitment checkable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Revealed<T> {
    pub secret: T,
    /// 16 random bytes as hex.
    pub blind: String,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    #[error(
        "{owner}'s sealed record does not open with {owner}'s key here: it was changed, moved from another place, or sealed by someone else"
    )]
    WrongKey { owner: Side },
    #[error(
        "{owner}'s revealed record does not match the commitment {code} made when it was sealed"
    )]
    Commitment { owner: Side, code: String },
    #[error("{owner}'s sealed record is damaged: {what}")]
    Damaged { owner: Side, what: String },
    #[error("The system could not supply random bytes: {0}")]
    Random(String),
    #[error(
        "{owner}'s record is too large to seal ({size} bytes; records of this kind hold {limit})"
    )]
    TooLarge {
        owner: Side,
        size: usize,
        limit: usize,
    },
}

/// The ChaCha20-Poly1305 key of one record: its owner's sealing key and
/// the record's own salt, through HKDF.
pub(super) fn record_key(seal: &SealKey, salt: &[u8]) -> Key {
    let mut out = [0u8; 32];
    hkdf::Hkdf::<Sha256>::new(Some(salt), &seal.0)
        .expand(b"muster v3 record", &mut out)
        .expect("32 bytes is a valid HKDF-SHA-256 length");
    Key::from(out)
}

/// A way bytes are written as text: its name and its reader.
type Decoder = (&'static str, fn(&str) -> Option<Vec<u8>>);

/// Bytes before the padding that say how long the record's JSON is.
const LENGTH_BYTES: usize = 4;

fn random<const N: usize>() -> Result<[u8; N], SealError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| SealError::Random(e.to_string()))?;
    Ok(bytes)
}

/// The commitment to `secret` under `blind`: SHA-256 over a domain tag, the
/// blinding value and the secret's JSON.
pub fn commitment<T: Serialize>(secret: &T, blind: &[u8]) -> String {
    let json = serde_json::to_vec(secret).expect("a secret always serializes");
    let mut hash = Sha256::new();
    hash.update(b"muster-commitment-v1");
    hash.update(blind);
    hash.update(&json);
    to_hex(&hash.finalize())
}

impl Sealed {
    /// Seals `secret` for the owner of `place` under his sealing key, bound
    /// to that place, padded to `padded` bytes (one length for every record
    /// of a kind).
    pub fn seal<T: Serialize>(
        place: &Place,
        secret: &T,
        key_of_owner: &SealKey,
        padded: usize,
    ) -> Result<Sealed, SealError> {
        let owner = place.owner;
        // One call to the system's random source for all three: a call
        // each was a tenth of a seal's time.
        let fresh: [u8; 44] = random()?;
        let (salt, rest) = fresh.split_at(16);
        let (nonce, blind) = rest.split_at(12);
        let nonce: [u8; 12] = nonce.try_into().expect("12 bytes");
        let revealed = Revealed {
            secret,
            blind: to_hex(blind),
        };
        let json = serde_json::to_vec(&revealed).expect("a secret always serializes");
        if json.len() + LENGTH_BYTES > padded {
            return Err(SealError::TooLarge {
                owner,
                size: json.len(),
                limit: padded - LENGTH_BYTES,
            });
        }
        let mut plain = Vec::with_capacity(padded);
        plain.extend_from_slice(&(json.len() as u32).to_be_bytes());
        plain.extend_from_slice(&json);
        plain.resize(padded, 0);
        let cipher = ChaCha20Poly1305::new(&record_key(key_of_owner, salt));
        let aad = place.associated_data();
        let payload = Payload {
            msg: plain.as_slice(),
            aad: &aad,
        };
        let ciphertext = cipher
            .encrypt(&Nonce::from(nonce), payload)
            .expect("encryption of a short message does not fail");
        Ok(Sealed {
            owner,
            salt: to_hex(salt),
            nonce: to_hex(&nonce),
            ciphertext: to_base64(&ciphertext),
            commitment: commitment(secret, blind),
            bound: true,
            base64: true,
        })
    }

    fn bytes(&self, what: &str, text: &str, len: Option<usize>) -> Result<Vec<u8>, SealError> {
        self.decoded(what, text, len, ("hex", from_hex))
    }

    /// The ciphertext's bytes, as its record says they are written.
    pub fn ciphertext_bytes(&self) -> Result<Vec<u8>, SealError> {
        let written: Decoder = if self.base64 {
            ("base64", from_base64)
        } else {
            ("hex", from_hex)
        };
        self.decoded("ciphertext", &self.ciphertext, None, written)
    }

    fn decoded(
        &self,
        what: &str,
        text: &str,
        len: Option<usize>,
        (name, decode): Decoder,
    ) -> Result<Vec<u8>, SealError> {
        let damaged = || SealError::Damaged {
            owner: self.owner,
            what: format!("its {what} is not {name} of the right length"),
        };
        let bytes = decode(text).ok_or_else(damaged)?;
        match len {
            Some(n) if bytes.len() != n => Err(damaged()),
            _ => Ok(bytes),
        }
    }

    /// Opens the record found at `place` with its owner's sealing key and
    /// checks it against its commitment.
    pub fn open<T: Serialize + DeserializeOwned>(
        &self,
        key_of_owner: &SealKey,
        place: &Place,
    ) -> Result<Revealed<T>, SealError> {
        if place.owner != self.owner {
            return Err(SealError::WrongKey { owner: place.owner });
        }
        let salt = self.bytes("salt", &self.salt, Some(16))?;
        let nonce: [u8; 12] = self
            .bytes("nonce", &self.nonce, Some(12))?
            .try_into()
            .expect("length checked");
        let ciphertext = self.ciphertext_bytes()?;
        let cipher = ChaCha20Poly1305::new(&record_key(key_of_owner, &salt));
        let aad = if self.bound {
            place.associated_data()
        } else {
            Vec::new()
        };
        let payload = Payload {
            msg: ciphertext.as_slice(),
            aad: &aad,
        };
        let plain = cipher
            .decrypt(&Nonce::from(nonce), payload)
            .map_err(|_| SealError::WrongKey { owner: self.owner })?;
        let damaged = |what: String| SealError::Damaged {
            owner: self.owner,
            what,
        };
        let (length, rest) = plain
            .split_first_chunk::<LENGTH_BYTES>()
            .ok_or_else(|| damaged("it is shorter than its length".into()))?;
        let json = rest
            .get(..u32::from_be_bytes(*length) as usize)
            .ok_or_else(|| damaged("its length is past its end".into()))?;
        let revealed: Revealed<T> =
            serde_json::from_slice(json).map_err(|e| SealError::Damaged {
                owner: self.owner,
                what: e.to_string(),
            })?;
        self.check(&revealed)?;
        Ok(revealed)
    }

    /// Checks revealed contents against the commitment made at sealing.
    pub fn check<T: Serialize>(&self, revealed: &Revealed<T>) -> Result<(), SealError> {
        let blind = self.bytes("blinding value", &revealed.blind, Some(16))?;
        if commitment(&revealed.secret, &blind) == self.commitment {
            Ok(())
        } else {
            Err(SealError::Commitment {
                owner: self.owner,
                code: self.code(),
            })
        }
    }

    /// What the record held, as its owner's machine opened it at a game's
    /// end (`sent`), checked against its commitment; not sent, opened with
    /// the unprotected key (sealed before he set a passphrase, anyone
    /// opens it); or why neither, in words.
    pub fn held_at_end<T: Serialize + DeserializeOwned + Clone>(
        &self,
        sent: Option<&Revealed<T>>,
        place: &Place,
    ) -> Result<T, String> {
        match sent {
            Some(revealed) => (self.check(revealed).map(|()| revealed.secret.clone()))
                .map_err(|e| format!("is not what was sealed: {e}")),
            None => (self
                .open::<T>(&SealKey::unprotected(), place)
                .map(|r| r.secret))
            .map_err(|_| "was not opened".to_string()),
        }
    }

    /// The code both players see and the printout carries: the first 80
    /// bits of the commitment, "3F2A-91C0-77DE-0A1B-C3D4". The reveal checks
    /// the whole commitment.
    pub fn code(&self) -> String {
        code(&self.commitment)
    }
}

/// The first 80 bits of a hex digest in groups of four: what players read
/// aloud and compare (commitments, the ruleset, the log's head).
pub fn code(digest_hex: &str) -> String {
    let digits: Vec<char> = digest_hex
        .to_uppercase()
        .chars()
        .take(CODE_DIGITS)
        .collect();
    digits
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}
