//! The remote seat's transport (docs: "Playing remotely"): a game's two
//! machines joined over the internet by a ticket, through iroh (QUIC
//! dialed by public key, hole punching, a relay when neither can reach
//! the other). The engines' remote play (`muster_core::remote`) decides
//! what crosses; this crate carries it, exactly once and in order, across
//! drops, and checks at the start that both ends run the same protocol
//! for the same game and that the joiner holds the seat's ticket.

mod admit;
pub mod frame;
pub mod link;
pub mod net;
pub mod opening;
pub mod remote;
pub mod ticket;

pub use link::{Event, Link, Wake};
pub use net::{Net, Relays};
pub use remote::{Remote, Said};
pub use ticket::{Hosting, Ticket};
