//! A ticket for one seat of a remote game (docs: "Playing remotely"): what
//! the joiner's Muster needs to reach the host's and take that seat, as
//! text to paste, a QR code or a `muster://` link. It holds the host's
//! endpoint (its public key, which the connection proves, and the
//! addresses and relay it was last reachable at), the game's id, the side
//! it seats, and a random token: knowing the host's key is not enough to
//! take the seat, only the ticket is.
//!
//! The text is `muster1` and the ticket's JSON with a check (the first
//! bytes of its SHA-256) in base32 (lower case, no padding): letters and
//! digits only, so a chat program or a line break cannot change it
//! unnoticed. A changed letter fails its check: without one, a letter
//! changed inside the key's or the game's text could read as another
//! ticket.

use data_encoding::BASE32_NOPAD;
use iroh::EndpointAddr;
use muster_core::side::Side;
use serde::{Deserialize, Serialize};

/// What begins every ticket's text.
const PREFIX: &str = "muster1";
/// Bytes of the check after the JSON: a changed letter passes it once in
/// four billion.
const CHECK: usize = 4;

/// What begins a ticket's link, which the installed Muster opens.
const LINK: &str = "muster://join/";
/// The longest ticket text read: a host has a few addresses, not
/// thousands; a longer text is refused before it is decoded.
const MOST: usize = 4096;

/// One seat's ticket.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ticket {
    /// The host's endpoint.
    pub host: EndpointAddr,
    /// The game's id.
    pub game: String,
    /// The side the ticket seats.
    pub seat: Side,
    /// The seat's secret: the host admits only a joiner who shows it.
    pub token: Token,
}

/// A seat's secret, 32 random bytes.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Token(pub [u8; 32]);

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never printed: a log line must not hand the seat to its reader.
        f.write_str("Token(…)")
    }
}

impl Token {
    /// A fresh token from the operating system's random source.
    pub fn fresh() -> Result<Token, String> {
        let mut bytes = [0; 32];
        getrandom::fill(&mut bytes)
            .map_err(|e| format!("the system's random source failed: {e}"))?;
        Ok(Token(bytes))
    }

    /// Compares in time that does not depend on where they differ.
    pub fn matches(&self, other: &Token) -> bool {
        self.0
            .iter()
            .zip(other.0.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}

/// What the host keeps to host a seat again with the same ticket once its
/// program restarted: its endpoint's secret key and the seat's token. Both
/// are secret (whoever holds them may pose as the host, or take the seat),
/// so they are kept in Muster's own folder, readable by its user alone,
/// never in the game's file.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hosting {
    key: Token,
    pub token: Token,
    /// The game's id.
    pub game: String,
    /// The side the ticket seats.
    pub seat: Side,
    /// The club's relay it was made through, if not the usual ones (the
    /// joiner's ticket leads there).
    #[serde(default)]
    pub relay: Option<String>,
    /// The port the host's endpoint listens on: kept, so that after a
    /// restart the ticket's addresses still reach it (without a relay, a
    /// ticket names nothing else).
    #[serde(default)]
    pub port: Option<u16>,
}

impl std::fmt::Debug for Hosting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Hosting({}, {}, …)", self.game, self.seat)
    }
}

impl Hosting {
    /// A new seat of `game` for `seat`: a fresh endpoint key and token.
    pub fn fresh(game: String, seat: Side) -> Result<Hosting, String> {
        Ok(Hosting {
            key: Token::fresh()?,
            token: Token::fresh()?,
            game,
            seat,
            relay: None,
            port: free_port(),
        })
    }

    /// The host's endpoint key.
    pub fn secret_key(&self) -> iroh::SecretKey {
        iroh::SecretKey::from_bytes(&self.key.0)
    }
}

/// A UDP port free on this machine now, for a new seat's endpoint (none
/// if the system gives none: the endpoint then takes any).
fn free_port() -> Option<u16> {
    let socket = std::net::UdpSocket::bind(("0.0.0.0", 0)).ok()?;
    socket.local_addr().ok().map(|a| a.port())
}

impl Ticket {
    /// The ticket as text: `muster1…`.
    pub fn text(&self) -> String {
        let mut bytes = serde_json::to_vec(self).expect("a ticket always serializes");
        let check = check(&bytes);
        bytes.extend_from_slice(&check);
        format!("{PREFIX}{}", BASE32_NOPAD.encode(&bytes).to_lowercase())
    }

    /// The ticket as a link the installed Muster opens.
    pub fn link(&self) -> String {
        format!("{LINK}{}", self.text())
    }

    /// A ticket from its text or its link, as pasted (spaces and line
    /// breaks a chat program added are dropped), or what is wrong with it
    /// in a player's words.
    pub fn parse(text: &str) -> Result<Ticket, String> {
        if text.len() > MOST * 2 {
            return Err(format!(
                "this is {} characters long; a ticket is a few hundred",
                text.len()
            ));
        }
        let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let text = text.strip_prefix(LINK).unwrap_or(&text);
        let Some(body) = text.strip_prefix(PREFIX) else {
            return Err(format!(
                "a ticket begins with \"{PREFIX}\" (the host's File > Invite a remote player gives one)"
            ));
        };
        if body.len() > MOST {
            return Err(format!(
                "this ticket is {} characters long; a ticket is a few hundred",
                body.len()
            ));
        }
        let bytes = BASE32_NOPAD
            .decode(body.to_uppercase().as_bytes())
            .map_err(|e| {
                format!(
                    "the ticket is damaged at character {} (copy it again, whole)",
                    e.position + PREFIX.len() + 1
                )
            })?;
        let damaged = || "the ticket is damaged: a letter of it changed (copy it again, whole)";
        let split = bytes.len().checked_sub(CHECK).ok_or_else(damaged)?;
        let (json, sum) = bytes.split_at(split);
        if check(json) != sum {
            return Err(damaged().into());
        }
        serde_json::from_slice(json)
            .map_err(|e| format!("the ticket does not read as one ({e}); copy it again, whole"))
    }
}

/// A ticket's check: the first bytes of the SHA-256 of its JSON.
fn check(json: &[u8]) -> [u8; CHECK] {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(json);
    let mut out = [0; CHECK];
    out.copy_from_slice(&digest[..CHECK]);
    out
}
