//! Muster's binary: with no subcommand it opens the window; `script` runs
//! JSON-lines commands against a battle without one.

mod app;

use clap::{Parser, Subcommand};
use muster::battle::Battle;
use muster::ruleset::Ruleset;
use muster::store;
use std::io::{BufReader, Read};
use std::path::PathBuf;
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
    /// Print a saved battle's table layout to a PDF, without the window.
    ExportPdf {
        /// The saved battle.
        battle: PathBuf,
        /// Where to write the PDF.
        #[arg(short, long)]
        output: PathBuf,
        /// Paper size, used landscape: a4 or letter.
        #[arg(long, default_value = "a4")]
        paper: String,
        /// Add this side's private page of sealed records (south or north);
        /// the passphrase is read from MUSTER_PASSPHRASE, else from the
        /// first line of standard input.
        #[arg(long)]
        private_for: Option<String>,
    },
    /// Apply one JSON command per line (FILE or - for stdin) and print one JSON result per line.
    Script {
        /// The commands, one JSON object per line; - reads standard input.
        file: PathBuf,
        /// Start from this saved battle instead of a new one.
        #[arg(long)]
        battle: Option<PathBuf>,
        /// Seed for "app" dice in a new battle.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// A ruleset JSON file to use instead of the built-in one.
        #[arg(long)]
        ruleset: Option<PathBuf>,
        /// Print the final state as JSON after the results.
        #[arg(long)]
        state: bool,
        /// Write the resulting battle to this file (the app can open it).
        #[arg(long)]
        save: Option<PathBuf>,
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
        }) => match export_pdf(&battle, &output, &paper, private_for.as_deref()) {
            Ok(()) => {
                println!("Wrote {}", output.display());
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
        }) => match script(file, battle, seed, ruleset, state, save) {
            Ok(0) => ExitCode::SUCCESS,
            Ok(_) => ExitCode::from(1),
            Err(e) => {
                eprintln!("muster: {e}");
                ExitCode::from(2)
            }
        },
    }
}

fn export_pdf(
    battle: &std::path::Path,
    output: &std::path::Path,
    paper: &str,
    private_for: Option<&str>,
) -> Result<(), String> {
    let paper = muster::export::Paper::parse(paper)
        .ok_or_else(|| format!("--paper takes a4 or letter, not \"{paper}\""))?;
    let battle = store::load_battle(battle).map_err(|e| e.to_string())?;
    let private = match private_for {
        None => None,
        Some(name) => {
            let side = match name {
                "south" => muster::Side::South,
                "north" => muster::Side::North,
                other => {
                    return Err(format!(
                        "--private-for takes south or north, not \"{other}\""
                    ));
                }
            };
            let passphrase = match std::env::var("MUSTER_PASSPHRASE") {
                Ok(p) => p,
                Err(_) => {
                    let mut line = String::new();
                    std::io::stdin()
                        .read_line(&mut line)
                        .map_err(|e| format!("reading the passphrase: {e}"))?;
                    line.trim_end_matches(['\r', '\n']).to_string()
                }
            };
            let page = muster::export::private_page(&battle, side, &passphrase)
                .map_err(|e| e.to_string())?;
            Some(page)
        }
    };
    muster::export::save_pdf(
        &battle,
        paper,
        &muster::export::today(),
        private.as_ref(),
        output,
    )
    .map_err(|e| format!("{}: {e}", output.display()))
}

/// Runs a script; returns how many commands were refused.
fn script(
    file: PathBuf,
    battle: Option<PathBuf>,
    seed: u64,
    ruleset: Option<PathBuf>,
    print_state: bool,
    save: Option<PathBuf>,
) -> Result<usize, String> {
    let mut battle = match battle {
        Some(path) => store::load_battle(&path).map_err(|e| e.to_string())?,
        None => {
            let ruleset = match ruleset {
                Some(path) => {
                    let text = std::fs::read_to_string(&path)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    Ruleset::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?
                }
                None => Ruleset::builtin(),
            };
            Battle::new(ruleset, seed)
        }
    };
    let input: Box<dyn Read> = if file.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(&file).map_err(|e| format!("{}: {e}", file.display()))?)
    };
    let stdout = std::io::stdout();
    let failures = muster::script::run(&mut battle, BufReader::new(input), stdout.lock())
        .map_err(|e| e.to_string())?;
    if print_state {
        let state = serde_json::to_string(battle.state()).map_err(|e| e.to_string())?;
        println!("{state}");
    }
    if let Some(path) = save {
        store::save_battle(&path, &battle).map_err(|e| e.to_string())?;
    }
    Ok(failures)
}
