//! The app driven as a player would: egui_kittest clicks through the steps
//! by their accessible labels, with the harness's accessibility check on.

use super::{AppConfig, MusterApp, Status};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use muster::core::side::Side;
use muster::fog::battle::{Phase, Step};
use std::path::Path;

/// South's passphrase in the shipped example battle.
const PASS: &str = muster::fog::examples::EXAMPLE_PASSPHRASE;

/// The app started with `config` in a window of `size`, first frame run.
pub(crate) fn app(config: AppConfig, size: [f32; 2]) -> Harness<'static, MusterApp> {
    app_stepping(config, size, 0.25)
}

/// The app with `step_dt` seconds between frames (kittest's own is 0.25 s;
/// a test of what happens within a fraction of a second wants shorter).
fn app_stepping(config: AppConfig, size: [f32; 2], step_dt: f32) -> Harness<'static, MusterApp> {
    let mut h = built(config, size, step_dt);
    h.run();
    h
}

/// The app, no frame run yet (a window that starts with a spinner is
/// stepped, not run to rest).
pub(crate) fn built(
    config: AppConfig,
    size: [f32; 2],
    step_dt: f32,
) -> Harness<'static, MusterApp> {
    Harness::builder()
        .with_size(size)
        .with_step_dt(step_dt)
        // Messages from the phones' server arrive between frames, and each
        // frame that carries some out is drawn again: a run settles in a
        // few more frames than a window alone.
        .with_max_steps(16)
        .renderer(crate::app::pairing::Textures::new())
        .build_eframe(move |_cc| MusterApp::new(config))
}

/// Fails naming the first of `sealed` that the shared screen shows: every
/// node of its accessibility tree is searched, its label, value and
/// description alike.
pub(crate) fn shows_none(h: &Harness<'_, MusterApp>, sealed: &[String]) {
    for text in every_text(h) {
        if let Some(name) = sealed.iter().find(|name| text.contains(name.as_str())) {
            panic!("the shared screen shows {name}, which is sealed: {text:?}");
        }
    }
}

/// Every text of the window as its accessibility tree has it: each node's
/// label, value and description.
pub(crate) fn every_text(h: &Harness<'_, MusterApp>) -> Vec<String> {
    let by = egui_kittest::kittest::By::new().predicate(|_| true);
    h.query_all(by)
        .flat_map(|node| {
            let node = node.accesskit_node();
            [node.label(), node.value(), node.description()]
                .into_iter()
                .flatten()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A finger (or mouse) pressed at the first of `points`, moved through the
/// rest and lifted at the last, a frame each: a drag on a map.
pub(crate) fn drag_through(h: &mut Harness<'_, MusterApp>, points: &[egui::Pos2]) {
    h.drag_at(points[0]);
    h.run();
    for at in &points[1..] {
        h.hover_at(*at);
        h.run();
    }
    h.drop_at(points[points.len() - 1]);
    h.run();
}

pub(crate) fn harness(autosave: &Path) -> Harness<'static, MusterApp> {
    app(config(autosave), [1500.0, 1000.0])
}

pub(crate) fn config(autosave: &Path) -> AppConfig {
    AppConfig {
        autosave: Some(autosave.to_path_buf()),
        inventory: Some(autosave.with_file_name("inventory.json")),
        open: None,
        seed: Some(11),
        viewer: crate::app::Viewer::Off,
        settings: None,
        phone_names: vec![crate::app::phone_kit::browser::HOST.into()],
        net: muster_remote::Net::nowhere(),
        join: None,
    }
}

/// Clicks a widget by its label, scrolling it into view first as a player
/// would.
pub(crate) fn click(h: &mut Harness<'_, MusterApp>, label: &str) {
    if h.query_by_label(label).is_none() {
        panic!(
            "no {label:?} to click; the window shows {:?}",
            every_text(h)
        );
    }
    h.get_by_label(label).scroll_to_me();
    h.run();
    match h.query_by_label(label) {
        Some(node) => node.click(),
        None => panic!(
            "{label:?} went away as it was scrolled into view; the window shows {:?}",
            every_text(h)
        ),
    }
    h.run();
}

pub(crate) fn type_into(h: &mut Harness<'_, MusterApp>, label: &str, text: &str) {
    let field = h.get_by_label(label);
    field.focus();
    field.type_text(text);
    h.run();
}

/// Replaces a text field's contents, as Ctrl+A then typing does.
pub(crate) fn replace_text(h: &mut Harness<'_, MusterApp>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.get_by_label(label).type_text(text);
    h.run();
}

/// Enters a small army for the side shown: one cavalry BG by default.
fn enter_army(h: &mut Harness<'_, MusterApp>, side: Side, player: &str, territories: &[&str]) {
    click(h, side.name());
    type_into(h, "Player name", player);
    type_into(h, "Army name", &format!("{player}'s host"));
    type_into(h, "C-in-C name", &format!("{player} the Bold"));
    for t in territories {
        click(h, t);
    }
    click(h, "Add battle group");
    click(h, "Add battle group");
    click(h, WITHOUT_PASSPHRASE);
    click(h, &format!("Confirm {side}'s army"));
}

pub(crate) const WITHOUT_PASSPHRASE: &str =
    "Play without a passphrase (a friendly game: edits and secrets are not protected)";

/// The label of the first widget that starts with `start` and holds
/// `part` (a card's play, whichever card it is).
pub(crate) fn label_of(h: &Harness<'_, MusterApp>, start: &str, part: &str) -> String {
    h.query_all_by_label_contains(part)
        .filter_map(|n| n.accesskit_node().label())
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no {start}… {part}"))
}

/// `side`'s army from the shipped examples, into his draft.
pub(crate) fn load_example(h: &mut Harness<'_, MusterApp>, side: &str, army: &str) {
    click(h, side);
    click(h, "Load example army");
    click(h, army);
}

/// Unlocks a reopened battle as `side` in the unlock window.
/// A player unlocks on their own screen: "Unlock as South (Ann)…" (`who`
/// may be the start of the name), the hand-over, his passphrase, then the
/// screen goes back; or, refused, he reads why on his screen and cancels.
/// Returns the refusal.
pub(crate) fn unlock(
    h: &mut Harness<'_, MusterApp>,
    who: &str,
    passphrase: &str,
) -> Option<String> {
    unlock_with_pin(h, who, passphrase, "")
}

/// `unlock`, choosing the hand-over PIN `pin` beside the passphrase (none
/// if empty).
pub(crate) fn unlock_with_pin(
    h: &mut Harness<'_, MusterApp>,
    who: &str,
    passphrase: &str,
    pin: &str,
) -> Option<String> {
    let label = h
        .get_all_by_role(egui::accesskit::Role::Button)
        .filter_map(|n| n.accesskit_node().label())
        .find(|l| l.starts_with(&format!("Unlock as {who}")))
        .unwrap_or_else(|| panic!("no button to unlock as {who}"));
    let name = label
        .trim_start_matches("Unlock as ")
        .trim_end_matches('…')
        .to_string();
    click(h, &label);
    let name = muster::core::text::possessive(&name);
    type_into(h, &format!("{name} passphrase"), passphrase);
    if !pin.is_empty() {
        type_into(
            h,
            &format!("{name} hand-over PIN for this sitting (optional)"),
            pin,
        );
    }
    press_and_wait(h, "Unlock");
    // Taken, his unlocking closes at once (a step of his may ask his
    // passphrase next, on its own hand-over); refused, it stays with why.
    h.query_by_label("Unlock")?;
    let why = {
        let node = h.get_by_label_contains("✖ ");
        let node = node.accesskit_node();
        node.label().or_else(|| node.value()).unwrap_or_default()
    };
    click(h, "Cancel: back to the table");
    Some(why)
}

/// Clicks a button that starts working out a key, then steps the window
/// until the worker is done (Argon2id runs off the window's thread, and the
/// spinner repaints meanwhile).
pub(crate) fn press_and_wait(h: &mut Harness<'_, MusterApp>, label: &str) {
    h.get_by_label(label).click();
    worked(h);
}

/// Steps the window until the key asked for (by a click or by Enter in
/// the passphrase's form) is worked out.
pub(crate) fn worked(h: &mut Harness<'_, MusterApp>) {
    // The click, then the first frame of the spinner.
    h.step();
    h.step();
    // A generous bound: Argon2id in a test build, beside the other tests
    // on a loaded machine, takes seconds.
    for _ in 0..3000 {
        h.step();
        if h.query_by_label_contains("Working out the key").is_none() {
            // What the key was for may be a printout, made on a worker.
            printed(h);
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("the key was not worked out in 30 s");
}

/// Runs the window until the printout asked for is written: it is made on
/// a worker, the status line spinning meanwhile.
pub(crate) fn printed(h: &mut Harness<'_, MusterApp>) {
    for _ in 0..500 {
        h.step();
        if !h.state().exporting {
            h.run();
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("the printout was not written in 5 s");
}

/// A player sets his passphrase for a new game on his own screen.
pub(crate) fn set_passphrase(h: &mut Harness<'_, MusterApp>, side: Side, name: &str, pass: &str) {
    click(h, &format!("Set {side}'s passphrase…"));
    type_into(
        h,
        &format!("{} passphrase", muster::core::text::possessive(name)),
        pass,
    );
    type_into(
        h,
        &format!("{} passphrase again", muster::core::text::possessive(name)),
        pass,
    );
    press_and_wait(h, "Set it");
}

#[test]
fn armies_to_end_of_terrain_selection_then_save_and_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("autosaves"));
    h.run();
    enter_army(&mut h, Side::South, "Ann", &["Agricultural", "Hilly"]);
    enter_army(&mut h, Side::North, "Bob", &["Woodlands", "Steppes"]);
    assert_eq!(h.state().fog().battle.phase(), Phase::Initiative);

    // Both armies in: the window moves on to the initiative step by itself.
    // A die typed as 7 is refused with the rule, and nothing is logged.
    type_into(&mut h, "South's die", "7");
    click(&mut h, "Enter South's die");
    assert!(
        matches!(h.state().status.as_ref(), Some(Status::Error(e)) if e.contains("a die shows 1 to 6"))
    );
    assert_eq!(h.state().fog().battle.log().len(), 2);
    type_into(&mut h, "South's die", "6");
    click(&mut h, "Enter South's die");
    type_into(&mut h, "North's die", "2");
    click(&mut h, "Enter North's die");
    assert_eq!(
        h.state().fog().battle.state().initiative.winner,
        Some(Side::South)
    );
    // The result stays on screen, above the next step's panel, as well as
    // in the log.
    assert_eq!(
        h.get_all_by_label_contains("South has the initiative")
            .count(),
        2
    );

    h.get_by_label_contains("South chooses from North's allowed territory types");
    // Agricultural is South's own list, not North's: the button is disabled.
    assert!(
        h.get_by_label("Choose Agricultural")
            .accesskit_node()
            .is_disabled()
    );
    click(&mut h, "Choose Woodlands");
    // South takes the first forest; the last compulsory piece is North's
    // without a choice, and follows by itself.
    click(&mut h, "Take Forest");
    h.get_by_label_contains("North takes forest (compulsory piece)");
    // Undo goes back past the forced step to South's own choice, and redo
    // forward again: nobody stops where nothing was decided.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(h.state().fog().battle.remaining_compulsory().len(), 2);
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    h.run();
    assert!(h.state().fog().battle.remaining_compulsory().is_empty());
    assert_eq!(
        h.state().fog().battle.phase(),
        Phase::Selection(Side::North)
    );
    assert!(
        h.query_by_label("Select Village").is_none(),
        "North may not take a village"
    );
    click(&mut h, "Select Large brush");
    click(&mut h, "Select Marsh");
    click(&mut h, "Finish North's selection");
    click(&mut h, "Select River");
    click(&mut h, "Select Village");
    // Undo takes back the village, redo restores it.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(h.state().fog().battle.selections_used(Side::South), 2);
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    h.run();
    assert_eq!(h.state().fog().battle.selections_used(Side::South), 3);
    click(&mut h, "Finish South's selection");
    assert!(matches!(
        h.state().fog().battle.phase(),
        Phase::Placement(_)
    ));
    assert_eq!(
        h.state()
            .fog()
            .battle
            .state()
            .current_step(h.state().fog().battle.ruleset()),
        Step::TerrainPlacement
    );

    // Save through the dialog's typed path, then open it in a fresh app.
    let saved = dir.path().join("battle.json");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run();
    replace_text(&mut h, "File path", saved.to_str().unwrap());
    click(&mut h, "Save");
    assert!(saved.exists(), "{:?}", h.state().status.as_ref());
    let before = h.state().fog().battle.state().clone();

    let mut h2 = harness(&dir.path().join("autosave2.json"));
    h2.run();
    h2.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::O);
    h2.run();
    replace_text(&mut h2, "File path", saved.to_str().unwrap());
    click(&mut h2, "Open");
    assert_eq!(h2.state().fog().battle.state(), &before);
    h2.get_by_label_contains("North takes large brush");
}

/// Issue 37: the autosave is written on a thread of its own, never the
/// window's; a failure (here its folder is a file) still comes back to
/// the status line by itself, and the game stays open.
#[test]
fn an_autosave_that_fails_on_its_thread_is_said_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_folder = dir.path().join("autosaves");
    std::fs::write(&not_a_folder, "a file where the folder should be").unwrap();
    let mut h = harness(&not_a_folder);
    h.run();
    load_example(&mut h, "South", "Early Imperial Roman");
    click(&mut h, WITHOUT_PASSPHRASE);
    click(&mut h, "Confirm South's army");
    h.state().autosaved();
    // The writer's word wakes the window; a frame says it.
    h.run();
    assert!(
        matches!(h.state().status.as_ref(), Some(Status::Error(e)) if e.starts_with("Autosave failed")),
        "{:?}",
        h.state().status
    );
    assert!(h.state().fog().battle.state().armies.south.is_some());
}

#[test]
fn autosave_follows_every_change_and_a_bad_file_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let autosave = dir.path().join("autosaves");
    let mut h = harness(&autosave);
    h.run();
    load_example(&mut h, "South", "Early Imperial Roman");
    click(&mut h, WITHOUT_PASSPHRASE);
    click(&mut h, "Confirm South's army");
    // The writer's thread has the last change on the disk.
    h.state().autosaved();
    let saves = muster::core::store::Autosaves::new(autosave);
    let saved = muster::fog::files::load_battle(&saves.path(h.state().fog().battle.id())).unwrap();
    assert_eq!(saved.state(), h.state().fog().battle.state());

    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        "{\"format\": \"muster-battle\", \"schema\": 1, \"seed\": 1",
    )
    .unwrap();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::O);
    h.run();
    replace_text(&mut h, "File path", bad.to_str().unwrap());
    click(&mut h, "Open");
    assert!(
        matches!(h.state().status.as_ref(), Some(Status::Error(e)) if e.starts_with(&format!("Not opened: {}: cut short", bad.display())))
    );
    assert!(
        h.state().fog().battle.state().armies.south.is_some(),
        "the battle in progress is kept"
    );
}

#[test]
fn a_malformed_ruleset_file_is_refused_with_path_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("autosaves"));
    h.run();
    let bad = dir.path().join("rules.json");
    let text =
        muster::fog::ruleset::FOG_AM_V3_JSON.replacen("\"forest\": 2,", "\"forest\": \"two\",", 1);
    std::fs::write(&bad, text).unwrap();
    click(&mut h, "File");
    click(&mut h, "New");
    click(&mut h, "Field of Glory battle with ruleset file…");
    replace_text(&mut h, "File path", bad.to_str().unwrap());
    click(&mut h, "Open");
    let status = format!("{:?}", h.state().status);
    assert!(status.contains("territories.hilly.max.forest"), "{status}");
    assert!(status.contains("line 64"), "{status}");
    assert_eq!(
        h.state().fog().battle.ruleset().id,
        "fog_am_v3.1",
        "the built-in ruleset stays"
    );
}

/// A saved battle where North is to roll for his compulsory forest: South
/// holds the initiative in Woodlands, his river and forest are down.
fn north_to_place(dir: &Path) -> std::path::PathBuf {
    placing(dir, usize::MAX)
}

/// The battle of `north_to_place`, stopped after its first `upto` commands
/// from the initiative rolls on.
fn placing(dir: &Path, upto: usize) -> std::path::PathBuf {
    use muster::core::dice::DiceInput;
    use muster::fog::battle::{Battle, Command};
    use muster::fog::geometry::{Pose, Shape, SideEdge};
    let r = muster::fog::ruleset::Ruleset::builtin();
    let mut b = Battle::new(r.clone());
    let d = |n| DiceInput::Typed(vec![n]);
    for (side, i) in [(Side::South, 0), (Side::North, 1)] {
        b.apply(Command::SetArmy {
            side,
            army: muster::fog::examples::army(i, &r),
            lock: None,
        })
        .unwrap();
    }
    let commands = vec![
        Command::RollInitiative {
            side: Side::South,
            dice: d(6),
        },
        Command::RollInitiative {
            side: Side::North,
            dice: d(1),
        },
        Command::ChooseTerritory {
            side: Side::South,
            territory: "woodlands".into(),
        },
        // South's compulsory forest follows North's by itself.
        Command::ChooseCompulsory {
            side: Side::North,
            terrain: "forest".into(),
        },
        Command::SelectTerrain {
            side: Side::North,
            terrain: "brush".into(),
            large: false,
        },
        Command::FinishSelection { side: Side::North },
        Command::SelectTerrain {
            side: Side::South,
            terrain: "river".into(),
            large: false,
        },
        Command::FinishSelection { side: Side::South },
        Command::PlaceWaterway {
            side: Side::South,
            edge: SideEdge::West,
            width: 3.0,
            offset: 2.0,
        },
        Command::RollGoing {
            side: Side::South,
            dice: d(3),
        },
        Command::RollAdjustment {
            side: Side::North,
            dice: d(1),
        },
        Command::RollPlacement {
            side: Side::South,
            piece: 1,
            shape: Shape::Ellipse {
                width: 11.0,
                depth: 7.0,
            },
            dice: d(6),
        },
        Command::PlacePiece {
            side: Side::South,
            pose: Pose::new(36.0, 14.0, 0.0),
        },
        Command::RollAdjustment {
            side: Side::North,
            dice: d(1),
        },
    ];
    for c in commands.into_iter().take(upto) {
        muster::core::seat::play(&mut b, c).unwrap();
    }
    let path = dir.join("placing.json");
    muster::fog::files::save_battle(&path, &b).unwrap();
    path
}

/// The app started on a saved battle, as `muster BATTLE.json` does.
pub(crate) fn opened(dir: &Path, battle: std::path::PathBuf) -> Harness<'static, MusterApp> {
    let config = AppConfig {
        autosave: Some(dir.join("autosaves")),
        inventory: None,
        open: Some(battle),
        seed: Some(1),
        viewer: crate::app::Viewer::Off,
        settings: None,
        phone_names: vec![crate::app::phone_kit::browser::HOST.into()],
        net: muster_remote::Net::nowhere(),
        join: None,
    };
    app(config, [1500.0, 1000.0])
}

fn drag(h: &mut Harness<'_, MusterApp>, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    for k in 1..=4 {
        h.hover_at(from + (to - from) * (k as f32 / 4.0));
        h.run();
    }
    h.drop_at(to);
    h.run();
}

#[test]
fn roll_drag_to_a_legal_pose_and_an_illegal_drop_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = opened(dir.path(), north_to_place(dir.path()));
    type_into(&mut h, "North's die", "2");
    click(&mut h, "Enter North's die");
    // Die 2 for North: touch his own (north) long edge.
    let start = h
        .state()
        .fog()
        .panels
        .placement
        .draft_pose()
        .expect("a draft to drag");
    assert!(
        h.state()
            .fog()
            .battle
            .check(&muster::fog::battle::Command::PlacePiece {
                side: Side::North,
                pose: start
            })
            .is_ok()
    );
    let frame = h.state().fog().table.frame.expect("the table was drawn");
    let at = |x: f64, y: f64| frame.to_screen([x, y]);

    // Dropped 14 MU south of the edge: refused, and the piece goes back.
    drag(&mut h, at(start.x, start.y), at(start.x, start.y - 14.0));
    assert_eq!(h.state().fog().panels.placement.draft_pose(), Some(start));
    h.get_by_label_contains("Drop refused: Die 2: the piece must touch North's long edge");

    // Dropped 0.6 MU short of the edge, 6 MU along: it snaps to the edge
    // there, not back to where the drag began.
    drag(
        &mut h,
        at(start.x, start.y),
        at(start.x + 6.0, start.y - 0.6),
    );
    let snapped = h.state().fog().panels.placement.draft_pose().unwrap();
    assert!((snapped.x - (start.x + 6.0)).abs() < 1.0, "{snapped:?}");
    assert!(
        h.state()
            .fog()
            .battle
            .check(&muster::fog::battle::Command::PlacePiece {
                side: Side::North,
                pose: snapped
            })
            .is_ok()
    );
    drag(&mut h, at(snapped.x, snapped.y), at(start.x, start.y));
    // Turned with the keys at the edge, the piece lands as a turned drop
    // does: legal, snapped to the edge or put back, never left illegal.
    for _ in 0..3 {
        h.hover_at(at(start.x, start.y - 2.0));
        h.run();
        h.key_press(egui::Key::E);
        h.run();
        let pose = h.state().fog().panels.placement.draft_pose().unwrap();
        assert!(
            h.state()
                .fog()
                .battle
                .check(&muster::fog::battle::Command::PlacePiece {
                    side: Side::North,
                    pose
                })
                .is_ok(),
            "{pose:?}"
        );
    }
    let start = h.state().fog().panels.placement.draft_pose().unwrap();
    assert!(
        start.angle != 0.0 || h.query_by_label_contains("Turn refused").is_some(),
        "the keys turned the piece or said why not"
    );
    // The refusal is shown only for the drop it answers: a second refused
    // drop, then the piece placed, and no stale refusal is left.
    drag(&mut h, at(start.x, start.y), at(start.x, start.y - 14.0));
    // Dragged 10 MU along the edge: legal, kept, and placed.
    drag(&mut h, at(start.x, start.y), at(start.x + 10.0, start.y));
    let moved = h.state().fog().panels.placement.draft_pose().unwrap();
    assert!((moved.x - (start.x + 10.0)).abs() < 0.5, "{moved:?}");
    h.get_by_label("✔ Legal position");
    click(&mut h, "Place Forest here");
    let laid = &h.state().fog().battle.state().placement.laid[&0];
    assert_eq!(laid.pose, moved);
    assert!(h.query_by_label_contains("Drop refused").is_none());
}

#[test]
fn the_inventory_editor_checks_sizes_and_saves_only_good_pieces() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("autosaves"));
    let saved = dir.path().join("inventory.json");
    h.run();
    click(&mut h, "Edit");
    click(&mut h, "Terrain inventory…");
    h.get_by_label("Forest width").set_value_accesskit(13.0);
    h.run();
    h.get_by_label_contains(
        "the piece is 13.0 in (13.0 MU) across; a normal piece fits a 12.0 in (12 MU) circle",
    );
    click(&mut h, "Save inventory");
    h.get_by_label_contains("Not saved: Forest (normal)");
    assert!(!saved.exists(), "a bad inventory is never written");
    h.get_by_label("Forest width").set_value_accesskit(10.0);
    h.run();
    click(&mut h, "Save inventory");
    assert!(saved.exists());
    let shape = h.state().fog().inventory.shape("forest", false).cloned();
    assert_eq!(
        shape,
        Some(muster::fog::geometry::Shape::Ellipse {
            width: 10.0,
            depth: 7.0
        })
    );
}

#[test]
fn the_opponent_slides_the_piece_just_placed_within_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = opened(dir.path(), north_to_place(dir.path()));
    type_into(&mut h, "North's die", "2");
    click(&mut h, "Enter North's die");
    click(&mut h, "Place Forest here");
    let before = h.state().fog().battle.state().placement.laid[&0].pose;
    type_into(&mut h, "South's die", "4");
    click(&mut h, "Enter South's die");
    h.get_by_label_contains(
        "South rolled 4 - 1 (compulsory) = 3: may slide it up to 6.0 in (6 MU)",
    );
    click(&mut h, "Slide");
    let frame = h.state().fog().table.frame.expect("the table was drawn");
    let from = frame.to_screen([before.x, before.y]);
    // Dragged 10 MU east: held to the 6 MU the score allows.
    drag(&mut h, from, frame.to_screen([before.x + 10.0, before.y]));
    h.get_by_label_contains("slide 6.0 in (6.0 MU) of 6.0 in (6 MU)");
    click(&mut h, "Slide it here");
    let after = h.state().fog().battle.state().placement.laid[&0].pose;
    assert!(
        (after.x - before.x - 6.0).abs() < 1e-6 && after.y == before.y,
        "{after:?}"
    );
}

/// Issue 21: the private page's passphrase was typed on the shared export
/// dialog. The owner now opens his page on his own screen after Save; a
/// wrong passphrase is refused there and nothing is written.
#[test]
fn a_private_page_is_opened_on_its_owners_own_screen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("terrain.json");
    std::fs::write(&path, muster::fog::examples::TERRAIN_BATTLE).unwrap();
    let mut h = opened(dir.path(), path);
    assert_eq!(unlock(&mut h, "South", PASS), None);
    let out = dir.path().join("table.pdf");
    let name = export_with_souths_page(&mut h, &out);
    type_into(
        &mut h,
        &format!("{} passphrase", muster::core::text::possessive(&name)),
        "not their passphrase",
    );
    press_and_wait(&mut h, "Unlock");
    h.get_by_label_contains("not the passphrase this player set");
    assert!(!out.exists());
    replace_text(
        &mut h,
        &format!("{} passphrase", muster::core::text::possessive(&name)),
        PASS,
    );
    press_and_wait(&mut h, "Unlock");
    let private = muster::fog::export::private_path(&out, Side::South);
    assert!(out.exists() && private.exists(), "{:?}", h.state().status);
    let page = lopdf::Document::load(&private).unwrap();
    assert!(page.extract_text(&[1]).unwrap().contains("private page"));
}

/// *Export PDF* with South's private page, from the menu, to the hand-over
/// screen where South is to type his passphrase; his name.
fn export_with_souths_page(h: &mut Harness<'static, MusterApp>, out: &Path) -> String {
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::P);
    h.run();
    click(h, "South's");
    assert!(
        h.query_by_label_contains("passphrase for the private page")
            .is_none(),
        "no field on the shared dialog"
    );
    replace_text(h, "File path", out.to_str().unwrap());
    click(h, "Save");
    // His passphrase is asked on his hand-over screen itself.
    let title = h.get_by_label_contains("Pass the laptop to South");
    let title = title.accesskit_node().value().unwrap_or_default();
    title.trim_start_matches("Pass the laptop to ").to_string()
}

/// Child processes of this one that are defunct (exited, never waited
/// for), by their command name.
fn defunct_children(name: &str) -> usize {
    let me = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter(|stat| {
            // pid (comm) state ppid …
            let Some((comm, rest)) = stat.split_once(") ") else {
                return false;
            };
            let fields: Vec<&str> = rest.split(' ').collect();
            comm.ends_with(&format!("({name}"))
                && fields.first() == Some(&"Z")
                && fields.get(1) == Some(&me.as_str())
        })
        .count()
}

/// Issue 32: a private page opened in the desktop's viewer, on the shared
/// screen, once its owner's passphrase screen closed; and each export left
/// a defunct viewer behind. The viewer (here a program recording what it
/// is asked to open) gets the public printout only, and is waited for.
#[test]
fn a_private_page_is_never_opened_and_the_viewer_is_waited_for() {
    let dir = tempfile::tempdir().unwrap();
    let asked = dir.path().join("asked.txt");
    let viewer = dir.path().join("fake-viewer");
    std::fs::write(
        &viewer,
        format!("#!/bin/sh\necho \"$@\" >> '{}'\n", asked.display()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&viewer, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = dir.path().join("terrain.json");
    std::fs::write(&path, muster::fog::examples::TERRAIN_BATTLE).unwrap();
    let config = AppConfig {
        viewer: crate::app::Viewer::Program(viewer),
        open: Some(path),
        ..config(&dir.path().join("autosaves"))
    };
    let mut h = app(config, [1500.0, 1000.0]);
    assert_eq!(unlock(&mut h, "South", PASS), None);
    let out = dir.path().join("table.pdf");
    let name = export_with_souths_page(&mut h, &out);
    type_into(
        &mut h,
        &format!("{} passphrase", muster::core::text::possessive(&name)),
        PASS,
    );
    press_and_wait(&mut h, "Unlock");
    let private = muster::fog::export::private_path(&out, Side::South);
    assert!(private.exists(), "{:?}", h.state().status);
    let status = format!("{:?}", h.state().status);
    assert!(status.contains("Muster never opens it"), "{status}");
    let read = || std::fs::read_to_string(&asked).unwrap_or_default();
    assert!(
        (0..250).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            !read().is_empty()
        }),
        "the public printout is opened"
    );
    assert_eq!(read().trim(), out.display().to_string());
    assert!(
        (0..250).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            defunct_children("fake-viewer") == 0
        }),
        "the viewer is waited for"
    );
}

#[test]
fn export_pdf_on_letter_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = opened(dir.path(), north_to_place(dir.path()));
    let out = dir.path().join("table.pdf");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::P);
    h.run();
    click(&mut h, "Letter");
    replace_text(&mut h, "File path", out.to_str().unwrap());
    // The printout is made on a worker, the status line spinning.
    h.get_by_label("Save").click();
    printed(&mut h);
    let status = format!("{:?}", h.state().status);
    assert!(
        status.contains(&format!("PDF written to {}", out.display())),
        "{status}"
    );
    let pdf = lopdf::Document::load(&out).unwrap();
    assert_eq!(pdf.get_pages().len(), 3, "the table, the schedule, the log");
    assert!(pdf.extract_text(&[1]).unwrap().contains("1 Forest"));
    assert!(pdf.extract_text(&[2]).unwrap().contains("Forest (S)"));
}

/// A press and release on the table at a table point.
/// A point where `side`'s marker for `content` may hide, clear of his
/// other markers.
pub(crate) fn legal_ambush_point(
    h: &Harness<'_, MusterApp>,
    side: Side,
    content: muster::fog::battle::AmbushContent,
) -> [f64; 2] {
    use muster::fog::battle::{AmbushMap, Profile, Verdict};
    let battle = &h.state().fog().battle;
    let state = battle.state();
    let profile = Profile::of(state, battle.ruleset(), side, content).unwrap();
    AmbushMap::compute(state, battle.ruleset(), side, profile)
        .cells()
        .filter(|(_, v)| *v == Verdict::Legal)
        .map(|(at, _)| at)
        .find(|at| {
            state
                .deployment
                .ambushes
                .iter()
                .all(|a| (a.at[0] - at[0]).abs() + (a.at[1] - at[1]).abs() > 6.0)
        })
        .expect("a legal place")
}

pub(crate) fn click_table(h: &mut Harness<'_, MusterApp>, at: [f64; 2]) {
    let frame = h.state().fog().table.frame.expect("the table was drawn");
    let pos = frame.to_screen(at);
    h.hover_at(pos);
    h.run();
    h.drag_at(pos);
    h.run();
    h.drop_at(pos);
    h.run();
}

/// Issue 39: North's army form opened scrolled to where South's was, his
/// name field and *Load example army* out of sight.
#[test]
fn each_army_form_opens_at_its_top() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(config(&dir.path().join("autosaves")), [1280.0, 720.0]);
    h.run();
    load_example(&mut h, "South", "Early Imperial Roman");
    // His passphrase comes before his battle groups: in view above the
    // footer, army loaded, on a 720 px screen.
    let set = h.get_by_label("Set South's passphrase…").rect();
    let footer = h.get_by_label("Confirm South's army").rect();
    assert!(set.bottom() < footer.top() - 10.0, "{set:?} {footer:?}");
    click(&mut h, WITHOUT_PASSPHRASE);
    // South scrolls down his battle groups.
    h.get_by_label("Add battle group").scroll_to_me();
    h.run();
    let in_view = |h: &Harness<'_, MusterApp>, label: &str| {
        let r = h.get_by_label(label).rect();
        r.top() >= 0.0 && r.bottom() <= 720.0
    };
    assert!(!in_view(&h, "Player name"), "South's form is scrolled down");
    // Confirmed from the footer, the panel goes on to North's form.
    click(&mut h, "Confirm South's army");
    assert!(in_view(&h, "Player name") && in_view(&h, "Load example army"));
}

/// Issue 39: a locked battle's reminder took a status row of its own and
/// moved everything down 23 px; unlocked, everything moved back up under
/// the players' pointers.
#[test]
fn the_read_only_reminder_shares_the_status_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("terrain.json");
    std::fs::write(&path, muster::fog::examples::TERRAIN_BATTLE).unwrap();
    let mut h = opened(dir.path(), path);
    h.get_by_label_contains("Read-only until South (Ann) unlocks");
    let locked = h.get_by_label("Sequence").rect();
    assert_eq!(unlock(&mut h, "South", PASS), None);
    assert_eq!(h.get_by_label("Sequence").rect(), locked);
}

#[test]
fn camps_an_ambush_behind_the_hand_over_screen_then_the_batches_and_who_moves_first() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("terrain.json");
    std::fs::write(&path, muster::fog::examples::TERRAIN_BATTLE).unwrap();
    let mut h = opened(dir.path(), path);
    let deployment = |h: &Harness<'_, MusterApp>| h.state().fog().battle.state().deployment.clone();
    // Reopened: read-only until South, who set a passphrase, unlocks.
    h.get_by_label_contains("Read-only until South (Ann) unlocks");
    let why = unlock(&mut h, "South", "copper heron lantern").unwrap();
    assert!(why.contains("not the passphrase this player set"), "{why}");
    assert_eq!(unlock(&mut h, "South", PASS), None);
    assert!(h.state().fog().battle.locked_sides().is_empty());

    // Camps: North (without initiative) first, put where he clicks.
    h.get_by_label_contains("North (Bob) places their camp");
    click_table(&mut h, [30.0, 44.0]);
    h.get_by_label_contains("The camp is on Forest (difficult terrain)");
    click_table(&mut h, [45.0, 45.0]);
    h.get_by_label("✔ Legal position");
    click(&mut h, "Place camp");
    click(&mut h, "Place camp");
    assert!(deployment(&h).camps.north.is_some() && deployment(&h).camps.south.is_some());
    // A fortification section, then a click just past its east end lays
    // the next one end to end with it.
    click_table(&mut h, [20.0, 44.0]);
    click(&mut h, "Place fortification");
    click_table(&mut h, [22.6, 44.3]);
    click(&mut h, "Place fortification");
    let works = deployment(&h).fortifications;
    assert_eq!(works.len(), 2, "{works:?}");
    let (second, first) = (works[1].1, works[0].1);
    assert!(
        (second.x - (first.x + 4.0)).abs() < 1e-9 && (second.y - first.y).abs() < 1e-9,
        "{works:?}"
    );
    click(&mut h, "North: finish fortifications");
    click(&mut h, "South: finish fortifications");

    // Ambushes: the window is the hand-over screen until North takes it.
    h.get_by_label("Pass the laptop to North (Bob)");
    assert!(h.query_by_label("Sequence").is_none());
    // The players may put it off and come back to it from the step list,
    // or from the step's panel, which says whom it waits for.
    click(&mut h, "Not now: back to the table");
    h.get_by_label("Sequence");
    click(&mut h, "▶ Ambushes");
    h.get_by_label("Pass the laptop to North (Bob)");
    click(&mut h, "Not now: back to the table");
    h.get_by_label("Waiting for North (Bob) to take the screen.");
    click(&mut h, "North (Bob) takes the laptop");
    h.get_by_label("Pass the laptop to North (Bob)");
    click(&mut h, "I am North (Bob): show my secrets");
    h.get_by_label_contains("You play without a passphrase: the file does not protect");
    click(&mut h, "Finish my ambushes");
    // Nothing secret shows once he is done: South's hand-over comes next.
    // Unlocking the battle in the open keeps nothing for his secrets: his
    // first private step asks his passphrase (later ones do not).
    assert!(
        h.query_by_label_contains("They gave their passphrase")
            .is_none()
    );
    // His proof every time (issue 39), on his hand-over screen: his
    // passphrase, and a PIN for the sitting beside it.
    crate::app::proof_tests::open_with_pin(&mut h, "South (Ann)", PASS, "4719");
    click(&mut h, "Syrian archers");
    h.get_by_label_contains("where Light Foot may hide");
    click_table(&mut h, [18.0, 16.0]);
    h.get_by_label_contains("is hidden from all of North's skirmisher area");
    click(&mut h, "Seal and place ambush marker");
    assert_eq!(deployment(&h).ambushes.len(), 1);
    h.get_by_label("Syrian archers:");
    h.get_by_label_contains("at 16.0 in from S, 18.0 in from W, sealed ");
    // South sets his two dummy markers; a third is refused in his session
    // only: the refusal ("the limit is 2") tells how many dummies he has,
    // so it must not follow him off the screen (issue 21).
    for _ in 0..3 {
        click(&mut h, "Dummy");
        let dummy = muster::fog::battle::AmbushContent::Dummy;
        let at = legal_ambush_point(&h, Side::South, dummy);
        click_table(&mut h, at);
        click(&mut h, "Seal and place ambush marker");
    }
    assert_eq!(deployment(&h).ambushes.len(), 3);
    h.get_by_label_contains("South has placed 2 dummy markers; the limit is 2");
    click(&mut h, "Finish my ambushes");
    assert!(h.query_by_label_contains("the limit is 2").is_none());
    // The next private step's hand-over screen shows nothing of it.
    assert!(h.query_by_label_contains("Syrian archers").is_none());

    // Flank marches, in private too: South sends his two alae.
    click(&mut h, "I am North (Bob): show my secrets");
    click(&mut h, "Done with my flank marches");
    // North, holding the laptop, finds no button of South's to click:
    // South's PIN is asked, and nothing of his shows (issue 39).
    h.get_by_label_contains("South's (Ann) hand-over PIN opens it");
    assert!(h.query_by_label_contains("I am South").is_none());
    h.get_by_label("South's (Ann) hand-over PIN");
    assert!(h.query_by_label_contains("Ala Petriana").is_none());
    assert!(h.query_by_label_contains("Syrian archers").is_none());
    // He may lock his secrets (he leaves the table a while): then his
    // passphrase is asked again, and a wrong one opens nothing.
    click(
        &mut h,
        "Lock South's (Ann) screens: drop the PIN, ask the passphrase",
    );
    h.get_by_label_contains("South's (Ann) passphrase opens it");
    crate::app::proof_tests::open_with_pin(&mut h, "South (Ann)", "wrong", "");
    h.get_by_label_contains("not the passphrase this player set");
    // Refused, the laptop stays on his hand-over screen, which asks again.
    h.get_by_label("Pass the laptop to South (Ann)");
    crate::app::proof_tests::open_with_pin(&mut h, "South (Ann)", PASS, "");
    click(&mut h, "Ala Petriana marches");
    click(&mut h, "Ala Indiana marches");
    h.get_by_label("Arrival modifier +0");
    click(&mut h, "Seal flank march");
    h.get_by_label_contains("March 1: Ala Petriana, Ala Indiana on the left flank");
    h.get_by_label_contains("3 of your battle groups stay off the table");
    click(&mut h, "Done with my flank marches");
    // Back in the open: markers by position, marches by code, nothing more.
    h.get_by_label_contains("South places an ambush marker 16.0 in from S, 18.0 in from W");
    h.get_by_label_contains("South records a flank march, sealed: commitment ");
    assert!(h.query_by_label_contains("Ala Petriana").is_none());
    assert!(h.query_by_label_contains("Syrian archers").is_none());

    // Batches: Muster says who deploys how many; the player ticks them off.
    h.get_by_label(
        "North: deploy 3 BGs; skirmishers within 18.0 in (18 MU), others within 12.0 in (12 MU)",
    );
    let hidden = [6, 7, 8];
    let mut batches = 0;
    while let Phase::Deployment(muster::fog::battle::DeploymentTurn::Batch { side, number, size }) =
        h.state().fog().battle.phase()
    {
        let state = h.state().fog().battle.state().clone();
        let army = state.armies[side].clone().unwrap();
        let done = muster::fog::battle::deployed_bgs(&state, side);
        let next: Vec<usize> = (0..army.bgs.len())
            .filter(|bg| !(done.contains(bg) || side == Side::South && hidden.contains(bg)))
            .take(size)
            .collect();
        let ticked = |h: &Harness<'_, MusterApp>, label: &str| {
            h.get_by_label_contains(label).accesskit_node().toggled()
                == Some(egui::accesskit::Toggled::True)
        };
        if side == Side::South {
            // South keeps battle groups off the table and has no phone: he
            // picks on the shared screen from every group not yet on it,
            // with no hand-over, nothing ticked and nothing marked (RULES
            // 8.5 ruling; issue 32: a proposal would tell which he sealed).
            assert!(h.query_by_label("Pass the laptop to South (Ann)").is_none());
            for bg in (0..army.bgs.len()).filter(|bg| !done.contains(bg)) {
                let label = format!("{} (", army.bgs[bg].name);
                assert!(!ticked(&h, &label), "{label} ticked");
            }
            for bg in &next {
                let label = label_of(&h, &format!("{} (", army.bgs[*bg].name), "within");
                click(&mut h, &label);
            }
            click(&mut h, &format!("Batch {number} deployed"));
        } else {
            // North seals nothing off the table: the shared screen may
            // propose the next battle groups of his roster.
            for bg in (0..army.bgs.len()).filter(|bg| !done.contains(bg)) {
                let label = format!("{} (", army.bgs[bg].name);
                assert_eq!(ticked(&h, &label), next.contains(&bg), "{label}");
            }
            click(&mut h, &format!("Batch {number} deployed"));
        }
        batches += 1;
    }
    assert_eq!(
        batches, 7,
        "North 3 + 3 + 3; South 2 + 2 + 2 + 1 (three kept off)"
    );
    // Every batch down, South's one check comes to him by itself (RULES
    // 8.5 ruling): on his own screen, it says whether any of his sealed
    // battle groups is also on the table (issue 21); the shared screen
    // names none, and the log says only what his check found.
    h.get_by_label_contains(
        "South (Ann) checks their sealed battle groups against the table in secret",
    );
    // His proof makes the check, which asks nothing of him: the table
    // again at once, and the log says what it found.
    crate::app::proof_tests::open_with_pin(&mut h, "South (Ann)", PASS, "");
    assert!(h.query_by_label_contains("Hide my").is_none());
    assert!(h.query_by_label_contains("Pass the laptop").is_none());
    assert!(h.state().fog().battle.log_lines().iter().any(|(l, _)| {
        l.contains("South's private check found no sealed battle group on the table")
    }));
    assert!(
        h.query_by_label_contains("Syrian archers is sealed")
            .is_none()
    );
    click(&mut h, "North: no dismounting");
    h.get_by_label_contains("South dismounts nothing");
    click(&mut h, "North: commanders placed");
    // South's march is led by a commander the table may not name: the
    // step says the list names them all (issue 39).
    h.get_by_label_contains("except the one who leads your flank march");
    click(&mut h, "South: commanders placed");

    assert_eq!(h.state().fog().battle.phase(), Phase::MovesFirst);
    type_into(&mut h, "South's die", "5");
    click(&mut h, "Enter South's die");
    type_into(&mut h, "North's die", "2");
    click(&mut h, "Enter North's die");
    assert_eq!(
        h.get_all_by_label_contains("South moves first (South 5, North 2)")
            .count(),
        2,
        "in the log and above the panel"
    );
    assert_eq!(h.state().fog().battle.phase(), Phase::Play);

    // Play: the flank march rolls from South's turn 2, with its chances.
    h.get_by_label("Turn 1: South to move");
    click(&mut h, "End South's turn 1");
    click(&mut h, "End North's turn 1");
    h.get_by_label_contains("Each roll: 2d6 +0, arrives on 10+: 1/6 = 16.7%");
    h.get_by_label_contains("roll for flank march 1 before anything else");
    type_into(&mut h, "South's dice", "5 6");
    click(&mut h, "Enter South's dice");
    // Arrived: South's hand-over comes at once, with no click; his proof
    // opens it.
    crate::app::proof_tests::open_with_pin(&mut h, "South (Ann)", PASS, "");
    // The straggling dice rolled on the table, typed: a 7 is refused with
    // the rule, nothing is revealed until every battle group has its die.
    click(&mut h, "Type the straggling dice rolled on the table");
    let offered = |h: &Harness<'_, MusterApp>| {
        !h.get_by_label("Reveal to both players")
            .accesskit_node()
            .is_disabled()
    };
    assert!(!offered(&h), "no reveal before every die is typed");
    type_into(&mut h, "Ala Petriana's straggling dice", "7 3");
    type_into(&mut h, "Ala Indiana's straggling dice", "5 4");
    h.get_by_label_contains("a die shows 1 to 6");
    assert!(!offered(&h), "a 7 is no die");
    replace_text(&mut h, "Ala Petriana's straggling dice", "4 2");
    assert!(offered(&h));
    click(&mut h, "Reveal to both players");
    let straggling = &h.state().fog().battle.state().deployment.flank_marches[0].straggling;
    assert_eq!(straggling.len(), 2);
    assert!(
        straggling.iter().all(|s| !s.roll.is_app()),
        "typed, not the app's"
    );
    // Revealed, the battle goes on at once.
    assert_eq!(
        h.get_all_by_label_contains(
            "South's flank march 1 is revealed (commitment checked): Ala Petriana, Ala Indiana led by",
        )
        .count(),
        2,
        "in the log and above the panel"
    );
    click(&mut h, "End South's turn 2");
    h.get_by_label("Turn 2: North to move");
}

#[test]
fn a_passphrase_set_with_the_army_guards_the_reopened_battle_and_recent_battles_list_it() {
    let dir = tempfile::tempdir().unwrap();
    let saves = dir.path().join("autosaves");
    let mut h = harness(&saves);
    h.run();
    load_example(&mut h, "South", "Early Imperial Roman");
    // The passphrase is set on South's own screen, behind a hand-over, not
    // on the shared form (issue 21). A PIN is refused with the reason on
    // his screen; two different entries are refused.
    assert!(
        h.get_by_label("Confirm South's army")
            .accesskit_node()
            .is_disabled()
    );
    // Why, beside the greyed button in the footer, whatever the panel
    // scrolls to.
    let button = h.get_by_label("Confirm South's army").rect();
    let why = h
        .get_all_by_label_contains("sets a passphrase (above) or plays without one")
        .map(|n| n.rect())
        .find(|r| (r.center().y - button.center().y).abs() < 4.0);
    assert!(why.is_some(), "the reason stands beside the button");
    click(&mut h, "Set South's passphrase…");
    assert!(
        h.query_by_label("Confirm South's army").is_none(),
        "the player's screen covers the window"
    );
    type_into(&mut h, "South's (Marcus) passphrase", "1234");
    type_into(&mut h, "South's (Marcus) passphrase again", "1234");
    press_and_wait(&mut h, "Set it");
    h.get_by_label_contains("a PIN or any run of digits falls in seconds");
    type_into(
        &mut h,
        "South's (Marcus) passphrase",
        "walnut osprey bastion cider",
    );
    // The refusal spoke of the PIN: typing another passphrase clears it.
    assert!(
        h.query_by_label_contains("a PIN or any run of digits")
            .is_none(),
        "the old refusal stays while a new passphrase is typed"
    );
    type_into(
        &mut h,
        "South's (Marcus) passphrase again",
        "walnut osprey bastion",
    );
    click(&mut h, "Set it");
    h.get_by_label_contains("The two passphrases differ");
    replace_text(
        &mut h,
        "South's (Marcus) passphrase again",
        "walnut osprey bastion cider",
    );
    press_and_wait(&mut h, "Set it");
    h.get_by_label("✔ South (Marcus) has set a passphrase");
    click(&mut h, "Confirm South's army");
    assert!(h.state().fog().battle.has_passphrase(Side::South));
    // The panel moves on to North's army by itself.
    h.get_by_label("Set North's passphrase…");
    click(&mut h, "South ✔");
    h.get_by_label_contains("South's passphrase is set");
    // Nothing of it is in the autosave.
    let id = h.state().fog().battle.id().to_string();
    h.state().autosaved();
    let file = std::fs::read_to_string(saves.join(format!("{id}.json"))).unwrap();
    assert!(!file.contains("walnut"));

    // A second battle: the first stays in Recent battles, untouched.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::N);
    h.run();
    click(&mut h, "North");
    click(&mut h, "Load example army");
    click(&mut h, "Ancient British");
    click(&mut h, WITHOUT_PASSPHRASE);
    click(&mut h, "Confirm North's army");
    assert_ne!(h.state().fog().battle.id(), id);
    click(&mut h, "File");
    click(&mut h, "Recent games");
    let first = h
        .get_all_by_role(egui::accesskit::Role::Button)
        .filter_map(|n| n.accesskit_node().label())
        .find(|l| l.contains("Marcus (Early Imperial Roman) v North: no army yet — Armies"))
        .expect("the first battle is listed with its players and step");
    click(&mut h, &first);
    assert_eq!(h.state().fog().battle.id(), id);
    // Reopened: read-only until South unlocks.
    assert_eq!(h.state().fog().battle.locked_sides(), vec![Side::South]);
    assert_eq!(unlock(&mut h, "South", "walnut osprey bastion cider"), None);
    assert!(h.state().fog().battle.locked_sides().is_empty());
}

/// Enter does the step's main action, here a roll: typing a die and
/// pressing Enter enters that die only, and the next Enter (no field being
/// typed in) rolls the other side's die where the footer's button is.
#[test]
fn enter_ends_typing_a_die_and_then_rolls_the_other_sides() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("autosaves"));
    h.run();
    enter_army(&mut h, Side::South, "Ann", &["Agricultural", "Hilly"]);
    enter_army(&mut h, Side::North, "Bob", &["Woodlands", "Steppes"]);
    let lines = |h: &Harness<'_, MusterApp>| h.state().fog().battle.log_lines();
    let before = lines(&h).len();
    type_into(&mut h, "South's die", "4");
    h.key_press(egui::Key::Enter);
    h.run();
    let typed = lines(&h);
    assert_eq!(typed.len(), before + 1, "South's typed die only: {typed:?}");
    assert!(
        typed[before].0.starts_with("South rolls for initiative: 4"),
        "{typed:?}"
    );
    // North's roll is now the footer's main action.
    h.get_by_label("Roll for North");
    h.key_press(egui::Key::Enter);
    h.run();
    let rolled = lines(&h);
    assert!(
        rolled[before + 1]
            .0
            .starts_with("North rolls for initiative")
            && rolled[before + 1].0.contains("app dice"),
        "{rolled:?}"
    );
}

#[test]
fn roll_for_both_rolls_each_side_and_the_result_stays_until_the_next_action() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("autosaves"));
    h.run();
    enter_army(&mut h, Side::South, "Ann", &["Agricultural", "Hilly"]);
    enter_army(&mut h, Side::North, "Bob", &["Woodlands", "Steppes"]);
    click(&mut h, "🎲 Roll for both");
    let state = h.state().fog().battle.state().clone();
    let rolled = h.state().fog().battle.log().len() - 2;
    assert_eq!(rolled, 2, "one roll each, in one click");
    // Both rolls and the outcome are shown above the panel.
    for side in ["South", "North"] {
        h.get_all_by_label_contains(&format!("{side} rolls for initiative"))
            .next()
            .expect("each roll is shown");
    }
    assert_eq!(
        h.state().fog().last_rolls.len(),
        3,
        "two rolls and the outcome"
    );
    if let Some(winner) = state.initiative.winner {
        // The next action (choosing the territory) clears it.
        let territory = if winner == Side::South {
            "Woodlands"
        } else {
            "Agricultural"
        };
        click(&mut h, &format!("Choose {territory}"));
        assert!(h.state().fog().last_rolls.is_empty());
    }
}

#[test]
fn the_main_action_stays_in_one_place_in_view_at_laptop_size() {
    // From a small laptop to a desktop screen (issue 25).
    for size in [[1280.0, 720.0], [1366.0, 768.0], [1920.0, 1080.0]] {
        let dir = tempfile::tempdir().unwrap();
        let config = AppConfig {
            autosave: Some(dir.path().join("autosaves")),
            inventory: None,
            open: None,
            seed: Some(3),
            viewer: crate::app::Viewer::Off,
            settings: None,
            phone_names: Vec::new(),
            net: muster_remote::Net::nowhere(),
            join: None,
        };
        let mut h = app(config, size);
        click(&mut h, "▶ Armies");
        let south = h.get_by_label("Confirm South's army").rect();
        // The roster buttons are each one line (one too long for its row
        // goes whole to the next).
        let line = h.get_by_label("Load roster…").rect().height();
        assert_eq!(
            h.get_by_label("Load example army").rect().height(),
            line,
            "at {size:?}"
        );
        // A long army (the Roman example, with the passphrase form) does not
        // push it out of view or move it.
        click(&mut h, "Load example army");
        click(&mut h, "Early Imperial Roman");
        let loaded = h.get_by_label("Confirm South's army").rect();
        // Battle group names get the panel's width, not a few letters.
        assert!(h.get_by_label("BG 10 name").rect().width() > 300.0);
        click(&mut h, "North");
        let north = h.get_by_label("Confirm North's army").rect();
        assert_eq!(south.min, loaded.min, "at {size:?}");
        assert_eq!(south.min, north.min, "at {size:?}");
        let window = egui::Rect::from_min_size(egui::Pos2::ZERO, size.into());
        assert!(
            window.contains_rect(south),
            "{south:?} is in the window at {size:?}"
        );
        // The table keeps to its own panel: it covers neither the button
        // nor the panel's heading.
        let table = h
            .state()
            .fog()
            .table
            .frame
            .expect("the table was drawn")
            .table;
        let heading = h.get_by_label_contains("Armies (rule").rect();
        for (what, rect) in [("the main action", south), ("the heading", heading)] {
            assert!(
                !table.intersects(rect),
                "the table covers {what} at {size:?}"
            );
        }
    }
}

#[test]
fn the_help_menu_lists_the_shortcuts_and_how_to_for_the_shown_step() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("autosaves"));
    h.run();
    click(&mut h, "Help");
    click(&mut h, "Shortcuts and how-to… F1");
    h.get_by_label("Ctrl+Shift+Z");
    h.get_by_label_contains("Each player enters or loads their army");
}

#[test]
fn a_fifth_selection_pauses_before_the_opponent_selects() {
    let dir = tempfile::tempdir().unwrap();
    // The example script up to both compulsory pieces (South's follows
    // North's by itself), South without a passphrase so the battle opens
    // ready.
    let script: String = include_str!("../../examples/scripts/selection.jsonl")
        .lines()
        .take(8)
        .map(|l| {
            format!(
                "{}\n",
                l.replace(", \"passphrase\": \"copper heron lantern thistle\"", "")
            )
        })
        .collect();
    let mut b = muster::fog::battle::Battle::new(muster::fog::ruleset::Ruleset::builtin());
    muster::fog::script::run(&mut b, script.as_bytes(), std::io::sink()).unwrap();
    assert_eq!(b.phase(), Phase::Selection(Side::North));
    let path = dir.path().join("selecting.json");
    muster::fog::files::save_battle(&path, &b).unwrap();
    let mut h = opened(dir.path(), path);
    click(&mut h, "Select Large brush");
    click(&mut h, "Select Large marsh");
    click(&mut h, "Select Gully");
    // Five used: North's turn ended by itself; the panel waits for South.
    assert_eq!(
        h.state().fog().battle.phase(),
        Phase::Selection(Side::South)
    );
    h.get_by_label("North has made all their selections. Pass the screen to South.");
    assert!(h.query_by_label("Select River").is_none());
    click(&mut h, "South selects now");
    click(&mut h, "Select River");
    assert_eq!(h.state().fog().battle.selections_used(Side::South), 2);
}

#[test]
fn removing_a_piece_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    // The river is down and its going rolled: North rolls to adjust it.
    let mut h = opened(dir.path(), placing(dir.path(), 10));
    type_into(&mut h, "North's die", "6");
    click(&mut h, "Enter North's die");
    let remove = h
        .get_all_by_role(egui::accesskit::Role::Button)
        .filter_map(|n| n.accesskit_node().label())
        .find(|l| l.starts_with("Remove "))
        .expect("a 6 + 1 for a river allows removing it");
    click(&mut h, &remove);
    h.get_by_label_contains("from the table? It will not come back.");
    click(&mut h, "No, keep it");
    assert!(h.query_by_label_contains("It will not come back").is_none());
    let standing = h.state().fog().battle.state().placement.standing().count();
    click(&mut h, &remove);
    let yes = remove.replacen("Remove", "Yes, remove", 1);
    click(&mut h, &yes);
    assert_eq!(
        h.state().fog().battle.state().placement.standing().count(),
        standing - 1
    );
}

#[test]
fn with_centimetres_chosen_the_panel_log_and_refusals_speak_centimetres() {
    let dir = tempfile::tempdir().unwrap();
    let path = north_to_place(dir.path());
    let mut battle = muster::fog::files::load_battle(&path).unwrap();
    let mut settings = battle.state().settings.clone();
    settings.units = muster::fog::units::LengthUnit::Centimetres;
    settings.mu = muster::fog::units::MuScale::Mm25;
    battle
        .apply(muster::fog::battle::Command::Configure { settings })
        .unwrap();
    muster::fog::files::save_battle(&path, &battle).unwrap();
    let mut h = opened(dir.path(), path);
    type_into(&mut h, "North's die", "2");
    click(&mut h, "Enter North's die");
    // What a tape measure needs, in cm: the turn and the two ends of the
    // oval's long axis, each from two edges.
    let lay = {
        let node = h.get_by_label_contains(
            "Lay it turned 0° (square to the edges); its long axis end (W) at ",
        );
        let node = node.accesskit_node();
        node.label()
            .or_else(|| node.value())
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        lay.contains("; its long axis end (E) at ") && lay.contains(" cm from N, "),
        "{lay}"
    );
    // The log speaks cm, and cm only.
    h.get_by_label_contains("table 180.0 cm x 120.0 cm (the rules' unit is 25 mm)");
}

#[test]
fn a_whole_army_pasted_as_text_imports_with_errors_by_line_and_rows_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("autosaves"));
    h.run();
    click(&mut h, "Import army list…");
    type_into(
        &mut h,
        "Army list text",
        "# Britons\n8, Warband, medium fut, average, undrilled\n4, Chariots, light horse, average, undrilled\n",
    );
    click(&mut h, "Import army");
    h.get_by_label_contains("line 2, troop type: \"medium fut\" is not one of:");
    assert!(
        h.state()
            .fog()
            .panels
            .armies
            .draft(Side::South)
            .bgs
            .is_empty(),
        "nothing taken from a bad list"
    );
    replace_text(
        &mut h,
        "Army list text",
        "Player: Boudicca\nArmy: Ancient British\nC-in-C: Boudicca, Inspired Commander\nCommander: Cunobelin, Troop Commander\nTerritories: Agricultural, Woodlands\n# Britons\n8, Warband, medium foot, average, undrilled\n4, Chariots, light horse, average, undrilled\n",
    );
    click(&mut h, "Import army");
    let army = h.state().fog().panels.armies.draft(Side::South).clone();
    let bgs = army.bgs.clone();
    assert_eq!(bgs.len(), 2);
    assert_eq!((bgs[0].name.as_str(), bgs[0].bases), ("Warband", 8));
    assert_eq!(
        (
            army.player.as_str(),
            army.name.as_str(),
            army.c_in_c.name.as_str()
        ),
        ("Boudicca", "Ancient British", "Boudicca")
    );
    assert_eq!(army.commanders.len(), 1);
    assert_eq!(army.territories, ["agricultural", "woodlands"]);
    assert!(
        h.query_by_label("Army list text").is_none(),
        "closed once imported"
    );

    // Duplicate a row; Enter in a name adds the next row, numbered as it.
    click(&mut h, "Duplicate BG 1");
    let bgs = &h.state().fog().panels.armies.draft(Side::South).bgs;
    assert_eq!(bgs.len(), 3);
    assert_eq!(bgs[1].name, "Warband");
    h.get_by_label("BG 3 name").focus();
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    h.run();
    let bgs = &h.state().fog().panels.armies.draft(Side::South).bgs;
    assert_eq!(bgs.len(), 4);
    assert_eq!(bgs[3].name, "BG 4");
    // Its name is selected: what he types replaces it.
    h.get_by_label("BG 4 name").type_text("Auxiliary archers");
    h.run();
    let bgs = &h.state().fog().panels.armies.draft(Side::South).bgs;
    assert_eq!(bgs[3].name, "Auxiliary archers");
    // Type-ahead in the focused choices: "l" twice, then "s".
    h.get_by_label("BG 4 troop type").focus();
    h.run();
    for letter in ["l", "l"] {
        h.get_by_label("BG 4 troop type").type_text(letter);
        h.run();
    }
    h.get_by_label("BG 4 quality").focus();
    h.run();
    h.get_by_label("BG 4 quality").type_text("s");
    h.run();
    let bg = &h.state().fog().panels.armies.draft(Side::South).bgs[3];
    let r = muster::fog::ruleset::Ruleset::builtin();
    let lights: Vec<&str> = r
        .troop_types
        .iter()
        .filter(|(_, t)| t.name.to_lowercase().starts_with('l'))
        .map(|(id, _)| id.as_str())
        .collect();
    assert_eq!(bg.troop_type, lights[1], "the second type starting with l");
    assert_eq!(bg.quality, muster::core::dice::Quality::Superior);
}

#[test]
fn a_group_with_two_forests_chooses_which_it_lays() {
    let dir = tempfile::tempdir().unwrap();
    let r = muster::fog::ruleset::Ruleset::builtin();
    let mut inventory = muster::fog::inventory::Inventory::builtin();
    let square = muster::fog::geometry::Shape::Rectangle {
        width: 8.0,
        depth: 8.0,
    };
    inventory.pieces["forest"]
        .more
        .push(muster::fog::inventory::Spare {
            large: false,
            shape: square.clone(),
        });
    let inventory_path = dir.path().join("inventory.json");
    inventory.save(&inventory_path, &r).unwrap();
    let config = AppConfig {
        autosave: Some(dir.path().join("autosaves")),
        inventory: Some(inventory_path),
        open: Some(north_to_place(dir.path())),
        seed: Some(1),
        viewer: crate::app::Viewer::Off,
        settings: None,
        phone_names: vec![crate::app::phone_kit::browser::HOST.into()],
        net: muster_remote::Net::nowhere(),
        join: None,
    };
    let mut h = app(config, [1500.0, 1000.0]);
    click(&mut h, "Physical piece");
    click(&mut h, "2: rectangle 8.0 in x 8.0 in (8 x 8 MU)");
    type_into(&mut h, "North's die", "2");
    click(&mut h, "Enter North's die");
    let rolled = h
        .state()
        .fog()
        .battle
        .state()
        .placement
        .rolled
        .clone()
        .unwrap();
    assert_eq!(rolled.shape, square);
}

#[test]
fn a_roster_saved_to_the_library_loads_from_the_file_menu() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("autosaves"));
    h.run();
    click(&mut h, "Load example army");
    click(&mut h, "Early Imperial Roman");
    click(&mut h, "File");
    click(&mut h, "Rosters");
    h.get_by_label("No saved rosters yet");
    click(&mut h, "Save South's army to the library");
    let army = h.state().fog().panels.armies.draft(Side::South).clone();
    assert!(dir.path().join("rosters").read_dir().unwrap().count() == 1);
    // Into North's draft, from the menu.
    click(&mut h, "File");
    click(&mut h, "Rosters");
    click(&mut h, &format!("{} ({})", army.name, army.player));
    click(&mut h, "Load into North");
    assert_eq!(h.state().fog().panels.armies.draft(Side::North), &army);
}

/// A battle saved and locked at South's ambushes (the deployment script's
/// first 7 lines), reopened in the window.
fn reopened_at_souths_ambushes(dir: &std::path::Path) -> Harness<'static, MusterApp> {
    let mut battle = muster::fog::examples::terrain_battle();
    let script: String = include_str!("../../examples/scripts/deployment.jsonl")
        .lines()
        .take(7)
        .map(|l| format!("{l}\n"))
        .collect();
    muster::fog::script::run(&mut battle, script.as_bytes(), std::io::sink()).unwrap();
    assert_eq!(battle.phase(), SOUTHS_AMBUSHES);
    let path = dir.join("ambushes.json");
    muster::fog::files::save_battle(&path, &battle).unwrap();
    opened(dir, path)
}

const SOUTHS_AMBUSHES: Phase =
    Phase::Deployment(muster::fog::battle::DeploymentTurn::Ambushes(Side::South));

#[test]
fn a_locked_battle_reopened_at_a_private_step_is_unlocked_then_the_step_comes() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = reopened_at_souths_ambushes(dir.path());
    // Read-only: his ambushes wait until he unlocks; then they come to him.
    assert!(h.query_by_label("Pass the laptop to South (Ann)").is_none());
    assert_eq!(unlock(&mut h, "South", PASS), None);
    assert!(h.state().fog().battle.locked_sides().is_empty());
    // He proved it is he on the unlocking's hand-over: his step is his
    // screen at once.
    assert!(h.query_by_label("Pass the laptop to South (Ann)").is_none());
    click(&mut h, "Finish my ambushes");
    assert_eq!(
        h.state().fog().battle.phase(),
        Phase::Deployment(muster::fog::battle::DeploymentTurn::FlankMarches(
            Side::North
        ))
    );
}

/// Unlocking a reopened battle on the laptop, he may choose his hand-over
/// PIN beside the passphrase, as at a private step. The step his
/// unlocking brings opens at once (he proved it is he on that very
/// hand-over); his next one asks the PIN, not the passphrase again.
#[test]
fn a_pin_chosen_at_unlock_opens_his_next_private_step() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = reopened_at_souths_ambushes(dir.path());
    click(&mut h, "Unlock as South (Ann)…");
    // His proof's button is as big as the hand-over's own, not a small
    // one among the form's fields.
    let big = h.get_by_label("Unlock").rect().height();
    let small = h.get_by_label("Cancel: back to the table").rect().height();
    assert!(big > small + 3.0, "{big} against {small}");
    click(&mut h, "Cancel: back to the table");
    assert_eq!(unlock_with_pin(&mut h, "South", PASS, "4826"), None);
    assert!(h.state().fog().battle.locked_sides().is_empty());
    // His ambushes, at once: no second proof.
    h.get_by_label("South: my ambushes");
    assert!(h.query_by_label("South's (Ann) hand-over PIN").is_none());
    // Hidden, they come back through the hand-over: his PIN is asked, and
    // no passphrase.
    click(&mut h, "Hide my secrets");
    h.get_by_label("Pass the laptop to South (Ann)");
    assert!(h.query_by_label("South's (Ann) passphrase").is_none());
    assert!(h.query_by_label("South: my ambushes").is_none());
    super::proof_tests::give_pin(&mut h, "South (Ann)", "4826");
    h.get_by_label("South: my ambushes");
}

/// His ambush marker's name is placed with the pieces' names, clear of
/// them (it covered "Village (S)"), and the legality grid is drawn under
/// every name, at 1280 x 720; the seal button stays put as he chooses and
/// picks.
#[test]
fn an_ambush_markers_name_covers_no_other_name_on_the_laptops_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = reopened_at_souths_ambushes(dir.path());
    h.set_size(egui::vec2(1280.0, 720.0));
    assert_eq!(unlock(&mut h, "South", PASS), None);
    // The button stays where it is as he chooses and picks (what each
    // brings is said under it).
    let seal = |h: &Harness<'_, MusterApp>| h.get_by_label("Seal and place ambush marker").rect();
    let before = seal(&h);
    click(&mut h, "Legio I");
    assert_eq!(seal(&h), before, "choosing moved the button");
    // Issue 49: the key names each colour the table draws (the pieces'
    // terrain) and the grid's cells where he may hide.
    let key = muster::fog::screens::colour_key(&h.state().fog().battle);
    assert!(key.len() >= 3, "{key:?}");
    for swatch in key {
        assert!(
            h.query_all_by_label(&swatch.meaning).count() >= 1,
            "'{}' is not in the key",
            swatch.meaning
        );
    }
    h.get_by_label_contains("may hide here");
    let bg = h
        .state()
        .fog()
        .battle
        .state()
        .armies
        .south
        .as_ref()
        .unwrap()
        .bgs
        .iter()
        .position(|b| b.name == "Legio I")
        .unwrap();
    let at = legal_ambush_point(
        &h,
        Side::South,
        muster::fog::battle::AmbushContent::Bg { bg },
    );
    click_table(&mut h, at);
    assert_eq!(seal(&h), before, "picking moved the button");
    click(&mut h, "Seal and place ambush marker");
    h.run();
    let placed = crate::app::fog::table_view::PLACED.with(|p| p.borrow().clone());
    // The pieces' names, the public marker's and his own words for it.
    for name in ["Village (S)", "Ambush S1", "Legio I"] {
        assert!(placed.iter().any(|(_, t)| t == name), "{name}: {placed:?}");
    }
    let placed: Vec<egui::Rect> = placed.into_iter().map(|(rect, _)| rect).collect();
    for (i, a) in placed.iter().enumerate() {
        for b in &placed[i + 1..] {
            assert!(
                !a.shrink(0.5).intersects(b.shrink(0.5)),
                "a label at {a:?} covers one at {b:?}"
            );
        }
    }
}

/// The attack: a choice "made in the open" that his hand-over screen does
/// not offer would skip his proof. A declaration carries no command (the
/// seat takes the one choice his hand-over screen offers, so nothing else
/// can be slipped in), and one for the other seat, whose hand-over screen
/// does not show, is refused and changes nothing; the offered one,
/// clicked, is taken.
#[test]
fn an_open_choice_not_offered_on_his_hand_over_screen_is_refused() {
    use super::bus::SeatMsg;
    let dir = tempfile::tempdir().unwrap();
    let mut h = reopened_at_souths_ambushes(dir.path());
    assert_eq!(unlock(&mut h, "South", PASS), None);
    // His ambushes opened with the unlocking; hidden, the hand-over comes.
    click(&mut h, "Hide my secrets");
    h.get_by_label("South: no ambushes");
    let log = h.state().fog().battle.log().len();
    h.state().bus.seat(Side::North, SeatMsg::Declared);
    h.run();
    assert_eq!(
        (
            h.state().fog().battle.phase(),
            h.state().fog().battle.log().len()
        ),
        (SOUTHS_AMBUSHES, log),
        "North's declaration was taken"
    );
    h.get_by_label("South: no ambushes");
    click(&mut h, "South: no ambushes");
    assert_ne!(h.state().fog().battle.phase(), SOUTHS_AMBUSHES);
}

/// A card set whose Roman deck is 9 cards (a reshuffle in the first
/// redraw) and whose Gauls hold only movement interrupts.
const SMALL_SET: &str = r#"{
  "format": "muster-card-set",
  "schema": 1,
  "id": "small",
  "name": "Small test set",
  "armies": [
    {"id": "romans", "name": "Romans", "hand_size": 7},
    {"id": "gauls", "name": "Gauls", "hand_size": 7}
  ],
  "cards": [
    {"id": "alpha", "title": "Alpha", "laurels": 1, "rally": 1, "kind": "none", "armies": ["romans"], "count": 5, "text": "Plain."},
    {"id": "beta", "title": "Beta", "laurels": 2, "rally": 1, "kind": "none", "armies": ["romans"], "count": 4, "text": "Plain."},
    {"id": "halt", "title": "Sudden Halt", "laurels": 1, "rally": 0, "kind": "interrupt", "phase": "M", "trash": true, "armies": ["gauls"], "count": 9, "text": "One unit moves."}
  ]
}"#;

/// Hands the screen to `name`, or back to the table when he is done.
pub(crate) fn take_screen(h: &mut Harness<'_, MusterApp>, name: &str) {
    take_laptop(h, name, "my cards");
}

/// `name` takes the laptop on his hand-over screen: its *I am …* button
/// when he set no passphrase; else it asks his proof on itself, and there
/// is no button to click.
pub(crate) fn take_laptop(h: &mut Harness<'_, MusterApp>, name: &str, secrets: &str) {
    let button = format!("I am {name}: show {secrets}");
    if h.query_by_label(&button).is_some() {
        click(h, &button);
    } else {
        let proof = [" passphrase", " hand-over PIN"]
            .map(|field| format!("{}{field}", muster::core::text::possessive(name)));
        assert!(
            proof.iter().any(|p| h.query_by_label(p).is_some()),
            "neither {button:?} nor a field of {name}'s proof: {:?}",
            every_text(h)
        );
    }
}

/// He hides his cards; back at the table, no card of either hand that was
/// never shown is named anywhere on the shared screen.
pub(crate) fn done(h: &mut Harness<'_, MusterApp>) {
    if h.query_by_label("Hide my cards").is_some() {
        click(h, "Hide my cards");
    }
    assert!(
        h.query_by_label("Hide my cards").is_none(),
        "back at the table at once"
    );
    let game = deck_game(h);
    let public = game.public();
    let shown = |id: &String| {
        public.shown.iter().any(|s| s.card == *id)
            || public
                .turn
                .as_ref()
                .is_some_and(|t| t.in_play.iter().any(|c| c.card == *id))
    };
    let sealed: Vec<String> = Side::BOTH
        .into_iter()
        // From two machines, only this one's player's cards are held here.
        .flat_map(|side| game.zones(side).map(|z| z.hand.clone()).unwrap_or_default())
        .filter(|id| !shown(id))
        .filter_map(|id| game.set().card(&id).map(|c| c.title.clone()))
        .collect();
    shows_none(h, &sealed);
}

/// The action-deck game the window holds.
pub(crate) fn deck_game<'a>(h: &'a Harness<'_, MusterApp>) -> &'a muster::deck::Game {
    h.state()
        .system::<super::deck::DeckWindow>()
        .and_then(super::deck::DeckWindow::engine)
        .expect("an action-deck game is open")
}

pub(crate) fn deck_log(h: &Harness<'_, MusterApp>) -> String {
    deck_game(h).log_lines().join("\n")
}

/// *File > New > Action deck* with Decius (South) and Artagur (North) and
/// the small card set imported from `dir`; the form is left to finish.
pub(crate) fn new_small_deck_game(dir: &Path) -> Harness<'static, MusterApp> {
    small_deck_form(dir, harness(&dir.join("autosaves")))
}

/// The small deck game with these passphrases (empty: none), started
/// with Artagur (North) active first.
pub(crate) fn deck_started_by_north(
    dir: &Path,
    passphrases: [&str; 2],
) -> Harness<'static, MusterApp> {
    let mut h = new_small_deck_game(dir);
    for ((side, name), pass) in Side::BOTH
        .into_iter()
        .zip(["Decius", "Artagur"])
        .zip(passphrases)
    {
        if !pass.is_empty() {
            set_passphrase(&mut h, side, name, pass);
        }
    }
    click(&mut h, "North chosen");
    click(&mut h, "Start the game");
    h
}

/// The small deck game's form filled in `h`.
fn small_deck_form(dir: &Path, mut h: Harness<'static, MusterApp>) -> Harness<'static, MusterApp> {
    let set = dir.join("small.json");
    std::fs::write(&set, SMALL_SET).unwrap();
    click(&mut h, "File");
    click(&mut h, "New");
    click(&mut h, "Action deck");
    type_into(&mut h, "South player", "Decius");
    type_into(&mut h, "North player", "Artagur");
    click(&mut h, "Import card set…");
    replace_text(&mut h, "File path", set.to_str().unwrap());
    click(&mut h, "Open");
    h.get_by_label("Card set: Small test set");
    h
}

#[test]
fn two_turns_of_the_action_deck_with_an_interrupt_and_a_reshuffle() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = new_small_deck_game(dir.path());
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    assert_eq!(
        h.query_all_by_label("Deck 2 · Hand 7 · Discard 0 · Removed 0")
            .count(),
        2,
        "both see both counts"
    );

    // Turn 1, Decius active. Rally: Artagur is asked on his own screen.
    click(&mut h, "End the event phase, play the rally phase");
    take_screen(&mut h, "Artagur");
    assert!(
        h.query_by_label("Interrupt with Sudden Halt").is_none(),
        "an M interrupt is not offered for rally"
    );
    click(&mut h, "No interrupt");
    done(&mut h);
    click(&mut h, "Show Decius's cards");
    take_screen(&mut h, "Decius");
    click(&mut h, "Play Alpha for rally");
    click(&mut h, "Play Alpha for rally");
    done(&mut h);
    assert!(
        h.query_by_label("Play Alpha for rally").is_none(),
        "the hand is hidden"
    );
    click(&mut h, "End the rally phase, skip the shooting phase");
    // Declared from his own screen: the laptop is handed to Artagur, who
    // is asked, and Decius's hand closes.
    click(&mut h, "Show Decius's cards");
    take_screen(&mut h, "Decius");
    click(&mut h, "Play the movement phase");
    assert!(
        h.query_by_label("Hide my cards").is_none(),
        "his hand closed"
    );
    take_screen(&mut h, "Artagur");
    click(&mut h, "Interrupt with Sudden Halt");
    done(&mut h);
    click(&mut h, "Show Decius's cards");
    take_screen(&mut h, "Decius");
    click(&mut h, "Play Beta for laurels");
    click(&mut h, "Play Beta for laurels");
    done(&mut h);
    click(&mut h, "End the movement phase, skip the combat phase");
    let log = deck_log(&h);
    assert!(
        log.contains("discard pile of 2 cards is shuffled into a new deck"),
        "{log}"
    );
    // The fatigue step is his to do: the screen is handed to him at once.
    take_screen(&mut h, "Decius");
    click(&mut h, "Remove Alpha (fatigue)");
    done(&mut h);
    click(&mut h, "End turn 1");

    // Turn 2, Artagur active: every phase skipped, nobody is asked; a
    // misclicked skip is taken back first.
    // One click ended the event phase and skipped the rally phase: one
    // undo takes both back.
    let skip_rally = "End the event phase, skip the rally phase";
    click(&mut h, skip_rally);
    click(
        &mut h,
        "Undo: The event phase ends; The rally phase is skipped",
    );
    h.get_by_label("Turn 2: Artagur is active, event phase");
    // And with Ctrl+Z, as in every system (Edit > Undo names it).
    click(&mut h, skip_rally);
    click(&mut h, "Edit");
    assert_eq!(
        h.query_all_by_label_contains("Undo: The event phase ends; The rally phase is skipped")
            .count(),
        2,
        "the table's button and Edit > Undo"
    );
    h.key_press(egui::Key::Escape);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    h.get_by_label("Turn 2: Artagur is active, event phase");
    click(&mut h, skip_rally);
    for phase in ["shooting", "movement", "combat"] {
        click(&mut h, &format!("Skip the {phase} phase"));
    }
    take_screen(&mut h, "Artagur");
    click(&mut h, "Remove Sudden Halt (fatigue)");
    done(&mut h);
    click(&mut h, "End turn 2");

    let game = deck_game(&h);
    let turn = game.public().turn.as_ref().unwrap();
    assert_eq!((turn.number, turn.active), (3, Side::South));
    let log = deck_log(&h);
    assert!(
        log.contains("Artagur plays Sudden Halt (from their hand) for its text as an interrupt"),
        "{log}"
    );
    assert!(!log.contains("Alpha (fatigue)"));
    // The autosave holds the game, and it reopens.
    // The writer's thread has the last change on the disk.
    h.state().autosaved();
    let saves = muster::core::store::Autosaves::new(dir.path().join("autosaves"));
    let again = muster::deck::files::load(&saves.path(game.id())).unwrap();
    assert_eq!(again.public(), game.public());
}

#[test]
fn a_deck_game_with_passphrases_reopens_locked_and_each_player_unlocks_it() {
    const DECIUS: &str = "lantern quarry thistle ember falcon";
    const ARTAGUR: &str = "harbour nettle saffron copper willow";
    let dir = tempfile::tempdir().unwrap();
    let mut h = deck_started_by_north(dir.path(), [DECIUS, ARTAGUR]);
    // Artagur active: Decius holds no interrupt at all (the Romans have
    // none), yet he is asked like any passive player, and any passive
    // player may decline in the open on his hand-over screen (issue 39),
    // so the question tells Artagur nothing about his hand.
    click(&mut h, "End the event phase, play the rally phase");
    h.get_by_label_contains("Decius decides whether they interrupt in secret");
    click(&mut h, "Decius: no interrupt");
    h.get_by_label("End the rally phase, play the shooting phase");
    let id = deck_game(&h).id().to_string();
    // The writer's thread has the last change on the disk.
    h.state().autosaved();
    let saves = muster::core::store::Autosaves::new(dir.path().join("autosaves"));

    // Reopened: read-only until both unlock; nothing can be played before.
    let mut h = opened(dir.path(), saves.path(&id));
    h.get_by_label_contains("Read-only until Decius and Artagur unlock the game");
    click(&mut h, "Look at it read-only for now");
    click(&mut h, "End the rally phase, play the shooting phase");
    h.get_by_label_contains("must unlock");
    click(&mut h, "Unlock…");
    let why = unlock(&mut h, "Decius", ARTAGUR).unwrap();
    assert!(why.contains("not the passphrase this player set"), "{why}");
    assert_eq!(unlock(&mut h, "Decius", DECIUS), None);
    h.get_by_label_contains("Read-only until Artagur unlocks the game");
    // Artagur chooses his hand-over PIN as he unlocks.
    assert_eq!(unlock_with_pin(&mut h, "Artagur", ARTAGUR, "4826"), None);
    assert!(h.query_by_label_contains("Read-only until").is_none());
    let game = deck_game(&h);
    assert!(game.locked_sides().is_empty());
    assert_eq!(game.zones(Side::South).unwrap().hand.len(), 7);
    // The game goes on where it stopped.
    click(&mut h, "Show Artagur's cards");
    take_screen(&mut h, "Artagur");
    // Unlocking in the open opened none of his screens: his proof does,
    // the PIN he chose then (his passphrase is not asked again).
    assert!(h.query_by_label_contains("Sudden Halt").is_none());
    assert!(h.query_by_label("Artagur's passphrase").is_none());
    crate::app::proof_tests::give_pin(&mut h, "Artagur", "4826");
    // (Sudden Halt has no flags: it is not offered for rally.)
    assert!(h.query_by_label("Play Sudden Halt for rally").is_none());
    // Removing a card cannot be taken back: asked once more first.
    // A broken unit's cards: ticked, then removed with one button
    // (issue 39: a red button on every card).
    let broken = h
        .get_all_by_role(egui::accesskit::Role::Button)
        .filter(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.contains("broken unit"))
        })
        .count();
    assert_eq!(broken, 1, "one button, not one a card");
    click(&mut h, "Sudden Halt 1");
    click(&mut h, "Remove the ticked cards for a broken unit");
    h.get_by_label_contains("It cannot be taken back.");
    click(&mut h, "Yes: Remove the ticked cards for a broken unit");
    done(&mut h);
    assert!(
        deck_log(&h).contains("Artagur removes 1 card from their hand for a broken unit"),
        "{}",
        deck_log(&h)
    );
}

/// A double click lands its second click where the first was. On "End the
/// event phase, skip the rally phase" the button that takes its place is
/// "Skip the shooting phase": the click guard keeps the second click from
/// declaring it (issue 25).
/// A moment later the same place takes a click again.
#[test]
fn a_double_click_on_a_turns_button_does_only_the_first_thing() {
    let dir = tempfile::tempdir().unwrap();
    // Frames at 60 a second, as on a laptop, so that a tenth of a second
    // passes between the two clicks.
    let window = app_stepping(
        config(&dir.path().join("autosaves")),
        [1500.0, 1000.0],
        1.0 / 60.0,
    );
    let mut h = small_deck_form(dir.path(), window);
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    h.run();
    // Near its left end, where the next turn's buttons, shorter, still
    // reach.
    let at = h
        .get_by_label("End the event phase, skip the rally phase")
        .rect()
        .left_center()
        + egui::vec2(8.0, 0.0);
    let press = |h: &mut Harness<'_, MusterApp>| {
        h.drag_at(at);
        h.drop_at(at);
        h.step();
    };
    h.hover_at(at);
    h.run_steps(40);
    press(&mut h);
    h.run_steps(5);
    press(&mut h);
    h.run_steps(5);
    let log = deck_log(&h);
    assert!(log.contains("The event phase ends"), "{log}");
    assert!(log.contains("rally phase is skipped"), "{log}");
    assert!(!log.contains("shooting phase is"), "{log}");
    let (_, next) = [
        ("Play the shooting phase", "shooting phase is played"),
        ("Skip the shooting phase", "shooting phase is skipped"),
    ]
    .into_iter()
    .find(|(label, _)| h.get_by_label(label).rect().contains(at))
    .expect("the next button took the place of the first");
    // The player's next decision, half a second later, counts.
    h.run_steps(30);
    press(&mut h);
    h.run_steps(5);
    assert!(deck_log(&h).contains(next));
}

/// The manual's deck turn on one laptop, counted (issue 25): the phones
/// test's turn (`a_whole_deck_turn_from_the_phones_needs_no_click_on_the_laptop`:
/// two declared phases with an interrupt question each, a laurel play by
/// the passive player, fatigue, the end of the turn) with the hand-over
/// screens a shared screen needs.
#[test]
fn a_whole_deck_turn_on_one_screen_counted() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = new_small_deck_game(dir.path());
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    let mut w = crate::app::walker::Walker::new(h);
    w.click("End the event phase, play the rally phase");
    // Declining needs no secret: on the hand-over screen (issue 39).
    w.click("Artagur: no interrupt");
    w.click("End the rally phase, play the shooting phase");
    w.click("I am Artagur: show my cards");
    w.click("No interrupt");
    let laurels = label_of(&w.h, "Play ", "for laurels, then discard");
    w.click(&laurels);
    w.click("Hide my cards");
    w.click("End the shooting phase, skip the movement phase");
    w.click("Skip the combat phase");
    // His fatigue step hands him the screen by itself.
    w.click("I am Decius: show my cards");
    let fatigue = label_of(&w.h, "Remove ", "(fatigue)");
    w.click(&fatigue);
    if w.h.query_by_label("Hide my cards").is_some() {
        w.click("Hide my cards");
    }
    w.click("End turn 1");
    let turn = deck_game(&w.h).public().turn.clone().unwrap();
    assert_eq!((turn.number, turn.active), (2, Side::North));
    println!("a deck turn on one screen: {} clicks", w.interactions);
    // 16 before issue 39's open decline, 15 before a phase's end and the
    // next one's declaration were one click; issue 39's target is 12.
    assert!(w.interactions <= 12, "{} clicks", w.interactions);
}

/// Issue 39: a turn played from a private screen left the status line
/// saying "The game begins" into the shooting phase.
#[test]
fn the_status_line_follows_a_change_made_on_a_private_screen() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = new_small_deck_game(dir.path());
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    h.get_by_label_contains("The game begins");
    click(&mut h, "Show Decius's cards");
    take_screen(&mut h, "Decius");
    click(&mut h, "End the event phase, skip the rally phase");
    assert!(
        h.query_by_label_contains("The game begins").is_none(),
        "{:?}",
        h.state().status
    );
}

/// Issue 32: both "X: the game is over" buttons sat on the shared table,
/// so one player could end the game for both and, with *Open everything*,
/// read every draw. Each player now says it on his own screen, asked once
/// more before it is sent; the table only tells who has.
#[test]
fn each_player_ends_the_deck_game_on_his_own_screen() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = new_small_deck_game(dir.path());
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    click(&mut h, "After the game");
    let buttons = || {
        h.get_all_by_role(egui::accesskit::Role::Button)
            .filter_map(|n| n.accesskit_node().label())
            .filter(|l| l.contains("game is over"))
            .count()
    };
    assert_eq!(buttons(), 0, "no end of the game on the shared table");
    h.get_by_label("Decius has not said the game is over.");
    for name in ["Decius", "Artagur"] {
        click(
            &mut h,
            &format!("Show {} cards", muster::core::text::possessive(name)),
        );
        take_screen(&mut h, name);
        click(&mut h, "The game is over");
        h.get_by_label_contains("End the game for your part?");
        assert!(
            !deck_game(&h).public().over[side_of(&h, name)],
            "asked first"
        );
        click(&mut h, "Yes: The game is over");
        assert!(deck_game(&h).public().over[side_of(&h, name)]);
        done(&mut h);
        if name == "Decius" {
            h.get_by_label("Decius has said the game is over.");
            h.get_by_label("Artagur has not said the game is over.");
        }
    }
    h.get_by_label_contains("The game is over before the first turn was played");
    h.get_by_label("Open everything");
}

fn side_of(h: &Harness<'_, MusterApp>, name: &str) -> Side {
    let setup = deck_game(h).setup();
    *Side::BOTH
        .iter()
        .find(|s| setup.name(**s) == name)
        .expect("a player of the game")
}

/// Artagur, passive, plays two laurels in shooting from his own screen on
/// the laptop: it stays open between them (it closed after one before,
/// issue 25), and while it is open the table offers him none of Decius's
/// turn buttons nor Undo. The log counts each card's laurels.
#[test]
fn the_passive_player_plays_laurels_in_turn_and_sees_only_his_own_buttons() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = new_small_deck_game(dir.path());
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    click(&mut h, "End the event phase, skip the rally phase");
    click(&mut h, "Play the shooting phase");
    take_screen(&mut h, "Artagur");
    click(&mut h, "No interrupt");
    // His answer given, his screen stays open: shooting lets him play
    // laurels whatever he holds, so its staying tells the table nothing.
    for _ in 0..2 {
        assert!(
            h.query_by_label_contains("End the shooting phase")
                .is_none()
        );
        assert!(h.query_by_label_contains("Undo:").is_none());
        let play = h
            .query_all_by_label_contains("for laurels, then discard")
            .filter_map(|n| n.accesskit_node().label())
            .find(|l| l.starts_with("Play "))
            .expect("a card of their hand to play for laurels");
        click(&mut h, &play);
        h.get_by_label("Hide my cards");
    }
    let log = deck_log(&h);
    assert_eq!(
        log.matches("Artagur plays Sudden Halt (from their hand) for its 1 laurel")
            .count(),
        2,
        "{log}"
    );
    done(&mut h);
    h.get_by_label("End the shooting phase, play the movement phase");
}

/// Review at 1280 x 720: a player's hand, open on the laptop, lost its
/// last cards and the broken-unit button under the log; the log folds
/// while his screen is up on a short screen, and the button is in view.
#[test]
fn a_hand_on_a_short_screen_is_not_hidden_by_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let window = app(config(&dir.path().join("autosaves")), [1280.0, 720.0]);
    let mut h = small_deck_form(dir.path(), window);
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    // At the table the log shows.
    h.get_by_label("Fold the log");
    click(&mut h, "Show Decius's cards");
    take_screen(&mut h, "Decius");
    h.get_by_label("Show the log");
    let broken = h
        .get_by_label("Remove the ticked cards for a broken unit")
        .rect();
    assert!(broken.bottom() <= 700.0, "{broken:?}");
    done(&mut h);
    h.get_by_label("Fold the log");
}

/// Read-only, his step's *South (Ann) takes the laptop* is not a dead button:
/// it hands him the laptop to unlock, and his step opens with it.
#[test]
fn passing_the_laptop_in_a_read_only_game_asks_his_unlocking_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = reopened_at_souths_ambushes(dir.path());
    click(&mut h, "Look at it read-only for now");
    click(&mut h, "South (Ann) takes the laptop");
    type_into(&mut h, "South's (Ann) passphrase", PASS);
    press_and_wait(&mut h, "Unlock");
    assert!(h.state().fog().battle.locked_sides().is_empty());
    h.get_by_label("South: my ambushes");
}

#[test]
fn a_file_that_is_not_a_game_is_said_by_name_and_nothing_opens_over_it() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.muster");
    std::fs::write(&notes, "expected ident").unwrap();
    let mut h = app(
        AppConfig {
            open: Some(notes.clone()),
            ..config(&dir.path().join("autosaves"))
        },
        [1280.0, 720.0],
    );
    assert!(
        h.query_by_label("notes.muster was not opened").is_some(),
        "{:?}",
        every_text(&h)
    );
    assert!(
        h.query_by_label("Not a Muster file: it does not begin as Muster's saved games do")
            .is_some(),
        "{:?}",
        every_text(&h)
    );
    assert!(
        h.query_by_label("Nothing was opened in its place.")
            .is_some()
    );
    // No battle's form is drawn under it.
    assert!(
        h.query_by_label("Confirm South's army").is_none(),
        "{:?}",
        every_text(&h)
    );
    click(&mut h, "Start a new battle instead");
    assert!(h.query_by_label("notes.muster was not opened").is_none());
    assert!(h.state().not_opened.is_none());

    // A cut save opened over nothing says so too, and the file picker is
    // one click away.
    let cut = dir.path().join("cut.muster");
    std::fs::write(
        &cut,
        "{\"format\": \"muster-deck\", \"schema\": 1, \"id\": \"a",
    )
    .unwrap();
    let mut h = app(
        AppConfig {
            open: Some(cut),
            ..config(&dir.path().join("autosaves"))
        },
        [1280.0, 720.0],
    );
    assert!(
        every_text(&h)
            .iter()
            .any(|t| t.starts_with("Cut short: its text stops at byte 47")),
        "{:?}",
        every_text(&h)
    );
    click(&mut h, "Open another file…");
    assert!(h.query_by_label("File path").is_some());
}
