//! The command line as a user runs it: the `muster script` binary on a
//! JSON-lines file, one result line per command, and `muster FILE`'s refusals.

use serde_json::Value;
use std::process::Command;

fn muster() -> Command {
    Command::new(env!("CARGO_BIN_EXE_muster"))
}

/// `muster script ARGS --save SAVE`, as a user runs it.
fn script_saving(args: &[&str], save: &std::path::Path) -> std::process::Output {
    muster()
        .arg("script")
        .args(args)
        .arg("--save")
        .arg(save)
        .output()
        .unwrap()
}

/// Each line `muster` printed, as JSON.
fn results(out: &std::process::Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn example_script_runs_and_saves_a_battle_the_loader_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("battle.json");
    let out = script_saving(&["examples/scripts/selection.jsonl", "--state"], &save);
    let lines = results(&out);
    assert_eq!(lines.len(), 15, "14 results and the state");
    // The 7 typed for North is refused with rule 11; everything else passes.
    assert_eq!(lines[4]["ok"], false);
    assert_eq!(lines[4]["rule"], "11");
    assert!(lines[4]["error"].as_str().unwrap().contains("7 was typed"));
    let failures = lines[..14].iter().filter(|l| l["ok"] == false).count();
    assert_eq!(failures, 1);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a refused command makes the exit code 1"
    );
    assert_eq!(lines[5]["events"][1]["event"], "initiative_won");
    // North's compulsory piece leaves South one: the script takes it for
    // him, as the window does, in the same result.
    let chosen: Vec<&Value> = lines[7]["events"].as_array().unwrap().iter().collect();
    assert_eq!(chosen.len(), 2, "{chosen:?}");
    assert_eq!(chosen[1]["side"], "south", "{chosen:?}");
    let state = &lines[14];
    assert_eq!(state["territory"], "woodlands");
    assert_eq!(state["selection"]["finished"]["south"], true);
    let battle = muster::fog::files::load_battle(&save).unwrap();
    assert_eq!(battle.state().selection.picks.len(), 4);
}

#[test]
fn stdin_script_with_a_malformed_line_says_which() {
    use std::io::Write;
    let mut child = muster()
        .args(["script", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"{\"cmd\": \"roll_initiative\", \"side\": \"south\"\n{\"cmd\": \"fly\"}\n\xff\xfe bad bytes\n{\"cmd\": \"seal_flank_march\", \"side\": \"south\", \"plan\": {\"bgs\": [0], \"commander\": 0, \"flank\": \"left\"}}\n{\"cmd\": \"roll_initiative\", \"side\": \"south\", \"dice\": \"apple\"}\n{\"cmd\": \"configure\", \"settings\": {\"title\": \"Cannae\", \"table\": {\"width\": 72, \"depth\": 48}, \"mu\": \"inch\", \"units\": \"inches\"}}\n",
        )
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Every bad line gets its own refusal with its number, and the script
    // goes on to the good line at the end; nothing panics.
    assert_eq!(lines.len(), 6, "{stdout}");
    let error = |i: usize| lines[i]["error"].as_str().unwrap().to_string();
    assert!(
        error(0).starts_with("line 1: not a JSON command"),
        "{}",
        error(0)
    );
    assert!(
        error(1).starts_with("line 2: unknown command \"fly\""),
        "{}",
        error(1)
    );
    assert!(
        error(2).starts_with("line 3: not UTF-8 text"),
        "{}",
        error(2)
    );
    assert!(
        error(3).contains("South cannot record flank marches now"),
        "{}",
        error(3)
    );
    assert!(
        error(4).contains("a list of faces such as [4]"),
        "{}",
        error(4)
    );
    assert!(!error(4).contains("untagged"), "{}", error(4));
    assert_eq!(lines[5]["ok"], true);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn placement_example_lays_out_the_table() {
    let out = muster()
        .args(["script", "examples/scripts/placement.jsonl", "--state"])
        .output()
        .unwrap();
    let lines = results(&out);
    let refused: Vec<usize> = (0..lines.len() - 1)
        .filter(|&i| lines[i]["ok"] == false)
        .collect();
    assert_eq!(refused, vec![4], "only the die typed as 7 is refused");
    let state = lines.last().unwrap();
    assert_eq!(state["placement"]["laid"].as_object().unwrap().len(), 5);
    assert_eq!(
        state["placement"]["road"],
        serde_json::json!([[58.0, 0.0], [58.0, 48.0]])
    );
    assert_eq!(
        state["placement"]["laid"]["3"]["going"], "rough",
        "the river's going"
    );
}

#[test]
fn deployment_and_play_with_secrets_given_by_passphrase() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("played.json");
    let out = script_saving(
        &[
            "examples/scripts/deployment.jsonl",
            "--battle",
            "assets/battles/terrain_laid.json",
        ],
        &save,
    );
    let refused: Vec<String> = results(&out)
        .into_iter()
        .filter(|l| l["ok"] == false)
        .map(|l| l["error"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(refused.len(), 4, "{refused:#?}");
    assert!(
        refused[3].contains("not the passphrase this player set"),
        "{refused:#?}"
    );
    // Sealed on the way in: the saved file never holds a passphrase, and the
    // march (revealed in the script) and dummy are there only as revealed.
    let file = std::fs::read_to_string(&save).unwrap();
    assert!(!file.contains("copper heron lantern thistle"));
    let battle = muster::fog::files::load_battle(&save).unwrap();
    assert_eq!(battle.phase(), muster::fog::battle::Phase::Play);

    // The owner's private page, his passphrase on standard input.
    let pdf = dir.path().join("private.pdf");
    let mut child = muster()
        .args(["export-pdf"])
        .arg(&save)
        .arg("-o")
        .arg(&pdf)
        .args(["--private-for", "south"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    writeln!(child.stdin.take().unwrap(), "copper heron lantern thistle").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    // Nothing of the passphrase is printed.
    assert!(!String::from_utf8_lossy(&output.stdout).contains("alea"));
    // The private page is its own file; the printout holds no secret.
    let private = dir.path().join("private-private-south.pdf");
    owner_only(&private);
    let doc = lopdf::Document::load(&private).unwrap();
    assert_eq!(doc.get_pages().len(), 1);
    assert!(doc.extract_text(&[1]).unwrap().contains("Syrian archers"));
    let public = lopdf::Document::load(&pdf).unwrap();
    let pages: Vec<u32> = public.get_pages().keys().copied().collect();
    assert!(
        !public
            .extract_text(&pages)
            .unwrap()
            .contains("Syrian archers")
    );
    let wrong = muster()
        .args(["export-pdf"])
        .arg(&save)
        .arg("-o")
        .arg(dir.path().join("no.pdf"))
        .args(["--private-for", "south"])
        .env("MUSTER_PASSPHRASE", "wrong")
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("not the passphrase"));
    assert!(!dir.path().join("no.pdf").exists());
    // Issue 32: standard input that never ends (and holds no newline) was
    // read for ever. Only its first 1 KiB is read: refused, nothing written.
    let mut endless = muster()
        .args(["export-pdf"])
        .arg(&save)
        .arg("-o")
        .arg(dir.path().join("no.pdf"))
        .args(["--private-for", "south"])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let ended = (0..500).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(20));
        endless.try_wait().unwrap().is_some()
    });
    if !ended {
        endless.kill().unwrap();
    }
    assert!(ended, "an endless standard input is read for ever");
    let output = endless.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("longer than 1024 bytes"));
    assert!(!dir.path().join("no.pdf").exists());
}

#[test]
fn the_hidden_forces_example_reaches_contact_and_saves_a_game_that_reopens() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("forces.json");
    let out = script_saving(&["--forces", "examples/scripts/forces.jsonl"], &save);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 10);
    assert!(stdout.contains("(A2b): Cataphracts of Suren"), "{stdout}");
    assert!(stdout.contains("held no units: it is removed from the map (A4)"));
    let game = muster::map_intel::files::load(&save).unwrap();
    assert_eq!(game.public().turn, 2);
    // Legio X never left the off-map area: neither output nor file names it.
    let file = std::fs::read_to_string(&save).unwrap();
    let log = &file[file.find("\"log\"").unwrap()..];
    assert!(!stdout.contains("Legio X") && !log.contains("r-leg-10"));

    // Printed without the window: the public map, and South's ledger in a
    // file of its own (he plays without a passphrase).
    let pdf = dir.path().join("forces.pdf");
    let out = muster()
        .args(["export-pdf"])
        .arg(&save)
        .arg("-o")
        .arg(&pdf)
        .args(["--private-for", "south"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    for path in [pdf.clone(), dir.path().join("forces-private-south.pdf")] {
        assert!(
            std::fs::read(&path).unwrap().starts_with(b"%PDF"),
            "{path:?}"
        );
    }
    owner_only(&dir.path().join("forces-private-south.pdf"));
}

/// A player's private page is readable by the file's owner alone (issue
/// 39: it was written 0644, for anyone on the laptop).
fn owner_only(path: &std::path::Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{path:?}: {mode:o}");
    }
}

#[test]
fn the_dummy_wings_example_spots_rolls_and_places_and_saves_a_game_that_reopens() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("wings.json");
    let out = script_saving(&["--wings", "examples/scripts/wings.jsonl"], &save);
    // Two lines are refused on purpose: a move beyond the slowest unit's
    // allowance, and a formation the rules forbid.
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 16);
    assert!(lines[6].contains("\"rule\":\"27.1.4\"") && lines[6].contains("allows 9"));
    assert!(
        lines[8].contains("clear; Charles (Franco-Imperial) shows what it is"),
        "{}",
        lines[8]
    );
    assert_eq!(
        lines[9],
        r#"{"moving":"7/12","ok":true,"stationary":"5/12"}"#
    );
    assert!(
        lines[10].contains("the moving side wins by 5"),
        "{}",
        lines[10]
    );
    assert!(lines[12].contains("\"rule\":\"27.2.3\""), "{}", lines[12]);
    // Before the flip nobody's composition is in the output.
    assert!(!lines[..8].join("\n").contains("Cuirassiers"));
    let game = muster::map_intel::wings::files::load(&save).unwrap();
    assert_eq!(game.public().turn, 2);
    // The two Prussian dummies were never flipped: their records stay sealed.
    let file = std::fs::read_to_string(&save).unwrap();
    let log = &file[file.find("\"log\"").unwrap()..];
    assert_eq!(log.matches("\"real\": false").count(), 0);
}

/// Issue 21: the deck, hidden forces and dummy wings had no `unlock` in
/// their scripts, so a saved game with a passphrase could not go on from
/// the command line. A reopened game is read-only until its player
/// unlocks; a wrong passphrase is refused; the passphrase is never echoed.
#[test]
fn a_saved_hidden_forces_game_with_a_passphrase_is_unlocked_in_a_script() {
    let dir = tempfile::tempdir().unwrap();
    let pass = "lantern quarry thistle ember falcon";
    let first = dir.path().join("first.jsonl");
    std::fs::write(
        &first,
        format!(
            "{{\"cmd\": \"new\", \"south\": {{\"name\": \"Ann\", \"passphrase\": \"{pass}\"}}, \"north\": {{\"name\": \"Bob\"}}}}\n\
             {{\"cmd\": \"transfer\", \"side\": \"south\", \"from\": 0, \"to\": {{\"new_force\": \"0505\"}}, \"units\": [\"r-leg-3\"]}}\n"
        ),
    )
    .unwrap();
    let save = dir.path().join("forces.json");
    let out = muster()
        .args(["script", "--forces"])
        .arg(&first)
        .arg("--save")
        .arg(&save)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let then = dir.path().join("then.jsonl");
    std::fs::write(
        &then,
        format!(
            "{{\"cmd\": \"begin\", \"first\": \"south\"}}\n\
             {{\"cmd\": \"unlock\", \"side\": \"south\", \"passphrase\": \"not it at all\"}}\n\
             {{\"cmd\": \"unlock\", \"side\": \"south\", \"passphrase\": \"{pass}\"}}\n\
             {{\"cmd\": \"begin\", \"first\": \"south\"}}\n"
        ),
    )
    .unwrap();
    let out = muster()
        .args(["script", "--forces", "--battle"])
        .arg(&save)
        .arg(&then)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(
        lines[0].contains("\"ok\":false") && lines[0].contains("unlock"),
        "{}",
        lines[0]
    );
    assert!(lines[1].contains("not the passphrase"), "{}", lines[1]);
    assert_eq!(lines[2], r#"{"ok":true,"unlocked":"south"}"#);
    assert!(lines[3].contains("\"ok\":true"), "{}", lines[3]);
    assert!(!stdout.contains(pass));
}

/// Issue 22: `--system` names any system from the one table; the old flags
/// stay as its aliases, giving the same results; an unknown system is
/// refused with the ones there are.
#[test]
fn system_names_the_game_and_the_old_flags_are_its_aliases() {
    let script = "examples/scripts/deck.jsonl";
    let run = |flags: &[&str]| {
        muster()
            .args(["script", "--seed", "5"])
            .args(flags)
            .arg(script)
            .output()
            .unwrap()
    };
    let by_name = run(&["--system", "deck"]);
    let by_flag = run(&["--deck"]);
    assert_eq!(by_name.status.code(), by_flag.status.code());
    assert_eq!(by_name.stdout, by_flag.stdout);
    assert!(String::from_utf8_lossy(&by_name.stdout).contains("\"ok\":true"));
    let unknown = run(&["--system", "chess"]);
    assert_eq!(unknown.status.code(), Some(2));
    let said = String::from_utf8_lossy(&unknown.stderr);
    assert!(said.contains("deck") && said.contains("wings"), "{said}");
}

/// Issue 21: asked for North's private page of a deck game, `export-pdf`
/// wrote the public summary as if it were his. It says there is none and
/// writes nothing; without the flag it prints the summary.
#[test]
fn a_deck_game_has_no_private_page_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("deck.json");
    let out = muster()
        .args(["script", "--deck", "--seed", "5", "--save"])
        .arg(&game)
        .arg("examples/scripts/deck.jsonl")
        .output()
        .unwrap();
    assert!(game.exists(), "{}", String::from_utf8_lossy(&out.stderr));
    let pdf = dir.path().join("deck.pdf");
    let export = |flags: &[&str]| {
        muster()
            .arg("export-pdf")
            .arg(&game)
            .arg("-o")
            .arg(&pdf)
            .args(flags)
            .output()
            .unwrap()
    };
    let asked = export(&["--private-for", "north"]);
    assert_ne!(asked.status.code(), Some(0));
    let said = String::from_utf8_lossy(&asked.stderr);
    assert!(said.contains("no private page"), "{said}");
    assert!(!pdf.exists(), "a page was written");
    let summary = export(&[]);
    assert_eq!(summary.status.code(), Some(0), "{summary:?}");
    assert!(pdf.exists());
}

/// Issue 39: a file with no game's header was refused without saying
/// which file ("missing field `schema`, line 1"); the refusal names it,
/// never the PDF that was to be written.
#[test]
fn export_pdf_refusing_a_file_names_that_file() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("not-a-game.json");
    std::fs::write(&game, r#"{"format": "x"}"#).unwrap();
    let pdf = dir.path().join("table.pdf");
    let out = muster()
        .arg("export-pdf")
        .arg(&game)
        .arg("-o")
        .arg(&pdf)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("not-a-game.json"), "{said}");
    assert!(!said.contains("table.pdf"), "{said}");
    assert!(!pdf.exists());
}

/// The one result of a script of one `line` in `system`.
fn one_line(system: &str, line: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("script.jsonl");
    std::fs::write(&path, format!("{line}\n")).unwrap();
    let out = muster()
        .args(["script", "--system", system])
        .arg(&path)
        .output()
        .unwrap();
    let lines = results(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    lines[0].clone()
}

/// Issue 39's black-box findings, as a user scripts them: a battle's title
/// with U+202E or NUL, a hidden-forces player named with a zero-width
/// space, two deck players whose names pass for each other (a Cyrillic
/// "А") are each refused with the field and the character named; nothing
/// is applied.
#[test]
fn names_that_hide_reorder_or_pass_for_another_are_refused_in_every_system() {
    let run = |system: &str, line: &str| {
        let result = one_line(system, line);
        assert_eq!(result["ok"], false, "{line}: {result}");
        result["error"].as_str().unwrap().to_string()
    };
    for (title, point) in [
        ("Mons\\u202e Graupius", "U+202E"),
        ("Mons\\u0000", "U+0000"),
    ] {
        let e = run(
            "fog",
            &format!(
                r#"{{"cmd": "configure", "settings": {{"title": "{title}", "table": {{"width": 72, "depth": 48}}, "mu": "inch", "units": "inches"}}}}"#
            ),
        );
        assert!(e.contains("title") && e.contains(point), "{e}");
    }
    let e = run(
        "forces",
        r#"{"cmd": "new", "south": {"name": "An\u200bn"}, "north": {"name": "Bob"}}"#,
    );
    assert!(e.contains("U+200B"), "{e}");
    let e = run(
        "deck",
        r#"{"cmd": "new", "south": {"name": "Ann", "army": "romans"}, "north": {"name": "\u0410nn", "army": "gauls"}}"#,
    );
    assert!(e.contains("look alike"), "{e}");
}

/// Issue 49, through `muster script` as a player meets it: a battle's
/// title of 900,000 characters or of spaces only, and a player named "Ann"
/// with a braille blank after it beside "Ann", are refused naming the
/// field; an emoji as a phone types it ("Legio ⚔️") is a name.
#[test]
fn one_name_rule_holds_in_scripts() {
    let configure = |title: &str| {
        format!(
            r#"{{"cmd": "configure", "settings": {{"title": "{title}", "table": {{"width": 72, "depth": 48}}, "mu": "inch", "units": "inches"}}}}"#
        )
    };
    for (title, says) in [
        ("x".repeat(900_000), "at most 80"),
        ("   ".to_string(), "title is blank"),
    ] {
        let result = one_line("fog", &configure(&title));
        assert_eq!(result["ok"], false, "{result}");
        let e = result["error"].as_str().unwrap();
        assert!(e.contains("title") && e.contains(says), "{e}");
    }
    let result = one_line(
        "forces",
        r#"{"cmd": "new", "south": {"name": "Ann"}, "north": {"name": "Ann\u2800"}}"#,
    );
    let e = result["error"].as_str().unwrap();
    assert!(
        e.contains("North's player's name") && e.contains("U+2800"),
        "{e}"
    );
    let result = one_line(
        "deck",
        r#"{"cmd": "new", "south": {"name": "Legio \u2694\ufe0f", "army": "romans"}, "north": {"name": "Artagur", "army": "gauls"}}"#,
    );
    assert_eq!(result["ok"], true, "{result}");
}

/// `muster FILE` with a file that is no game says so on the terminal that
/// named it, before (here: without) any window.
#[cfg(target_os = "linux")]
#[test]
fn a_file_named_on_the_command_line_that_is_no_game_is_said_on_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.muster");
    std::fs::write(&notes, "expected ident").unwrap();
    // No display, so no window opens; Muster's folders in the test's own.
    let out = muster()
        .arg(&notes)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("HOME", dir.path())
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let said = format!(
        "muster: Not opened: {}: not a Muster file: it does not begin as Muster's saved games do\n",
        notes.display()
    );
    assert!(err.starts_with(&said), "{err}");
}
