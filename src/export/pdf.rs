//! The printout's pages and their drawing primitives: the table to scale
//! (`table_page`), the schedule that lays every item with a tape measure
//! (`schedule`), then the setup log; and the owner's private page, a file
//! of its own. Text is measured and wrapped (`typeset`) so that none is
//! clipped and none hides another.
//!
//! Text is set in DejaVu Sans (its Latin subset, `assets/fonts`), embedded, so
//! names with accents print as typed.

use super::PrivatePage;
use super::schedule::{self, Item};
use super::typeset::{Metrics, Rect};
use crate::battle::{Battle, march_number};
use printpdf::{
    Color, Line, LinePoint, Mm, Op, PaintMode, ParsedFont, PdfDocument, PdfFontHandle, PdfPage,
    PdfSaveOptions, Point, Polygon, PolygonRing, Pt, Rgb, TextItem, WindingOrder,
};

pub(super) const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Latin.ttf");

/// Paper size, used landscape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Paper {
    #[default]
    A4,
    Letter,
}

impl Paper {
    /// Landscape width and height in mm.
    pub fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (297.0, 210.0),
            Paper::Letter => (279.4, 215.9),
        }
    }

    pub fn parse(name: &str) -> Option<Paper> {
        match name.to_ascii_lowercase().as_str() {
            "a4" => Some(Paper::A4),
            "letter" => Some(Paper::Letter),
            _ => None,
        }
    }
}

pub(super) fn rgb([r, g, b]: [u8; 3]) -> Color {
    Color::Rgb(Rgb::new(
        f32::from(r) / 255.0,
        f32::from(g) / 255.0,
        f32::from(b) / 255.0,
        None,
    ))
}

pub(super) fn grey(v: f32) -> Color {
    Color::Rgb(Rgb::new(v, v, v, None))
}

fn pt(x: f32, y: f32) -> LinePoint {
    LinePoint {
        p: Point::new(Mm(x), Mm(y)),
        bezier: false,
    }
}

/// Drawing commands for one page, in mm from the bottom-left corner, with
/// the box of every text set on it so far.
pub(super) struct Page<'a> {
    pub ops: Vec<Op>,
    font: PdfFontHandle,
    pub metrics: &'a Metrics,
    pub taken: Vec<Rect>,
}

impl<'a> Page<'a> {
    pub fn new(font: PdfFontHandle, metrics: &'a Metrics) -> Page<'a> {
        Page {
            ops: Vec::new(),
            font,
            metrics,
            taken: Vec::new(),
        }
    }

    /// Sets `text` with its baseline starting at (`x`, `y`); returns its box.
    pub fn text(&mut self, x: f32, y: f32, size: f32, colour: Color, text: &str) -> Rect {
        let bounds = self.metrics.bounds(x, y, size, text);
        self.taken.push(bounds);
        self.ops.extend([
            Op::SetFillColor { col: colour },
            Op::StartTextSection,
            Op::SetFont {
                font: self.font.clone(),
                size: Pt(size),
            },
            Op::SetTextCursor {
                pos: Point::new(Mm(x), Mm(y)),
            },
            Op::ShowText {
                items: vec![TextItem::Text(text.to_string())],
            },
            Op::EndTextSection,
        ]);
        bounds
    }

    /// Sets `text` wrapped to `width` from the baseline (`x`, `y`) down;
    /// returns the baseline after the last line.
    pub fn paragraph(
        &mut self,
        x: f32,
        y: f32,
        width: f32,
        size: f32,
        colour: &Color,
        text: &str,
    ) -> f32 {
        let mut y = y;
        for line in self.metrics.wrap(text, size, width) {
            self.text(x, y, size, colour.clone(), &line);
            y -= self.metrics.line_height(size);
        }
        y
    }

    pub fn line(&mut self, points: &[(f32, f32)], width: f32, colour: Color) {
        self.ops.extend([
            Op::SetOutlineColor { col: colour },
            Op::SetOutlineThickness { pt: Pt(width) },
            Op::DrawLine {
                line: Line {
                    points: points.iter().map(|&(x, y)| pt(x, y)).collect(),
                    is_closed: false,
                },
            },
        ]);
    }

    pub fn polygon(&mut self, points: &[(f32, f32)], fill: Color, outline: Color, mode: PaintMode) {
        self.ops.extend([
            Op::SetFillColor { col: fill },
            Op::SetOutlineColor { col: outline },
            Op::SetOutlineThickness { pt: Pt(0.6) },
            Op::DrawPolygon {
                polygon: Polygon {
                    rings: vec![PolygonRing {
                        points: points.iter().map(|&(x, y)| pt(x, y)).collect(),
                    }],
                    mode,
                    winding_order: WindingOrder::NonZero,
                },
            },
        ]);
    }

    pub fn rect(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, fill: Color, outline: Color) {
        self.polygon(
            &[(x0, y0), (x1, y0), (x1, y1), (x0, y1)],
            fill,
            outline,
            PaintMode::FillStroke,
        );
    }
}

/// The table layout of `battle` as a PDF: page 1 the table, then the
/// schedule that lays every item, then the log. `date` goes in the title
/// block (see `clock::today`). Sealed contents never appear in it: the
/// owner's private page is a file of its own.
pub fn table_pdf(battle: &Battle, paper: Paper, date: &str) -> Vec<u8> {
    let items = schedule::items(battle);
    document(&battle.state().settings.title, paper, |font, metrics| {
        let mut pages = vec![super::table_page::table_page(
            battle,
            &items,
            paper,
            date,
            Page::new(font.clone(), metrics),
        )];
        pages.extend(schedule_pages(battle, &items, paper, &font, metrics));
        pages.extend(log_pages(battle, paper, &font, metrics));
        pages
    })
}

/// Every piece's template at 1:1 on tiled pages, as a PDF of its own.
pub fn templates_pdf(battle: &Battle, paper: Paper) -> Vec<u8> {
    let items = schedule::items(battle);
    let title = format!("{}: piece templates at 1:1", battle.state().settings.title);
    document(&title, paper, |font, metrics| {
        super::templates::template_pages(battle, &items, paper, &font, metrics)
    })
}

/// The owner's private page alone, as a PDF of its own.
pub fn private_pdf(battle: &Battle, page: &PrivatePage, paper: Paper) -> Vec<u8> {
    let title = format!(
        "{}: {}'s private page",
        battle.state().settings.title,
        page.side
    );
    document(&title, paper, |font, metrics| {
        let lines: Vec<String> = page.lines.clone();
        let who = battle.state().armies[page.side]
            .as_ref()
            .map_or(page.side.to_string(), |a| {
                format!("{} ({})", page.side, a.player)
            });
        let title = format!("{who}: private page, sealed records. Keep it from your opponent.");
        text_pages(&title, &lines, paper, &font, metrics)
    })
}

/// The embedded font, parsed.
pub(super) fn font() -> ParsedFont {
    ParsedFont::from_bytes(FONT, 0, &mut Vec::new()).expect("the embedded font parses")
}

/// A PDF of the pages `pages` lays out with the embedded font.
fn document(
    title: &str,
    paper: Paper,
    pages: impl FnOnce(PdfFontHandle, &Metrics) -> Vec<Vec<Op>>,
) -> Vec<u8> {
    let mut doc = PdfDocument::new(title);
    let parsed = font();
    let metrics = Metrics::new(&parsed);
    let font = PdfFontHandle::External(doc.add_font(&parsed));
    let (w, h) = paper.size();
    let pages = pages(font, &metrics)
        .into_iter()
        .map(|ops| PdfPage::new(Mm(w), Mm(h), ops))
        .collect();
    let options = PdfSaveOptions {
        subset_fonts: true,
        ..PdfSaveOptions::default()
    };
    doc.with_pages(pages).save(&options, &mut Vec::new())
}

const MARGIN: f32 = 12.0;

/// Pages of wrapped text under a title, numbered when there are several.
fn text_pages(
    title: &str,
    lines: &[String],
    paper: Paper,
    font: &PdfFontHandle,
    metrics: &Metrics,
) -> Vec<Vec<Op>> {
    let (pw, ph) = paper.size();
    let size = 8.5;
    let width = pw - 2.0 * MARGIN;
    let step = metrics.line_height(size) + 0.6;
    let mut pages: Vec<Vec<String>> = vec![Vec::new()];
    let mut room = ph - 2.0 * MARGIN - 12.0;
    for line in lines {
        let wrapped = metrics.wrap(line, size, width - 8.0);
        let need = wrapped.len() as f32 * step;
        if need > room && !pages.last().is_some_and(Vec::is_empty) {
            pages.push(Vec::new());
            room = ph - 2.0 * MARGIN - 12.0;
        }
        room -= need;
        pages
            .last_mut()
            .expect("one page at least")
            .push(line.clone());
    }
    let total = pages.len();
    pages
        .into_iter()
        .enumerate()
        .map(|(k, lines)| {
            let mut page = Page::new(font.clone(), metrics);
            let heading = if total > 1 {
                format!("{title} ({} of {total})", k + 1)
            } else {
                title.to_string()
            };
            let ink = grey(0.1);
            let mut y = page.paragraph(MARGIN, ph - MARGIN - 4.0, width, 13.0, &ink, &heading);
            y -= 3.0;
            for line in &lines {
                let wrapped = metrics.wrap(line, size, width - 8.0);
                for (n, part) in wrapped.iter().enumerate() {
                    // Continuation lines are indented under the first.
                    let x = if n == 0 { MARGIN } else { MARGIN + 8.0 };
                    page.text(x, y, size, ink.clone(), part);
                    y -= step;
                }
            }
            page.ops
        })
        .collect()
}

/// The schedule: a table with one row per item (its tag, name, size, turn
/// and the points to measure from), then the sealed commitments.
fn schedule_pages(
    battle: &Battle,
    items: &[Item],
    paper: Paper,
    font: &PdfFontHandle,
    metrics: &Metrics,
) -> Vec<Vec<Op>> {
    let state = battle.state();
    let settings = &state.settings;
    let (pw, ph) = paper.size();
    let width = pw - 2.0 * MARGIN;
    let ink = grey(0.1);
    let size = 8.0;
    let step = metrics.line_height(size);
    // Column shares of the width: tag, item, size, turn, measure from.
    let shares = [0.05, 0.2, 0.22, 0.14, 0.39];
    let header = ["", "Item", "Size", "Turn", "Measure from"].map(String::from);
    let mut rows: Vec<[String; 5]> = items
        .iter()
        .map(|item| {
            let fixes: Vec<String> = item
                .fixes
                .iter()
                .map(|(what, fix)| format!("{what}: {}", settings.fix(fix)))
                .collect();
            [
                item.tag.clone(),
                item.name.clone(),
                item.size.clone(),
                item.turn_words(),
                fixes.join("; "),
            ]
        })
        .collect();
    if rows.is_empty() {
        rows.push([
            "".into(),
            "Nothing is on the table yet.".into(),
            "".into(),
            "".into(),
            "".into(),
        ]);
    }
    let intro = format!(
        "Turn: degrees from square to the long edges, seen from above with the south edge nearest you. \
         Measure from: the point of the outline nearest its nearest long edge, then the one nearest \
         its nearest side edge, each measured square to both edges. Lengths in {}; 1 MU = {}.",
        settings.units.name(),
        settings.mu.name()
    );
    let mut pages = Vec::new();
    let mut page = Page::new(font.clone(), metrics);
    let mut y = page.paragraph(
        MARGIN,
        ph - MARGIN - 4.0,
        width,
        13.0,
        &ink,
        "Laying out the table",
    );
    y = page.paragraph(MARGIN, y - 1.0, width, size, &ink, &intro) - 2.0;
    let mut first_row = true;
    for row in std::iter::once(&header).chain(rows.iter()) {
        let cells: Vec<Vec<String>> = row
            .iter()
            .zip(shares)
            .map(|(text, share)| metrics.wrap(text, size, share * width - 2.0))
            .collect();
        let lines = cells.iter().map(Vec::len).max().unwrap_or(1);
        let height = lines as f32 * step + 1.5;
        if y - height < MARGIN && !first_row {
            pages.push(std::mem::replace(&mut page, Page::new(font.clone(), metrics)).ops);
            y = page.paragraph(
                MARGIN,
                ph - MARGIN - 4.0,
                width,
                13.0,
                &ink,
                "Laying out the table (continued)",
            ) - 2.0;
        }
        first_row = false;
        let mut x = MARGIN;
        for (cell, share) in cells.iter().zip(shares) {
            let mut ly = y;
            for line in cell {
                page.text(x, ly, size, ink.clone(), line);
                ly -= step;
            }
            x += share * width;
        }
        y -= height;
        page.line(
            &[(MARGIN, y + step * 0.75), (pw - MARGIN, y + step * 0.75)],
            0.3,
            grey(0.7),
        );
    }
    for (i, m) in state.deployment.flank_marches.iter().enumerate() {
        let line = format!(
            "{} flank march {}: sealed, commitment {}",
            m.side,
            march_number(state, i),
            m.sealed.code()
        );
        if y - step < MARGIN {
            pages.push(std::mem::replace(&mut page, Page::new(font.clone(), metrics)).ops);
            y = ph - MARGIN - 4.0;
        }
        y = page.paragraph(MARGIN, y - 1.0, width, size, &ink, &line);
    }
    pages.push(page.ops);
    pages
}

/// The log, every line numbered and wrapped.
fn log_pages(
    battle: &Battle,
    paper: Paper,
    font: &PdfFontHandle,
    metrics: &Metrics,
) -> Vec<Vec<Op>> {
    let lines: Vec<String> = battle
        .log_lines()
        .iter()
        .enumerate()
        .map(|(n, (line, _))| format!("{:>3}. {}", n + 1, battle.state().settings.speak(line)))
        .collect();
    text_pages("Setup log", &lines, paper, font, metrics)
}
