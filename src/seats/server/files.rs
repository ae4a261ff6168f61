//! What crosses to a phone in messages of one size (docs: "What Muster
//! protects"): a screen fits one, a private printout is padded into a fixed
//! number of them, so the Wi-Fi learns nothing from lengths or counts.

use super::*;

/// Whether a message to a phone (`ToPage`, as JSON) fits the one size
/// every such message has: one that does not is never sent as it is.
pub fn fits(message: &str) -> bool {
    message.len() <= crate::seats::channel::MAX_SCREEN
}

/// A private printout crosses in this many messages, whatever it holds:
/// with every message of one size, the Wi-Fi learns nothing of the file
/// from their number or their length.
pub const FILE_PARTS: usize = 4;
/// The bytes of the file each message carries (in base64, with its
/// wrapping, it fills one message).
const FILE_PART: usize = 46 * 1024;
/// The largest printout a phone is sent.
pub const MAX_FILE: usize = FILE_PARTS * FILE_PART;

/// A private printout (a PDF) as the messages its owner's page puts back
/// together: `FILE_PARTS` of them, the file padded with zeros to fill
/// them and its true length said inside, sealed like any message.
pub fn file_messages(title: &str, pdf: &[u8]) -> Result<Vec<String>, String> {
    use base64::Engine as _;
    if pdf.len() > MAX_FILE {
        return Err(format!(
            "the printout is {} KiB, more than a phone is sent ({} KiB): print it on the laptop",
            pdf.len().div_ceil(1024),
            MAX_FILE / 1024
        ));
    }
    let mut padded = pdf.to_vec();
    padded.resize(MAX_FILE, 0);
    padded
        .chunks(FILE_PART)
        .enumerate()
        .map(|(part, bytes)| {
            let message = ToPage::File {
                file: FilePart {
                    name: "muster-private.pdf".into(),
                    title: title.into(),
                    part,
                    parts: FILE_PARTS,
                    length: pdf.len(),
                    data: base64::engine::general_purpose::STANDARD.encode(bytes),
                },
            }
            .text();
            if !fits(&message) {
                return Err("the printout's title is too long to send".into());
            }
            Ok(message)
        })
        .collect()
}
