//! Whom the host's end admits (docs: "Playing remotely"): a dial's
//! greeting is checked before anything else (the same protocol, the game,
//! the seat's token), and a dial that comes while the seat is held by a
//! connected machine is told so and dials again by itself: a joiner whose
//! Muster restarted gets in once his old connection has timed out (within
//! seconds), and a second Muster with the same ticket hears why it waits.

use crate::frame::{self, Frame, PROTOCOL};
use crate::ticket::Token;
use iroh::Endpoint;
use iroh::endpoint::{Connection, Incoming, RecvStream, SendStream};
use std::time::Duration;

/// What the host says to a second dial while the seat is held.
pub const HELD: &str = "another machine holds this seat now (it is connected): Muster tries again";

/// A dial's greeting read: its connection, streams and greeting, or
/// nothing if it did not greet within ten seconds.
pub(crate) async fn greeted(
    incoming: Incoming,
) -> Option<(Connection, SendStream, RecvStream, Frame)> {
    let connection = incoming.await.ok()?;
    let (send, mut recv) = connection.accept_bi().await.ok()?;
    let hello = tokio::time::timeout(Duration::from_secs(10), frame::read(&mut recv))
        .await
        .ok()?
        .ok()?;
    Some((connection, send, recv, hello))
}

/// Why a greeting is refused, if it is: another protocol, another game,
/// a token this game did not give.
pub(crate) fn refusal(hello: &Frame, game: &str, token: &Token) -> Option<String> {
    match hello {
        Frame::Hello {
            protocol, program, ..
        } if *protocol != PROTOCOL => Some(format!(
            "the other machine runs {program}, which speaks remote protocol {protocol}; this one speaks {PROTOCOL}: both need the same Muster"
        )),
        Frame::Hello { game: theirs, .. } if theirs != game => Some(format!(
            "the ticket is for game {theirs}; this machine hosts {game}"
        )),
        Frame::Hello { token: theirs, .. } if !theirs.matches(token) => {
            Some("the ticket is not one this game gave (an old or a changed ticket)".into())
        }
        Frame::Hello { .. } => None,
        _ => Some("the other machine did not greet as Muster does".into()),
    }
}

/// Says `answer` and closes once the other end has read it (closing at
/// once would drop the words in flight), without holding up the caller.
pub(crate) async fn answer_and_close(connection: Connection, mut send: SendStream, answer: Frame) {
    let _ = frame::write(&mut send, &answer).await;
    tokio::spawn(async move {
        let _ = send.finish();
        let _ = tokio::time::timeout(Duration::from_secs(5), connection.closed()).await;
    });
}

/// While the seat is held: every dial is answered, the ticket's holder
/// with `Busy` (he dials again), anyone else refused as at any time.
pub(crate) async fn bounce(endpoint: Endpoint, game: String, token: Token) {
    while let Some(incoming) = endpoint.accept().await {
        let game = game.clone();
        tokio::spawn(async move {
            let Some((connection, send, _recv, hello)) = greeted(incoming).await else {
                return;
            };
            let answer = match refusal(&hello, &game, &token) {
                Some(why) => Frame::Refused { why },
                None => Frame::Busy { why: HELD.into() },
            };
            answer_and_close(connection, send, answer).await;
        });
    }
}
