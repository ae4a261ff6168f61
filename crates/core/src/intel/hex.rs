//! Bytes as lower-case hexadecimal, as sealed records store them in JSON.

pub fn to_hex(bytes: &[u8]) -> String {
    data_encoding::HEXLOWER.encode(bytes)
}

/// The bytes of a hex string (either case), or `None` if it is not one.
pub fn from_hex(text: &str) -> Option<Vec<u8>> {
    data_encoding::HEXLOWER_PERMISSIVE
        .decode(text.as_bytes())
        .ok()
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
}
