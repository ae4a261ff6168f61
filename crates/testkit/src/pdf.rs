//! The printout as a reader sees it: text and its box on the page, from
//! the PDF parsed back (lopdf), so a test can say that no text hides
//! another and none leaves the page.

/// Text with every run of white space (a wrapped line's break) one space.
pub fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of `page` as lopdf reads it.
pub fn text_of(pdf: &lopdf::Document, page: u32) -> String {
    pdf.extract_text(&[page]).unwrap()
}

/// One piece of text as a reader sees it on a page: its string (decoded by
/// lopdf, for messages) and its box in points, computed from the content
/// stream's text position and font size and the embedded font's own
/// widths (`/W`), ascent and descent.
#[derive(Debug)]
pub struct TextBox {
    pub text: String,
    pub rect: [f32; 4],
}

/// The font metrics a page's text is set in: per glyph widths, ascent and
/// descent, all in thousandths of an em.
struct FontMetrics {
    widths: std::collections::HashMap<u16, f32>,
    default: f32,
    ascent: f32,
    descent: f32,
}

fn font_metrics(pdf: &lopdf::Document, font: &lopdf::Dictionary) -> FontMetrics {
    let deref = |o: &lopdf::Object| pdf.dereference(o).unwrap().1.clone();
    let descendants = deref(font.get(b"DescendantFonts").unwrap());
    let cid = deref(&descendants.as_array().unwrap()[0]);
    let cid = cid.as_dict().unwrap();
    let mut widths = std::collections::HashMap::new();
    let w = deref(cid.get(b"W").unwrap());
    let w = w.as_array().unwrap();
    let mut k = 0;
    while k + 1 < w.len() {
        let first = w[k].as_i64().unwrap() as u16;
        for (n, width) in w[k + 1].as_array().unwrap().iter().enumerate() {
            widths.insert(first + n as u16, width.as_float().unwrap());
        }
        k += 2;
    }
    let default = cid.get(b"DW").map_or(1000.0, |d| d.as_float().unwrap());
    let descriptor = deref(cid.get(b"FontDescriptor").unwrap());
    let descriptor = descriptor.as_dict().unwrap();
    FontMetrics {
        widths,
        default,
        ascent: descriptor.get(b"Ascent").unwrap().as_float().unwrap(),
        descent: descriptor.get(b"Descent").unwrap().as_float().unwrap(),
    }
}

pub fn text_boxes(pdf: &lopdf::Document, page: u32) -> Vec<TextBox> {
    let id = pdf.get_pages()[&page];
    let fonts: std::collections::HashMap<Vec<u8>, FontMetrics> = pdf
        .get_page_fonts(id)
        .unwrap()
        .into_iter()
        .map(|(name, dict)| (name, font_metrics(pdf, dict)))
        .collect();
    let content = pdf.get_and_decode_page_content(id).unwrap();
    let (mut x, mut y, mut size) = (0.0f32, 0.0f32, 0.0f32);
    let mut font: Option<&FontMetrics> = None;
    let mut boxes = Vec::new();
    for op in &content.operations {
        let num = |k: usize| op.operands[k].as_float().unwrap();
        match op.operator.as_str() {
            "BT" => (x, y) = (0.0, 0.0),
            "Tf" => {
                font = fonts.get(op.operands[0].as_name().unwrap());
                size = num(1);
            }
            "Td" => (x, y) = (x + num(0), y + num(1)),
            "Tm" => (x, y) = (num(4), num(5)),
            "Tj" | "TJ" => {
                let f = font.expect("text shown with a font set");
                let parts = match &op.operands[0] {
                    lopdf::Object::Array(a) => a.clone(),
                    other => vec![other.clone()],
                };
                let mut advance = 0.0;
                for part in &parts {
                    match part {
                        lopdf::Object::String(bytes, _) => {
                            for g in bytes.chunks(2) {
                                let gid = u16::from_be_bytes([g[0], g[1]]);
                                advance += f.widths.get(&gid).copied().unwrap_or(f.default);
                            }
                        }
                        n => advance -= n.as_float().unwrap(),
                    }
                }
                let w = advance / 1000.0 * size;
                boxes.push(TextBox {
                    text: String::new(),
                    rect: [
                        x,
                        y + f.descent / 1000.0 * size,
                        x + w,
                        y + f.ascent / 1000.0 * size,
                    ],
                });
            }
            _ => {}
        }
    }
    // The strings as lopdf reads them, in the same order, for messages.
    let text = pdf.extract_text(&[page]).unwrap();
    for (b, line) in boxes.iter_mut().zip(text.lines()) {
        b.text = line.to_string();
    }
    boxes
}

/// The first two texts whose boxes share area (by more than `slack`
/// points), or the first text outside the page.
pub fn clash(pdf: &lopdf::Document, page: u32, (pw, ph): (f32, f32)) -> Option<String> {
    let boxes = text_boxes(pdf, page);
    assert!(!boxes.is_empty());
    let slack = 0.05;
    for b in &boxes {
        let [x0, y0, x1, y1] = b.rect;
        if !(x0 >= 0.0 && y0 >= 0.0 && x1 <= pw && y1 <= ph) {
            return Some(format!(
                "page {page}: {:?} {:?} leaves the {pw} x {ph} pt page",
                b.text, b.rect
            ));
        }
    }
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let overlap_x = a.rect[2].min(b.rect[2]) - a.rect[0].max(b.rect[0]);
            let overlap_y = a.rect[3].min(b.rect[3]) - a.rect[1].max(b.rect[1]);
            if overlap_x > slack && overlap_y > slack {
                return Some(format!(
                    "page {page}: {:?} {:?} overlaps {:?} {:?}",
                    a.text, a.rect, b.text, b.rect
                ));
            }
        }
    }
    None
}

pub fn assert_clear(pdf: &lopdf::Document, page: u32, size: (f32, f32)) {
    if let Some(clash) = clash(pdf, page, size) {
        panic!("{clash}");
    }
}

/// The points of the first path drawn after the clip on a page, in mm.
pub fn clipped_path_points(pdf: &lopdf::Document, page: u32) -> Vec<(f32, f32)> {
    let id = pdf.get_pages()[&page];
    let content = pdf.get_and_decode_page_content(id).unwrap();
    let mut after_clip = false;
    let mut points = Vec::new();
    for op in &content.operations {
        let num = |k: usize| op.operands[k].as_float().unwrap() * 25.4 / 72.0;
        match op.operator.as_str() {
            "W" => after_clip = true,
            "m" | "l" if after_clip => points.push((num(0), num(1))),
            "c" if after_clip => points.push((num(4), num(5))),
            "f" | "B" | "b" | "S" | "s" if after_clip && !points.is_empty() => break,
            _ => {}
        }
    }
    points
}
