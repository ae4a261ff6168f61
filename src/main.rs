//! Muster's binary: with no subcommand it opens the window; `script` runs
//! JSON-lines commands against a battle without one.

mod app;

use clap::{Parser, Subcommand};
use muster::core::store;
use muster::fog::battle::Battle;
use muster::fog::files;
use muster::fog::ruleset::Ruleset;
use std::io::{BufReader, IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "muster",
    version,
    about = "Field of Glory pre-battle sequence at the table"
)]
struct Cli {
    /// A saved battle to open in the window.
    battle: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Sub>,
}

#[derive(Subcommand)]
enum Sub {
    /// Print a saved battle's table layout (or a deck, hidden-forces or dummy-wings game's printout) to a PDF, without the window.
    ExportPdf {
        /// The saved battle.
        battle: PathBuf,
        /// Where to write the PDF.
        #[arg(short, long)]
        output: PathBuf,
        /// Paper size, used landscape: a4 or letter.
        #[arg(long, default_value = "a4")]
        paper: String,
        /// Also write this side's private page of sealed records (south or
        /// north) to its own file, OUTPUT-private-SIDE.pdf. The passphrase is
        /// read from MUSTER_PASSPHRASE, else asked at the terminal without
        /// echo, else read from the first line of standard input.
        #[arg(long)]
        private_for: Option<String>,
        /// Also write every piece's template at 1:1 on tiled pages to
        /// OUTPUT-templates.pdf.
        #[arg(long)]
        templates: bool,
    },
    /// Apply one JSON command per line (FILE or - for stdin) and print one JSON result per line.
    Script {
        /// The commands, one JSON object per line; - reads standard input.
        file: PathBuf,
        /// Start from this saved battle instead of a new one.
        #[arg(long)]
        battle: Option<PathBuf>,
        /// Draw "app" dice from a fixed seed, for tests and demonstrations
        /// (the seed is never saved); without it they come from the
        /// operating system.
        #[arg(long)]
        seed: Option<u64>,
        /// A ruleset JSON file to use instead of the built-in one.
        #[arg(long)]
        ruleset: Option<PathBuf>,
        /// Print the final state as JSON after the results.
        #[arg(long)]
        state: bool,
        /// Write the resulting battle to this file (the app can open it).
        #[arg(long)]
        save: Option<PathBuf>,
        /// Play the action deck: the first line starts the game
        /// ({"cmd": "new", ...}) unless --battle names a saved deck game.
        #[arg(long)]
        deck: bool,
        /// Play hidden forces on a hex map: the first line starts the game
        /// ({"cmd": "new", ...}) unless --battle names a saved one.
        #[arg(long, conflicts_with = "deck")]
        forces: bool,
        /// Play dummy wings with spotting: the first line starts the game
        /// ({"cmd": "new", "battle": "rossbach", ...}) unless --battle names
        /// a saved one.
        #[arg(long, conflicts_with_all = ["deck", "forces"])]
        wings: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => match app::run(cli.battle) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("muster: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Sub::ExportPdf {
            battle,
            output,
            paper,
            private_for,
            templates,
        }) => match export_pdf(&battle, &output, &paper, private_for.as_deref(), templates) {
            Ok(written) => {
                for path in written {
                    println!("Wrote {}", path.display());
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("muster: {e}");
                ExitCode::from(2)
            }
        },
        Some(Sub::Script {
            file,
            battle,
            seed,
            ruleset,
            state,
            save,
            deck,
            forces,
            wings,
        }) => match if deck {
            deck_script(file, battle, seed, state, save)
        } else if wings {
            wings_script(file, battle, seed, state, save)
        } else if forces {
            forces_script(file, battle, state, save)
        } else {
            script(file, battle, seed, ruleset, state, save)
        } {
            Ok(0) => ExitCode::SUCCESS,
            Ok(_) => ExitCode::from(1),
            Err(e) => {
                eprintln!("muster: {e}");
                ExitCode::from(2)
            }
        },
    }
}

/// Writes the printout, and the private page if asked; returns the files.
fn export_pdf(
    battle: &Path,
    output: &Path,
    paper: &str,
    private_for: Option<&str>,
    templates: bool,
) -> Result<Vec<PathBuf>, String> {
    let paper = muster::fog::export::Paper::parse(paper)
        .ok_or_else(|| format!("--paper takes a4 or letter, not \"{paper}\""))?;
    let side = match private_for {
        None => None,
        Some("south") => Some(muster::Side::South),
        Some("north") => Some(muster::Side::North),
        Some(other) => {
            return Err(format!(
                "--private-for takes south or north, not \"{other}\""
            ));
        }
    };
    let format = muster::core::store::read_text(battle)
        .and_then(|text| muster::core::store::format_of(&text))
        .map_err(|e| e.to_string())?;
    if format == muster::map_intel::files::FORMAT {
        let game = muster::map_intel::files::load(battle).map_err(|e| e.to_string())?;
        let passphrase = match side {
            Some(side) if game.setup().locks[side].is_some() => read_passphrase(side)?,
            _ => String::new(),
        };
        let private = side.map(|side| (side, passphrase.as_str().into()));
        return muster::map_intel::export::save_pdf(&game, paper, private, output)
            .map_err(|e| format!("{}: {e}", output.display()));
    }
    if format == muster::map_intel::wings::files::FORMAT {
        let game = muster::map_intel::wings::files::load(battle).map_err(|e| e.to_string())?;
        let passphrase = match side {
            Some(side) if game.setup().locks[side].is_some() => read_passphrase(side)?,
            _ => String::new(),
        };
        let private = side.map(|side| (side, passphrase.as_str().into()));
        return muster::map_intel::wings::export::save_pdf(&game, paper, private, output)
            .map_err(|e| format!("{}: {e}", output.display()));
    }
    if format == muster::deck::files::FORMAT {
        let game = muster::deck::files::load(battle).map_err(|e| e.to_string())?;
        muster::deck::export::save_summary_pdf(&game, paper, output)
            .map_err(|e| format!("{}: {e}", output.display()))?;
        return Ok(vec![output.to_path_buf()]);
    }
    let battle = files::load_battle(battle).map_err(|e| e.to_string())?;
    let private = match side {
        None => None,
        Some(side) => {
            let passphrase = if battle.has_passphrase(side) {
                read_passphrase(side)?
            } else {
                String::new()
            };
            let page = muster::fog::export::private_page(&battle, side, &passphrase)
                .map_err(|e| e.to_string())?;
            Some(page)
        }
    };
    let date = muster::fog::export::today();
    muster::fog::export::save_pdf(&battle, paper, &date, output)
        .map_err(|e| format!("{}: {e}", output.display()))?;
    let mut written = vec![output.to_path_buf()];
    if let Some(page) = private {
        let path = muster::fog::export::private_path(output, page.side);
        muster::fog::export::save_private_pdf(&battle, &page, paper, &path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        written.push(path);
    }
    if templates {
        let path = muster::fog::export::templates_path(output);
        muster::fog::export::save_templates_pdf(&battle, paper, &path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// A player's passphrase, never from the command line and never echoed:
/// MUSTER_PASSPHRASE, else the terminal without echo, else the first line
/// of standard input (a pipe, which shows nothing either).
fn read_passphrase(side: muster::Side) -> Result<String, String> {
    if let Ok(p) = std::env::var("MUSTER_PASSPHRASE") {
        return Ok(p);
    }
    if std::io::stdin().is_terminal() {
        return rpassword::prompt_password(format!("{side}'s passphrase: "))
            .map_err(|e| format!("reading the passphrase: {e}"));
    }
    // Bounded: a passphrase is short, and standard input may never end.
    let mut line = Vec::new();
    let whole =
        muster::core::script::read_line_bounded(&mut std::io::stdin().lock(), &mut line, 1024)
            .map_err(|e| format!("reading the passphrase: {e}"))?;
    if whole == Some(false) {
        return Err("reading the passphrase: longer than 1024 bytes".into());
    }
    let line =
        String::from_utf8(line).map_err(|_| "the passphrase is not UTF-8 text".to_string())?;
    Ok(line.trim_end_matches(['\r', '\n']).to_string())
}

/// Runs a script; returns how many commands were refused.
fn script(
    file: PathBuf,
    battle: Option<PathBuf>,
    seed: Option<u64>,
    ruleset: Option<PathBuf>,
    print_state: bool,
    save: Option<PathBuf>,
) -> Result<usize, String> {
    let mut battle = match battle {
        Some(path) => files::load_battle(&path).map_err(|e| e.to_string())?,
        None => {
            let ruleset = match ruleset {
                Some(path) => {
                    let text = store::read_text(&path).map_err(|e| e.to_string())?;
                    Ruleset::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?
                }
                None => Ruleset::builtin(),
            };
            Battle::new(ruleset)
        }
    };
    if let Some(seed) = seed {
        battle.use_dice(muster::core::dice::AppDice::seeded(seed));
    }
    let input = script_input(&file)?;
    let stdout = std::io::stdout();
    let failures =
        muster::fog::script::run(&mut battle, input, stdout.lock()).map_err(|e| e.to_string())?;
    if print_state {
        let state = serde_json::to_string(battle.state()).map_err(|e| e.to_string())?;
        println!("{state}");
    }
    if let Some(path) = save {
        files::save_battle(&path, &battle).map_err(|e| e.to_string())?;
    }
    Ok(failures)
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

/// Runs an action-deck script; returns how many commands were refused.
fn deck_script(
    file: PathBuf,
    game: Option<PathBuf>,
    seed: Option<u64>,
    print_state: bool,
    save: Option<PathBuf>,
) -> Result<usize, String> {
    let mut game = match game {
        Some(path) => Some(muster::deck::files::load(&path).map_err(|e| e.to_string())?),
        None => None,
    };
    if let (Some(g), Some(seed)) = (&mut game, seed) {
        g.use_dealer(muster::core::dice::AppDice::seeded(seed));
    }
    let input = script_input(&file)?;
    let stdout = std::io::stdout();
    let failures = muster::deck::script::run(&mut game, seed, input, stdout.lock())
        .map_err(|e| e.to_string())?;
    if let Some(g) = &game {
        if print_state {
            let state = serde_json::to_string(g.public()).map_err(|e| e.to_string())?;
            println!("{state}");
        }
        if let Some(path) = save {
            muster::deck::files::save(&path, g).map_err(|e| e.to_string())?;
        }
    }
    Ok(failures)
}

/// Runs a dummy-wings script; returns how many commands were refused.
fn wings_script(
    file: PathBuf,
    game: Option<PathBuf>,
    seed: Option<u64>,
    print_state: bool,
    save: Option<PathBuf>,
) -> Result<usize, String> {
    use muster::map_intel::wings::{files, script};
    let mut game = match game {
        Some(path) => Some(files::load(&path).map_err(|e| e.to_string())?),
        None => None,
    };
    let dice = seed.map(muster::core::dice::AppDice::seeded);
    let input = script_input(&file)?;
    let stdout = std::io::stdout();
    let failures = script::run(&mut game, dice, input, stdout.lock()).map_err(|e| e.to_string())?;
    if let Some(g) = &game {
        if print_state {
            // The public state: compositions only sealed until flipped.
            let state = serde_json::to_string(g.public()).map_err(|e| e.to_string())?;
            println!("{state}");
        }
        if let Some(path) = save {
            files::save(&path, g).map_err(|e| e.to_string())?;
        }
    }
    Ok(failures)
}

/// Runs a hidden-forces script; returns how many commands were refused.
fn forces_script(
    file: PathBuf,
    game: Option<PathBuf>,
    print_state: bool,
    save: Option<PathBuf>,
) -> Result<usize, String> {
    use muster::map_intel::{files, script};
    let mut game = match game {
        Some(path) => Some(files::load(&path).map_err(|e| e.to_string())?),
        None => None,
    };
    let input = script_input(&file)?;
    let stdout = std::io::stdout();
    let failures = script::run(&mut game, input, stdout.lock()).map_err(|e| e.to_string())?;
    if let Some(g) = &game {
        if print_state {
            // The public state: face-down contents only as sealed records.
            let state = serde_json::to_string(g.public()).map_err(|e| e.to_string())?;
            println!("{state}");
        }
        if let Some(path) = save {
            files::save(&path, g).map_err(|e| e.to_string())?;
        }
    }
    Ok(failures)
}
