//! What a name may hold (issue 39): printable, visible text only, in
//! Unicode's composed form, and not a look-alike of the other player's. A
//! control character (NUL, a line break, an escape), a line or paragraph
//! separator, a bidirectional control (U+202E and its kin) or any other
//! format character (a zero-width space, a word joiner, a byte-order mark, a
//! tag), an invisible filler (U+3164) or an unusual space in a player's,
//! army's, unit's or card's name, or a battle's title, would cut, reorder or
//! hide what the log, the window and the printout show: a name that reads
//! one way and prints another, or two names that look the same. Every name
//! a game takes is checked here; two players' names are compared by their
//! confusables skeleton (UTS 39, the `unicode-security` crate).

use unicode_general_category::{GeneralCategory, get_general_category};

/// The bidirectional controls: marks, embeddings, overrides, isolates.
const BIDI: [char; 12] = [
    '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
    '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
];

/// Why `text` may not be a name, if it may not: the first character it
/// may not hold, by its code point, or that it is not composed (NFC).
pub fn unprintable(text: &str) -> Option<String> {
    for c in text.chars() {
        let what = match get_general_category(c) {
            GeneralCategory::Control => "a control character",
            GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator => {
                "a line or paragraph separator"
            }
            GeneralCategory::Format if BIDI.contains(&c) => {
                "a bidirectional control, which reorders what is printed"
            }
            GeneralCategory::Format => "an invisible format character",
            GeneralCategory::PrivateUse => "a private-use character, which no two fonts show alike",
            GeneralCategory::Surrogate | GeneralCategory::Unassigned => {
                "a character Unicode does not assign"
            }
            GeneralCategory::SpaceSeparator if c != ' ' => "a space other than the plain one",
            // What the confusables skeleton drops: fillers and selectors
            // that show nothing (U+3164, U+115F, U+FE0F...).
            _ if invisible(c) => "an invisible character",
            _ => continue,
        };
        return Some(format!("holds {what} (U+{:04X})", u32::from(c)));
    }
    if !unicode_normalization::is_nfc(text) {
        return Some(
            "is not in Unicode's composed form (NFC): a letter and its accent typed apart print like one letter; type it again"
                .into(),
        );
    }
    None
}

/// A character that shows nothing: its UTS 39 skeleton is empty.
fn invisible(c: char) -> bool {
    let mut one = [0u8; 4];
    unicode_security::skeleton(c.encode_utf8(&mut one))
        .next()
        .is_none()
}

/// Whether two players' names would pass for each other at the table: the
/// same UTS 39 skeleton (a Cyrillic "А" for a Latin "A", "rn" for "m"),
/// as typed or with case folded, spaces at the ends aside.
pub fn confusable(a: &str, b: &str) -> bool {
    let skeleton = |s: &str| unicode_security::skeleton(s.trim()).collect::<String>();
    skeleton(a) == skeleton(b) || skeleton(&a.to_lowercase()) == skeleton(&b.to_lowercase())
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

    /// Issue 39's black-box findings: every one is refused, naming its
    /// code point.
    #[test]
    fn invisible_format_separator_and_decomposed_names_are_refused() {
        for (name, point) in [
            ("Mons\u{202e} Graupius", "U+202E"),
            ("Mons\u{2066}Graupius", "U+2066"),
            ("Mons\u{200e}Graupius", "U+200E"),
            ("Mons\u{1b}[31m", "U+001B"),
            ("An\u{200b}n", "U+200B"),
            ("An\u{2060}n", "U+2060"),
            ("\u{feff}Ann", "U+FEFF"),
            ("Ann\u{e0041}", "U+E0041"),
            ("\u{3164}", "U+3164"),
            ("Ann\u{2028}Bob", "U+2028"),
            ("Ann\u{2029}", "U+2029"),
            ("Ann\u{a0}Smith", "U+00A0"),
            ("Ann\u{fe0f}", "U+FE0F"),
            ("Ann\u{ad}", "U+00AD"),
            ("\u{e000}", "U+E000"),
        ] {
            let why = unprintable(name).unwrap_or_else(|| panic!("{name:?} taken"));
            assert!(why.contains(point), "{name:?}: {why}");
        }
        let why = unprintable("Le\u{301}gion").unwrap();
        assert!(why.contains("NFC"), "{why}");
        for fine in [
            "Légion",
            "Ann Smith",
            "Boudica, Queen",
            "Ἀλέξανδρος",
            "源義経",
            "O'Neill-Ó Dónaill",
        ] {
            assert_eq!(unprintable(fine), None, "{fine:?}");
        }
    }

    #[test]
    fn look_alike_names_are_confusable_and_different_ones_are_not() {
        for (a, b) in [
            ("Ann", "Ann"),
            ("Ann", "\u{410}nn"),
            ("Ann", "ANN"),
            ("Ann", " Ann "),
            ("Ivan", "lvan"),
            ("corn", "com"),
        ] {
            assert!(confusable(a, b), "{a:?} and {b:?}");
        }
        for (a, b) in [("Ann", "Anna"), ("Bob", "Rob"), ("Marcus", "Brigid")] {
            assert!(!confusable(a, b), "{a:?} and {b:?}");
        }
    }
}
