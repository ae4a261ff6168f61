//! *File > Invite a remote player* (docs: "Playing remotely"): the host
//! chooses which side plays from another machine and through which relay,
//! and gets that seat's ticket as text to paste, a `muster://` link and a
//! QR code. The ticket opens that one seat of this game: whoever holds it
//! may take the seat, so it goes to that player alone.

use super::Linked;
use eframe::egui;
use muster::core::side::{Side, Sides};
use muster_remote::{Net, Relays, Ticket};

/// What the shell is told of the window's remote game, once a frame.
#[derive(Clone)]
pub struct RemoteView {
    pub away: Side,
    pub ticket: Option<Ticket>,
    pub linked: Linked,
}

/// The invite window.
pub struct InviteWindow {
    pub open: bool,
    side: Side,
    /// A club's relay, if the players use their own.
    relay: String,
    error: Option<String>,
    /// The ticket's QR code as drawn, and the text it was drawn for.
    code: Option<(String, egui::TextureHandle)>,
}

impl Default for InviteWindow {
    fn default() -> InviteWindow {
        InviteWindow {
            open: false,
            side: Side::North,
            relay: String::new(),
            error: None,
            code: None,
        }
    }
}

/// How endpoints reach each other: `base` (iroh's public relays, or what
/// Muster was started with), or the club's relay typed in `relay`.
pub fn net_with(base: &Net, relay: &str) -> Result<Net, String> {
    let mut net = base.clone();
    if !relay.trim().is_empty() {
        net.relays = Relays::own(relay)?;
    }
    Ok(net)
}

/// The relay a remote game goes through: `base`'s, unless the players
/// name their club's own; then what went wrong, if anything.
pub fn relay_field(ui: &mut egui::Ui, relay: &mut String, base: &Net, error: Option<&str>) {
    ui.label(format!(
        "Relay (carries the game when the two machines cannot reach each other directly): {}. To use your club's own, type its address here; type none when both machines are on the same network.",
        relays_words(base)
    ));
    // Each field's name over it, where the eye looks first.
    let name = ui.label("Club relay").id;
    ui.add(
        egui::TextEdit::singleline(relay)
            .hint_text("https://relay.example.org")
            .desired_width(f32::INFINITY),
    )
    .labelled_by(name);
    if let Some(error) = error {
        ui.colored_label(ui.visuals().error_fg_color, error);
    }
}

/// The relays `net` uses, in words.
pub fn relays_words(net: &Net) -> &'static str {
    match net.relays {
        Relays::Public => "iroh's public relays",
        Relays::Own(_) => "the relay named when Muster was started",
        Relays::Map(_) => "this machine's own relay",
        Relays::Off => "no relay (the same network only)",
    }
}

impl InviteWindow {
    /// The window, over the game whose remote end is `view` (none yet):
    /// the side and `Net` to invite with, when the host asks.
    pub fn show(
        &mut self,
        ctx: &egui::Context,
        view: Option<&RemoteView>,
        names: &Sides<String>,
        base: &Net,
        ready: Result<(), String>,
    ) -> Option<(Side, Net, Option<String>)> {
        let mut open = self.open;
        let mut asked = None;
        egui::Window::new("Invite a remote player")
            .open(&mut open)
            .default_width(520.0)
            .default_pos(crate::app::under_menu(ctx, 520.0))
            .show(ctx, |ui| match view {
                Some(view) => self.ticket_ui(ui, view, names),
                None => asked = self.choose_ui(ui, names, base, ready),
            });
        self.open = open;
        asked
    }

    fn choose_ui(
        &mut self,
        ui: &mut egui::Ui,
        names: &Sides<String>,
        base: &Net,
        ready: Result<(), String>,
    ) -> Option<(Side, Net, Option<String>)> {
        if let Err(why) = ready {
            ui.label(why);
            return None;
        }
        ui.label("The other player plays from their own Muster, on their own machine: their secrets, their passphrase and their half of every die stay there. They need the same version of Muster.");
        ui.add_space(6.0);
        ui.label("Who plays from the other machine?");
        ui.horizontal(|ui| {
            for side in Side::BOTH {
                ui.radio_value(&mut self.side, side, names[side].as_str());
            }
        });
        ui.add_space(6.0);
        relay_field(ui, &mut self.relay, base, self.error.as_deref());
        if ui.button("Make the ticket").clicked() {
            match net_with(base, &self.relay) {
                Ok(net) => {
                    self.error = None;
                    let relay = Some(self.relay.trim().to_string()).filter(|r| !r.is_empty());
                    return Some((self.side, net, relay));
                }
                Err(why) => self.error = Some(why),
            }
        }
        None
    }

    fn ticket_ui(&mut self, ui: &mut egui::Ui, view: &RemoteView, names: &Sides<String>) {
        let who = &names[view.away];
        let Some(ticket) = &view.ticket else {
            match &view.linked {
                Linked::Failed(why) => {
                    ui.colored_label(ui.visuals().error_fg_color, why);
                }
                _ => {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label("Reaching the relay to make the ticket…");
                    });
                }
            }
            return;
        };
        ui.label(format!("Send {who} this ticket, by a message only they read: whoever holds it takes their seat. In their Muster: File > Join a game, and paste it (or open the link, or scan the code)."));
        let text = ticket.text();
        let mut shown = text.as_str();
        let name = ui.label("Ticket").id;
        ui.add(
            egui::TextEdit::multiline(&mut shown)
                .font(egui::TextStyle::Monospace)
                .desired_rows(4)
                .desired_width(f32::INFINITY),
        )
        .labelled_by(name);
        ui.horizontal(|ui| {
            if ui.button("Copy the ticket").clicked() {
                ui.ctx().copy_text(text.clone());
            }
            if ui.button("Copy the link").clicked() {
                ui.ctx().copy_text(ticket.link());
            }
        });
        if self.code.as_ref().is_none_or(|(t, _)| *t != text) {
            let texture = ui.ctx().load_texture(
                "remote-ticket",
                crate::app::players::qr_image(&ticket.link()),
                egui::TextureOptions::NEAREST,
            );
            self.code = Some((text.clone(), texture));
        }
        if let Some((_, texture)) = &self.code {
            ui.add(
                egui::Image::new(texture)
                    .fit_to_exact_size(egui::vec2(220.0, 220.0))
                    .alt_text(format!("{who}'s ticket")),
            );
        }
        ui.label(match &view.linked {
            Linked::Connected { program } => format!("{who} is connected ({program})."),
            Linked::Dropped { .. } => {
                format!("{who}'s connection dropped: it comes back by itself.")
            }
            _ => format!("Waiting for {who} to join…"),
        });
    }
}
