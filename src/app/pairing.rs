//! Pairing a phone as the players do it (tests only): *File > Players'
//! screens…*, this laptop's address (127.0.0.1: tests never listen on
//! another), *Start the players' screens*, *Pair X's phone*, and the QR
//! code read back from the texture the window drew, as a phone's camera
//! reads the screen. The window's textures are kept by the test's renderer
//! (`Textures`), which the harness hands every texture upload to.

use crate::app::MusterApp;
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use muster::core::side::Side;
use std::cell::RefCell;
use std::collections::HashMap;

thread_local! {
    /// The textures this thread's harness uploaded, by id: each test runs
    /// its harness on a thread of its own.
    static TEXTURES: RefCell<HashMap<egui::TextureId, egui::ImageData>> = RefCell::new(HashMap::new());
}

/// The harness's renderer: it keeps every texture the window uploads.
#[derive(Default)]
pub struct Textures;

impl Textures {
    /// A fresh store, for a new harness on this thread.
    pub fn new() -> Textures {
        TEXTURES.with(|t| t.borrow_mut().clear());
        Textures
    }
}

impl egui_kittest::TestRenderer for Textures {
    fn handle_delta(&mut self, delta: &mut egui::TexturesDelta) {
        TEXTURES.with(|t| {
            let mut t = t.borrow_mut();
            for (id, images) in &delta.set {
                // A whole texture (a partial update is the font atlas's).
                for image in images.iter().filter(|i| i.pos.is_none()) {
                    t.insert(*id, image.image.clone());
                }
            }
            for id in &delta.free {
                t.remove(id);
            }
        });
        delta.clear();
    }
}

/// The QR code the window shows for `side`'s seat, decoded from its
/// texture: the seat's address.
pub fn read_code(h: &Harness<'_, MusterApp>, side: Side) -> Option<String> {
    let name = format!("seat-{}", side.name().to_lowercase());
    let id = {
        let manager = h.ctx.tex_manager();
        let manager = manager.read();
        manager
            .allocated()
            .find(|(_, meta)| meta.name == name)
            .map(|(id, _)| *id)?
    };
    let image = TEXTURES.with(|t| t.borrow().get(&id).cloned())?;
    let egui::ImageData::Color(image) = image;
    let [w, h] = image.size;
    // Four pixels a module, as a camera sees it larger than the texture.
    let scale = 4;
    let mut prepared = rqrr::PreparedImage::prepare_from_greyscale(w * scale, h * scale, |x, y| {
        image.pixels[(y / scale) * w + x / scale].r()
    });
    let grids = prepared.detect_grids();
    let (_, url) = grids.first()?.decode().ok()?;
    Some(url)
}

fn click(h: &mut Harness<'_, MusterApp>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

/// Opens *File > Players' screens…* and starts them on 127.0.0.1, if they
/// are not started yet.
pub fn start(h: &mut Harness<'_, MusterApp>) {
    if h.query_by_label("Stop the players' screens").is_some() {
        return;
    }
    if h.query_by_label("Start the players' screens").is_none() {
        click(h, "File");
        click(h, "Players' screens…");
    }
    click(h, "This laptop's address for the phones");
    // The choice in the open list (drawn last), not the combo's own text.
    let loopback = h
        .query_all_by_label_contains("127.0.0.1 (")
        .filter_map(|n| n.accesskit_node().label())
        .next_back()
        .expect("this laptop's own address is offered");
    click(h, &loopback);
    click(h, "Start the players' screens");
    assert!(
        h.query_by_label("Stop the players' screens").is_some(),
        "the players' screens did not start"
    );
}

/// Closes the players' screens window, as a player does once his phone
/// holds his seat (it floats over the table).
pub fn close(h: &mut Harness<'_, MusterApp>) {
    if h.query_by_label("Stop the players' screens").is_some() {
        h.get_by_label("Close window").click();
        h.run();
    }
}

/// `side`'s seat paired from the window, as its player would: the address
/// his phone opens, read from the QR code on the screen.
pub fn pair(h: &mut Harness<'_, MusterApp>, side: Side, name: &str) -> String {
    start(h);
    click(
        h,
        &format!(
            "Pair {} phone (new code)",
            muster::core::text::possessive(name)
        ),
    );
    for _ in 0..10 {
        h.run();
        if let Some(url) = read_code(h, side) {
            return url;
        }
    }
    panic!("no readable code for {name}'s seat");
}
