//! The action deck on the players' phones, driven as two players would: the
//! laptop starts the players' screens on 127.0.0.1, each player's phone
//! (a socket of the test, speaking the page's sealed protocol) joins its
//! seat, the passive player is asked on his phone and the active player
//! plays from his, with no hand-over screen at all.

use crate::app::MusterApp;
use crate::app::phone_kit::{Phone, browser, phones, until};
use crate::app::tests::{click, deck_game, deck_log, shows_none};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use futures_util::StreamExt;
use muster::core::screen::Block;
use muster::core::side::Side;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// The small deck game started, Decius active, each player on his phone.
fn deck_on_phones(dir: &std::path::Path) -> (Harness<'static, MusterApp>, Phone, Phone) {
    let mut h = crate::app::tests::new_small_deck_game(dir);
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    let [decius, artagur]: [Phone; 2] = phones(&mut h, &Side::BOTH).try_into().ok().unwrap();
    until(&mut h, |h| {
        h.query_by_label("Artagur: on their phone").is_some()
    });
    (h, decius, artagur)
}

#[test]
fn a_deck_turn_played_from_both_phones_needs_no_hand_over() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, mut decius, mut artagur) = deck_on_phones(dir.path());
    h.get_by_label("Decius: on their phone");
    assert!(decius.look().title.starts_with("Decius's hand"));
    assert!(artagur.look().title.starts_with("Artagur's hand"));

    // Rally: Artagur is asked on his phone; the laptop only waits.
    click(&mut h, "End the event phase, play the rally phase");
    h.get_by_label_contains("Waiting for Artagur: they are asked on their phone");
    assert!(h.query_by_label_contains("Pass the laptop").is_none());
    h.run();
    artagur.tap("No interrupt");
    until(&mut h, |h| {
        h.query_by_label_contains("Waiting for Artagur").is_none()
    });
    h.run();
    decius.tap("Play Alpha for rally");
    until(&mut h, |h| deck_log(h).contains("Decius plays Alpha"));
    // No hand-over screen was ever needed, the table names no card of a
    // hand, and each phone was only ever sent its own player's screens.
    assert!(h.query_by_label_contains("show my cards").is_none());
    let game = deck_game(&h);
    let hands: Vec<String> = Side::BOTH
        .into_iter()
        .flat_map(|side| game.zones(side).unwrap().hand.clone())
        .filter(|id| !game.public().shown.iter().any(|s| s.card == *id))
        .filter_map(|id| game.set().card(&id).map(|c| c.title.clone()))
        .collect();
    shows_none(&h, &hands);
    decius.look();
    artagur.look();
    assert!(decius.seen.iter().all(|s| s.title.starts_with("Decius")));
    assert!(artagur.seen.iter().all(|s| s.title.starts_with("Artagur")));
}

/// The attack: Decius's page, changed, answers the interrupt question put
/// to Artagur ("no interrupt", for them). The window takes from a phone only
/// what that player's own screen offers: refused on Decius's phone, and
/// Artagur is still asked.
#[test]
fn a_phone_cannot_answer_for_the_other_player() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, mut decius, mut artagur) = deck_on_phones(dir.path());
    decius.tap("End the event phase, play the rally phase");
    until(&mut h, |h| {
        h.query_by_label_contains("Waiting for Artagur").is_some()
    });
    let interrupt = serde_json::json!({"cmd": "interrupt", "player": "north", "card": null});
    let refusal = |h: &mut Harness<'_, MusterApp>, decius: &mut Phone, says: &str| {
        let refused = (0..100).find_map(|_| {
            h.run();
            decius
                .look()
                .blocks
                .iter()
                .find_map(|b| match b {
                    Block::Refusal { text } => Some(text.clone()),
                    _ => None,
                })
                .filter(|text| text.contains(says))
        });
        assert!(refused.is_some(), "{says:?} not said on their phone");
    };
    // The command as it is: not an answer a hand has, named as such.
    decius.forge(interrupt.clone());
    refusal(&mut h, &mut decius, "not one of this screen's (command");
    // As a hand's answer: not one his hand offers him now.
    decius.forge(serde_json::json!({ "play": interrupt }));
    refusal(
        &mut h,
        &mut decius,
        "not one of the actions your screen offers",
    );
    h.get_by_label_contains("Waiting for Artagur");
    artagur.tap("No interrupt");
    until(&mut h, |h| {
        h.query_by_label_contains("Waiting for Artagur").is_none()
    });
    // The game moved on: the refusal no longer speaks of his screen and
    // goes (issue 39: it stayed, and read as a broken rule).
    let gone = (0..100).any(|_| {
        h.run();
        !decius
            .look()
            .blocks
            .iter()
            .any(|b| matches!(b, Block::Refusal { .. }))
    });
    assert!(gone, "the refusal stays after the game moved on");
}

/// Artagur leaves his phone: *Let Artagur's seat go* closes it, and his
/// cards are offered behind the hand-over screen again.
#[test]
fn a_player_lets_his_seat_go_and_is_back_on_the_hand_over_screen() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, _decius, mut artagur) = deck_on_phones(dir.path());
    assert!(h.query_by_label("Show Artagur's cards").is_none());
    click(&mut h, "File");
    click(&mut h, "Players' screens…");
    click(&mut h, "Let Artagur's seat go");
    until(&mut h, |h| {
        h.query_by_label("Show Artagur's cards").is_some()
    });
    h.get_by_label("Artagur's seat: on this laptop (their phone was let go)");
    // Past any screen still on its way: the close.
    let closed = artagur.runtime.block_on(async {
        loop {
            match tokio::time::timeout(Duration::from_secs(5), artagur.socket.next()).await {
                Ok(Some(Ok(Message::Binary(_)))) => continue,
                other => break other,
            }
        }
    });
    assert!(
        matches!(&closed, Ok(Some(Ok(Message::Close(Some(frame))))) if u16::from(frame.code) == muster::seats::server::CLOSE_RELEASED),
        "{closed:?}"
    );
}

/// The same in real browsers: two phones at 390 x 844 in headless
/// Chromium (through chromedriver), each page loaded from a test hostname
/// mapped to 127.0.0.1 (no WebCrypto, as on a phone), playing a deck turn
/// with an interrupt and a laurel play, the passive player's page reloaded
/// mid-turn. Skipped by name where Chromium is not installed.
#[test]
fn two_phones_in_chromium_play_a_deck_turn_with_an_interrupt_and_laurels() {
    use browser::{driver, phone};
    use fantoccini::{Client, Locator};
    let Some((_driver, port)) = driver() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut h = crate::app::tests::new_small_deck_game(dir.path());
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    let urls = [
        crate::app::chromium::pair(&mut h, Side::South),
        crate::app::chromium::pair(&mut h, Side::North),
    ];
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let profiles = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let [decius, artagur]: [Client; 2] = runtime.block_on(async {
        let mut clients = Vec::new();
        for (profile, url) in profiles.iter().zip(&urls) {
            let client = phone(port, profile.path()).await;
            client.goto(url).await.unwrap();
            clients.push(client);
        }
        clients.try_into().unwrap()
    });
    // Taps `label` on a phone once the laptop has sent it there.
    let tap = |h: &mut Harness<'_, MusterApp>, client: &Client, label: &str| {
        let xpath = format!("//button[text()='{label}' and not(@disabled)]");
        let deadline = std::time::Instant::now() + crate::app::chromium::WAIT;
        while std::time::Instant::now() < deadline {
            h.run();
            let found = runtime.block_on(async {
                tokio::time::timeout(
                    Duration::from_millis(50),
                    client.find(Locator::XPath(&xpath)),
                )
                .await
                .ok()
                .and_then(Result::ok)
            });
            if let Some(button) = found {
                runtime.block_on(button.click()).unwrap();
                return;
            }
        }
        panic!("{label} never showed on the phone");
    };
    until(&mut h, |h| {
        h.query_by_label("Artagur: on their phone").is_some()
    });
    click(&mut h, "End the event phase, play the rally phase");
    h.get_by_label_contains("Waiting for Artagur: they are asked on their phone");
    tap(&mut h, &artagur, "No interrupt");
    until(&mut h, |h| {
        h.query_by_label_contains("Waiting for Artagur").is_none()
    });
    tap(&mut h, &decius, "Play Alpha for rally");
    click(&mut h, "End the rally phase, skip the shooting phase");
    click(&mut h, "Play the movement phase");
    // Artagur's phone slept and reloads mid-turn: asked again, he answers.
    runtime.block_on(artagur.refresh()).unwrap();
    tap(&mut h, &artagur, "Interrupt with Sudden Halt");
    until(&mut h, |h| {
        h.query_by_label_contains("Waiting for Artagur").is_none()
    });
    tap(&mut h, &decius, "Play Beta for laurels");
    until(&mut h, |h| deck_log(h).contains("Beta"));
    let log = deck_log(&h);
    assert!(log.contains("Artagur plays Sudden Halt"), "{log}");
    assert!(
        h.query_by_label_contains("show my cards").is_none(),
        "no hand-over"
    );
    // The status phase's redraw brings Decius two cards for Alpha and
    // Beta: his phone marks them new.
    click(&mut h, "End the movement phase, skip the combat phase");
    let marked = (0..200).find_map(|_| {
        h.run();
        runtime.block_on(async {
            let found = decius.find_all(Locator::Css(".item.marked .badge")).await;
            let mut words = Vec::new();
            for badge in found.unwrap_or_default() {
                words.push(badge.text().await.unwrap_or_default());
            }
            (!words.is_empty()).then_some(words)
        })
    });
    let marked = marked.expect("the redraw's cards are marked on the drawer's phone");
    assert!(
        marked.iter().all(|w| w.to_lowercase().contains("new")),
        "{marked:?}"
    );
    std::fs::create_dir_all("target/phone").unwrap();
    runtime.block_on(async {
        for (client, name) in [(&decius, "decius"), (&artagur, "artagur")] {
            let png = client.screenshot().await.unwrap();
            std::fs::write(format!("target/phone/deck-{name}.png"), png).unwrap();
        }
        decius.clone().close().await.unwrap();
        artagur.clone().close().await.unwrap();
    });
}

/// A reopened game waits for Decius's unlock: paired, he types his
/// passphrase on his phone (it crosses the network sealed), a wrong one is
/// refused there, the right one unlocks the game, and his hand follows.
/// The laptop never shows a passphrase field for him.
#[test]
fn a_player_unlocks_a_reopened_game_on_his_phone() {
    use crate::app::tests::{opened, set_passphrase};
    const DECIUS: &str = "lantern quarry thistle ember falcon";
    let dir = tempfile::tempdir().unwrap();
    let mut h = crate::app::tests::new_small_deck_game(dir.path());
    set_passphrase(&mut h, Side::South, "Decius", DECIUS);
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    click(&mut h, "End the event phase, skip the rally phase");
    let id = deck_game(&h).id().to_string();
    // The writer's thread has the last change on the disk.
    h.state().autosaved();
    let saves = muster::core::store::Autosaves::new(dir.path().join("autosaves"));
    let mut h = opened(dir.path(), saves.path(&id));
    click(&mut h, "Look at it read-only for now");
    let mut decius = phones(&mut h, &[Side::South]).remove(0);
    until(&mut h, |h| {
        h.query_by_label("Decius: on their phone").is_some()
    });
    assert_eq!(decius.look().title, "Decius, your passphrase");
    // Nothing typed is no try: said at once, no key worked out.
    decius.tap_with("Unlock", serde_json::json!({"passphrase": [""]}));
    let refused_with = |h: &mut Harness<'static, MusterApp>, decius: &mut Phone, words: &str| {
        (0..200).any(|_| {
            h.run();
            std::thread::sleep(Duration::from_millis(10));
            decius
                .look()
                .blocks
                .iter()
                .any(|b| matches!(b, Block::Refusal { text } if text.contains(words)))
        })
    };
    assert!(refused_with(
        &mut h,
        &mut decius,
        "Type your passphrase first"
    ));
    assert!(
        !decius.everything_seen().contains("Working out the key"),
        "a key is worked out from nothing"
    );
    decius.tap_with(
        "Unlock",
        serde_json::json!({"passphrase": ["a wrong guess"]}),
    );
    assert!(
        refused_with(&mut h, &mut decius, "not the passphrase"),
        "the wrong passphrase is refused on their phone"
    );
    assert!(
        h.query_by_label("Decius's passphrase").is_none(),
        "no passphrase field on the laptop"
    );
    decius.tap_with("Unlock", serde_json::json!({"passphrase": [DECIUS]}));
    until(&mut h, |h| deck_game(h).locked_sides().is_empty());
    h.run();
    assert!(decius.look().title.starts_with("Decius's hand"));
    assert!(h.query_by_label_contains("Read-only until").is_none());
}

/// Decius sets his passphrase for a new game on his phone: he asks for
/// six random words there, sets them (they cross the network only inside
/// a sealed reply), and the laptop's form only ever says that he has one.
#[test]
fn a_player_sets_his_passphrase_for_a_new_game_on_his_phone() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = crate::app::tests::new_small_deck_game(dir.path());
    let mut decius = phones(&mut h, &[Side::South]).remove(0);
    until(&mut h, |h| {
        h.query_by_label("Set South's passphrase on their phone")
            .is_some()
    });
    click(&mut h, "Set South's passphrase on their phone");
    h.get_by_label("Decius sets it on their phone…");
    h.run();
    assert_eq!(decius.look().title, "Decius, your passphrase");
    decius.tap("Suggest one");
    let words = (0..100)
        .find_map(|_| {
            h.run();
            decius.look().blocks.iter().find_map(|b| match b {
                Block::Strong { text } => text
                    .strip_prefix("Suggested (write it down): ")
                    .map(str::to_string),
                _ => None,
            })
        })
        .expect("six words suggested on their phone");
    assert!(
        h.query_by_label_contains(&words).is_none(),
        "the words stay off the laptop"
    );
    decius.tap_with(
        "Set it",
        serde_json::json!({"passphrase": [words.clone()], "again": [words.clone()]}),
    );
    until(&mut h, |h| {
        h.query_by_label("✔ Decius has set a passphrase").is_some()
    });
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    let game = deck_game(&h);
    let lock = game.setup().locks.south.clone().expect("Decius's lock");
    assert!(lock.unlock(&words).is_ok(), "their words open their lock");
}

/// A whole deck turn run from the two phones, no click on the laptop: the
/// active player ends and declares each phase from his hand, the passive
/// player answers the interrupt question and plays laurels in shooting
/// from his, fatigue is chosen on the active player's phone. The taps are
/// counted (the manual, *Faster than paper*): at most 12, as issue 23 asks.
#[test]
fn a_whole_deck_turn_from_the_phones_needs_no_click_on_the_laptop() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, mut decius, mut artagur) = deck_on_phones(dir.path());
    let taps = std::cell::Cell::new(0);
    let lines = |h: &Harness<'_, MusterApp>| -> Vec<String> { deck_game(h).log_lines().to_vec() };
    // Taps `label`, then waits for a new log line saying `then` (an old
    // one, from an earlier phase, does not count).
    let step = |h: &mut Harness<'_, MusterApp>, phone: &mut Phone, label: &str, then: &str| {
        h.run();
        let before = lines(h).len();
        phone.tap(label);
        taps.set(taps.get() + 1);
        until(h, |h| {
            lines(h)[before.min(lines(h).len())..]
                .iter()
                .any(|l| l.contains(then))
        });
    };
    step(
        &mut h,
        &mut decius,
        "End the event phase, play the rally phase",
        "rally phase is played",
    );
    step(&mut h, &mut artagur, "No interrupt", "plays no interrupt");
    step(
        &mut h,
        &mut decius,
        "End the rally phase, play the shooting phase",
        "shooting phase is played",
    );
    step(&mut h, &mut artagur, "No interrupt", "plays no interrupt");
    // Both sides play laurels in shooting: Artagur, passive, from his phone.
    let laurels = artagur
        .look()
        .blocks
        .iter()
        .flat_map(|b| match b {
            Block::Item { actions, .. } => actions.clone(),
            _ => Vec::new(),
        })
        .find(|a| a.label.contains("for laurels") && a.refused.is_none())
        .expect("the passive player may play laurels in shooting")
        .label;
    step(&mut h, &mut artagur, &laurels, "Artagur plays");
    step(
        &mut h,
        &mut decius,
        "End the shooting phase, skip the movement phase",
        "movement phase is skipped",
    );
    // Skipping the last phase begins the status phase: its redraw follows.
    step(
        &mut h,
        &mut decius,
        "Skip the combat phase",
        "The redraw is done",
    );
    // Artagur's laurel card came back by the redraw: marked new on his
    // phone alone.
    let badged = |phone: &mut Phone| {
        phone
            .look()
            .blocks
            .iter()
            .filter(|b| matches!(b, Block::Item { badge: Some(_), .. }))
            .count()
    };
    h.run();
    assert_eq!(badged(&mut artagur), 1, "their card drawn back");
    assert_eq!(badged(&mut decius), 0, "Decius drew nothing");
    let fatigue = decius
        .look()
        .blocks
        .iter()
        .flat_map(|b| match b {
            Block::Item { actions, .. } => actions.clone(),
            _ => Vec::new(),
        })
        .find(|a| a.label.ends_with("(fatigue)"))
        .expect("fatigue is chosen on the active player's phone")
        .label;
    h.run();
    decius.tap(&fatigue);
    taps.set(taps.get() + 1);
    until(&mut h, |h| {
        deck_game(h)
            .public()
            .turn
            .as_ref()
            .is_some_and(|t| t.stage == muster::deck::Stage::Ending)
    });
    step(&mut h, &mut decius, "End turn 1", "Turn 1 ends");
    let turn = deck_game(&h).public().turn.clone().unwrap();
    assert_eq!((turn.number, turn.active), (2, Side::North));
    assert_eq!(
        taps.get(),
        9,
        "a turn with two declared phases and a laurel play"
    );
    assert!(h.query_by_label_contains("show my cards").is_none());
}
