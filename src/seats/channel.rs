//! The players' screens channel (issue 23): every message between the
//! laptop and a player's phone is JSON, padded, and sealed with
//! XChaCha20-Poly1305 under the seat's key, which only the QR code carries
//! (in the URL fragment, never sent over the network). The associated data
//! binds each frame to its seat, its direction, its connection and its
//! place in the stream, so a frame captured on the Wi-Fi cannot be read,
//! replayed, reordered, sent back the other way or into another
//! connection; a frame of a size that tells anything is not sent either:
//! every message one way is padded to one size (`TO_PHONE` bytes for a
//! screen, whatever it shows; `TO_LAPTOP` for an answer), so the Wi-Fi
//! sees how many messages cross and when, never how long they are.
//!
//! A frame is `seq (8 bytes, big-endian) ‖ nonce (24) ‖ ciphertext ‖ tag
//! (16)`; the associated data is `"muster-seat-1" ‖ token (16) ‖ direction
//! (1: 0 to the phone, 1 to the laptop) ‖ connection (32: the phone's
//! random 16 bytes, then the laptop's) ‖ seq`. The page's side is
//! `assets/phone/channel.js`, on the vendored noble-ciphers.

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use std::fmt;

/// No frame is longer (issue 23: every message is bounded).
pub const MAX_FRAME: usize = 64 * 1024;
const LABEL: &[u8] = b"muster-seat-1";
const HEADER: usize = 8 + 24;
const TAG: usize = 16;
/// Every message to a phone is padded to this (its length in four bytes,
/// then the message, then zeros): a frame of exactly `MAX_FRAME` bytes,
/// the largest screen of any system included.
pub const TO_PHONE: usize = MAX_FRAME - HEADER - TAG;
/// Every message from a phone is padded to this: an answer, a form's
/// values, a path traced on a map.
pub const TO_LAPTOP: usize = 4096;
/// The longest message a phone may be sent.
pub const MAX_SCREEN: usize = TO_PHONE - 4;

/// Which way a frame goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    ToPhone = 0,
    ToLaptop = 1,
}

/// Why a frame was refused: the socket it came on is closed with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChannelError {
    /// Longer than `MAX_FRAME`, or too short to hold a header and a tag.
    Size(usize),
    /// Not the next frame of the stream (a replay, a reorder, a gap).
    Sequence { expected: u64, got: u64 },
    /// It does not open under this seat's key for this place in the
    /// stream: altered, from another seat, connection or direction.
    Forged,
    /// It opened, but its padding or length is wrong.
    Malformed,
    /// A message longer than a frame may carry.
    TooLong(usize),
}

impl fmt::Display for ChannelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChannelError::Size(n) => write!(f, "a frame of {n} bytes"),
            ChannelError::Sequence { expected, got } => {
                write!(
                    f,
                    "frame {got} where {expected} was next (replayed or reordered)"
                )
            }
            ChannelError::Forged => f.write_str("a frame that does not open with this seat's key"),
            ChannelError::Malformed => f.write_str("a frame whose message is malformed"),
            ChannelError::TooLong(n) => write!(f, "a message of {n} bytes is too long to send"),
        }
    }
}

/// One end of a seat's channel on one connection: what it sends and
/// what it expects next.
pub struct Channel {
    cipher: XChaCha20Poly1305,
    token: [u8; 16],
    connection: [u8; 32],
    sends: Direction,
    sent: u64,
    received: u64,
}

impl Channel {
    /// The laptop's end of a connection: `phone` and `laptop` are the
    /// random halves each end chose for it.
    pub fn laptop(key: &[u8; 32], token: [u8; 16], phone: [u8; 16], laptop: [u8; 16]) -> Channel {
        Channel::new(key, token, phone, laptop, Direction::ToPhone)
    }

    /// The phone's end, as the page keeps it (for tests of the laptop).
    pub fn phone(key: &[u8; 32], token: [u8; 16], phone: [u8; 16], laptop: [u8; 16]) -> Channel {
        Channel::new(key, token, phone, laptop, Direction::ToLaptop)
    }

    fn new(
        key: &[u8; 32],
        token: [u8; 16],
        phone: [u8; 16],
        laptop: [u8; 16],
        sends: Direction,
    ) -> Channel {
        let mut connection = [0; 32];
        connection[..16].copy_from_slice(&phone);
        connection[16..].copy_from_slice(&laptop);
        Channel {
            cipher: XChaCha20Poly1305::new(key.into()),
            token,
            connection,
            sends,
            sent: 0,
            received: 0,
        }
    }

    fn associated(&self, direction: Direction, seq: u64) -> Vec<u8> {
        let mut aad = Vec::with_capacity(LABEL.len() + 16 + 1 + 32 + 8);
        aad.extend_from_slice(LABEL);
        aad.extend_from_slice(&self.token);
        aad.push(direction as u8);
        aad.extend_from_slice(&self.connection);
        aad.extend_from_slice(&seq.to_be_bytes());
        aad
    }

    /// Seals the next message with a fresh random nonce.
    pub fn seal(&mut self, message: &[u8]) -> Result<Vec<u8>, ChannelError> {
        let mut nonce = [0; 24];
        getrandom::fill(&mut nonce).map_err(|_| ChannelError::Forged)?;
        self.seal_with(message, nonce)
    }

    /// The padded length of every message this end sends.
    fn padded(direction: Direction) -> usize {
        match direction {
            Direction::ToPhone => TO_PHONE,
            Direction::ToLaptop => TO_LAPTOP,
        }
    }

    /// `seal` with a given nonce: for the test vector the page's side is
    /// checked against. A nonce is never used twice in practice: each is
    /// random and 192 bits long.
    pub fn seal_with(&mut self, message: &[u8], nonce: [u8; 24]) -> Result<Vec<u8>, ChannelError> {
        let padded = Self::padded(self.sends);
        if 4 + message.len() > padded {
            return Err(ChannelError::TooLong(message.len()));
        }
        let mut plain = Vec::with_capacity(padded);
        plain.extend_from_slice(&(message.len() as u32).to_be_bytes());
        plain.extend_from_slice(message);
        plain.resize(padded, 0);
        self.sent += 1;
        let seq = self.sent;
        let aad = self.associated(self.sends, seq);
        let sealed = self
            .cipher
            .encrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: &plain,
                    aad: &aad,
                },
            )
            .expect("encrypting a bounded message does not fail");
        let mut frame = Vec::with_capacity(HEADER + sealed.len());
        frame.extend_from_slice(&seq.to_be_bytes());
        frame.extend_from_slice(&nonce);
        frame.extend_from_slice(&sealed);
        Ok(frame)
    }

    /// Opens the next frame from the other end; anything but the next
    /// frame of this stream, sealed under this seat's key, is refused.
    pub fn open(&mut self, frame: &[u8]) -> Result<Vec<u8>, ChannelError> {
        if frame.len() > MAX_FRAME || frame.len() < HEADER + 4 + TAG {
            return Err(ChannelError::Size(frame.len()));
        }
        let seq = u64::from_be_bytes(frame[..8].try_into().expect("8 bytes"));
        let expected = self.received + 1;
        if seq != expected {
            return Err(ChannelError::Sequence { expected, got: seq });
        }
        let nonce: [u8; 24] = frame[8..HEADER].try_into().expect("24 bytes");
        let from = match self.sends {
            Direction::ToPhone => Direction::ToLaptop,
            Direction::ToLaptop => Direction::ToPhone,
        };
        let aad = self.associated(from, seq);
        let plain = self
            .cipher
            .decrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: &frame[HEADER..],
                    aad: &aad,
                },
            )
            .map_err(|_| ChannelError::Forged)?;
        let len = u32::from_be_bytes(plain[..4].try_into().expect("4 bytes")) as usize;
        let body = plain.get(4..4 + len).ok_or(ChannelError::Malformed)?;
        if plain.len() != Self::padded(from) || plain[4 + len..].iter().any(|b| *b != 0) {
            return Err(ChannelError::Malformed);
        }
        self.received = seq;
        Ok(body.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: [u8; 32] = [7; 32];
    const TOKEN: [u8; 16] = [1; 16];

    fn pair() -> (Channel, Channel) {
        let (phone, laptop) = ([2; 16], [3; 16]);
        (
            Channel::laptop(&KEY, TOKEN, phone, laptop),
            Channel::phone(&KEY, TOKEN, phone, laptop),
        )
    }

    #[test]
    fn messages_cross_both_ways_in_order_and_a_size_tells_nothing() {
        let (mut laptop, mut phone) = pair();
        let hand = br#"{"screen": "Ann's hand: Omens, Ambush"}"#;
        let frame = laptop.seal(hand).unwrap();
        assert_eq!(phone.open(&frame).unwrap(), hand);
        let short = laptop.seal(b"{}").unwrap();
        assert_eq!(
            short.len(),
            frame.len(),
            "a short and a longer screen look alike"
        );
        assert_eq!(phone.open(&short).unwrap(), b"{}");
        let reply = phone.seal(br#"{"reply": 1}"#).unwrap();
        assert_eq!(laptop.open(&reply).unwrap(), br#"{"reply": 1}"#);
        assert_eq!(frame.len(), MAX_FRAME, "every screen fills one frame");
        let long = phone.seal(&[b'x'; 3000]).unwrap();
        assert_eq!(long.len(), reply.len(), "every answer is one size too");
        assert!(laptop.seal(&vec![b'x'; MAX_SCREEN + 1]).is_err());
        assert!(laptop.seal(&vec![b'x'; MAX_SCREEN]).is_ok());
        assert!(phone.seal(&[b'x'; TO_LAPTOP]).is_err());
    }

    /// The opponent on the Wi-Fi captures frames: replayed, reordered,
    /// altered, sent back the other way, into another connection or
    /// another seat, each is refused, and the stream goes on untouched.
    #[test]
    fn a_captured_frame_replayed_reordered_altered_or_moved_is_refused() {
        let (mut laptop, mut phone) = pair();
        let first = laptop.seal(b"one").unwrap();
        let second = laptop.seal(b"two").unwrap();
        assert_eq!(
            phone.open(&second),
            Err(ChannelError::Sequence {
                expected: 1,
                got: 2
            })
        );
        assert_eq!(phone.open(&first).unwrap(), b"one");
        assert!(matches!(
            phone.open(&first),
            Err(ChannelError::Sequence { .. })
        ));
        let mut altered = second.clone();
        *altered.last_mut().unwrap() ^= 1;
        assert_eq!(phone.open(&altered), Err(ChannelError::Forged));
        // The laptop's own frame sent back to it as if from the phone.
        let mut echo = Channel::laptop(&KEY, TOKEN, [2; 16], [3; 16]);
        let mine = echo.seal(b"one").unwrap();
        let mut other_laptop = Channel::laptop(&KEY, TOKEN, [2; 16], [3; 16]);
        assert_eq!(other_laptop.open(&mine), Err(ChannelError::Forged));
        // Another connection (a new random half) or another seat's token.
        let mut later = Channel::phone(&KEY, TOKEN, [2; 16], [4; 16]);
        assert_eq!(later.open(&first), Err(ChannelError::Forged));
        let mut seat = Channel::phone(&KEY, [9; 16], [2; 16], [3; 16]);
        assert_eq!(seat.open(&first), Err(ChannelError::Forged));
        let mut key = Channel::phone(&[8; 32], TOKEN, [2; 16], [3; 16]);
        assert_eq!(key.open(&first), Err(ChannelError::Forged));
        assert!(matches!(phone.open(&[0; 10]), Err(ChannelError::Size(10))));
        assert_eq!(phone.open(&second).unwrap(), b"two");
    }
}
