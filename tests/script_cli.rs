//! The scripting interface as a user runs it: the `muster script` binary on a
//! JSON-lines file, one result line per command.

use serde_json::Value;
use std::process::Command;

fn muster() -> Command {
    Command::new(env!("CARGO_BIN_EXE_muster"))
}

#[test]
fn example_script_runs_and_saves_a_battle_the_loader_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("battle.json");
    let out = muster()
        .args([
            "script",
            "examples/scripts/selection.jsonl",
            "--state",
            "--save",
        ])
        .arg(&save)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 16, "15 results and the state");
    // The 7 typed for North is refused with rule 11; everything else passes.
    assert_eq!(lines[4]["ok"], false);
    assert_eq!(lines[4]["rule"], "11");
    assert!(lines[4]["error"].as_str().unwrap().contains("7 was typed"));
    let failures = lines[..15].iter().filter(|l| l["ok"] == false).count();
    assert_eq!(failures, 1);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a refused command makes the exit code 1"
    );
    assert_eq!(lines[5]["events"][1]["event"], "initiative_won");
    let state = &lines[15];
    assert_eq!(state["territory"], "woodlands");
    assert_eq!(state["selection"]["finished"]["south"], true);
    let battle = muster::store::load_battle(&save).unwrap();
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
        .write_all(b"{\"cmd\": \"roll_initiative\", \"side\": \"south\"\n{\"cmd\": \"fly\"}\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .starts_with("line 1: EOF")
    );
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("unknown variant `fly`")
    );
}

#[test]
fn placement_example_lays_out_the_table() {
    let out = muster()
        .args(["script", "examples/scripts/placement.jsonl", "--state"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
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
    let out = muster()
        .args([
            "script",
            "examples/scripts/deployment.jsonl",
            "--battle",
            "assets/battles/terrain_laid.json",
            "--save",
        ])
        .arg(&save)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let refused: Vec<String> = stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["ok"] == false)
        .map(|l| l["error"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(refused.len(), 4, "{refused:#?}");
    assert!(refused[3].contains("does not open South's sealed record"));
    // Sealed on the way in: the saved file never holds a passphrase, and the
    // march (revealed in the script) and dummy are there only as revealed.
    let file = std::fs::read_to_string(&save).unwrap();
    assert!(!file.contains("alea iacta est"));
    let battle = muster::store::load_battle(&save).unwrap();
    assert_eq!(battle.phase(), muster::battle::Phase::Play);

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
    writeln!(child.stdin.take().unwrap(), "alea iacta est").unwrap();
    assert!(child.wait().unwrap().success());
    let doc = lopdf::Document::load(&pdf).unwrap();
    let last = doc.get_pages().len() as u32;
    assert!(
        doc.extract_text(&[last])
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
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("does not open"));
    assert!(!dir.path().join("no.pdf").exists());
}
