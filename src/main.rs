//! Muster's binary: with no subcommand it opens the window; `script` runs
//! JSON-lines commands against a battle without one. On Windows a release
//! build is a GUI program, so no console window opens behind the game; run
//! from a terminal, it prints there all the same.

#![cfg_attr(all(windows, not(debug_assertions)), windows_subsystem = "windows")]

mod app;
mod cli;
mod systems;

use clap::Parser;
use cli::{Cli, Sub};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    #[cfg(windows)]
    attach_parent_console();
    let cli = Cli::parse();
    let viewer = match &cli.pdf_viewer {
        None => app::Viewer::Desktop,
        Some(p) if p.as_os_str() == "none" => app::Viewer::Off,
        Some(p) => app::Viewer::Program(p.clone()),
    };
    match cli.command {
        None => window(cli.battle, viewer, cli.relay.as_deref(), None),
        Some(Sub::Join { ticket }) => window(None, viewer, cli.relay.as_deref(), Some(ticket)),
        Some(Sub::PackageFiles { dir }) => match cli::package_files(&dir) {
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
        }) => match export_pdf(
            &battle,
            &output,
            paper.into(),
            private_for.map(Into::into),
            templates,
        ) {
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

/// Opens the window: on `game` (a `muster://` link the desktop opened
/// Muster with joins its game instead), or joining `join`'s game.
fn window(
    game: Option<PathBuf>,
    viewer: app::Viewer,
    relay: Option<&str>,
    join: Option<String>,
) -> ExitCode {
    let mut net = muster_remote::Net::public();
    if let Some(url) = relay {
        match muster_remote::Relays::own(url) {
            Ok(relays) => net.relays = relays,
            Err(why) => {
                eprintln!("muster: --relay: {why}");
                return ExitCode::from(2);
            }
        }
    }
    let (game, join) = match game.as_deref().map(opened_as) {
        Some(Opened::Join(ticket)) => (None, Some(ticket)),
        Some(Opened::File(path)) => (Some(path), join),
        None => (None, join),
    };
    match app::run(game, viewer, app::RemoteStart { net, join }) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("muster: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What the desktop (or a terminal) opened Muster on.
#[derive(Debug, PartialEq)]
enum Opened {
    File(PathBuf),
    /// A remote game's ticket, from its `muster://join/` link.
    Join(String),
}

/// A game file, a `file://` URL the desktop passes for one (its `%u`),
/// or a ticket's `muster://` link.
fn opened_as(given: &Path) -> Opened {
    let text = given.to_string_lossy();
    if text.starts_with("muster://") {
        return Opened::Join(text.into_owned());
    }
    match url::Url::parse(&text).ok().filter(|u| u.scheme() == "file") {
        Some(url) => Opened::File(url.to_file_path().unwrap_or_else(|()| given.to_path_buf())),
        None => Opened::File(given.to_path_buf()),
    }
}

/// Windows starts a GUI program with no console: run from a terminal, it
/// takes the terminal's, so `--help`, `--version`, `script` and
/// `export-pdf` print there (and clap's refusals too). Started from
/// Explorer there is none to take, and the call changes nothing; in a debug
/// build, a console program, it has its own already.
#[cfg(windows)]
fn attach_parent_console() {
    use windows_sys::Win32::System::Console::{ATTACH_PARENT_PROCESS, AttachConsole};
    // SAFETY: AttachConsole takes a process id and no pointer; on failure
    // it only returns 0.
    unsafe {
        AttachConsole(ATTACH_PARENT_PROCESS);
    }
}

/// Writes the printout, and the private page if asked; returns the files.
fn export_pdf(
    game: &Path,
    output: &Path,
    paper: muster::core::pdf::Paper,
    private_for: Option<muster::Side>,
    templates: bool,
) -> Result<Vec<PathBuf>, String> {
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

#[cfg(test)]
mod opened {
    use super::{Opened, opened_as};
    use std::path::Path;

    /// The desktop entry takes `%u`: a game file may come as a path or a
    /// `file://` URL (escapes read), and a ticket's link joins its game.
    #[cfg(unix)]
    #[test]
    fn the_desktop_opens_a_path_a_file_url_or_a_tickets_link() {
        assert_eq!(
            opened_as(Path::new("file:///tmp/Mons%20Graupius.muster")),
            Opened::File("/tmp/Mons Graupius.muster".into())
        );
        assert_eq!(
            opened_as(Path::new("battles/file.muster")),
            Opened::File("battles/file.muster".into())
        );
        assert_eq!(
            opened_as(Path::new("muster://join/muster1abc")),
            Opened::Join("muster://join/muster1abc".into())
        );
    }
}
