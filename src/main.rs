//! Muster's binary: with no subcommand it opens the window; `script` runs
//! JSON-lines commands against a battle without one.

mod app;
mod systems;

use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "muster",
    version,
    about = "Wargames at the table: Field of Glory's pre-battle sequence, an action-card deck, hidden forces and dummy wings"
)]
struct Cli {
    /// A saved game of any system to open in the window (a .muster file,
    /// or an older .json one).
    #[arg(value_name = "GAME")]
    battle: Option<PathBuf>,
    /// The program that opens an exported public printout, instead of the
    /// desktop's PDF viewer; "none" opens nothing. A player's private page
    /// is never opened.
    #[arg(long, value_name = "PROGRAM")]
    pdf_viewer: Option<PathBuf>,
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
        /// Start from this saved game instead of a new one.
        #[arg(long)]
        battle: Option<PathBuf>,
        /// The game system: fog (the default), deck, forces or wings. For
        /// the last three the first line starts the game
        /// ({"cmd": "new", ...}) unless --battle names a saved one.
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(systems::ALL.iter().map(|s| s.key)))]
        system: Option<String>,
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
        /// The same as --system deck.
        #[arg(long, hide = true, conflicts_with = "system")]
        deck: bool,
        /// The same as --system forces.
        #[arg(long, hide = true, conflicts_with_all = ["system", "deck"])]
        forces: bool,
        /// The same as --system wings.
        #[arg(long, hide = true, conflicts_with_all = ["system", "deck", "forces"])]
        wings: bool,
    },
    /// Write the man page and shell completions, made from this very
    /// command line's definition, into DIR (the package's build uses it).
    #[command(hide = true)]
    PackageFiles {
        /// The folder to write muster.1 and the completions into.
        dir: PathBuf,
    },
}

/// The man page (`clap_mangen`) and bash, zsh and fish completions
/// (`clap_complete`) into `dir`: from `Cli` itself, so they never lag it.
fn package_files(dir: &std::path::Path) -> std::io::Result<Vec<PathBuf>> {
    use clap::CommandFactory;
    use clap_complete::Shell;
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    let man = dir.join("muster.1");
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut page)?;
    std::fs::write(&man, page)?;
    written.push(man);
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        written.push(clap_complete::generate_to(
            shell,
            &mut Cli::command(),
            "muster",
            dir,
        )?);
    }
    Ok(written)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => match app::run(
            cli.battle,
            match cli.pdf_viewer {
                None => app::Viewer::Desktop,
                Some(p) if p.as_os_str() == "none" => app::Viewer::Off,
                Some(p) => app::Viewer::Program(p),
            },
        ) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("muster: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Sub::PackageFiles { dir }) => match package_files(&dir) {
            Ok(written) => {
                for path in written {
                    println!("Wrote {}", path.display());
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("muster: {}: {e}", dir.display());
                ExitCode::from(2)
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
            system,
            deck,
            forces,
            wings,
        }) => {
            let key = match (deck, forces, wings) {
                (true, _, _) => "deck",
                (_, true, _) => "forces",
                (_, _, true) => "wings",
                _ => system.as_deref().unwrap_or(systems::fog().key),
            };
            let system = systems::by_key(key).expect("clap allows only the systems' keys");
            let args = systems::ScriptArgs {
                file,
                game: battle,
                seed,
                ruleset,
                print_state: state,
                save,
            };
            match (system.script)(&args) {
                Ok(0) => ExitCode::SUCCESS,
                Ok(_) => ExitCode::from(1),
                Err(e) => {
                    eprintln!("muster: {e}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

/// Writes the printout, and the private page if asked; returns the files.
fn export_pdf(
    game: &Path,
    output: &Path,
    paper: &str,
    private_for: Option<&str>,
    templates: bool,
) -> Result<Vec<PathBuf>, String> {
    let paper = muster::fog::export::Paper::parse(paper)
        .ok_or_else(|| format!("--paper takes a4 or letter, not \"{paper}\""))?;
    let private_for = match private_for {
        None => None,
        Some("south") => Some(muster::Side::South),
        Some("north") => Some(muster::Side::North),
        Some(other) => {
            return Err(format!(
                "--private-for takes south or north, not \"{other}\""
            ));
        }
    };
    let system = systems::of_file(game).map_err(|e| e.to_string())?;
    (system.export)(&systems::ExportArgs {
        game,
        output,
        paper,
        private_for,
        templates,
        passphrase: &read_passphrase,
    })
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
    // Bounded: a passphrase is short, and standard input may never end (or
    // never hold a newline): nothing past its first 1 KiB is read.
    use std::io::Read;
    let mut first = std::io::BufReader::new(std::io::stdin().lock().take(1025));
    let mut line = Vec::new();
    let whole = muster::core::script::read_line_bounded(&mut first, &mut line, 1024)
        .map_err(|e| format!("reading the passphrase: {e}"))?;
    if whole == Some(false) {
        return Err("reading the passphrase: longer than 1024 bytes".into());
    }
    let line =
        String::from_utf8(line).map_err(|_| "the passphrase is not UTF-8 text".to_string())?;
    Ok(line.trim_end_matches(['\r', '\n']).to_string())
}
