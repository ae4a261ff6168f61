//! Screens are built on change, not per frame (docs: the design's "seat"):
//! a tap on a phone builds the tapping player's screen once and sends it
//! once, and leaves the other player's screen alone; the laptop's private
//! screen, open for frames on end, is built once until something changes.
//! Counted by the desks themselves (`Desk::builds`).

use crate::app::MusterApp;
use crate::app::map_intel::ForcesWindow;
use crate::app::map_intel::tests::two_forces_each;
use crate::app::phone_kit::{Phone, phones, until};
use crate::app::tests::{click, take_laptop};
use egui_kittest::Harness;
use muster::core::hexmap::Hex;
use muster::core::side::Side;
use muster::map_intel::screens::LedgerField;
use muster::seats::protocol::FromPage;

type H = Harness<'static, MusterApp>;

fn builds(h: &H, side: Side) -> u64 {
    h.state().system::<ForcesWindow>().unwrap().builds(side)
}

fn tapped(h: &Harness<'_, MusterApp>) -> Option<String> {
    let window = h.state().system::<ForcesWindow>()?;
    window
        .form(Side::South)
        .get(&LedgerField::Hex)?
        .first()
        .cloned()
}

#[test]
fn a_tap_on_a_phone_builds_its_players_screen_once_and_no_other() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = two_forces_each(dir.path());
    let [mut ann, mut bob]: [Phone; 2] = phones(&mut h, &Side::BOTH).try_into().ok().unwrap();
    ann.look();
    bob.look();
    // Frames with nothing new build nothing.
    let before = (builds(&h, Side::South), builds(&h, Side::North));
    for _ in 0..5 {
        h.run();
    }
    assert_eq!(
        (builds(&h, Side::South), builds(&h, Side::North)),
        before,
        "a frame with nothing new built a screen"
    );
    let (ann_seen, bob_seen) = (ann.seen.len(), bob.seen.len());
    ann.send(FromPage::Tap {
        hex: Hex::parse("0606").unwrap(),
    });
    until(&mut h, |h| tapped(h).as_deref() == Some("0606"));
    for _ in 0..5 {
        h.run();
    }
    assert_eq!(
        (builds(&h, Side::South), builds(&h, Side::North)),
        (before.0 + 1, before.1),
        "Ann's screen built once, Bob's not at all"
    );
    ann.look();
    bob.look();
    assert_eq!(ann.seen.len(), ann_seen + 1, "Ann was sent her screen once");
    assert_eq!(bob.seen.len(), bob_seen, "Bob was sent nothing");
}

#[test]
fn the_laptops_private_screen_is_built_once_while_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = two_forces_each(dir.path());
    click(&mut h, "Show Ann's (Rome) ledger");
    take_laptop(&mut h, "Ann (Rome)", "my ledger");
    h.run();
    let open = builds(&h, Side::South);
    for _ in 0..10 {
        h.run();
    }
    assert_eq!(builds(&h, Side::South), open, "rebuilt with nothing new");
    // A click on her map changes her form: built once more.
    h.state().bus.seat(
        Side::South,
        crate::app::bus::SeatMsg::Tap(Hex::parse("0606").unwrap()),
    );
    for _ in 0..5 {
        h.run();
    }
    assert_eq!(tapped(&h).as_deref(), Some("0606"));
    assert_eq!(builds(&h, Side::South), open + 1);
}
