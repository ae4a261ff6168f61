//! A relay on this machine and endpoints that use nothing else, for every
//! test of a remote game (the remote crate's and the window's): iroh's
//! test relay on 127.0.0.1 with a self-signed certificate; the endpoints
//! bind 127.0.0.1 alone, publish nothing and look nothing up.

use iroh::tls::CaTlsConfig;
use muster_remote::{Net, Relays};

/// A relay on 127.0.0.1, running on a runtime of its own while held.
pub struct LocalRelay {
    pub net: Net,
    // Held: dropping it stops the relay.
    _server: Box<dyn std::any::Any + Send>,
    _runtime: tokio::runtime::Runtime,
}

/// The relay and the settings of endpoints that use it alone.
pub fn local_relay() -> LocalRelay {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let (map, _url, server) = runtime
        .block_on(iroh::test_utils::run_relay_server())
        .expect("a relay on 127.0.0.1");
    LocalRelay {
        net: Net {
            relays: Relays::Map(map),
            loopback: true,
            direct: true,
            relay_tls: Some(CaTlsConfig::insecure_skip_verify()),
        },
        _server: Box::new(server),
        _runtime: runtime,
    }
}

/// Runs the test named `name` again inside a network namespace of its own
/// with only the loopback interface up (`unshare -rn`), where one can be
/// made: nothing it does can reach another address. True when it ran
/// there (and passed); false when it must run here, in this process: it
/// is already in the namespace, or none can be made (said on stderr).
pub fn ran_in_loopback_namespace(name: &str) -> bool {
    use std::process::Command;
    if std::env::var_os("MUSTER_IN_NETNS").is_some() {
        // Inside: no route leads anywhere but loopback.
        let socket = std::net::UdpSocket::bind("0.0.0.0:0").expect("a socket");
        assert!(
            socket.connect("192.0.2.1:9").is_err(),
            "the namespace has a route off this machine"
        );
        return false;
    }
    let up = "ip link set lo up";
    let can = Command::new("unshare")
        .args(["-rn", "sh", "-c", up])
        .output()
        .is_ok_and(|o| o.status.success());
    if !can {
        eprintln!("no network namespace can be made here: {name} runs on this machine's loopback");
        return false;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let out = Command::new("unshare")
        .args(["-rn", "sh", "-c", &format!("{up} && exec \"$0\" \"$@\"")])
        .arg(exe)
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env("MUSTER_IN_NETNS", "1")
        .output()
        .expect("the test binary runs again");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && said.contains("1 passed"),
        "{name} in its namespace:\n{said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    true
}
