//! What a sentence Muster shows or prints must not get wrong: a count and
//! its noun in different numbers ("1 entries", "2 card"), a pronoun that
//! makes every player a man, a bracketed name possessed after its bracket
//! ("South (Marcus)'s"), doubled or empty punctuation (".;", "(Dis )").
//! The engines' tests run every log sentence through here with counts of
//! 1 and 2.

/// The nouns Muster counts, singular and plural.
const NOUNS: &[(&str, &str)] = &[
    ("entry", "entries"),
    ("log entry", "log entries"),
    ("BG", "BGs"),
    ("battle group", "battle groups"),
    ("card", "cards"),
    ("unit", "units"),
    ("hex", "hexes"),
    ("counter", "counters"),
    ("event", "events"),
    ("point", "points"),
    ("marker", "markers"),
    ("base", "bases"),
    ("Det", "Dets"),
    ("Wing", "Wings"),
    ("turn", "turns"),
    ("selection", "selections"),
];

/// What is wrong with `line`, each fault quoted.
pub fn faults(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    for (i, &(at, c)) in chars.iter().enumerate() {
        let starts = i == 0 || !chars[i - 1].1.is_alphanumeric() && chars[i - 1].1 != '.';
        if !c.is_ascii_digit() || !starts {
            continue;
        }
        let digits: String = line[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let rest = &line[at + digits.len()..];
        let Some(after) = rest.strip_prefix(' ') else {
            continue;
        };
        let one = digits == "1";
        for (singular, plural) in NOUNS {
            let wrong = if one { plural } else { singular };
            if after.starts_with(wrong)
                && !after[wrong.len()..].starts_with(|c: char| c.is_alphanumeric())
            {
                found.push(format!("\"{digits} {wrong}\""));
            }
        }
        if one && after.starts_with("of your battle groups stay ") {
            found.push("\"1 of your battle groups stay\"".into());
        }
    }
    for word in line.split(|c: char| !c.is_alphabetic()) {
        if ["he", "He", "his", "His", "him", "himself"].contains(&word) {
            found.push(format!("the pronoun \"{word}\""));
        }
    }
    for bad in [
        ")'s", ".;", ";.", "..", ",.", " ,", " .", "( ", " )", "()", "  ",
    ] {
        if line.contains(bad) && !(bad == ".." && line.contains("...")) {
            found.push(format!("\"{bad}\""));
        }
    }
    found
}

/// Panics naming every line of `lines` that reads wrong, with its faults.
pub fn assert_english<'a>(lines: impl IntoIterator<Item = &'a str>) {
    let wrong: Vec<String> = lines
        .into_iter()
        .filter_map(|l| {
            let f = faults(l.trim());
            (!f.is_empty()).then(|| format!("{l}\n    {}", f.join(", ")))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "sentences that read wrong:\n{}",
        wrong.join("\n")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_faults_the_players_saw_are_found() {
        for wrong in [
            "Log: 1 entries, fingerprint ab",
            "South to deploy batch 2 (1 BGs)",
            "1 of your battle groups stay off the table",
            "South (Marcus)'s passphrase",
            "Ann moves his Exercitus",
            "Ann plays 2 card",
            "Sack the camp.; then rally",
            "Wing 3 (Dis ) moves",
        ] {
            assert!(!faults(wrong).is_empty(), "{wrong}");
        }
        for right in [
            "Log: 1 entry, fingerprint ab",
            "South to deploy batch 2 (2 BGs)",
            "1 of your battle groups stays off the table",
            "South's (Marcus) passphrase",
            "Ann moves their Exercitus 1 hex (0906 to 0907)",
            "Ann draws 2 cards; turn 1 begins",
            "Wait...",
        ] {
            assert_eq!(faults(right), Vec::<String>::new(), "{right}");
        }
    }
}
