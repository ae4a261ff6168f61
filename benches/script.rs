//! What a command costs through `muster script`, hidden forces and the
//! action deck side by side, on games of the same length (issue 47; figures
//! in the manual's speed chapter): the release binary run as a player's
//! tools run it, its CPU time (user and system, read from the operating
//! system for the finished process) with and without `--save`, and a long
//! game read and saved again.
//!
//! Each system plays a long game of scripted turns, written here:
//! - hidden forces: each side keeps two forces in one hex; a turn moves both
//!   a hex, regroups a unit between them (both records sealed anew) and
//!   ends: 4 commands, one sealed record in two (the dearest common turn);
//! - the deck (seeded dealer): the active player ends the event phase and
//!   plays the rally and shooting phases, the passive player declines each
//!   interrupt, each plays a card for laurels in the shooting phase while
//!   his hand holds one, movement and combat are skipped, the redraw
//!   follows, the fatigue card and the end of the turn: 8 to 10 commands.
//!   The example card set's cards run out after some 60 turns (fatigue
//!   removes one a turn); the turns after it draw and play nothing.
//!
//! A command's cost is the difference between a game of 12,000 commands and
//! one of 2,000, over the 10,000 between: the process's start, the new game
//! and reading the script's first lines are left out; the save's own cost
//! grows with the game and is counted in. Each figure is the median of
//! fifteen rounds, each round running every figure of both systems once in
//! turn: the machine is shared, and interleaved its other work falls on
//! every figure alike (the least and the most are printed beside it).
//! Neither game has a passphrase: a game without one opens every sealed
//! record when it is read, so its save's read-back is the dearer.
//!
//! `cargo bench --bench script`. Under `cargo test --benches` it plays
//! short games once and checks every command was taken.

use muster::core::side::Side;
use muster::deck::Game as DeckGame;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const SHORT: usize = 2_000;
const LONG: usize = 12_000;
const ROUNDS: usize = 15;
/// The deck's dealer's seed, for the script's writer and the binary alike.
const SEED: u64 = 7;

/// The binary as `cargo bench` built it (release).
fn muster() -> Command {
    Command::new(env!("CARGO_BIN_EXE_muster"))
}

/// `n` commands of hidden forces after its start, as script lines.
fn forces_script(n: usize) -> Vec<Value> {
    struct Pair {
        side: &'static str,
        area: usize,
        ids: [usize; 2],
        hexes: [&'static str; 2],
        units: [&'static [&'static str]; 2],
        bouncing: &'static str,
    }
    let mut pairs = [
        Pair {
            side: "south",
            area: 0,
            ids: [12, 13],
            hexes: ["0303", "0304"],
            units: [&["r-leg-3", "r-leg-6"], &["r-leg-10"]],
            bouncing: "r-leg-6",
        },
        Pair {
            side: "north",
            area: 6,
            ids: [14, 15],
            hexes: ["1010", "1011"],
            units: [&["p-cat-1", "p-cat-2"], &["p-ha-1"]],
            bouncing: "p-cat-2",
        },
    ];
    let mut lines = vec![json!({"cmd": "new", "south": {"name": "Ann"}, "north": {"name": "Bob"}})];
    for p in &pairs {
        for units in p.units {
            lines.push(json!({"cmd": "transfer", "side": p.side, "from": p.area,
                "to": {"new_force": p.hexes[0]}, "units": units}));
        }
    }
    lines.push(json!({"cmd": "begin", "first": "south"}));
    let setup = lines.len();
    for turn in 0.. {
        let p = &mut pairs[turn % 2];
        let to = p.hexes[(turn / 2 + 1) % 2];
        let [a, b] = p.ids;
        let (from, into) = if (turn / 2).is_multiple_of(2) {
            (a, b)
        } else {
            (b, a)
        };
        for line in [
            json!({"cmd": "move", "id": a, "to": to}),
            json!({"cmd": "move", "id": b, "to": to}),
            json!({"cmd": "transfer", "side": p.side, "from": from, "to": {"counter": into},
                "units": [p.bouncing]}),
            json!({"cmd": "end_turn"}),
        ] {
            if lines.len() == setup + n {
                return lines;
            }
            lines.push(line);
        }
    }
    unreachable!("the turns go on until the game is long enough")
}

/// `n` commands of the deck after its start, as script lines: each chosen
/// by the rules themselves, played on a game dealt by the same seed.
fn deck_script(n: usize) -> Vec<Value> {
    let mut game: Option<DeckGame> = None;
    let mut lines = Vec::new();
    // The game after `line`, if the rules take it.
    let after = |game: &Option<DeckGame>, line: &Value| {
        let mut again = game.clone();
        let mut out = Vec::new();
        let script = format!("{line}\n");
        let failed = muster::deck::script::run(&mut again, Some(SEED), script.as_bytes(), &mut out)
            .expect("a script in memory reads");
        (failed == 0).then_some(again)
    };
    let must = |game: &mut Option<DeckGame>, lines: &mut Vec<Value>, line: Value| {
        *game = after(game, &line).unwrap_or_else(|| panic!("the rules refused {line}"));
        lines.push(line);
    };
    must(
        &mut game,
        &mut lines,
        json!({"cmd": "new",
        "south": {"name": "Decius", "army": "romans"},
        "north": {"name": "Artagur", "army": "gauls"}}),
    );
    must(
        &mut game,
        &mut lines,
        json!({"cmd": "choose_first", "active": "south"}),
    );
    let start = lines.len();
    while lines.len() < start + n {
        let active = game
            .as_ref()
            .and_then(|g| g.public().turn.as_ref())
            .expect("the game is under way")
            .active;
        let passive = active.opponent();
        let name = |side: Side| side.name().to_lowercase();
        // A card played for laurels from `side`'s hand, the first the rules take.
        let laurels = |game: &mut Option<DeckGame>, lines: &mut Vec<Value>, side: Side| {
            let hand = game
                .as_ref()
                .and_then(|g| g.zones(side))
                .map(|z| z.hand.clone());
            for card in hand.unwrap_or_default() {
                let line = json!({"cmd": "play", "player": name(side), "card": card,
                    "use": "laurels", "to": "discard"});
                if let Some(next) = after(game, &line) {
                    *game = next;
                    lines.push(line);
                    return;
                }
            }
        };
        let no_interrupt = json!({"cmd": "interrupt", "player": name(passive), "card": null});
        must(
            &mut game,
            &mut lines,
            json!({"cmd": "end_phase_then", "plays": true}),
        );
        must(&mut game, &mut lines, no_interrupt.clone());
        must(
            &mut game,
            &mut lines,
            json!({"cmd": "end_phase_then", "plays": true}),
        );
        must(&mut game, &mut lines, no_interrupt);
        laurels(&mut game, &mut lines, active);
        laurels(&mut game, &mut lines, passive);
        must(
            &mut game,
            &mut lines,
            json!({"cmd": "end_phase_then", "plays": false}),
        );
        must(
            &mut game,
            &mut lines,
            json!({"cmd": "declare", "plays": false}),
        );
        let card = game
            .as_ref()
            .and_then(|g| g.zones(active))
            .and_then(|z| z.hand.first().cloned());
        must(
            &mut game,
            &mut lines,
            json!({"cmd": "fatigue", "card": card}),
        );
        must(&mut game, &mut lines, json!({"cmd": "end_turn"}));
    }
    lines.truncate(start + n);
    lines
}

/// One system's scripts and how `muster script` is told which it is.
struct System {
    name: &'static str,
    args: Vec<String>,
    /// The script's lines before the commands counted.
    start: usize,
    lines: Vec<Value>,
}

impl System {
    /// The script of its first `n` commands, written in `dir`.
    fn script(&self, dir: &Path, n: usize) -> PathBuf {
        let path = dir.join(format!("{}-{n}.jsonl", self.name));
        let text: String = self.lines[..self.start + n]
            .iter()
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(&path, text).expect("the temporary folder takes the script");
        path
    }
}

/// The CPU time (user and system) of the processes this one waited for.
#[cfg(unix)]
fn children_cpu() -> Option<Duration> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given; zeroed is a valid rusage.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr());
        usage.assume_init()
    };
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    Some(time(usage.ru_utime) + time(usage.ru_stime))
}

/// Elsewhere a finished process's CPU time is not read here.
#[cfg(not(unix))]
fn children_cpu() -> Option<Duration> {
    None
}

/// One run of `muster script`, every command taken: its CPU time.
fn run<A: AsRef<std::ffi::OsStr>>(system: &System, script: &Path, extra: &[A]) -> Duration {
    let before = children_cpu().unwrap_or_default();
    let out = muster()
        .arg("script")
        .args(&system.args)
        .args(extra)
        .arg(script)
        .stderr(Stdio::inherit())
        .output()
        .expect("the binary runs");
    let cpu = children_cpu().unwrap_or_default() - before;
    let text = String::from_utf8_lossy(&out.stdout);
    let refused = text.lines().any(|l| l.contains("\"ok\":false"));
    assert!(out.status.success() && !refused, "{}: {text}", system.name);
    cpu
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    let forces = System {
        name: "forces",
        args: vec!["--forces".into()],
        start: 6,
        lines: Vec::new(),
    };
    let deck = System {
        name: "deck",
        args: vec!["--deck".into(), "--seed".into(), SEED.to_string()],
        start: 2,
        lines: Vec::new(),
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    // `cargo test --benches`: short games, once, every command taken.
    if !std::env::args().any(|a| a == "--bench") {
        for mut system in [forces, deck] {
            system.lines = match system.name {
                "forces" => forces_script(300),
                _ => deck_script(300),
            };
            let script = system.script(dir.path(), 300);
            let saved = dir.path().join(format!("{}.muster", system.name));
            run(&system, &script, &["--save", saved.to_str().unwrap()]);
        }
        return;
    }
    if children_cpu().is_none() {
        println!("a finished process's CPU time is read on Unix only: nothing measured");
        return;
    }
    let systems = [
        System {
            lines: forces_script(LONG),
            ..forces
        },
        System {
            lines: deck_script(LONG),
            ..deck
        },
    ];
    println!(
        "muster script, CPU time a command (user + system), the median (least-most) of \
         {ROUNDS} interleaved rounds; games of {SHORT} and {LONG} commands"
    );
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "").expect("the temporary folder takes the script");
    let figures: Vec<Figures> = systems
        .iter()
        .map(|system| Figures::of(system, dir.path()))
        .collect();
    // Each system's figures' CPU times, a run a round: the commands, the
    // commands and the save, the long game read and saved again.
    let mut times = vec![vec![Vec::new(); 3]; figures.len()];
    for _ in 0..ROUNDS {
        for (f, times) in figures.iter().zip(&mut times) {
            for (i, extra) in [&[][..], &f.save[..]].into_iter().enumerate() {
                let (a, b) = (
                    run(f.system, &f.short, extra),
                    run(f.system, &f.long, extra),
                );
                times[i].push(b.saturating_sub(a));
            }
            // The long game read back (chain, replay, every record opened)
            // and saved again, with no command: after its save this round.
            times[2].push(run(f.system, &empty, &f.reread()));
        }
    }
    for (f, times) in figures.iter().zip(&mut times) {
        let a_command = |d: Duration| micros(d) / (LONG - SHORT) as f64;
        for (what, runs) in ["commands", "commands and --save"]
            .iter()
            .zip(&mut times[..2])
        {
            let (least, median, most) = spread(runs);
            println!(
                "{:>6} {what:<20} {:6.1} µs a command ({:.1}-{:.1})",
                f.system.name,
                a_command(median),
                a_command(least),
                a_command(most),
            );
        }
        let (least, median, most) = spread(&mut times[2]);
        let bytes = std::fs::metadata(&f.saved).map_or(0, |m| m.len());
        println!(
            "{:>6} read and saved again: {:.2} s ({:.2}-{:.2}; {:.1} MB, {LONG} commands)",
            f.system.name,
            median.as_secs_f64(),
            least.as_secs_f64(),
            most.as_secs_f64(),
            bytes as f64 / 1e6
        );
    }
}

/// The least, the median and the most of some runs' times.
fn spread(runs: &mut [Duration]) -> (Duration, Duration, Duration) {
    runs.sort();
    (runs[0], runs[runs.len() / 2], runs[runs.len() - 1])
}

/// One system's runs: its short and long scripts, where its long game is
/// saved and saved again.
struct Figures<'a> {
    system: &'a System,
    short: PathBuf,
    long: PathBuf,
    saved: PathBuf,
    again: PathBuf,
    save: Vec<String>,
}

impl<'a> Figures<'a> {
    fn of(system: &'a System, dir: &Path) -> Figures<'a> {
        let saved = dir.join(format!("{}.muster", system.name));
        Figures {
            short: system.script(dir, SHORT),
            long: system.script(dir, LONG),
            save: vec!["--save".into(), saved.display().to_string()],
            again: dir.join(format!("{}-again.muster", system.name)),
            saved,
            system,
        }
    }

    /// The arguments that read the long game back and save it again.
    fn reread(&self) -> Vec<String> {
        ["--battle", "--save"]
            .iter()
            .zip([&self.saved, &self.again])
            .flat_map(|(flag, path)| [flag.to_string(), path.display().to_string()])
            .collect()
    }
}
