//! One sealed record: a secret encrypted with ChaCha20-Poly1305 under a key
//! Argon2id derives from its owner's passphrase, and a SHA-256 commitment
//! to it, salted with a random blinding value kept inside the encryption.
//!
//! Without a passphrase the key comes from the empty passphrase: the file
//! still never holds the secret in plain text, but anyone with Muster can
//! open it, and the app says so.

use super::hex::{from_hex, to_hex};
use crate::side::Side;
use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A secret as the log stores it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sealed {
    pub owner: Side,
    /// Argon2id salt, 16 bytes as hex.
    pub salt: String,
    /// ChaCha20-Poly1305 nonce, 12 bytes as hex.
    pub nonce: String,
    /// The encrypted secret with its blinding value, as hex.
    pub ciphertext: String,
    /// SHA-256 over the blinding value and the secret, as hex.
    pub commitment: String,
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
        "That passphrase does not open {owner}'s sealed record (a wrong passphrase, or the record was changed)"
    )]
    WrongPassphrase { owner: Side },
    #[error(
        "{owner}'s revealed record does not match the commitment {code} made when it was sealed"
    )]
    Commitment { owner: Side, code: String },
    #[error("{owner}'s sealed record is damaged: {what}")]
    Damaged { owner: Side, what: String },
    #[error("The system could not supply random bytes: {0}")]
    Random(String),
}

/// Argon2id at the OWASP minimum (19 MiB, 2 passes): slow enough to make
/// guessing a passphrase costly, quick enough for a table-side laptop.
fn key(passphrase: &str, salt: &[u8]) -> Key {
    let params = argon2::Params::new(19 * 1024, 2, 1, Some(32)).expect("fixed valid parameters");
    let argon = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params);
    let mut out = [0u8; 32];
    argon
        .hash_password_into(passphrase.as_bytes(), salt, &mut out)
        .expect("a 16-byte salt and 32-byte output are valid");
    Key::from(out)
}

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
    /// Seals `secret` for `owner` under `passphrase`.
    pub fn seal<T: Serialize>(
        owner: Side,
        secret: &T,
        passphrase: &str,
    ) -> Result<Sealed, SealError> {
        let salt: [u8; 16] = random()?;
        let nonce: [u8; 12] = random()?;
        let blind: [u8; 16] = random()?;
        let revealed = Revealed {
            secret,
            blind: to_hex(&blind),
        };
        let plain = serde_json::to_vec(&revealed).expect("a secret always serializes");
        let cipher = ChaCha20Poly1305::new(&key(passphrase, &salt));
        let ciphertext = cipher
            .encrypt(&Nonce::from(nonce), plain.as_slice())
            .expect("encryption of a short message does not fail");
        Ok(Sealed {
            owner,
            salt: to_hex(&salt),
            nonce: to_hex(&nonce),
            ciphertext: to_hex(&ciphertext),
            commitment: commitment(secret, &blind),
        })
    }

    fn bytes(&self, what: &str, text: &str, len: Option<usize>) -> Result<Vec<u8>, SealError> {
        let damaged = || SealError::Damaged {
            owner: self.owner,
            what: format!("its {what} is not hex of the right length"),
        };
        let bytes = from_hex(text).ok_or_else(damaged)?;
        match len {
            Some(n) if bytes.len() != n => Err(damaged()),
            _ => Ok(bytes),
        }
    }

    /// Opens the record with its owner's passphrase and checks it against
    /// its commitment.
    pub fn open<T: Serialize + DeserializeOwned>(
        &self,
        passphrase: &str,
    ) -> Result<Revealed<T>, SealError> {
        let salt = self.bytes("salt", &self.salt, Some(16))?;
        let nonce: [u8; 12] = self
            .bytes("nonce", &self.nonce, Some(12))?
            .try_into()
            .expect("length checked");
        let ciphertext = self.bytes("ciphertext", &self.ciphertext, None)?;
        let cipher = ChaCha20Poly1305::new(&key(passphrase, &salt));
        let plain = cipher
            .decrypt(&Nonce::from(nonce), ciphertext.as_slice())
            .map_err(|_| SealError::WrongPassphrase { owner: self.owner })?;
        let revealed: Revealed<T> =
            serde_json::from_slice(&plain).map_err(|e| SealError::Damaged {
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

    /// The short code both players see for the commitment: "3F2A-91C0".
    pub fn code(&self) -> String {
        let c = self.commitment.to_uppercase();
        format!(
            "{}-{}",
            c.get(0..4).unwrap_or(""),
            c.get(4..8).unwrap_or("")
        )
    }
}
