//! The server's door (docs: "Players' screens"): connections taken within
//! their slots, each request's `Host` and `Origin` checked before anything
//! is served, the page and its scripts served from the binary with the
//! page's security headers.

use super::*;

/// How a `Host` header names an address: an IPv6 one in brackets.
pub(super) fn host_name(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

/// Takes connections until stopped; each holds a slot of all connections
/// and one of its address, given back when its task ends, whatever ends
/// it. A stop gives the sockets a moment to say goodbye.
pub(super) async fn accept(
    listener: std::net::TcpListener,
    shared: Arc<Shared>,
    mut stopped: tokio::sync::oneshot::Receiver<()>,
) {
    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
        return;
    };
    let connections = Arc::new(Semaphore::new(shared.limits.connections));
    let app = router(shared.clone());
    loop {
        let accepted = tokio::select! {
            _ = &mut stopped => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of files, or a connection reset before it was
                // taken: wait a moment rather than spin.
                shared.refuse(format!("a connection not taken: {e}"));
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(slot) = connections.clone().try_acquire_owned() else {
            shared.refuse(format!(
                "{peer}: refused, {} connections are open",
                shared.limits.connections
            ));
            continue;
        };
        let Some(address) = AddressSlot::take(&shared, peer.ip()) else {
            shared.refuse(format!(
                "{}: refused, {} connections from it are open",
                peer.ip(),
                shared.limits.per_address
            ));
            continue;
        };
        // A screen is a whole 64 KiB frame, a little more than one segment
        // even on loopback: without this its last bytes wait for the
        // phone's delayed acknowledgement of the first (Nagle).
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let headers = shared.limits.headers;
        tokio::spawn(async move {
            let (_slot, _address) = (slot, address);
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(headers)
                .max_buf_size(MAX_HEAD);
            let connection = builder
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .with_upgrades();
            let _ = connection.await;
        });
    }
    // The sockets were told (each closes with the stop's code): a moment
    // for their goodbyes before the runtime drops what is left, long
    // enough for a busy machine (the server's own thread waits, never the
    // window's).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(2);
    while shared.open.load(Ordering::SeqCst) > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

pub(super) fn router(state: Arc<Shared>) -> Router {
    Router::new()
        .route("/seat/{token}", get(page))
        .route("/assets/{*file}", get(asset))
        .route("/ws/{token}", get(socket))
        .fallback(|| async { StatusCode::NOT_FOUND })
        .layer(axum::middleware::from_fn_with_state(state.clone(), door))
        .with_state(state)
}

/// Every request's door: its `Host` must name the laptop as the page's
/// own address does (a page elsewhere, or a rebinding host name, is not
/// served), a socket's `Origin` must be the page's own; and every answer,
/// errors too, carries the page's security headers.
pub(super) async fn door(
    State(shared): State<Arc<Shared>>,
    request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok());
    let socket = request.uri().path().starts_with("/ws/");
    let host_ok = host.is_some_and(|h| shared.hosts.iter().any(|ok| ok == h));
    let origin_ok = match origin {
        Some(origin) => shared.origins.iter().any(|ok| ok == origin),
        // A page's own load carries none; a browser's socket always does.
        None => !socket,
    };
    if !(host_ok && origin_ok) {
        shared.refuse(format!(
            "a request for {} from host {} and origin {}: refused (403)",
            request
                .uri()
                .path()
                .split('/')
                .take(2)
                .collect::<Vec<_>>()
                .join("/"),
            host.unwrap_or("(none)"),
            origin.unwrap_or("(none)"),
        ));
        return guarded(StatusCode::FORBIDDEN.into_response());
    }
    guarded(next.run(request).await)
}

/// Headers every answer carries: nothing from elsewhere, no framing, no
/// caching, no referrer.
pub(super) fn guarded(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in [
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; connect-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        ),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// The page: the same for every seat (the key is in the fragment, never
/// sent); a known seat's page asked for is noted, so the table knows its
/// code reached a phone.
pub(super) async fn page(Path(token): Path<String>, State(shared): State<Arc<Shared>>) -> Response {
    if let Some((side, ..)) = seat_of(&shared, &token) {
        shared.send(FromPhone::Opened(side));
    }
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], PAGE).into_response()
}

pub(super) async fn asset(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|(name, ..)| *name == file) {
        Some((_, kind, text)) => ([(header::CONTENT_TYPE, *kind)], *text).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}
