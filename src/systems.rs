//! The one table of Muster's game systems: what File > New lists, which
//! window opens a file of each format, what `muster script --system` runs
//! and what `export-pdf` prints. A fifth system is one entry here plus its
//! engine crate and its window.

use crate::app::fog::FogWindow;
use crate::app::system::{Start, SystemWindow};
use crate::app::{deck, map_intel, wings};
use muster::Side;
use muster::core::dice::AppDice;
use muster::core::store::{self, StoreError};
use muster::fog::export::Paper;
use muster::fog::ruleset::Ruleset;
use serde::Serialize;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

/// What a script run is given on the command line.
pub struct ScriptArgs {
    pub file: PathBuf,
    /// A saved game to go on from.
    pub game: Option<PathBuf>,
    pub seed: Option<u64>,
    pub ruleset: Option<PathBuf>,
    pub print_state: bool,
    pub save: Option<PathBuf>,
}

/// A printout asked for on the command line; the private page's passphrase
/// is asked for only when the file says its owner has one.
pub struct ExportArgs<'a> {
    pub game: &'a Path,
    pub output: &'a Path,
    pub paper: Paper,
    pub private_for: Option<Side>,
    pub templates: bool,
    pub passphrase: &'a dyn Fn(Side) -> Result<String, String>,
}

/// The window of a system the shell runs behind `SystemWindow`.
pub struct Window {
    /// Its setup form, for File > New.
    pub new: fn(&Start) -> Box<dyn SystemWindow>,
    /// The window around a saved game.
    pub open: fn(&Path, &Start) -> Result<Opened, StoreError>,
    /// What the status line says when a new game's form opens.
    pub started: &'static str,
    /// A second way to start, from a file (Field of Glory's ruleset): its
    /// words in File > New, and the window it makes of the file.
    pub from_file: Option<FromFile>,
}

/// A system's window around a game.
pub type Opened = Box<dyn SystemWindow>;

/// A game started from a file, and what the status line says of it.
pub struct Started {
    pub window: Opened,
    pub message: String,
}

/// A new game started from a file the players choose.
pub struct FromFile {
    pub label: &'static str,
    pub about: &'static str,
    pub new: fn(&Path, &Start) -> Result<Started, String>,
}

pub struct System {
    /// Its name for `muster script --system`.
    pub key: &'static str,
    /// Its name in File > New.
    pub name: &'static str,
    /// A game of it, in a sentence: "Save action-deck game".
    pub noun: &'static str,
    /// File > New's hover text.
    pub about: &'static str,
    /// The `format` its files begin with.
    pub format: &'static str,
    /// How its window is reached in the how-to of Help.
    pub help: &'static str,
    pub script: fn(&ScriptArgs) -> Result<usize, String>,
    pub export: fn(&ExportArgs) -> Result<Vec<PathBuf>, String>,
    pub window: Window,
}

const FOG: System = System {
    key: "fog",
    name: "Field of Glory battle",
    noun: "battle",
    about: "The pre-battle sequence: armies, initiative, terrain, camps, ambushes, flank marches, deployment (RULES)",
    format: muster::fog::files::BATTLE_FORMAT,
    help: "The steps on the left, in order; each step's panel on the right, its main action at the foot.",
    script: fog_script,
    export: fog_export,
    window: Window {
        new: |start| Box::new(FogWindow::new(Ruleset::builtin(), start)),
        open: |path, start| {
            Ok(Box::new(FogWindow::with(
                muster::fog::files::load_battle(path)?,
                start,
            )))
        },
        started: "New battle",
        from_file: Some(FromFile {
            label: "Field of Glory battle with ruleset file…",
            about: "A battle under another ruleset file (terrain tables, dice rules), checked when it loads",
            new: |path, start| {
                let ruleset = muster::core::store::read_text(path)
                    .map_err(|e| e.to_string())
                    .and_then(|text| Ruleset::from_json(&text).map_err(|e| e.to_string()))
                    .map_err(|e| format!("Ruleset not loaded: {}: {e}", path.display()))?;
                let message = format!("New battle under {} from {}", ruleset.name, path.display());
                Ok(Started {
                    window: Box::new(FogWindow::new(ruleset, start)),
                    message,
                })
            },
        }),
    },
};

pub static ALL: [System; 4] = [
    FOG,
    System {
        key: "deck",
        name: "Action deck",
        noun: "action-deck game",
        about: "Each player's deck of action cards, hands kept secret (RULES-deck)",
        format: muster::deck::files::FORMAT,
        help: "Enter the players and armies, then play each turn's phases from the table; each hand is shown only behind its owner's hand-over screen.",
        script: deck_script,
        export: deck_export,
        window: Window {
            new: |start| Box::new(deck::DeckTable::new_window(start)),
            open: |path, start| {
                Ok(Box::new(deck::DeckTable::opened(
                    muster::deck::files::load(path)?,
                    start,
                )))
            },
            started: "New action deck: enter the players",
            from_file: None,
        },
    },
    System {
        key: "forces",
        name: "Hidden forces",
        noun: "hidden-forces game",
        about: "Face-down forces and Exercitus bluffs on a hex map, contents sealed (RULES-map-intel A)",
        format: muster::map_intel::files::FORMAT,
        help: "Enter the players and the scenario; each player's ledger (their forces' contents) opens behind their hand-over screen; orders are given on the map.",
        script: forces_script,
        export: forces_export,
        window: Window {
            new: |start| Box::new(map_intel::ForcesTable::new_window(start)),
            open: |path, start| {
                Ok(Box::new(map_intel::ForcesTable::opened(
                    muster::map_intel::files::load(path)?,
                    start,
                )))
            },
            started: "New hidden-forces game: enter the players and the scenario",
            from_file: None,
        },
    },
    System {
        key: "wings",
        name: "Dummy wings",
        noun: "dummy-wings game",
        about: "Real and dummy leader counters, spotting within 7 hexes, the deployment roll (RULES-map-intel B)",
        format: muster::map_intel::wings::files::FORMAT,
        help: "Choose the battle and enter the players; each player sets up their Wings behind their hand-over screen, then moves them along paths on the map.",
        script: wings_script,
        export: wings_export,
        window: Window {
            new: |start| Box::new(wings::WingsTable::new_window(start)),
            open: |path, start| {
                Ok(Box::new(wings::WingsTable::opened(
                    muster::map_intel::wings::files::load(path)?,
                    start,
                )))
            },
            started: "New dummy-wings game: choose the battle and enter the players",
            from_file: None,
        },
    },
];

/// Field of Glory's entry.
pub fn fog() -> &'static System {
    &ALL[0]
}

/// Hidden forces.
pub fn forces() -> &'static System {
    by_format(muster::map_intel::files::FORMAT).expect("hidden forces is a system")
}

/// The action deck.
pub fn deck() -> &'static System {
    by_format(muster::deck::files::FORMAT).expect("the action deck is a system")
}

/// Dummy wings.
pub fn wings() -> &'static System {
    by_format(muster::map_intel::wings::files::FORMAT).expect("dummy wings is a system")
}

/// The system whose files begin with `format`.
pub fn by_format(format: &str) -> Option<&'static System> {
    ALL.iter().find(|s| s.format == format)
}

/// The system `muster script --system` names.
pub fn by_key(key: &str) -> Option<&'static System> {
    ALL.iter().find(|s| s.key == key)
}

/// The system of a saved file, read from its header; what is wrong with
/// the file otherwise, in a player's words.
pub fn of_file(path: &Path) -> Result<&'static System, StoreError> {
    let (_, format) = store::read_muster(path)?;
    by_format(&format).ok_or_else(|| {
        StoreError::new(format!(
            "not a game this Muster opens: its header says \"{format}\" (another kind of Muster file, or a game from a newer Muster)"
        ))
        .at(path)
    })
}

pub use muster::core::store::SAVE_EXTENSION;

/// A file name from a game's title: its letters and digits, lowercased,
/// words joined by `_`, then `extension`.
pub fn file_name(title: &str, extension: &str) -> String {
    let words: Vec<String> = title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let stem = if words.is_empty() {
        "game".to_string()
    } else {
        words.join("_")
    };
    format!("{stem}.{extension}")
}

/// A script's lines: FILE, or standard input for `-`.
fn script_input(file: &Path) -> Result<BufReader<Box<dyn Read>>, String> {
    let input: Box<dyn Read> = if file.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?)
    };
    Ok(BufReader::new(input))
}

/// After a chained game's script: its public state printed if asked (never
/// a sealed record opened), and the game saved if asked.
fn finish<G, P: Serialize>(
    args: &ScriptArgs,
    game: Option<&G>,
    public: impl Fn(&G) -> &P,
    save: impl Fn(&Path, &G) -> Result<(), StoreError>,
) -> Result<(), String> {
    let Some(game) = game else {
        return Ok(());
    };
    if args.print_state {
        let state = serde_json::to_string(public(game)).map_err(|e| e.to_string())?;
        println!("{state}");
    }
    if let Some(path) = &args.save {
        save(path, game).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn fog_script(args: &ScriptArgs) -> Result<usize, String> {
    use muster::fog::{battle::Battle, files, ruleset::Ruleset};
    let mut battle = match &args.game {
        Some(path) => files::load_battle(path).map_err(|e| e.to_string())?,
        None => {
            let ruleset = match &args.ruleset {
                Some(path) => {
                    let text = store::read_text(path).map_err(|e| e.to_string())?;
                    Ruleset::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?
                }
                None => Ruleset::builtin(),
            };
            Battle::new(ruleset)
        }
    };
    if let Some(seed) = args.seed {
        battle.use_dice(AppDice::seeded(seed));
    }
    let input = script_input(&args.file)?;
    let failures = muster::fog::script::run(&mut battle, input, std::io::stdout().lock())
        .map_err(|e| e.to_string())?;
    finish(args, Some(&battle), Battle::state, files::save_battle)?;
    Ok(failures)
}

fn deck_script(args: &ScriptArgs) -> Result<usize, String> {
    use muster::deck::files;
    let mut game = match &args.game {
        Some(path) => Some(files::load(path).map_err(|e| e.to_string())?),
        None => None,
    };
    if let (Some(g), Some(seed)) = (&mut game, args.seed) {
        g.use_dealer(AppDice::seeded(seed));
    }
    let input = script_input(&args.file)?;
    let failures = muster::deck::script::run(&mut game, args.seed, input, std::io::stdout().lock())
        .map_err(|e| e.to_string())?;
    finish(args, game.as_ref(), |g| g.public(), files::save)?;
    Ok(failures)
}

fn forces_script(args: &ScriptArgs) -> Result<usize, String> {
    use muster::map_intel::{files, script};
    let mut game = match &args.game {
        Some(path) => Some(files::load(path).map_err(|e| e.to_string())?),
        None => None,
    };
    let input = script_input(&args.file)?;
    let failures =
        script::run(&mut game, input, std::io::stdout().lock()).map_err(|e| e.to_string())?;
    finish(args, game.as_ref(), |g| g.public(), files::save)?;
    Ok(failures)
}

fn wings_script(args: &ScriptArgs) -> Result<usize, String> {
    use muster::map_intel::wings::{files, script};
    let mut game = match &args.game {
        Some(path) => Some(files::load(path).map_err(|e| e.to_string())?),
        None => None,
    };
    let dice = args.seed.map(AppDice::seeded);
    let input = script_input(&args.file)?;
    let failures =
        script::run(&mut game, dice, input, std::io::stdout().lock()).map_err(|e| e.to_string())?;
    finish(args, game.as_ref(), |g| g.public(), files::save)?;
    Ok(failures)
}

/// The passphrase of `side`'s private page, asked only if he has a lock.
fn passphrase_for(args: &ExportArgs, locked: impl Fn(Side) -> bool) -> Result<String, String> {
    match args.private_for {
        Some(side) if locked(side) => (args.passphrase)(side),
        _ => Ok(String::new()),
    }
}

fn fog_export(args: &ExportArgs) -> Result<Vec<PathBuf>, String> {
    use muster::fog::export;
    let battle = muster::fog::files::load_battle(args.game).map_err(|e| e.to_string())?;
    let private = match args.private_for {
        None => None,
        Some(side) => {
            let passphrase = passphrase_for(args, |s| battle.has_passphrase(s))?;
            Some(export::private_page(&battle, side, &passphrase).map_err(|e| e.to_string())?)
        }
    };
    let output = args.output;
    let written_to = |e: StoreError, path: &Path| format!("{}: {e}", path.display());
    export::save_pdf(&battle, args.paper, &export::today(), output)
        .map_err(|e| written_to(e, output))?;
    let mut written = vec![output.to_path_buf()];
    if let Some(page) = private {
        let path = export::private_path(output, page.side);
        export::save_private_pdf(&battle, &page, args.paper, &path)
            .map_err(|e| written_to(e, &path))?;
        written.push(path);
    }
    if args.templates {
        let path = export::templates_path(output);
        export::save_templates_pdf(&battle, args.paper, &path).map_err(|e| written_to(e, &path))?;
        written.push(path);
    }
    Ok(written)
}

fn deck_export(args: &ExportArgs) -> Result<Vec<PathBuf>, String> {
    // A hand is never printed: asked for one, say so rather than write the
    // public summary as if it were his page.
    if let Some(side) = args.private_for {
        return Err(format!(
            "--private-for {}: an action-deck game has no private page (a hand is never printed); leave it out for the summary of cards played",
            side.name().to_lowercase()
        ));
    }
    let game = muster::deck::files::load(args.game).map_err(|e| e.to_string())?;
    muster::deck::export::save_summary_pdf(&game, args.paper, args.output)
        .map_err(|e| format!("{}: {e}", args.output.display()))?;
    Ok(vec![args.output.to_path_buf()])
}

fn forces_export(args: &ExportArgs) -> Result<Vec<PathBuf>, String> {
    let game = muster::map_intel::files::load(args.game).map_err(|e| e.to_string())?;
    let passphrase = passphrase_for(args, |s| game.setup().locks[s].is_some())?;
    let private = args
        .private_for
        .map(|side| (side, passphrase.as_str().into()));
    muster::map_intel::export::save_pdf(&game, args.paper, private, args.output)
        .map_err(|e| format!("{}: {e}", args.output.display()))
}

fn wings_export(args: &ExportArgs) -> Result<Vec<PathBuf>, String> {
    let game = muster::map_intel::wings::files::load(args.game).map_err(|e| e.to_string())?;
    let passphrase = passphrase_for(args, |s| game.setup().locks[s].is_some())?;
    let private = args
        .private_for
        .map(|side| (side, passphrase.as_str().into()));
    muster::map_intel::wings::export::save_pdf(&game, args.paper, private, args.output)
        .map_err(|e| format!("{}: {e}", args.output.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_and_key_names_one_system() {
        for system in &ALL {
            assert!(std::ptr::eq(by_format(system.format).unwrap(), system));
            assert!(std::ptr::eq(by_key(system.key).unwrap(), system));
        }
        assert!(by_format("muster-roster").is_none());
    }

    #[test]
    fn a_file_name_is_the_title_in_plain_words() {
        assert_eq!(
            file_name(
                "Fritz (Prussian) vs Charles (Franco-Imperial)",
                SAVE_EXTENSION
            ),
            "fritz_prussian_vs_charles_franco_imperial.muster"
        );
        assert_eq!(file_name("  ", SAVE_EXTENSION), "game.muster");
    }
}
