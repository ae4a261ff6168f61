//! How a seat is held away from the laptop (docs: the design's "seat" and
//! "players' screens"): a transport carries what the device holding a
//! seat must show out, and brings what it sends to the window's bus as the
//! seat's messages. The seat itself (who holds it, his desk, his proof)
//! stays in `Seating`, one record whatever the transport; the laptop's
//! hand-over screen needs none. The phones' server is the first transport
//! (`phone.rs`); another is a new file beside it.

use muster::core::side::Side;

pub trait Transport {
    /// Whether it is running: codes may be made, devices reached.
    fn running(&self) -> bool;

    /// A new code for `side`'s seat (an address with its key, a ticket):
    /// a device that proves it takes the seat; every earlier code opens
    /// nothing from now on.
    fn pair(&mut self, side: Side) -> Result<String, String>;

    /// The device that holds `side`'s seat proved to be its player's: it
    /// keeps the seat, and no other device with the code takes it.
    fn proved(&mut self, side: Side);

    /// Lets `side`'s device go: his code opens nothing now, and his
    /// device is told so.
    fn release(&mut self, side: Side);

    /// Sends `side`'s device his screen as it is now (the protocol's
    /// message, sealed on the way).
    fn show(&mut self, side: Side, message: String);

    /// Sends `side`'s device a file, in the protocol's parts.
    fn send_file(&mut self, side: Side, parts: Vec<String>);

    /// Stops: every device is told why (`code`), and none holds a seat.
    fn stop(&mut self, code: u16);
}
