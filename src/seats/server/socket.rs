//! A seat's socket (docs: "Players' screens"): the hello, the first sealed
//! frame that proves the key within its time, the one socket that holds
//! the seat, and the messages both ways, each sealed, until it ends.

use super::*;

#[derive(Deserialize)]
pub(super) struct Connect {
    /// The phone's random half of the connection, hex.
    c: String,
}

/// The seat whose token this is, with its pairing and generation.
pub(super) fn seat_of(
    shared: &Shared,
    token: &str,
) -> Option<(Side, Pairing, u64, Arc<Semaphore>)> {
    let token: [u8; 16] = unhex(token)?;
    let seats = shared.seats.lock().expect("the seats lock");
    Side::BOTH.into_iter().find_map(|side| {
        let seat = &seats[side];
        let pairing = seat.pairing.clone()?;
        same(&pairing.token, &token).then(|| (side, pairing, seat.generation, seat.sockets.clone()))
    })
}

pub(super) async fn socket(
    ws: WebSocketUpgrade,
    Path(token): Path<String>,
    Query(hello): Query<Connect>,
    State(shared): State<Arc<Shared>>,
) -> Response {
    let (seat, phone) = (seat_of(&shared, &token), unhex::<16>(&hello.c));
    let (Some((side, pairing, generation, sockets)), Some(phone)) = (seat, phone) else {
        // A page of this laptop's (its Host and Origin passed the door)
        // with a well-formed code of no seat: a code from an earlier
        // sitting. Told so in a close code it can read, once, so it stops
        // retrying; a browser sees nothing of a refused upgrade.
        if phone.is_some() && unhex::<16>(&token).is_some() {
            shared
                .refuse("a socket with a code of no seat (an earlier sitting's?): told so".into());
            return ws
                .max_message_size(MAX_FRAME)
                .on_upgrade(|mut socket| async move {
                    close(&mut socket, CLOSE_UNKNOWN, "a code of an earlier sitting").await;
                });
        }
        shared.refuse("a socket for no seat: refused (404)".into());
        return StatusCode::NOT_FOUND.into_response();
    };
    // A slot of the seat's while the socket proves the key, given back
    // however it ends: a failed upgrade drops the closure that holds it.
    let Ok(slot) = sockets.try_acquire_owned() else {
        shared.refuse(format!(
            "{side}: a socket refused (503), {} of the seat's are proving its key",
            shared.limits.sockets_per_seat
        ));
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    };
    let failed = shared.clone();
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_failed_upgrade(move |e| failed.refuse(format!("{side}: an upgrade failed: {e}")))
        .on_upgrade(move |mut socket| async move {
            let _open = OpenSocket::count(&shared);
            let id = shared.sockets.fetch_add(1, Ordering::SeqCst) + 1;
            let at = Place {
                side,
                generation,
                id,
            };
            let reason = match prove(&mut socket, &shared, at, &pairing, phone).await {
                Err(why) => {
                    // It never held the seat: nothing changes but the count.
                    let why = format!("{side}: socket {id} refused: {why}");
                    shared.note(why.clone());
                    shared.refuse(why);
                    return;
                }
                Ok(proved) => {
                    drop(slot);
                    hold(socket, &shared, at, proved).await
                }
            };
            shared.note(format!("{side}: socket {id} closed: {reason}"));
            if shared.let_go(side, generation, id) {
                shared.send(FromPhone::Left(side));
            }
        })
}

/// A socket counted open until dropped, however its task ends.
pub(super) struct OpenSocket(Arc<Shared>);

impl OpenSocket {
    fn count(shared: &Arc<Shared>) -> OpenSocket {
        shared.open.fetch_add(1, Ordering::SeqCst);
        OpenSocket(shared.clone())
    }
}

impl Drop for OpenSocket {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Where a socket stands: its seat, the seat's pairing it came for, and
/// its own number.
#[derive(Clone, Copy)]
pub(super) struct Place {
    side: Side,
    generation: u64,
    id: u64,
}

/// A socket that proved the key: its device, its channel, and what it is
/// sent.
pub(super) struct Proved {
    device: [u8; 16],
    channel: Channel,
    screen: watch::Receiver<Option<Arc<String>>>,
    file: watch::Receiver<Option<Arc<Vec<String>>>>,
}

pub(super) async fn close(socket: &mut WebSocket, code: u16, reason: &str) {
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        })))
        .await;
}

/// A socket's first steps: the hello, then its first frame, which must
/// open under the seat's key soon, speak this protocol and name its
/// device; that device must own the seat, or come while no device that
/// proved to be its player's owns it. Then it holds the seat (a tab of
/// the same device that held it is told it moved, another device that
/// did not prove is told the seat is taken). Why not, otherwise: the
/// socket changed nothing.
pub(super) async fn prove(
    socket: &mut WebSocket,
    shared: &Shared,
    at: Place,
    pairing: &Pairing,
    phone: [u8; 16],
) -> Result<Proved, String> {
    let mut laptop = [0; 16];
    getrandom::fill(&mut laptop).map_err(|_| "no randomness for the connection")?;
    let hello = Hello {
        version: VERSION,
        laptop: hex(&laptop),
    };
    let hello = serde_json::to_string(&hello).expect("a hello always serializes");
    if socket.send(Message::Text(hello.into())).await.is_err() {
        return Err("gone before the hello".into());
    }
    let mut channel = Channel::laptop(&pairing.key, pairing.token, phone, laptop);
    let first = tokio::time::timeout(shared.limits.first_frame, socket.recv()).await;
    let frame = match first {
        Err(_) => {
            close(socket, CLOSE_REFUSED, "too slow").await;
            return Err(format!(
                "no first frame within {:?}",
                shared.limits.first_frame
            ));
        }
        Ok(Some(Ok(Message::Binary(frame)))) => frame,
        Ok(Some(Ok(Message::Text(_)))) => {
            close(socket, CLOSE_REFUSED, "refused").await;
            return Err("a first message in the clear".into());
        }
        Ok(_) => return Err("closed before its first frame".into()),
    };
    let body = match channel.open(&frame) {
        Ok(body) => body,
        Err(e) => {
            close(socket, CLOSE_REFUSED, "refused").await;
            return Err(format!("a first frame that does not open: {e}"));
        }
    };
    let device = match FromPage::read(&body) {
        Ok(FromPage::Join { version, .. }) if version != VERSION => {
            close(socket, CLOSE_VERSION, "another version").await;
            return Err(format!(
                "a page of protocol {version}, this laptop speaks {VERSION}"
            ));
        }
        Ok(FromPage::Join { device, .. }) => unhex::<16>(&device),
        Ok(_) => None,
        Err(e) => {
            close(socket, CLOSE_REFUSED, "refused").await;
            return Err(e);
        }
    };
    let Some(device) = device else {
        close(socket, CLOSE_REFUSED, "refused").await;
        return Err("a first frame that names no device".into());
    };
    // Decided under the lock, answered after it (no lock across a wait).
    let taken = {
        let mut seats = shared.seats.lock().expect("the seats lock");
        let seat = &mut seats[at.side];
        if seat.generation != at.generation {
            Err((CLOSE_REPAIRED, "re-paired", "the seat was paired again"))
        } else if seat.proved && seat.device.is_some_and(|owner| owner != device) {
            Err((
                CLOSE_TAKEN,
                "another device holds this seat",
                "another device holds the seat",
            ))
        } else {
            if seat.device.replace(device) != Some(device) {
                seat.proved = false;
            }
            let before = seat.holder.replace(at.id);
            let taken = (seat.screen.subscribe(), seat.file.subscribe());
            // The tab it moved from finds out as it wakes.
            if before.is_some() {
                seat.screen.send_modify(|_| {});
            }
            Ok((taken, before))
        }
    };
    match taken {
        Ok(((screen, file), before)) => {
            if let Some(before) = before {
                shared.note(format!(
                    "{}: socket {} took the seat over from socket {before}",
                    at.side, at.id
                ));
            }
            Ok(Proved {
                device,
                channel,
                screen,
                file,
            })
        }
        Err((code, said, why)) => {
            close(socket, code, said).await;
            Err(why.into())
        }
    }
}

/// Sends one message to the page, sealed; whether it went within `limit`
/// (a phone gone without closing stops reading: its buffers fill, and the
/// socket must not wait on it for good).
pub(super) async fn seal_and_send(
    socket: &mut WebSocket,
    channel: &mut Channel,
    message: &str,
    limit: Duration,
) -> bool {
    let Ok(frame) = channel.seal(message.as_bytes()) else {
        return false;
    };
    matches!(
        tokio::time::timeout(limit, socket.send(Message::Binary(frame.into()))).await,
        Ok(Ok(()))
    )
}

/// The socket that holds a seat, to its end; returns why it ended.
pub(super) async fn hold(
    mut socket: WebSocket,
    shared: &Shared,
    at: Place,
    proved: Proved,
) -> String {
    let Proved {
        device,
        mut channel,
        mut screen,
        mut file,
    } = proved;
    let limits = &shared.limits;
    let side = at.side;
    let beat = ToPage::Beat.text();
    shared.send(FromPhone::Joined(side));
    screen.mark_changed();
    let mut cut = shared.cut.subscribe();
    // The first beat after a period: a fresh socket has just been heard.
    let mut heartbeat = tokio::time::interval_at(
        tokio::time::Instant::now() + limits.heartbeat,
        limits.heartbeat,
    );
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut heard = Instant::now();
    // A screen not sent while hushed, sent at the first beat after.
    let mut owed = false;
    loop {
        tokio::select! {
            _ = cut.changed() => return "cut with no goodbye (a test's dropped network)".into(),
            changed = screen.changed() => {
                let stopped = shared.stopped.load(Ordering::SeqCst);
                if changed.is_err() || stopped != 0 {
                    close(&mut socket, CLOSE_STOPPED, "stopped").await;
                    return "the server stopped".into();
                }
                let now = {
                    let seats = shared.seats.lock().expect("the seats lock");
                    let seat = &seats[side];
                    if seat.generation != at.generation {
                        Some(if seat.pairing.is_some() {
                            (CLOSE_REPAIRED, "re-paired", "the seat was paired again")
                        } else {
                            (CLOSE_RELEASED, "released", "the seat was let go")
                        })
                    } else if seat.holder != Some(at.id) && seat.device == Some(device) {
                        Some((CLOSE_MOVED, "moved to another tab", "its device's other tab took the seat"))
                    } else if seat.holder != Some(at.id) {
                        Some((CLOSE_TAKEN, "another device holds this seat", "another device took the seat (this one had not proved)"))
                    } else {
                        None
                    }
                };
                if let Some((code, said, why)) = now {
                    close(&mut socket, code, said).await;
                    return why.into();
                }
                let Some(json) = screen.borrow_and_update().clone() else {
                    continue;
                };
                if shared.hushed.load(Ordering::SeqCst) {
                    owed = true;
                    continue;
                }
                if !seal_and_send(&mut socket, &mut channel, &json, limits.silence).await {
                    return "gone".into();
                }
            }
            changed = file.changed() => {
                if changed.is_err() {
                    return "the server stopped".into();
                }
                let Some(parts) = file.borrow_and_update().clone() else {
                    continue;
                };
                for message in parts.iter() {
                    if !seal_and_send(&mut socket, &mut channel, message, limits.silence).await {
                        return "gone".into();
                    }
                }
            }
            _ = heartbeat.tick() => {
                if heard.elapsed() > limits.silence {
                    close(&mut socket, CLOSE_REFUSED, "silent").await;
                    return format!("nothing heard for {:?}: the phone is gone", limits.silence);
                }
                if shared.hushed.load(Ordering::SeqCst) {
                    continue;
                }
                let ping = socket.send(Message::Ping(Vec::new().into()));
                if !matches!(tokio::time::timeout(limits.silence, ping).await, Ok(Ok(())))
                    || !seal_and_send(&mut socket, &mut channel, &beat, limits.silence).await
                {
                    return "gone".into();
                }
                let latest = screen.borrow().clone();
                if std::mem::take(&mut owed)
                    && let Some(json) = latest
                    && !seal_and_send(&mut socket, &mut channel, &json, limits.silence).await
                {
                    return "gone".into();
                }
            }
            message = socket.recv() => {
                heard = Instant::now();
                let frame = match message {
                    Some(Ok(Message::Binary(frame))) => frame,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | None => return "closed by the phone".into(),
                    Some(Ok(Message::Text(_))) => {
                        close(&mut socket, CLOSE_REFUSED, "refused").await;
                        shared.refuse(format!("{side}: a message in the clear"));
                        return "a message in the clear".into();
                    }
                    Some(Err(e)) => return format!("socket error: {e}"),
                };
                let body = match channel.open(&frame) {
                    Ok(body) => body,
                    Err(e) => {
                        close(&mut socket, CLOSE_REFUSED, "refused").await;
                        shared.refuse(format!("{side}: {e}"));
                        return format!("frame refused: {e}");
                    }
                };
                match FromPage::read(&body) {
                    Ok(FromPage::Join { .. }) => {
                        close(&mut socket, CLOSE_REFUSED, "refused").await;
                        shared.refuse(format!("{side}: a second join on one socket"));
                        return "a second join".into();
                    }
                    Ok(message) => shared.send(FromPhone::Message(side, message)),
                    Err(e) => {
                        close(&mut socket, CLOSE_REFUSED, "refused").await;
                        shared.refuse(format!("{side}: {e}"));
                        return e;
                    }
                }
            }
        }
    }
}
