//! A counter dragged on a player's map in dummy wings (RULES-map-intel
//! B4c: a move is the path it takes): the piece whose token the drag began
//! on, or the only one of his in the hex, takes the path in his form. Where
//! several of his pieces stand (a Dis counter on another Wing's leader) and
//! the drag began on none of their tokens, he is asked which piece it was;
//! the path waits in his form for his answer (`settled`).

use super::game::Game;
use super::screens::{CountersField, Form, PATH_FIELDS, tracing};
use crate::map::Hex;
use muster_core::screen::{Choice, Drag, Field, Input, first};
use muster_core::side::Side;
use std::borrow::Cow;

/// A piece's id on the board: a counter's leader is the counter's id, its
/// Dis counters count down from the largest id a phone's script holds
/// exactly (2^53 - 1), so that no two meet and the page sends back the id
/// it was given.
pub fn board_id(id: usize, piece: usize) -> usize {
    const TOP: usize = (1 << 53) - 1;
    match piece {
        0 => id,
        k => TOP - 2 * id - (k - 1),
    }
}

/// The pieces of `side`'s counters that may move standing in `hex`: each
/// counter's id and the piece (0 its leader, 1 and 2 its Dis counters).
fn pieces(game: &Game, side: Side, hex: Hex) -> Vec<(usize, usize)> {
    game.view(side)
        .into_iter()
        .filter(|s| s.side == side && s.deployed.is_none())
        .flat_map(|s| {
            let at: Vec<Hex> = std::iter::once(s.leader)
                .chain(s.dis.iter().copied())
                .collect();
            at.into_iter()
                .enumerate()
                .filter(move |(_, h)| *h == hex)
                .map(move |(piece, _)| (s.id, piece))
        })
        .collect()
}

/// The form's moving counter becomes `id`, and its `piece`'s path is
/// `path`; the next map click adds to it. Another counter than the one in
/// the form starts its paths afresh.
fn take(values: &mut Form, (id, piece): (usize, usize), path: &[Hex]) {
    if first(values, CountersField::Moving) != Some(id.to_string().as_str()) {
        for field in PATH_FIELDS {
            values.remove(&field);
        }
    }
    let hexes: Vec<String> = path.iter().map(Hex::to_string).collect();
    values.insert(CountersField::Moving, vec![id.to_string()]);
    values.insert(PATH_FIELDS[piece], vec![hexes.join(" ")]);
    values.insert(CountersField::Next, vec![piece.to_string()]);
    values.remove(&CountersField::Dragged);
    values.remove(&CountersField::Piece);
}

/// One of `side`'s counters dragged on the map: its piece takes the path
/// (`take`), or, from several of his begun on no token of theirs, the drag
/// waits for him to say which. False, and the form untouched, out of play
/// (set-up fills hexes by clicks) or when none of his counters that may
/// move stood there.
pub fn dragged(game: &Game, side: Side, values: &mut Form, drag: &Drag) -> bool {
    if !tracing(game) {
        return false;
    }
    let here = pieces(game, side, drag.from);
    let named = drag
        .counter
        .and_then(|c| here.iter().copied().find(|p| board_id(p.0, p.1) == c));
    match (named, here.as_slice()) {
        (Some(piece), _) | (None, &[piece]) => take(values, piece, &drag.path),
        (None, []) => return false,
        (None, _) => {
            let mut hexes = vec![drag.from.to_string()];
            hexes.extend(drag.path.iter().map(Hex::to_string));
            values.insert(CountersField::Dragged, hexes);
            values.remove(&CountersField::Piece);
        }
    }
    true
}

/// His form with a stack's drag settled once he said which piece it was:
/// that piece takes the path. As it is otherwise.
pub fn settled<'f>(game: &Game, side: Side, values: &'f Form) -> Cow<'f, Form> {
    let chosen = waiting(game, side, values).and_then(|(from, path, here)| {
        let piece = first(values, CountersField::Piece)?;
        let piece = here
            .into_iter()
            .find(|p| board_id(p.0, p.1).to_string() == piece)?;
        Some((from, path, piece))
    });
    match chosen {
        Some((_, path, piece)) => {
            let mut values = values.clone();
            take(&mut values, piece, &path);
            Cow::Owned(values)
        }
        None => Cow::Borrowed(values),
    }
}

/// A stack's drag waiting for his answer: where it began, its path, and
/// the pieces of his there.
#[allow(clippy::type_complexity)]
fn waiting(game: &Game, side: Side, values: &Form) -> Option<(Hex, Vec<Hex>, Vec<(usize, usize)>)> {
    let map = &game.setup().battle.map;
    let hexes: Option<Vec<Hex>> = values
        .get(&CountersField::Dragged)?
        .iter()
        .map(|h| map.hex(h).ok())
        .collect();
    let (from, path) = hexes?.split_first().map(|(f, p)| (*f, p.to_vec()))?;
    let here = pieces(game, side, from);
    (tracing(game) && here.len() > 1 && !path.is_empty()).then_some((from, path, here))
}

/// The question a stack's drag waits on, when it does: its words and the
/// choice of his pieces there.
pub fn question(game: &Game, side: Side, values: &Form) -> Option<(String, Field<CountersField>)> {
    let (from, path, here) = waiting(game, side, values)?;
    let to = path.last()?;
    let piece = |(id, k): (usize, usize)| match k {
        0 => format!("Counter {id}'s leader"),
        1 => format!("Counter {id}'s first Dis counter"),
        _ => format!("Counter {id}'s second Dis counter"),
    };
    let field = Field {
        name: CountersField::Piece,
        label: "The one I dragged:".into(),
        input: Input::Choice {
            options: here
                .iter()
                .map(|p| Choice {
                    value: board_id(p.0, p.1).to_string(),
                    label: piece(*p),
                })
                .collect(),
            many: false,
            selected: Vec::new(),
            resets: Vec::new(),
        },
    };
    Some((
        format!("Several of your counters stand in {from}: which did you drag to {to}?"),
        field,
    ))
}
