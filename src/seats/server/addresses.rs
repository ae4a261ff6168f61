//! The laptop's addresses a phone may reach it by (docs: "Players'
//! screens"): each told by its interface's kind, the Wi-Fi's first.

use super::*;

/// What an address of the laptop is, as its interface's name tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    WiFi,
    Ethernet,
    Other,
    /// A virtual machine's or container's bridge: phones do not reach it.
    Virtual,
    /// A VPN's: phones on the Wi-Fi do not reach it.
    Vpn,
    /// This laptop only.
    Loopback,
}

impl Kind {
    pub(super) fn of(interface: &str, ip: IpAddr) -> Kind {
        let starts = |prefixes: &[&str]| prefixes.iter().any(|p| interface.starts_with(p));
        if ip.is_loopback() {
            Kind::Loopback
        } else if starts(&["wl", "wlan", "wifi", "ath", "ra"]) {
            Kind::WiFi
        } else if starts(&["en", "eth", "em"]) {
            Kind::Ethernet
        } else if starts(&[
            "docker", "br-", "veth", "virbr", "vboxnet", "vmnet", "lxc", "lxd", "podman", "cni",
        ]) {
            Kind::Virtual
        } else if starts(&[
            "tun",
            "tap",
            "wg",
            "utun",
            "ppp",
            "tailscale",
            "zt",
            "ipsec",
        ]) {
            Kind::Vpn
        } else {
            Kind::Other
        }
    }

    pub fn words(self) -> &'static str {
        match self {
            Kind::WiFi => "Wi-Fi",
            Kind::Ethernet => "Ethernet",
            Kind::Other => "network",
            Kind::Virtual => "virtual: phones cannot reach it",
            Kind::Vpn => "VPN: phones on the Wi-Fi cannot reach it",
            Kind::Loopback => "this laptop only",
        }
    }
}

/// An address of this machine, with its interface and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    pub ip: IpAddr,
    pub interface: String,
    pub kind: Kind,
}

impl Address {
    /// "192.168.1.20 (Wi-Fi, wlan0)".
    pub fn describe(&self) -> String {
        format!("{} ({}, {})", self.ip, self.kind.words(), self.interface)
    }
}

/// The addresses of this machine a phone on the same network may reach,
/// the Wi-Fi's first, then Ethernet, other networks, virtual and VPN
/// adapters, this laptop's own last; IPv4 before IPv6 within each.
pub fn local_addresses() -> Vec<Address> {
    let mut found: Vec<Address> = if_addrs::get_if_addrs()
        .map(|list| {
            list.into_iter()
                .map(|i| Address {
                    ip: i.ip(),
                    kind: Kind::of(&i.name, i.ip()),
                    interface: i.name,
                })
                .collect()
        })
        .unwrap_or_default();
    found.sort_by_key(|a| (a.kind, a.ip.is_ipv6(), a.ip));
    found.dedup_by_key(|a| a.ip);
    found
}
