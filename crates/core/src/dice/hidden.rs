//! Picks only their owner can read, that nobody chose (docs: "Playing
//! remotely", "Cards nobody can choose or see"): a card drawn from a deck
//! when the game is played from two machines.
//!
//! A round of joint dice (`joint`) is public: a card picked from it alone
//! would be known to the other machine, which holds the same deck list. So
//! each pick also hangs on a secret of the owner's (`PickSecret`), worked
//! out from his sealing key and a salt, whose commitment the log holds
//! from before any round it is used with (`PickCommitment`): the other
//! machine cannot tell which card came (it lacks the secret), and the
//! owner cannot choose it (the secret was fixed before the round's halves
//! were known). When the game is over the owner's machine shows the secret;
//! the other checks it against the commitment and every pick again.
//!
//! What a pick gave is also committed one item at a time (`token`): a
//! blinding worked out from the secret and the item's number in the game,
//! hashed with the item. When the owner shows an item (a card played from
//! his hand) he shows that one blinding, and the other machine checks at
//! once that the item is one he committed to as he drew it, learning
//! nothing of the others.

use super::JointDice;
use crate::intel::{SealKey, from_hex, to_hex};
use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// 32 bytes that cross as 64 hex digits.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
struct Bytes32([u8; 32]);

impl std::fmt::Debug for Bytes32 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&to_hex(&self.0))
    }
}

impl From<Bytes32> for String {
    fn from(b: Bytes32) -> String {
        to_hex(&b.0)
    }
}

impl TryFrom<String> for Bytes32 {
    type Error = String;
    fn try_from(text: String) -> Result<Bytes32, String> {
        let bytes = from_hex(&text)
            .filter(|b| b.len() == 32)
            .ok_or("64 hex digits expected")?;
        let mut out = [0; 32];
        out.copy_from_slice(&bytes);
        Ok(Bytes32(out))
    }
}

/// An owner's secret for his picks in one game.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PickSecret(Bytes32);

impl std::fmt::Debug for PickSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PickSecret(..)")
    }
}

/// What hides one committed item until its owner shows it (`token`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Blinding(Bytes32);

/// A commitment to one item: its hash with its blinding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Token(Bytes32);

impl PickSecret {
    /// The blinding of the `slot`-th item (from 0) committed one by one
    /// under this secret in game `game`.
    pub fn blinding(&self, game: &str, slot: u64) -> Blinding {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.0.0)
            .expect("HMAC takes any key length");
        mac.update(b"muster item blinding\0");
        mac.update(game.as_bytes());
        mac.update(&[0]);
        mac.update(&slot.to_be_bytes());
        Blinding(Bytes32(mac.finalize().into_bytes().into()))
    }
}

/// The commitment to `item` under `blinding`.
pub fn token(blinding: &Blinding, item: &str) -> Token {
    let mut hash = Sha256::new();
    hash.update(b"muster item token\0");
    hash.update(blinding.0.0);
    hash.update(item.as_bytes());
    Token(Bytes32(hash.finalize().into()))
}

/// What the log holds of an owner's pick secret: a salt, which makes it
/// this game's, and a commitment to it, which binds him to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PickCommitment {
    salt: String,
    commitment: String,
}

fn commit(secret: &PickSecret) -> String {
    let mut hash = Sha256::new();
    hash.update(b"muster pick commitment\0");
    hash.update(secret.0.0);
    to_hex(&hash.finalize())
}

impl PickCommitment {
    /// A fresh commitment to the secret `key` gives under a new salt.
    pub fn new(key: &SealKey) -> Result<PickCommitment, crate::error::RuleError> {
        let salt = super::joint::Half::fresh()?.0;
        let secret = key.pick_secret(&salt);
        Ok(PickCommitment {
            salt: to_hex(&salt),
            commitment: commit(&secret),
        })
    }

    /// The secret `key` gives for this commitment, if it is the one
    /// committed to.
    pub fn secret(&self, key: &SealKey) -> Option<PickSecret> {
        let salt = from_hex(&self.salt)?;
        Some(key.pick_secret(&salt)).filter(|s| self.holds(s))
    }

    /// The secret `key` gives for this commitment, or the unprotected
    /// key's: a commitment made before its owner set his passphrase.
    pub fn secret_under(&self, key: &SealKey) -> Option<PickSecret> {
        self.secret(key)
            .or_else(|| self.secret(&SealKey::unprotected()))
    }

    /// Whether `secret` is the one committed to.
    pub fn holds(&self, secret: &PickSecret) -> bool {
        commit(secret) == self.commitment
    }
}

impl SealKey {
    /// His pick secret for `salt` (`PickCommitment`).
    fn pick_secret(&self, salt: &[u8]) -> PickSecret {
        let mut mac =
            <Hmac<Sha256> as KeyInit>::new_from_slice(&self.0).expect("HMAC takes any key length");
        mac.update(b"muster picks\0");
        mac.update(salt);
        PickSecret(Bytes32(mac.finalize().into_bytes().into()))
    }
}

/// The `k`-th pick (from 0) of one of `n` in game `game` with joint round
/// `joint`, under `secret`: each of the `n` with the same chance, to within
/// one in 2^64.
pub fn pick(secret: &PickSecret, game: &str, joint: &JointDice, k: u64, n: usize) -> usize {
    let mut mac =
        <Hmac<Sha256> as KeyInit>::new_from_slice(&secret.0.0).expect("HMAC takes any key length");
    mac.update(b"muster pick\0");
    mac.update(game.as_bytes());
    mac.update(&[0]);
    mac.update(&joint.round.to_be_bytes());
    mac.update(&joint.host.0);
    mac.update(&joint.joiner.0);
    mac.update(&k.to_be_bytes());
    let bytes: [u8; 32] = mac.finalize().into_bytes().into();
    let wide = u128::from_be_bytes(bytes[..16].try_into().expect("16 bytes"));
    (wide % n.max(1) as u128) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::joint::Half;

    fn joint(round: u64, host: u8, joiner: u8) -> JointDice {
        JointDice {
            round,
            host: Half([host; 32]),
            joiner: Half([joiner; 32]),
        }
    }

    #[test]
    fn a_pick_hangs_on_the_secret_the_round_and_its_place() {
        let key = SealKey::from_bytes([7; 32]);
        let c = PickCommitment::new(&key).unwrap();
        let secret = c.secret(&key).expect("his key gives the committed secret");
        let other = PickCommitment::new(&SealKey::from_bytes([8; 32])).unwrap();
        assert!(!other.holds(&secret));
        assert!(c.secret(&SealKey::from_bytes([8; 32])).is_none());
        let picks = |s: &PickSecret, j: &JointDice| -> Vec<usize> {
            (0..40).map(|k| pick(s, "g", j, k, 40)).collect()
        };
        let base = picks(&secret, &joint(1, 1, 2));
        // The same inputs, the same picks; any input changed, others.
        assert_eq!(base, picks(&secret, &joint(1, 1, 2)));
        assert_ne!(base, picks(&secret, &joint(2, 1, 2)));
        assert_ne!(base, picks(&secret, &joint(1, 1, 3)));
        let again = c.secret(&key).unwrap();
        assert_eq!(base, picks(&again, &joint(1, 1, 2)));
        let stranger = PickCommitment::new(&SealKey::from_bytes([9; 32]))
            .unwrap()
            .secret(&SealKey::from_bytes([9; 32]))
            .unwrap();
        assert_ne!(base, picks(&stranger, &joint(1, 1, 2)));
        // A secret crosses as hex and reads back.
        let text = serde_json::to_string(&secret).unwrap();
        assert_eq!(serde_json::from_str::<PickSecret>(&text).unwrap(), secret);
    }

    #[test]
    fn an_item_shown_matches_its_token_and_no_other() {
        let secret = PickSecret(Bytes32([5; 32]));
        let tokens: Vec<Token> = ["a", "b", "a"]
            .iter()
            .enumerate()
            .map(|(n, item)| token(&secret.blinding("g", n as u64), item))
            .collect();
        // One item twice, two tokens that tell nothing alike.
        assert_ne!(tokens[0], tokens[2]);
        assert_eq!(token(&secret.blinding("g", 1), "b"), tokens[1]);
        assert_ne!(token(&secret.blinding("g", 1), "a"), tokens[1]);
        assert_ne!(token(&secret.blinding("h", 1), "b"), tokens[1]);
        let other = PickSecret(Bytes32([6; 32]));
        assert_ne!(token(&other.blinding("g", 1), "b"), tokens[1]);
        // A blinding crosses as hex and reads back; a short one does not.
        let text = serde_json::to_string(&secret.blinding("g", 1)).unwrap();
        assert_eq!(text.len(), 66);
        assert!(serde_json::from_str::<Blinding>(&text).is_ok());
        assert!(serde_json::from_str::<Blinding>("\"abcd\"").is_err());
    }

    #[test]
    fn picks_are_spread_evenly() {
        let secret = PickSecret(Bytes32([3; 32]));
        let mut seen = [0u32; 6];
        for round in 0..600u64 {
            seen[pick(&secret, "g", &joint(round, 4, 5), 0, 6)] += 1;
        }
        // 100 expected each; far outside 50..150 would mean a bias.
        assert!(seen.iter().all(|n| (50..150).contains(n)), "{seen:?}");
    }
}
