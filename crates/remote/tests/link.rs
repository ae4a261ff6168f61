//! The remote seat's link between two real iroh endpoints on this
//! machine, through a relay the test starts on 127.0.0.1 (docs: "Playing
//! remotely"), each test in a network namespace of its own with only
//! loopback up where one can be made: tickets read back and refuse a
//! changed letter; the test endpoints name no address outside loopback;
//! messages cross exactly once and in order both ways, across a cut
//! connection; a wrong ticket is refused and says why; what was meant for
//! a program that restarted is not sent to the new one.

mod support;

use muster_core::side::Side;
use muster_remote::net::{outside_loopback, relay_is_loopback};
use muster_remote::{Event, Link, Relays, Ticket};
use support::{local_relay, next_message, no_wake, wait_for};

fn connected(e: &Event) -> bool {
    matches!(e, Event::Connected { .. })
}

#[test]
fn a_ticket_reads_back_from_its_text_and_link_and_a_changed_one_is_refused() {
    if support::ran_in_loopback_namespace(
        "a_ticket_reads_back_from_its_text_and_link_and_a_changed_one_is_refused",
    ) {
        return;
    }
    let relay = local_relay();
    let (host, ticket) = Link::host(relay.net.clone(), "game-1".into(), Side::South, no_wake())
        .expect("the host's end");
    let text = ticket.text();
    assert!(text.starts_with("muster1"));
    assert!(
        text.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    );
    assert_eq!(Ticket::parse(&text), Ok(ticket.clone()));
    assert_eq!(Ticket::parse(&ticket.link()), Ok(ticket.clone()));
    // As a chat program breaks it over lines.
    let broken: String = text
        .chars()
        .enumerate()
        .flat_map(|(i, c)| (i % 60 == 59).then_some('\n').into_iter().chain([c]))
        .collect();
    assert_eq!(Ticket::parse(&format!("  {broken} ")), Ok(ticket.clone()));
    // A letter changed, wherever it is: refused, never another ticket
    // (inside the key's or the game's text it would still read as JSON).
    for at in "muster1".len()..text.len() {
        let mut changed: Vec<char> = text.chars().collect();
        changed[at] = if changed[at] == 'a' { 'b' } else { 'a' };
        let changed: String = changed.into_iter().collect();
        let read = Ticket::parse(&changed);
        assert!(read.is_err(), "a letter changed at {at} reads as {read:?}");
    }
    let mut changed: Vec<char> = text.chars().collect();
    let at = changed.len() / 2;
    changed[at] = if changed[at] == 'a' { 'b' } else { 'a' };
    let e = Ticket::parse(&changed.into_iter().collect::<String>()).unwrap_err();
    assert!(e.contains("damaged"), "{e}");
    // Not a ticket, or far too long: said plainly, nothing decoded.
    let e = Ticket::parse("hello").unwrap_err();
    assert!(e.contains("begins with \"muster1\""), "{e}");
    let e = Ticket::parse(&format!("muster1{}", "a".repeat(100_000))).unwrap_err();
    assert!(e.contains("characters long"), "{e}");
    // The token is never printed.
    assert!(!format!("{ticket:?}").contains(&format!("{:?}", ticket.token.0)));
    drop(host);
}

#[test]
fn the_test_endpoints_name_no_address_outside_loopback() {
    if support::ran_in_loopback_namespace("the_test_endpoints_name_no_address_outside_loopback") {
        return;
    }
    let relay = local_relay();
    let Relays::Map(map) = &relay.net.relays else {
        panic!("the tests' relay is a map of one")
    };
    assert!(map.urls::<Vec<_>>().iter().all(relay_is_loopback));
    let (host, ticket) = Link::host(relay.net.clone(), "game-2".into(), Side::North, no_wake())
        .expect("the host's end");
    let joiner = Link::join(relay.net.clone(), ticket.clone(), no_wake()).expect("the joiner's");
    assert!(wait_for(&joiner, &mut Vec::new(), connected));
    for link in [&host, &joiner] {
        assert_eq!(outside_loopback(link.endpoint()), Vec::<String>::new());
    }
    for addr in &ticket.host.addrs {
        match addr {
            iroh::TransportAddr::Ip(a) => assert!(a.ip().is_loopback(), "{a}"),
            iroh::TransportAddr::Relay(url) => assert!(relay_is_loopback(url), "{url}"),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn messages_cross_exactly_once_in_order_both_ways_across_a_cut_connection() {
    if support::ran_in_loopback_namespace(
        "messages_cross_exactly_once_in_order_both_ways_across_a_cut_connection",
    ) {
        return;
    }
    let relay = local_relay();
    let (host, ticket) = Link::host(relay.net.clone(), "game-3".into(), Side::South, no_wake())
        .expect("the host's end");
    let joiner = Link::join(relay.net.clone(), ticket, no_wake()).expect("the joiner's");
    let (mut at_host, mut at_joiner) = (Vec::new(), Vec::new());
    for n in 0..3 {
        host.send(format!("h{n}"));
        joiner.send(format!("j{n}"));
    }
    for n in 0..3 {
        assert_eq!(next_message(&joiner, &mut at_joiner), Some(format!("h{n}")));
        assert_eq!(next_message(&host, &mut at_host), Some(format!("j{n}")));
    }
    // The joiner's connection is cut; both go on sending meanwhile.
    joiner.cut();
    assert!(wait_for(&joiner, &mut at_joiner, |e| matches!(
        e,
        Event::Dropped(_)
    )));
    for n in 3..6 {
        host.send(format!("h{n}"));
        joiner.send(format!("j{n}"));
    }
    for n in 3..6 {
        assert_eq!(next_message(&joiner, &mut at_joiner), Some(format!("h{n}")));
        assert_eq!(next_message(&host, &mut at_host), Some(format!("j{n}")));
    }
    // Both were told of the drop and of the connection back, and nothing
    // arrived twice: no message is left.
    assert!(at_joiner.iter().filter(|e| connected(e)).count() >= 2);
    assert!(at_host.iter().any(|e| matches!(e, Event::Dropped(_))));
    assert!(at_host.iter().chain(&at_joiner).all(|e| !matches!(
        e,
        Event::Connected {
            restarted: true,
            ..
        }
    )));
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        joiner.next().filter(|e| matches!(e, Event::Message(_))),
        None
    );
    assert_eq!(host.next().filter(|e| matches!(e, Event::Message(_))), None);
}

/// The joiner's program stops; the host's goes on sending meanwhile (a
/// move its player made). A new program joins with the same ticket: the
/// host's end is told it restarted, and what it gave before that was for
/// the program that is gone: the new one's first message is the one the
/// host gives once told (the game's file, in a game), never the old.
#[test]
fn what_was_given_for_a_program_that_restarted_is_not_sent_to_the_new_one() {
    if support::ran_in_loopback_namespace(
        "what_was_given_for_a_program_that_restarted_is_not_sent_to_the_new_one",
    ) {
        return;
    }
    let relay = local_relay();
    let (host, ticket) = Link::host(relay.net.clone(), "game-6".into(), Side::South, no_wake())
        .expect("the host's end");
    let joiner = Link::join(relay.net.clone(), ticket.clone(), no_wake()).expect("the joiner's");
    let (mut at_host, mut at_joiner) = (Vec::new(), Vec::new());
    host.send("first".into());
    assert_eq!(next_message(&joiner, &mut at_joiner), Some("first".into()));
    drop(joiner);
    assert!(wait_for(&host, &mut at_host, |e| matches!(
        e,
        Event::Dropped(_)
    )));
    host.send("for the program that is gone".into());
    let joiner = Link::join(relay.net.clone(), ticket, no_wake()).expect("the joiner's again");
    assert!(wait_for(&host, &mut at_host, |e| matches!(
        e,
        Event::Connected {
            restarted: true,
            ..
        }
    )));
    host.send("the game's file".into());
    let mut seen = Vec::new();
    assert_eq!(
        next_message(&joiner, &mut seen),
        Some("the game's file".into())
    );
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        joiner.next().filter(|e| matches!(e, Event::Message(_))),
        None
    );
    assert!(host.settled(), "nothing is left waiting to go");
}

#[test]
fn a_ticket_for_another_game_or_with_another_token_is_refused_and_says_why() {
    if support::ran_in_loopback_namespace(
        "a_ticket_for_another_game_or_with_another_token_is_refused_and_says_why",
    ) {
        return;
    }
    let relay = local_relay();
    let (host, ticket) = Link::host(relay.net.clone(), "game-4".into(), Side::South, no_wake())
        .expect("the host's end");
    let mut wrong_token = ticket.clone();
    wrong_token.token.0[0] ^= 1;
    let joiner = Link::join(relay.net.clone(), wrong_token, no_wake()).expect("the joiner's");
    let mut seen = Vec::new();
    assert!(wait_for(&joiner, &mut seen, |e| matches!(
        e,
        Event::Refused(_)
    )));
    let Some(Event::Refused(why)) = seen.last() else {
        unreachable!()
    };
    assert!(why.contains("not one this game gave"), "{why}");
    assert!(!seen.iter().any(connected));
    let mut other_game = ticket;
    other_game.game = "game-5".into();
    let joiner = Link::join(relay.net.clone(), other_game, no_wake()).expect("the joiner's");
    let mut seen = Vec::new();
    assert!(wait_for(&joiner, &mut seen, |e| matches!(
        e,
        Event::Refused(_)
    )));
    assert!(
        matches!(seen.last(), Some(Event::Refused(why)) if why.contains("game-5")),
        "{seen:?}"
    );
    // The host saw both refused, and nothing reached its game.
    let mut at_host = Vec::new();
    assert!(wait_for(&host, &mut at_host, |e| matches!(
        e,
        Event::Refused(_)
    )));
    assert!(!at_host.iter().any(|e| matches!(e, Event::Message(_))));
}

/// Two machines on the same network play without any relay (`--relay
/// none`): the ticket names the host's own addresses and no relay, and
/// the joiner dials them directly; here both are bound to 127.0.0.1.
#[test]
fn machines_on_the_same_network_play_without_a_relay() {
    if support::ran_in_loopback_namespace("machines_on_the_same_network_play_without_a_relay") {
        return;
    }
    let net = muster_remote::Net {
        relays: Relays::own("none").expect("none is no relay"),
        ..muster_remote::Net::nowhere()
    };
    let (host, ticket) =
        Link::host(net.clone(), "game-5".into(), Side::South, no_wake()).expect("the host's end");
    assert!(ticket.host.relay_urls().next().is_none(), "{ticket:?}");
    assert!(ticket.host.ip_addrs().all(|a| a.ip().is_loopback()));
    assert!(outside_loopback(host.endpoint()).is_empty());
    let joiner = Link::join(net, ticket, no_wake()).expect("the joiner's end");
    let (mut at_host, mut at_joiner) = (Vec::new(), Vec::new());
    host.send("over the same network".into());
    joiner.send("back".into());
    assert_eq!(
        next_message(&joiner, &mut at_joiner).as_deref(),
        Some("over the same network")
    );
    assert_eq!(next_message(&host, &mut at_host).as_deref(), Some("back"));
}

/// Without a relay, a ticket names only the host's own addresses: a host
/// whose Muster restarted listens again where its ticket says (the seat
/// keeps its port), so the same ticket's text reaches it, and a joiner
/// dialing it with the old text gets in.
#[test]
fn a_restarted_host_without_a_relay_is_reached_by_the_same_ticket() {
    if support::ran_in_loopback_namespace(
        "a_restarted_host_without_a_relay_is_reached_by_the_same_ticket",
    ) {
        return;
    }
    let net = muster_remote::Net {
        relays: Relays::own("none").expect("none is no relay"),
        ..muster_remote::Net::nowhere()
    };
    let hosting = muster_remote::Hosting::fresh("game-7".into(), Side::North).unwrap();
    assert!(hosting.port.is_some());
    let (host, ticket) = Link::host_as(net.clone(), &hosting, no_wake()).expect("the host's end");
    let port = hosting.port.unwrap();
    assert!(
        ticket.host.ip_addrs().all(|a| a.port() == port),
        "{ticket:?}"
    );
    // The program ends: its port is free once its endpoint has closed.
    drop(host);
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::net::UdpSocket::bind(("127.0.0.1", port)).is_err()
        && std::time::Instant::now() < until
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let (host, again) = Link::host_as(net.clone(), &hosting, no_wake()).expect("hosted again");
    assert_eq!(again.text(), ticket.text());
    let joiner = Link::join(net, ticket, no_wake()).expect("the joiner's end");
    host.send("the same ticket".into());
    let mut seen = Vec::new();
    assert_eq!(
        next_message(&joiner, &mut seen).as_deref(),
        Some("the same ticket")
    );
}

/// A second Muster joins with the same ticket while the first holds the
/// seat: it is told why it waits and dials again by itself, the first
/// plays on; once the first has gone, the second gets in.
#[test]
fn a_second_joiner_hears_the_seat_is_held_and_gets_in_once_it_is_free() {
    if support::ran_in_loopback_namespace(
        "a_second_joiner_hears_the_seat_is_held_and_gets_in_once_it_is_free",
    ) {
        return;
    }
    let relay = local_relay();
    let (host, ticket) = Link::host(relay.net.clone(), "game-8".into(), Side::South, no_wake())
        .expect("the host's end");
    let first = Link::join(relay.net.clone(), ticket.clone(), no_wake()).expect("the first");
    let (mut at_host, mut at_first, mut at_second) = (Vec::new(), Vec::new(), Vec::new());
    host.send("to the first".into());
    assert_eq!(
        next_message(&first, &mut at_first).as_deref(),
        Some("to the first")
    );
    let second = Link::join(relay.net.clone(), ticket, no_wake()).expect("the second");
    assert!(wait_for(&second, &mut at_second, |e| matches!(
        e,
        Event::Dropped(why) if why.contains("another machine holds this seat now")
    )));
    first.send("still here".into());
    assert_eq!(
        next_message(&host, &mut at_host).as_deref(),
        Some("still here")
    );
    drop(first);
    assert!(wait_for(&second, &mut at_second, connected));
    assert!(!at_second.iter().any(|e| matches!(e, Event::Refused(_))));
}
