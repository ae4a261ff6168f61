//! The server's own tests: sizes and counts of what crosses.

use super::*;

/// The attack: the Wi-Fi counts and measures the frames of a private
/// printout. A one-page ledger and one many times its size cross as
/// the same number of messages of the same length; a file past the
/// limit is refused in words, never cut.
#[test]
fn a_printout_crosses_in_parts_of_one_size_whatever_it_holds() {
    let small = file_messages("Ann's ledger", &[7; 900]).unwrap();
    let large = file_messages("Ann's ledger", &vec![9; 150_000]).unwrap();
    assert_eq!(small.len(), FILE_PARTS);
    assert_eq!(large.len(), FILE_PARTS);
    // Each fits one message, which the channel pads to one frame of
    // `MAX_FRAME` bytes: sealed, every part is the same size.
    let key = [3; 32];
    let mut channel = Channel::laptop(&key, [1; 16], [2; 16], [4; 16]);
    for message in small.iter().chain(&large) {
        assert!(message.len() <= crate::seats::channel::MAX_SCREEN);
        assert_eq!(channel.seal(message.as_bytes()).unwrap().len(), MAX_FRAME);
    }
    // Put back together as the page does, it is the file.
    use base64::Engine as _;
    let pdf = b"%PDF-1.7 a ledger".repeat(3000);
    let mut whole = Vec::new();
    for message in file_messages("Ann's ledger", &pdf).unwrap() {
        let v: serde_json::Value = serde_json::from_str(&message).unwrap();
        let data = v["file"]["data"].as_str().unwrap();
        whole.extend(
            base64::engine::general_purpose::STANDARD
                .decode(data)
                .unwrap(),
        );
    }
    whole.truncate(pdf.len());
    assert_eq!(whole, pdf);
    let too_large = file_messages("Ann's ledger", &vec![0; MAX_FILE + 1]).unwrap_err();
    assert!(
        too_large.contains("more than a phone is sent"),
        "{too_large}"
    );
}

#[test]
fn addresses_are_named_by_what_they_are_the_wifi_first() {
    let v4 = |s: &str| s.parse::<IpAddr>().unwrap();
    assert_eq!(Kind::of("wlp3s0", v4("192.168.1.20")), Kind::WiFi);
    assert_eq!(Kind::of("enp0s31f6", v4("10.0.0.5")), Kind::Ethernet);
    assert_eq!(Kind::of("docker0", v4("172.17.0.1")), Kind::Virtual);
    assert_eq!(Kind::of("wg0", v4("10.8.0.2")), Kind::Vpn);
    assert_eq!(Kind::of("lo", v4("127.0.0.1")), Kind::Loopback);
    assert!(Kind::WiFi < Kind::Ethernet && Kind::Vpn < Kind::Loopback);
}
