//! What a player sends from his counters screen, read (RULES-map-intel B3,
//! B4, B9, `docs/src/rules/map-intel.md`): a click on the map filling the
//! next hex or tracing a path, the hexes the form names so far, and his
//! answer turned into a command for the rules, a bad field refused in his
//! words.

use super::{
    CountersAct, CountersField, Form, PATH_FIELDS, Reply, formation, hex_fields, hexes, kind,
    rating_of, ticked, tracing,
};
use crate::map::Hex;
use crate::wings::formation::Formation;
use crate::wings::game::{Command, Composition, Game};
use muster_core::error::RuleError;
use muster_core::screen::first;
use muster_core::side::Side;

/// Every hex the form names so far: the places of a new counter in
/// set-up, each counter's path as it grows in play. The map shows them
/// before anything is sent.
pub fn named_hexes(game: &Game, values: &Form) -> Vec<Hex> {
    hex_fields(game)
        .iter()
        .filter_map(|f| first(values, *f))
        .flat_map(|text| text.split([' ', ',']))
        .filter_map(|w| game.setup().battle.map.hex(w).ok())
        .collect()
}

/// A click on the map: in set-up it fills the next hex field and moves on;
/// in play it adds the hex to the path being traced.
pub fn clicked(game: &Game, values: &mut Form, hex: Hex) {
    // A click traces by hand: a stack's drag waiting to be named is let go.
    values.remove(&CountersField::Dragged);
    values.remove(&CountersField::Piece);
    let next: usize = first(values, CountersField::Next)
        .and_then(|n| n.parse().ok())
        .filter(|n| *n < 3)
        .unwrap_or(0);
    let field = values.entry(hex_fields(game)[next]).or_default();
    if tracing(game) {
        match field.first_mut() {
            Some(path) if !path.trim().is_empty() => {
                path.push(' ');
                path.push_str(&hex.to_string());
            }
            _ => *field = vec![hex.to_string()],
        }
    } else {
        *field = vec![hex.to_string()];
        values.insert(CountersField::Next, vec![((next + 1) % 3).to_string()]);
    }
}

/// The command `side` sent from his counters' screen.
pub fn answer(game: &Game, side: Side, reply: &Reply) -> Result<Command, RuleError> {
    let wrong = |what: String| RuleError::new("27.1", format!("The counters' form: {what}"));
    let values = &crate::wings::drag::settled(game, side, &reply.values);
    let map = &game.setup().battle.map;
    let field =
        |name: CountersField| hexes(map, first(values, name).unwrap_or_default()).map_err(&wrong);
    let one = |name: CountersField| -> Result<Hex, RuleError> {
        match field(name)?.as_slice() {
            [hex] => Ok(*hex),
            _ => Err(wrong(format!("give one hex for the {}", name.piece()))),
        }
    };
    let moving = || {
        first(values, CountersField::Moving)
            .and_then(|id| id.parse::<usize>().ok())
            .ok_or_else(|| wrong("choose the counter".into()))
    };
    match reply.command {
        CountersAct::Place => {
            let formation = formation(values);
            let composition = if ticked(values, CountersField::Real, true) {
                let units = values
                    .get(&CountersField::Units)
                    .cloned()
                    .unwrap_or_default();
                Composition {
                    real: true,
                    rating: rating_of(first(values, CountersField::Rating).unwrap_or("3"))?,
                    formation,
                    detached: values
                        .get(&CountersField::Detached)
                        .into_iter()
                        .flatten()
                        .filter(|d| units.contains(d))
                        .cloned()
                        .collect(),
                    units,
                }
            } else {
                Composition::dummy(formation)
            };
            Ok(Command::PlaceWing {
                side,
                kind: kind(values),
                detachment: ticked(values, CountersField::Detachment, false),
                leader: one(CountersField::Leader)?,
                dis: [one(CountersField::Dis1)?, one(CountersField::Dis2)?],
                composition,
            })
        }
        CountersAct::Move => Ok(Command::Move {
            id: moving()?,
            leader: field(PATH_FIELDS[0])?,
            dis: [field(PATH_FIELDS[1])?, field(PATH_FIELDS[2])?],
        }),
        CountersAct::Deploy => Ok(Command::Deploy {
            id: moving()?,
            formation: Formation::Deployed,
        }),
    }
}
