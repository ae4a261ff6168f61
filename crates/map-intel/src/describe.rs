//! The hidden-forces log in words, as both players read it: positions,
//! reveals with their reason and the units they showed, never a face-down
//! counter's contents.

use super::events::{Contents, Event, Gone, Kind, Owed, Public, label};
use super::setup::Setup;
use super::view::SeenHolder;
use muster_core::text::possessive;

/// Unit ids in words, by the scenario's names.
pub fn units(setup: &Setup, ids: &[String]) -> String {
    if ids.is_empty() {
        return "no units".into();
    }
    ids.iter()
        .map(|id| {
            setup
                .scenario
                .owner_of(id)
                .and_then(|s| setup.scenario.sides[s].unit(id))
                .map_or(id.clone(), |u| u.name.clone())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A counter's text on the map: "#12 ?" (face down, or not the viewer's
/// to know), "E2 (3)" (three units).
pub fn marker(h: &SeenHolder) -> String {
    let name = match h.kind {
        Kind::Exercitus(n) => format!("E{n}"),
        _ => format!("#{}", h.id),
    };
    match &h.units {
        Some(units) => format!("{name} ({})", units.len()),
        None => format!("{name} ?"),
    }
}

/// Where a holder is, and how it lies.
pub fn place(h: &SeenHolder) -> String {
    let face = if h.face_up { "face up" } else { "face down" };
    match (h.kind, h.hex) {
        (_, Some(hex)) => format!("in {hex}, {face}"),
        (Kind::Exercitus(_), None) => format!("off the map, holding area {face}"),
        _ => face.to_string(),
    }
}

/// One event in words; `before` is the public state it applies to.
pub fn event(event: &Event, setup: &Setup, before: &Public) -> String {
    let names = setup.names();
    let named = |id: usize| {
        before
            .holders
            .get(id)
            .map_or(format!("counter {id}"), |h| h.label(&names))
    };
    match event {
        Event::Created {
            id,
            side,
            kind,
            hex,
            contents,
        } => {
            let what = label(&names[*side], *kind, *id);
            let place = hex.map_or(String::new(), |h| format!(" in {h}"));
            match contents {
                Contents::Open(u) => format!("{what}{place}, face up: {}", units(setup, u)),
                Contents::Sealed(s) => format!("{what}{place}, face down (sealed {})", s.code()),
            }
        }
        Event::Changed { id, contents } => match contents {
            Contents::Open(u) => format!("{} now holds {}", named(*id), units(setup, u)),
            Contents::Sealed(s) => format!("{} is sealed anew ({})", named(*id), s.code()),
        },
        Event::Moved { id, from, to } => format!("{} moves from {from} to {to}", named(*id)),
        Event::Placed { id, hex, contents } => format!(
            "{} goes on the map in {hex}, its holding area sealed ({})",
            named(*id),
            contents.code()
        ),
        Event::Removed { id, why } => format!(
            "{} {}",
            named(*id),
            match why {
                Gone::Emptied => "leaves the map: its last units joined another",
                Gone::Replaced => "is replaced by the Exercitus",
                Gone::EmptyExercitus => "held no units: it is removed from the map (A4)",
            }
        ),
        Event::Revealed {
            id,
            reason,
            contents,
        } => format!(
            "{} is revealed, {}: {} (matches its commitment){}",
            named(*id),
            reason.words(),
            units(setup, &contents.secret),
            false_claim(event, before, &names)
        ),
        Event::TurnedDown { id, contents } => {
            format!("{} is turned face down ({})", named(*id), contents.code())
        }
        Event::AgentSpent { by } => format!(
            "{} spends an Agent Stratagem marker ({} left)",
            names[*by],
            before.agents[*by].saturating_sub(1)
        ),
        Event::Combat { hex } => {
            format!("Combat in {hex}: every counter there face down is revealed (A2d)")
        }
        Event::Examined { by, id } => format!(
            "{} examines {} (A2a): what it holds is shown to them alone",
            names[*by],
            named(*id)
        ),
        Event::MayReplace { side, number } => format!(
            "{} may place Exercitus {number} at once on a friendly force",
            names[*side]
        ),
        Event::ReplaceDeclined { side, number } => {
            format!("{} leaves Exercitus {number} off the map", names[*side])
        }
        Event::TurnBegan { number, active } => {
            format!("Turn {number}: {} is active", names[*active])
        }
        Event::Owed {
            owed:
                Owed::Answer {
                    side,
                    hex,
                    mover,
                    mover_holds,
                },
        } => format!(
            "{} enters {} counters in {hex}; it holds {}, as its owner says, so theirs face down {} (A2b)",
            named(*mover),
            possessive(&names[*side]),
            if *mover_holds { "units" } else { "no units" },
            if *mover_holds {
                "are revealed"
            } else {
                "stay as they are"
            }
        ),
        Event::Owed {
            owed: Owed::Reveal { side, ids, reason },
        } => format!(
            "{} reveals {}, as {}",
            names[*side],
            ids.iter()
                .map(|id| named(*id))
                .collect::<Vec<_>>()
                .join(", "),
            reason.words()
        ),
        Event::Answered { side, hex, holds } => match holds {
            Some(true) => format!(
                "{} says their counters in {hex} hold units: the enemy that entered is revealed (A2c)",
                names[*side]
            ),
            Some(false) => format!(
                "{} says their counters in {hex} hold no units: the enemy that entered stays face down (A2c)",
                names[*side]
            ),
            None => format!("{} has answered the entry into {hex}", names[*side]),
        },
        Event::LockSet { side, .. } => format!(
            "{} sets a passphrase on their own machine: their records are sealed anew under it, and they tag every entry",
            names[*side]
        ),
        Event::GameOver { by } => format!(
            "{} says the game is over: nothing more is played, and each player's sealed records may be opened for the other to check",
            names[*by]
        ),
    }
}

/// Words for a reveal that shows a claim false: what was said, and by whom.
fn false_claim(event: &Event, before: &Public, names: &muster_core::side::Sides<String>) -> String {
    let mut after = before.clone();
    if after.fold(event).is_err() || after.false_claims.len() == before.false_claims.len() {
        return String::new();
    }
    after.false_claims[before.false_claims.len()..]
        .iter()
        .map(|c| {
            format!(
                ". FALSE CLAIM: {} had said their counters in {} held {}units",
                names[c.side],
                c.hex,
                if c.holds { "" } else { "no " }
            )
        })
        .collect()
}
