//! A player's hands on the window and on his phone, counted (issues 25 and
//! 32): the helper that performs a click, a typed field, a key, a drag, a
//! scroll or a tap is the one that counts it, so a count is what was done,
//! never a sum typed beside it. The Field of Glory walk and the hidden-forces and
//! dummy-wings turns count through it.

use crate::app::MusterApp;
use crate::app::phone_kit::Phone;
use crate::app::tests::{click, drag_through, replace_text, type_into, worked};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use muster::core::side::Side;
use muster::core::text::possessive;

pub(crate) struct Walker {
    pub h: Harness<'static, MusterApp>,
    /// Everything the players did so far, each counted where it was done.
    pub interactions: usize,
}

impl Walker {
    pub fn new(h: Harness<'static, MusterApp>) -> Walker {
        Walker { h, interactions: 0 }
    }

    /// Brings the widget labelled so into view as a player scrolls to it:
    /// one interaction when it had to move.
    pub fn reach(&mut self, label: &str) {
        let Some(node) = self.h.query_by_label(label) else {
            return;
        };
        let before = node.rect();
        // Whole in sight (inside whatever clips it), it needs no scroll;
        // AccessKit's scroll-into-view would centre it all the same.
        // SAFETY: an AccessKit node id of egui's is an egui Id's own
        // high-entropy value, never zero.
        let id = unsafe { egui::Id::from_high_entropy_bits(node.accesskit_node().locate().0.0) };
        let seen = self
            .h
            .ctx
            .read_response(id)
            .is_some_and(|r| r.interact_rect.contains_rect(r.rect));
        if seen {
            return;
        }
        self.h.get_by_label(label).scroll_to_me();
        self.h.run();
        if self.h.query_by_label(label).map(|n| n.rect()) != Some(before) {
            self.interactions += 1;
        }
    }

    /// A click on the widget labelled so (scrolled to first, if need be).
    pub fn click(&mut self, label: &str) {
        self.reach(label);
        click(&mut self.h, label);
        self.interactions += 1;
    }

    /// A field typed into (focused, typed, left).
    pub fn fill(&mut self, label: &str, text: &str) {
        self.reach(label);
        type_into(&mut self.h, label, text);
        self.interactions += 1;
    }

    /// A field's text replaced.
    pub fn replace(&mut self, label: &str, text: &str) {
        self.reach(label);
        replace_text(&mut self.h, label, text);
        self.interactions += 1;
    }

    /// One drag of the pointer through `points`.
    pub fn drag(&mut self, points: &[egui::Pos2]) {
        drag_through(&mut self.h, points);
        self.interactions += 1;
    }

    /// He sets his new game's passphrase on his own screen: *Set South's
    /// passphrase…*, then on the hand-over screen the passphrase twice
    /// (Enter sets it).
    pub fn set_passphrase(&mut self, side: Side, name: &str, pass: &str) {
        self.click(&format!("Set {side}'s passphrase…"));
        self.fill(&format!("{} passphrase", possessive(name)), pass);
        self.fill_and_enter(&format!("{} passphrase again", possessive(name)), pass);
        worked(&mut self.h);
    }

    /// `name` proves it is he on the hand-over screen that gives him the
    /// laptop: his
    /// hand-over PIN when he chose one, else his passphrase, with `pin`
    /// chosen beside it (empty: none).
    pub fn prove(&mut self, name: &str, passphrase: &str, pin: &str) {
        let pin_field = format!("{} hand-over PIN", possessive(name));
        if self.h.query_by_label(&pin_field).is_some() {
            self.fill_and_enter(&pin_field, pin);
            return;
        }
        let typed = format!("{} passphrase", possessive(name));
        let choose = format!(
            "{} hand-over PIN for this sitting (optional)",
            possessive(name)
        );
        if pin.is_empty() {
            self.fill_and_enter(&typed, passphrase);
        } else {
            self.fill(&typed, passphrase);
            self.fill_and_enter(&choose, pin);
        }
        worked(&mut self.h);
    }

    /// A field typed into and ended with Enter, which takes its form's
    /// first action: one interaction, as writing a word down is one.
    pub fn fill_and_enter(&mut self, label: &str, text: &str) {
        self.reach(label);
        type_into(&mut self.h, label, text);
        self.h.get_by_label(label).focus();
        self.h.run();
        self.h.key_press(egui::Key::Enter);
        self.h.run();
        self.interactions += 1;
    }

    /// A tap on his phone's button labelled so.
    pub fn tap(&mut self, phone: &mut Phone, label: &str) {
        phone.tap(label);
        self.interactions += 1;
    }

    /// His form's fields set on his phone, each a tap or a few letters:
    /// one interaction a field.
    pub fn answer(&mut self, phone: &mut Phone, values: serde_json::Value) {
        let fields = values.as_object().map_or(0, serde_json::Map::len);
        phone.fill(values);
        self.interactions += fields;
    }

    /// A finger's trace on his phone's map through `hexes`.
    pub fn trace(&mut self, phone: &mut Phone, hexes: &[&str]) {
        phone.drag(hexes);
        self.interactions += 1;
    }
}
