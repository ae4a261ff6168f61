//! The players' screens (issue 23): each player's phone as his own private
//! screen, paired by a QR code. This part is UI-free: the encrypted
//! channel every message crosses, the messages' types, and the server that
//! carries them.

pub mod channel;
pub mod protocol;
pub mod server;
