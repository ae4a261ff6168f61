//! Two machines of a remote game in one test, talking in memory through
//! what would cross the network (each message written as JSON and read
//! back), for every engine's tests: each command given on the machine of
//! the side that gives it, everything each machine received kept to search
//! for what it must never see, and a changed program's rewriting of what
//! it sends.

use muster_core::intel::{Lock, PlayerKey};
use muster_core::remote::{Happened, Play, Replica, Wire};
use muster_core::side::Side;
use muster_core::side::Sides;
use std::sync::OnceLock;

/// The two players' passphrases in the remote tests: South's, North's.
pub const PASSES: [&str; 2] = ["brass otter quarry lantern", "velvet comet harbor thistle"];

/// Each player's lock and key from `PASSES`, made once (Argon2 is slow in
/// a test build).
pub fn keys() -> &'static Sides<(Lock, PlayerKey)> {
    static KEYS: OnceLock<Sides<(Lock, PlayerKey)>> = OnceLock::new();
    KEYS.get_or_init(|| Sides {
        south: Lock::create(PASSES[0], &[]).expect("a strong passphrase"),
        north: Lock::create(PASSES[1], &[]).expect("a strong passphrase"),
    })
}

pub struct Two<G: Replica> {
    pub host: (G, Play<G>),
    pub joiner: (G, Play<G>),
    /// The side the joiner plays.
    pub joiner_side: Side,
    /// Everything each machine received, as it crossed.
    pub to_host: Vec<String>,
    pub to_joiner: Vec<String>,
    /// What the messages did, on either machine.
    pub said: Vec<Happened>,
}

impl<G: Replica> Two<G> {
    /// The host's copy and the joiner's (each as its own machine holds it:
    /// the joiner's key only on his), the joiner playing `joiner_side`.
    pub fn new(mut host: G, mut joiner: G, joiner_side: Side) -> Two<G> {
        let host_play = Play::host(&mut host, joiner_side).expect("the host's commitments");
        let joiner_play = Play::joiner(&mut joiner, joiner_side);
        let mut two = Two {
            host: (host, host_play),
            joiner: (joiner, joiner_play),
            joiner_side,
            to_host: Vec::new(),
            to_joiner: Vec::new(),
            said: Vec::new(),
        };
        two.pump();
        two
    }

    /// The machine `side` plays from.
    pub fn machine(&mut self, side: Side) -> &mut (G, Play<G>) {
        if side == self.joiner_side {
            &mut self.joiner
        } else {
            &mut self.host
        }
    }

    /// `command` given on `side`'s machine, then everything carried across.
    pub fn give(&mut self, side: Side, command: G::Command) -> Result<(), String> {
        let (game, play) = self.machine(side);
        let given = play.give(game, command).map_err(|e| e.to_string());
        self.pump();
        given.map(drop)
    }

    /// Carries every message across until none is left.
    pub fn pump(&mut self) {
        loop {
            let from_host = self.host.1.outbox();
            let from_joiner = self.joiner.1.outbox();
            if from_host.is_empty() && from_joiner.is_empty() {
                return;
            }
            for m in from_host {
                let json = serde_json::to_string(&m).expect("a message serializes");
                let m: Wire<G::Entry> = serde_json::from_str(&json).expect("and reads back");
                self.to_joiner.push(json);
                let (g, p) = &mut self.joiner;
                self.said.extend(p.receive(g, m));
            }
            for m in from_joiner {
                let json = serde_json::to_string(&m).expect("a message serializes");
                let m: Wire<G::Entry> = serde_json::from_str(&json).expect("and reads back");
                self.to_host.push(json);
                let (g, p) = &mut self.host;
                self.said.extend(p.receive(g, m));
            }
        }
    }

    /// Carries what `from`'s machine has to send to the other, each message
    /// through `change` first (what a changed program does to what it
    /// sends); nothing else yet.
    pub fn sent_changed(&mut self, from: Side, change: impl Fn(&mut Wire<G::Entry>)) {
        let to_host = from == self.joiner_side;
        let out = self.machine(from).1.outbox();
        for mut m in out {
            change(&mut m);
            let json = serde_json::to_string(&m).expect("a message serializes");
            let (g, p) = if to_host {
                self.to_host.push(json);
                &mut self.host
            } else {
                self.to_joiner.push(json);
                &mut self.joiner
            };
            let said = p.receive(g, m);
            self.said.extend(said);
        }
    }

    /// An entry the joiner's changed program sends the host as a move of
    /// his, decided there.
    pub fn forged(&self, entry: G::Entry) -> Wire<G::Entry> {
        Wire::Decided {
            intent: 99,
            base: self.host.0.entries(),
            entry,
            nonce: None,
            tag: None,
        }
    }

    /// The host's machine takes `message` from the joiner's: it must refuse
    /// it, saying `words`, and take nothing.
    pub fn refused_by_host(&mut self, message: Wire<G::Entry>, words: &str) {
        let before = self.host.0.entries();
        let (g, p) = &mut self.host;
        let said = p.receive(g, message);
        let _ = p.outbox();
        assert!(
            said.iter()
                .any(|h| matches!(h, Happened::Trouble(why) if why.contains(words))),
            "{words}: {said:?}"
        );
        assert_eq!(self.host.0.entries(), before, "nothing was taken");
    }

    /// Neither player's passphrase nor key ever crossed, either way.
    pub fn no_passphrase_or_key_crossed(&self) {
        for m in self.to_host.iter().chain(&self.to_joiner) {
            assert!(!keys().north.1.seal_key().appears_in(m));
            assert!(!keys().south.1.seal_key().appears_in(m));
            assert!(
                !PASSES.iter().any(|p| m.contains(p)),
                "a passphrase crossed"
            );
        }
    }

    /// What either machine refused, in words.
    pub fn troubles(&self) -> Vec<String> {
        self.said
            .iter()
            .filter_map(|h| match h {
                Happened::Trouble(t) => Some(t.clone()),
                _ => None,
            })
            .collect()
    }

    /// Both machines' logs are the same, entry for entry.
    pub fn same(&self) -> bool {
        let (h, j) = (&self.host.0, &self.joiner.0);
        h.entries() == j.entries()
            && (0..h.entries()).all(|n| h.entry(n) == j.entry(n))
            && h.link(h.entries()) == j.link(j.entries())
    }
}
