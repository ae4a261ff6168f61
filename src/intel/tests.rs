//! Sealing, opening and checking records.

use super::*;
use crate::side::Side;

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct March {
    bgs: Vec<usize>,
    flank: String,
}

fn march() -> March {
    March {
        bgs: vec![3, 4],
        flank: "left".into(),
    }
}

#[test]
fn the_owner_opens_his_record_and_a_wrong_passphrase_is_refused() {
    let sealed = Sealed::seal(Side::South, &march(), "hannibal").unwrap();
    let opened: Revealed<March> = sealed.open("hannibal").unwrap();
    assert_eq!(opened.secret, march());
    let e = sealed.open::<March>("scipio").unwrap_err();
    assert_eq!(e, SealError::WrongPassphrase { owner: Side::South });
    assert!(
        e.to_string()
            .contains("does not open South's sealed record")
    );
}

#[test]
fn the_record_holds_no_plain_text_and_each_seal_differs() {
    let a = Sealed::seal(Side::North, &march(), "").unwrap();
    let b = Sealed::seal(Side::North, &march(), "").unwrap();
    let json = serde_json::to_string(&a).unwrap();
    assert!(!json.contains("left") && !json.contains("flank"));
    assert_ne!(a.ciphertext, b.ciphertext);
    assert_ne!(a.commitment, b.commitment, "the blinding value salts it");
    assert_eq!(a.code().len(), 9);
}

#[test]
fn a_reveal_that_does_not_match_the_commitment_is_refused() {
    let sealed = Sealed::seal(Side::South, &march(), "x").unwrap();
    let mut revealed: Revealed<March> = sealed.open("x").unwrap();
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
    let mut sealed = Sealed::seal(Side::South, &march(), "x").unwrap();
    let mut bytes = from_hex(&sealed.ciphertext).unwrap();
    bytes[0] ^= 1;
    sealed.ciphertext = to_hex(&bytes);
    assert!(sealed.open::<March>("x").is_err());
    sealed.nonce = "zz".into();
    assert!(matches!(
        sealed.open::<March>("x").unwrap_err(),
        SealError::Damaged { .. }
    ));
}
