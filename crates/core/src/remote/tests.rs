//! Two machines of a remote game, talking in memory: a toy game whose
//! entries carry their rolls, decided and followed as Field of Glory's
//! are, played from both sides; and the attacks of a machine whose program
//! was changed.

use super::*;
use crate::dice::{AppDice, DiceInput, Roll, check_joint, roll};
use crate::error::refuse;
use crate::intel::{Lock, PlayerKey};
use crate::screen;
use crate::seat::{Answer, ReplyOf, Screen, Sitting};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Cmd {
    Add(i32),
    Roll,
    /// A move only `Side`'s player gives (it adds nothing).
    Mine(Side),
    /// The first to claim wins: refused once the log holds a claim.
    Claim,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Entry {
    command: Cmd,
    rolls: Vec<Roll>,
}

/// A running total: `Add` adds, `Roll` adds a die. Tags are a toy's: a
/// side's tag of a position is its number and the side's, made only where
/// his "key" is.
#[derive(Clone, Debug)]
struct Toy {
    log: Vec<Entry>,
    total: i32,
    key: Option<Side>,
    tags: Vec<(Side, usize, Digest32)>,
    /// What `arrived` marked for a player's unlock to tag.
    away: Option<(Side, usize)>,
}

fn toy(key: Side) -> Toy {
    Toy {
        log: Vec::new(),
        total: 0,
        key: Some(key),
        tags: Vec::new(),
        away: None,
    }
}

impl Toy {
    fn decide_with(&self, command: &Cmd, dice: &mut AppDice) -> Result<Entry, RuleError> {
        let rolls = match command {
            Cmd::Add(n) if *n < 0 => return refuse("toy", "no taking away"),
            Cmd::Claim if self.log.iter().any(|e| e.command == Cmd::Claim) => {
                return refuse("toy", "it is claimed already");
            }
            Cmd::Add(_) | Cmd::Mine(_) | Cmd::Claim => Vec::new(),
            Cmd::Roll => vec![roll(&DiceInput::app(), 1, "the die", dice, Vec::new())?],
        };
        Ok(Entry {
            command: command.clone(),
            rolls,
        })
    }

    fn push(&mut self, entry: Entry) {
        self.total += match &entry.command {
            Cmd::Add(n) => *n,
            Cmd::Roll => entry.rolls[0].total,
            Cmd::Mine(_) | Cmd::Claim => 0,
        };
        self.log.push(entry);
    }
}

impl crate::seat::Seated for Toy {
    type Command = Cmd;
    type Event = ();
    type Request = ();
    type Act = ();
    type Field = ();
    fn seat_name(&self, side: Side) -> String {
        side.to_string()
    }
    fn due(&self, _: Side, _: Sitting<'_, Self>) -> Option<String> {
        None
    }
    fn lock_of(&self, _: Side) -> Option<Lock> {
        // Both players set a passphrase (their tags prove what they took);
        // one lock, made once: Argon2 is slow in a test build.
        static LOCK: std::sync::OnceLock<Lock> = std::sync::OnceLock::new();
        Some(
            LOCK.get_or_init(|| Lock::create("brass otter quarry lantern", &[]).unwrap().0)
                .clone(),
        )
    }
    fn locked_seats(&self) -> Vec<Side> {
        Vec::new()
    }
    fn unlock_seat(&mut self, _: Side, _: &PlayerKey) -> Result<(), RuleError> {
        Ok(())
    }
    fn secrets(&self) -> &'static str {
        "nothing"
    }
    fn screen(&self, _: Side, _: Sitting<'_, Self>) -> Screen<Self> {
        screen::Screen {
            title: String::new(),
            blocks: Vec::new(),
        }
    }
    fn answer(
        &self,
        _: Side,
        _: Sitting<'_, Self>,
        _: &ReplyOf<Self>,
    ) -> Result<Answer<Self>, RuleError> {
        refuse("toy", "nothing to answer")
    }
    fn apply(&mut self, command: Cmd) -> Result<Vec<()>, RuleError> {
        let entry = self.decide_with(&command, &mut AppDice::Os)?;
        self.push(entry);
        Ok(Vec::new())
    }
}

impl Replica for Toy {
    type Entry = Entry;
    fn command_of(entry: &Entry) -> Option<Cmd> {
        Some(entry.command.clone())
    }
    fn game_id(&self) -> &str {
        "toy"
    }
    fn entries(&self) -> usize {
        self.log.len()
    }
    fn entry(&self, n: usize) -> Option<Entry> {
        self.log.get(n).cloned()
    }
    fn link(&self, position: usize) -> Option<Digest32> {
        (position <= self.log.len()).then(|| {
            let json = serde_json::to_vec(&self.log[..position]).unwrap();
            crate::intel::ledger::genesis("toy", &json)
        })
    }
    fn decide(&self, command: &Cmd, dice: &mut AppDice) -> Result<Entry, RuleError> {
        self.decide_with(command, dice)
    }
    fn append(&mut self, entry: Entry) -> Result<(), RuleError> {
        self.push(entry);
        Ok(())
    }
    fn follow(&mut self, entry: Entry) -> Result<(), RuleError> {
        let mut dice = AppDice::recorded(&entry.rolls);
        let again = self.decide_with(&entry.command, &mut dice)?;
        if again != entry {
            return refuse("file", "the entry is not what the rules give");
        }
        check_joint("toy", &entry.rolls)?;
        self.push(entry);
        Ok(())
    }
    fn rolls(entry: &Entry) -> Vec<Roll> {
        entry.rolls.clone()
    }
    fn file(&self) -> String {
        // The log and every tag the game holds, as a file does.
        let tags: Vec<(Side, usize, Digest32)> = Side::BOTH
            .iter()
            .flat_map(|&s| (0..=self.log.len()).filter_map(move |p| Some((s, p, self.tag(s, p)?))))
            .collect();
        serde_json::to_string(&(&self.log, tags)).expect("serializes")
    }
    fn from_file(text: &str) -> Result<Toy, String> {
        let (log, tags): (Vec<Entry>, Vec<(Side, usize, Digest32)>) =
            serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut toy = Toy {
            log: Vec::new(),
            total: 0,
            key: None,
            tags,
            away: None,
        };
        for entry in log {
            toy.follow(entry).map_err(|e| e.to_string())?;
        }
        Ok(toy)
    }
    fn seat_remote(&mut self, _: Side) {}
    fn given_by(&self, command: &Cmd) -> Option<Side> {
        match command {
            Cmd::Mine(side) => Some(*side),
            _ => None,
        }
    }
    fn arrived_while_away(&mut self, side: Side, from: usize) {
        self.away = Some((side, from));
    }
    fn own_tags(&self, side: Side, from: usize) -> Vec<(usize, Digest32)> {
        if self.key != Some(side) {
            return Vec::new();
        }
        (from..=self.log.len())
            .map(|p| {
                let mut tag = [0; 32];
                tag[0] = p as u8;
                tag[1] = side as u8;
                (p, tag)
            })
            .collect()
    }
    fn tag(&self, side: Side, position: usize) -> Option<Digest32> {
        let own = self.own_tags(side, position);
        own.first()
            .filter(|(p, _)| *p == position)
            .map(|(_, t)| *t)
            .or_else(|| {
                self.tags
                    .iter()
                    .rev()
                    .find(|(s, p, _)| *s == side && *p == position)
                    .map(|(.., t)| *t)
            })
    }
    fn add_tag(&mut self, side: Side, position: usize, tag: Digest32) -> Result<(), RuleError> {
        self.tags.push((side, position, tag));
        Ok(())
    }
}

/// The two machines: the host plays South, the joiner North.
struct Two {
    host: (Toy, Play<Toy>),
    joiner: (Toy, Play<Toy>),
    /// Everything each received, as it crossed (JSON).
    to_host: Vec<String>,
    to_joiner: Vec<String>,
    said: Vec<Happened>,
}

fn two() -> Two {
    let mut h = toy(Side::South);
    let hp = Play::host(&mut h, Side::North).unwrap();
    let mut j = toy(Side::North);
    let jp = Play::joiner(&mut j, Side::North);
    let mut two = Two {
        host: (h, hp),
        joiner: (j, jp),
        to_host: Vec::new(),
        to_joiner: Vec::new(),
        said: Vec::new(),
    };
    two.pump();
    two
}

impl Two {
    /// Carries every message across, as JSON, until none is left.
    fn pump(&mut self) {
        self.pump_with(|_| {});
    }

    /// The same, `change` rewriting what the host's machine sends (a
    /// changed program).
    fn pump_with(&mut self, mut change: impl FnMut(&mut Wire<Entry>)) {
        loop {
            let from_host = self.host.1.outbox();
            let from_joiner = self.joiner.1.outbox();
            if from_host.is_empty() && from_joiner.is_empty() {
                return;
            }
            for mut m in from_host {
                change(&mut m);
                let json = serde_json::to_string(&m).unwrap();
                self.to_joiner.push(json.clone());
                let m = serde_json::from_str(&json).unwrap();
                let (g, p) = &mut self.joiner;
                self.said.extend(p.receive(g, m));
            }
            for m in from_joiner {
                let json = serde_json::to_string(&m).unwrap();
                self.to_host.push(json.clone());
                let m = serde_json::from_str(&json).unwrap();
                let (g, p) = &mut self.host;
                self.said.extend(p.receive(g, m));
            }
        }
    }

    fn troubles(&self) -> Vec<&String> {
        self.said
            .iter()
            .filter_map(|h| match h {
                Happened::Trouble(t) => Some(t),
                _ => None,
            })
            .collect()
    }

    fn same(&self) {
        assert_eq!(self.host.0.log, self.joiner.0.log);
        assert_eq!(self.host.0.total, self.joiner.0.total);
    }
}

#[test]
fn moves_from_either_machine_make_one_log() {
    let mut t = two();
    let (g, p) = &mut t.host;
    assert_eq!(p.give(g, Cmd::Add(3)).unwrap(), Happened::Appended);
    t.pump();
    let (g, p) = &mut t.joiner;
    assert_eq!(p.give(g, Cmd::Add(4)).unwrap(), Happened::Waiting);
    t.pump();
    let (g, p) = &mut t.host;
    assert_eq!(p.give(g, Cmd::Roll).unwrap(), Happened::Waiting);
    t.pump();
    let (g, p) = &mut t.joiner;
    p.give(g, Cmd::Roll).unwrap();
    t.pump();
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    t.same();
    assert_eq!(t.host.0.log.len(), 4);
    // Both dice were made by both machines, and say so.
    for n in [2, 3] {
        assert!(matches!(
            t.host.0.log[n].rolls[0].source,
            crate::dice::DiceSource::Joint(_)
        ));
    }
    assert_ne!(
        joint_rounds::<Toy>(&t.host.0.log[2]),
        joint_rounds::<Toy>(&t.host.0.log[3])
    );
    // Each machine received the other's tag of every position.
    assert!(t.host.0.tag(Side::North, 4).is_some());
    assert!(t.joiner.0.tag(Side::South, 4).is_some());
    assert!(!t.host.1.busy() && !t.joiner.1.busy());
}

/// A move of the joiner's that crosses one of the host's is put off, then
/// made on the log as it is; its die is the one its round and half made
/// (putting it off chose nothing), and it is made once.
#[test]
fn crossing_moves_are_each_made_once() {
    let mut t = two();
    let (g, p) = &mut t.joiner;
    p.give(g, Cmd::Roll).unwrap();
    let intent = t.joiner.1.outbox();
    let (g, p) = &mut t.host;
    p.give(g, Cmd::Add(1)).unwrap();
    // The joiner's intent arrives after the host's move: later.
    for m in intent {
        let (g, p) = &mut t.host;
        t.said.extend(p.receive(g, m));
    }
    t.pump();
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    t.same();
    assert_eq!(t.host.0.log.len(), 2, "{:?}", t.host.0.log);
    assert_eq!(t.host.0.log[1].command, Cmd::Roll);
    // A repeat of his intent (a link that dropped) changes nothing.
    let repeat = t
        .to_host
        .iter()
        .find(|m| m.contains("\"intent\"") && m.contains("\"type\":\"intent\""))
        .unwrap()
        .clone();
    let (g, p) = &mut t.host;
    p.receive(g, serde_json::from_str(&repeat).unwrap());
    t.pump();
    t.same();
    assert_eq!(t.host.0.log.len(), 2);
}

/// A move of the joiner's that crosses the host's and no longer holds
/// after it is not made, and he is told it was his, overtaken (not that
/// the other machine did something wrong).
#[test]
fn a_move_the_other_overtook_is_said_to_its_giver() {
    let mut t = two();
    let (g, p) = &mut t.joiner;
    p.give(g, Cmd::Claim).unwrap();
    let decided = t.joiner.1.outbox();
    let (g, p) = &mut t.host;
    p.give(g, Cmd::Claim).unwrap();
    for m in decided {
        let (g, p) = &mut t.host;
        t.said.extend(p.receive(g, m));
    }
    t.pump();
    assert!(t.troubles().is_empty(), "{:?}", t.troubles());
    assert!(
        t.said
            .iter()
            .any(|h| matches!(h, Happened::Overtaken(why) if why.contains("claimed already"))),
        "{:?}",
        t.said
    );
    t.same();
    assert_eq!(t.host.0.log.len(), 1, "made once, by the host");
    assert!(!t.joiner.1.busy(), "nothing of his waits");
}

/// The attack: a changed host opens its round with a half of its choosing
/// (to choose the die). The joiner's machine names it and takes nothing.
#[test]
fn a_host_that_opens_another_half_is_named() {
    let mut t = two();
    let (g, p) = &mut t.host;
    p.give(g, Cmd::Roll).unwrap();
    t.pump_with(|m| {
        if let Wire::Opened { host, .. } = m {
            host.0[0] ^= 1;
        }
    });
    let troubles = t.troubles();
    assert!(
        troubles.iter().any(|t| t.contains("not committed to")),
        "{troubles:?}"
    );
    assert!(t.joiner.0.log.is_empty(), "the roll is not taken");
}

/// The attack: a changed host logs a die of its choosing; and rewrites a
/// past entry. Each is named on the joiner's machine, and not taken.
#[test]
fn a_chosen_die_and_a_rewritten_entry_are_named() {
    let mut t = two();
    let (g, p) = &mut t.host;
    p.give(g, Cmd::Roll).unwrap();
    t.pump_with(|m| {
        if let Wire::Entry { entry, .. } = m {
            let face = entry.rolls[0].dice[0];
            entry.rolls[0].dice[0] = face % 6 + 1;
            entry.rolls[0].total = i32::from(entry.rolls[0].dice[0]);
        }
    });
    assert!(
        t.troubles().iter().any(|t| t.contains("chose")),
        "{:?}",
        t.troubles()
    );
    assert!(t.joiner.0.log.is_empty());
    let mut t = two();
    let (g, p) = &mut t.host;
    p.give(g, Cmd::Add(2)).unwrap();
    t.pump();
    let (g, p) = &mut t.joiner;
    let rewritten = Wire::Entry {
        position: 0,
        entry: Entry {
            command: Cmd::Add(5),
            rolls: Vec::new(),
        },
        link: Hex32([1; 32]),
        answers: None,
    };
    let said = p.receive(g, rewritten);
    assert!(
        matches!(&said[..], [Happened::Trouble(t)] if t.contains("rewritten")),
        "{said:?}"
    );
    assert_eq!(t.joiner.0.total, 2);
}

/// The attack: a changed joiner decides his roll with a round that was
/// never opened for it, or with another half. The host names it.
#[test]
fn a_joiner_that_makes_up_his_dice_is_named() {
    let mut t = two();
    let (g, p) = &mut t.joiner;
    p.give(g, Cmd::Roll).unwrap();
    // His intent, then a decided entry with dice of his own.
    for m in t.joiner.1.outbox() {
        let (g, p) = &mut t.host;
        p.receive(g, m);
    }
    let made_up = crate::dice::joint::Round::new("toy", 0, Half([9; 32]), Half([8; 32]));
    let entry = t
        .joiner
        .0
        .decide_with(&Cmd::Roll, &mut AppDice::Joint(Box::new(made_up)))
        .unwrap();
    let (g, p) = &mut t.host;
    let said = p.receive(
        g,
        Wire::Decided {
            intent: 0,
            base: 0,
            entry,
            nonce: None,
            tag: None,
        },
    );
    assert!(
        matches!(&said[..], [Happened::Trouble(t)] if t.contains("a die was chosen")),
        "{said:?}"
    );
    assert!(t.host.0.log.is_empty());
}

/// What crosses names no command of the joiner's as it is: an intent
/// carries its digest only.
#[test]
fn an_intent_carries_its_commands_digest_not_the_command() {
    let mut t = two();
    let (g, p) = &mut t.joiner;
    p.give(g, Cmd::Roll).unwrap();
    t.pump();
    let intent = t
        .to_host
        .iter()
        .find(|m| m.contains("\"type\":\"intent\""))
        .unwrap();
    assert!(!intent.contains("Roll"), "{intent}");
}

/// The attack: a changed joiner's program sees the host's half of its
/// round (Go), works out what its bound roll would give, and decides
/// another move instead (one without dice). The host checks the binding
/// at once, names it, and takes nothing.
#[test]
fn a_joiner_that_decides_another_move_once_he_sees_the_dice_is_named() {
    let mut t = two();
    let (g, p) = &mut t.joiner;
    p.give(g, Cmd::Roll).unwrap();
    for m in t.joiner.1.outbox() {
        let (g, p) = &mut t.host;
        p.receive(g, m);
    }
    let go = t.host.1.outbox();
    assert!(go.iter().any(|m| matches!(m, Wire::Go { .. })), "{go:?}");
    let instead = t
        .joiner
        .0
        .decide_with(&Cmd::Add(6), &mut AppDice::Wanted)
        .unwrap();
    let (g, p) = &mut t.host;
    let said = p.receive(
        g,
        Wire::Decided {
            intent: 0,
            base: 0,
            entry: instead,
            nonce: Some(Hex32([7; 32])),
            tag: None,
        },
    );
    assert!(
        said.iter().any(
            |h| matches!(h, Happened::Trouble(t) if t.contains("not the one his machine bound"))
        ),
        "{said:?}"
    );
    assert!(t.host.0.log.is_empty(), "nothing was taken");
}

/// The host's program restarted on a file two entries older than the
/// joiner's copy (one a move of the joiner's with its die): the joiner's
/// machine sends its copy back, and the host takes both, each carrying
/// its own player's tag; the two machines hold one log again.
#[test]
fn a_restarted_host_takes_back_what_its_player_had_taken() {
    let mut t = two();
    let (g, p) = &mut t.host;
    p.give(g, Cmd::Add(3)).unwrap();
    t.pump();
    let older = Toy::from_file(&t.host.0.file()).unwrap();
    let (g, p) = &mut t.joiner;
    p.give(g, Cmd::Roll).unwrap();
    t.pump();
    let (g, p) = &mut t.host;
    p.give(g, Cmd::Add(5)).unwrap();
    t.pump();
    assert_eq!(t.joiner.0.log.len(), 3);
    let mut restarted = older;
    restarted.key = Some(Side::South);
    assert_eq!(
        compare(&t.joiner.0, &restarted, Side::South),
        Compared::Ahead {
            vouched: 2,
            unvouched: 0
        }
    );
    let mut play = Play::host(&mut restarted, Side::North).unwrap();
    let said = play.receive(
        &mut restarted,
        Wire::Further {
            file: t.joiner.0.file(),
        },
    );
    assert_eq!(said, vec![Happened::CaughtUp(2)]);
    assert_eq!(restarted.log, t.joiner.0.log);
    assert_eq!(restarted.total, t.joiner.0.total);
    assert_eq!(
        compare(&t.joiner.0, &restarted, Side::South),
        Compared::Same
    );
    // The joiner's tags came with it.
    assert!(restarted.tag(Side::North, 3).is_some());
}

/// A move of the joiner's the host's player never took (no tag of his on
/// it: his program stopped first) is not taken on the joiner's word: the
/// joiner gives it again.
#[test]
fn an_entry_the_host_never_took_is_not_taken_on_the_joiners_word() {
    let mut t = two();
    let (g, p) = &mut t.host;
    p.give(g, Cmd::Add(3)).unwrap();
    t.pump();
    let older = Toy::from_file(&t.host.0.file()).unwrap();
    let (g, p) = &mut t.host;
    p.give(g, Cmd::Add(1)).unwrap();
    t.pump();
    // The joiner's move reaches the host's machine, which stops before
    // it sends its tag of it.
    let (g, p) = &mut t.joiner;
    p.give(g, Cmd::Add(4)).unwrap();
    for m in t.joiner.1.outbox() {
        let (g, p) = &mut t.host;
        p.receive(g, m);
    }
    let (g, p) = &mut t.host;
    let entry = g.log.last().cloned().unwrap();
    let _ = p.outbox();
    t.joiner.0.push(entry);
    assert_eq!(
        compare(&t.joiner.0, &older, Side::South),
        Compared::Ahead {
            vouched: 1,
            unvouched: 1
        }
    );
    let mut restarted = older;
    restarted.key = Some(Side::South);
    assert_eq!(catch_up(&mut restarted, &t.joiner.0, Side::South), Ok(1));
    assert_eq!(restarted.log.len(), 2);
}

/// The attacks, by a joiner's program that sends back a copy it changed:
/// a tag of the host's player it made up (an entry he never took), and an
/// entry rewritten. Each is named, and the host's game is as it was.
#[test]
fn a_copy_with_a_made_up_tag_or_a_rewritten_entry_is_refused() {
    let mut t = two();
    let (g, p) = &mut t.host;
    p.give(g, Cmd::Add(3)).unwrap();
    t.pump();
    let older = t.host.0.clone();
    let (g, p) = &mut t.joiner;
    p.give(g, Cmd::Add(4)).unwrap();
    t.pump();
    let mut made_up = Toy::from_file(&t.joiner.0.file()).unwrap();
    made_up
        .tags
        .retain(|(s, p, _)| !(*s == Side::South && *p == 2));
    made_up.tags.push((Side::South, 2, [7; 32]));
    let mut host = older.clone();
    let refused = catch_up(&mut host, &made_up, Side::South).unwrap_err();
    assert!(refused.contains("did not make"), "{refused}");
    assert_eq!(host.log, older.log);

    let mut rewritten = Toy::from_file(&t.joiner.0.file()).unwrap();
    rewritten.log[0].command = Cmd::Add(30);
    let refused = catch_up(&mut host, &rewritten, Side::South).unwrap_err();
    assert!(
        refused.contains("differs from this machine's from entry 1"),
        "{refused}"
    );
    assert_eq!(host.log, older.log);
}

/// The joiner's program restarted (or the host's stopped before the
/// joiner's tag of its last entry reached it): the game the host's machine
/// sends ends in entries without his tag. What his own copy holds takes
/// his tag from it; what he never saw (the host's move made while he was
/// away) is marked for his unlock to tag, as he tags what crosses live.
#[test]
fn what_reached_the_host_while_the_joiner_was_away_is_his_to_tag() {
    let mut t = two();
    let (g, p) = &mut t.host;
    p.give(g, Cmd::Add(3)).unwrap();
    t.pump();
    // The host's next move reaches the joiner's machine, whose tag of it
    // does not reach the host's before that one stops.
    let (g, p) = &mut t.host;
    p.give(g, Cmd::Add(2)).unwrap();
    for m in t.host.1.outbox() {
        let (g, p) = &mut t.joiner;
        p.receive(g, m);
    }
    let _ = t.joiner.1.outbox();
    let sent = Toy::from_file(&t.host.0.file()).unwrap();
    assert!(sent.tag(Side::North, 2).is_none());

    // The joiner still holds his copy: his tag comes from it.
    let mut fresh = sent.clone();
    assert_eq!(arrived(&mut fresh, Some(&t.joiner.0), Side::North), Ok(()));
    assert_eq!(fresh.tag(Side::North, 2), t.joiner.0.tag(Side::North, 2));
    assert_eq!(fresh.away, None);

    // His program restarted with no copy: the entry is his to tag.
    let mut fresh = sent.clone();
    assert_eq!(arrived(&mut fresh, None, Side::North), Ok(()));
    assert_eq!(fresh.away, Some((Side::North, 2)));
}

/// The attacks, by a host's program that adds to the log while the joiner
/// is away: a move of the joiner's he never made, and a die only the host's
/// machine drew. Each is named, and nothing is marked for his tag.
#[test]
fn a_host_cannot_add_the_joiners_move_or_a_die_while_he_is_away() {
    let mut t = two();
    let (g, p) = &mut t.host;
    p.give(g, Cmd::Add(3)).unwrap();
    t.pump();
    let mut forged = t.host.0.clone();
    forged.push(Entry {
        command: Cmd::Mine(Side::North),
        rolls: Vec::new(),
    });
    let mut fresh = Toy::from_file(&forged.file()).unwrap();
    let refused = arrived(&mut fresh, Some(&t.joiner.0), Side::North).unwrap_err();
    assert!(
        refused.contains("entry 2 reached the host's machine while this one was away")
            && refused.contains("a move of North's this machine never made"),
        "{refused}"
    );
    assert_eq!(fresh.away, None);

    // A roll the two machines made, whose entry the joiner's never
    // received: its die cannot be checked there.
    let (g, p) = &mut t.host;
    p.give(g, Cmd::Roll).unwrap();
    for m in t.host.1.outbox() {
        let (g, p) = &mut t.joiner;
        p.receive(g, m);
    }
    for m in t.joiner.1.outbox() {
        let (g, p) = &mut t.host;
        p.receive(g, m);
    }
    let _ = t.host.1.outbox();
    assert_eq!(t.host.0.log.len(), 2, "the roll is in the host's log");
    let mut fresh = Toy::from_file(&t.host.0.file()).unwrap();
    let refused = arrived(&mut fresh, None, Side::North).unwrap_err();
    assert!(
        refused.contains("draws dice this machine cannot check"),
        "{refused}"
    );
    assert_eq!(fresh.away, None);
}
