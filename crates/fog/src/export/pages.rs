//! Field of Glory's printouts: the table to scale (`table_page`), the
//! schedule that lays every item with a tape measure (`schedule`), then
//! the setup log; the piece templates at 1:1; and the owner's private page,
//! a file of its own.

use super::PrivatePage;
use super::schedule::{self, Item};
use crate::battle::{Battle, march_number};
use muster_core::pdf::{
    MARGIN, Metrics, Page, Paper, Table, document, grey, table_pages, text_pages,
};
use printpdf::{Op, PdfFontHandle};

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
         Measure from two points you find on the real piece: an oval's long axis ends, a rectangle's \
         corners on its side nearest a long edge, a river's banks where it meets that edge, another \
         outline's points nearest the edges; each measured square to both edges. Lengths in {} (the rules' unit is {}).",
        settings.units.name(),
        settings.mu.name()
    );
    let rows: Vec<Vec<String>> = rows.into_iter().map(Vec::from).collect();
    let table = Table {
        title: "Laying out the table",
        intro: &intro,
        header: &header,
        rows: &rows,
        shares: &shares,
    };
    let (mut pages, mut page, mut y) = table_pages(&table, paper, font, metrics);
    for (i, m) in state.deployment.flank_marches.iter().enumerate() {
        // What both players know of it now: sealed, arrived, or revealed.
        let known = match &m.revealed {
            Some(r) => {
                let army = state.armies[m.side].as_ref();
                let bg = |b: &usize| {
                    army.and_then(|a| a.bgs.get(*b))
                        .map_or("?".to_string(), |g| g.name.clone())
                };
                let names: Vec<String> = r.secret.bgs.iter().map(bg).collect();
                let leader = army
                    .and_then(|a| a.commanders.get(r.secret.commander))
                    .map_or("?", |c| c.name.as_str());
                format!(
                    "revealed: {} led by {leader} on the {} flank; commitment {} checked",
                    names.join(", "),
                    r.secret.flank.name(),
                    m.sealed.code()
                )
            }
            None if m.arrived(battle.ruleset()) => {
                format!("arrived, to be revealed; commitment {}", m.sealed.code())
            }
            None => format!("sealed, commitment {}", m.sealed.code()),
        };
        let line = format!("{} flank march {}: {known}", m.side, march_number(state, i),);
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
        .zip(battle.log_prefixes())
        .map(|((line, _), n)| format!("{n}{}", battle.state().settings.speak(line)))
        .collect();
    text_pages("Setup log", &lines, paper, font, metrics)
}
