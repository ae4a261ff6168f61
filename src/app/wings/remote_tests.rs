//! Dummy wings played from two windows, as two players would from their
//! own machines (docs: "Playing remotely"): the game begun at one table,
//! then hosted by Fritz's Muster for Charles's, through a relay on
//! 127.0.0.1, in a network namespace with loopback alone where one can be
//! made.

use super::tests::{counters, drag_path, game, hide};
use crate::app::remote_tests::{H, config, invite, shows, start_joiner, until};
use crate::app::tests::{app, click, replace_text, shows_none, unlock};
use egui_kittest::kittest::{NodeT, Queryable};
use muster::core::remote::Replica;
use muster::core::side::{Side, Sides};
use muster::map_intel::wings::formation::Formation;
use muster::map_intel::wings::game::{Composition, Game, Setup};
use muster::map_intel::wings::scenario::Type;
use muster_testkit::relay::{local_relay, ran_in_loopback_namespace};
use std::path::Path;

const FRITZ: &str = "fritz's quarry heron lantern 7";
const CHARLES: &str = "charles's osprey cider bastion 9";

/// Rossbach begun at one table with both passphrases, the set-up made
/// there: Seydlitz's cavalry in column in 1005 (Dis 1004, 1003), the
/// French infantry deployed in 1020 (Dis 1021, 1121), the French army not
/// activated. Fritz moves first.
fn rossbach_begun() -> String {
    let (fritz, fritz_key) = muster::core::intel::Lock::create(FRITZ, &[]).unwrap();
    let (charles, charles_key) = muster::core::intel::Lock::create(CHARLES, &[]).unwrap();
    let setup = Setup::example(Sides {
        south: Some(fritz),
        north: Some(charles),
    });
    let keys = Sides {
        south: Some(fritz_key),
        north: Some(charles_key),
    };
    let game = Game::new(setup, keys, Default::default()).unwrap();
    let wing = |units: &[&str], rating, formation| Composition {
        real: true,
        units: units.iter().map(|u| u.to_string()).collect(),
        rating,
        formation,
        detached: Vec::new(),
    };
    let wings = vec![
        (
            Side::South,
            Type::Cav,
            ["1005", "1004", "1003"],
            wing(
                &["p-cur-8", "p-cur-10", "p-dra-4", "p-hus-7", "seydlitz"],
                4,
                Formation::InColumn,
            ),
        ),
        (
            Side::North,
            Type::Inf,
            ["1020", "1021", "1121"],
            wing(
                &["f-piemont", "f-mailly", "f-poitou", "f-provence"],
                3,
                Formation::Deployed,
            ),
        ),
    ];
    super::tests::begun(game, wings)
}

/// Both windows hold one dummy-wings log, chained alike.
fn same_log(windows: &[&mut H]) -> bool {
    let (a, b) = (game(windows[0]), game(windows[1]));
    a.log() == b.log() && Replica::link(a, a.log().len()) == Replica::link(b, b.log().len())
}

/// Counter `id`'s whole label as the table's map last drew it.
fn label(h: &H, id: usize) -> String {
    let grid = &h.state().system::<super::WingsWindow>().unwrap().table.grid;
    grid.labels()
        .iter()
        .find(|d| d.id == id)
        .map(|d| d.label.clone())
        .unwrap_or_else(|| panic!("counter {id} not drawn: {:?}", grid.labels()))
}

/// The game `file` opened on Fritz's window (his folders under
/// `dir`/host), hosted for Charles, whose window has joined with the
/// ticket and unlocked his side; both connected.
fn hosted(dir: &Path, net: &muster_remote::Net, file: String) -> (H, H) {
    let path = dir.join("wings.json");
    std::fs::write(&path, file).unwrap();
    let mut host = app(config(&dir.join("host"), net, Some(path)), [1500.0, 1000.0]);
    assert_eq!(unlock(&mut host, "Fritz", FRITZ), None);
    let ticket = invite(&mut host, "Charles (Franco-Imperial)");
    let mut joiner = start_joiner(dir, net, &ticket);
    until(
        &mut [&mut host, &mut joiner],
        "the game on the joiner's",
        |w| shows(w[1], "You joined the game as North"),
    );
    assert_eq!(unlock(&mut joiner, "Charles", CHARLES), None);
    until(&mut [&mut host, &mut joiner], "both connected", |w| {
        same_log(w) && w.iter().all(|h| shows(h, "; connected (Muster"))
    });
    (host, joiner)
}

/// Dummy wings from two windows: Fritz moves Seydlitz within 7 hexes of
/// the French infantry on his window and calls the line clear; Charles's
/// Muster shows the French Wing on his, by itself; the roll is made by
/// both machines; each Wing is placed on its owner's window. The steps of
/// the other machine's player wait greyed, saying for whom; Fritz's
/// window never names a French unit before its Wing is placed. Charles
/// ends the game, and each window says the other's records hold.
#[test]
fn dummy_wings_are_played_from_two_windows() {
    if ran_in_loopback_namespace(
        "app::wings::remote_tests::dummy_wings_are_played_from_two_windows",
    ) {
        return;
    }
    let relay = local_relay();
    let dir = tempfile::tempdir().unwrap();
    let (mut host, mut joiner) = hosted(dir.path(), &relay.net, rossbach_begun());
    assert!(shows(
        &joiner,
        "Waiting for Fritz (Prussian), on their own Muster"
    ));
    assert!(
        joiner
            .get_by_label("End Fritz's (Prussian) turn")
            .accesskit_node()
            .is_disabled()
            || joiner
                .query_by_label("End Fritz's (Prussian) turn")
                .is_none()
    );
    // Charles's counters are his machine's alone: not offered on Fritz's.
    assert!(
        host.query_by_label("Show Charles's (Franco-Imperial) counters")
            .is_none()
    );

    // His own Muster: his counters open without his proof again.
    counters(&mut host, "Fritz (Prussian)");
    assert!(host.query_by_label("Open my secrets").is_none());
    let path: Vec<&str> = "1006 1007 1008 1009 1010 1011 1012 1013"
        .split(' ')
        .collect();
    drag_path(&mut host, "1005", &path);
    replace_text(
        &mut host,
        "First Dis path",
        "1005 1006 1007 1008 1009 1010 1011 1012",
    );
    replace_text(
        &mut host,
        "Second Dis path",
        "1004 1005 1006 1007 1008 1009 1010 1011",
    );
    click(&mut host, "Move along the paths");
    hide(&mut host);
    until(&mut [&mut host, &mut joiner], "the move on both", |w| {
        same_log(w) && shows(w[1], "Is the line of sight between them clear?")
    });
    // The line is the moving side's to call: greyed on Charles's.
    assert!(
        joiner
            .get_by_label("Line of sight clear")
            .accesskit_node()
            .is_disabled()
    );
    let french = ["Piemont", "Mailly", "Poitou", "Provence"].map(String::from);
    shows_none(&host, &french);
    click(&mut host, "Line of sight clear");
    until(
        &mut [&mut host, &mut joiner],
        "the French Wing shown",
        |w| same_log(w) && shows(w[0], "Deployment roll (27.2.1)"),
    );
    shows_none(&host, &french);
    // Both flips on both maps once the log has them (a player saw the
    // other's map keep a flipped Wing's "?" until its next change).
    for (h, who) in [(&host, "Fritz's"), (&joiner, "Charles's")] {
        assert_eq!(label(h, 0), "C0 rated 4", "on {who} map");
        assert_eq!(label(h, 1), "I1 rated 3", "on {who} map");
    }
    // Seydlitz's rating stays on Fritz's machine until the roll.
    host.get_by_label_contains("Chance to win: moving side");
    joiner.get_by_label_contains(
        "What Fritz's (Prussian) Wing adds to its die is on their own Muster until the roll",
    );
    assert!(joiner.query_by_label_contains("Chance to win").is_none());
    assert!(
        host.query_by_label("Use these dice").is_none(),
        "no typed dice remotely"
    );
    click(&mut host, "Roll (both machines make the dice)");
    until(&mut [&mut host, &mut joiner], "the roll on both", |w| {
        same_log(w) && game(w[0]).public().last.is_some()
    });
    if shows(&host, "Leave it where it is") {
        click(&mut host, "Leave it where it is");
        until(&mut [&mut host, &mut joiner], "no shift on both", |w| {
            same_log(w) && shows(w[1], "Placing the spotted Wings")
        });
    }
    // Each Wing is placed on its owner's window.
    let french_id = 1;
    let place = format!("Place counter {french_id} deployed");
    assert!(host.get_by_label(&place).accesskit_node().is_disabled());
    click(&mut joiner, &place);
    let seydlitz = ["Place counter 0 in column (IC)", "Place counter 0 deployed"]
        .into_iter()
        .find(|l| host.query_by_label(l).is_some())
        .expect("Seydlitz's placing");
    click(&mut host, seydlitz);
    until(&mut [&mut host, &mut joiner], "both placed on both", |w| {
        same_log(w) && game(w[0]).public().pending.is_none()
    });
    let log = game(&joiner).log_lines().join("\n");
    assert!(
        log.contains("Charles's (Franco-Imperial) Inf counter 1 is placed on the map deployed"),
        "{log}"
    );
    assert!(
        log.contains("Deployment roll (both machines' dice, round"),
        "the roll says how its dice were made: {log}"
    );
    assert!(game(&host).keys()[Side::North].is_none());
    assert!(game(&joiner).keys()[Side::South].is_none());
    click(&mut host, "End Fritz's (Prussian) turn");
    until(
        &mut [&mut host, &mut joiner],
        "Charles's turn on both",
        |w| same_log(w) && game(w[1]).public().active == Some(Side::North),
    );

    // Charles ends the game: each Muster sends its player's records opened,
    // and each finds the other's hold.
    click(&mut joiner, "End the game…");
    click(&mut joiner, "The game is over");
    until(&mut [&mut host, &mut joiner], "each audit said", |w| {
        shows(
            w[0],
            "Charles's (Franco-Imperial) sealed records, opened by their machine at the game's end, all hold",
        ) && shows(
            w[1],
            "Fritz's (Prussian) sealed records, opened by their machine at the game's end, all hold",
        )
    });
    for h in [&host, &joiner] {
        assert!(shows(h, "The game is over"));
    }
}
