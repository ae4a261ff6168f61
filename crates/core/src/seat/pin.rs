//! A player's hand-over PIN (issue 39): on a shared laptop his private
//! screens open only with his proof, every time, and a passphrase of six
//! words each time is slow. At his first passphrase of a sitting he may
//! choose a short PIN that re-opens his screens until the window closes or
//! he locks them. It is never saved and never kept as typed: only an
//! HMAC-SHA-256 of it under a random salt of the sitting, compared in
//! constant time. Three wrong tries drop it, and his passphrase is asked
//! again, so an opponent holding the laptop gets three guesses in 10,000
//! or more, not a search.

use hmac::{KeyInit, Mac};

type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// The digits a PIN may have.
pub const DIGITS: std::ops::RangeInclusive<usize> = 4..=8;

/// Wrong tries before the PIN is dropped.
pub const TRIES: u8 = 3;

/// A PIN, held as its salted hash.
pub struct Pin {
    salt: [u8; 32],
    tag: Vec<u8>,
    /// Wrong tries left.
    left: u8,
}

impl std::fmt::Debug for Pin {
    /// Never its hash: a debug print goes to a terminal.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pin({} tries left)", self.left)
    }
}

/// What a try of the PIN did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tried {
    Right,
    /// Wrong; this many tries are left.
    Wrong(u8),
    /// Wrong for the last time: the PIN is dropped.
    Dropped,
}

/// Why a PIN typed to be chosen is refused, in words; `None` when it may
/// be chosen.
pub fn refusal(typed: &str) -> Option<String> {
    let digits = typed.chars().count();
    if !typed.chars().all(|c| c.is_ascii_digit()) || !DIGITS.contains(&digits) {
        return Some(format!(
            "A hand-over PIN is {} to {} digits (0-9)",
            DIGITS.start(),
            DIGITS.end()
        ));
    }
    let bytes = typed.as_bytes();
    let same = bytes.iter().all(|b| *b == bytes[0]);
    let counting =
        bytes.windows(2).all(|w| w[1] == w[0] + 1) || bytes.windows(2).all(|w| w[0] == w[1] + 1);
    (same || counting).then(|| {
        "That PIN is the first an onlooker tries (one digit repeated, or counting): choose another"
            .into()
    })
}

impl Pin {
    /// Chooses `typed` as the PIN, or says why not.
    pub fn choose(typed: &str) -> Result<Pin, String> {
        if let Some(why) = refusal(typed) {
            return Err(why);
        }
        let mut salt = [0u8; 32];
        getrandom::fill(&mut salt).map_err(|e| format!("No randomness for the PIN: {e}"))?;
        Ok(Pin {
            tag: Self::tag(&salt, typed).finalize().into_bytes().to_vec(),
            salt,
            left: TRIES,
        })
    }

    fn tag(salt: &[u8; 32], typed: &str) -> HmacSha256 {
        let mut mac = HmacSha256::new_from_slice(salt).expect("HMAC takes a key of any length");
        mac.update(typed.as_bytes());
        mac
    }

    /// A try: right, or wrong (counted).
    pub fn try_pin(&mut self, typed: &str) -> Tried {
        if self.left == 0 {
            return Tried::Dropped;
        }
        if Self::tag(&self.salt, typed).verify_slice(&self.tag).is_ok() {
            self.left = TRIES;
            return Tried::Right;
        }
        self.left = self.left.saturating_sub(1);
        if self.left == 0 {
            Tried::Dropped
        } else {
            Tried::Wrong(self.left)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_right_pin_opens_and_resets_the_count() {
        let mut pin = Pin::choose("4719").unwrap();
        assert_eq!(pin.try_pin("4710"), Tried::Wrong(2));
        assert_eq!(pin.try_pin("4719"), Tried::Right);
        assert_eq!(pin.try_pin("0000"), Tried::Wrong(2));
    }

    #[test]
    fn three_wrong_tries_drop_it_and_the_right_one_then_fails() {
        let mut pin = Pin::choose("4719").unwrap();
        assert_eq!(pin.try_pin("1"), Tried::Wrong(2));
        assert_eq!(pin.try_pin("47190"), Tried::Wrong(1));
        assert_eq!(pin.try_pin("9174"), Tried::Dropped);
        assert_eq!(pin.try_pin("4719"), Tried::Dropped);
    }

    #[test]
    fn it_is_held_salted_never_as_typed() {
        let (a, b) = (Pin::choose("4719").unwrap(), Pin::choose("4719").unwrap());
        assert_ne!(a.tag, b.tag, "the same PIN hashes apart in two sittings");
        assert!(!format!("{a:?}").contains("4719"));
        assert!(!a.tag.windows(4).any(|w| w == b"4719"));
    }

    #[test]
    fn a_pin_is_4_to_8_digits_and_not_the_first_guess() {
        for bad in [
            "",
            "123",
            "12a4",
            "١٢٣٤٥",
            "123456789",
            "0000",
            "1234",
            "8765",
            " 4719",
        ] {
            assert!(refusal(bad).is_some(), "{bad:?} taken");
        }
        for good in ["4719", "0012", "90210", "31415926"] {
            assert_eq!(refusal(good), None, "{good:?} refused");
        }
    }
}
