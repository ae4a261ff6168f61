//! A player's passphrase screen as data (RULES 8.3's secrets rest on it):
//! setting a new passphrase (typed twice, *Suggest one* offered first) or
//! typing his own to unlock a reopened game, with the refusal of his last
//! try. The laptop draws it behind his hand-over screen and a paired phone
//! draws the same description; what he types never comes back in the
//! screen, only in his reply, which `read` turns into what he asked for.

use crate::screen::{self, Action, Block, Input};
use serde::{Deserialize, Serialize};

/// What the passphrase is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    Set,
    Unlock,
    /// Opening his own sealed records for a private step.
    Open,
}

/// The buttons of the passphrase and PIN screens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Button {
    Suggest,
    Submit,
    Cancel,
    /// The PIN screen's: open with the hand-over PIN typed.
    OpenWithPin,
    /// The PIN screen's: drop the PIN, ask the passphrase.
    UsePassphrase,
}

/// The fields of the passphrase and PIN screens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    Passphrase,
    /// The same passphrase again, when setting one.
    Again,
    /// A hand-over PIN, typed or chosen.
    Pin,
}

/// A passphrase or PIN screen.
pub type Screen = screen::Screen<Button, Field>;
/// An answer to one.
pub type Reply = screen::Reply<Button, Field>;

/// What the player asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Six random words, please.
    Suggest,
    /// This passphrase (typed the same twice when setting one).
    Passphrase(String),
    Cancel,
}

/// `name`'s passphrase screen: `suggested` the words offered him (shown,
/// and put in both fields), `refusal` why his last try was refused.
pub fn screen(
    name: &str,
    purpose: Purpose,
    suggested: Option<&str>,
    refusal: Option<&str>,
) -> Screen {
    let setting = purpose == Purpose::Set;
    let mut blocks = vec![Block::Text {
        text: match purpose {
            Purpose::Set => "It seals your secrets and tags every log entry, so nobody can read them or change the record without it. It is never saved: remember it or write it down.",
            Purpose::Unlock => "Muster checks that every entry of the log carries your tag, so nobody changed it without you.",
            Purpose::Open => "Type your passphrase to open and seal your secrets. It is never saved.",
        }
        .into(),
    }];
    if setting {
        blocks.push(Block::Actions {
            actions: vec![
                Action::new("Suggest one", Button::Suggest)
                    .hint("Six random words: strong, and easier to remember than symbols"),
            ],
        });
    }
    if let Some(words) = suggested {
        blocks.push(Block::Strong {
            text: format!("Suggested (write it down): {words}"),
        });
    }
    let fill = suggested.unwrap_or_default().to_string();
    let mut fields = vec![screen::Field {
        name: Field::Passphrase,
        label: format!("{} passphrase", crate::text::possessive(name)),
        input: Input::Secret {
            hint: "Passphrase".into(),
            fill: fill.clone(),
        },
    }];
    if setting {
        fields.push(screen::Field {
            name: Field::Again,
            label: format!("{} passphrase again", crate::text::possessive(name)),
            input: Input::Secret {
                hint: "The same again".into(),
                fill,
            },
        });
    }
    let mut actions = vec![Action::new(
        match purpose {
            Purpose::Set => "Set it",
            Purpose::Unlock => "Unlock",
            Purpose::Open => "Open my secrets",
        },
        Button::Submit,
    )];
    // Always a way back: a player who cannot give it now goes back to
    // the table (his step waits for him).
    actions.push(Action::new("Cancel", Button::Cancel));
    blocks.push(Block::Form { fields, actions });
    if let Some(why) = refusal {
        blocks.push(Block::Refusal {
            text: format!("✖ {why}"),
        });
    }
    Screen {
        title: format!("{name}, your passphrase"),
        blocks,
    }
}

/// What a reply to the screen asks for; refused in words when it is not a
/// button of the screen or the two passphrases differ.
pub fn read(purpose: Purpose, reply: &Reply) -> Result<Answer, String> {
    let field = |name: Field| screen::first(&reply.values, name).unwrap_or_default();
    match reply.command {
        Button::Suggest if purpose == Purpose::Set => Ok(Answer::Suggest),
        Button::Suggest => Err("Unlocking takes the passphrase you set".into()),
        Button::Cancel => Ok(Answer::Cancel),
        Button::Submit => {
            let typed = field(Field::Passphrase);
            // Nothing typed is no try: no key is worked out for it.
            if typed.trim().is_empty() {
                return Err("Type your passphrase first".into());
            }
            if purpose == Purpose::Set && typed != field(Field::Again) {
                return Err("The two passphrases differ: type the same twice".into());
            }
            Ok(Answer::Passphrase(typed.to_string()))
        }
        Button::OpenWithPin | Button::UsePassphrase => {
            Err("That is a button of the PIN screen, not of this one".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screen::form;

    fn reply(button: Button, typed: &str, again: &str) -> Reply {
        Reply {
            command: button,
            values: form(&[(Field::Passphrase, &[typed]), (Field::Again, &[again])]),
        }
    }

    #[test]
    fn the_screen_never_holds_what_was_typed_and_the_reply_says_what_he_asked() {
        let screen = screen("Ann", Purpose::Set, None, Some("too short"));
        let json = serde_json::to_string(&screen).unwrap();
        assert!(json.contains("Suggest one") && json.contains("✖ too short"));
        let words = "lantern quarry thistle ember falcon heron";
        let offered =
            serde_json::to_string(&super::screen("Ann", Purpose::Set, Some(words), None)).unwrap();
        assert!(offered.contains(words), "the suggestion is offered to them");
        let pass = "copper heron lantern thistle";
        assert_eq!(
            read(Purpose::Set, &reply(Button::Submit, pass, pass)),
            Ok(Answer::Passphrase(pass.into()))
        );
        let e = read(Purpose::Set, &reply(Button::Submit, pass, "copper")).unwrap_err();
        assert!(e.contains("differ"), "{e}");
        assert_eq!(
            read(Purpose::Unlock, &reply(Button::Submit, pass, "")),
            Ok(Answer::Passphrase(pass.into()))
        );
        assert!(read(Purpose::Unlock, &reply(Button::Suggest, "", "")).is_err());
        for nothing in ["", "  \t"] {
            let e = read(Purpose::Unlock, &reply(Button::Submit, nothing, "")).unwrap_err();
            assert_eq!(e, "Type your passphrase first");
        }
        let forged = r#"{"command":{"passphrase":"steal"}}"#;
        assert!(screen::read::<Reply>(forged).is_err());
        assert!(read(Purpose::Set, &reply(Button::OpenWithPin, pass, pass)).is_err());
        let unlock =
            serde_json::to_string(&super::screen("Bob", Purpose::Unlock, None, None)).unwrap();
        assert!(!unlock.contains("Suggest") && unlock.contains("Unlock"));
    }
}
