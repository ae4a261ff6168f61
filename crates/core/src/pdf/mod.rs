//! Printing, whatever the system: landscape pages in mm with the drawing
//! primitives the printouts share, text measured and wrapped (`typeset`) so
//! that none is clipped and none hides another, pages of wrapped text, and
//! the atomic write of a PDF.
//!
//! Text is set in DejaVu Sans (its Latin subset, `assets/fonts`), embedded, so
//! names with accents print as typed.

mod typeset;

pub use typeset::{MM_PER_PT, Metrics, Rect};

use crate::store::{StoreError, write_atomic, write_atomic_private};
use printpdf::{
    Color, Line, LinePoint, Mm, Op, PaintMode, ParsedFont, PdfDocument, PdfFontHandle, PdfPage,
    PdfSaveOptions, Point, Polygon, PolygonRing, Pt, Rgb, TextItem, WindingOrder,
};
use std::path::{Path, PathBuf};

pub const FONT: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../..",
    "/assets/fonts/DejaVuSans-Latin.ttf"
));

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
}

pub fn rgb([r, g, b]: [u8; 3]) -> Color {
    Color::Rgb(Rgb::new(
        f32::from(r) / 255.0,
        f32::from(g) / 255.0,
        f32::from(b) / 255.0,
        None,
    ))
}

pub fn grey(v: f32) -> Color {
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
pub struct Page<'a> {
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

/// The embedded font, parsed.
pub fn font() -> ParsedFont {
    ParsedFont::from_bytes(FONT, 0, &mut Vec::new()).expect("the embedded font parses")
}

/// A PDF of the pages `pages` lays out with the embedded font.
pub fn document(
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

pub const MARGIN: f32 = 12.0;

/// Pages of wrapped text under a title, numbered when there are several.
pub fn text_pages(
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

/// A table to print: its title, a paragraph under it, its header and rows,
/// and each column's share of the width.
pub struct Table<'t> {
    pub title: &'t str,
    pub intro: &'t str,
    pub header: &'t [String],
    pub rows: &'t [Vec<String>],
    pub shares: &'t [f32],
}

/// A table's rows under its title and introduction, each cell wrapped to
/// its column, a rule under each row, the header repeated on each page
/// (with "(continued)" after the title). Returns the pages filled and the
/// last one with the height left on it, for what follows the table.
pub fn table_pages<'a>(
    table: &Table<'_>,
    paper: Paper,
    font: &PdfFontHandle,
    metrics: &'a Metrics,
) -> (Vec<Vec<Op>>, Page<'a>, f32) {
    let Table {
        title,
        intro,
        header,
        rows,
        shares,
    } = *table;
    let (pw, ph) = paper.size();
    let width = pw - 2.0 * MARGIN;
    let ink = grey(0.1);
    let size = 8.0;
    let step = metrics.line_height(size);
    let mut pages = Vec::new();
    let mut page = Page::new(font.clone(), metrics);
    let mut y = page.paragraph(MARGIN, ph - MARGIN - 4.0, width, 13.0, &ink, title);
    if !intro.is_empty() {
        y = page.paragraph(MARGIN, y - 1.0, width, size, &ink, intro) - 2.0;
    }
    let mut first_row = true;
    let draw = |page: &mut Page<'a>, y: &mut f32, row: &[String], bold: bool| {
        let cells: Vec<Vec<String>> = row
            .iter()
            .zip(shares)
            .map(|(text, share)| metrics.wrap(text, size, share * width - 2.0))
            .collect();
        let mut x = MARGIN;
        for (cell, share) in cells.iter().zip(shares) {
            let mut ly = *y;
            for line in cell {
                page.text(
                    x,
                    ly,
                    size,
                    if bold { grey(0.0) } else { ink.clone() },
                    line,
                );
                ly -= step;
            }
            x += share * width;
        }
        let lines = cells.iter().map(Vec::len).max().unwrap_or(1);
        *y -= lines as f32 * step + 1.5;
        page.line(
            &[(MARGIN, *y + step * 0.75), (pw - MARGIN, *y + step * 0.75)],
            0.3,
            grey(0.7),
        );
    };
    draw(&mut page, &mut y, header, true);
    for row in rows {
        let lines = row
            .iter()
            .zip(shares)
            .map(|(text, share)| metrics.wrap(text, size, share * width - 2.0).len())
            .max()
            .unwrap_or(1);
        let height = lines as f32 * step + 1.5;
        if y - height < MARGIN && !first_row {
            pages.push(std::mem::replace(&mut page, Page::new(font.clone(), metrics)).ops);
            y = page.paragraph(
                MARGIN,
                ph - MARGIN - 4.0,
                width,
                13.0,
                &ink,
                &format!("{title} (continued)"),
            ) - 2.0;
            draw(&mut page, &mut y, header, true);
        }
        first_row = false;
        draw(&mut page, &mut y, row, false);
    }
    (pages, page, y)
}

/// Where a player's private pages go beside the printout `public`, never
/// in it, so the printout can go to the opponent: `table.pdf` gives
/// `table-private-south.pdf`.
pub fn private_path(public: &Path, side: crate::side::Side) -> PathBuf {
    let stem = public
        .file_stem()
        .map_or("muster".into(), |s| s.to_string_lossy());
    public.with_file_name(format!("{stem}-private-{}.pdf", side.name().to_lowercase()))
}

/// Writes a printout to `path` and, when given, its owner's private pages
/// to a file of their own beside it (`private_path`); returns the files
/// written.
/// A private page's document: its title, then its lines on pages of their
/// own.
pub fn private_document(title: &str, lines: &[String], paper: Paper) -> Vec<u8> {
    document(title, paper, |font, metrics| {
        text_pages(title, lines, paper, &font, metrics)
    })
}

/// Writes the public printout `public` to `path` and, with `private`, its
/// owner's own page (made by `own` with his opener) beside it; nothing is
/// written when his opener does not open his records.
pub fn save_with_private<'a>(
    path: &Path,
    public: &[u8],
    private: Option<(crate::side::Side, crate::intel::Opener<'a>)>,
    own: impl FnOnce(
        crate::side::Side,
        crate::intel::Opener<'a>,
    ) -> Result<Vec<u8>, crate::error::RuleError>,
) -> Result<Vec<PathBuf>, StoreError> {
    let own = private
        .map(|(side, opener)| own(side, opener).map(|bytes| (side, bytes)))
        .transpose()
        .map_err(|e| StoreError::new(e.to_string()))?;
    save_printout(path, public, own)
}

pub fn save_printout(
    path: &Path,
    public: &[u8],
    private: Option<(crate::side::Side, Vec<u8>)>,
) -> Result<Vec<PathBuf>, StoreError> {
    write_pdf(path, public)?;
    let mut written = vec![path.to_path_buf()];
    if let Some((side, bytes)) = private {
        let at = private_path(path, side);
        write_private_pdf(&at, &bytes)?;
        written.push(at);
    }
    Ok(written)
}

/// Writes a PDF atomically: a failed write leaves any file already at
/// `path` as it was.
pub fn write_pdf(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    write_atomic(path, bytes, is_pdf)
}

/// A player's private page: written as `write_pdf` does, readable by the
/// file's owner alone (0600) where the system has permissions.
pub fn write_private_pdf(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    write_atomic_private(path, bytes, is_pdf)
}

/// What was written reads back as a PDF.
fn is_pdf(written: &[u8]) -> Result<(), StoreError> {
    if written.starts_with(b"%PDF") {
        Ok(())
    } else {
        Err(StoreError::new("the written file is not a PDF"))
    }
}
