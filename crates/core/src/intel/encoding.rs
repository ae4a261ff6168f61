//! Bytes as text in JSON: lower-case hexadecimal for digests, salts,
//! nonces and ids, and base64 for a sealed record's ciphertext, its one
//! large field (a third shorter than hex, and a game's file is mostly
//! ciphertext: each is padded to hide its secret's length).

pub fn to_hex(bytes: &[u8]) -> String {
    data_encoding::HEXLOWER.encode(bytes)
}

/// The bytes of a hex string (either case), or `None` if it is not one.
pub fn from_hex(text: &str) -> Option<Vec<u8>> {
    data_encoding::HEXLOWER_PERMISSIVE
        .decode(text.as_bytes())
        .ok()
}

/// Bytes as standard base64 with padding.
pub fn to_base64(bytes: &[u8]) -> String {
    data_encoding::BASE64.encode(bytes)
}

/// The bytes of standard base64 with padding, or `None` if it is not that
/// (a character outside the alphabet, a wrong length or padding, or
/// trailing bits that are not zero: each text has one reading).
pub fn from_base64(text: &str) -> Option<Vec<u8>> {
    data_encoding::BASE64.decode(text.as_bytes()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_go_to_hex_and_back_and_anything_else_is_refused() {
        let bytes: Vec<u8> = (0..=255).collect();
        let text = to_hex(&bytes);
        assert_eq!(&text[..8], "00010203");
        assert_eq!(from_hex(&text), Some(bytes.clone()));
        assert_eq!(from_hex(&text.to_uppercase()), Some(bytes));
        assert_eq!(from_hex("abc"), None, "an odd length");
        assert_eq!(from_hex("zz"), None, "not hex");
        assert_eq!(from_hex(""), Some(Vec::new()));
    }

    #[test]
    fn bytes_go_to_base64_and_back_and_anything_else_is_refused() {
        let bytes: Vec<u8> = (0..=255).collect();
        let text = to_base64(&bytes);
        assert_eq!(&text[..8], "AAECAwQF");
        assert_eq!(text.len(), 344, "a third shorter than hex's 512");
        assert_eq!(from_base64(&text), Some(bytes));
        assert_eq!(from_base64("AAE"), None, "padding missing");
        assert_eq!(from_base64("AAF="), None, "trailing bits set");
        assert_eq!(from_base64("AA-="), None, "not the standard alphabet");
        assert_eq!(from_base64("00"), None, "hex is not base64");
        assert_eq!(from_base64(""), Some(Vec::new()));
    }
}
