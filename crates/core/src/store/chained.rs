//! The file of a game system whose log is a list of entries (the action
//! deck, hidden forces, dummy wings): format and schema, the game's id, its
//! setup, the players' tags and the log, each entry with the hash that
//! chains it. Each system implements `System` (its format name, its setup
//! and entry types, its genesis and its replay: `chained_game::Ledger`
//! replays the log through the rules); reading checks the header,
//! the id, the chain and the tags' hex, replays the log, and keeps a file
//! only if it reads back byte for byte as Muster writes it.

use super::{
    StoreError, TagsHex, check_chain, check_format, check_header, parse, read_text, written_as,
};
use crate::intel::ledger::Digest32;
use crate::intel::trail::{Tags, chain};
use crate::intel::{from_hex, to_hex};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File<S, E> {
    format: String,
    schema: u32,
    id: String,
    setup: S,
    tags: Vec<TagsHex>,
    log: Vec<Chained<E>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Chained<E> {
    hash: String,
    entry: E,
}

/// A game's parts as its file holds them.
pub struct Parts<S, E> {
    pub id: String,
    pub setup: S,
    pub log: Vec<E>,
    pub tags: Vec<Tags>,
}

/// The file's text: `links[i + 1]` chains `log[i]` (the genesis first).
pub fn write<S: Serialize, E: Serialize>(
    format: &str,
    schema: u32,
    parts: Parts<&S, &E>,
    links: &[Digest32],
) -> String {
    serde_json::to_string_pretty(&file(format, schema, parts, links))
        .expect("a game always serializes")
}

/// What the file holds, as `write` writes it.
fn file<'a, S: Serialize, E: Serialize>(
    format: &str,
    schema: u32,
    parts: Parts<&'a S, &'a E>,
    links: &[Digest32],
) -> File<&'a S, &'a E> {
    File {
        format: format.into(),
        schema,
        id: parts.id,
        setup: parts.setup,
        tags: parts.tags.iter().map(TagsHex::of).collect(),
        log: parts
            .log
            .into_iter()
            .enumerate()
            .map(|(i, entry)| Chained {
                hash: to_hex(&links[i + 1]),
                entry,
            })
            .collect(),
    }
}

/// Reads a file of `format`: header, id, tags and chain checked; `genesis`
/// gives the chain's start from the id and setup, and `header` names what
/// the first hash also covers ("the game's id or the setup").
pub fn read<S: DeserializeOwned, E: DeserializeOwned + Serialize>(
    text: &str,
    format: &str,
    schema: u32,
    genesis: impl Fn(&str, &S) -> Digest32,
) -> Result<Parts<S, E>, StoreError> {
    read_linked(text, format, schema, genesis).map(|(parts, _)| parts)
}

/// `read`, with the chain it checked: the link after each entry.
fn read_linked<S: DeserializeOwned, E: DeserializeOwned + Serialize>(
    text: &str,
    format: &str,
    schema: u32,
    genesis: impl Fn(&str, &S) -> Digest32,
) -> Result<(Parts<S, E>, Vec<Digest32>), StoreError> {
    // The whole file read once: its header is checked from it. Only a
    // file that does not read is read again for its header alone, so a
    // file of another kind or version is named as such, as before.
    let file: File<S, E> = match parse(text) {
        Ok(file) => file,
        Err(e) => {
            check_header(text, format, schema, schema)?;
            return Err(e);
        }
    };
    check_format(&file.format, file.schema, format, schema, schema)?;
    if from_hex(&file.id).is_none_or(|b| b.len() != 16) {
        return Err(StoreError::new("id: not a game id (32 hex digits)"));
    }
    let tags = file
        .tags
        .iter()
        .enumerate()
        .map(|(i, t)| t.read(&format!("tags[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let (hashes, log): (Vec<String>, Vec<E>) =
        file.log.into_iter().map(|c| (c.hash, c.entry)).unzip();
    let links = chain(genesis(&file.id, &file.setup), &log);
    check_chain(&hashes, &links, "the game's id or the setup")?;
    let parts = Parts {
        id: file.id,
        setup: file.setup,
        log,
        tags,
    };
    Ok((parts, links))
}

/// A game whose file is a chained log.
pub trait System: Sized {
    const FORMAT: &'static str;
    const SCHEMA: u32;
    type Setup: Serialize + DeserializeOwned;
    type Entry: Serialize + DeserializeOwned + PartialEq;

    fn genesis(id: &str, setup: &Self::Setup) -> Digest32;
    fn parts(&self) -> Parts<&Self::Setup, &Self::Entry>;
    fn links(&self) -> &[Digest32];
    /// The game from its file's parts: the setup checked, the log replayed
    /// through the rules. `links` is the chain the file was checked
    /// against (the link after each entry), so it is not worked out again.
    fn replay(
        parts: Parts<Self::Setup, Self::Entry>,
        links: Vec<Digest32>,
    ) -> Result<Self, StoreError>;
}

/// A chained system's `files` module's functions for its game type:
/// `to_json`, `from_json`, `save` and `load`, each the generic one of this
/// module for that type, so callers need not name it.
#[macro_export]
macro_rules! chained_files {
    ($game:ty) => {
        /// The game as its file's text.
        pub fn to_json(game: &$game) -> String {
            $crate::store::chained::to_json(game)
        }

        /// Reads a game: chain checked, log replayed through the rules.
        pub fn from_json(text: &str) -> Result<$game, $crate::store::StoreError> {
            $crate::store::chained::from_json(text)
        }

        /// Saves a game; a file that does not read back the same is not kept.
        pub fn save(path: &std::path::Path, game: &$game) -> Result<(), $crate::store::StoreError> {
            $crate::store::chained::save(path, game)
        }

        pub fn load(path: &std::path::Path) -> Result<$game, $crate::store::StoreError> {
            $crate::store::chained::load(path)
        }
    };
}

pub fn to_json<G: System>(game: &G) -> String {
    write(G::FORMAT, G::SCHEMA, game.parts(), game.links())
}

/// Reads a game: chain checked, log replayed, the text as Muster writes it.
pub fn from_json<G: System>(text: &str) -> Result<G, StoreError> {
    let (parts, links) = read_linked(text, G::FORMAT, G::SCHEMA, G::genesis)?;
    let game = G::replay(parts, links)?;
    written_as(
        &file(G::FORMAT, G::SCHEMA, game.parts(), game.links()),
        text,
    )?;
    Ok(game)
}

/// Saves a game; a file that does not read back as the same game (which
/// `from_json` checks is written exactly as Muster writes it) is not kept.
pub fn save<G: System>(path: &std::path::Path, game: &G) -> Result<(), StoreError> {
    save_job(path, game).run()
}

/// Saving a game as work for any thread (`SaveJob`).
pub fn save_job<G: System>(path: &std::path::Path, game: &G) -> super::SaveJob {
    // The job reads back the bytes it wrote and compares them with the
    // text; here that text is read as a file is (header, id, tags) and
    // its chain worked out again from the entries as read, which must be
    // the game's own chain: every entry reads back as the one played. The
    // rules are not replayed again: the game in memory was played by them
    // (a reopened file is replayed when it is opened), and replaying a long
    // game at every autosave cost more than the rest of the save.
    let links = game.links().to_vec();
    super::SaveJob::new(path, to_json(game), move |written| {
        let (parts, read) =
            read_linked::<G::Setup, G::Entry>(written, G::FORMAT, G::SCHEMA, G::genesis)?;
        // `links[0]` is the header's (id and setup), the rest the entries'.
        Ok(links.first() == Some(&G::genesis(&parts.id, &parts.setup)) && read == links[1..])
    })
}

pub fn load<G: System>(path: &std::path::Path) -> Result<G, StoreError> {
    from_json(&read_text(path)?).map_err(|e| e.at(path))
}

/// Rewrites a saved game as an opponent would: change its parts, then
/// recompute every hash exactly as the format says, so the file opens.
/// Only the tags of a player with a passphrase can still tell. Public, as
/// the format is (anyone can compute SHA-256): the tests forge files with it.
pub fn rechain<S, E>(
    text: &str,
    format: &str,
    schema: u32,
    genesis: impl Fn(&str, &S) -> Digest32,
    edit: impl FnOnce(&mut Parts<S, E>),
) -> Result<String, StoreError>
where
    S: DeserializeOwned + Serialize,
    E: DeserializeOwned + Serialize,
{
    let mut parts: Parts<S, E> = read(text, format, schema, &genesis)?;
    edit(&mut parts);
    let mut links = vec![genesis(&parts.id, &parts.setup)];
    links.extend(chain(links[0], &parts.log));
    let view = Parts {
        id: parts.id.clone(),
        setup: &parts.setup,
        log: parts.log.iter().collect(),
        tags: parts.tags.clone(),
    };
    Ok(write(format, schema, view, &links))
}
