//! Dice two machines make together, so that neither can choose or foresee
//! one (docs: "Playing remotely"; the design's "trust"): coin flipping by
//! telephone (Blum, 1981). For each round the host commits to a random
//! half of its own (a SHA-256 of it) before the joiner sends his half in
//! the clear; the host then opens its half, and the round's dice are a
//! ChaCha20 stream keyed by an HMAC-SHA-256 of both halves, drawn without
//! bias (`rand`'s uniform ranges reject what would favour a face). Each
//! roll of the round is logged with both halves, so either machine (or
//! anyone holding the file) derives the same faces again and names a
//! roll that is not the round's.
//!
//! Commitments are made ahead, a pool of them (`Pool`), so that a joiner's
//! command carries his half with it: the host cannot change a half it
//! committed to, the joiner cannot know the host's half before he sends
//! his, and a round is used for one command only, in order.

use super::DiceSource;
use crate::error::{RuleError, refuse};
use hmac::{KeyInit, Mac};
use rand::RngExt;
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A round's number as players read it: the log and the wire count rounds
/// from 0, players from 1.
pub fn said(round: u64) -> u64 {
    round.saturating_add(1)
}

type HmacSha256 = hmac::Hmac<Sha256>;

/// One machine's random half of a round: 32 bytes from the operating
/// system, as hex on the wire and in the log.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Half(pub [u8; 32]);

impl std::fmt::Debug for Half {
    /// Its first bytes only: enough to tell two apart in a test's output.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Half({}…)", crate::intel::to_hex(&self.0[..4]))
    }
}

impl From<Half> for String {
    fn from(half: Half) -> String {
        crate::intel::to_hex(&half.0)
    }
}

impl TryFrom<String> for Half {
    type Error = String;
    fn try_from(text: String) -> Result<Half, String> {
        let bytes = crate::intel::from_hex(&text)
            .filter(|b| b.len() == 32)
            .ok_or("a die's half is 64 hex digits")?;
        let mut half = [0; 32];
        half.copy_from_slice(&bytes);
        Ok(Half(half))
    }
}

impl Half {
    /// A fresh half from the operating system's random source.
    pub fn fresh() -> Result<Half, RuleError> {
        let mut bytes = [0; 32];
        getrandom::fill(&mut bytes).map_err(|e| {
            RuleError::new(
                "dice",
                format!("the operating system could not supply a random half ({e})"),
            )
        })?;
        Ok(Half(bytes))
    }
}

/// What the host shows of its half before the joiner sends his: its
/// SHA-256, bound to the game and the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Commitment(pub [u8; 32]);

impl From<Commitment> for String {
    fn from(c: Commitment) -> String {
        crate::intel::to_hex(&c.0)
    }
}

impl TryFrom<String> for Commitment {
    type Error = String;
    fn try_from(text: String) -> Result<Commitment, String> {
        Half::try_from(text).map(|h| Commitment(h.0))
    }
}

/// The commitment to `half` for round `round` of game `game`.
pub fn commit(game: &str, round: u64, half: &Half) -> Commitment {
    let mut hash = Sha256::new();
    hash.update(b"muster joint dice commitment\0");
    hash.update(game.as_bytes());
    hash.update([0]);
    hash.update(round.to_be_bytes());
    hash.update(half.0);
    Commitment(hash.finalize().into())
}

/// A round of joint dice: both halves, the stream they key, and how much
/// of it was drawn.
#[derive(Clone, Debug)]
pub struct Round {
    pub game: String,
    pub number: u64,
    pub host: Half,
    pub joiner: Half,
    stream: ChaCha20Rng,
}

impl Round {
    pub fn new(game: &str, number: u64, host: Half, joiner: Half) -> Round {
        let mut mac =
            <HmacSha256 as KeyInit>::new_from_slice(&host.0).expect("HMAC takes any key length");
        mac.update(b"muster joint dice\0");
        mac.update(game.as_bytes());
        mac.update(&[0]);
        mac.update(&number.to_be_bytes());
        mac.update(&joiner.0);
        let seed: [u8; 32] = mac.finalize().into_bytes().into();
        Round {
            game: game.to_string(),
            number,
            host,
            joiner,
            stream: ChaCha20Rng::from_seed(seed),
        }
    }

    /// One die, 1 to 6, each face with the same chance.
    pub fn die(&mut self) -> u8 {
        self.stream.random_range(1..=6u8)
    }

    /// One of `n`, each with the same chance.
    pub fn pick(&mut self, n: usize) -> usize {
        self.stream.random_range(0..n)
    }

    /// How the log says these dice were made.
    pub fn source(&self) -> DiceSource {
        DiceSource::Joint(Box::new(super::JointDice {
            round: self.number,
            host: self.host,
            joiner: self.joiner,
        }))
    }
}

/// The dice a logged round gave, `faces` in the order drawn, checked
/// against the stream both halves key: the first face that is not the
/// round's is named (a machine that chose a die).
pub fn check_faces(
    game: &str,
    round: u64,
    host: Half,
    joiner: Half,
    faces: &[u8],
) -> Result<(), RuleError> {
    let mut again = Round::new(game, round, host, joiner);
    for (i, face) in faces.iter().enumerate() {
        let due = again.die();
        if *face != due {
            return refuse(
                "dice",
                format!(
                    "die {} of joint round {} shows {face}, but both machines' halves make it {due}: the host's machine chose it",
                    i + 1,
                    said(round)
                ),
            );
        }
    }
    Ok(())
}

/// The host's side of the rounds: halves made and committed to ahead, in
/// order, each opened once when its round is used.
#[derive(Clone, Debug)]
pub struct Pool {
    game: String,
    /// The next round to use.
    next: u64,
    /// The halves committed to and not yet opened, from round `next` on.
    halves: std::collections::VecDeque<Half>,
}

impl Pool {
    /// A pool for `game` whose next round is `next` (a game resumed goes on
    /// from its log's last round).
    pub fn new(game: &str, next: u64) -> Pool {
        Pool {
            game: game.to_string(),
            next,
            halves: Default::default(),
        }
    }

    /// `count` more halves, and their commitments from round `first` on, to
    /// send to the joiner before any of them is used.
    pub fn commit_more(&mut self, count: usize) -> Result<(u64, Vec<Commitment>), RuleError> {
        let first = self.next + self.halves.len() as u64;
        let mut out = Vec::with_capacity(count);
        for k in 0..count {
            let half = Half::fresh()?;
            out.push(commit(&self.game, first + k as u64, &half));
            self.halves.push_back(half);
        }
        Ok((first, out))
    }

    /// The next round to open.
    pub fn next(&self) -> u64 {
        self.next
    }

    /// Rounds committed to and not yet used.
    pub fn left(&self) -> usize {
        self.halves.len()
    }

    /// The next round, with the joiner's half for it: both halves, and the
    /// round used up (never opened twice).
    pub fn open(&mut self, round: u64, joiner: Half) -> Result<Round, RuleError> {
        if round != self.next {
            return refuse(
                "dice",
                format!(
                    "round {} is not the next round of dice ({})",
                    said(round),
                    said(self.next)
                ),
            );
        }
        let host = self.halves.pop_front().ok_or_else(|| {
            RuleError::new("dice", "no round of dice is committed to yet: a moment")
        })?;
        self.next += 1;
        Ok(Round::new(&self.game, round, host, joiner))
    }
}

/// The joiner's side of the rounds: the host's commitments, in order, and
/// the check of each opened half against its commitment.
#[derive(Clone, Debug)]
pub struct Commitments {
    game: String,
    next: u64,
    pending: std::collections::VecDeque<Commitment>,
}

impl Commitments {
    pub fn new(game: &str, next: u64) -> Commitments {
        Commitments {
            game: game.to_string(),
            next,
            pending: Default::default(),
        }
    }

    /// The host's commitments from round `first` on: they must follow those
    /// already held.
    pub fn take(&mut self, first: u64, commitments: &[Commitment]) -> Result<(), RuleError> {
        let expected = self.next + self.pending.len() as u64;
        if first != expected {
            return refuse(
                "dice",
                format!(
                    "the host's machine sent commitments from round {}, not {}",
                    said(first),
                    said(expected)
                ),
            );
        }
        self.pending.extend(commitments.iter().copied());
        Ok(())
    }

    /// The round to spend next, if one is committed to.
    pub fn next(&self) -> Option<u64> {
        (!self.pending.is_empty()).then_some(self.next)
    }

    /// The round the host opened, with the half it committed to: checked,
    /// then both halves. A half that is not the one committed to is named:
    /// the host's machine tried to choose the dice.
    pub fn open(&mut self, round: u64, host: Half, joiner: Half) -> Result<Round, RuleError> {
        if round != self.next {
            return refuse(
                "dice",
                format!(
                    "the host's machine opened round {} of dice out of turn (round {} is next): it may be trying rounds until one suits it",
                    said(round),
                    said(self.next)
                ),
            );
        }
        let Some(committed) = self.pending.front() else {
            return refuse(
                "dice",
                format!(
                    "the host's machine opened round {} without committing to it first",
                    said(round)
                ),
            );
        };
        if commit(&self.game, round, &host) != *committed {
            return refuse(
                "dice",
                format!(
                    "the host's machine opened round {} of dice with a half it had not committed to: it tried to choose the dice",
                    said(round)
                ),
            );
        }
        self.pending.pop_front();
        self.next += 1;
        Ok(Round::new(&self.game, round, host, joiner))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn half(b: u8) -> Half {
        Half([b; 32])
    }

    #[test]
    fn both_halves_make_the_same_dice_on_both_machines() {
        let (mut a, mut b) = (
            Round::new("g", 3, half(1), half(2)),
            Round::new("g", 3, half(1), half(2)),
        );
        let faces: Vec<u8> = (0..50).map(|_| a.die()).collect();
        assert!(faces.iter().all(|f| (1..=6).contains(f)));
        assert_eq!(faces, (0..50).map(|_| b.die()).collect::<Vec<_>>());
        assert!(check_faces("g", 3, half(1), half(2), &faces).is_ok());
        // Another round, game or half gives other dice.
        for other in [
            Round::new("g", 4, half(1), half(2)),
            Round::new("h", 3, half(1), half(2)),
            Round::new("g", 3, half(1), half(9)),
        ] {
            let mut other = other;
            assert_ne!(faces, (0..50).map(|_| other.die()).collect::<Vec<_>>());
        }
    }

    /// The attack: the host's machine logs a die of its choosing. The
    /// joiner (or anyone with the file) names it.
    #[test]
    fn a_chosen_face_is_named() {
        let mut round = Round::new("g", 0, half(1), half(2));
        let mut faces: Vec<u8> = (0..5).map(|_| round.die()).collect();
        faces[3] = faces[3] % 6 + 1;
        let e = check_faces("g", 0, half(1), half(2), &faces).unwrap_err();
        assert!(
            e.message.contains("die 4") && e.message.contains("chose"),
            "{e}"
        );
    }

    /// The host commits before the joiner's half; a host that opens
    /// another half (to choose the dice), opens a round out of turn (trying
    /// rounds until one suits it) or never committed is caught.
    #[test]
    fn the_host_cannot_open_a_half_it_did_not_commit_to() {
        let mut pool = Pool::new("g", 0);
        let (first, commitments) = pool.commit_more(3).unwrap();
        assert_eq!(first, 0);
        let mut joiner = Commitments::new("g", 0);
        joiner.take(first, &commitments).unwrap();
        let round = pool.open(0, half(7)).unwrap();
        let mine = joiner.open(0, round.host, half(7)).unwrap();
        let (mut a, mut b) = (round, mine);
        assert_eq!(a.die(), b.die());
        // A half of its choosing for round 1.
        let e = joiner.open(1, half(5), half(8)).unwrap_err();
        assert!(e.message.contains("not committed to"), "{e}");
        // Round 2 before round 1.
        let e = joiner.open(2, pool.clone().open(1, half(8)).unwrap().host, half(8));
        assert!(e.unwrap_err().message.contains("out of turn"));
        // Its commitments must follow on.
        assert!(joiner.take(9, &commitments).is_err());
        // The host's own pool opens each round once, in order.
        assert!(pool.open(2, half(1)).is_err());
        assert!(pool.open(1, half(1)).is_ok());
        assert!(pool.open(1, half(1)).is_err());
    }

    /// A pick is uniform: each of 5 cards comes about a fifth of the time.
    #[test]
    fn picks_are_even() {
        let mut round = Round::new("g", 0, half(3), half(4));
        let mut seen = [0u32; 5];
        for _ in 0..10_000 {
            seen[round.pick(5)] += 1;
        }
        assert!(seen.iter().all(|n| (1800..2200).contains(n)), "{seen:?}");
    }
}
