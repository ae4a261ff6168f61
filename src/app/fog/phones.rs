//! Field of Glory's private steps on the players' phones (RULES 8.3, 8.4,
//! 9, 10), driven as two players would: a paired player places his
//! ambushes, records his flank marches, sees which of his sealed battle
//! groups are also deployed and reveals his secrets on his own phone,
//! after his passphrase; the shared screen only says that he is busy
//! there, and never shows a hand-over screen for him. His screens are the
//! engine's seat (`muster_fog::seat`), the same the laptop draws.

use crate::app::phone_kit::{Phone, phones, until};
use crate::app::tests::{click, click_table, legal_ambush_point, opened, shows_none, type_into};
use egui_kittest::kittest::Queryable;
use muster::core::screen::Block;
use muster::core::side::Side;
use muster::fog::battle::AmbushContent;

pub(crate) const PASS: &str = muster::fog::examples::EXAMPLE_PASSPHRASE;

/// Picks `content` and a point on his phone, waits for the rules'
/// verdict there (it must pass), and taps the seal button.
fn place(
    h: &mut egui_kittest::Harness<'_, crate::app::MusterApp>,
    phone: &mut Phone,
    content: &str,
    at: [f64; 2],
) {
    let point = format!("{} {}", at[0], at[1]);
    phone.fill(serde_json::json!({"content": [content], "at": [point]}));
    let said = (0..100).find_map(|_| {
        h.run();
        verdict(phone).filter(|v| v.starts_with('✔'))
    });
    assert!(said.is_some(), "{content} at {point}: {:?}", verdict(phone));
    phone.tap("Seal and place ambush marker");
}

/// The rules' verdict on the point he picked, as his phone shows it.
fn verdict(phone: &mut Phone) -> Option<String> {
    phone.look().blocks.iter().find_map(|b| match b {
        Block::Table { table } => table.pick.as_ref()?.verdict.clone(),
        _ => None,
    })
}

/// Field of Glory with both players on their phones: South unlocks the
/// reopened battle on his, then places a real and a dummy ambush and
/// records a flank march there without typing his passphrase again;
/// North, without a passphrase, says he has none. South's phone checks
/// his sealed battle groups through deployment; in play the march's
/// modifier stays sealed, his phone says whether each public roll
/// brings it on, and he reveals it there. The laptop never shows a
/// hand-over screen, its accessibility tree never names what South
/// sealed, and nothing of it crosses North's socket.
#[test]
fn ambushes_and_a_flank_march_on_the_phones_need_no_hand_over() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("terrain.json");
    std::fs::write(&path, muster::fog::examples::TERRAIN_BATTLE).unwrap();
    let mut h = opened(dir.path(), path);
    click(&mut h, "Look at it read-only for now");
    let [mut south, mut north]: [Phone; 2] = phones(&mut h, &Side::BOTH).try_into().ok().unwrap();
    until(&mut h, |h| {
        h.query_by_label("North (Bob): on their phone").is_some()
    });
    assert_eq!(south.look().title, "South (Ann), your passphrase");
    south.tap_with("Unlock", serde_json::json!({"passphrase": [PASS]}));
    until(&mut h, |h| h.state().fog().battle.locked_sides().is_empty());

    // Camps and fortifications are public: on the laptop.
    camps(&mut h);

    // North, first, has no passphrase and no ambush.
    h.run();
    h.get_by_label("North (Bob) places their ambushes on their phone.");
    assert!(h.query_by_label("North (Bob) takes the laptop").is_none());
    let screen = north.look().clone();
    assert!(
        screen
            .texts()
            .iter()
            .any(|t| t.contains("without a passphrase")),
        "{screen:?}"
    );
    north.tap("Finish my ambushes");
    until(&mut h, |h| {
        h.query_by_label("South (Ann) places their ambushes on their phone.")
            .is_some()
    });

    // South: his key came with his unlock; a pick first gets the
    // rules' verdict, then the marker is sealed.
    h.run();
    let secrets = secrets(&h);
    let bg = secrets.bg;
    let at = legal_ambush_point(&h, Side::South, AmbushContent::Bg { bg });
    place(&mut h, &mut south, &format!("bg {bg}"), at);
    until(&mut h, |h| state(h).deployment.ambushes.len() == 1);
    // A point in North's half: the rules' verdict is on his phone only.
    h.run();
    south.fill(serde_json::json!({"content": ["dummy"], "at": ["36 47"]}));
    let said = (0..100).find_map(|_| {
        h.run();
        verdict(&mut south).filter(|v| v.starts_with('✖'))
    });
    let said = said.expect("the verdict is on their phone");
    let words = said.trim_start_matches('✖').trim();
    assert!(h.query_by_label_contains(words).is_none(), "{said}");
    let at = legal_ambush_point(&h, Side::South, AmbushContent::Dummy);
    place(&mut h, &mut south, "dummy", at);
    until(&mut h, |h| state(h).deployment.ambushes.len() == 2);
    h.run();
    south.tap("Finish my ambushes");

    // Flank marches: North has none; South sends his two alae.
    until(&mut h, |h| {
        h.query_by_label("North (Bob) records their flank marches on their phone.")
            .is_some()
    });
    h.run();
    north.tap("Done with my flank marches");
    until(&mut h, |h| {
        h.query_by_label("South (Ann) records their flank marches on their phone.")
            .is_some()
    });
    h.run();
    south.fill(serde_json::json!({"bgs": secrets.marching}));
    let ready = (0..100).any(|_| {
        h.run();
        let screen = south.look().clone();
        screen.blocks.iter().any(|b| match b {
            Block::Form { actions, .. } | Block::Actions { actions } => actions
                .iter()
                .any(|a| a.label == "Seal flank march" && a.refused.is_none()),
            _ => false,
        })
    });
    assert!(ready, "the march is ready to seal: {:?}", south.look());
    south.tap("Seal flank march");
    until(&mut h, |h| !state(h).deployment.flank_marches.is_empty());
    h.run();
    let screen = south.look().clone();
    assert!(
        screen.texts().iter().any(|t| t.contains(&secrets.names[0])),
        "their march is on their phone: {screen:?}"
    );
    south.tap("Done with my flank marches");
    until(&mut h, |h| state(h).deployment.off_table.south.is_some());
    h.run();
    let mut sealed = vec![secrets.archers.clone()];
    sealed.extend(secrets.names.iter().cloned());
    shows_none(&h, &sealed);
    assert!(
        h.query_by_label_contains("Pass the laptop").is_none(),
        "no hand-over"
    );
    // Deployment: the laptop ticks what each side set on the table;
    // South's phone checks his sealed battle groups as he goes.
    deploy(&mut h, &mut |h, number| {
        let batch = south.look().clone();
        for name in &sealed {
            assert!(
                !batch.texts().iter().any(|t| t.contains(name.as_str())),
                "{name} offered in their batch: {batch:?}"
            );
        }
        south.tap(&format!("Batch {number} deployed"));
        h.run();
    });
    let check = south.look().clone();
    assert!(
        check
            .texts()
            .iter()
            .any(|t| t.contains("None of the battle groups you sealed")),
        "{check:?}"
    );
    assert!(
        h.query_by_label_contains("check my sealed battle groups")
            .is_none()
    );
    to_arrival(&mut h);
    h.run();
    south.tap("Reveal to both players");
    until(&mut h, |h| {
        log(h).contains("South's flank march 1 is revealed (commitment checked)")
    });
    assert!(!log(&h).contains("modifier +"), "{}", log(&h));
    assert!(
        h.query_by_label_contains("Pass the laptop").is_none(),
        "no hand-over"
    );
    // Issue 30: revealed from the phone, the game goes on at the table
    // (it froze on "South reveals a sealed record on their phone").
    end_the_turn(&mut h);
    let seen = north.everything_seen();
    for name in &sealed {
        assert!(
            !seen.contains(name.as_str()),
            "{name} crossed North's socket"
        );
    }
}

/// South sets his army's passphrase on his phone (issue 23): the
/// laptop's form only says that he has one, and the battle is sealed
/// under it once his army is confirmed.
#[test]
fn south_sets_his_armys_passphrase_on_his_phone() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = crate::app::tests::harness(&dir.path().join("autosaves"));
    h.run();
    click(&mut h, "South");
    click(&mut h, "Load example army");
    click(&mut h, "Early Imperial Roman");
    let mut south = phones(&mut h, &[Side::South]).remove(0);
    until(&mut h, |h| {
        h.query_by_label("Set South's passphrase on their phone")
            .is_some()
    });
    click(&mut h, "Set South's passphrase on their phone");
    h.run();
    assert_eq!(south.look().title, "South (Marcus), your passphrase");
    south.tap_with(
        "Set it",
        serde_json::json!({"passphrase": [PASS], "again": [PASS]}),
    );
    until(&mut h, |h| {
        h.query_by_label("✔ South (Marcus) has set a passphrase")
            .is_some()
    });
    assert!(h.query_by_label_contains(PASS).is_none());
    click(&mut h, "Confirm South's army");
    let battle = &h.state().fog().battle;
    assert!(battle.has_passphrase(Side::South));
    let lock = battle.state().locks.south.clone().unwrap();
    assert!(lock.unlock(PASS).is_ok(), "their words open their lock");
}

/// The camps and fortifications of the shipped battle, from the laptop.
pub(crate) fn camps(h: &mut egui_kittest::Harness<'_, crate::app::MusterApp>) {
    click_table(h, [30.0, 44.0]);
    click_table(h, [45.0, 45.0]);
    click(h, "Place camp");
    click(h, "Place camp");
    click(h, "North: finish fortifications");
    click(h, "South: finish fortifications");
}

/// South's phone in Chromium (390 x 844, the page loaded from the test
/// hostname, so without WebCrypto as on a real phone): he unlocks with
/// his passphrase, picks his archers, taps the table where they may
/// hide, reads the rules' verdict, taps the point again and the marker
/// is sealed; a dummy the same way; then his flank march, sealed on his
/// page, rolled at the table (his page says whether it arrives) and
/// revealed from his page. North, on his own page in Chromium, finishes
/// his steps there and never reads a sealed name. Skipped by name where
/// Chromium is not installed.
#[test]
fn ambushes_by_taps_and_a_flank_march_from_a_phone_in_chromium() {
    use crate::app::chromium::{Page, pair};
    let Some((_driver, port)) = crate::app::phone_kit::browser::driver() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("terrain.json");
    std::fs::write(&path, muster::fog::examples::TERRAIN_BATTLE).unwrap();
    let mut h = opened(dir.path(), path);
    click(&mut h, "Look at it read-only for now");
    let south = Page::open(port, &pair(&mut h, Side::South), "fog-south");
    let north = Page::open(port, &pair(&mut h, Side::North), "fog-north");
    south.type_into(&mut h, "//input[@type='password']", PASS);
    south.tap(&mut h, "Unlock");
    until(&mut h, |h| h.state().fog().battle.locked_sides().is_empty());
    camps(&mut h);
    until(&mut h, |h| {
        h.query_by_label("North (Bob) places their ambushes on their phone.")
            .is_some()
    });
    north.tap(&mut h, "Finish my ambushes");
    south.tap(&mut h, "Syrian archers");
    let bg = secrets(&h).bg;
    let at = legal_ambush_point(&h, Side::South, AmbushContent::Bg { bg });
    // The table takes taps once the laptop has sent it with his pick.
    let pickable =
        "//canvas[contains(@aria-label, 'South edge at the bottom): tap to pick a point')]";
    south.tap_table(&mut h, pickable, at);
    let verdict = south.find(&mut h, "//p[@class='verdict-good']");
    let words = south.runtime.block_on(verdict.text()).unwrap();
    assert!(
        words.contains("hidden from all of North's skirmisher area"),
        "{words}"
    );
    // His phone as he decides: the legality map, his pick, the verdict.
    south.show(&verdict, "end");
    south.screenshot("target/phone/fog-ambush.png");
    // The page drew the table anew with his pick: the second tap.
    south.tap_table(&mut h, pickable, at);
    until(&mut h, |h| state(h).deployment.ambushes.len() == 1);
    shows_none(&h, &[secrets(&h).archers]);
    south.find(&mut h, "//div[@class='title' and text()='Syrian archers']");
    // A dummy, by the same two taps; then his flank march.
    south.tap(&mut h, "Dummy");
    let at = legal_ambush_point(&h, Side::South, AmbushContent::Dummy);
    south.tap_table(&mut h, pickable, at);
    south.find(&mut h, "//p[@class='verdict-good']");
    south.tap_table(&mut h, pickable, at);
    until(&mut h, |h| state(h).deployment.ambushes.len() == 2);
    south.tap(&mut h, "Finish my ambushes");
    until(&mut h, |h| {
        h.query_by_label("North (Bob) records their flank marches on their phone.")
            .is_some()
    });
    north.tap(&mut h, "Done with my flank marches");
    let secrets = secrets(&h);
    for name in &secrets.names {
        south.click(&mut h, &format!("//label[contains(., '{name} marches')]"));
    }
    south.tap(&mut h, "Seal flank march");
    until(&mut h, |h| !state(h).deployment.flank_marches.is_empty());
    south.tap(&mut h, "Done with my flank marches");
    until(&mut h, |h| state(h).deployment.off_table.south.is_some());
    h.run();
    for name in std::iter::once(&secrets.archers).chain(&secrets.names) {
        assert!(
            !north.text().contains(name.as_str()),
            "{name} on North's page"
        );
    }
    // His private page on his phone, made by the laptop and sent sealed:
    // the archers in ambush and his march are on it, and nowhere else.
    south.tap(&mut h, "Send me my private printout (PDF)");
    let page = lopdf::Document::load_mem(&south.printout(&mut h)).unwrap();
    let text = page.extract_text(&[1]).unwrap();
    assert!(text.contains(&secrets.archers), "{text}");
    assert!(
        !north.text().contains("Open my private printout"),
        "{}",
        north.text()
    );
    // His batches ticked on his page; rolled at the table, revealed from
    // his page.
    deploy(&mut h, &mut |h, number| {
        south.tap(h, &format!("Batch {number} deployed"));
    });
    to_arrival(&mut h);
    // His phone says what happened before it asks anything.
    south.find(
        &mut h,
        "//p[contains(., 'Your flank march 1 has arrived in your turn') and contains(., 'arrival roll')]",
    );
    south.tap(&mut h, "Reveal to both players");
    until(&mut h, |h| {
        log(h).contains("South's flank march 1 is revealed (commitment checked)")
    });
    // The march is public now; the archers in ambush are not.
    assert!(!north.text().contains(&secrets.archers));
    assert!(
        h.query_by_label_contains("Pass the laptop").is_none(),
        "no hand-over"
    );
    end_the_turn(&mut h);
}

/// From the last batch to the turn South's flank march arrives: no
/// dismounting, commanders placed, who moves first, then two of
/// South's turns with typed arrival dice (4 + 5, then 5 + 6). The
/// march's modifier is sealed: the laptop shows no chances, and South's
/// phone says each time whether it arrives.
fn to_arrival(h: &mut egui_kittest::Harness<'_, crate::app::MusterApp>) {
    // North's chariots may dismount; none of South's may, so his
    // commitment of nothing follows by itself.
    click(h, "North: no dismounting");
    assert!(h.query_by_label("South: no dismounting").is_none());
    for side in ["North", "South"] {
        click(h, &format!("{side}: commanders placed"));
    }
    type_into(h, "South's die", "5");
    click(h, "Enter South's die");
    type_into(h, "North's die", "2");
    click(h, "Enter North's die");
    h.get_by_label_contains("), modifier sealed:");
    assert!(h.query_by_label_contains("Each roll: 2d6").is_none());
    click(h, "End South's turn 1");
    click(h, "End North's turn 1");
    type_into(h, "South's dice", "4 5");
    click(h, "Enter South's dice");
    until(h, |h| {
        log(h).contains("South's flank march 1: not yet (their word")
    });
    click(h, "End South's turn 2");
    click(h, "End North's turn 2");
    type_into(h, "South's dice", "5 6");
    click(h, "Enter South's dice");
    until(h, |h| log(h).contains("South's flank march 1: arrives"));
    // The reveal goes to his phone by itself: it comes before anything.
    h.run();
    h.get_by_label(
        "South's flank march 1 has arrived: they reveal it on their phone before anything else.",
    );
}

/// South's turn 3 ends after the reveal, and North's begins.
fn end_the_turn(h: &mut egui_kittest::Harness<'_, crate::app::MusterApp>) {
    h.run();
    assert!(h.query_by_label_contains("has arrived").is_none());
    click(h, "End South's turn 3");
    h.get_by_label("Turn 3: North to move");
}

/// The battle's state as the window holds it.
fn state<'a>(
    h: &'a egui_kittest::Harness<'_, crate::app::MusterApp>,
) -> &'a muster::fog::battle::State {
    h.state().fog().battle.state()
}

/// The public log as both players read it.
fn log(h: &egui_kittest::Harness<'_, crate::app::MusterApp>) -> String {
    let lines = h.state().fog().battle.log_lines();
    lines
        .into_iter()
        .map(|(l, _)| l)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every batch deployed: North's ticked on the laptop (he sealed nothing
/// off the table, so its proposal may be taken as it is), South's on his
/// phone by `south` (given the batch's number): only his screen may offer
/// his batch, and it never offers a sealed battle group (issue 32).
fn deploy(
    h: &mut egui_kittest::Harness<'_, crate::app::MusterApp>,
    south: &mut dyn FnMut(&mut egui_kittest::Harness<'_, crate::app::MusterApp>, usize),
) {
    use muster::fog::battle::{DeploymentTurn, Phase};
    while let Phase::Deployment(DeploymentTurn::Batch { side, number, .. }) =
        h.state().fog().battle.phase()
    {
        if side == Side::South {
            h.get_by_label_contains("South ticks it on their phone");
            south(h, number);
            until(h, |h| {
                !matches!(
                    h.state().fog().battle.phase(),
                    Phase::Deployment(DeploymentTurn::Batch { side: Side::South, number: n, .. }) if n == number
                )
            });
        } else {
            click(h, &format!("Batch {number} deployed"));
        }
    }
}

/// What South seals: a battle group to put in ambush and two to send
/// on a flank march (as the form has them): names North never reads.
struct Secrets {
    bg: usize,
    archers: String,
    marching: Vec<String>,
    names: Vec<String>,
}

fn secrets(h: &egui_kittest::Harness<'_, crate::app::MusterApp>) -> Secrets {
    let army = state(h).armies.south.clone().unwrap();
    let find = |name: &str| army.bgs.iter().position(|b| b.name == name).unwrap();
    let marching = [find("Ala Petriana"), find("Ala Indiana")];
    Secrets {
        bg: find("Syrian archers"),
        archers: "Syrian archers".into(),
        marching: marching.iter().map(usize::to_string).collect(),
        names: vec!["Ala Petriana".into(), "Ala Indiana".into()],
    }
}
