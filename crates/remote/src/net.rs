//! How a remote game's endpoint reaches the other machine (docs: "Playing
//! remotely", "A club's own relay"): iroh's public relays, a club's own
//! relay servers, or (tests) a relay on this machine with every socket on
//! 127.0.0.1. Nothing is published or looked up: the joiner dials the
//! addresses and relay his ticket names, so no DNS or pkarr service learns
//! of the game, and port mapping is not compiled in.

use iroh::endpoint::{QuicTransportConfig, VarInt, presets};
use iroh::tls::CaTlsConfig;
use iroh::{Endpoint, RelayMap, RelayMode, RelayUrl, TransportAddr};
use std::net::SocketAddr;
use std::time::Duration;

/// The connection's protocol name, which both ends must ask for.
pub const ALPN: &[u8] = b"muster/remote/1";

/// What a player types for "no relay" (`--relay none`, the invite's
/// relay field).
pub const NO_RELAY: &str = "none";

/// Which relays carry the game when the two machines cannot reach each
/// other directly.
#[derive(Clone, Debug)]
pub enum Relays {
    /// iroh's public relays.
    Public,
    /// A club's own relay servers (`iroh-relay`), by their URLs.
    Own(Vec<RelayUrl>),
    /// A relay map as it is (a test's own relay).
    Map(RelayMap),
    /// No relay: the two machines reach each other directly, on the same
    /// network (a club's Wi-Fi without the internet).
    Off,
}

impl Relays {
    /// The relays a URL names, or what is wrong with it.
    pub fn own(url: &str) -> Result<Relays, String> {
        if url.trim().eq_ignore_ascii_case(NO_RELAY) {
            return Ok(Relays::Off);
        }
        let url: RelayUrl = url
            .trim()
            .parse()
            .map_err(|e| format!("\"{url}\" is not a relay's address ({e})"))?;
        Ok(Relays::Own(vec![url]))
    }

    fn mode(&self) -> RelayMode {
        match self {
            Relays::Public => RelayMode::Default,
            Relays::Own(urls) => RelayMode::custom(urls.iter().cloned()),
            Relays::Map(map) => RelayMode::Custom(map.clone()),
            Relays::Off => RelayMode::Disabled,
        }
    }
}

/// An endpoint's settings.
#[derive(Clone, Debug)]
pub struct Net {
    pub relays: Relays,
    /// Bind to 127.0.0.1 alone (tests): no other interface is used.
    pub loopback: bool,
    /// Whether the two machines may reach each other directly; if not,
    /// everything goes through the relay (the speed bench compares both).
    pub direct: bool,
    /// How the relay's certificate is checked, if not against the usual
    /// roots (a test relay's self-signed one).
    pub relay_tls: Option<CaTlsConfig>,
}

impl Net {
    /// Through iroh's public relays, on every interface.
    pub fn public() -> Net {
        Net {
            relays: Relays::Public,
            loopback: false,
            direct: true,
            relay_tls: None,
        }
    }

    /// Settings that reach nothing: no relay, 127.0.0.1 alone (what a
    /// window under test has unless it starts its own relay).
    pub fn nowhere() -> Net {
        Net {
            relays: Relays::Own(Vec::new()),
            loopback: true,
            direct: true,
            relay_tls: None,
        }
    }

    /// A bound endpoint; the host's, with its key (`host`), takes
    /// connections, on `port` if it is free (0: any).
    pub(crate) async fn endpoint(
        &self,
        host: Option<iroh::SecretKey>,
        port: u16,
    ) -> Result<Endpoint, String> {
        match self.endpoint_on(host.clone(), port).await {
            // Taken by another program meanwhile: any port (the ticket
            // changes, and the window says so).
            Err(_) if port != 0 => self.endpoint_on(host, 0).await,
            bound => bound,
        }
    }

    async fn endpoint_on(
        &self,
        host: Option<iroh::SecretKey>,
        port: u16,
    ) -> Result<Endpoint, String> {
        // A dropped link is noticed within seconds: a keep-alive each
        // second, and six silent seconds end the connection.
        let transport = QuicTransportConfig::builder()
            .keep_alive_interval(Duration::from_secs(1))
            .max_idle_timeout(Some(VarInt::from_u32(6_000).into()))
            .build();
        let mut builder = Endpoint::builder(presets::Minimal)
            .relay_mode(self.relays.mode())
            .transport_config(transport);
        if let Some(key) = host {
            builder = builder.alpns(vec![ALPN.to_vec()]).secret_key(key);
        }
        if let Some(tls) = &self.relay_tls {
            builder = builder.ca_tls_config(tls.clone());
        }
        let no_socket =
            |e: iroh::endpoint::InvalidSocketAddr| format!("no socket for the game ({e})");
        if !self.direct {
            builder = builder.clear_ip_transports();
        } else if self.loopback {
            builder = builder
                .clear_ip_transports()
                .bind_addr(format!("127.0.0.1:{port}").as_str())
                .map_err(no_socket)?;
        } else if port != 0 {
            // As iroh binds by default (IPv4 and, where there is one,
            // IPv6), on the kept port.
            builder = builder
                .clear_ip_transports()
                .bind_addr(format!("0.0.0.0:{port}").as_str())
                .map_err(no_socket)?
                .bind_addr_with_opts(
                    format!("[::]:{port}").as_str(),
                    iroh::endpoint::BindOpts::default().set_is_required(false),
                )
                .map_err(no_socket)?;
        }
        builder
            .bind()
            .await
            .map_err(|e| format!("the network could not be opened ({e})"))
    }
}

/// Every address an endpoint is bound to, says it is at, or would relay
/// through, that is not on this machine's loopback (127.0.0.0/8): what a
/// test endpoint must not have.
pub fn outside_loopback(endpoint: &Endpoint) -> Vec<String> {
    let ip_outside = |a: &SocketAddr| !a.ip().is_loopback();
    let mut outside: Vec<String> = endpoint
        .bound_sockets()
        .iter()
        .filter(|a| ip_outside(a))
        .map(|a| format!("bound to {a}"))
        .collect();
    for addr in &endpoint.addr().addrs {
        match addr {
            TransportAddr::Ip(a) if ip_outside(a) => outside.push(format!("reachable at {a}")),
            TransportAddr::Relay(url) if !relay_is_loopback(url) => {
                outside.push(format!("relays through {url}"))
            }
            _ => {}
        }
    }
    outside
}

/// Whether a relay's URL names this machine's loopback by its address.
pub fn relay_is_loopback(url: &RelayUrl) -> bool {
    url.host_str()
        .map(|h| h.trim_start_matches('[').trim_end_matches(']'))
        .and_then(|h| h.parse::<std::net::IpAddr>().ok())
        .is_some_and(|ip| ip.is_loopback())
}
