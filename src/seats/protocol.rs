//! Every message between the laptop and a player's page, both ways, as
//! types (issue 37): serde enums tagged by `"type"`, with no field they do
//! not name. The server reads each message the page sends into `FromPage`
//! before the window hears of it: anything else is refused, counted and
//! closes that socket, so no part of the app reads a message by hand or
//! dispatches on a string. The page (`assets/phone/app.js`) builds the same
//! shapes; the browser tests read every message it sent back into these
//! types.
//!
//! `VERSION` is said in the hello and in the page's first frame: a page
//! from another build of Muster (a tab left open across an upgrade) is told
//! to reload rather than misread.

use muster_core::hexmap::{Hex, MAX_SIDE};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The protocol's version: the hello says it, the page's first frame
/// repeats it.
pub const VERSION: u32 = 2;

/// The one message in the clear, before the channel: the laptop's random
/// half of the connection (hex) and the protocol it speaks.
// (No `deny_unknown_fields`: serde counts a struct's own tag as unknown.)
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "hello")]
pub struct Hello {
    pub version: u32,
    pub laptop: String,
}

/// A part of a message written in the types of the screen it belongs to
/// (a screen, its answer, its form), as JSON: the server carries it, his
/// seat reads it into the game's own types (`muster_core::screen::read`),
/// refusing one that is not, naming the field at fault.
#[derive(Clone, Debug, PartialEq)]
pub struct Raw(String);

impl Raw {
    /// Its JSON.
    pub fn get(&self) -> &str {
        &self.0
    }

    /// `value` as it crosses.
    pub fn of(value: &impl Serialize) -> Raw {
        Raw(serde_json::to_string(value).expect("a screen's parts always serialize"))
    }
}

// Through JSON's own tree: serde reads an internally tagged enum's fields
// from a buffer, which a raw value cannot come from. A page's messages are
// small; a screen is written by `ToPage::screen` without it.
impl Serialize for Raw {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde_json::from_str::<serde_json::Value>(&self.0)
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Raw, D::Error> {
        Ok(Raw(serde_json::Value::deserialize(d)?.to_string()))
    }
}

/// What the laptop sends a page, sealed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ToPage {
    /// His screen as it is now, in its system's types.
    Screen { screen: Raw },
    /// One part of his private printout (`server::file_messages`).
    File { file: FilePart },
    /// The laptop is there: sent every heartbeat, so a page that stops
    /// hearing it knows the table went quiet.
    Beat,
}

/// One of the parts a private printout crosses in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FilePart {
    pub name: String,
    pub title: String,
    pub part: usize,
    pub parts: usize,
    /// The file's true length (the parts are padded with zeros).
    pub length: usize,
    /// This part's bytes, base64.
    pub data: String,
}

/// What a page sends the laptop, sealed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum FromPage {
    /// The first frame of every connection: the protocol the page speaks
    /// and its device's name for the seat (hex, kept in its storage).
    Join { version: u32, device: String },
    /// A hex tapped on his map.
    Tap { hex: Hex },
    /// A counter dragged on his map: the hexes it passed, its own first,
    /// and the counter whose token the finger began on, if any (on a stack
    /// without one, he is asked which).
    Drag {
        #[serde(deserialize_with = "a_drag")]
        hexes: Vec<Hex>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        counter: Option<usize>,
    },
    /// What he entered so far, for the live checks (never a secret), in
    /// his screen's types.
    Values { values: Raw },
    /// His answer to his screen, in its types.
    Reply { reply: Raw },
    /// "Send me my private printout".
    Printout,
}

/// How every refusal of a message that is not a `FromPage` begins: the
/// browser tests fail on it, so each message the real page sends is checked
/// against these types.
pub const NOT_THE_PAGES: &str = "a message that is not the page's";

/// The most hexes a drag may pass: across the largest map and back.
pub const MAX_DRAG: usize = 2 * MAX_SIDE as usize;

/// A drag of at most `MAX_DRAG` hexes: a longer one is refused whole, not
/// cut.
fn a_drag<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Hex>, D::Error> {
    let hexes = Vec::<Hex>::deserialize(d)?;
    if hexes.len() > MAX_DRAG {
        return Err(serde::de::Error::custom(format!(
            "a drag of {} hexes, more than {MAX_DRAG}",
            hexes.len()
        )));
    }
    Ok(hexes)
}

impl ToPage {
    /// The message as it crosses (JSON).
    pub fn text(&self) -> String {
        serde_json::to_string(self).expect("a message to a page always serializes")
    }

    /// `screen` as the message that shows it, as `ToPage::Screen` is
    /// written, with the screen's JSON written once.
    pub fn screen(screen: &impl Serialize) -> String {
        format!(r#"{{"type":"screen","screen":{}}}"#, Raw::of(screen).get())
    }
}

impl FromPage {
    /// Reads what a page sent; why not, naming the field.
    pub fn read(bytes: &[u8]) -> Result<FromPage, String> {
        let mut de = serde_json::Deserializer::from_slice(bytes);
        serde_path_to_error::deserialize(&mut de)
            .map_err(|e| format!("{NOT_THE_PAGES} ({}): {}", e.path(), e.inner()))
    }

    pub fn text(&self) -> String {
        serde_json::to_string(self).expect("a page's message always serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_message_reads_back_as_it_was_sent() {
        let hex = Hex::parse("0505").unwrap();
        for message in [
            FromPage::Join {
                version: VERSION,
                device: "09".repeat(16),
            },
            FromPage::Tap { hex },
            FromPage::Drag {
                hexes: vec![hex, Hex::parse("0506").unwrap()],
                counter: None,
            },
            FromPage::Drag {
                hexes: vec![hex, Hex::parse("0506").unwrap()],
                counter: Some(12),
            },
            FromPage::Values {
                values: Raw::of(&serde_json::json!({"name": ["Ann"]})),
            },
            FromPage::Reply {
                reply: Raw::of(&serde_json::json!({"command": "submit"})),
            },
            FromPage::Printout,
        ] {
            assert_eq!(FromPage::read(message.text().as_bytes()), Ok(message));
        }
        assert_eq!(
            serde_json::to_value(ToPage::Beat).unwrap(),
            serde_json::json!({"type": "beat"})
        );
        let screen = serde_json::json!({"title": "x", "blocks": []});
        assert_eq!(
            serde_json::from_str::<ToPage>(&ToPage::screen(&screen)).unwrap(),
            ToPage::Screen {
                screen: Raw::of(&screen)
            }
        );
        let hello = Hello {
            version: VERSION,
            laptop: "ab".repeat(16),
        };
        let text = serde_json::to_string(&hello).unwrap();
        assert!(text.contains(r#""type":"hello""#), "{text}");
        assert_eq!(serde_json::from_str::<Hello>(&text).unwrap(), hello);
    }

    /// What the old page sent, a magic command, a field nobody names, a
    /// drag across the map ten times: refused, saying where.
    #[test]
    fn anything_else_is_refused_naming_the_field() {
        let refused = |json: &str| FromPage::read(json.as_bytes()).unwrap_err();
        assert!(refused(r#"{"click":"0505"}"#).contains("type"));
        assert!(refused(r#"{"reply":{"command":{"seat":"printout"}}}"#).contains("type"));
        assert!(refused(r#"{"type":"tap","hex":"0505","side":"north"}"#).contains("side"));
        assert!(refused(r#"{"type":"tap","hex":"zz"}"#).contains("hex"));
        let long = serde_json::json!({"type": "drag", "hexes": vec!["0505"; MAX_DRAG + 1]});
        assert!(refused(&long.to_string()).contains("more than"));
    }
}
