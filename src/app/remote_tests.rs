//! A Field of Glory battle played from two windows, as two players would
//! from their own machines (docs: "Playing remotely"): the host opens the
//! shipped battle, invites South by *File > Invite a remote player*, and
//! the joiner's Muster takes the ticket's text, receives the battle, and
//! is unlocked there with South's passphrase. Every test runs through a
//! relay on 127.0.0.1, in a network namespace with loopback alone where
//! one can be made.

use super::tests::{app, built, click, click_table, every_text, unlock};
use super::{AppConfig, MusterApp};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use muster::core::remote::Replica;
use muster::core::side::Side;
use muster::fog::examples::EXAMPLE_PASSPHRASE as PASS;
use muster_testkit::relay::{local_relay, ran_in_loopback_namespace};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub(crate) type H = Harness<'static, MusterApp>;

pub(crate) fn config(
    dir: &Path,
    net: &muster_remote::Net,
    open: Option<std::path::PathBuf>,
) -> AppConfig {
    AppConfig {
        autosave: Some(dir.join("autosaves")),
        inventory: None,
        open,
        seed: None,
        viewer: crate::app::Viewer::Off,
        settings: None,
        phone_names: Vec::new(),
        net: net.clone(),
        join: None,
    }
}

/// Steps `windows` (real time passing: the network is real) until `done`
/// holds; fails saying what each shows if it does not within 30 seconds,
/// a generous bound on a loaded machine.
pub(crate) fn until(windows: &mut [&mut H], what: &str, done: impl Fn(&[&mut H]) -> bool) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        for h in windows.iter_mut() {
            h.step();
        }
        if done(windows) {
            for h in windows.iter_mut() {
                h.run();
            }
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let shown: Vec<Vec<String>> = windows.iter().map(|h| every_text(h)).collect();
    panic!("{what}: not within 30 s; the windows show {shown:?}");
}

/// Whether some text of the window holds `part`.
pub(crate) fn shows(h: &H, part: &str) -> bool {
    h.query_all_by_label_contains(part).next().is_some()
}

pub(crate) fn entries(h: &H) -> usize {
    h.state().fog().battle.log().len()
}

/// Both logs hold the same entries, the link settled.
pub(crate) fn same_log(windows: &[&mut H]) -> bool {
    fn fog(h: &H) -> &muster::fog::battle::Battle {
        &h.state().fog().battle
    }
    entries(windows[0]) == entries(windows[1])
        && fog(windows[0]).log() == fog(windows[1]).log()
        && Replica::link(fog(windows[0]), entries(windows[0]))
            == Replica::link(fog(windows[1]), entries(windows[1]))
}

/// The host invites South and the joiner joins: (host, joiner, the
/// ticket), the joiner unlocked as South on his own machine.
pub(crate) fn joined(dir: &Path, net: &muster_remote::Net) -> (H, H, String) {
    let path = dir.join("terrain.json");
    std::fs::write(&path, muster::fog::examples::TERRAIN_BATTLE).unwrap();
    let host_dir = dir.join("host");
    let mut host = app(config(&host_dir, net, Some(path)), [1500.0, 1000.0]);
    host.get_by_label_contains("Read-only until South (Ann) unlocks");
    let ticket = invite(&mut host, "South (Ann)");
    assert!(ticket.starts_with("muster1"), "{ticket}");
    // South's seat is the other machine's: nothing of his is asked here,
    // and the battle is no longer read-only on the host's.
    assert!(host.state().fog().battle.locked_sides().is_empty());
    assert_eq!(
        host.state().seating.life(Side::South),
        crate::app::seating::Life::Remote
    );

    let mut joiner = start_joiner(dir, net, &ticket);
    until(
        &mut [&mut host, &mut joiner],
        "the battle on the joiner's",
        |w| shows(w[1], "You joined the game as South"),
    );
    // His side only is his to unlock, with his passphrase, here.
    assert_eq!(
        joiner.state().fog().battle.locked_sides(),
        vec![Side::South]
    );
    assert_eq!(unlock(&mut joiner, "South", PASS), None);
    until(&mut [&mut host, &mut joiner], "both connected", |w| {
        w.iter().all(|h| shows(h, "connected (Muster"))
    });
    (host, joiner, ticket)
}

/// The host invites `who` by *File > Invite a remote player*: the
/// ticket's text, the window closed.
pub(crate) fn invite(host: &mut H, who: &str) -> String {
    click(host, "File");
    click(host, "Invite a remote player…");
    click(host, who);
    // The relay is reached off the window's thread, a spinner meanwhile.
    host.get_by_label("Make the ticket").click();
    until(&mut [&mut *host], "the ticket", |w| {
        w[0].query_by_label("Copy the ticket").is_some()
    });
    let ticket = host
        .get_by_label("Ticket")
        .accesskit_node()
        .value()
        .expect("the ticket's text")
        .to_string();
    click(host, "Close window");
    ticket
}

/// A copy of the host's autosave as it is now, in `dir`: the older file
/// its Muster is started again on; and how many entries it holds.
fn older_copy(host: &H, dir: &Path) -> (std::path::PathBuf, usize) {
    let id = Replica::game_id(&host.state().fog().battle).to_string();
    host.state().autosaved();
    let autosaves = dir.join("host").join("autosaves");
    let saved = muster::core::store::Autosaves::new(autosaves).path(&id);
    let older = dir.join("older.json");
    std::fs::copy(&saved, &older).unwrap();
    (older, entries(host))
}

/// The host's Muster closed: the joiner's window says the connection
/// dropped.
fn host_closed(host: H, joiner: &mut H) {
    drop(host);
    until(&mut [joiner], "the drop said on the joiner's", |w| {
        shows(w[0], "the connection dropped")
    });
}

/// The joiner's Muster started on `ticket` (`muster join TICKET`).
pub(crate) fn start_joiner(dir: &Path, net: &muster_remote::Net, ticket: &str) -> H {
    built(
        AppConfig {
            join: Some(ticket.to_string()),
            ..config(&dir.join("joiner"), net, None)
        },
        [1500.0, 1000.0],
        0.25,
    )
}

#[test]
fn a_battle_is_played_from_two_windows_joined_by_a_ticket() {
    if ran_in_loopback_namespace(
        "app::remote_tests::a_battle_is_played_from_two_windows_joined_by_a_ticket",
    ) {
        return;
    }
    let relay = local_relay();
    let dir = tempfile::tempdir().unwrap();
    let (mut host, mut joiner, ticket) = joined(dir.path(), &relay.net);
    let camps = |h: &H| h.state().fog().battle.state().deployment.camps;

    // North (the host's player) places his camp on his machine; the
    // joiner's window follows it.
    host.get_by_label_contains("North (Bob) places their camp");
    click_table(&mut host, [45.0, 45.0]);
    click(&mut host, "Place camp");
    until(&mut [&mut host, &mut joiner], "North's camp on both", |w| {
        same_log(w) && camps(w[1]).north.is_some()
    });

    // A move of North's given on South's machine is refused there, saying
    // why, and nothing crosses.
    let before = entries(&joiner);
    click_table(&mut joiner, [36.0, 6.0]);
    click(&mut joiner, "Place camp");
    until(&mut [&mut host, &mut joiner], "South's camp on both", |w| {
        same_log(w) && camps(w[0]).south.is_some()
    });
    assert_eq!(entries(&joiner), before + 1);
    // North's step is shown on South's machine as it stands, greyed,
    // saying whose it is: nothing of it to click there (a move of North's
    // sent from South's machine anyway is refused: the engine's tests).
    assert!(shows(
        &joiner,
        "North (Bob) does this step on their own Muster"
    ));
    assert!(shows(
        &joiner,
        "Waiting for North (Bob), on their own Muster"
    ));
    assert!(
        joiner
            .query_by_label("North: finish fortifications")
            .is_none()
    );

    // The connection drops: both windows say so within seconds, it comes
    // back by itself, and the next moves cross as before, once each.
    host.state().fog().remote.as_ref().unwrap().cut();
    until(
        &mut [&mut host, &mut joiner],
        "the drop said on both",
        |w| w.iter().all(|h| shows(h, "the connection dropped")),
    );
    until(&mut [&mut host, &mut joiner], "connected again", |w| {
        w.iter().all(|h| shows(h, "; connected (Muster"))
    });
    click(&mut host, "North: finish fortifications");
    until(
        &mut [&mut host, &mut joiner],
        "North's finish on both",
        |w| same_log(w) && entries(w[0]) == before + 2,
    );
    click(&mut joiner, "South: finish fortifications");
    until(
        &mut [&mut host, &mut joiner],
        "the fortifications finished on both",
        |w| same_log(w) && entries(w[0]) == before + 3,
    );

    // Ambushes: each player's in private on his own machine. North's
    // hand-over is on the host's laptop only; South's on his own.
    click(&mut host, "I am North (Bob): show my secrets");
    click(&mut host, "Finish my ambushes");
    until(
        &mut [&mut host, &mut joiner],
        "North's ambushes finished on both",
        |w| same_log(w) && shows(w[1], "South (Ann), on your own Muster"),
    );
    assert!(!shows(&host, "Pass the laptop to South"));
    // His own machine is not passed to anyone, and nobody there looks
    // away: the host's player is on his own.
    assert!(shows(
        &joiner,
        "North (Bob) plays from their own Muster and sees nothing of it"
    ));
    assert!(!shows(&joiner, "Pass the laptop"));
    crate::app::proof_tests::open_with_pin(&mut joiner, "South (Ann)", PASS, "");
    click(&mut joiner, "Syrian archers");
    let content = muster::fog::battle::AmbushContent::Bg { bg: 6 };
    let at = crate::app::tests::legal_ambush_point(&joiner, Side::South, content);
    click_table(&mut joiner, at);
    click(&mut joiner, "Seal and place ambush marker");
    until(
        &mut [&mut host, &mut joiner],
        "South's ambush on both",
        |w| same_log(w) && w[0].state().fog().battle.state().deployment.ambushes.len() == 1,
    );
    // Back in the log, on his private screen.
    joiner.get_by_label("Syrian archers:");
    // The host's machine holds the marker and its sealed record, never
    // what it stands for: his window shows nothing of it.
    crate::app::tests::shows_none(&host, &["Syrian archers:".to_string()]);

    // South's Muster is closed and started again on the same ticket: it
    // takes his seat back, receives the battle as it stands (his ambush in
    // it, sealed), he unlocks his side again, and his private screen opens
    // his own sealed ambush with his key, on his machine.
    drop(joiner);
    until(&mut [&mut host], "the drop said on the host's", |w| {
        shows(w[0], "the connection dropped")
    });
    let mut joiner = start_joiner(dir.path(), &relay.net, &ticket);
    until(
        &mut [&mut host, &mut joiner],
        "the battle on the restarted joiner's",
        |w| shows(w[1], "You joined the game as South"),
    );
    assert_eq!(unlock(&mut joiner, "South", PASS), None);
    until(&mut [&mut host, &mut joiner], "both connected again", |w| {
        same_log(w) && w.iter().all(|h| shows(h, "; connected (Muster"))
    });
    // His unlocking proved it is he: his due step opens at once.
    joiner.get_by_label("Syrian archers:");
    let before = entries(&host);
    click(&mut joiner, "Finish my ambushes");
    until(
        &mut [&mut host, &mut joiner],
        "South's ambushes finished on both",
        |w| same_log(w) && entries(w[0]) == before + 1,
    );
    assert!(host.state().fog().battle.state().deployment.ambushes_done[Side::South]);

    // Nothing is taken back in a remote game (Edit > Undo is greyed
    // with the reason).
    for h in [&host, &joiner] {
        let why = h.state().system.undoable().unwrap_err();
        assert!(why.contains("Nothing is taken back"), "{why}");
    }
}

/// South's move waits on a host's program that does not answer (its
/// window is not drawn: stuck): after the patience his window says so, in
/// red; once the host's takes it, the line goes and says the move went on.
#[test]
fn a_move_that_waits_too_long_is_said_until_the_other_machine_answers() {
    if ran_in_loopback_namespace(
        "app::remote_tests::a_move_that_waits_too_long_is_said_until_the_other_machine_answers",
    ) {
        return;
    }
    let relay = local_relay();
    let dir = tempfile::tempdir().unwrap();
    let (mut host, mut joiner, _) = joined(dir.path(), &relay.net);
    click_table(&mut host, [45.0, 45.0]);
    click(&mut host, "Place camp");
    until(
        &mut [&mut host, &mut joiner],
        "North's camp on both",
        same_log,
    );
    let had = entries(&host);
    let remote = joiner.state_mut().fog_mut().remote.as_mut().unwrap();
    remote.set_patience(Duration::from_millis(300));
    click_table(&mut joiner, [36.0, 6.0]);
    click(&mut joiner, "Place camp");
    let waited = "has not sent this player's move back in the log";
    until(&mut [&mut joiner], "the wait said on the joiner's", |w| {
        shows(w[0], waited)
    });
    until(&mut [&mut host, &mut joiner], "South's camp on both", |w| {
        same_log(w) && entries(w[0]) == had + 1
    });
    until(&mut [&mut joiner], "the wait no longer said", |w| {
        !shows(w[0], waited) && shows(w[0], "the move that waited goes on")
    });
}

/// A joiner whose host's Muster is closed keeps dialing, saying what the
/// last dial met, and stops when he asks: the Join button is back.
#[test]
fn a_join_that_reaches_nobody_can_be_stopped() {
    if ran_in_loopback_namespace("app::remote_tests::a_join_that_reaches_nobody_can_be_stopped") {
        return;
    }
    let relay = local_relay();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("terrain.json");
    std::fs::write(&path, muster::fog::examples::TERRAIN_BATTLE).unwrap();
    let mut host = app(
        config(&dir.path().join("host"), &relay.net, Some(path)),
        [1500.0, 1000.0],
    );
    assert_eq!(unlock(&mut host, "South", PASS), None);
    let ticket = invite(&mut host, "North (Bob)");
    drop(host);
    let mut joiner = start_joiner(dir.path(), &relay.net, &ticket);
    // Stepped, not run: the spinner turns while it dials.
    let start = Instant::now();
    while !(shows(&joiner, "Reaching the host's Muster") && shows(&joiner, "Not yet:")) {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{:?}",
            every_text(&joiner)
        );
        joiner.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    joiner.get_by_label("Stop joining").click();
    joiner.step();
    until(&mut [&mut joiner], "the joining stopped", |w| {
        shows(w[0], "Joining stopped") && w[0].query_by_label("Join").is_some()
    });
}

/// The host's Muster is closed mid-game and opened again on its autosave:
/// it offers to host the battle again with the same ticket; the joiner's
/// Muster, still running, dials again by itself, receives the battle as
/// the host holds it, unlocks its player's side with the key his unlock
/// gave before (no passphrase typed again), and play goes on.
#[test]
fn a_restarted_host_hosts_again_with_the_same_ticket() {
    if ran_in_loopback_namespace(
        "app::remote_tests::a_restarted_host_hosts_again_with_the_same_ticket",
    ) {
        return;
    }
    let relay = local_relay();
    let dir = tempfile::tempdir().unwrap();
    let (mut host, mut joiner, _) = joined(dir.path(), &relay.net);
    click_table(&mut host, [45.0, 45.0]);
    click(&mut host, "Place camp");
    let had = entries(&host);
    // The joiner's machine takes the camp; the host's stops before South's
    // tag of it arrives, so its autosave lacks that tag.
    until(&mut [&mut joiner], "North's camp on the joiner's", |w| {
        entries(w[0]) == had
    });
    let tag_of = |h: &H, position| Replica::tag(&h.state().fog().battle, Side::South, position);
    assert!(tag_of(&host, had).is_none() && tag_of(&joiner, had).is_some());
    let id = Replica::game_id(&host.state().fog().battle).to_string();
    host.state().autosaved();
    host_closed(host, &mut joiner);

    let autosaves = dir.path().join("host").join("autosaves");
    let saved = muster::core::store::Autosaves::new(autosaves).path(&id);
    let mut host = app(
        config(&dir.path().join("host"), &relay.net, Some(saved)),
        [1500.0, 1000.0],
    );
    assert_eq!(entries(&host), had);
    host.get_by_label_contains("This battle was played remotely: South (Ann)");
    // South's passphrase is never asked here: he unlocks on his machine.
    host.get_by_label_contains(
        "South (Ann) played from their own Muster: once the game is hosted or joined again",
    );
    assert!(host.query_by_label("Unlock as South (Ann)…").is_none());
    // Until it is hosted again, South's moves are his machine's: his step
    // waits there, greyed, saying so.
    assert!(shows(
        &host,
        "South (Ann) does this step on their own Muster"
    ));
    assert!(
        host.query_by_label("Place camp")
            .is_none_or(|b| b.accesskit_node().is_disabled())
    );
    assert_eq!(entries(&host), had);
    host.get_by_label("Host it again (same ticket)").click();
    // The battle comes again to the joiner's Muster, which unlocks South's
    // side with the key his unlock gave before: no passphrase again.
    until(&mut [&mut host, &mut joiner], "both connected again", |w| {
        same_log(w)
            && w.iter().all(|h| shows(h, "; connected (Muster"))
            && w[1].state().fog().battle.locked_sides().is_empty()
    });
    assert!(joiner.query_by_label("South's (Ann) passphrase").is_none());
    // South's tag of the camp came from his copy, and crossed again.
    until(
        &mut [&mut host, &mut joiner],
        "South's tag on the host's",
        |w| tag_of(w[0], had).is_some(),
    );
    click_table(&mut joiner, [36.0, 6.0]);
    click(&mut joiner, "Place camp");
    until(&mut [&mut host, &mut joiner], "South's camp on both", |w| {
        same_log(w) && entries(w[0]) == had + 1
    });
}

/// South's Muster is closed, and North places his camp meanwhile on the
/// host's. South's is started again on the same ticket: the battle arrives
/// with a camp South's machine never saw, so it carries no tag of his; it
/// is checked as a move that crosses live is (North's, no die), South
/// unlocks (his machine tags it then and sends the tag), and play goes on.
#[test]
fn a_restarted_joiner_takes_what_the_host_played_while_he_was_away() {
    if ran_in_loopback_namespace(
        "app::remote_tests::a_restarted_joiner_takes_what_the_host_played_while_he_was_away",
    ) {
        return;
    }
    let relay = local_relay();
    let dir = tempfile::tempdir().unwrap();
    let (mut host, joiner, ticket) = joined(dir.path(), &relay.net);
    drop(joiner);
    until(&mut [&mut host], "the drop said on the host's", |w| {
        shows(w[0], "the connection dropped")
    });
    click_table(&mut host, [45.0, 45.0]);
    click(&mut host, "Place camp");
    let had = entries(&host);
    let tag_of = |h: &H| Replica::tag(&h.state().fog().battle, Side::South, had);
    assert!(tag_of(&host).is_none());

    let mut joiner = start_joiner(dir.path(), &relay.net, &ticket);
    until(
        &mut [&mut host, &mut joiner],
        "the battle on the restarted joiner's",
        |w| shows(w[1], "You joined the game as South"),
    );
    assert_eq!(entries(&joiner), had);
    assert_eq!(unlock(&mut joiner, "South", PASS), None);
    until(
        &mut [&mut host, &mut joiner],
        "South's tag of the camp on both",
        |w| same_log(w) && tag_of(w[0]).is_some() && tag_of(w[1]) == tag_of(w[0]),
    );
    click_table(&mut joiner, [36.0, 6.0]);
    click(&mut joiner, "Place camp");
    until(&mut [&mut host, &mut joiner], "South's camp on both", |w| {
        same_log(w) && entries(w[0]) == had + 1
    });
}

/// South hosts (with a passphrase), North joins (without one); North's
/// camp, then a copy of the host's file, then South's camp on both, then
/// the host's Muster closed. The host's folder, the older file and how
/// many entries it holds; the joiner's window and the ticket.
fn played_past_an_older_copy(
    dir: &Path,
    net: &muster_remote::Net,
) -> (PathBuf, PathBuf, usize, H, String) {
    let path = dir.join("terrain.json");
    std::fs::write(&path, muster::fog::examples::TERRAIN_BATTLE).unwrap();
    let host_dir = dir.join("host");
    let mut host = app(config(&host_dir, net, Some(path)), [1500.0, 1000.0]);
    assert_eq!(unlock(&mut host, "South", PASS), None);
    let ticket = invite(&mut host, "North (Bob)");
    let mut joiner = start_joiner(dir, net, &ticket);
    // North set no passphrase: he plays as soon as the battle arrives.
    until(&mut [&mut host, &mut joiner], "both connected", |w| {
        same_log(w) && w.iter().all(|h| shows(h, "; connected (Muster"))
    });
    let first = entries(&host);
    click_table(&mut joiner, [45.0, 45.0]);
    click(&mut joiner, "Place camp");
    until(&mut [&mut host, &mut joiner], "North's camp on both", |w| {
        same_log(w) && entries(w[0]) == first + 1
    });
    let (older, had) = older_copy(&host, dir);
    click_table(&mut host, [36.0, 6.0]);
    click(&mut host, "Place camp");
    until(&mut [&mut host, &mut joiner], "South's camp on both", |w| {
        same_log(w) && entries(w[0]) == had + 1
    });
    host_closed(host, &mut joiner);
    (host_dir, older, had, joiner, ticket)
}

/// The host's Muster is started again on a file older than the joiner's
/// copy (saved before South's camp, which both had taken): the joiner's
/// machine sends its copy back, the host's takes the camp (its own
/// player's tag on it proves he had taken it), and both go on from the
/// longer log; nothing either had taken is lost. Here the host plays
/// South, who set a passphrase, and the joiner North.
#[test]
fn a_host_restarted_on_an_older_file_takes_back_what_it_had_taken() {
    if ran_in_loopback_namespace(
        "app::remote_tests::a_host_restarted_on_an_older_file_takes_back_what_it_had_taken",
    ) {
        return;
    }
    let relay = local_relay();
    let dir = tempfile::tempdir().unwrap();
    let (host_dir, older, had, mut joiner, _) = played_past_an_older_copy(dir.path(), &relay.net);
    let mut host = app(config(&host_dir, &relay.net, Some(older)), [1500.0, 1000.0]);
    assert_eq!(entries(&host), had);
    assert_eq!(unlock(&mut host, "South", PASS), None);
    host.get_by_label("Host it again (same ticket)").click();
    until(
        &mut [&mut host, &mut joiner],
        "South's camp taken back, and the two connected again",
        |w| {
            entries(w[0]) == had + 1
                && same_log(w)
                && w.iter().all(|h| shows(h, "; connected (Muster"))
        },
    );
    assert!(shows(&host, "each taken here before: taken again"));
    click(&mut joiner, "North: finish fortifications");
    until(&mut [&mut host, &mut joiner], "the game goes on", |w| {
        same_log(w) && entries(w[0]) == had + 2
    });
}

/// The same with both Musters closed: the joiner's, started again with
/// the same ticket, holds no game in memory, but its autosave keeps its
/// copy, which it sets against the host's older game: the host takes
/// South's camp back from it, and neither copy is cut short.
#[test]
fn both_restarted_the_joiners_autosave_gives_back_what_the_older_host_lacks() {
    if ran_in_loopback_namespace(
        "app::remote_tests::both_restarted_the_joiners_autosave_gives_back_what_the_older_host_lacks",
    ) {
        return;
    }
    let relay = local_relay();
    let dir = tempfile::tempdir().unwrap();
    let (host_dir, older, had, joiner, ticket) = played_past_an_older_copy(dir.path(), &relay.net);
    joiner.state().autosaved();
    drop(joiner);
    let mut host = app(config(&host_dir, &relay.net, Some(older)), [1500.0, 1000.0]);
    assert_eq!(unlock(&mut host, "South", PASS), None);
    host.get_by_label("Host it again (same ticket)").click();
    let mut joiner = start_joiner(dir.path(), &relay.net, &ticket);
    until(
        &mut [&mut host, &mut joiner],
        "South's camp taken back from the joiner's autosave",
        |w| {
            entries(w[0]) == had + 1
                && same_log(w)
                && w.iter().all(|h| shows(h, "; connected (Muster"))
        },
    );
    click(&mut joiner, "North: finish fortifications");
    until(&mut [&mut host, &mut joiner], "the game goes on", |w| {
        same_log(w) && entries(w[0]) == had + 2
    });
}

/// The same, the host's player without a passphrase: nothing proves which
/// entries of the joiner's copy his Muster had taken, so the joiner's
/// machine neither sends them nor goes on from the shorter log: his copy
/// is kept, on his disk too, and he is told how to go on.
#[test]
fn a_joiners_longer_copy_is_kept_when_the_host_cannot_check_it() {
    if ran_in_loopback_namespace(
        "app::remote_tests::a_joiners_longer_copy_is_kept_when_the_host_cannot_check_it",
    ) {
        return;
    }
    let relay = local_relay();
    let dir = tempfile::tempdir().unwrap();
    let (mut host, mut joiner, _) = joined(dir.path(), &relay.net);
    let id = Replica::game_id(&host.state().fog().battle).to_string();
    let (older, had) = older_copy(&host, dir.path());
    click_table(&mut host, [45.0, 45.0]);
    click(&mut host, "Place camp");
    until(&mut [&mut host, &mut joiner], "North's camp on both", |w| {
        same_log(w) && entries(w[0]) == had + 1
    });
    host_closed(host, &mut joiner);
    let mut host = app(
        config(&dir.path().join("host"), &relay.net, Some(older)),
        [1500.0, 1000.0],
    );
    host.get_by_label("Host it again (same ticket)").click();
    until(&mut [&mut host, &mut joiner], "the joiner's refusal", |w| {
        shows(w[1], "This machine's copy is kept")
    });
    assert!(shows(&joiner, "North (Bob) plays without a passphrase"));
    assert_eq!(entries(&joiner), had + 1);
    joiner.state().autosaved();
    let kept =
        muster::core::store::Autosaves::new(dir.path().join("joiner").join("autosaves")).path(&id);
    let kept =
        muster::fog::files::battle_from_json(&std::fs::read_to_string(kept).unwrap()).unwrap();
    assert_eq!(kept.log().len(), had + 1);
    assert_eq!(entries(&host), had);
}

/// A battle from camps to a flank march's arrival, each step on the window
/// of the player whose step it is: the other machine's window shows it
/// greyed, saying whose it is; South's private steps (his flank march,
/// sealed) open on his own machine behind his proof; who moves first is
/// rolled by each on his own window, and in play South rolls for his
/// march on his and reveals it there, every die made by both machines,
/// his sealed march checked on the host's against what was sealed.
#[test]
fn a_battle_is_played_remotely_from_camps_to_a_flank_marchs_arrival() {
    if ran_in_loopback_namespace(
        "app::remote_tests::a_battle_is_played_remotely_from_camps_to_a_flank_marchs_arrival",
    ) {
        return;
    }
    use muster::fog::battle::{DeploymentTurn as T, Phase, current_turn};
    let relay = local_relay();
    let dir = tempfile::tempdir().unwrap();
    let (mut host, mut joiner, _) = joined(dir.path(), &relay.net);
    let mut turns = 0;
    let mut then = None;
    loop {
        let battle = host.state().fog().battle.clone();
        let state = battle.state();
        if state
            .deployment
            .flank_marches
            .first()
            .is_some_and(|m| m.revealed.is_some())
        {
            break;
        }
        let phase = battle.phase();
        let side = match phase {
            Phase::Deployment(turn) => turn.side(),
            Phase::MovesFirst if state.moves_first.rolls.north.is_none() => Side::North,
            Phase::MovesFirst => Side::South,
            Phase::Play => current_turn(state).expect("a turn").1,
            other => panic!("unexpected {other:?}"),
        };
        // South's check of his sealed groups comes to him by itself once
        // the batches are down (RULES 8.5 ruling), on his own machine.
        if shows(
            &joiner,
            "checks their sealed battle groups against the table",
        ) {
            crate::app::proof_tests::open_with_pin(&mut joiner, "South (Ann)", PASS, "");
            until(&mut [&mut host, &mut joiner], "South's check made", |w| {
                !shows(w[1], "checks their sealed battle groups against the table")
            });
            continue;
        }
        let before = entries(&host);
        let other = if side == Side::North { &joiner } else { &host };
        let name = muster::core::seat::Seated::seat_name(&battle, side);
        if phase != Phase::MovesFirst && other.query_by_label("Reveal to both players").is_none() {
            // The other machine's window shows the step with whose it
            // is: nothing of it to click there.
            assert!(
                shows(other, &format!("Waiting for {name}, on their own Muster"))
                    || shows(other, "they reveal it on their own machine"),
                "{phase:?}: {:?}",
                every_text(other)
            );
        }
        let h = if side == Side::North {
            &mut host
        } else {
            &mut joiner
        };
        // South's private screens open on his machine behind his proof
        // (his flank march, its reveal); the other steps he answers from
        // the hand-over screen, in the open.
        let private = matches!(
            phase,
            Phase::Deployment(T::FlankMarches(Side::South)) | Phase::Play
        );
        if private && h.query_by_label("Open my secrets").is_some() {
            crate::app::proof_tests::open_with_pin(h, "South (Ann)", PASS, "");
        }
        match phase {
            Phase::Deployment(T::Camp(_)) => {
                click_table(
                    h,
                    if side == Side::North {
                        [45.0, 45.0]
                    } else {
                        [36.0, 6.0]
                    },
                );
                click(h, "Place camp");
            }
            Phase::Deployment(T::Fortifications(s)) => {
                click(h, &format!("{s}: finish fortifications"))
            }
            Phase::Deployment(T::Ambushes(s)) => click(h, &format!("{s}: no ambushes")),
            Phase::Deployment(T::FlankMarches(Side::South)) => {
                click(h, "Ala Petriana marches");
                click(h, "Ala Indiana marches");
                click(h, "Seal flank march");
                // His screen waits, greyed, while the sealed march crosses
                // to the host's machine and back: nothing is clicked on
                // what it is about to change.
                assert!(shows(h, "Your move is on its way to the other machine"));
                then = Some("Done with my flank marches");
            }
            Phase::Deployment(T::FlankMarches(s)) => click(h, &format!("{s}: no flank marches")),
            Phase::Deployment(T::Batch { number, size, .. }) => {
                if side == Side::South {
                    // He sealed groups: he ticks those he sets on the
                    // table (RULES 8.5 ruling), none on his march.
                    let army = state.armies.south.clone().expect("South's army");
                    let done = muster::fog::battle::deployed_bgs(state, Side::South);
                    let next: Vec<String> = (0..army.bgs.len())
                        .filter(|bg| !done.contains(bg))
                        .map(|bg| army.bgs[bg].name.clone())
                        .filter(|name| !name.starts_with("Ala "))
                        .take(size)
                        .collect();
                    for name in next {
                        let label = crate::app::tests::label_of(h, &format!("{name} ("), "within");
                        click(h, &label);
                    }
                }
                click(h, &format!("Batch {number} deployed"))
            }
            Phase::Deployment(T::Dismount(s)) => click(h, &format!("{s}: no dismounting")),
            Phase::Deployment(T::Commanders(s)) => click(h, &format!("{s}: commanders placed")),
            Phase::MovesFirst => {
                assert!(
                    !shows(h, "Roll for both"),
                    "only this machine's player rolls here"
                );
                click(h, &format!("Roll for {side}"));
            }
            Phase::Play => {
                if h.query_by_label("Reveal to both players").is_some() {
                    click(h, "Reveal to both players");
                } else if h.query_by_label(&format!("Roll for {side}")).is_some() {
                    click(h, &format!("Roll for {side}"));
                } else {
                    let (turn, _) = current_turn(state).unwrap();
                    click(h, &format!("End {side}'s turn {turn}"));
                    turns += 1;
                    assert!(turns < 40, "no arrival in 20 turns each");
                }
            }
            _ => unreachable!(),
        }
        until(
            &mut [&mut host, &mut joiner],
            &format!("{phase:?} done on both"),
            |w| same_log(w) && entries(w[0]) > before,
        );
        if let Some(label) = then.take() {
            let h = if side == Side::North {
                &mut host
            } else {
                &mut joiner
            };
            click(h, label);
            until(&mut [&mut host, &mut joiner], label, |w| {
                same_log(w) && entries(w[0]) > before + 1
            });
        }
    }
    for h in [&host, &joiner] {
        let troubles = &h.state().fog().remote.as_ref().unwrap().troubles;
        assert!(troubles.is_empty(), "{troubles:?}");
    }
    // Every die of the battle since the invitation was made by both
    // machines: who moves first, the arrival rolls, the straggling tests.
    let battle = &host.state().fog().battle;
    let rolls: Vec<_> = battle.log()[before_play(battle)..]
        .iter()
        .flat_map(|e| e.events.iter().flat_map(|ev| ev.rolls()))
        .collect();
    assert!(rolls.len() >= 3, "{} rolls", rolls.len());
    for roll in rolls {
        assert!(roll.joint().is_some(), "{roll:?}");
    }
    // The march South sealed on his machine was opened there and checked
    // on the host's against what was sealed: its groups are known now.
    let march = &battle.state().deployment.flank_marches[0];
    assert_eq!(march.side, Side::South);
    assert!(march.revealed.is_some());
}

/// The log's length when the battle was invited: the shipped battle's.
fn before_play(_: &muster::fog::battle::Battle) -> usize {
    muster::fog::files::battle_from_json(muster::fog::examples::TERRAIN_BATTLE)
        .unwrap()
        .log()
        .len()
}

const ANN: &str = "ann's quarry heron lantern 7";
const BOB: &str = "bob's osprey cider bastion 9";

/// A hidden-forces game begun at one table with both passphrases, the
/// set-up made there: Ann's legions in 0505, Bob's cataphracts in 0909
/// and his horse archers in 1212; Ann's turn begun. As its file.
fn forces_begun() -> String {
    forces_begun_by(true)
}

/// `forces_begun`, Bob's passphrase set with the others (`bob_locks`) or
/// left for him to set on his own machine.
fn forces_begun_by(bob_locks: bool) -> String {
    use muster::map_intel::{Area, Command, Scenario, Setup, Target};
    let (ann, ann_key) = muster::core::intel::Lock::create(ANN, &[]).unwrap();
    let (bob, bob_key) = if bob_locks {
        let (lock, key) = muster::core::intel::Lock::create(BOB, &[]).unwrap();
        (Some(lock), Some(key))
    } else {
        (None, None)
    };
    let setup = Setup {
        scenario: Scenario::example(),
        players: muster::core::side::Sides {
            south: "Ann".into(),
            north: "Bob".into(),
        },
        locks: muster::core::side::Sides {
            south: Some(ann),
            north: bob,
        },
    };
    let keys = muster::core::side::Sides {
        south: Some(ann_key),
        north: bob_key,
    };
    let mut game = muster::map_intel::Game::new(setup, keys).unwrap();
    for (side, hex, units) in [
        (Side::South, "0505", vec!["r-leg-3", "r-leg-6"]),
        (Side::North, "0909", vec!["p-cat-1"]),
        (Side::North, "1212", vec!["p-ha-2", "p-ha-3"]),
    ] {
        let from = game.public().area(side, Area::OffMap).unwrap().id;
        game.apply(Command::Transfer {
            side,
            from,
            to: Target::NewForce(muster::map_intel::Hex::parse(hex).unwrap()),
            units: units.into_iter().map(String::from).collect(),
        })
        .unwrap();
    }
    game.apply(Command::Begin { first: Side::South }).unwrap();
    muster::map_intel::files::to_json(&game)
}

/// Both windows hold one hidden-forces log, chained alike.
fn same_forces_log(windows: &[&mut H]) -> bool {
    use crate::app::map_intel::tests::game;
    let (a, b) = (game(windows[0]), game(windows[1]));
    a.log() == b.log() && Replica::link(a, a.log().len()) == Replica::link(b, b.log().len())
}

/// A hidden-forces game `file` opened on Ann's window (her folders under
/// `dir`/host), hosted for Bob, whose window has joined with the ticket
/// (his under `dir`); Bob's side is unlocked if it has a passphrase and
/// both are connected. The two windows and the ticket.
fn forces_hosted(dir: &Path, net: &muster_remote::Net, file: String) -> (H, H, String) {
    let path = dir.join("forces.json");
    std::fs::write(&path, file).unwrap();
    let mut host = app(config(&dir.join("host"), net, Some(path)), [1500.0, 1000.0]);
    assert_eq!(unlock(&mut host, "Ann", ANN), None);
    let ticket = invite(&mut host, "Bob (Parthia)");
    let mut joiner = start_joiner(dir, net, &ticket);
    until(
        &mut [&mut host, &mut joiner],
        "the game on the joiner's",
        |w| shows(w[1], "You joined the game as North"),
    );
    if crate::app::map_intel::tests::game(&joiner)
        .lock(Side::North)
        .is_ok()
    {
        assert_eq!(unlock(&mut joiner, "Bob", BOB), None);
    }
    until(&mut [&mut host, &mut joiner], "both connected", |w| {
        same_forces_log(w) && w.iter().all(|h| shows(h, "; connected (Muster"))
    });
    (host, joiner, ticket)
}

/// The game comes again to Bob's Muster (still running while Ann's
/// restarted, or restarted and unlocked before he joined again), which
/// unlocks his side with the key his unlock gave: no passphrase again.
fn bob_back_by_itself(host: &mut H, joiner: &mut H) {
    until(
        &mut [&mut *host, &mut *joiner],
        "both connected again",
        |w| {
            same_forces_log(w)
                && w.iter().all(|h| shows(h, "; connected (Muster"))
                && muster::core::seat::Seated::locked_seats(crate::app::map_intel::tests::game(
                    w[1],
                ))
                .is_empty()
        },
    );
    assert!(
        joiner
            .query_by_label("Bob's (Parthia) passphrase")
            .is_none()
    );
}

/// The hidden-forces game back on Bob's window after his Muster
/// restarted: he unlocks his side again, and both are connected.
fn bob_back(host: &mut H, joiner: &mut H) {
    until(
        &mut [&mut *host, &mut *joiner],
        "the game again on the joiner's",
        |w| shows(w[1], "unlock your side again"),
    );
    assert_eq!(unlock(joiner, "Bob", BOB), None);
    until(&mut [host, joiner], "both connected again", |w| {
        same_forces_log(w) && w.iter().all(|h| shows(h, "; connected (Muster"))
    });
}

/// Hidden forces from two windows: the game begun at one table, then
/// hosted by Ann's Muster for Bob's. Ann's legions enter Bob's cataphracts
/// on her window: Bob's Muster answers (its key reveals them and says they
/// hold units), hers reveals the legions; Bob moves on his own window in
/// his turn. Both hold one log; Ann's window never shows what Bob's
/// hidden force holds, and nothing is taken back. Ann ends the game, and
/// each window says the other player's records hold.
#[test]
fn hidden_forces_are_played_from_two_windows() {
    if ran_in_loopback_namespace("app::remote_tests::hidden_forces_are_played_from_two_windows") {
        return;
    }
    use crate::app::map_intel::tests::{drag_to, game};
    let relay = local_relay();
    let dir = tempfile::tempdir().unwrap();
    let (mut host, mut joiner, _) = forces_hosted(dir.path(), &relay.net, forces_begun());

    // Ann's turn is hers: on Bob's window its orders wait, greyed.
    assert!(shows(
        &joiner,
        "Waiting for Ann (Rome), on their own Muster"
    ));
    assert!(
        joiner
            .get_by_label("End Ann's (Rome) turn")
            .accesskit_node()
            .is_disabled()
    );
    drag_to(&mut host, "0505", "0909");
    until(
        &mut [&mut host, &mut joiner],
        "the entry answered on both",
        |w| {
            same_forces_log(w)
                && game(w[0]).log_lines().join("\n").contains(
                    "is revealed, it entered a hex holding enemy units (A2c): Legio III Gallica",
                )
        },
    );
    let log = game(&host).log_lines().join("\n");
    assert!(
        log.contains("Bob (Parthia) says their counters in 0909 hold units"),
        "{log}"
    );
    click(&mut host, "End Ann's (Rome) turn");
    until(&mut [&mut host, &mut joiner], "Bob's turn on both", |w| {
        same_forces_log(w) && game(w[1]).public().active == Some(Side::North)
    });
    drag_to(&mut joiner, "1212", "1111");
    until(&mut [&mut host, &mut joiner], "Bob's move on both", |w| {
        same_forces_log(w)
            && game(w[0])
                .log_lines()
                .join("\n")
                .contains("moves from 1212 to 1111")
    });
    crate::app::tests::shows_none(
        &host,
        &[
            "Horse archers of Margiana".to_string(),
            "Horse archers of Hyrcania".to_string(),
        ],
    );
    for h in [&host, &joiner] {
        let why = h.state().system.undoable().unwrap_err();
        assert!(why.contains("Nothing is taken back"), "{why}");
    }

    // Bob's Muster is closed and started again on his game (as File >
    // Recent opens it): it offers to join it again with the ticket it
    // kept, never Ann's ledger or her passphrase meanwhile; joined, it sets
    // the host's game against its own autosaved copy, unlocks it with the
    // key of his unlock before, and he plays on.
    let id = game(&joiner).id().to_string();
    joiner.state().autosaved();
    drop(joiner);
    until(&mut [&mut host], "the drop said on the host's", |w| {
        shows(w[0], "the connection dropped")
    });
    let saved =
        muster::core::store::Autosaves::new(dir.path().join("joiner").join("autosaves")).path(&id);
    let mut joiner = app(
        config(&dir.path().join("joiner"), &relay.net, Some(saved)),
        [1500.0, 1000.0],
    );
    joiner.get_by_label_contains("You played this game from your own Muster");
    assert!(joiner.query_by_label("Show Ann's (Rome) ledger").is_none());
    assert!(joiner.query_by_label_contains("Unlock as Ann").is_none());
    // He unlocks his side first, as he would any game he reopens: the
    // game that comes when he joins again is unlocked with the same key,
    // not by his passphrase once more.
    assert_eq!(unlock(&mut joiner, "Bob", BOB), None);
    // The join window's spinner keeps repainting: clicked, not settled.
    joiner.get_by_label("Join it again (same ticket)").click();
    joiner.step();
    bob_back_by_itself(&mut host, &mut joiner);
    click(&mut joiner, "End Bob's (Parthia) turn");
    until(&mut [&mut host, &mut joiner], "Ann's turn on both", |w| {
        same_forces_log(w) && game(w[0]).public().active == Some(Side::South)
    });

    // Ann ends the game: each Muster sends its player's records opened,
    // and each finds the other's hold.
    click(&mut host, "End the game…");
    click(&mut host, "The game is over");
    until(&mut [&mut host, &mut joiner], "each audit said", |w| {
        shows(
            w[0],
            "Bob's (Parthia) sealed records, opened by their machine at the game's end, all hold",
        ) && shows(
            w[1],
            "Ann's (Rome) sealed records, opened by their machine at the game's end, all hold",
        )
    });
    for h in [&host, &joiner] {
        assert!(shows(h, "The game is over"));
    }
    // File > Quit during a remote game asks first, saying what it does to
    // the other player.
    click(&mut host, "File");
    click(&mut host, "Quit");
    host.get_by_label_contains("theirs waits for this one");
    click(&mut host, "Stay");
    assert!(!shows(&host, "Quit Muster?"));
}

/// A hidden forces game begun with Ann's passphrase alone and hosted for
/// Bob: his window says his side has none yet and the other Muster could
/// read it; he sets it on his own window, his records are sealed anew
/// there, and after his Muster restarts he unlocks with it and plays on.
#[test]
fn a_hidden_forces_joiner_sets_his_passphrase_on_his_own_window() {
    if ran_in_loopback_namespace(
        "app::remote_tests::a_hidden_forces_joiner_sets_his_passphrase_on_his_own_window",
    ) {
        return;
    }
    use crate::app::map_intel::tests::game;
    let relay = local_relay();
    let dir = tempfile::tempdir().unwrap();
    let (mut host, mut joiner, ticket) =
        forces_hosted(dir.path(), &relay.net, forces_begun_by(false));
    assert!(shows(&joiner, "Your side has no passphrase yet"));
    assert!(!shows(&host, "Your side has no passphrase yet"));
    crate::app::tests::set_passphrase(&mut joiner, Side::North, "Bob (Parthia)", BOB);
    until(
        &mut [&mut host, &mut joiner],
        "his passphrase on both",
        |w| {
            same_forces_log(w)
                && game(w[0])
                    .log_lines()
                    .join("\n")
                    .contains("Bob (Parthia) sets a passphrase on their own machine")
        },
    );
    assert!(!shows(&joiner, "Your side has no passphrase yet"));
    assert!(game(&host).keys()[Side::North].is_none());

    // Bob's Muster restarts: his side now asks his passphrase.
    joiner.state().autosaved();
    drop(joiner);
    let mut joiner = start_joiner(dir.path(), &relay.net, &ticket);
    bob_back(&mut host, &mut joiner);
    crate::app::map_intel::tests::drag_to(&mut host, "0505", "0606");
    until(&mut [&mut host, &mut joiner], "Ann's move on both", |w| {
        same_forces_log(w)
            && game(w[1])
                .log_lines()
                .join("\n")
                .contains("moves from 0505 to 0606")
    });
}

/// A hidden-forces host's Muster is closed mid-game and opened again on
/// its autosave: it offers to host the game again with the same ticket,
/// read-only meanwhile; the joiner's Muster, still running,
/// dials again by itself, Bob unlocks his side again, and play goes on.
#[test]
fn a_restarted_hidden_forces_host_hosts_again_with_the_same_ticket() {
    if ran_in_loopback_namespace(
        "app::remote_tests::a_restarted_hidden_forces_host_hosts_again_with_the_same_ticket",
    ) {
        return;
    }
    use crate::app::map_intel::tests::{drag_to, game};
    let relay = local_relay();
    let dir = tempfile::tempdir().unwrap();
    let host_dir = dir.path().join("host");
    let (mut host, mut joiner, _) = forces_hosted(dir.path(), &relay.net, forces_begun());
    drag_to(&mut host, "0505", "0909");
    until(
        &mut [&mut host, &mut joiner],
        "the entry answered on both",
        |w| same_forces_log(w) && game(w[0]).public().owed.is_none() && game(w[0]).log().len() > 6,
    );
    let id = game(&host).id().to_string();
    let had = game(&host).log().len();
    host.state().autosaved();
    host_closed(host, &mut joiner);

    let saved = muster::core::store::Autosaves::new(host_dir.join("autosaves")).path(&id);
    let mut host = app(config(&host_dir, &relay.net, Some(saved)), [1500.0, 1000.0]);
    assert_eq!(game(&host).log().len(), had);
    assert_eq!(unlock(&mut host, "Ann", ANN), None);
    host.get_by_label_contains(
        "This game was played remotely: Bob (Parthia) played from their own Muster",
    );
    // Until it is hosted again, nothing is played here: Bob's tag is
    // his machine's to add.
    host.get_by_label_contains("Read-only until Bob (Parthia) unlocks the game");
    // His seat stays his machine's: his ledger is not offered here, so
    // this laptop never asks his passphrase.
    assert!(host.query_by_label("Show Bob's (Parthia) ledger").is_none());
    host.get_by_label_contains("Bob (Parthia): on their own Muster");
    host.get_by_label("Host it again (same ticket)").click();
    bob_back_by_itself(&mut host, &mut joiner);
    click(&mut host, "End Ann's (Rome) turn");
    until(&mut [&mut host, &mut joiner], "Bob's turn on both", |w| {
        same_forces_log(w) && game(w[1]).public().active == Some(Side::North)
    });
}
