//! One command bus for the whole window (rerun's `CommandSender`, DESIGN
//! "one command bus"): whatever changes the game or the shell, a widget's
//! click, a phone's tap, a file chosen in a dialog, a key worked out off the
//! window's thread, is a message on one channel. The shell drains it in one
//! place once per frame, after the UI, in the order the messages were sent,
//! and sends the phones their new screens right after, in the same frame.
//! A message sent from another thread wakes the window.

use eframe::egui;
use muster::core::intel::{Lock, PlayerKey};
use muster::core::side::Side;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};

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
    /// A printout made on its worker: where it was asked for, whether it
    /// held a private page, and the files written (or why not).
    Exported {
        path: std::path::PathBuf,
        private: bool,
        result: Result<Vec<std::path::PathBuf>, String>,
    },
    /// Nothing to do: a worker's result waits to be drawn.
    Wake,
}

/// One message on the bus.
pub enum Msg {
    App(AppCommand),
    /// An action of the open system's window, for its `handle`.
    System(crate::app::action::Action),
    /// What happened at a player's seat: his answer, his device, his key.
    Seat(Side, SeatMsg),
    /// The players' screens: start, stop, pair, let go.
    Players(PlayersMsg),
}

/// What the form makes of a new passphrase: its action, for the bus.
pub type Then = Box<dyn FnOnce(Lock, PlayerKey) -> Msg + Send>;
/// What is done with a player's key once his passphrase gave it (his
/// private printout written).
pub type KeyThen = Box<dyn FnOnce(PlayerKey) -> Msg + Send>;

/// What a key worker worked out from a passphrase.
pub enum Derived {
    Set(Lock, PlayerKey),
    Key(PlayerKey),
}

/// What happens at a seat, as a message on the bus.
pub enum SeatMsg {
    /// The table asks for their private screen ("Show Decius's cards").
    Show,
    /// His hand-over screen's button: he has the laptop.
    Took,
    /// He is done with his private screen: the table again.
    Hide,
    /// "Not now" on their hand-over screen.
    NotNow,
    /// The players come back to what they put off with "Not now".
    Resume,
    /// The table's *South (Ann) takes the laptop*: his step comes back after
    /// "Not now"; in a reopened game he has not unlocked, his unlocking
    /// comes first.
    PassTo,
    /// "Lock South's secrets": the sitting's key is dropped.
    Lock,
    /// His answer to his screen on the laptop, as JSON: his seat reads it
    /// into the screen's own types, as it does a device's.
    Reply(String),
    /// The choice his hand-over screen offers in the open ("South: no
    /// ambushes"), made there: it needs no proof, so it never reaches his
    /// passphrase screen.
    Declared,
    /// What he typed so far on the laptop's screen (his passphrase screen's
    /// or his game screen's form), as JSON, read likewise.
    Typed(String),
    /// A hex he clicked on the map his screen draws on the laptop.
    Tap(muster::core::hexmap::Hex),
    /// One of his counters dragged on that map.
    Drag(muster::core::screen::Drag),
    /// He sets a passphrase for a new game, called `name`; the words the
    /// opponent knows of him; what the form makes of it.
    SetPassphrase {
        name: String,
        context: Vec<String>,
        then: Then,
    },
    /// He unlocks the reopened game.
    Unlock,
    /// His key is asked for something he asked of the table (his private
    /// printout); `then` says what is done with it.
    AskKey {
        lock: muster::core::intel::Lock,
        then: KeyThen,
    },
    /// A key his passphrase gave, worked out off the window's thread.
    Derived {
        generation: u64,
        result: Result<Derived, String>,
    },
    /// His phone, from the players' screens server.
    Phone(muster::seats::server::FromPhone),
    /// His private printout made on its worker, for the pairing `paired`
    /// it was asked on: its title and PDF, or why not.
    Printed {
        paired: u64,
        made: Result<(String, Vec<u8>), String>,
    },
}

/// The players' screens: start, stop, pair, let go, show a code.
pub enum PlayersMsg {
    /// Start on this address of the laptop's, the usual port or the next
    /// free one.
    Start(std::net::IpAddr),
    Stop,
    Pair(Side),
    Release(Side),
    /// Its code on the laptop again (or hidden), one seat at a time.
    ShowCode(Option<Side>),
}

/// The sending end, cloned by every widget, thread and server that sends.
#[derive(Clone)]
pub struct Bus {
    sender: Sender<Msg>,
    /// The window to wake, as its latest frame gave it, and the thread it
    /// runs on: what that thread sends is drained in the same frame, so
    /// only other threads wake it (waking from inside egui's own closures
    /// would wait on its lock). Kept anew each frame: a shell moved into
    /// another window (the tap bench's, from its set-up harness) wakes
    /// that one.
    wake: Arc<Mutex<Option<(egui::Context, std::thread::ThreadId)>>>,
}

impl Bus {
    pub fn new() -> (Bus, Receiver<Msg>) {
        let (sender, receiver) = channel();
        (
            Bus {
                sender,
                wake: Arc::new(Mutex::new(None)),
            },
            receiver,
        )
    }

    /// The window woken by what other threads send.
    pub fn attach(&self, ctx: &egui::Context) {
        let mut wake = self.wake.lock().unwrap_or_else(PoisonError::into_inner);
        if wake.as_ref().is_none_or(|(known, _)| known != ctx) {
            *wake = Some((ctx.clone(), std::thread::current().id()));
        }
    }

    pub fn send(&self, msg: Msg) {
        // The receiver lives as long as the window: a send that fails has
        // nobody left to act on it.
        let _ = self.sender.send(msg);
        let wake = self.wake.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((ctx, window)) = wake.as_ref()
            && std::thread::current().id() != *window
        {
            ctx.request_repaint();
        }
    }

    pub fn app(&self, command: AppCommand) {
        self.send(Msg::App(command));
    }

    /// An action of the open system's window.
    pub fn system(&self, action: crate::app::action::Action) {
        self.send(Msg::System(action));
    }

    pub fn seat(&self, side: Side, msg: SeatMsg) {
        self.send(Msg::Seat(side, msg));
    }
}
