//! The players' screens server as the window lives with it on a hostile
//! Wi-Fi (issue 31), on 127.0.0.1 only: Stop, New and quitting return at
//! once with a half-sent request open; a second passphrase from a phone
//! starts no second derivation; a phone gone quiet is shown lost; a taken
//! port gives way to the next one, shown; the chosen address is kept across
//! Stop and Start and between runs; a code nobody opens for a minute says
//! why that may be.

use crate::app::MusterApp;
use crate::app::phone_kit::{phones, until};
use crate::app::tests::{app, click, config, every_text, new_small_deck_game};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use muster::core::side::Side;
use muster::seats::server::Limits;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

type H = Harness<'static, MusterApp>;

/// Ends the test process, saying what hung, unless dropped within
/// `limit`: a window that waits on a client would otherwise hang the test
/// run instead of failing it.
struct Watchdog(Arc<AtomicBool>);

impl Watchdog {
    fn new(what: &'static str, limit: Duration) -> Watchdog {
        let done = Arc::new(AtomicBool::new(false));
        let seen = done.clone();
        std::thread::spawn(move || {
            for _ in 0..limit.as_millis() / 20 {
                std::thread::sleep(Duration::from_millis(20));
                if seen.load(Ordering::SeqCst) {
                    return;
                }
            }
            eprintln!("{what}: still waiting after {limit:?}");
            std::process::exit(101);
        });
        Watchdog(done)
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// A connection to the window's server holding half a request.
fn half_sent(h: &H) -> std::net::TcpStream {
    let addr = h.state().seating.phones.addr().expect("serving");
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .write_all(b"GET /seat/00 HTTP/1.1\r\nHost: ")
        .unwrap();
    stream
}

/// Issue 31: with one half-sent request open, *Stop*, *File > New* and
/// quitting waited on it, on the window's thread, for as long as it stayed
/// open. Now each returns at once (a watchdog ends the run if one waits).
#[test]
fn stop_new_and_quitting_never_wait_on_a_half_sent_request() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = new_small_deck_game(dir.path());
    let _watchdog = Watchdog::new("Stop, New or quitting", Duration::from_secs(20));
    crate::app::pairing::start(&mut h);
    let _held = half_sent(&h);
    click(&mut h, "Stop the players' screens");
    h.get_by_label("Start the players' screens");
    click(&mut h, "Start the players' screens");
    let _held_too = half_sent(&h);
    crate::app::pairing::close(&mut h);
    click(&mut h, "File");
    click(&mut h, "New");
    click(&mut h, "Field of Glory battle");
    assert!(h.state().seating.phones.addr().is_none(), "New stops them");
    crate::app::pairing::start(&mut h);
    let _held_again = half_sent(&h);
    eframe::App::on_exit(h.state_mut(), None);
    assert!(
        h.state().seating.phones.addr().is_none(),
        "quitting stops them"
    );
}

/// Issue 31: every *Set it* from a phone started another Argon2id thread
/// (64 MiB or more each), so a phone could exhaust the laptop's memory.
/// Two answers sent before the window reads either: the second is told
/// the key is still being worked out, and one key comes of them.
#[test]
fn a_second_passphrase_from_his_phone_starts_no_second_derivation() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, mut decius) = crate::app::seat_tests::asked_to_set_it_on_his_phone(dir.path());
    decius.look();
    let words = crate::app::seat_tests::WORDS;
    let answer = serde_json::json!({"passphrase": [words], "again": [words]});
    decius.tap_with("Set it", answer.clone());
    decius.tap_with("Set it", answer);
    until(&mut h, |h| {
        h.state()
            .seating
            .heard
            .iter()
            .filter(|(side, m)| *side == Side::South && m.contains(words))
            .count()
            == 2
    });
    let texts = decius.look().texts().join("\n");
    assert!(texts.contains("Still working out your key"), "{texts}");
    until(&mut h, |h| {
        h.query_by_label("✔ Decius has set a passphrase").is_some()
    });
}

/// Issue 31: a phone that vanished without closing (out of range, its
/// battery gone) stayed "on their phone" for good. The server now pings it:
/// gone quiet, the table says so (short limits here; by default it is
/// known within 30 s).
#[test]
fn a_phone_gone_quiet_is_shown_lost() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = new_small_deck_game(dir.path());
    click(&mut h, "South chosen");
    click(&mut h, "Start the game");
    h.state_mut().seating.phones.limits = Limits {
        heartbeat: Duration::from_millis(100),
        silence: Duration::from_millis(400),
        ..Limits::default()
    };
    // Paired, then never read again: it answers no ping.
    let _vanished = phones(&mut h, &[Side::South]).remove(0);
    until(&mut h, |h| {
        h.query_by_label("Decius: their phone is not answering")
            .is_some()
    });
    assert_eq!(
        h.state().seating.life(Side::South),
        crate::app::seating::Life::Lost
    );
}

/// The port the Players' screens window says it serves on.
fn serving_port(h: &H) -> u16 {
    let texts = every_text(h);
    let line = texts
        .iter()
        .find_map(|t| t.strip_prefix("Serving on "))
        .unwrap_or_else(|| panic!("the window says where it serves: {texts:?}"));
    line.rsplit(':').next().unwrap().parse().unwrap()
}

/// Whether the window shows, anywhere, a text starting so.
fn shows(h: &H, start: &str) -> bool {
    every_text(h).iter().any(|t| t.starts_with(start))
}

/// Issue 31: port 7878 was fixed: taken, the window said "Address already
/// in use" and offered nothing else. Now the next free one is taken and
/// shown, and the codes name it.
#[test]
fn a_taken_port_gives_way_to_the_next_one_shown() {
    // A port this test holds stands for the usual one (which other tests
    // may take and give back meanwhile).
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let usual = taken.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let mut h = new_small_deck_game(dir.path());
    h.state_mut().seating.phones.first_port = Some(usual);
    crate::app::pairing::start(&mut h);
    let port = serving_port(&h);
    assert_ne!(port, usual);
    click(&mut h, "Pair South's phone (new code)");
    let url = crate::app::pairing::read_code(&h, Side::South).expect("readable");
    assert!(
        url.starts_with(&format!("http://127.0.0.1:{port}/")),
        "{url}"
    );
}

/// Issue 31: Stop forgot the address the players chose. It is kept across
/// Stop and Start, and in the settings for the next run.
#[test]
fn the_chosen_address_is_kept_across_stop_and_between_runs() {
    let dir = tempfile::tempdir().unwrap();
    let settings = dir.path().join("players.json");
    let run = || {
        let mut config = config(&dir.path().join("autosaves"));
        config.settings = Some(settings.clone());
        app(config, [1500.0, 1000.0])
    };
    let mut h = run();
    crate::app::pairing::start(&mut h);
    click(&mut h, "Stop the players' screens");
    let chosen = |h: &H| h.state().seating.phones.host;
    assert_eq!(chosen(&h), Some([127, 0, 0, 1].into()));
    assert!(shows(&h, "127.0.0.1 ("), "{:?}", every_text(&h));
    drop(h);
    let saved = std::fs::read_to_string(&settings).unwrap();
    assert!(saved.contains("127.0.0.1"), "{saved}");
    let mut h = run();
    click(&mut h, "File");
    click(&mut h, "Players' screens…");
    assert_eq!(chosen(&h), Some([127, 0, 0, 1].into()));
    assert!(shows(&h, "127.0.0.1 ("), "{:?}", every_text(&h));
}

/// Issue 31: a code shown with no phone opening its page said nothing of
/// why. After a minute the window says why that may be and what to try;
/// once a phone opens the page it says nothing of it.
#[test]
fn a_code_nobody_opens_for_a_minute_says_why_that_may_be() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = new_small_deck_game(dir.path());
    crate::app::pairing::start(&mut h);
    click(&mut h, "Pair South's phone (new code)");
    assert!(h.query_by_label_contains("guest Wi-Fi").is_none());
    h.state_mut()
        .seating
        .backdate_code(Side::South, Duration::from_secs(61));
    h.run();
    h.get_by_label_contains("guest Wi-Fi may keep devices apart");
    h.get_by_label_contains("the laptop's own hotspot");
}
