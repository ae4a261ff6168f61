//! Setting text on a printed page so that nothing hides anything: every
//! string is measured with the embedded font's own advance widths (so a
//! box is the box a reader sees) and long lines wrap to a width. Where a
//! label goes is `labels`' job, shared with the window.

pub use crate::labels::Rect;
use printpdf::ParsedFont;
use std::collections::HashMap;

/// Points to millimetres.
pub const MM_PER_PT: f32 = 25.4 / 72.0;

/// The embedded font's measures: advance widths and the line's extent,
/// in ems.
pub struct Metrics {
    widths: HashMap<char, f32>,
    /// The advance of a character the font lacks (printpdf shows nothing
    /// for it, but a wide guess keeps boxes safe).
    missing: f32,
    ascent: f32,
    descent: f32,
}

impl Metrics {
    pub fn new(font: &ParsedFont) -> Metrics {
        let em = f32::from(font.units_per_em.max(1));
        let widths = font
            .codepoint_to_glyph
            .iter()
            .filter_map(|(&cp, &gid)| {
                let c = char::from_u32(cp)?;
                let w = font.get_glyph_width(gid)?;
                Some((c, f32::from(w) / em))
            })
            .collect();
        Metrics {
            widths,
            missing: 1.0,
            ascent: f32::from(font.font_metrics.ascent) / em,
            descent: f32::from(font.font_metrics.descent) / em,
        }
    }

    /// How wide `text` sets at `size` points, in mm.
    pub fn width(&self, text: &str, size: f32) -> f32 {
        let ems: f32 = text
            .chars()
            .map(|c| self.widths.get(&c).copied().unwrap_or(self.missing))
            .sum();
        ems * size * MM_PER_PT
    }

    /// The box `text` covers when set at (`x`, `y`) on its baseline.
    pub fn bounds(&self, x: f32, y: f32, size: f32, text: &str) -> Rect {
        Rect::new(
            x,
            y + self.descent * size * MM_PER_PT,
            x + self.width(text, size),
            y + self.ascent * size * MM_PER_PT,
        )
    }

    /// The distance from one baseline to the next, in mm.
    pub fn line_height(&self, size: f32) -> f32 {
        (self.ascent - self.descent) * size * MM_PER_PT
    }

    /// `text` broken at spaces into lines no wider than `width` mm; a word
    /// wider than that is broken where it must be.
    pub fn wrap(&self, text: &str, size: f32, width: f32) -> Vec<String> {
        let mut lines = Vec::new();
        let mut line = String::new();
        for word in text.split(' ') {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if self.width(&candidate, size) <= width {
                line = candidate;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            for c in word.chars() {
                line.push(c);
                if self.width(&line, size) > width && line.chars().count() > 1 {
                    line.pop();
                    lines.push(std::mem::replace(&mut line, c.to_string()));
                }
            }
        }
        if !line.is_empty() || lines.is_empty() {
            lines.push(line);
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics() -> Metrics {
        let font = ParsedFont::from_bytes(super::super::FONT, 0, &mut Vec::new()).unwrap();
        Metrics::new(&font)
    }

    #[test]
    fn widths_come_from_the_font() {
        let m = metrics();
        // DejaVu Sans: "i" is narrow, "W" wide; widths scale with size.
        assert!(m.width("W", 10.0) > 2.5 * m.width("i", 10.0));
        assert!((m.width("Forest", 20.0) - 2.0 * m.width("Forest", 10.0)).abs() < 1e-4);
        assert_eq!(m.width("", 10.0), 0.0);
    }

    #[test]
    fn wrapped_lines_fit_and_keep_every_word() {
        let m = metrics();
        let text = "North rolls 4 + 1 (Field Commander C-in-C) = 5 and takes the initiative for the battle";
        let lines = m.wrap(text, 8.0, 40.0);
        assert!(lines.len() > 1);
        for l in &lines {
            assert!(m.width(l, 8.0) <= 40.0, "{l}");
        }
        assert_eq!(lines.join(" "), text);
        let long = m.wrap("Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 8.0, 10.0);
        assert!(long.len() > 2 && long.iter().all(|l| m.width(l, 8.0) <= 10.0));
    }
}
