//! The printout's first page: the table to scale (MU grid, halves and
//! thirds, deployment depths, every item in its colour under its tag), a
//! title block, the true paper scale in words and as a bar, and a legend.
//! Every text is placed clear of every other, of the markers and of the
//! legend; a label that had to move keeps a leader line to its item.

use super::schedule::{Item, Kind};
use crate::battle::{Battle, Phase};
use crate::palette;
use muster_core::labels::{Rect, free_spot};
use muster_core::pdf::{Page, Paper, grey, rgb};
use muster_core::side::Side;
use printpdf::{Op, PaintMode};

const MARGIN: f32 = 10.0;
const LEGEND_W: f32 = 58.0;
/// The gap between the table and the legend, where the depth captions go.
const GAP: f32 = 16.0;

pub(super) fn table_page(
    battle: &Battle,
    items: &[Item],
    paper: Paper,
    date: &str,
    mut page: Page<'_>,
) -> Vec<Op> {
    let state = battle.state();
    let ruleset = battle.ruleset();
    let settings = &state.settings;
    let (pw, ph) = paper.size();
    let ink = grey(0.1);
    let full = pw - 2.0 * MARGIN;

    // Title block.
    let mut y = page.paragraph(MARGIN, ph - MARGIN - 5.0, full, 15.0, &ink, &settings.title);
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
    let decided = |s: Option<Side>| s.map_or("not decided".to_string(), |s| s.to_string());
    let stage = match battle.phase() {
        Phase::Deployment(_) => "deployment in progress",
        Phase::MovesFirst => "deployed",
        Phase::Play => "ready to play",
        _ => "set-up in progress",
    };
    y += 0.6;
    for (size, line) in [
        (
            9.0,
            format!("{date}   {}   {}", player(Side::South), player(Side::North)),
        ),
        (
            9.0,
            format!(
                "Territory: {territory}   Initiative: {}   Moves first: {}   ({stage})",
                decided(state.initiative.winner),
                decided(state.moves_first.winner)
            ),
        ),
        (
            7.0,
            format!(
                "Ruleset {} fingerprint {}   Log: {}, fingerprint {}",
                ruleset.id,
                ruleset.fingerprint(),
                muster_core::text::count(battle.log().len() as u64, "entry", "entries"),
                battle.log_fingerprint()
            ),
        ),
    ] {
        y = page.paragraph(MARGIN, y, full, size, &ink, &line) - 0.8;
    }
    let top = y - 6.0;

    // The table, to scale, between the title block and the scale line.
    let (tw, td) = (settings.table.width as f32, settings.table.depth as f32);
    let x0 = MARGIN + 7.0;
    let y0 = MARGIN + 21.0;
    let area_w = pw - MARGIN - LEGEND_W - GAP - x0;
    let area_h = top - y0;
    let s = (area_w / tw).min(area_h / td);
    let at = |x: f64, y: f64| (x0 + x as f32 * s, y0 + y as f32 * s);
    let table = Rect::new(x0, y0, x0 + tw * s, y0 + td * s);
    page.rect(
        table.x0,
        table.y0,
        table.x1,
        table.y1,
        rgb([232, 240, 222]),
        ink.clone(),
    );
    let settings = &battle.state().settings;
    let axis = |mu: f32| format!("{:.0}", settings.units.from_mu(f64::from(mu), settings.mu));
    grid(&mut page, (tw, td), &at, &axis);
    let mid = f64::from(td) / 2.0;
    page.line(&[at(0.0, mid), at(f64::from(tw), mid)], 0.6, grey(0.55));
    for third in [tw / 3.0, 2.0 * tw / 3.0] {
        let x = f64::from(third);
        page.line(&[at(x, 0.0), at(x, f64::from(td))], 0.4, grey(0.6));
    }
    let caption = |side: Side| {
        state.armies[side]
            .as_ref()
            .map_or(format!("{side} edge"), |a| {
                format!("{side} edge ({})", a.player)
            })
    };
    for (side, y) in [(Side::South, table.y0 - 9.5), (Side::North, table.y1 + 2.0)] {
        let text = caption(side);
        let w = page.metrics.width(&text, 8.0);
        page.text((table.x0 + table.x1 - w) / 2.0, y, 8.0, ink.clone(), &text);
    }
    depth_lines(&mut page, battle, &table, &at);

    // Items: terrain, the road over it, then camps and fortifications.
    for item in items {
        let pts: Vec<(f32, f32)> = item.outline.iter().map(|p| at(p[0], p[1])).collect();
        match &item.kind {
            Kind::Terrain(t) => page.polygon(
                &pts,
                rgb(palette::terrain_colour(t)),
                ink.clone(),
                PaintMode::FillStroke,
            ),
            Kind::Road => page.line(
                &pts,
                ruleset.road.width as f32 * s * 72.0 / 25.4,
                rgb(palette::ROAD),
            ),
            Kind::Camp => {
                page.polygon(&pts, rgb(palette::CAMP), ink.clone(), PaintMode::FillStroke)
            }
            Kind::Fortification => page.polygon(
                &pts,
                rgb(palette::FORTIFICATION),
                grey(0.0),
                PaintMode::FillStroke,
            ),
            Kind::Ambush => {}
        }
    }
    // Ambush markers, where they stand (never what they are): their rings
    // are taken before any label is placed, so no label hides one. Markers
    // a ring's width apart or less (two may stand at one point) share one
    // ring: each keeps its own label, pointing there.
    let mut rings: Vec<(f32, f32)> = Vec::new();
    for item in items.iter().filter(|i| i.kind == Kind::Ambush) {
        let (cx, cy) = at(item.outline[0][0], item.outline[0][1]);
        if rings.iter().any(|(x, y)| (x - cx).hypot(y - cy) < 3.8) {
            continue;
        }
        rings.push((cx, cy));
        let ring: Vec<(f32, f32)> = (0..12)
            .map(|k| {
                let t = std::f32::consts::TAU * k as f32 / 12.0;
                (cx + 1.8 * t.cos(), cy + 1.8 * t.sin())
            })
            .collect();
        page.polygon(&ring, grey(1.0), ink.clone(), PaintMode::FillStroke);
        let q = page.metrics.width("?", 4.5);
        page.text(cx - q / 2.0, cy - 0.8, 4.5, ink.clone(), "?");
        page.taken
            .push(Rect::new(cx - 1.9, cy - 1.9, cx + 1.9, cy + 1.9));
    }
    let legend = Rect::new(pw - MARGIN - LEGEND_W, MARGIN, pw - MARGIN, top);
    page.taken.push(legend);
    // Camps and fortification sections are small: a label beside them, not
    // over them.
    for item in items
        .iter()
        .filter(|i| matches!(i.kind, Kind::Camp | Kind::Fortification))
    {
        let pts: Vec<(f32, f32)> = item.outline.iter().map(|p| at(p[0], p[1])).collect();
        let (xs, ys): (Vec<f32>, Vec<f32>) = pts.into_iter().unzip();
        let lo = |v: &[f32]| v.iter().copied().fold(f32::MAX, f32::min);
        let hi = |v: &[f32]| v.iter().copied().fold(f32::MIN, f32::max);
        page.taken
            .push(Rect::new(lo(&xs), lo(&ys), hi(&xs), hi(&ys)));
    }
    let sheet = Rect::new(MARGIN, MARGIN, pw - MARGIN, ph - MARGIN);
    for item in items {
        label(&mut page, item, &table, &sheet, &at);
    }

    scale(&mut page, battle, s, x0);
    legend_column(&mut page, battle, items, &legend);
    page.ops
}

/// The 6 MU grid, numbered every 12 MU below and left of the table, in
/// the players' unit (`axis`: a length in MU as whole units).
fn grid(
    page: &mut Page<'_>,
    (tw, td): (f32, f32),
    at: &dyn Fn(f64, f64) -> (f32, f32),
    axis: &dyn Fn(f32) -> String,
) {
    // A number is taken as drawn: a tag that leaves the table keeps off
    // it, as the laptop's labels do.
    let number = |page: &mut Page<'_>, x: f32, y: f32, text: &str| {
        let (w, h) = (page.metrics.width(text, 6.0), page.metrics.line_height(6.0));
        page.text(x, y, 6.0, grey(0.1), text);
        page.taken
            .push(Rect::new(x, y - 0.25 * h, x + w, y + 0.75 * h));
    };
    let mut x = 0.0;
    while x <= tw + 0.01 {
        let major = (x as i32) % 12 == 0;
        let v = f64::from(x);
        page.line(
            &[at(v, 0.0), at(v, f64::from(td))],
            if major { 0.5 } else { 0.25 },
            grey(0.75),
        );
        if major {
            let (sx, sy) = at(v, 0.0);
            let text = axis(x);
            let w = page.metrics.width(&text, 6.0);
            number(page, sx - w / 2.0, sy - 3.5, &text);
        }
        x += 6.0;
    }
    let mut y = 0.0;
    while y <= td + 0.01 {
        let major = (y as i32) % 12 == 0;
        let v = f64::from(y);
        page.line(
            &[at(0.0, v), at(f64::from(tw), v)],
            if major { 0.5 } else { 0.25 },
            grey(0.75),
        );
        if major {
            let (sx, sy) = at(0.0, v);
            let text = axis(y);
            let w = page.metrics.width(&text, 6.0);
            number(page, sx - w - 1.2, sy - 0.8, &text);
        }
        y += 6.0;
    }
}

/// The deployment depths from each long edge (RULES 8.5), dashed, with
/// their depth just right of the table, where no piece is.
fn depth_lines(
    page: &mut Page<'_>,
    battle: &Battle,
    table: &Rect,
    at: &dyn Fn(f64, f64) -> (f32, f32),
) {
    let settings = &battle.state().settings;
    let dep = &battle.ruleset().deployment;
    let red = rgb([150, 60, 60]);
    let right = Rect::new(
        table.x1 + 0.5,
        table.y0 - 2.0,
        table.x1 + GAP - 1.0,
        table.y1 + 2.0,
    );
    for depth in [dep.other_depth, dep.skirmisher_depth] {
        for y in [depth, settings.table.depth - depth] {
            page.ops.push(Op::SetLineDashPattern {
                dash: printpdf::LineDashPattern {
                    offset: 0.0,
                    pattern: [3.0, 2.0].into_iter().collect(),
                },
            });
            page.line(&[at(0.0, y), at(settings.table.width, y)], 0.5, red.clone());
            page.ops.push(Op::SetLineDashPattern {
                dash: printpdf::LineDashPattern::default(),
            });
            let text = settings.length(depth);
            let (_, ly) = at(settings.table.width, y);
            let w = page.metrics.width(&text, 5.5);
            let h = page.metrics.line_height(5.5);
            if let Some(spot) =
                free_spot((right.x0 + w / 2.0, ly), (w, h), 2.0, &right, &page.taken)
            {
                page.text(spot.x0, spot.y0 + 0.25 * h, 5.5, red.clone(), &text);
            }
        }
    }
}

/// An item's tag (and name, where there is room) on a white card near the
/// item, clear of every other text and marker; a leader line when moved.
/// Only the bare tag may leave the table, to stay clear of all.
fn label(
    page: &mut Page<'_>,
    item: &Item,
    table: &Rect,
    sheet: &Rect,
    at: &dyn Fn(f64, f64) -> (f32, f32),
) {
    let size = 6.0;
    let short = item.name.split([',', '(']).next().unwrap_or("").trim();
    let anchor = item.anchor();
    let anchor = at(anchor[0], anchor[1]);
    let h = page.metrics.line_height(size) + 0.8;
    let texts = if item.kind == Kind::Ambush {
        vec![item.tag.clone()]
    } else {
        vec![format!("{} {short}", item.tag), item.tag.clone()]
    };
    for (k, text) in texts.iter().enumerate() {
        let w = page.metrics.width(text, size) + 1.6;
        let within = if k + 1 == texts.len() { sheet } else { table };
        let Some(spot) = free_spot(anchor, (w, h), 2.0, within, &page.taken) else {
            continue;
        };
        let end = (
            anchor.0.clamp(spot.x0, spot.x1),
            anchor.1.clamp(spot.y0, spot.y1),
        );
        if (end.0 - anchor.0).hypot(end.1 - anchor.1) > 0.5 {
            page.line(&[anchor, end], 0.3, grey(0.3));
        }
        page.rect(spot.x0, spot.y0, spot.x1, spot.y1, grey(1.0), grey(0.4));
        page.text(
            spot.x0 + 0.8,
            spot.y0 + 0.4 + 0.24 * (h - 0.8),
            size,
            grey(0.1),
            text,
        );
        // The card, not just its text, is taken.
        page.taken.push(spot);
        return;
    }
}

/// The true paper scale in words, and a 12 MU bar.
fn scale(page: &mut Page<'_>, battle: &Battle, s: f32, x0: f32) {
    let settings = &battle.state().settings;
    let ink = grey(0.1);
    let table_mm = settings.mu.millimetres();
    let ratio = table_mm as f32 / s;
    page.text(
        x0,
        MARGIN + 5.0,
        8.0,
        ink.clone(),
        &format!(
            "Scale 1:{ratio:.2}: the rules' unit ({table_mm:.1} mm on the table) is {s:.3} mm on paper. Grid {}.",
            settings.length(6.0)
        ),
    );
    let bar = 12.0 * s;
    page.rect(
        x0,
        MARGIN - 0.5,
        x0 + bar / 2.0,
        MARGIN + 1.5,
        ink.clone(),
        ink.clone(),
    );
    page.rect(
        x0 + bar / 2.0,
        MARGIN - 0.5,
        x0 + bar,
        MARGIN + 1.5,
        grey(1.0),
        ink.clone(),
    );
    page.text(
        x0 + bar + 2.0,
        MARGIN - 0.3,
        7.0,
        ink,
        &settings.length(12.0),
    );
}

/// What stands before a legend entry.
enum Swatch {
    Fill([u8; 3]),
    Line([u8; 3]),
    Mark(&'static str),
}

/// The legend: a swatch per kind of item drawn, then how to read the page.
fn legend_column(page: &mut Page<'_>, battle: &Battle, items: &[Item], legend: &Rect) {
    let ruleset = battle.ruleset();
    let settings = &battle.state().settings;
    let ink = grey(0.1);
    let lx = legend.x0;
    let text_w = legend.x1 - lx - 8.0;
    // The legend's own area was taken to keep labels off it; its texts
    // are checked against everything else.
    page.taken.retain(|r| r != legend);
    let mut y = legend.y1 - 4.0;
    page.text(lx, y, 9.0, ink.clone(), "Legend");
    y -= 2.0;
    let mut entries: Vec<(Swatch, String)> = Vec::new();
    let mut shown: Vec<&str> = Vec::new();
    for item in items {
        if let Kind::Terrain(t) = &item.kind
            && !shown.contains(&t.as_str())
        {
            shown.push(t);
            entries.push((
                Swatch::Fill(palette::terrain_colour(t)),
                ruleset.terrain_name(t).to_string(),
            ));
        }
    }
    let has = |k: Kind| items.iter().any(|i| i.kind == k);
    if has(Kind::Road) {
        entries.push((Swatch::Line(palette::ROAD), "Road (R)".into()));
    }
    if has(Kind::Camp) {
        entries.push((Swatch::Fill(palette::CAMP), "Camp (C-S, C-N)".into()));
    }
    if has(Kind::Fortification) {
        entries.push((
            Swatch::Fill(palette::FORTIFICATION),
            "Field fortification (F1, F2...)".into(),
        ));
    }
    if has(Kind::Ambush) {
        entries.push((
            Swatch::Mark("?"),
            "Ambush marker, sealed (S1, N1...)".into(),
        ));
    }
    let dep = &ruleset.deployment;
    entries.push((
        Swatch::Line([150, 60, 60]),
        format!(
            "Deployment depths from each long edge: {} for most troops, {} for skirmishers (rule 8.5)",
            settings.length_mu(dep.other_depth),
            settings.length_mu(dep.skirmisher_depth)
        ),
    ));
    let size = 7.0;
    let step = page.metrics.line_height(size);
    for (swatch, text) in entries {
        y -= step + 1.2;
        match swatch {
            Swatch::Fill(colour) => {
                page.rect(lx, y - 0.5, lx + 6.0, y + 2.6, rgb(colour), ink.clone());
            }
            Swatch::Line(colour) => {
                page.line(&[(lx, y + 1.0), (lx + 6.0, y + 1.0)], 1.5, rgb(colour))
            }
            Swatch::Mark(mark) => {
                page.text(lx + 2.0, y, size, ink.clone(), mark);
            }
        }
        y = page.paragraph(lx + 8.0, y, text_w, size, &ink, &text) + step;
    }
    y -= step + 3.0;
    for note in [
        "Each item is numbered; its size, turn and two points to measure from are on the next page.".to_string(),
        "(S)/(N): the player who selected it.".to_string(),
        format!("Lengths in {}.", settings.units.name()),
    ] {
        y = page.paragraph(lx, y, legend.x1 - lx, 6.5, &ink, &note) - 1.0;
    }
}
