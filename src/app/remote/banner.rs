//! The line over a remote game's window (docs: "Playing remotely"): how
//! the link stands, what the other machine refused (until the game moves
//! on), the audit at the game's end; and the status line's words for the
//! link's events.

use super::{Event, Linked, Remoted};
use crate::app::status::Status;
use eframe::egui;
use muster::core::remote::Replica;

impl<G: Replica> Remoted<G> {
    /// The line over the window that says how the link stands.
    pub fn banner(&self, ui: &mut egui::Ui, away_name: &str) {
        let (text, bad) = match &self.linked {
            Linked::Opening => ("reaching the relay to make the ticket…".to_string(), false),
            Linked::Waiting if self.hosting() => (
                "the ticket is made: waiting for them to join (File > Invite a remote player… shows it again)"
                    .to_string(),
                false,
            ),
            Linked::Waiting => ("connecting…".to_string(), false),
            Linked::Connected { program } => (format!("connected ({program})"), false),
            Linked::Dropped { why, since } => (
                {
                    // The seconds count on with no other news.
                    ui.ctx().request_repaint_after(std::time::Duration::from_secs(1));
                    format!(
                    "the connection dropped {} s ago: {why}. {} Nothing is lost",
                        since.elapsed().as_secs(),
                        redial(self.hosting())
                    )
                },
                true,
            ),
            Linked::Failed(why) => (format!("not connected: {why}"), true),
        };
        let line = format!("Remote game: {away_name} plays from their own Muster; {text}");
        ui.horizontal_wrapped(|ui| {
            if bad {
                ui.colored_label(ui.visuals().warn_fg_color, line);
            } else {
                ui.weak(line);
            }
        });
        match &self.audited {
            Some(audited) => {
                ui.label(audited);
            }
            None if self.over && self.troubles.is_empty() => {
                ui.weak(format!(
                    "The game is over: waiting for {} Muster to send their records, to check them",
                    muster::core::text::possessive(away_name)
                ));
            }
            None => {}
        }
        if let Some(last) = self.overdue.as_ref().or(self.trouble.as_ref()) {
            ui.colored_label(
                ui.visuals().error_fg_color,
                format!("The other machine: {last}"),
            );
        }
    }
}

/// What the status line says of a link's event.
pub(super) fn said_of(event: &Event, hosting: bool) -> Option<Status> {
    match event {
        Event::Connected { program, restarted } => Some(Status::Info(if *restarted {
            format!("The other machine is back ({program}); its program had restarted")
        } else {
            format!("The other machine is connected ({program})")
        })),
        Event::Dropped(why) => Some(Status::Error(format!(
            "The connection to the other machine dropped: {why}. {}",
            redial(hosting)
        ))),
        Event::Refused(why) => Some(Status::Error(format!("A connection was refused: {why}"))),
        Event::Message(_) => None,
    }
}

/// Who brings a dropped connection back: the joiner's Muster dials the
/// host's again by itself; the host's waits for it (his Muster closed, the
/// joiner joins again with the same ticket).
fn redial(hosting: bool) -> &'static str {
    if hosting {
        "Their Muster dials again by itself; if it was closed, they join again with the same ticket."
    } else {
        "Muster dials again by itself."
    }
}
