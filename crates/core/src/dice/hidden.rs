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

use super::JointDice;
use crate::intel::{SealKey, from_hex, to_hex};
use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// An owner's secret for his picks in one game.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct PickSecret([u8; 32]);

impl std::fmt::Debug for PickSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PickSecret(..)")
    }
}

impl From<PickSecret> for String {
    fn from(s: PickSecret) -> String {
        to_hex(&s.0)
    }
}

impl TryFrom<String> for PickSecret {
    type Error = String;
    fn try_from(text: String) -> Result<PickSecret, String> {
        let bytes = from_hex(&text)
            .filter(|b| b.len() == 32)
            .ok_or("a pick secret is 64 hex digits")?;
        let mut secret = [0; 32];
        secret.copy_from_slice(&bytes);
        Ok(PickSecret(secret))
    }
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
    hash.update(secret.0);
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
        PickSecret(mac.finalize().into_bytes().into())
    }
}

/// The `k`-th pick (from 0) of one of `n` in game `game` with joint round
/// `joint`, under `secret`: each of the `n` with the same chance, to within
/// one in 2^64.
pub fn pick(secret: &PickSecret, game: &str, joint: &JointDice, k: u64, n: usize) -> usize {
    let mut mac =
        <Hmac<Sha256> as KeyInit>::new_from_slice(&secret.0).expect("HMAC takes any key length");
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
    fn picks_are_spread_evenly() {
        let secret = PickSecret([3; 32]);
        let mut seen = [0u32; 6];
        for round in 0..600u64 {
            seen[pick(&secret, "g", &joint(round, 4, 5), 0, 6)] += 1;
        }
        // 100 expected each; far outside 50..150 would mean a bias.
        assert!(seen.iter().all(|n| (50..150).contains(n)), "{seen:?}");
    }
}
