//! What crosses a remote game's connection, frame by frame (docs: "Playing
//! remotely"): a greeting each way that checks the two programs speak the
//! same protocol about the same game before anything else, then numbered
//! messages and acknowledgements, so a message is carried exactly once
//! across a dropped and resumed connection. A frame is its JSON's length
//! (four bytes, big-endian) and the JSON; a length over [`MOST`] is refused
//! before anything is allocated for it.

use crate::ticket::Token;
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// The protocol's version: both ends must speak the same.
pub const PROTOCOL: u32 = 3;

/// The largest frame read: a game's message is a few kilobytes; a whole
/// public log sent at the start stays well under this.
pub const MOST: u32 = 16 * 1024 * 1024;

/// One frame.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "frame", rename_all = "snake_case")]
pub enum Frame {
    /// The joiner's greeting: the protocol and program he runs, the game
    /// and seat his ticket names, its token, and how many of the host's
    /// messages he has (to resume after a dropped connection).
    Hello {
        protocol: u32,
        program: String,
        game: String,
        token: Token,
        /// Drawn when his program started: another one is a restarted
        /// program, which holds none of the link's messages.
        session: u64,
        /// The host's session his count is of, if he met one.
        met: Option<u64>,
        received: u64,
    },
    /// The host's answer when it admits him: its program, its session and
    /// how many of his messages it has.
    Welcome {
        protocol: u32,
        program: String,
        session: u64,
        /// The joiner's session its count is of.
        met: Option<u64>,
        received: u64,
    },
    /// Either end ends the connection, saying why.
    Refused { why: String },
    /// The host: the seat is held by a connected machine now; dial again.
    Busy { why: String },
    /// A message, numbered from 0 in each direction.
    Message { number: u64, body: String },
    /// How many of the other end's messages arrived.
    Ack { received: u64 },
}

/// Writes one frame.
pub async fn write(to: &mut (impl AsyncWrite + Unpin), frame: &Frame) -> std::io::Result<()> {
    let json = serde_json::to_vec(frame).expect("a frame always serializes");
    let len = u32::try_from(json.len())
        .ok()
        .filter(|n| *n <= MOST)
        .ok_or_else(|| std::io::Error::other("a message too large to send"))?;
    to.write_all(&len.to_be_bytes()).await?;
    to.write_all(&json).await?;
    to.flush().await
}

/// Why a connection ended, in a player's words, from what the network
/// said (a helper found "the connection ended (connection lost)").
pub(crate) fn ended(e: &dyn std::fmt::Display) -> String {
    let said = e.to_string().to_lowercase();
    if said.contains("timed out") || said.contains("timeout") {
        "the other machine stopped answering (closed, asleep or off the network)".into()
    } else if said.contains("closed") || said.contains("finished") {
        "the other machine closed the connection".into()
    } else if said.contains("lost") || said.contains("reset") || said.contains("broken pipe") {
        "the network between the two machines failed".into()
    } else {
        format!("the connection ended ({e})")
    }
}

/// Reads one frame, or says what is wrong with what arrived.
pub async fn read(from: &mut (impl AsyncRead + Unpin)) -> Result<Frame, String> {
    let mut len = [0; 4];
    from.read_exact(&mut len).await.map_err(|e| ended(&e))?;
    let len = u32::from_be_bytes(len);
    if len > MOST {
        return Err(format!(
            "the other machine sent a message of {len} bytes; Muster's are at most {MOST}"
        ));
    }
    let mut json = vec![0; len as usize];
    from.read_exact(&mut json)
        .await
        .map_err(|e| format!("the connection ended inside a message ({e})"))?;
    serde_json::from_slice(&json)
        .map_err(|e| format!("the other machine sent what Muster does not send ({e})"))
}

#[cfg(test)]
mod tests {
    use super::ended;

    /// What the network says, in a player's words; what it says that
    /// Muster does not know, as it said it.
    #[test]
    fn a_connection_that_ended_is_said_in_words() {
        assert_eq!(
            ended(&"connection lost"),
            "the network between the two machines failed"
        );
        assert!(ended(&"timed out").starts_with("the other machine stopped answering"));
        assert_eq!(
            ended(&"closed by peer: 0"),
            "the other machine closed the connection"
        );
        assert_eq!(ended(&"odd"), "the connection ended (odd)");
    }
}
