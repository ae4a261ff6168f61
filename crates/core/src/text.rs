//! What a name may hold: printable text only. A control character (NUL, a
//! line break, an escape) or a bidirectional control (U+202E and its kin)
//! in a player's, army's, unit's or card's name would cut or reorder what
//! the log, the window and the printout show: a name that reads one way and
//! prints another. Every name a game takes is checked here.

/// The bidirectional controls: marks, embeddings, overrides, isolates.
const BIDI: [char; 12] = [
    '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
    '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
];

/// Why `text` may not be a name, if it may not: the first character it
/// may not hold, by its code point.
pub fn unprintable(text: &str) -> Option<String> {
    let c = text.chars().find(|c| c.is_control() || BIDI.contains(c))?;
    let what = if c.is_control() {
        "a control character"
    } else {
        "a bidirectional control, which reorders what is printed"
    };
    Some(format!("holds {what} (U+{:04X})", u32::from(c)))
}

/// `n` with its noun in the right number: "1 entry", "2 entries",
/// "0 entries". Every count Muster prints goes through here, so no line
/// reads "1 entries".
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    match n.into() {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// A name in the possessive. "South (Marcus)'s" is not English, so a name
/// ending in a bracket is possessed before it: "South's (Marcus)".
pub fn possessive(name: &str) -> String {
    match name.find(" (") {
        Some(at) if name.ends_with(')') => format!("{}'s {}", &name[..at], &name[at + 1..]),
        _ => format!("{name}'s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_possessives_read_as_english() {
        assert_eq!(count(1u32, "entry", "entries"), "1 entry");
        assert_eq!(count(2u32, "entry", "entries"), "2 entries");
        assert_eq!(count(0u32, "BG", "BGs"), "0 BGs");
        assert_eq!(possessive("South"), "South's");
        assert_eq!(possessive("South (Marcus)"), "South's (Marcus)");
    }

    #[test]
    fn controls_and_bidirectional_overrides_are_named() {
        assert_eq!(unprintable("Legio X Gemina"), None);
        assert_eq!(unprintable("Légion ΧΙΙ «Fulminata»"), None);
        let reversed = unprintable("Legio \u{202e}XX\u{202c} V").unwrap();
        assert!(reversed.contains("U+202E") && reversed.contains("bidirectional"));
        assert!(unprintable("V\u{0}").unwrap().contains("U+0000"));
        assert!(
            unprintable("two\nlines")
                .unwrap()
                .contains("control character")
        );
    }
}
