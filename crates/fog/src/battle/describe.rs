//! The log in words: one sentence per event, as a player would say it
//! ("North rolls 4 + 1 (Field Commander C-in-C) = 5").

use super::{AdjustAction, AmbushContent, Entry, Event, Finished, State};
use crate::ruleset::{PlacementZone, Ruleset};
use muster_core::dice::Roll;
use muster_core::side::Side;

/// A piece by its pick index, with its owner: "South's forest".
fn name(state: &State, ruleset: &Ruleset, piece: usize) -> String {
    match state.selection.picks.get(piece) {
        Some(p) => format!(
            "{}'s {}",
            p.side,
            super::piece_name(state, ruleset, piece).to_lowercase()
        ),
        None => format!("piece {piece}"),
    }
}

/// A roll in a roll-off: "North rolls for initiative (round 2): 4 [typed]".
fn roll_off_line(side: Side, what: &str, round: u32, roll: &Roll) -> String {
    let round = if round > 1 {
        format!(" (round {round})")
    } else {
        String::new()
    };
    format!(
        "{side} rolls for {what}{round}: {} [{}]",
        roll.describe(),
        roll.by()
    )
}

/// Battle groups by name: "Cretan archers, Thracians".
fn bg_names(state: &State, side: Side, bgs: &[usize]) -> String {
    let army = state.armies[side].as_ref();
    bgs.iter()
        .map(|i| {
            army.and_then(|a| a.bgs.get(*i))
                .map_or(format!("battle group {}", i + 1), |b| b.name.clone())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The words of a placement result from the placer's view, with the sides
/// named: "touch North's long edge, no part within 8 MU of a side edge".
/// A camp's or a fortification's shape, for its turn in words: any
/// rectangle turns alike.
const RECTANGLE: crate::geometry::Shape = crate::geometry::Shape::Rectangle {
    width: 1.0,
    depth: 1.0,
};

/// A piece's turn as the panel and the printout say it ("30° clockwise").
fn turned(shape: &crate::geometry::Shape, angle: f64) -> String {
    use crate::geometry::survey::{turn, turn_words};
    turn_words(turn(shape, angle))
}

pub fn zone_text(ruleset: &Ruleset, result: u8, placer: Side) -> String {
    let text = match ruleset.placement.results.get(&result.to_string()) {
        Some(
            PlacementZone::TouchLongEdge { text, .. }
            | PlacementZone::TouchSideEdge { text, .. }
            | PlacementZone::InsideHalf { text, .. },
        ) => text.as_str(),
        None => "",
    };
    text.replace("the opponent's", &format!("{}'s", placer.opponent()))
        .replace("your own", &format!("{placer}'s own"))
}

/// An event in words. `state` is the battle as it was when the event
/// happened (names of pieces come from the selection).
pub fn event(event: &Event, ruleset: &Ruleset, state: &State) -> String {
    match event {
        Event::Configured { settings } => format!(
            "Battle \"{}\": table {} x {} MU (the rules' unit is {}), lengths in {}",
            settings.title,
            settings.table.width,
            settings.table.depth,
            settings.mu.name(),
            settings.units.name()
        ),
        Event::ArmySet { side, army, lock } => {
            let mods: i32 = army
                .initiative_modifiers(ruleset)
                .iter()
                .map(|m| m.value)
                .sum();
            let passphrase = if lock.is_some() {
                "; passphrase set: their tag guards the log"
            } else {
                ""
            };
            format!(
                "{side}: {} plays {} ({} battle groups, {} bases; initiative {mods:+}){passphrase}",
                army.player,
                army.name,
                army.bgs.len(),
                army.bgs.iter().map(|b| u64::from(b.bases)).sum::<u64>()
            )
        }
        Event::InitiativeRolled { side, round, roll } => {
            roll_off_line(*side, "initiative", *round, roll)
        }
        Event::InitiativeTied { total, .. } => {
            format!("Initiative tied at {total}: both players roll again (ruling, rule 2)")
        }
        Event::InitiativeWon { side, south, north } => {
            format!("{side} has the initiative (South {south}, North {north})")
        }
        Event::TerritoryChosen { side, territory } => format!(
            "{side} chooses the territory type: {}",
            ruleset.territory_name(territory)
        ),
        Event::TerrainSelected {
            side,
            terrain,
            large,
            compulsory,
        } => {
            let size = if *large { "large " } else { "" };
            let kind = if *compulsory {
                "compulsory piece"
            } else {
                "selection"
            };
            format!(
                "{side} takes {size}{} ({kind})",
                ruleset.terrain_name(terrain).to_lowercase()
            )
        }
        Event::SelectionFinished { side } => format!("{side} has finished selecting terrain"),
        Event::PlacementRolled {
            side,
            piece,
            roll,
            result,
            legal,
            ..
        } => {
            let what = name(state, ruleset, *piece);
            let text = zone_text(ruleset, *result, *side);
            if *legal {
                format!(
                    "{side} rolls {} for {what}: it must {text}",
                    roll.describe()
                )
            } else {
                format!(
                    "{side} rolls {} for {what}: no legal position where it must {text}; re-roll (ruling, rule 5)",
                    roll.describe()
                )
            }
        }
        Event::PieceSetAside { side, piece } => format!(
            "{}: no die result has a legal position, so {side}'s piece is set aside (ruling, rule 5)",
            name(state, ruleset, *piece)
        ),
        Event::PiecePlaced {
            side,
            piece,
            shape,
            pose,
        } => format!(
            "{side} places their {} ({}) centred {}, turned {}",
            super::piece_name(state, ruleset, *piece).to_lowercase(),
            shape.describe(),
            state.settings.point([pose.x, pose.y]),
            // In the words the panel and the printout use (issue 25).
            turned(shape, pose.angle)
        ),
        Event::GoingRolled {
            side, roll, class, ..
        } => {
            format!(
                "{side} rolls {} for the river's going: {class}",
                roll.describe()
            )
        }
        Event::AdjustmentRolled {
            side,
            piece,
            roll,
            allowance,
            ..
        } => format!(
            "{side} rolls {} to adjust {}: {}",
            roll.describe(),
            name(state, ruleset, *piece),
            allowance.text
        ),
        Event::PieceAdjusted {
            side,
            piece,
            action,
            pose,
        } => {
            let what = name(state, ruleset, *piece);
            match (action, pose) {
                (AdjustAction::Decline, _) => format!("{side} leaves {what} where it is"),
                (AdjustAction::Remove, _) => format!("{side} removes {what}"),
                (AdjustAction::Slide { dx, dy }, _) => {
                    format!("{side} slides {what} {:.1} MU", dx.hypot(*dy))
                }
                (AdjustAction::Pivot { degrees, .. }, _) => {
                    format!("{side} pivots {what} by {degrees:.0}°")
                }
            }
        }
        Event::RoadPlaced { side, points } => {
            let through: Vec<String> = points.iter().map(|p| state.settings.point(*p)).collect();
            format!("{side} places a road through {}", through.join("; "))
        }
        Event::RoadDeclined { side } => format!("{side} places no road"),
        Event::CampPlaced { side, pose } => format!(
            "{side} pitches their camp centred {}, turned {}",
            state.settings.point([pose.x, pose.y]),
            turned(&RECTANGLE, pose.angle)
        ),
        Event::FortificationPlaced { side, pose } => format!(
            "{side} places a field fortification centred {}, turned {}",
            state.settings.point([pose.x, pose.y]),
            turned(&RECTANGLE, pose.angle)
        ),
        // What a marker stands for is the owner's secret: the log says where.
        Event::AmbushPlaced { side, at, .. } => {
            format!(
                "{side} places an ambush marker {}",
                state.settings.point(*at)
            )
        }
        Event::StepFinished { side, step } => match step {
            Finished::Fortifications => format!("{side} has finished placing fortifications"),
            Finished::Ambushes => {
                let n = state
                    .deployment
                    .ambushes
                    .iter()
                    .filter(|a| a.side == *side)
                    .count();
                let s = if n == 1 { "" } else { "s" };
                format!("{side} has finished placing ambushes ({n} marker{s})")
            }
            Finished::Commanders => {
                format!("{side} has placed their commanders within 12 MU of their long edge")
            }
        },
        Event::BatchDeployed { side, number, bgs } => {
            let names = bg_names(state, *side, bgs);
            format!("{side} deploys batch {number}: {names}")
        }
        Event::SealedChecked { side, named } => {
            if *named {
                format!(
                    "{side}'s private check named a battle group both sealed and deployed: the players settle it as on paper"
                )
            } else {
                format!("{side}'s private check found no sealed battle group on the table")
            }
        }
        Event::DismountCommitted { side, bgs } => {
            if bgs.is_empty() {
                format!("{side} dismounts nothing")
            } else {
                format!("{side} will dismount {}", bg_names(state, *side, bgs))
            }
        }
        Event::MovesFirstRolled { side, round, roll } => {
            roll_off_line(*side, "who moves first", *round, roll)
        }
        Event::FlankMarchRecorded {
            side,
            sealed,
            modifier,
        } => format!(
            "{side} records a flank march, sealed: commitment {}, arrival modifier {}",
            sealed.code(),
            match modifier {
                Some(m) => format!("{m:+}"),
                None => "sealed with it (added on their phone)".into(),
            }
        ),
        Event::FlankMarchesFinished { side, off_table } => format!(
            "{side} has recorded their flank marches; {} off the table (in ambush or marching)",
            match off_table {
                1 => "1 battle group stays".to_string(),
                n => format!("{n} battle groups stay"),
            }
        ),
        Event::ArrivalRolled {
            side,
            march,
            turn,
            roll,
            arrives,
        } => {
            let outcome = match arrives {
                Some(true) => "it arrives",
                Some(false) => "not yet",
                None => "its owner adds their sealed modifier",
            };
            format!(
                "{side}'s turn {turn}: flank march {} rolls {}: {outcome}",
                super::march_number(state, *march),
                roll.describe()
            )
        }
        Event::ArrivalSaid {
            side,
            march,
            arrives,
        } => {
            let outcome = if *arrives { "arrives" } else { "not yet" };
            format!(
                "{side}'s flank march {}: {outcome} (their word with their sealed modifier, checked when it is revealed)",
                super::march_number(state, *march)
            )
        }
        Event::FlankMarchRevealed {
            side,
            march,
            revealed,
            straggling,
            problems,
        } => {
            let plan = &revealed.secret;
            let army = state.armies[*side].as_ref();
            let leader = army
                .and_then(|a| a.commanders.get(plan.commander))
                .map_or("a commander".to_string(), |c| c.name.clone());
            let tests: Vec<String> = straggling
                .iter()
                .map(|t| {
                    let name = bg_names(state, *side, &[t.bg]);
                    let verdict = if t.straggles { "straggles" } else { "arrives" };
                    format!("{name} {} {verdict}", t.roll.describe())
                })
                .collect();
            let mut text = format!(
                "{side}'s flank march {} is revealed (commitment checked): {} led by {leader} on the {} flank. Straggling: {}",
                super::march_number(state, *march),
                bg_names(state, *side, &plan.bgs),
                plan.flank.name(),
                tests.join("; ")
            );
            for p in problems {
                text.push_str(&format!(". ⚠ {p}"));
            }
            text
        }
        Event::AmbushRevealed {
            side,
            marker,
            revealed,
            reason,
            problems,
        } => {
            let what = match revealed.secret {
                AmbushContent::Dummy => "a dummy, removed".to_string(),
                AmbushContent::Bg { bg } => bg_names(state, *side, &[bg]),
            };
            let mut text = format!(
                "{side}'s ambush marker {} is revealed because {} (commitment checked): {what}",
                super::marker_number(state, *marker),
                reason.text()
            );
            for p in problems {
                text.push_str(&format!(". ⚠ {p}"));
            }
            text
        }
        Event::TurnEnded { side, turn } => format!("{side} ends their turn {turn}"),
        Event::Stalled { why } => format!("⚠ Muster stopped here: {why}"),
        Event::MovesFirstTied { total, .. } => {
            format!("Tied at {total} for who moves first: both roll again (ruling, rule 9)")
        }
        Event::MovesFirstWon { side, south, north } => {
            format!("{side} moves first (South {south}, North {north})")
        }
    }
}

/// An entry in words: its events joined.
pub fn entry(entry: &Entry, ruleset: &Ruleset, state: &State) -> String {
    entry
        .events
        .iter()
        .map(|e| event(e, ruleset, state))
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The log says a turn in the words of the panel and the printout:
    /// 330° is "30° clockwise", an oval's 200° is "20° anticlockwise".
    #[test]
    fn a_turn_is_logged_as_the_panel_says_it() {
        assert_eq!(turned(&RECTANGLE, 330.0), "30° clockwise");
        let oval = crate::geometry::Shape::Ellipse {
            width: 11.0,
            depth: 7.0,
        };
        assert_eq!(turned(&oval, 200.0), "20° anticlockwise");
        assert_eq!(turned(&oval, 180.0), "0° (square to the edges)");
    }

    /// Every line of a battle played to its deployment, and the counted
    /// sentences with 1 and 2: English, with no pronoun.
    #[test]
    fn every_log_sentence_reads_as_english_with_one_and_two() {
        let battle = crate::examples::deployed_battle();
        let mut lines: Vec<String> = battle.log_lines().into_iter().map(|(l, _)| l).collect();
        for n in [1, 2] {
            let e = Event::FlankMarchesFinished {
                side: Side::North,
                off_table: n,
            };
            lines.push(event(&e, battle.ruleset(), battle.state()));
            lines.push(super::super::deployment::describe_turn(
                super::super::DeploymentTurn::Batch {
                    side: Side::South,
                    number: n,
                    size: n,
                },
            ));
        }
        muster_testkit::grammar::assert_english(lines.iter().map(String::as_str));
    }
}
