//! Dummy wings driven as two players would, by accessible labels: Rossbach
//! set up on each player's screen, a move into 7 hexes, the line of sight
//! answered, the odds shown before the roll, the adjustment, and each Wing
//! placed in the formation its rule allows.

use super::WingsWindow;
use crate::app::MusterApp;
use crate::app::tests::{click, drag_through, harness, replace_text, shows_none, type_into};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster::core::side::Side;
use muster::map_intel::wings::game::Game;

type H = Harness<'static, MusterApp>;

pub(crate) fn game(h: &H) -> &Game {
    h.state()
        .system::<WingsWindow>()
        .and_then(WingsWindow::engine)
        .expect("a dummy-wings game is open")
}

/// *File > New > Dummy wings*: Rossbach, Fritz (Prussian) against Charles
/// (Franco-Imperial), whose army is activated.
pub(crate) fn rossbach(dir: &std::path::Path) -> H {
    rossbach_with(dir, ["", ""])
}

/// `rossbach`, with these passphrases (empty: none).
pub(crate) fn rossbach_with(dir: &std::path::Path, passphrases: [&str; 2]) -> H {
    let mut h = harness(&dir.join("autosaves"));
    click(&mut h, "File");
    click(&mut h, "New");
    click(&mut h, "Dummy wings");
    type_into(&mut h, "South player", "Fritz");
    type_into(&mut h, "North player", "Charles");
    for ((side, name), pass) in Side::BOTH
        .into_iter()
        .zip(["Fritz", "Charles"])
        .zip(passphrases)
    {
        if !pass.is_empty() {
            crate::app::tests::set_passphrase(&mut h, side, name, pass);
        }
    }
    click(&mut h, "North's army activated");
    click(&mut h, "Start the game");
    h
}

pub(super) fn counters(h: &mut H, name: &str) {
    click(
        h,
        &format!("Show {} counters", muster::core::text::possessive(name)),
    );
    crate::app::tests::take_laptop(h, name, "my counters");
}

/// He hides his counters; back at the table, no unit of an unspotted
/// counter is named anywhere on the shared screen.
pub(super) fn hide(h: &mut H) {
    click(h, "Hide my counters");
    let game = game(h);
    let sealed: Vec<String> = Side::BOTH
        .into_iter()
        .flat_map(|side| {
            game.view(side)
                .into_iter()
                .filter(|c| c.side == side && !c.face_up)
                .flat_map(|c| c.composition.map(|c| c.units).unwrap_or_default())
                .filter_map(|id| game.setup().unit(side, &id).map(|u| u.name.clone()))
                .collect::<Vec<_>>()
        })
        .collect();
    shows_none(h, &sealed);
}

fn hexes(h: &mut H, [leader, first, second]: [&str; 3]) {
    replace_text(h, "Leader hex", leader);
    replace_text(h, "First Dis hex", first);
    replace_text(h, "Second Dis hex", second);
}

/// Charles, on his own screen, places his infantry Wing in 1020 (Dis 1021,
/// 1121) and hides his counters.
fn french_infantry(h: &mut H) {
    counters(h, "Charles (Franco-Imperial)");
    for unit in ["Piemont", "Mailly", "Poitou", "Provence"] {
        click(h, unit);
    }
    hexes(h, ["1020", "1021", "1121"]);
    click(h, "Place the counter");
    hide(h);
}

/// On Fritz's screen: Seydlitz's cavalry Wing placed in column, leader in
/// 1005, Dis counters in 1004 and 1003.
fn seydlitz(h: &mut H) {
    click(h, "Cav");
    for unit in [
        "Cuirassiers 8",
        "Gensdarmes",
        "Dragoons 4",
        "Hussars 7",
        "Seydlitz",
    ] {
        click(h, unit);
    }
    click(h, "In column (IC)");
    hexes(h, ["1005", "1004", "1003"]);
    click(h, "Place the counter");
}

#[test]
fn rossbach_dummies_and_a_french_wing_spotting_the_roll_the_adjustment_and_the_formations() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("autosaves"));
    click(&mut h, "File");
    click(&mut h, "New");
    click(&mut h, "Dummy wings");
    h.get_by_label("dummies 2 Inf, 2 Cav");
    type_into(&mut h, "South player", "Fritz");
    type_into(&mut h, "North player", "Charles");
    click(&mut h, "North's army activated");
    click(&mut h, "Start the game");

    // Fritz: Seydlitz's cavalry in column, then a Cav and an Inf dummy.
    counters(&mut h, "Fritz (Prussian)");
    seydlitz(&mut h);
    click(&mut h, "A real Wing (untick for a dummy)");
    hexes(&mut h, ["2005", "2004", "2006"]);
    click(&mut h, "Place the counter");
    // A Dis counter 3 hexes away is refused with the measured distance.
    click(&mut h, "Inf");
    hexes(&mut h, ["3005", "3004", "3008"]);
    click(&mut h, "Place the counter");
    h.get_by_label_contains("3008 is 3 hexes from its leader in 3005");
    // A refusal on his screen may tell what a counter is: it goes when he
    // hides his counters, and is never on the shared screen.
    hide(&mut h);
    assert!(h.query_by_label_contains("hexes from its leader").is_none());
    // His form waited for him (issue 25): he fixes the one hex.
    counters(&mut h, "Fritz (Prussian)");
    assert_eq!(
        h.get_by_label("Second Dis hex").value().as_deref(),
        Some("3008")
    );
    replace_text(&mut h, "Second Dis hex", "3006");
    click(&mut h, "Place the counter");
    hide(&mut h);

    french_infantry(&mut h);
    assert!(
        h.query_by_label_contains("Cuirassiers").is_none(),
        "a composition shows at the table"
    );
    click(&mut h, "Begin: Fritz (Prussian) first");

    // Fritz moves his cavalry 8 hexes, within 7 of the French wing.
    counters(&mut h, "Fritz (Prussian)");
    // The cavalry's slowest unit moves 9 in column; each dummy as far as
    // the fastest real Wing of its type could in column (B4b): the Hussars'
    // 11, the infantry's 8, though no real infantry Wing is on the map.
    h.get_by_label_contains("may still move 9 hexes");
    h.get_by_label_contains("may still move 11 hexes");
    h.get_by_label_contains("may still move 8 hexes");
    // Each counter's path, hex by hex (B4c): the leader's dragged on the
    // map, through each hex (the drag picks the counter it starts on)...
    let path: Vec<&str> = "1006 1007 1008 1009 1010 1011 1012 1013"
        .split(' ')
        .collect();
    drag_path(&mut h, "1005", &path);
    assert_eq!(
        h.get_by_label("Leader's path").value().as_deref(),
        Some("1006 1007 1008 1009 1010 1011 1012 1013")
    );
    // ...the Dis counters' typed.
    replace_text(
        &mut h,
        "First Dis path",
        "1005 1006 1007 1008 1009 1010 1011 1012",
    );
    replace_text(
        &mut h,
        "Second Dis path",
        "1004 1005 1006 1007 1008 1009 1010 1011",
    );
    click(&mut h, "Move along the paths");
    hide(&mut h);
    h.get_by_label_contains("and 1020, are 7 hexes apart");
    click(&mut h, "Line of sight clear");

    // Seydlitz's 5 against the French 3: 26 in 36 for the moving side.
    h.get_by_label("Chance to win: moving side 13/18 (72%), stationary side 5/18 (28%) (ties go to the stationary side)");
    type_into(&mut h, "Moving side's die", "6");
    type_into(&mut h, "Stationary side's die", "2");
    click(&mut h, "Use these dice");
    h.get_by_label_contains("may shift its leader up to 3 hexes.");
    replace_text(&mut h, "Shift the leader to hex", "1017");
    click(&mut h, "Shift");
    h.get_by_label_contains("the roll allows 3");
    replace_text(&mut h, "Shift the leader to hex", "1016");
    click(&mut h, "Shift");

    // The roll's dice stay in the panel, above what it decides, as well
    // as in the log (issue 39).
    assert_eq!(
        h.query_all_by_label_contains("Deployment roll (typed): moving ")
            .count(),
        2
    );
    // The French army is not activated: deployed only. The winning IC
    // cavalry chooses.
    h.get_by_label_contains("its army is not activated: always placed deployed (27.2.3)");
    assert!(h.query_by_label("Place counter 3 in column (IC)").is_none());
    click(&mut h, "Place counter 3 deployed");
    click(&mut h, "Place counter 0 in column (IC)");
    let log = game(&h).log_lines().join("\n");
    assert!(
        log.contains("The leader of Fritz's (Prussian) Cav counter 0 is shifted to 1016"),
        "{log}"
    );
    assert!(
        log.contains("Charles's (Franco-Imperial) Inf counter 3 is placed on the map deployed"),
        "{log}"
    );
    assert!(
        log.contains("Fritz's (Prussian) Cav counter 0 is placed on the map in column (IC)"),
        "{log}"
    );
    // The dummies were never flipped.
    assert!(!log.contains("a dummy"), "{log}");
    click(&mut h, "End Fritz's (Prussian) turn");
    assert!(
        h.query_all_by_label("Turn 2: Charles (Franco-Imperial) is active")
            .count()
            >= 1,
        "the heading"
    );
}

/// Fritz sets up a dummy Cav counter from his phone (the hexes typed on
/// its form): the dummy is placed, the table says he is on his phone, and
/// Charles's phone is never told it is a dummy.
#[test]
fn a_dummy_placed_from_the_phone_stays_a_secret_of_his_phone() {
    use crate::app::phone_kit::{Phone, phones, until};
    let dir = tempfile::tempdir().unwrap();
    let mut h = rossbach(dir.path());
    let [mut fritz, mut charles]: [Phone; 2] = phones(&mut h, &Side::BOTH).try_into().ok().unwrap();
    until(&mut h, |h| {
        h.query_by_label("Fritz (Prussian): on their phone")
            .is_some()
    });
    assert_eq!(fritz.look().title, "Fritz's (Prussian) counters");
    let form = serde_json::json!({
        "kind": ["Cav"], "real": [], "leader": ["2005"], "dis1": ["2004"], "dis2": ["2006"]
    });
    fritz.fill(form.clone());
    for _ in 0..50 {
        h.run();
        if fritz.look().texts().contains(&"Place the counter") {
            break;
        }
    }
    fritz.tap_with("Place the counter", form);
    until(&mut h, |h| {
        h.state()
            .system::<super::WingsWindow>()
            .and_then(|w| w.engine())
            .is_some_and(|g| !g.public().counters.is_empty())
    });
    h.run();
    // Each phone's map: Fritz's counter as each may see it.
    let fritz_on = |screen: &crate::app::phone_kit::Seen| -> Vec<String> {
        screen
            .blocks
            .iter()
            .filter_map(|b| match b {
                muster::core::screen::Block::HexMap { board } => Some(board),
                _ => None,
            })
            .flat_map(|board| board.counters.iter())
            .filter(|c| c.side == Side::South && !c.text.starts_with('d'))
            .map(|c| c.text.clone())
            .collect()
    };
    charles.look();
    let seen_by_charles: Vec<String> = charles.seen.iter().flat_map(fritz_on).collect();
    assert!(
        !seen_by_charles.is_empty(),
        "Charles's map shows the counter"
    );
    assert!(
        seen_by_charles.iter().all(|t| t.ends_with('?')),
        "Charles's phone learnt what it is: {seen_by_charles:?}"
    );
    fritz.look();
    let mine = fritz_on(fritz.seen.last().unwrap());
    assert!(
        mine.iter().any(|t| t.contains("dummy")),
        "Fritz's phone shows their dummy: {mine:?}"
    );
}

/// How many counters are on the map.
fn placed(h: &Harness<'_, MusterApp>) -> usize {
    let game = h.state().system::<WingsWindow>().and_then(|w| w.engine());
    game.map_or(0, |g| g.public().counters.len())
}

/// Dummy wings with both players' counters on phones in Chromium. Fritz
/// sets up Seydlitz's cavalry in column and a Cav dummy on his phone, each
/// counter's three hexes tapped on his map; Charles sets up his infantry
/// on his. Fritz moves his cavalry on his phone; at the table it comes
/// within 7 hexes of the French wing and the spotting is asked. Until then
/// Charles's page and the laptop never say what Fritz's counters are.
#[test]
fn dummy_wings_set_up_on_phones_in_chromium_and_a_spotting() {
    use crate::app::chromium::{Page, pair};
    use crate::app::phone_kit::until;
    let Some((_driver, port)) = crate::app::phone_kit::browser::driver() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut h = rossbach(dir.path());
    let fritz = Page::open(port, &pair(&mut h, Side::South), "wings-fritz");
    let charles = Page::open(port, &pair(&mut h, Side::North), "wings-charles");
    let map = "//canvas";
    // Where `hex` is on a phone's map: its centre in map units.
    let share = |h: &H, hex: &str| {
        let map = &game(h).setup().battle.map;
        map.centre(map.hex(hex).unwrap())
    };
    let tick = |h: &mut H, page: &Page, label: &str| {
        page.click(h, &format!("//label[contains(., '{label}')]"));
    };
    // A counter's leader and two Dis hexes, tapped in turn, then placed.
    let place = |h: &mut H, page: &Page, hexes: [&str; 3]| {
        for hex in hexes {
            let at = share(h, hex);
            // In order over one socket: the laptop fills the next field.
            page.tap_map(h, map, at);
        }
        page.tap(h, "Place the counter");
    };
    fritz.tap(&mut h, "Cav");
    for unit in [
        "Cuirassiers 8",
        "Gensdarmes",
        "Dragoons 4",
        "Hussars 7",
        "Seydlitz",
    ] {
        tick(&mut h, &fritz, unit);
    }
    fritz.tap(&mut h, "In column (IC)");
    place(&mut h, &fritz, ["1005", "1004", "1003"]);
    until(&mut h, |h| placed(h) == 1);
    tick(&mut h, &fritz, "A real Wing (untick for a dummy)");
    place(&mut h, &fritz, ["2005", "2004", "2006"]);
    until(&mut h, |h| placed(h) == 2);
    fritz.screenshot("target/phone/wings-counters.png");
    for unit in ["Piemont", "Mailly", "Poitou", "Provence"] {
        tick(&mut h, &charles, unit);
    }
    place(&mut h, &charles, ["1020", "1021", "1121"]);
    until(&mut h, |h| placed(h) == 3);
    for secret in ["Cuirassiers 8", "Seydlitz", "Hussars 7"] {
        assert!(!charles.text().contains(secret), "{}", charles.text());
    }
    shows_none(&h, &["Cuirassiers 8".into(), "Seydlitz".into()]);

    // Fritz moves his cavalry from his phone: each counter's path traced
    // with a finger on his map, hex by hex (B4c); the drag picks the
    // counter it starts on.
    click(&mut h, "Begin: Fritz (Prussian) first");
    for (from, field) in [
        (1005, "Leader's path"),
        (1004, "First Dis path"),
        (1003, "Second Dis path"),
    ] {
        let hexes: Vec<String> = (from..=from + 8).map(|n| n.to_string()).collect();
        let points: Vec<(f64, f64)> = hexes.iter().map(|hex| share(&h, hex)).collect();
        fritz.drag_map(&mut h, map, &points);
        let traced = hexes[1..].join(" ");
        let deadline = std::time::Instant::now() + crate::app::chromium::WAIT;
        while std::time::Instant::now() < deadline {
            h.run();
            let window = h.state().system::<WingsWindow>().unwrap();
            use muster::map_intel::wings::screens::CountersField;
            let key = match field {
                "Leader's path" => CountersField::LeaderPath,
                "First Dis path" => CountersField::Dis1Path,
                _ => CountersField::Dis2Path,
            };
            if window.form(Side::South).get(&key).and_then(|v| v.first()) == Some(&traced) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        if std::time::Instant::now() >= deadline {
            fritz.screenshot("target/phone/wings-drag-failed.png");
            let window = h.state().system::<WingsWindow>().unwrap();
            panic!(
                "{field}: {traced:?} never reached the form: {:?}; heard {:?}",
                window.form(Side::South),
                h.state()
                    .seating
                    .heard
                    .iter()
                    .rev()
                    .take(3)
                    .collect::<Vec<_>>()
            );
        }
        // His phone has drawn the laptop's answer before his finger goes
        // down again, as he would see it (a screen drawn under a drag
        // waits for the finger anyway, but a busy machine may still be
        // laying the last one out where the next drag lands).
        let shown = format!(
            "return [...document.querySelectorAll('input')].some((i) => i.getAttribute('aria-label') === {field:?} && i.value === {traced:?})"
        );
        let deadline = std::time::Instant::now() + crate::app::chromium::WAIT;
        while !fritz
            .runtime
            .block_on(fritz.client.execute(&shown, vec![]))
            .is_ok_and(|v| v == serde_json::json!(true))
        {
            assert!(
                std::time::Instant::now() < deadline,
                "{field} never showed {traced} on his phone"
            );
            h.run();
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
    fritz.tap(&mut h, "Move along the paths");
    until(&mut h, |h| {
        h.query_by_label_contains("and 1020, are 7 hexes apart")
            .is_some()
    });
    click(&mut h, "Line of sight clear");
    h.get_by_label("Chance to win: moving side 13/18 (72%), stationary side 5/18 (28%) (ties go to the stationary side)");
}

/// The form takes the map as the players' printed copy numbers it (issue
/// 25): hexes pointy-top, the first row numbered 0.
#[test]
fn the_new_game_form_sets_the_maps_numbering() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("autosaves"));
    click(&mut h, "File");
    click(&mut h, "New");
    click(&mut h, "Dummy wings");
    type_into(&mut h, "South player", "Fritz");
    type_into(&mut h, "North player", "Charles");
    click(&mut h, "Pointy-top hexes");
    h.get_by_label("First row").set_value_accesskit(0.0);
    h.run();
    click(&mut h, "Start the game");
    let map = &game(&h).setup().battle.map;
    assert_eq!(
        (map.orientation, map.first_row),
        (muster::core::hexmap::Orientation::PointyTop, 0)
    );
}

/// A leader counter to place: its side, type, leader's and Dis counters'
/// hexes, and what it holds.
pub(crate) type Placing = (
    Side,
    muster::map_intel::wings::scenario::Type,
    [&'static str; 3],
    muster::map_intel::wings::game::Composition,
);

/// `game` with `wings` placed, South first to move: the file to open.
pub(crate) fn begun(mut game: Game, wings: Vec<Placing>) -> String {
    use muster::map_intel::wings::game::Command;
    let hex = |h: &str| muster::map_intel::map::Hex::parse(h).unwrap();
    for (side, kind, at, composition) in wings {
        game.apply(Command::PlaceWing {
            side,
            kind,
            detachment: false,
            leader: hex(at[0]),
            dis: [hex(at[1]), hex(at[2])],
            composition,
        })
        .unwrap();
    }
    game.apply(Command::Begin { first: Side::South }).unwrap();
    muster::map_intel::wings::files::to_json(&game)
}

/// Rossbach with Seydlitz's cavalry in column in 1005 (Dis 1004, 1003) and
/// the French infantry in 1020, Fritz's first turn begun.
pub(crate) fn one_wing_each(dir: &std::path::Path) -> H {
    let mut h = rossbach(dir);
    counters(&mut h, "Fritz (Prussian)");
    seydlitz(&mut h);
    hide(&mut h);
    french_infantry(&mut h);
    assert_eq!(placed(&h), 2, "{}", game(&h).log_lines().join("\n"));
    click(&mut h, "Begin: Fritz (Prussian) first");
    h
}

/// Where the hexes of a drag from `from` through `path` are drawn, if all
/// are in sight.
fn path_points(h: &H, from: &str, path: &[&str]) -> Option<Vec<egui::Pos2>> {
    let map = &game(h).setup().battle.map;
    let grid = &h.state().system::<WingsWindow>().unwrap().table.grid;
    let (pane, ..) = grid.coverage(map);
    let points: Vec<egui::Pos2> = std::iter::once(from)
        .chain(path.iter().copied())
        .map(|hex| grid.centre(map, map.hex(hex).unwrap()))
        .collect();
    points
        .iter()
        .all(|p| pane.shrink(8.0).contains(*p))
        .then_some(points)
}

/// Drags the counter in `from` through `path` on the map.
/// The map is zoomed out first until the whole path is in sight, as a
/// player would.
pub(super) fn drag_path(h: &mut H, from: &str, path: &[&str]) {
    for _ in 0..12 {
        if let Some(points) = path_points(h, from, path) {
            return drag_through(h, &points);
        }
        click(h, "Zoom out");
    }
    panic!("the path from {from} never came into sight");
}

/// A dummy-wings turn counted (issue 25): Fritz moves his cavalry two
/// hexes, its leader and each Dis counter dragged along its path, and ends
/// his turn; on one laptop, then with his counters on his phone (the same
/// drags, with a finger).
#[test]
fn a_whole_dummy_wings_turn_counted_on_one_screen_and_with_a_phone() {
    use crate::app::phone_kit::{Phone, phones, until};
    use crate::app::walker::Walker;
    let moved = |h: &Harness<'_, MusterApp>| {
        h.state()
            .system::<WingsWindow>()
            .and_then(|w| w.engine())
            .is_some_and(|g| g.log_lines().iter().any(|l| l.contains("moves")))
    };
    let dir = tempfile::tempdir().unwrap();
    let mut w = Walker::new(one_wing_each(dir.path()));
    w.click("Show Fritz's (Prussian) counters");
    w.click("I am Fritz (Prussian): show my counters");
    // His counters opening leave the table's view where it was: he asks
    // for his own, as he would.
    w.click("My counters");
    for (from, path) in [
        ("1005", ["1006", "1007"]),
        ("1004", ["1005", "1006"]),
        ("1003", ["1004", "1005"]),
    ] {
        let points = path_points(&w.h, from, &path).expect("a short path in sight");
        w.drag(&points);
    }
    w.click("Move along the paths");
    w.click("Hide my counters");
    assert!(moved(&w.h), "{}", game(&w.h).log_lines().join("\n"));
    w.click("End Fritz's (Prussian) turn");
    assert!(
        w.h.query_all_by_label("Turn 2: Charles (Franco-Imperial) is active")
            .count()
            >= 1,
        "the heading"
    );
    println!(
        "a dummy-wings turn on one screen: {} interactions",
        w.interactions
    );
    assert!(w.interactions <= 9, "{} interactions", w.interactions);

    let dir = tempfile::tempdir().unwrap();
    let mut h = one_wing_each(dir.path());
    let [mut fritz]: [Phone; 1] = phones(&mut h, &[Side::South]).try_into().ok().unwrap();
    until(&mut h, |h| {
        h.query_by_label_contains("Fritz (Prussian): on their phone")
            .is_some()
    });
    // A page that drags the other side's counter moves nothing of his:
    // the drag picks only a counter of the phone's own player.
    fritz.drag(&["1020", "1019", "1018"]);
    for _ in 0..20 {
        h.run();
    }
    let form = h.state().system::<WingsWindow>().unwrap().form(Side::South);
    use muster::map_intel::wings::screens::CountersField;
    assert!(
        form.get(&CountersField::Moving).is_none()
            && form
                .get(&CountersField::LeaderPath)
                .is_none_or(|l| l[0] != "1019 1018"),
        "{form:?}"
    );
    // Each counter traced along its path on his phone's map, the button.
    let mut w = Walker::new(h);
    for path in [
        ["1005", "1006", "1007"],
        ["1004", "1005", "1006"],
        ["1003", "1004", "1005"],
    ] {
        w.trace(&mut fritz, &path);
    }
    for _ in 0..50 {
        w.h.run();
        if fritz.look().texts().contains(&"Move along the paths") {
            break;
        }
    }
    w.tap(&mut fritz, "Move along the paths");
    until(&mut w.h, moved);
    w.click("End Fritz's (Prussian) turn");
    println!(
        "a dummy-wings turn with a phone: {} interactions",
        w.interactions
    );
    assert!(w.interactions <= 5, "{} interactions", w.interactions);
}

/// Issue 49: the view jumped when a player's counters opened or closed,
/// leaving every enemy counter out of view. The map keeps the view the
/// players gave it (here zoomed out once): Fritz's counters opening and
/// closing over it leave the map point at the pane's middle and the size
/// of a hex as they were; his *My counters* then moves it to his own.
#[test]
fn the_maps_view_moves_only_when_a_player_moves_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = one_wing_each(dir.path());
    click(&mut h, "Zoom out");
    let view = |h: &H| {
        let map = &game(h).setup().battle.map;
        let grid = &h.state().system::<WingsWindow>().unwrap().table.grid;
        let (pane, ..) = grid.coverage(map);
        let (x, y) = grid.map_point(pane.center());
        let size = grid.centre(map, map.hex("1011").unwrap()).y
            - grid.centre(map, map.hex("1010").unwrap()).y;
        (x, y, size)
    };
    let near = |a: (f64, f64, f32), b: (f64, f64, f32)| {
        (a.0 - b.0).abs() < 1e-3 && (a.1 - b.1).abs() < 1e-3 && (a.2 - b.2).abs() < 1e-3
    };
    let before = view(&h);
    click(&mut h, "Show Fritz's (Prussian) counters");
    click(&mut h, "I am Fritz (Prussian): show my counters");
    assert!(
        near(view(&h), before),
        "opened: {:?} from {before:?}",
        view(&h)
    );
    click(&mut h, "Hide my counters");
    assert!(
        near(view(&h), before),
        "closed: {:?} from {before:?}",
        view(&h)
    );
    click(&mut h, "Show Fritz's (Prussian) counters");
    click(&mut h, "I am Fritz (Prussian): show my counters");
    click(&mut h, "My counters");
    assert!(!near(view(&h), before), "his own asked for: {:?}", view(&h));
}

/// Issue 39: *Start the game* sat at y = 721 on a 720 px screen, below
/// the form's fold; each system's form keeps it in a footer in sight (a
/// window of 660 px: a 720 px screen less its title bar and panel).
#[test]
fn start_the_game_is_in_sight_on_a_720_px_screen() {
    for system in ["Dummy wings", "Hidden forces", "Action deck"] {
        let dir = tempfile::tempdir().unwrap();
        let config = crate::app::tests::config(&dir.path().join("autosaves"));
        let mut h = crate::app::tests::app(config, [1280.0, 660.0]);
        h.run();
        click(&mut h, "File");
        click(&mut h, "New");
        click(&mut h, system);
        let at = h.get_by_label("Start the game").rect();
        assert!(at.top() >= 0.0 && at.bottom() <= 660.0, "{system}: {at:?}");
    }
}

/// Issue 39: the example units stayed Rossbach's when another battle was
/// chosen, with nothing to say so; the form says it for any other battle,
/// until the units are the players' own.
#[test]
fn the_example_units_are_said_to_be_rossbachs_for_another_battle() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("autosaves"));
    click(&mut h, "File");
    click(&mut h, "New");
    click(&mut h, "Dummy wings");
    let said = "named after Rossbach's armies";
    assert!(h.query_by_label_contains(said).is_none());
    click(&mut h, "Leuthen");
    h.get_by_label_contains("replace them with your game's units for Leuthen");
    replace_text(&mut h, "South's unit 1: name", "Prinz Ferdinand");
    assert!(h.query_by_label_contains(said).is_none());
}

/// On the shared map a click on a counter finds it in the Counters list,
/// opened at it and marked; the map's words say each player moves his own
/// on his screen (the review: "click the hex to shift a leader to" did
/// nothing outside an adjustment).
#[test]
fn a_counter_clicked_on_the_shared_map_is_found_in_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = one_wing_each(dir.path());
    h.get_by_label_contains("each player moves his own on his screen");
    assert!(h.query_by_label_contains("shift the leader").is_none());
    let at = (0..12)
        .find_map(|_| {
            let at = path_points(&h, "1005", &[]).map(|p| p[0]);
            if at.is_none() {
                click(&mut h, "Zoom out");
            }
            at
        })
        .expect("1005 in sight");
    // The list's entry (the log speaks of the counter too).
    let entry = "Cav counter 0 in 1005, face down";
    assert!(
        h.query_by_label_contains(entry).is_none(),
        "the list is folded"
    );
    h.drag_at(at);
    h.run();
    h.drop_at(at);
    h.run();
    h.run();
    // Opened at it, and it is the one marked.
    h.get_by_label_contains(entry);
    assert_eq!(
        h.state().system::<WingsWindow>().unwrap().table.selected,
        Some(0)
    );
}
