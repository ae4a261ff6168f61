//! *File > Players' screens*: each player pairs his phone by scanning his
//! seat's QR code, and his private screens go there instead of behind the
//! hand-over screen. This window only draws and asks: the seats
//! (`seating`) start and stop the server, pair and let go, and say where
//! each seat stands. A code (which carries the seat's key) is shown for
//! one seat at a time, when it is made or asked for again, and goes away
//! once his phone holds the seat.

use crate::app::bus::PlayersMsg;
use crate::app::bus::{Bus, Msg};
use crate::app::seating::{Life, Seating};
use eframe::egui;
use muster::core::side::{Side, Sides};
use muster::seats::server::{Address, local_addresses};
use std::net::IpAddr;

#[derive(Default)]
pub struct PlayersWindow {
    pub open: bool,
    /// Whether both seats were on their phones last frame: the window goes
    /// once they are (it would cover the table, and nothing is left to
    /// pair).
    both: bool,
    /// The code shown, made once per pairing: the seat and its address.
    code: Option<(Side, String, egui::TextureHandle)>,
    /// The laptop's addresses, looked up as the window opens (never every
    /// frame: the lookup asks the system for every interface).
    addresses: Option<Vec<Address>>,
}

impl PlayersWindow {
    pub fn show(
        &mut self,
        ctx: &egui::Context,
        seating: &mut Seating,
        names: &Sides<String>,
        bus: &Bus,
    ) {
        let both = Side::BOTH.iter().all(|s| seating.life(*s) == Life::OnPhone);
        if both && !self.both {
            self.open = false;
        }
        self.both = both;
        let mut open = self.open;
        egui::Window::new("Players' screens")
            .open(&mut open)
            .default_width(520.0)
            // Clear of the menu bar and the table's left column: centred
            // under the menu.
            .default_pos(crate::app::under_menu(ctx, 520.0))
            .show(ctx, |ui| self.ui(ui, seating, names, bus));
        self.open = open;
        if !self.open {
            self.addresses = None;
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, seating: &mut Seating, names: &Sides<String>, bus: &Bus) {
        let send = |msg| bus.send(Msg::Players(msg));
        ui.label("Each player scans their own code with their phone's camera: their browser opens their private screen, and nothing secret shows here any more. Everything crosses the local network sealed with their seat's key, which only the code carries.");
        let Some(addr) = seating.phones.addr() else {
            let addresses = self.addresses.get_or_insert_with(local_addresses);
            let chosen = seating
                .phones
                .host
                .or_else(|| addresses.first().map(|a| a.ip));
            let describe = |ip: IpAddr| {
                addresses
                    .iter()
                    .find(|a| a.ip == ip)
                    .map_or(ip.to_string(), |a| a.describe())
            };
            ui.horizontal(|ui| {
                let label = ui.label("This laptop's address for the phones");
                egui::ComboBox::from_id_salt("players-address")
                    .selected_text(chosen.map_or("none found".into(), describe))
                    .show_ui(ui, |ui| {
                        for address in addresses.iter() {
                            ui.selectable_value(
                                &mut seating.phones.host,
                                Some(address.ip),
                                address.describe(),
                            );
                        }
                    })
                    .response
                    .labelled_by(label.id);
            });
            ui.weak(
                "The Wi-Fi address is usually the one: each phone must be on the same network.",
            );
            if ui.button("Start the players' screens").clicked() {
                let host = chosen.unwrap_or(IpAddr::from([127, 0, 0, 1]));
                seating.phones.host = Some(host);
                send(PlayersMsg::Start(host));
            }
            if let Some(e) = &seating.phones.error {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            return;
        };
        ui.weak(format!("Serving on {addr}"));
        for side in Side::BOTH {
            ui.separator();
            // Each seat's buttons keep their ids whatever the other seat's
            // section shows (a click never lands on a shifted button).
            ui.push_id(("seat", side), |ui| {
            let name = &names[side];
            let whose = muster_core::text::possessive(name);
            let life = seating.life(side);
            ui.strong(format!("{whose} seat: {}", life.words()));
            ui.horizontal_wrapped(|ui| {
                if ui.button(format!("Pair {whose} phone (new code)")).clicked() {
                    send(PlayersMsg::Pair(side));
                }
                let shown = self.code.as_ref().is_some_and(|(s, ..)| *s == side);
                if seating.code(side).is_some()
                    && !shown
                    && ui.button(format!("Show {whose} code again")).clicked()
                {
                    send(PlayersMsg::ShowCode(Some(side)));
                }
                if matches!(life, Life::CodeShown | Life::OnPhone | Life::Lost)
                    && ui
                        .button(format!("Let {whose} seat go"))
                        .on_hover_text("Their phone stops; their secrets are shown on this laptop again, behind the hand-over screen")
                        .clicked()
                {
                    send(PlayersMsg::Release(side));
                }
            });
            if seating.showing == Some(side)
                && let Some(url) = seating.code(side)
            {
                let fresh = !self
                    .code
                    .as_ref()
                    .is_some_and(|(s, u, _)| *s == side && u == url);
                if fresh {
                    let texture = ui.ctx().load_texture(
                        format!("seat-{}", side.name().to_lowercase()),
                        qr_image(url),
                        egui::TextureOptions::NEAREST,
                    );
                    self.code = Some((side, url.to_string(), texture));
                }
                if let Some((_, _, texture)) = &self.code {
                    ui.add(
                        egui::Image::new(texture)
                            .fit_to_exact_size(egui::vec2(220.0, 220.0))
                            .alt_text(format!("{whose} code")),
                    );
                }
                ui.weak(format!("Only {name} scans this code: whoever scans it holds their seat until it is paired again."));
                if let Some(waited) = seating.unscanned(side) {
                    if waited >= UNSCANNED {
                        ui.colored_label(ui.visuals().warn_fg_color, NOT_REACHED);
                    } else {
                        ui.ctx().request_repaint_after(UNSCANNED - waited);
                    }
                }
                if ui.button(format!("Hide {whose} code")).clicked() {
                    send(PlayersMsg::ShowCode(None));
                }
            }
            });
        }
        if seating.showing.is_none() {
            self.code = None;
        }
        let refused = seating.phones.refusals();
        if refused.count > 0 {
            ui.separator();
            ui.label(format!(
                "{} connection{} refused or closed; the last:",
                refused.count,
                if refused.count == 1 { "" } else { "s" }
            ));
            for why in refused.last.iter().rev().take(3) {
                ui.weak(why);
            }
        }
        ui.separator();
        if ui.button("Stop the players' screens").clicked() {
            send(PlayersMsg::Stop);
        }
        if let Some(e) = &seating.phones.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
    }
}

/// How long a code may be shown with no phone opening its page before the
/// window says why that may be.
const UNSCANNED: std::time::Duration = std::time::Duration::from_secs(60);

const NOT_REACHED: &str = "No phone has opened this code's page yet. If their phone did scan it: it may be on another network, or on mobile data; a guest Wi-Fi may keep devices apart; the laptop's firewall may block the port shown above. Try the laptop's own hotspot: their phone joins it, and this window offers its address.";

/// A QR code as an image, a quiet zone of four modules around it.
pub(crate) fn qr_image(url: &str) -> egui::ColorImage {
    let Ok(code) = qrcode::QrCode::new(url.as_bytes()) else {
        return egui::ColorImage::new([1, 1], vec![egui::Color32::WHITE]);
    };
    let width = code.width();
    let size = width + 8;
    let mut pixels = vec![egui::Color32::WHITE; size * size];
    for (i, colour) in code.to_colors().into_iter().enumerate() {
        if colour == qrcode::Color::Dark {
            pixels[(i / width + 4) * size + i % width + 4] = egui::Color32::BLACK;
        }
    }
    egui::ColorImage::new([size, size], pixels)
}
