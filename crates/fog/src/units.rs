//! Lengths: what one MU is on the table and how lengths are shown (the
//! preamble of RULES.md). The engine works in MU; these turn MU into words.

use serde::{Deserialize, Serialize};

/// What 1 MU is on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MuScale {
    #[default]
    Inch,
    Mm25,
    Mm40,
    Inch1_5,
}

impl MuScale {
    pub const ALL: [MuScale; 4] = [
        MuScale::Inch,
        MuScale::Mm25,
        MuScale::Mm40,
        MuScale::Inch1_5,
    ];

    pub fn millimetres(self) -> f64 {
        match self {
            MuScale::Inch => 25.4,
            MuScale::Mm25 => 25.0,
            MuScale::Mm40 => 40.0,
            MuScale::Inch1_5 => 38.1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            MuScale::Inch => "1 inch",
            MuScale::Mm25 => "25 mm",
            MuScale::Mm40 => "40 mm",
            MuScale::Inch1_5 => "1.5 inch",
        }
    }
}

/// The unit lengths are shown in, besides MU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LengthUnit {
    #[default]
    Inches,
    Centimetres,
}

impl LengthUnit {
    pub const ALL: [LengthUnit; 2] = [LengthUnit::Inches, LengthUnit::Centimetres];

    pub fn name(self) -> &'static str {
        match self {
            LengthUnit::Inches => "inches",
            LengthUnit::Centimetres => "cm",
        }
    }

    /// A length in MU shown on the table in this unit ("36.0 in", "91.4 cm").
    pub fn format(self, mu: f64, scale: MuScale) -> String {
        let mm = mu * scale.millimetres();
        match self {
            LengthUnit::Inches => format!("{:.1} in", mm / 25.4),
            LengthUnit::Centimetres => format!("{:.1} cm", mm / 10.0),
        }
    }
}

/// A number of MU as the rules write it: "3", "0.3", "12.5".
pub fn mu_number(mu: f64) -> String {
    let text = format!("{mu:.1}");
    text.strip_suffix(".0").map_or(text.clone(), str::to_string)
}

/// `text` (a rule's message, a log line: the engine speaks MU) with every
/// "N MU" read out in the chosen unit, MU kept in brackets: "0.3 MU from
/// Forest" becomes "0.8 cm (0.3 MU) from Forest". A length already in
/// brackets ("(4 MU)") is left as it is.
pub fn speak(text: &str, unit: LengthUnit, scale: MuScale) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(at) = rest.find(" MU") {
        let (head, tail) = rest.split_at(at);
        let after = &tail[" MU".len()..];
        // "1 MU = 1 inch" defines the unit: left as it is.
        let boundary =
            !after.starts_with(|c: char| c.is_alphanumeric()) && !after.starts_with(" =");
        let start = number_start(head);
        let number = &head[start..];
        let bracketed = head[..start].ends_with('(');
        match number.parse::<f64>() {
            Ok(mu) if boundary && !bracketed && !number.starts_with('.') => {
                // "4 x 6 MU": both sizes.
                let before = &head[..start];
                let pair = before.strip_suffix(" x ").and_then(|b| {
                    let s = number_start(b);
                    b[s..].parse::<f64>().ok().map(|w| (s, &b[s..], w))
                });
                match pair {
                    Some((s, first, w)) => {
                        out.push_str(&before[..s]);
                        out.push_str(&format!(
                            "{} x {} ({first} x {number} MU)",
                            unit.format(w, scale),
                            unit.format(mu, scale)
                        ));
                    }
                    None => {
                        out.push_str(before);
                        out.push_str(&format!("{} ({number} MU)", unit.format(mu, scale)));
                    }
                }
            }
            _ => {
                out.push_str(head);
                out.push_str(" MU");
            }
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Where the number that ends `text` starts (`text.len()` if none does).
fn number_start(text: &str) -> usize {
    text.char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_digit() || *c == '.')
        .last()
        .map_or(text.len(), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_speak_the_chosen_unit_with_mu_in_brackets() {
        let cm = LengthUnit::Centimetres;
        assert_eq!(
            speak("0.3 MU from Forest (rule 5)", cm, MuScale::Mm25),
            "0.8 cm (0.3 MU) from Forest (rule 5)"
        );
        assert_eq!(
            speak("within 12 MU, skirmishers 18 MU.", cm, MuScale::Mm25),
            "within 30.0 cm (12 MU), skirmishers 45.0 cm (18 MU)."
        );
        assert_eq!(
            speak("table 72 x 48 MU", cm, MuScale::Mm25),
            "table 180.0 cm x 120.0 cm (72 x 48 MU)"
        );
        assert_eq!(speak("1 MU = 1 inch", cm, MuScale::Inch), "1 MU = 1 inch");
        // Already bracketed, not a number, or part of a word: unchanged.
        for same in [
            "a 7.6 cm (3 MU) gap",
            "the MU scale",
            "x MU",
            "4 MUs",
            "no unit",
        ] {
            assert_eq!(speak(same, cm, MuScale::Mm25), same);
        }
    }

    #[test]
    fn mu_numbers_drop_a_needless_decimal() {
        assert_eq!(mu_number(3.0), "3");
        assert_eq!(mu_number(0.25), "0.2");
        assert_eq!(mu_number(12.46), "12.5");
    }

    #[test]
    fn formats_table_lengths() {
        assert_eq!(LengthUnit::Inches.format(72.0, MuScale::Inch), "72.0 in");
        assert_eq!(
            LengthUnit::Centimetres.format(72.0, MuScale::Inch),
            "182.9 cm"
        );
        assert_eq!(
            LengthUnit::Centimetres.format(48.0, MuScale::Mm25),
            "120.0 cm"
        );
        assert_eq!(LengthUnit::Inches.format(4.0, MuScale::Inch1_5), "6.0 in");
    }
}
