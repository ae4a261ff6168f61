//! The one rule for every name a game takes (issues 39 and 49): a
//! player's, a battle's title, an army's, a side's, a commander's, a battle
//! group's, a unit's, a card's, a card set's, a scenario's, a marker's.
//! Not blank, at most `MAX_NAME_CHARS` characters, in Unicode's composed
//! form (NFC), and printable and visible: no control character (NUL, a line
//! break, an escape), line or paragraph separator, bidirectional control
//! (U+202E and its kin), other format character (a zero-width space, a word
//! joiner, a byte-order mark, a tag), unusual space, or character that
//! prints blank (U+2800, the Hangul fillers U+3164 and U+115F: what the
//! UTS 39 confusables skeleton drops or reads as a space), except inside an
//! emoji sequence as a phone keyboard types it ("Legio ⚔️", a flag, a
//! family joined by U+200D). Such a character would cut, reorder or hide
//! what the log, the window and the printout show: a name that reads one
//! way and prints another, or two names that look the same. Two names of
//! players, or of one side's pieces, must not pass for each other (the same
//! UTS 39 skeleton, the `unicode-security` crate).

use unicode_properties::{GeneralCategory, UnicodeEmoji, UnicodeGeneralCategory, emoji};

/// The longest name any field takes, in characters: a title or a name is
/// one line of the log, the window and the printout.
pub const MAX_NAME_CHARS: usize = 80;

/// The bidirectional controls: marks, embeddings, overrides, isolates
/// (Unicode's Bidi_Control): named as such in a refusal.
const BIDI: [char; 12] = [
    '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
    '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
];

/// Why `name` may not be a name, if it may not, as the end of a sentence
/// that names the field ("South's commander's name is blank").
pub fn name_fault(name: &str) -> Option<String> {
    if name.trim().is_empty() {
        return Some("is blank".into());
    }
    let length = name.chars().count();
    if length > MAX_NAME_CHARS {
        return Some(format!(
            "is {length} characters long; a name has at most {MAX_NAME_CHARS}"
        ));
    }
    unprintable(name)
}

/// Why `text` may not be printed as it is, if it may not: the first
/// character it may not hold, by its code point, or that it is not
/// composed (NFC).
pub fn unprintable(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let before = i.checked_sub(1).map(|b| chars[b]);
        if in_emoji(before, c, chars.get(i + 1).copied()) {
            continue;
        }
        let what = match c.general_category() {
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
            _ if c != ' ' && blank(c) => "a character that prints blank",
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

/// A character that prints nothing or a blank: its UTS 39 skeleton is
/// empty (fillers and selectors: U+3164, U+115F, U+FE0F) or only spaces
/// (U+2800, the braille blank).
fn blank(c: char) -> bool {
    let mut one = [0u8; 4];
    unicode_security::skeleton(c.encode_utf8(&mut one)).all(char::is_whitespace)
}

/// Whether `c`, between `before` and `after`, belongs to an emoji
/// sequence (UTS 51): a variation selector after an emoji (a keycap's
/// digit only when the keycap follows), a zero-width joiner between two
/// emoji, a flag's tag characters after U+1F3F4.
fn in_emoji(before: Option<char>, c: char, after: Option<char>) -> bool {
    let pictograph = |c: char| c.is_emoji_char() && !c.is_ascii();
    let tag = |c: char| ('\u{E0020}'..='\u{E007E}').contains(&c);
    if emoji::is_emoji_presentation_selector(c) || emoji::is_text_presentation_selector(c) {
        return before
            .is_some_and(|b| pictograph(b) || (b.is_emoji_char() && after == Some('\u{20E3}')));
    }
    if emoji::is_zwj(c) {
        let joined = |b: char| pictograph(b) || emoji::is_emoji_presentation_selector(b);
        return before.is_some_and(joined) && after.is_some_and(pictograph);
    }
    if emoji::is_tag_character(c) {
        let opened = before.is_some_and(|b| b == '\u{1F3F4}' || tag(b));
        // The cancel tag U+E007F ends the sequence; the others spell it.
        return opened && (tag(c) || before.is_some_and(tag));
    }
    false
}

/// Whether two names would pass for each other at the table: the same
/// UTS 39 skeleton (a Cyrillic "А" for a Latin "A", "rn" for "m"), as
/// typed or with case folded, spaces at the ends aside.
pub fn confusable(a: &str, b: &str) -> bool {
    let skeleton = |s: &str| unicode_security::skeleton(s.trim()).collect::<String>();
    skeleton(a) == skeleton(b) || skeleton(&a.to_lowercase()) == skeleton(&b.to_lowercase())
}

/// The first two of `names` that pass for each other, if any: one side's
/// pieces must each be told apart from the others in the log. Each name's
/// skeletons are worked out once, so a long roster costs no more than
/// reading it.
pub fn look_alikes<'a>(names: &[&'a str]) -> Option<(&'a str, &'a str)> {
    let mut seen: std::collections::HashMap<(bool, String), &'a str> =
        std::collections::HashMap::new();
    for &name in names {
        let skeleton = |s: &str| unicode_security::skeleton(s.trim()).collect::<String>();
        let keys = [
            (false, skeleton(name)),
            (true, skeleton(&name.to_lowercase())),
        ];
        if let Some(first) = keys.iter().find_map(|k| seen.get(k)) {
            return Some((first, name));
        }
        for key in keys {
            seen.entry(key).or_insert(name);
        }
    }
    None
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

/// `text` with its first letter a capital: a clause said on its own.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
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

    /// Issue 49: U+2800 and the Hangul fillers print blank, so "Ann" and
    /// "Ann\u{2800}" sat side by side; they are refused, by the UTS 39
    /// skeleton (a space or nothing), not a list of ours.
    #[test]
    fn characters_that_print_blank_are_refused() {
        for (name, point) in [
            ("Ann\u{2800}", "U+2800"),
            ("\u{2800}", "U+2800"),
            ("Ann\u{3164}", "U+3164"),
            ("\u{115f}Ann", "U+115F"),
            ("A\u{1160}nn", "U+1160"),
            ("Ann\u{ffa0}", "U+FFA0"),
        ] {
            let why = unprintable(name).unwrap_or_else(|| panic!("{name:?} taken"));
            assert!(why.contains(point), "{name:?}: {why}");
        }
        assert!(name_fault("\u{2800}\u{2800}").is_some());
    }

    /// Issue 49: a phone keyboard types "⚔️" as U+2694 U+FE0F, and the
    /// selector was refused. An emoji sequence keeps its selectors, joiners
    /// and tags; the same characters anywhere else are refused.
    #[test]
    fn emoji_sequences_keep_their_selectors_and_joiners() {
        for fine in [
            "Legio \u{2694}\u{fe0f}",
            "Legio \u{2694}",
            "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467} family",
            "\u{1f3f3}\u{fe0f}\u{200d}\u{1f308} Rainbow",
            "\u{1f44d}\u{1f3fd} Brigid",
            "Keycap 1\u{fe0f}\u{20e3}",
            "\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f} England",
            "\u{1f1eb}\u{1f1f7} France",
        ] {
            assert_eq!(unprintable(fine), None, "{fine:?}");
            assert_eq!(name_fault(fine), None, "{fine:?}");
        }
        for (name, point) in [
            ("Ann\u{fe0f}", "U+FE0F"),
            ("1\u{fe0f}", "U+FE0F"),
            ("\u{fe0f}Ann", "U+FE0F"),
            ("An\u{200d}n", "U+200D"),
            ("\u{2694}\u{200d}", "U+200D"),
            ("Ann\u{e0067}\u{e007f}", "U+E0067"),
        ] {
            let why = unprintable(name).unwrap_or_else(|| panic!("{name:?} taken"));
            assert!(why.contains(point), "{name:?}: {why}");
        }
    }

    #[test]
    fn a_name_is_not_blank_and_has_at_most_80_characters() {
        assert_eq!(name_fault("  ").as_deref(), Some("is blank"));
        assert_eq!(name_fault("").as_deref(), Some("is blank"));
        assert_eq!(name_fault(&"a".repeat(MAX_NAME_CHARS)), None);
        let long = name_fault(&"é".repeat(MAX_NAME_CHARS + 1)).unwrap();
        assert!(
            long.contains("81 characters") && long.contains("at most 80"),
            "{long}"
        );
        assert!(name_fault("Ann\u{202e}").unwrap().contains("U+202E"));
    }

    #[test]
    fn look_alikes_among_one_sides_names_are_found() {
        assert_eq!(
            look_alikes(&["Legio V", "Auxilia", "Legio V"]),
            Some(("Legio V", "Legio V"))
        );
        assert_eq!(
            look_alikes(&["Cohort II", "Auxilia", "Cohort 11"]),
            Some(("Cohort II", "Cohort 11"))
        );
        assert_eq!(look_alikes(&["Legio V", "Legio VI", "Auxilia"]), None);
        assert_eq!(look_alikes(&[]), None);
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
