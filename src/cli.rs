//! Muster's command line, as clap reads it: the window, `export-pdf` and
//! `script`. From this very definition the hidden `package-files` command
//! writes what a package ships: one man page per command (with the files
//! Muster keeps, examples and exit statuses) and bash, zsh and fish
//! completions that offer every option's values and no hidden command.

use clap::{CommandFactory, Parser, Subcommand, ValueEnum, ValueHint};
use clap_mangen::Man;
use clap_mangen::roff::{Inline, Roff, bold, italic, roman};
use std::path::{Path, PathBuf};

#[derive(Parser)]
#[command(
    name = "muster",
    version,
    // Each command's page says the version too.
    propagate_version = true,
    about = "Wargames at the table: Field of Glory's pre-battle sequence, an action-card deck, hidden forces and dummy wings",
    long_about = "Muster keeps a wargame's record at the table for two players: Field of Glory's pre-battle sequence, an action-card deck, hidden forces and dummy wings, with rules checked with the reason, dice nobody can foresee, each player's secrets sealed and a log both can trust.\n\nWith no command it opens its window, on GAME if one is named. The commands work without the window: export-pdf prints a saved game, script plays one from JSON commands.",
    // `muster help` would be a command of its own, with a page of its own
    // to ship; `--help` says the same.
    disable_help_subcommand = true
)]
pub struct Cli {
    /// A saved game of any system to open in the window (a .muster file,
    /// or an older .json one).
    #[arg(value_name = "GAME", value_hint = ValueHint::FilePath)]
    pub battle: Option<PathBuf>,
    /// The program that opens an exported public printout, instead of the
    /// desktop's PDF viewer; "none" opens nothing. A player's private page
    /// is never opened.
    #[arg(long, value_name = "PROGRAM", value_hint = ValueHint::CommandName)]
    pub pdf_viewer: Option<PathBuf>,
    /// The relay a remote game goes through when the two machines cannot
    /// reach each other directly (a club's own iroh-relay, by its URL),
    /// instead of iroh's public relays; "none" for no relay, when both
    /// machines are on the same network.
    #[arg(long, global = true, value_name = "URL", value_hint = ValueHint::Url)]
    pub relay: Option<String>,
    #[command(subcommand)]
    pub command: Option<Sub>,
}

/// A paper size, used landscape.
#[derive(Clone, Copy, ValueEnum)]
pub enum Paper {
    A4,
    Letter,
}

impl From<Paper> for muster::core::pdf::Paper {
    fn from(paper: Paper) -> Self {
        match paper {
            Paper::A4 => muster::core::pdf::Paper::A4,
            Paper::Letter => muster::core::pdf::Paper::Letter,
        }
    }
}

/// A player, by the edge of the table he sits at.
#[derive(Clone, Copy, ValueEnum)]
pub enum Side {
    South,
    North,
}

impl From<Side> for muster::Side {
    fn from(side: Side) -> Self {
        match side {
            Side::South => muster::Side::South,
            Side::North => muster::Side::North,
        }
    }
}

#[derive(Subcommand)]
pub enum Sub {
    /// Print a saved battle's table layout (or a deck, hidden-forces or dummy-wings game's printout) to a PDF, without the window.
    ExportPdf {
        /// The saved game.
        #[arg(value_name = "GAME", value_hint = ValueHint::FilePath)]
        battle: PathBuf,
        /// Where to write the PDF.
        #[arg(short, long, value_hint = ValueHint::FilePath)]
        output: PathBuf,
        /// Paper size, used landscape.
        #[arg(long, value_enum, default_value_t = Paper::A4)]
        paper: Paper,
        /// Also write this side's private page of sealed records to its own
        /// file, OUTPUT-private-SIDE.pdf. The passphrase is read from
        /// MUSTER_PASSPHRASE, else asked at the terminal without echo, else
        /// read from the first line of standard input.
        #[arg(long, value_enum, value_name = "SIDE")]
        private_for: Option<Side>,
        /// Also write every piece's template at 1:1 on tiled pages to
        /// OUTPUT-templates.pdf.
        #[arg(long)]
        templates: bool,
    },
    /// Apply one JSON command per line (FILE or - for stdin) and print one JSON result per line.
    Script {
        /// The commands, one JSON object per line; - reads standard input.
        #[arg(value_hint = ValueHint::FilePath)]
        file: PathBuf,
        /// Start from this saved game instead of a new one.
        #[arg(long, value_name = "GAME", value_hint = ValueHint::FilePath)]
        battle: Option<PathBuf>,
        /// The game system: fog (the default), deck, forces or wings. For
        /// the last three the first line starts the game
        /// ({"cmd": "new", ...}) unless --battle names a saved one.
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(crate::systems::ALL.iter().map(|s| s.key)))]
        system: Option<String>,
        /// Draw "app" dice from a fixed seed, for tests and demonstrations
        /// (the seed is never saved); without it they come from the
        /// operating system.
        #[arg(long)]
        seed: Option<u64>,
        /// A ruleset JSON file to use instead of the built-in one.
        #[arg(long, value_hint = ValueHint::FilePath)]
        ruleset: Option<PathBuf>,
        /// Print the final state as JSON after the results.
        #[arg(long)]
        state: bool,
        /// Write the resulting game to this file (the app can open it).
        #[arg(long, value_hint = ValueHint::FilePath)]
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
    /// Open the window and join a remote game by the host's ticket (its text, or its muster://join/ link).
    Join {
        /// The ticket the host sent: muster1... or muster://join/muster1...
        #[arg(value_name = "TICKET")]
        ticket: String,
    },
    /// Write the man pages and shell completions, made from this very
    /// command line's definition, into DIR (the package's build uses it).
    #[command(hide = true)]
    PackageFiles {
        /// The folder to write the man pages and the completions into.
        #[arg(value_hint = ValueHint::DirPath)]
        dir: PathBuf,
    },
}

/// Where Muster keeps its files on Linux, as the man page, the README and
/// the manual say it (the `directories` crate's XDG folders for "Muster";
/// `tests/folders.rs` holds these against the program's own).
pub const AUTOSAVES: &str = "~/.local/share/muster/autosaves";
pub const SETTINGS: &str = "~/.config/muster";

/// A man page's own sections after clap's: each a title and its
/// paragraphs, a paragraph a tagged item (`(tag, text)`) or, with no tag,
/// plain text.
type Sections = &'static [(&'static str, &'static [(&'static str, &'static str)])];

const MUSTER_SECTIONS: Sections = &[
    (
        "FILES",
        &[
            (
                "*.muster",
                "A saved game of any system (JSON inside; its header names the system). Saved where you save it (File > Save as...); older .json saves still open.",
            ),
            (
                AUTOSAVES,
                "Every game is autosaved there after every change, one file per game, with the list of folders games were saved into (save-folders.txt) so that a save killed half-way is cleaned up at the next start. In it, remote/ keeps the keys of each remote game's seat the host invited (to host it again with the same ticket), readable by its user alone. $XDG_DATA_HOME/muster/autosaves if XDG_DATA_HOME is set. On Windows: %APPDATA%\\Muster\\data\\autosaves; on macOS: ~/Library/Application Support/Muster/autosaves.",
            ),
            (
                SETTINGS,
                "Settings: inventory.json (the terrain pieces you own, for Field of Glory) and players.json (the address the players' screens were offered on last). $XDG_CONFIG_HOME/muster if XDG_CONFIG_HOME is set. On Windows: %APPDATA%\\Muster\\config; on macOS: ~/Library/Application Support/Muster.",
            ),
        ],
    ),
    (
        "EXAMPLES",
        &[
            ("muster battle.muster", "Opens the window on a saved game."),
            (
                "muster --pdf-viewer none",
                "Opens the window; exported printouts are written but not opened.",
            ),
            (
                "muster --relay https://relay.example.org",
                "Opens the window; remote games go through the club's own relay.",
            ),
            (
                "muster export-pdf battle.muster -o table.pdf --paper letter",
                "Prints the table to scale on US letter paper, without the window.",
            ),
            (
                "muster script moves.jsonl --save battle.muster",
                "Applies the commands in moves.jsonl to a new Field of Glory battle and saves it.",
            ),
        ],
    ),
    (
        "EXIT STATUS",
        &[
            (
                "0",
                "The window was closed, or the command did all it was asked.",
            ),
            (
                "1",
                "The window could not open, or a script ran and the rules refused one of its commands (each refusal is on its own line of the output).",
            ),
            (
                "2",
                "A command could not run at all: a file could not be read or written, a passphrase was wrong, or the command line was not understood.",
            ),
        ],
    ),
    (
        "SEE ALSO",
        &[(
            "",
            "muster-export-pdf(1), muster-script(1), muster-join(1). The manual: Help > Manual in the window.",
        )],
    ),
];

const EXPORT_SECTIONS: Sections = &[
    (
        "EXAMPLES",
        &[
            (
                "muster export-pdf battle.muster -o table.pdf",
                "The table to scale, the schedule and the log on A4 paper.",
            ),
            (
                "MUSTER_PASSPHRASE='...' muster export-pdf battle.muster -o table.pdf --private-for south",
                "Also writes table-private-south.pdf, South's sealed records, opened with his passphrase.",
            ),
            (
                "muster export-pdf battle.muster -o table.pdf --templates",
                "Also writes table-templates.pdf, every piece at 1:1 to cut out.",
            ),
        ],
    ),
    (
        "EXIT STATUS",
        &[
            ("0", "Every file was written (each is named on a line)."),
            (
                "2",
                "Nothing was written: the game could not be read, the passphrase was wrong, or the command line was not understood.",
            ),
        ],
    ),
    (
        "SEE ALSO",
        &[("", "muster(1), muster-script(1), muster-join(1).")],
    ),
];

const SCRIPT_SECTIONS: Sections = &[
    (
        "EXAMPLES",
        &[
            (
                "muster script placement.jsonl --seed 7 --save terrain.muster",
                "A Field of Glory battle from its commands, with app dice from a fixed seed, saved for the window.",
            ),
            (
                "muster script turn.jsonl --battle terrain.muster --state",
                "Goes on from a saved battle and prints its final state.",
            ),
            (
                "printf '%s\\n' '{\"cmd\": \"new\", ...}' | muster script - --system deck",
                "Reads the commands of an action-deck game from standard input.",
            ),
        ],
    ),
    (
        "EXIT STATUS",
        &[
            ("0", "Every command passed."),
            (
                "1",
                "The rules refused at least one command (its line of the output says why); the others were applied.",
            ),
            (
                "2",
                "The script could not run at all: a file could not be read or written, or the command line was not understood.",
            ),
        ],
    ),
    (
        "SEE ALSO",
        &[("", "muster(1), muster-export-pdf(1), muster-join(1).")],
    ),
];

const JOIN_SECTIONS: Sections = &[
    (
        "EXAMPLES",
        &[
            (
                "muster join muster1...",
                "Opens the window and joins the game whose ticket the host sent; your side is unlocked with your passphrase on this machine.",
            ),
            (
                "muster join muster://join/muster1... --relay https://relay.example.org",
                "Joins through the club's own relay.",
            ),
        ],
    ),
    (
        "EXIT STATUS",
        &[
            ("0", "The window was closed."),
            (
                "1",
                "The window could not open. A ticket that does not read, or a host that cannot be reached, is said in the window and on the terminal.",
            ),
            ("2", "The command line was not understood."),
        ],
    ),
    (
        "SEE ALSO",
        &[("", "muster(1). The manual's chapter \"Playing remotely\".")],
    ),
];

/// The sections of a page, by its name ("muster", "muster-export-pdf").
fn sections(page: &str) -> Sections {
    match page {
        "muster-join" => JOIN_SECTIONS,
        "muster-export-pdf" => EXPORT_SECTIONS,
        "muster-script" => SCRIPT_SECTIONS,
        _ => MUSTER_SECTIONS,
    }
}

/// The SYNOPSIS as a reader types it: every option with its value's name
/// (clap_mangen's leaves the values out: `[--pdf-viewer]`), the operands,
/// then the command if there are any.
fn synopsis(command: &clap::Command, out: &mut Vec<u8>) -> std::io::Result<()> {
    let name = command.get_bin_name().unwrap_or(command.get_name());
    let mut line: Vec<Inline> = vec![bold(name)];
    for arg in command.get_arguments().filter(|a| !a.is_hide_set()) {
        let value = arg
            .get_value_names()
            .map(|v| v.join(" "))
            .unwrap_or_else(|| arg.get_id().as_str().to_uppercase());
        let takes_value = arg.get_num_args().is_some_and(|n| n.takes_values());
        line.push(roman(if arg.is_required_set() { " " } else { " [" }));
        let flag = match (arg.get_short(), arg.get_long()) {
            (Some(short), Some(long)) => Some(format!("-{short}|--{long}")),
            (None, Some(long)) => Some(format!("--{long}")),
            (Some(short), None) => Some(format!("-{short}")),
            (None, None) => None,
        };
        if let Some(flag) = flag {
            line.push(bold(flag));
            if takes_value {
                line.push(roman(" "));
                line.push(italic(value));
            }
        } else {
            line.push(italic(value));
        }
        if !arg.is_required_set() {
            line.push(roman("]"));
        }
    }
    if command.get_subcommands().any(|c| !c.is_hide_set()) {
        line.push(roman(" ["));
        line.push(italic("COMMAND"));
        line.push(roman("]"));
    }
    let mut roff = Roff::new();
    roff.control("SH", ["SYNOPSIS"]).text(line);
    roff.to_writer(out)
}

/// The man page of `command`: clap_mangen's title, name, synopsis,
/// description, options and commands, then its own sections, then the
/// version; returns the page's file name (`muster-script.1`).
fn render_page(command: clap::Command, out: &mut Vec<u8>) -> std::io::Result<PathBuf> {
    let commands = command.get_subcommands().any(|c| !c.is_hide_set());
    let man = Man::new(command.clone());
    let file = PathBuf::from(man.get_filename());
    let sections = sections(&file.file_stem().unwrap_or_default().to_string_lossy());
    man.render_title(out)?;
    man.render_name_section(out)?;
    synopsis(&command, out)?;
    man.render_description_section(out)?;
    man.render_options_section(out)?;
    if commands {
        man.render_subcommands_section(out)?;
    }
    let mut roff = Roff::new();
    for (title, items) in sections {
        roff.control("SH", [*title]);
        for (tag, text) in *items {
            if tag.is_empty() {
                roff.control("PP", []).text([roman(*text)]);
            } else {
                roff.control("TP", [])
                    .text([bold(*tag)])
                    .text([roman(*text)]);
            }
        }
    }
    roff.to_writer(out)?;
    man.render_version_section(out)?;
    Ok(file)
}

/// The command line as the completions offer it: without its hidden
/// commands and options (clap_complete's scripts would offer every one).
fn offered(command: &clap::Command) -> clap::Command {
    let mut out = clap::Command::new(command.get_name().to_string())
        .disable_help_subcommand(command.is_disable_help_subcommand_set())
        .propagate_version(command.is_propagate_version_set())
        .args(
            command
                .get_arguments()
                .filter(|a| !a.is_hide_set())
                .cloned(),
        )
        .subcommands(
            command
                .get_subcommands()
                .filter(|c| !c.is_hide_set())
                .map(offered),
        );
    if let Some(about) = command.get_about() {
        out = out.about(about.clone());
    }
    if let Some(version) = command.get_version() {
        out = out.version(version.to_string());
    }
    out
}

/// The man pages (muster.1 and one per visible command) and the bash, zsh
/// and fish completions into `dir`; returns the files written.
pub fn package_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    use clap_complete::Shell;
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    let mut cli = Cli::command();
    cli.build();
    let pages = std::iter::once(cli.clone()).chain(
        cli.get_subcommands()
            .filter(|c| !c.is_hide_set())
            .cloned()
            .collect::<Vec<_>>(),
    );
    for command in pages {
        let mut page = Vec::new();
        let path = dir.join(render_page(command, &mut page)?);
        std::fs::write(&path, page)?;
        written.push(path);
    }
    let mut offered = offered(&Cli::command());
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        written.push(clap_complete::generate_to(
            shell,
            &mut offered,
            "muster",
            dir,
        )?);
    }
    Ok(written)
}
