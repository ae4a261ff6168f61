//! A seat's pairing (docs: "Players' screens"): the token and key its QR
//! code carries (the key in the address's fragment, never sent), made from
//! the operating system's random source, and read back without a timing
//! that tells anything of a token.

/// A seat's pairing: what its QR code carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub token: [u8; 16],
    pub key: [u8; 32],
}

impl Pairing {
    pub(super) fn new() -> Result<Pairing, String> {
        let mut token = [0; 16];
        let mut key = [0; 32];
        getrandom::fill(&mut token).map_err(|e| e.to_string())?;
        getrandom::fill(&mut key).map_err(|e| e.to_string())?;
        Ok(Pairing { token, key })
    }

    /// The seat's address on `host` (an address and port): the token in
    /// the path, the key in the fragment, which a browser never sends.
    pub fn url(&self, host: &str) -> String {
        format!(
            "http://{host}/seat/{}#k={}",
            hex(&self.token),
            hex(&self.key)
        )
    }
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub(super) fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != 2 * N || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0; N];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// Compares without stopping at the first difference, so the time a
/// refusal takes tells nothing of a token.
pub(super) fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x ^ y)) == 0
}
