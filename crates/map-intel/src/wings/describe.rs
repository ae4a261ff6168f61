//! The dummy-wings log in words, as both players read it: counters by
//! their printed type and number, moves, the line-of-sight answers, flips
//! with what each counter was, the roll with its modifiers, placements.
//! Never a face-down counter's composition.

use super::events::{Composition, Event, Pending, Public};
use super::setup::Setup;
use crate::map::Hex;
use muster_core::side::Side;

fn counter(setup: &Setup, public: &Public, id: usize) -> String {
    public
        .counters
        .get(id)
        .map_or(format!("counter {id}"), |c| {
            format!(
                "{} {} counter {id}",
                muster_core::text::possessive(&setup.name(c.side)),
                c.kind.name()
            )
        })
}

fn composition(setup: &Setup, side: Side, c: &Composition) -> String {
    if !c.real {
        return "a dummy".into();
    }
    let names: Vec<String> = c
        .units
        .iter()
        .map(|id| {
            setup.armies[side]
                .iter()
                .find(|u| &u.id == id)
                .map_or(id.clone(), |u| u.name.clone())
        })
        .collect();
    // The formation its sealed record holds is the one it was in, not
    // the one it is placed in (issue 39: "placed … deployed: … in column
    // (IC)" read as a contradiction).
    format!(
        "a real Wing, command rating {}, recorded {}: {}",
        c.rating,
        c.formation.name(),
        names.join(", ")
    )
}

/// One event in words; `before` is the state it applies to.
pub fn event(e: &Event, setup: &Setup, before: &Public) -> String {
    let named = |id: usize| counter(setup, before, id);
    match e {
        Event::Placed {
            id,
            side,
            kind,
            detachment,
            leader,
            dis,
            sealed,
        } => format!(
            "{} {} {}counter {id} in {leader}, Dis counters in {} and {} (sealed {})",
            muster_core::text::possessive(&setup.name(*side)),
            kind.name(),
            if *detachment { "Detachment " } else { "" },
            dis[0],
            dis[1],
            sealed.code()
        ),
        Event::Moved {
            id,
            leader,
            dis,
            hexes,
            dis_hexes,
        } => {
            // A counter that did not move (a line blocked before it
            // stepped) is said to stay, not to move 0 hexes.
            let went = |h: u32, at: Hex| match h {
                0 => format!("stays in {at}"),
                h => format!("{} to {at}", muster_core::text::count(h, "hex", "hexes")),
            };
            format!(
                "{} moves: leader {}, Dis counters {} and {}",
                named(*id),
                went(*hexes, *leader),
                went(dis_hexes[0], dis[0]),
                went(dis_hexes[1], dis[1])
            )
        }
        Event::InRange {
            moving,
            candidates,
            rest,
        } => {
            let list: Vec<String> = candidates
                .iter()
                .map(|c| {
                    format!(
                        "{} ({} between counters in {} and {})",
                        named(c.wing),
                        muster_core::text::count(c.distance, "hex", "hexes"),
                        c.from,
                        c.to
                    )
                })
                .collect();
            let tied = super::spotting::tied(candidates);
            let then = if tied.is_empty() {
                "the line of sight is asked, nearest first (27.1.6, 27.5)".to_string()
            } else {
                let owner = before
                    .counters
                    .get(*moving)
                    .map_or(String::new(), |c| setup.name(c.side));
                format!(
                    "{} of them are equally near, their leaders too: {owner} says which is the closest (27.5, B10)",
                    tied.len()
                )
            };
            let on = if rest.iter().any(|p| !p.is_empty()) {
                "; if every line is blocked, it goes on along its path"
            } else {
                ""
            };
            format!(
                "{} comes within 7 hexes of {}: {then}{on}",
                named(*moving),
                list.join(", ")
            )
        }
        Event::ClosestChosen { wing } => {
            format!(
                "{} is taken as the closest (the moving player's choice, B10)",
                named(*wing)
            )
        }
        // After a line called clear, its owner shows the Wing it ran to.
        Event::Sighted {
            moving, stationary, ..
        } if matches!(before.pending, Some(Pending::Sight { clear: true, .. })) => {
            format!("{} is spotted by {}", named(*stationary), named(*moving))
        }
        Event::Sighted {
            moving,
            stationary,
            clear,
            ..
        } => format!(
            "Line of sight from {} to {}: {} (the players' answer)",
            named(*moving),
            named(*stationary),
            if *clear { "clear" } else { "blocked" }
        ),
        Event::Flipped { id, contents, face } => {
            let side = before.counters.get(*id).map_or(Side::South, |c| c.side);
            match (contents, face) {
                (Some(contents), _) => format!(
                    "{} is flipped: {} (matches its commitment)",
                    named(*id),
                    composition(setup, side, &contents.secret)
                ),
                (None, Some(face)) => format!(
                    "{} is flipped: a real Wing, command rating {} (its units show when they are placed, B5)",
                    named(*id),
                    face.rating
                ),
                (None, None) => format!("{} is flipped", named(*id)),
            }
        }
        Event::Removed { id } => format!("{} is removed with its Dis counters", named(*id)),
        Event::TurnedDown { id, sealed } => format!(
            "{} met a dummy: face down again ({}), it may keep moving",
            named(*id),
            sealed.code()
        ),
        Event::Rolled {
            moving_roll,
            stationary_roll,
            outcome,
            ..
        } => format!(
            "Deployment roll ({}): moving {}, stationary {}; {} wins by {}{}",
            moving_roll.by(),
            moving_roll.describe(),
            stationary_roll.describe(),
            match outcome.winner {
                super::roll::Role::Moving => "the moving side",
                super::roll::Role::Stationary => "the stationary side",
            },
            outcome.difference,
            if outcome.adjustment > 0 {
                format!(
                    " and may shift its leader up to {}",
                    muster_core::text::count(outcome.adjustment, "hex", "hexes")
                )
            } else {
                String::new()
            }
        ),
        Event::Adjusted { id, to } => format!("The leader of {} is shifted to {to}", named(*id)),
        Event::ToPlace { wings } => {
            let list: Vec<String> = wings
                .iter()
                .map(|(id, p)| {
                    let how = p
                        .must
                        .map_or("deployed or IC, as its owner chooses", |f| f.name());
                    format!("{} {how} ({}: {})", named(*id), p.rule(), p.why())
                })
                .collect();
            format!("To place: {}", list.join("; "))
        }
        Event::Deployed {
            id,
            formation,
            contents,
        } => {
            let side = before.counters.get(*id).map_or(Side::South, |c| c.side);
            match contents {
                Some(contents) => format!(
                    "{} is placed on the map {}: {} (matches its commitment)",
                    named(*id),
                    formation.name(),
                    composition(setup, side, &contents.secret)
                ),
                None => format!("{} is placed on the map {}", named(*id), formation.name()),
            }
        }
        Event::TurnBegan { number, active } => {
            format!("Turn {number}: {} is active", setup.name(*active))
        }
        Event::LineClear {
            moving, stationary, ..
        } => format!(
            "Line of sight from {} to {}: clear; {} shows what it is (27.1.6)",
            named(*moving),
            named(*stationary),
            before
                .counters
                .get(*stationary)
                .map_or(String::new(), |c| setup.name(c.side))
        ),
        Event::Claimed {
            id,
            modifiers,
            formation,
        } => format!(
            "{} adds {:+} to the deployment roll ({}), its last formation {}, as its owner says: checked when it is placed (27.2)",
            named(*id),
            super::roll::total(modifiers),
            modifiers
                .iter()
                .map(|m| format!("{} {:+}", m.reason, m.value))
                .collect::<Vec<_>>()
                .join(", "),
            formation.name()
        ),
        Event::LockSet { side, .. } => format!(
            "{} set a passphrase: their counters' records are sealed anew under it",
            setup.name(*side)
        ),
        Event::GameOver { by } => format!(
            "{} says the game is over: nothing more is played in it",
            setup.name(*by)
        ),
        Event::Resealed { id, sealed } => {
            format!("{} is sealed anew ({})", named(*id), sealed.code())
        }
    }
}
