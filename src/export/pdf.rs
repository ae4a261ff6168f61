//! The printout: one landscape page with the table to scale (labelled MU
//! grid, every piece drawn in its colour, named and located from the nearest
//! long and side edges, the road, halves and thirds), a title block, the
//! scale in words and as a bar, and a legend; then the setup log.
//!
//! Text is set in DejaVu Sans (its Latin subset, `assets/fonts`), embedded, so
//! names with accents print as typed.

use super::PrivatePage;
use crate::battle::{
    Battle, Phase, Settings, camp_footprint, fortification_footprint, march_number, marker_number,
    piece_name,
};
use crate::palette;
use crate::side::Side;
use printpdf::{
    Color, Line, LinePoint, Mm, Op, PaintMode, ParsedFont, PdfDocument, PdfFontHandle, PdfPage,
    PdfSaveOptions, Point, Polygon, PolygonRing, Pt, Rgb, TextItem, WindingOrder,
};

const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Latin.ttf");

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

fn rgb([r, g, b]: [u8; 3]) -> Color {
    Color::Rgb(Rgb::new(
        f32::from(r) / 255.0,
        f32::from(g) / 255.0,
        f32::from(b) / 255.0,
        None,
    ))
}

fn grey(v: f32) -> Color {
    Color::Rgb(Rgb::new(v, v, v, None))
}

fn pt(x: f32, y: f32) -> LinePoint {
    LinePoint {
        p: Point::new(Mm(x), Mm(y)),
        bezier: false,
    }
}

/// About how wide `text` sets at `size` points, in mm (DejaVu Sans averages
/// a little over half an em per character).
fn text_width(text: &str, size: f32) -> f32 {
    text.chars().count() as f32 * size * 0.52 * 25.4 / 72.0
}

/// Drawing commands for one page, in mm from the bottom-left corner.
struct Page {
    ops: Vec<Op>,
    font: PdfFontHandle,
}

impl Page {
    fn text(&mut self, x: f32, y: f32, size: f32, colour: Color, text: &str) {
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
    }

    fn line(&mut self, points: &[(f32, f32)], width: f32, colour: Color) {
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

    fn polygon(&mut self, points: &[(f32, f32)], fill: Color, outline: Color, mode: PaintMode) {
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

    fn rect(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, fill: Color, outline: Color) {
        self.polygon(
            &[(x0, y0), (x1, y0), (x1, y1), (x0, y1)],
            fill,
            outline,
            PaintMode::FillStroke,
        );
    }
}

/// The table layout of `battle` as a PDF: page 1 the table, then the log.
/// `date` goes in the title block (see `clock::today`). Sealed contents
/// never appear in it: the owner's private page is a file of its own.
pub fn table_pdf(battle: &Battle, paper: Paper, date: &str) -> Vec<u8> {
    document(&battle.state().settings.title, paper, |font| {
        let mut pages = vec![table_page(battle, paper, date, font.clone())];
        pages.extend(log_pages(battle, paper, font));
        pages
    })
}

/// The owner's private page alone, as a PDF of its own.
pub fn private_pdf(battle: &Battle, page: &PrivatePage, paper: Paper) -> Vec<u8> {
    let title = format!(
        "{}: {}'s private page",
        battle.state().settings.title,
        page.side
    );
    document(&title, paper, |font| {
        vec![private_ops(battle, page, paper, font)]
    })
}

/// A PDF of the pages `pages` lays out with the embedded font.
fn document(
    title: &str,
    paper: Paper,
    pages: impl FnOnce(PdfFontHandle) -> Vec<Vec<Op>>,
) -> Vec<u8> {
    let mut doc = PdfDocument::new(title);
    let font = ParsedFont::from_bytes(FONT, 0, &mut Vec::new()).expect("the embedded font parses");
    let font = PdfFontHandle::External(doc.add_font(&font));
    let (w, h) = paper.size();
    let pages = pages(font)
        .into_iter()
        .map(|ops| PdfPage::new(Mm(w), Mm(h), ops))
        .collect();
    let options = PdfSaveOptions {
        subset_fonts: true,
        ..PdfSaveOptions::default()
    };
    doc.with_pages(pages).save(&options, &mut Vec::new())
}

fn table_page(battle: &Battle, paper: Paper, date: &str, font: PdfFontHandle) -> Vec<Op> {
    let state = battle.state();
    let ruleset = battle.ruleset();
    let settings = &state.settings;
    let units = settings.units;
    let (pw, ph) = paper.size();
    let margin = 10.0;
    let ink = grey(0.1);
    let mut page = Page {
        ops: Vec::new(),
        font,
    };

    // Title block.
    page.text(
        margin,
        ph - margin - 5.0,
        15.0,
        ink.clone(),
        &settings.title,
    );
    let player = |s: Side| {
        state.armies[s]
            .as_ref()
            .map_or(format!("{s}: not entered"), |a| {
                format!("{s}: {} ({})", a.player, a.name)
            })
    };
    let territory = state
        .territory
        .as_deref()
        .map_or("not chosen", |t| ruleset.territory_name(t));
    let initiative = state
        .initiative
        .winner
        .map_or("not decided".to_string(), |s| s.to_string());
    let moves_first = state
        .moves_first
        .winner
        .map_or("not decided".to_string(), |s| s.to_string());
    let stage = match battle.phase() {
        Phase::Deployment(_) => "deployment in progress",
        Phase::MovesFirst => "deployed",
        Phase::Play => "ready to play",
        _ => "set-up in progress",
    };
    page.text(
        margin,
        ph - margin - 11.0,
        9.0,
        ink.clone(),
        &format!("{date}   {}   {}", player(Side::South), player(Side::North)),
    );
    page.text(
        margin,
        ph - margin - 16.0,
        9.0,
        ink.clone(),
        &format!("Territory: {territory}   Initiative: {initiative}   Moves first: {moves_first}   ({stage})"),
    );
    page.text(
        margin,
        ph - margin - 20.5,
        7.0,
        ink.clone(),
        &format!(
            "Ruleset {} fingerprint {}   Log: {} entries, fingerprint {}",
            ruleset.id,
            ruleset.fingerprint(),
            battle.log().len(),
            battle.log_fingerprint()
        ),
    );

    // The table, to scale, leaving room for the legend on the right.
    let legend_w = 48.0;
    let (tw, td) = (settings.table.width as f32, settings.table.depth as f32);
    let area_w = pw - 2.0 * margin - legend_w - 8.0;
    let area_h = ph - 2.0 * margin - 22.0 - 26.0;
    let s = (area_w / tw).min(area_h / td);
    let (x0, y0) = (margin + 6.0, margin + 20.0);
    let at = |x: f64, y: f64| (x0 + x as f32 * s, y0 + y as f32 * s);
    page.rect(
        x0,
        y0,
        x0 + tw * s,
        y0 + td * s,
        rgb([232, 240, 222]),
        ink.clone(),
    );
    let mut x = 0.0;
    while x <= tw + 0.01 {
        let major = (x as i32) % 12 == 0;
        page.line(
            &[at(f64::from(x), 0.0), at(f64::from(x), f64::from(td))],
            if major { 0.5 } else { 0.25 },
            grey(0.75),
        );
        if major {
            let (sx, sy) = at(f64::from(x), 0.0);
            page.text(sx - 1.5, sy - 4.0, 6.0, ink.clone(), &format!("{x}"));
        }
        x += 6.0;
    }
    let mut y = 0.0;
    while y <= td + 0.01 {
        let major = (y as i32) % 12 == 0;
        page.line(
            &[at(0.0, f64::from(y)), at(f64::from(tw), f64::from(y))],
            if major { 0.5 } else { 0.25 },
            grey(0.75),
        );
        if major {
            let (sx, sy) = at(0.0, f64::from(y));
            page.text(sx - 5.0, sy - 1.0, 6.0, ink.clone(), &format!("{y}"));
        }
        y += 6.0;
    }
    page.line(
        &[
            at(0.0, f64::from(td) / 2.0),
            at(f64::from(tw), f64::from(td) / 2.0),
        ],
        0.6,
        grey(0.55),
    );
    // Deployment depths from each long edge (RULES 8.5): others, skirmishers.
    let dep = &ruleset.deployment;
    for (depth, what) in [
        (dep.other_depth, "others"),
        (dep.skirmisher_depth, "skirmishers"),
    ] {
        for (y, side) in [(depth, "S"), (settings.table.depth - depth, "N")] {
            let dashed = printpdf::LineDashPattern {
                offset: 0.0,
                pattern: [3.0, 2.0].into_iter().collect(),
            };
            page.ops.push(Op::SetLineDashPattern { dash: dashed });
            page.line(
                &[at(0.0, y), at(settings.table.width, y)],
                0.5,
                rgb([150, 60, 60]),
            );
            page.ops.push(Op::SetLineDashPattern {
                dash: printpdf::LineDashPattern::default(),
            });
            // Inside the table's right end, just above the line.
            let label = format!("{side} {what} {depth} MU");
            let (ex, ey) = at(settings.table.width, y);
            page.text(
                ex - text_width(&label, 5.0) - 1.0,
                ey + 0.6,
                5.0,
                rgb([150, 60, 60]),
                &label,
            );
        }
    }
    for third in [tw / 3.0, 2.0 * tw / 3.0] {
        page.line(
            &[
                at(f64::from(third), 0.0),
                at(f64::from(third), f64::from(td)),
            ],
            0.4,
            grey(0.6),
        );
    }
    let south = state
        .armies
        .south
        .as_ref()
        .map_or(String::new(), |a| format!(" ({})", a.player));
    let north = state
        .armies
        .north
        .as_ref()
        .map_or(String::new(), |a| format!(" ({})", a.player));
    let (cx, by) = at(f64::from(tw) / 2.0, 0.0);
    page.text(
        cx - 15.0,
        by - 9.0,
        8.0,
        ink.clone(),
        &format!("South edge{south}"),
    );
    let (_, ty) = at(0.0, f64::from(td));
    page.text(
        cx - 15.0,
        ty + 2.0,
        8.0,
        ink.clone(),
        &format!("North edge{north}"),
    );

    // Every piece, then the road over them, then the names over both.
    let mut shown: Vec<String> = Vec::new();
    let mut labels = Vec::new();
    for (i, laid) in state.placement.standing() {
        let pick = &state.selection.picks[i];
        let f = laid.footprint();
        let pts: Vec<(f32, f32)> = f.points().iter().map(|p| at(p[0], p[1])).collect();
        let fill = palette::terrain_colour(&pick.terrain);
        page.polygon(&pts, rgb(fill), ink.clone(), PaintMode::FillStroke);
        if !shown.contains(&pick.terrain) {
            shown.push(pick.terrain.clone());
        }
        let mut name = format!(
            "{} ({})",
            piece_name(state, ruleset, i),
            &pick.side.name()[..1]
        );
        if let Some(going) = laid.going {
            name = format!("{name}, {going}");
        }
        let place = locate(f.min(), f.max(), settings);
        labels.push((at(laid.pose.x, laid.pose.y), name, place));
    }
    if let Some(road) = &state.placement.road {
        let pts: Vec<(f32, f32)> = road.iter().map(|p| at(p[0], p[1])).collect();
        page.line(
            &pts,
            ruleset.road.width as f32 * s * 72.0 / 25.4,
            rgb(palette::ROAD),
        );
    }
    // Camps, fortifications, and ambush markers as the opponent sees them:
    // where they stand, never what they are.
    let d = &state.deployment;
    let mut works = false;
    for side in Side::BOTH {
        if let Some(pose) = d.camps[side] {
            let f = camp_footprint(ruleset, pose);
            let pts: Vec<(f32, f32)> = f.points().iter().map(|p| at(p[0], p[1])).collect();
            page.polygon(&pts, rgb(palette::CAMP), ink.clone(), PaintMode::FillStroke);
            let name = format!("Camp ({})", &side.name()[..1]);
            labels.push((at(pose.x, pose.y), name, locate(f.min(), f.max(), settings)));
            works = true;
        }
    }
    for (_, pose) in &d.fortifications {
        let f = fortification_footprint(ruleset, *pose);
        let pts: Vec<(f32, f32)> = f.points().iter().map(|p| at(p[0], p[1])).collect();
        page.polygon(
            &pts,
            rgb(palette::FORTIFICATION),
            ink.clone(),
            PaintMode::FillStroke,
        );
        works = true;
    }
    // Each label on a white card, so it reads on any ground.
    for ((lx, ly), name, place) in labels {
        let w = text_width(&name, 6.5).max(text_width(&place, 5.0)) + 2.0;
        page.rect(
            lx - 9.0,
            ly - 3.6,
            lx - 9.0 + w,
            ly + 3.2,
            grey(1.0),
            grey(0.4),
        );
        page.text(lx - 8.0, ly + 0.5, 6.5, ink.clone(), &name);
        page.text(lx - 8.0, ly - 2.5, 5.0, ink.clone(), &place);
    }

    // Markers over the labels, numbered on the table and located in the
    // legend: close together, full labels would hide each other.
    let mut markers = Vec::new();
    for (i, a) in d.ambushes.iter().enumerate().filter(|(_, a)| a.standing()) {
        let tag = format!("{}{}", &a.side.name()[..1], marker_number(state, i));
        markers.push(format!(
            "Ambush {tag}: {}, sealed {}",
            locate(a.at, a.at, settings),
            a.sealed.code()
        ));
        let (cx, cy) = at(a.at[0], a.at[1]);
        let ring: Vec<(f32, f32)> = (0..12)
            .map(|k| {
                let t = std::f32::consts::TAU * k as f32 / 12.0;
                (cx + 1.8 * t.cos(), cy + 1.8 * t.sin())
            })
            .collect();
        page.polygon(&ring, grey(1.0), ink.clone(), PaintMode::FillStroke);
        page.text(cx - 0.9, cy - 1.1, 4.0, ink.clone(), "?");
        page.text(cx + 2.2, cy + 1.2, 5.5, ink.clone(), &tag);
    }

    // Scale in words and as a bar.
    let table_mm = settings.mu.millimetres();
    page.text(
        x0,
        margin + 4.0,
        8.0,
        ink.clone(),
        &format!("Scale: 1 MU = {table_mm:.1} mm on the table, {s:.1} mm on paper. Grid 6 MU; lengths in {}.", units.name()),
    );
    let bar = 12.0 * s;
    page.rect(
        x0,
        margin - 1.0,
        x0 + bar / 2.0,
        margin + 1.0,
        ink.clone(),
        ink.clone(),
    );
    page.rect(
        x0 + bar / 2.0,
        margin - 1.0,
        x0 + bar,
        margin + 1.0,
        grey(1.0),
        ink.clone(),
    );
    page.text(
        x0 + bar + 2.0,
        margin - 1.0,
        7.0,
        ink.clone(),
        &format!("12 MU = {}", units.format(12.0, settings.mu)),
    );

    // Legend.
    let lx = pw - margin - legend_w;
    let mut ly = ph - margin - 28.0;
    page.text(lx, ly, 9.0, ink.clone(), "Legend");
    for terrain in &shown {
        ly -= 6.0;
        page.rect(
            lx,
            ly - 0.5,
            lx + 6.0,
            ly + 3.0,
            rgb(palette::terrain_colour(terrain)),
            ink.clone(),
        );
        page.text(
            lx + 8.0,
            ly,
            7.5,
            ink.clone(),
            ruleset.terrain_name(terrain),
        );
    }
    if state.placement.road.is_some() {
        ly -= 6.0;
        page.line(
            &[(lx, ly + 1.2), (lx + 6.0, ly + 1.2)],
            2.5,
            rgb(palette::ROAD),
        );
        page.text(lx + 8.0, ly, 7.5, ink.clone(), "Road");
    }
    if works {
        for (colour, what) in [
            (palette::CAMP, "Camp"),
            (palette::FORTIFICATION, "Field fortification"),
        ] {
            ly -= 6.0;
            page.rect(lx, ly - 0.5, lx + 6.0, ly + 3.0, rgb(colour), ink.clone());
            page.text(lx + 8.0, ly, 7.5, ink.clone(), what);
        }
    }
    if !markers.is_empty() {
        ly -= 6.0;
        page.text(lx + 1.5, ly, 7.5, ink.clone(), "?");
        page.text(lx + 8.0, ly, 7.5, ink.clone(), "Ambush marker (sealed)");
        for m in &markers {
            ly -= 3.8;
            page.text(lx + 8.0, ly, 5.5, ink.clone(), m);
        }
    }
    if !d.flank_marches.is_empty() {
        ly -= 6.0;
        page.text(lx, ly, 7.5, ink.clone(), "Flank marches (sealed)");
        for (i, m) in d.flank_marches.iter().enumerate() {
            ly -= 3.8;
            let text = format!(
                "{} march {}: commitment {}",
                m.side,
                march_number(state, i),
                m.sealed.code()
            );
            page.text(lx + 8.0, ly, 5.5, ink.clone(), &text);
        }
    }
    ly -= 6.0;
    page.line(
        &[(lx, ly + 1.2), (lx + 6.0, ly + 1.2)],
        0.8,
        rgb([150, 60, 60]),
    );
    page.text(lx + 8.0, ly, 7.5, ink.clone(), "Deployment depth");
    ly -= 8.0;
    page.text(
        lx,
        ly,
        6.5,
        ink.clone(),
        "(S)/(N): the player who selected it.",
    );
    ly -= 4.0;
    page.text(lx, ly, 6.5, ink, "Distances: to the nearest long edge");
    ly -= 3.5;
    page.text(lx, ly, 6.5, grey(0.1), "(S or N) and side edge (W or E).");
    page.ops
}

/// The distances that locate an outline (its bounding box `min`..`max`)
/// from the nearest long and side edges: "3.0 in from S, 10.5 in from W".
fn locate(min: [f64; 2], max: [f64; 2], settings: &Settings) -> String {
    let units = settings.units;
    let (long, long_edge) = if min[1] <= settings.table.depth - max[1] {
        (min[1], "S")
    } else {
        (settings.table.depth - max[1], "N")
    };
    let (side, side_edge) = if min[0] <= settings.table.width - max[0] {
        (min[0], "W")
    } else {
        (settings.table.width - max[0], "E")
    };
    format!(
        "{} from {long_edge}, {} from {side_edge}",
        units.format(long, settings.mu),
        units.format(side, settings.mu)
    )
}

/// The owner's private page: his sealed records in the clear.
fn private_ops(
    battle: &Battle,
    private: &PrivatePage,
    paper: Paper,
    font: PdfFontHandle,
) -> Vec<Op> {
    let (_, ph) = paper.size();
    let margin = 12.0;
    let mut page = Page {
        ops: Vec::new(),
        font,
    };
    let side = private.side;
    let who = battle.state().armies[side]
        .as_ref()
        .map_or(side.to_string(), |a| format!("{side} ({})", a.player));
    let title = format!("{who}: private page, sealed records. Keep it from your opponent.");
    page.text(margin, ph - margin - 4.0, 13.0, grey(0.1), &title);
    let mut y = ph - margin - 14.0;
    for line in &private.lines {
        page.text(margin, y, 9.0, grey(0.1), line);
        y -= 5.0;
    }
    page.ops
}

fn log_pages(battle: &Battle, paper: Paper, font: PdfFontHandle) -> Vec<Vec<Op>> {
    let (_, ph) = paper.size();
    let margin = 12.0;
    let per_page = ((ph - 2.0 * margin - 12.0) / 4.2) as usize;
    let lines = battle.log_lines();
    let chunks: Vec<&[(String, bool)]> = if lines.is_empty() {
        vec![&[]]
    } else {
        lines.chunks(per_page).collect()
    };
    let total = chunks.len();
    chunks
        .into_iter()
        .enumerate()
        .map(|(k, chunk)| {
            let mut page = Page {
                ops: Vec::new(),
                font: font.clone(),
            };
            let title = if total > 1 {
                format!("Setup log ({} of {total})", k + 1)
            } else {
                "Setup log".into()
            };
            page.text(margin, ph - margin - 4.0, 13.0, grey(0.1), &title);
            let mut y = ph - margin - 14.0;
            for (n, (line, _)) in chunk.iter().enumerate() {
                page.text(
                    margin,
                    y,
                    8.0,
                    grey(0.1),
                    &format!("{:>3}. {line}", k * per_page + n + 1),
                );
                y -= 4.2;
            }
            page.ops
        })
        .collect()
}
