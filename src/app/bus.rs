//! One command bus for the whole window (rerun's `CommandSender`, DESIGN
//! "one command bus"): whatever changes the game or the shell, a widget's
//! click, a phone's tap, a file chosen in a dialog, a key worked out off the
//! window's thread, is a message on one channel. The shell drains it in one
//! place once per frame, after the UI, in the order the messages were sent,
//! and sends the phones their new screens right after, in the same frame.
//! A message sent from another thread wakes the window.

use crate::app::seating::SeatMsg;
use eframe::egui;
use muster::core::side::Side;
use std::any::Any;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, OnceLock};

/// What the shell's own menus and shortcuts ask for.
pub enum AppCommand {
    Dialog(crate::app::file_dialog::FileAction),
    /// A file dialog's answer: the file chosen for its action.
    Chosen(crate::app::file_dialog::FileAction, std::path::PathBuf),
    /// Open an autosaved game by its id.
    OpenRecent(String),
    /// *File > New > (a system)*: its setup form, by its format id.
    NewGame(&'static str),
    /// *File > Save*: to the game's file, or Save as the first time.
    Save,
    Undo,
    Redo,
    /// Something to tell the players on the status line.
    Say(crate::app::status::Status),
}

/// One message on the bus.
pub enum Msg {
    App(AppCommand),
    /// An action of the open system's window, for its `handle`.
    System(Box<dyn Any + Send>),
    /// What happened at a player's seat: his answer, his device, his key.
    Seat(Side, SeatMsg),
    /// The players' screens: start, stop, pair, let go.
    Players(crate::app::seating::PlayersMsg),
}

/// The sending end, cloned by every widget, thread and server that sends.
#[derive(Clone)]
pub struct Bus {
    sender: Sender<Msg>,
    /// The window to wake, once it is known (its first frame), and the
    /// thread it runs on: what that thread sends is drained in the same
    /// frame, so only other threads wake it (waking from inside egui's
    /// own closures would wait on its lock).
    wake: Arc<OnceLock<(egui::Context, std::thread::ThreadId)>>,
}

impl Bus {
    pub fn new() -> (Bus, Receiver<Msg>) {
        let (sender, receiver) = channel();
        (
            Bus {
                sender,
                wake: Arc::new(OnceLock::new()),
            },
            receiver,
        )
    }

    /// The window woken by what other threads send.
    pub fn attach(&self, ctx: &egui::Context) {
        let _ = self.wake.set((ctx.clone(), std::thread::current().id()));
    }

    pub fn send(&self, msg: Msg) {
        // The receiver lives as long as the window: a send that fails has
        // nobody left to act on it.
        let _ = self.sender.send(msg);
        if let Some((ctx, window)) = self.wake.get()
            && std::thread::current().id() != *window
        {
            ctx.request_repaint();
        }
    }

    pub fn app(&self, command: AppCommand) {
        self.send(Msg::App(command));
    }

    /// An action of the open system's window.
    pub fn system<A: Any + Send>(&self, action: A) {
        self.send(Msg::System(Box::new(action)));
    }

    pub fn seat(&self, side: Side, msg: SeatMsg) {
        self.send(Msg::Seat(side, msg));
    }
}
