//! Bytes as lower-case hexadecimal, as sealed records store them in JSON.

pub fn to_hex(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

/// The bytes of a hex string, or `None` if it is not one.
pub fn from_hex(text: &str) -> Option<Vec<u8>> {
    hex::decode(text).ok()
}
