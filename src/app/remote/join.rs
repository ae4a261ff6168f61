//! *File > Join a game* and `muster join TICKET` (docs: "Playing
//! remotely"): the joiner pastes the host's ticket (its text or its
//! `muster://` link); his Muster dials the host off the window's thread,
//! receives the game as the host's file holds it, and opens it once it
//! reads as a file from the disk does (every entry replayed by the rules,
//! the chain checked). His side is then unlocked here, with his own
//! passphrase, before anything is played.

use super::invite::{net_with, relay_field};
use crate::app::bus::Bus;
use crate::app::status::Status;
use eframe::egui;
use muster::fog::battle::Battle;
use muster_remote::opening::{Arrived, Joining};
use muster_remote::{Link, Net, Ticket};
use std::sync::mpsc::{self, Receiver, TryRecvError};

/// A game that arrived by a join, as the system its file names reads it.
pub enum Arriving {
    Battle(Box<Battle>),
    Forces(Box<muster::map_intel::game::Game>),
    Wings(Box<muster::map_intel::wings::game::Game>),
    Deck(Box<muster::deck::Game>),
}

/// Reads the host's file as the system its format names.
fn read_any(file: &str) -> Result<Arriving, String> {
    use muster::core::remote::Replica;
    match muster::core::store::format_of(file).ok().as_deref() {
        Some(muster::map_intel::files::FORMAT) => {
            muster::map_intel::game::Game::from_file(file).map(|g| Arriving::Forces(Box::new(g)))
        }
        Some(muster::deck::files::FORMAT) => {
            muster::deck::Game::from_file(file).map(|g| Arriving::Deck(Box::new(g)))
        }
        Some(muster::map_intel::wings::files::FORMAT) => {
            muster::map_intel::wings::game::Game::from_file(file)
                .map(|g| Arriving::Wings(Box::new(g)))
        }
        _ => Battle::from_file(file).map(|b| Arriving::Battle(Box::new(b))),
    }
}

/// How far the joining is.
enum Stage {
    /// Dialing the host.
    Dialing(Receiver<Result<Link, String>>),
    /// Connected or connecting: waiting for the host's game.
    Joining(Joining),
}

/// The join window, and the joining under way.
#[derive(Default)]
pub struct JoinWindow {
    pub open: bool,
    /// The ticket as pasted.
    pub text: String,
    relay: String,
    error: Option<String>,
    stage: Option<Stage>,
    /// When the joining under way began.
    since: Option<std::time::Instant>,
    /// The ticket of the joining under way, as given.
    ticket: Option<String>,
}

/// How long a joining waits before the window says what to check.
const PATIENCE: std::time::Duration = std::time::Duration::from_secs(15);

impl JoinWindow {
    /// The ticket of the last joining, as given.
    pub fn ticket(&self) -> Option<String> {
        self.ticket.clone()
    }

    /// Joins the game `text` is the ticket of (its text or link), through
    /// `base` unless a club's relay is named: dialed off the window's
    /// thread. Why not, in words, if the ticket does not read.
    pub fn join(&mut self, text: &str, base: &Net, bus: &Bus) -> Result<(), String> {
        let ticket =
            Ticket::parse(text).map_err(|why| format!("That ticket does not read: {why}"))?;
        let net = net_with(base, &self.relay)?;
        let wake = super::waker(bus);
        let (tx, rx) = mpsc::channel();
        let done = wake.clone();
        std::thread::spawn(move || {
            let _ = tx.send(Link::join(net, ticket, wake));
            done();
        });
        self.error = None;
        self.ticket = Some(text.trim().to_string());
        self.stage = Some(Stage::Dialing(rx));
        self.since = Some(std::time::Instant::now());
        Ok(())
    }

    /// The game, once the host's has arrived and reads; what to tell the
    /// player meanwhile if something went wrong (the joining stops).
    pub fn poll(&mut self) -> Result<Option<Arrived<Arriving>>, String> {
        let outcome = match self.stage.take() {
            None => return Ok(None),
            Some(Stage::Dialing(rx)) => match rx.try_recv() {
                Ok(Ok(link)) => {
                    self.stage = Some(Stage::Joining(Joining::new(link)));
                    return self.poll();
                }
                Ok(Err(why)) => Err(why),
                Err(TryRecvError::Empty) => {
                    self.stage = Some(Stage::Dialing(rx));
                    return Ok(None);
                }
                Err(TryRecvError::Disconnected) => Err("the network thread stopped".into()),
            },
            Some(Stage::Joining(joining)) => {
                let refused = joining.said.iter().find_map(|e| match e {
                    muster_remote::Event::Refused(why) => Some(why.clone()),
                    _ => None,
                });
                if let Some(why) = refused {
                    Err(format!("the host's Muster refused this ticket: {why}"))
                } else {
                    match joining.poll_with(read_any) {
                        Ok(Ok(arrived)) => Ok(arrived),
                        Ok(Err(joining)) => {
                            self.stage = Some(Stage::Joining(joining));
                            return Ok(None);
                        }
                        Err(why) => Err(why),
                    }
                }
            }
        };
        self.since = None;
        match outcome {
            Ok(arrived) => {
                self.open = false;
                self.text.clear();
                Ok(Some(arrived))
            }
            Err(why) => {
                let said = format!("Not joined: {why}");
                self.error = Some(said.clone());
                self.open = true;
                Err(said)
            }
        }
    }

    /// Whether a joining is under way.
    pub fn joining(&self) -> bool {
        self.stage.is_some()
    }

    /// The window.
    pub fn show(&mut self, ctx: &egui::Context, base: &Net, bus: &Bus) -> Option<Status> {
        let mut open = self.open;
        let mut said = None;
        egui::Window::new("Join a game")
            .open(&mut open)
            .default_width(520.0)
            .default_pos(crate::app::under_menu(ctx, 520.0))
            .show(ctx, |ui| said = self.ui(ui, base, bus));
        self.open = open;
        said
    }

    fn ui(&mut self, ui: &mut egui::Ui, base: &Net, bus: &Bus) -> Option<Status> {
        ui.label("Paste the ticket the host sent you (it begins with muster1, or is a muster://join/ link). Your Muster opens their game; your secrets, your passphrase and your half of every die stay on this machine.");
        let name = ui.label("Ticket").id;
        ui.add(
            egui::TextEdit::multiline(&mut self.text)
                .font(egui::TextStyle::Monospace)
                .desired_rows(4)
                .desired_width(f32::INFINITY),
        )
        .labelled_by(name);
        relay_field(ui, &mut self.relay, base, self.error.as_deref());
        if self.joining() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Reaching the host's Muster…");
            });
            // What the last dial met, and after a while what to check.
            if let Some(Stage::Joining(joining)) = &self.stage
                && let Some(why) = joining.said.iter().rev().find_map(|e| match e {
                    muster_remote::Event::Dropped(why) => Some(why),
                    _ => None,
                })
            {
                ui.weak(format!("Not yet: {why}"));
            }
            if self.since.is_some_and(|t| t.elapsed() >= PATIENCE) {
                ui.label("The host's Muster does not answer yet. Check that it is running and hosting this game (its window says it waits for you to join), and that this is its latest ticket (File > Invite a remote player… on the host's shows it).");
            }
            if ui.button("Stop joining").clicked() {
                // Dropping the link ends its dialing.
                self.stage = None;
                self.since = None;
                return Some(Status::Info("Joining stopped".into()));
            }
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs(1));
            return None;
        }
        if ui.button("Join").clicked() {
            let text = self.text.clone();
            if let Err(why) = self.join(&text, base, bus) {
                self.error = Some(why.clone());
                return Some(Status::Error(why));
            }
        }
        None
    }
}
