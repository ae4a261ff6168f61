//! Sealing, opening and checking records, and the attacks on them: a wrong
//! key, a forged reveal, a changed ciphertext, a size that tells, a short
//! code that could be matched.

use super::encoding::to_base64;
use super::seal::record_key;
use super::*;
use crate::side::Side;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Nonce};

/// A sealing key for tests that need a second, different one.
pub(crate) const FIXED_KEY: [u8; 32] = [7; 32];

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct March {
    bgs: Vec<usize>,
    flank: String,
}

fn march() -> March {
    march_of(vec![3, 4], "left")
}

fn march_of(bgs: Vec<usize>, flank: &str) -> March {
    March {
        bgs,
        flank: flank.into(),
    }
}

fn key() -> SealKey {
    SealKey(FIXED_KEY)
}

const PADDED: usize = 512;

/// Flank march 1 of `owner` in game "g1".
fn at(owner: Side) -> Place<'static> {
    place("g1", owner, "flank-march", "march 1")
}

fn place(game: &'static str, owner: Side, kind: &'static str, slot: &str) -> Place<'static> {
    Place {
        game,
        owner,
        kind,
        slot: slot.into(),
    }
}

/// Issue 21: a record swapped between markers, moved to another player or
/// spliced in from another game opened, so a forged file printed a
/// victim's private page. Bound to its place, it opens only there, even
/// under the key everyone has (no passphrase).
#[test]
fn a_record_opens_only_in_the_place_it_was_sealed_for() {
    for k in [key(), SealKey::unprotected()] {
        let sealed = Sealed::seal(&at(Side::South), &march(), &k, PADDED).unwrap();
        assert!(sealed.bound);
        assert!(sealed.open::<March>(&k, &at(Side::South)).is_ok());
        for elsewhere in [
            place("g1", Side::South, "flank-march", "march 2"),
            place("g2", Side::South, "flank-march", "march 1"),
            place("g1", Side::South, "ambush", "march 1"),
            place("g1", Side::North, "flank-march", "march 1"),
        ] {
            assert!(
                sealed.open::<March>(&k, &elsewhere).is_err(),
                "{elsewhere:?}"
            );
        }
        // The owner's name changed in the file: still South's place only.
        let mut moved = sealed.clone();
        moved.owner = Side::North;
        assert!(moved.open::<March>(&k, &at(Side::North)).is_err());
        // Stripping the flag does not make it open anywhere.
        let mut stripped = sealed.clone();
        stripped.bound = false;
        assert!(stripped.open::<March>(&k, &at(Side::South)).is_err());
        let json = serde_json::to_string(&sealed).unwrap();
        assert!(json.contains("\"bound\":true"), "{json}");
    }
}

/// A record from before the binding (no `bound` in the file, its
/// ciphertext hex) opens as it always did: old files read as before.
#[test]
fn a_record_sealed_before_the_binding_still_opens() {
    let sealed = Sealed::seal(&at(Side::South), &march(), &key(), PADDED).unwrap();
    let salt = from_hex(&sealed.salt).unwrap();
    let nonce: [u8; 12] = from_hex(&sealed.nonce).unwrap().try_into().unwrap();
    // Re-encrypt its plaintext without associated data, as Muster did.
    let cipher = ChaCha20Poly1305::new(&record_key(&key(), &salt));
    let aad = at(Side::South).associated_data();
    let plain = cipher
        .decrypt(
            &Nonce::from(nonce),
            Payload {
                msg: &sealed.ciphertext_bytes().unwrap(),
                aad: &aad,
            },
        )
        .unwrap();
    let old = Sealed {
        ciphertext: to_hex(
            &cipher
                .encrypt(&Nonce::from(nonce), plain.as_slice())
                .unwrap(),
        ),
        bound: false,
        base64: false,
        ..sealed
    };
    let json = serde_json::to_string(&old).unwrap();
    assert!(
        !json.contains("bound") && !json.contains("base64"),
        "{json}"
    );
    let read: Sealed = serde_json::from_str(&json).unwrap();
    let opened: Revealed<March> = read.open(&key(), &at(Side::South)).unwrap();
    assert_eq!(opened.secret, march());
}

#[test]
fn the_owner_opens_his_record_and_another_key_is_refused() {
    let sealed = Sealed::seal(&at(Side::South), &march(), &key(), PADDED).unwrap();
    let opened: Revealed<March> = sealed.open(&key(), &at(Side::South)).unwrap();
    assert_eq!(opened.secret, march());
    let e = sealed
        .open::<March>(&SealKey::unprotected(), &at(Side::South))
        .unwrap_err();
    assert_eq!(e, SealError::WrongKey { owner: Side::South });
    assert!(e.to_string().contains("does not open with South's key"));
}

#[test]
fn the_record_holds_no_plain_text_and_each_seal_differs() {
    let a = Sealed::seal(&at(Side::North), &march(), &key(), PADDED).unwrap();
    let b = Sealed::seal(&at(Side::North), &march(), &key(), PADDED).unwrap();
    let json = serde_json::to_string(&a).unwrap();
    assert!(!json.contains("left") && !json.contains("flank"));
    assert_ne!(a.ciphertext, b.ciphertext);
    assert_ne!(a.commitment, b.commitment, "the blinding value salts it");
}

#[test]
fn every_record_of_a_kind_has_the_same_size() {
    let contents = [
        march_of(vec![], "left"),
        march_of(vec![0], "right"),
        march_of((0..64).collect(), "left"),
        march_of(vec![11], "a much longer flank name than any real one"),
    ];
    let sizes: Vec<usize> = contents
        .iter()
        .map(|c| {
            Sealed::seal(&at(Side::South), c, &key(), PADDED)
                .unwrap()
                .ciphertext
                .len()
        })
        .collect();
    assert!(sizes.iter().all(|s| *s == sizes[0]), "{sizes:?}");
    // 512 bytes of plaintext and a 16-byte tag, as base64.
    assert_eq!(sizes[0], (PADDED + 16).div_ceil(3) * 4);
    // And so is the whole record as the file writes it.
    let written: Vec<usize> = contents
        .iter()
        .map(|c| {
            let sealed = Sealed::seal(&at(Side::South), c, &key(), PADDED).unwrap();
            serde_json::to_string_pretty(&sealed).unwrap().len()
        })
        .collect();
    assert!(written.iter().all(|s| *s == written[0]), "{written:?}");
    let e = Sealed::seal(
        &at(Side::South),
        &march_of((0..200).collect(), "left"),
        &key(),
        256,
    )
    .unwrap_err();
    assert!(matches!(e, SealError::TooLarge { .. }), "{e}");
}

#[test]
fn the_code_shows_80_bits_and_a_forged_reveal_with_the_same_prefix_fails() {
    let sealed = Sealed::seal(&at(Side::South), &march(), &key(), PADDED).unwrap();
    let code = sealed.code();
    assert_eq!(code.len(), 24, "{code}");
    assert_eq!(code.split('-').count(), 5);
    assert!(code.replace('-', "").chars().all(|c| c.is_ascii_hexdigit()));
    // A forger who matched the printed 80 bits with another secret still
    // fails the reveal: the full commitment is checked.
    let mut forged = sealed.clone();
    let mut full = from_hex(&sealed.commitment).unwrap();
    full[31] ^= 1;
    forged.commitment = to_hex(&full);
    assert_eq!(forged.code(), code, "same printed code");
    let opened: Revealed<March> = sealed.open(&key(), &at(Side::South)).unwrap();
    assert!(matches!(
        forged.check(&opened).unwrap_err(),
        SealError::Commitment { .. }
    ));
}

#[test]
fn a_reveal_that_does_not_match_the_commitment_is_refused() {
    let sealed = Sealed::seal(&at(Side::South), &march(), &key(), PADDED).unwrap();
    let mut revealed: Revealed<March> = sealed.open(&key(), &at(Side::South)).unwrap();
    assert!(sealed.check(&revealed).is_ok());
    revealed.secret.flank = "right".into();
    let e = sealed.check(&revealed).unwrap_err();
    assert!(
        matches!(
            e,
            SealError::Commitment {
                owner: Side::South,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn a_changed_ciphertext_is_not_opened() {
    let mut sealed = Sealed::seal(&at(Side::South), &march(), &key(), PADDED).unwrap();
    let mut bytes = sealed.ciphertext_bytes().unwrap();
    bytes[0] ^= 1;
    sealed.ciphertext = to_base64(&bytes);
    assert_eq!(
        sealed.open::<March>(&key(), &at(Side::South)).unwrap_err(),
        SealError::WrongKey { owner: Side::South }
    );
    sealed.nonce = "zz".into();
    assert!(matches!(
        sealed.open::<March>(&key(), &at(Side::South)).unwrap_err(),
        SealError::Damaged { .. }
    ));
}

/// The `base64` flag says how the ciphertext is written: removed from a
/// record sealed now, or added to one from before, the record does not
/// open (the text read the other way is damaged or a different
/// ciphertext), and the player is told which.
#[test]
fn a_ciphertext_read_in_the_wrong_encoding_does_not_open() {
    let sealed = Sealed::seal(&at(Side::South), &march(), &key(), PADDED).unwrap();
    assert!(sealed.base64);
    let as_hex = Sealed {
        base64: false,
        ..sealed.clone()
    };
    let e = as_hex.open::<March>(&key(), &at(Side::South)).unwrap_err();
    assert!(e.to_string().contains("ciphertext is not hex"), "{e}");
    let old = Sealed {
        ciphertext: to_hex(&sealed.ciphertext_bytes().unwrap()),
        base64: false,
        ..sealed.clone()
    };
    assert_eq!(
        old.open::<March>(&key(), &at(Side::South)).unwrap().secret,
        march(),
        "the same bytes as hex open as a record from before"
    );
    let misread = Sealed {
        base64: true,
        ..old
    };
    // Hex is base64's alphabet too: read as base64 it is other bytes.
    assert_eq!(
        misread.open::<March>(&key(), &at(Side::South)).unwrap_err(),
        SealError::WrongKey { owner: Side::South }
    );
}
