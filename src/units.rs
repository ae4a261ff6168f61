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

#[cfg(test)]
mod tests {
    use super::*;

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
