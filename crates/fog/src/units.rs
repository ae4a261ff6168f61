//! Lengths: what one MU is on the table and how lengths are shown (the
//! table and its measures, `docs/src/rules/fog.md#units`). The engine
//! works in MU; these turn MU into words.

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
        format!("{:.1} {}", self.from_mu(mu, scale), self.symbol())
    }

    /// "in", "cm".
    pub fn symbol(self) -> &'static str {
        match self {
            LengthUnit::Inches => "in",
            LengthUnit::Centimetres => "cm",
        }
    }

    fn millimetres(self) -> f64 {
        match self {
            LengthUnit::Inches => 25.4,
            LengthUnit::Centimetres => 10.0,
        }
    }

    /// A length in MU as a number of this unit.
    pub fn from_mu(self, mu: f64, scale: MuScale) -> f64 {
        mu * scale.millimetres() / self.millimetres()
    }

    /// A number of this unit as MU: what a player typed in cm, for the
    /// engine.
    pub fn to_mu(self, length: f64, scale: MuScale) -> f64 {
        length * self.millimetres() / scale.millimetres()
    }
}

/// A number of MU as the rules write it: "3", "0.3", "12.5".
pub fn mu_number(mu: f64) -> String {
    let text = format!("{mu:.1}");
    text.strip_suffix(".0").map_or(text.clone(), str::to_string)
}

/// `text` (a rule's message, a log line: the engine speaks MU) with every
/// "N MU" read out in the chosen unit. In inches MU stays in brackets, the
/// rules' own numbers beside a tape's ("0.3 MU from Forest" becomes
/// "0.3 in (0.3 MU) from Forest"), and a length already in brackets
/// ("(4 MU)") is left as it is. In centimetres the player measures in cm
/// only: "0.8 cm from Forest", "(10.0 cm)", no MU anywhere.
pub fn speak(text: &str, unit: LengthUnit, scale: MuScale) -> String {
    let in_cm = unit == LengthUnit::Centimetres;
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
        let mu_too = |mu: &str| {
            if in_cm {
                String::new()
            } else {
                format!(" ({mu} MU)")
            }
        };
        match number.parse::<f64>() {
            Ok(mu) if boundary && (in_cm || !bracketed) && !number.starts_with('.') => {
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
                            "{} x {}{}",
                            unit.format(w, scale),
                            unit.format(mu, scale),
                            mu_too(&format!("{first} x {number}"))
                        ));
                    }
                    None => {
                        out.push_str(before);
                        out.push_str(&unit.format(mu, scale));
                        out.push_str(&mu_too(number));
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
    fn messages_speak_centimetres_only_or_inches_with_mu_in_brackets() {
        let cm = LengthUnit::Centimetres;
        let inches = LengthUnit::Inches;
        assert_eq!(
            speak("0.3 MU from Forest (rule 5)", cm, MuScale::Mm25),
            "0.8 cm from Forest (rule 5)"
        );
        assert_eq!(
            speak("0.3 MU from Forest (rule 5)", inches, MuScale::Mm40),
            "0.5 in (0.3 MU) from Forest (rule 5)"
        );
        assert_eq!(
            speak("within 12 MU, skirmishers 18 MU.", cm, MuScale::Mm25),
            "within 30.0 cm, skirmishers 45.0 cm."
        );
        assert_eq!(
            speak("table 72 x 48 MU", cm, MuScale::Mm25),
            "table 180.0 cm x 120.0 cm"
        );
        assert_eq!(
            speak("table 72 x 48 MU", inches, MuScale::Inch),
            "table 72.0 in x 48.0 in (72 x 48 MU)"
        );
        // A length in brackets: converted in cm, left in inches.
        assert_eq!(
            speak("within 12 MU (15 MU in the centre)", cm, MuScale::Mm25),
            "within 30.0 cm (37.5 cm in the centre)"
        );
        assert_eq!(
            speak("a 3.0 in (3 MU) gap", inches, MuScale::Inch),
            "a 3.0 in (3 MU) gap"
        );
        assert_eq!(speak("1 MU = 1 inch", cm, MuScale::Inch), "1 MU = 1 inch");
        // Not a number, or part of a word: unchanged.
        for same in ["the MU scale", "x MU", "4 MUs", "no unit"] {
            assert_eq!(speak(same, cm, MuScale::Mm25), same);
        }
    }

    #[test]
    fn a_length_goes_to_mu_and_back() {
        for unit in LengthUnit::ALL {
            for scale in MuScale::ALL {
                let back = unit.to_mu(unit.from_mu(12.5, scale), scale);
                assert!((back - 12.5).abs() < 1e-9, "{unit:?} {scale:?}");
            }
        }
        assert_eq!(LengthUnit::Centimetres.from_mu(4.0, MuScale::Mm25), 10.0);
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
