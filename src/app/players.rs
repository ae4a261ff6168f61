//! *File > Players' screens*: each player pairs his phone by scanning his
//! seat's QR code, and his private screens go there instead of behind the
//! hand-over screen. The window starts the server (`muster::seats`) on the
//! address the players pick, shows a code per seat (a new pairing makes a
//! new token and key and lets the old device go), says who is on his
//! phone, and carries screens and answers between the phones and the
//! system's window. Stopped when the players say so or the app closes.

use crate::app::system::SystemWindow;
use eframe::egui;
use muster::core::intel::PlayerKey;
use muster::core::passphrase_screen::{self, Answer, Purpose};
use muster::core::screen::{Block, Reply, Screen};
use muster::core::side::{Side, Sides};
use muster::seats::server::{FromPhone, Pairing, Server, local_addresses};
use std::net::{IpAddr, SocketAddr};
use std::sync::mpsc;

/// The port the server listens on by default.
const PORT: u16 = 7878;

/// A player unlocking a reopened game on his phone: his key being worked
/// out (Argon2id, off the window's thread), or why his last try failed.
#[derive(Default)]
struct Unlocking {
    working: Option<mpsc::Receiver<Result<PlayerKey, String>>>,
    refusal: Option<String>,
}

#[derive(Default)]
pub struct PlayersWindow {
    pub open: bool,
    server: Option<Server>,
    /// The address the QR codes name (the user picks it if several).
    host: Option<IpAddr>,
    pairings: Sides<Option<Pairing>>,
    /// Each seat's QR code, made once per pairing.
    codes: Sides<Option<egui::TextureHandle>>,
    unlocking: Sides<Unlocking>,
    /// Woken when a key is worked out.
    ctx: Option<egui::Context>,
    error: Option<String>,
}

impl PlayersWindow {
    /// The sides whose phone holds their seat now.
    pub fn on_phones(&self) -> Sides<bool> {
        let paired = |side| self.server.as_ref().is_some_and(|s| s.paired(side));
        Sides {
            south: paired(Side::South),
            north: paired(Side::North),
        }
    }

    /// Starts the server on `bind` (tests: 127.0.0.1, any port).
    pub fn start(&mut self, bind: SocketAddr, ctx: &egui::Context) -> Result<SocketAddr, String> {
        let wake = ctx.clone();
        self.ctx = Some(ctx.clone());
        let server = Server::start(bind, move || wake.request_repaint())?;
        let addr = server.addr();
        self.host.get_or_insert(addr.ip());
        self.server = Some(server);
        Ok(addr)
    }

    /// Pairs `side`'s seat anew; its URL on the chosen address.
    pub fn pair(&mut self, side: Side) -> Result<String, String> {
        let server = self
            .server
            .as_ref()
            .ok_or("start the players' screens first")?;
        let pairing = server.pair(side)?;
        let host = SocketAddr::new(
            self.host.unwrap_or(server.addr().ip()),
            server.addr().port(),
        );
        let url = pairing.url(&host.to_string());
        self.pairings[side] = Some(pairing);
        self.codes[side] = None;
        Ok(url)
    }

    /// Lets `side`'s seat go: his phone is closed and his code no longer
    /// opens it; he is back on the hand-over screen.
    pub fn release(&mut self, side: Side) {
        if let Some(server) = &self.server {
            server.release(side);
        }
        self.pairings[side] = None;
        self.codes[side] = None;
    }

    /// Sends each paired phone its screen (his passphrase screen while the
    /// reopened game waits for his unlock), and hands what the phones sent
    /// to the system's window.
    pub fn carry(&mut self, system: &mut dyn SystemWindow) {
        let Some(server) = &self.server else {
            return;
        };
        system.on_phones(self.on_phones());
        // A new game's form: a paired player sets his passphrase there.
        if let Some((passphrases, names)) = system.new_game_passphrases() {
            for side in Side::BOTH {
                if server.paired(side)
                    && let Some(json) = passphrases
                        .phone_screen(side, names[side].trim())
                        .and_then(|s| serde_json::to_string(&s).ok())
                {
                    server.show(side, json);
                }
            }
            for event in server.drain() {
                if let FromPhone::Message(side, message) = event
                    && let Some(reply) = message
                        .get("reply")
                        .and_then(|r| serde_json::from_value::<Reply>(r.clone()).ok())
                {
                    passphrases.phone_answer(side, &reply);
                }
            }
            return;
        }
        let locked = system.locked_seats();
        for side in Side::BOTH {
            let unlocking = &mut self.unlocking[side];
            if let Some(working) = &unlocking.working
                && let Ok(worked) = working.try_recv()
            {
                unlocking.working = None;
                unlocking.refusal = worked.and_then(|key| system.unlock_with(side, key)).err();
            }
            if !server.paired(side) {
                continue;
            }
            let screen = match locked.iter().find(|(s, ..)| *s == side) {
                Some((_, name, _)) if unlocking.working.is_some() => Some(Screen {
                    title: format!("{name}, your passphrase"),
                    blocks: vec![Block::Text {
                        text: "Working out the key (Argon2id, slow on purpose)…".into(),
                    }],
                }),
                Some((_, name, _)) => Some(passphrase_screen::screen(
                    name,
                    Purpose::Unlock,
                    None,
                    unlocking.refusal.as_deref(),
                )),
                None => system.phone_screen(side),
            };
            if let Some(json) = screen.and_then(|s| serde_json::to_string(&s).ok()) {
                server.show(side, json);
            }
        }
        for event in server.drain() {
            let FromPhone::Message(side, message) = event else {
                continue;
            };
            if let Some(hex) = message
                .get("click")
                .and_then(|h| h.as_str())
                .and_then(|h| muster::core::hexmap::Hex::parse(h).ok())
            {
                system.phone_click(side, hex);
                continue;
            }
            // A drag: the hexes it passed, its counter's first; at most
            // a map's worth, each a hex of the map's names.
            if let Some(hexes) = message.get("drag").and_then(|d| d.as_array()) {
                let hexes: Option<Vec<muster::core::hexmap::Hex>> = hexes
                    .iter()
                    .take(2 * muster::core::hexmap::MAX_SIDE as usize)
                    .map(|h| {
                        h.as_str()
                            .and_then(|h| muster::core::hexmap::Hex::parse(h).ok())
                    })
                    .collect();
                if let Some([from, path @ ..]) = hexes.as_deref()
                    && !path.is_empty()
                {
                    system.phone_drag(side, *from, path);
                }
                continue;
            }
            if let Some(values) = message
                .get("values")
                .and_then(|v| serde_json::from_value(v.clone()).ok())
            {
                system.phone_values(side, values);
                continue;
            }
            let Some(reply) = message
                .get("reply")
                .and_then(|r| serde_json::from_value::<Reply>(r.clone()).ok())
            else {
                continue;
            };
            match locked.iter().find(|(s, ..)| *s == side) {
                // His passphrase crossed the network sealed; the key is
                // worked out on a thread of its own.
                Some((_, _, lock)) => match passphrase_screen::read(Purpose::Unlock, &reply) {
                    Ok(Answer::Passphrase(passphrase)) => {
                        let (send, receive) = mpsc::channel();
                        let lock = lock.clone();
                        let ctx = self.ctx.clone();
                        std::thread::spawn(move || {
                            let _ = send.send(lock.unlock(&passphrase).map_err(|e| e.message));
                            if let Some(ctx) = ctx {
                                ctx.request_repaint();
                            }
                        });
                        self.unlocking[side] = Unlocking {
                            working: Some(receive),
                            refusal: None,
                        };
                    }
                    Ok(_) => {}
                    Err(why) => self.unlocking[side].refusal = Some(why),
                },
                None => system.phone_answer(side, reply),
            }
        }
    }

    fn url(&self, side: Side) -> Option<String> {
        let server = self.server.as_ref()?;
        let pairing = self.pairings[side].as_ref()?;
        let host = SocketAddr::new(self.host?, server.addr().port());
        Some(pairing.url(&host.to_string()))
    }

    pub fn show(&mut self, ctx: &egui::Context, names: &Sides<String>) {
        let mut open = self.open;
        egui::Window::new("Players' screens")
            .open(&mut open)
            .default_width(520.0)
            .show(ctx, |ui| self.ui(ui, names));
        self.open = open;
    }

    fn ui(&mut self, ui: &mut egui::Ui, names: &Sides<String>) {
        ui.label("Each player scans his own code with his phone's camera: his browser opens his private screen, and nothing secret shows here any more. Everything crosses the local network sealed with his seat's key, which only the code carries.");
        if self.server.is_none() {
            let addresses = local_addresses();
            let chosen = self.host.or_else(|| addresses.first().copied());
            ui.horizontal(|ui| {
                ui.label("This laptop's address for the phones:");
                egui::ComboBox::from_id_salt("players-address")
                    .selected_text(chosen.map_or("none found".into(), |a| a.to_string()))
                    .show_ui(ui, |ui| {
                        for address in &addresses {
                            ui.selectable_value(
                                &mut self.host,
                                Some(*address),
                                address.to_string(),
                            );
                        }
                    });
            });
            if ui.button("Start the players' screens").clicked() {
                let host = chosen.unwrap_or(IpAddr::from([127, 0, 0, 1]));
                self.host = Some(host);
                match self.start(SocketAddr::new(host, PORT), ui.ctx()) {
                    Ok(_) => self.error = None,
                    Err(e) => self.error = Some(e),
                }
            }
        } else {
            let on = self.on_phones();
            for side in Side::BOTH {
                ui.separator();
                let name = &names[side];
                ui.strong(if on[side] {
                    format!("{name}: on his phone")
                } else {
                    format!("{name}: not paired")
                });
                if ui
                    .button(format!("Pair {name}'s phone (new code)"))
                    .clicked()
                    && let Err(e) = self.pair(side)
                {
                    self.error = Some(e);
                }
                if (on[side] || self.pairings[side].is_some())
                    && ui
                        .button(format!("Let {name}'s seat go"))
                        .on_hover_text("His phone stops; his secrets are shown on this laptop again, behind the hand-over screen")
                        .clicked()
                {
                    self.release(side);
                }
                if let Some(url) = self.url(side) {
                    let texture = self.codes[side].get_or_insert_with(|| {
                        ui.ctx().load_texture(
                            format!("seat-{side}"),
                            qr_image(&url),
                            egui::TextureOptions::NEAREST,
                        )
                    });
                    ui.add(egui::Image::new(&*texture).fit_to_exact_size(egui::vec2(220.0, 220.0)));
                    ui.weak("Whoever scans this code holds the seat until it is paired again: show it to its player only.");
                }
            }
            ui.separator();
            if ui.button("Stop the players' screens").clicked() {
                *self = PlayersWindow {
                    open: true,
                    ..Default::default()
                };
            }
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
    }
}

/// A QR code as an image, a quiet zone of four modules around it.
fn qr_image(url: &str) -> egui::ColorImage {
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

/// What a system's window keeps of each player's phone: the form he fills
/// there (merged, so a hex tapped on his map stays when he ticks a unit)
/// and the refusal of his last answer, shown first on his phone only.
#[derive(Default)]
pub struct PhoneForms {
    forms: Sides<muster::core::screen::Values>,
    refusals: Sides<Option<String>>,
}

impl PhoneForms {
    pub fn form(&self, side: Side) -> &muster::core::screen::Values {
        &self.forms[side]
    }

    pub fn form_mut(&mut self, side: Side) -> &mut muster::core::screen::Values {
        &mut self.forms[side]
    }

    /// Forgets his form and his refusal: the step they were for is over.
    pub fn clear(&mut self, side: Side) {
        self.forms[side].clear();
        self.refusals[side] = None;
    }

    /// What the page sent last, on top of what the laptop holds.
    pub fn merge(&mut self, side: Side, values: muster::core::screen::Values) {
        self.forms[side].extend(values);
    }

    /// His answer with his form as the laptop holds it (hexes he tapped)
    /// and what the page sent with it on top.
    pub fn reply(&mut self, side: Side, reply: Reply) -> Reply {
        self.merge(side, reply.values);
        Reply {
            command: reply.command,
            values: self.forms[side].clone(),
        }
    }

    /// His screen, his last refusal first.
    pub fn screen(&self, side: Side, mut screen: Screen) -> Screen {
        if let Some(why) = &self.refusals[side] {
            screen
                .blocks
                .insert(0, Block::Refusal { text: why.clone() });
        }
        screen
    }

    /// His answer taken (the fields it used up, `spent`, emptied) or
    /// refused (why, for his phone); whether it was taken.
    pub fn answered(&mut self, side: Side, result: Result<(), String>, spent: &[&str]) -> bool {
        match result {
            Ok(()) => {
                self.refusals[side] = None;
                for field in spent {
                    self.forms[side].remove(*field);
                }
                true
            }
            Err(why) => {
                self.refusals[side] = Some(why);
                false
            }
        }
    }
}
