//! What both players settle together at the table (RULES-map-intel B5-B8,
//! B10): the line-of-sight question for each counter in range, nearest
//! first; the deployment roll with each side's exact chance shown before
//! it; the winner's adjustment; each spotted Wing placed in the formation
//! its rule allows, with its units and the placement limits of 27.3.
//!
//! In a remote game each question is the machine's whose key it needs
//! (the moving side's line, roll and adjustment; each Wing's owner's
//! placing): on the other, it waits greyed, saying for whom.

use super::WingsAction;
use crate::app::hex_grid::side_colour;
use crate::app::seating::life::Life;
use eframe::egui;
use muster::core::dice::DiceInput;
use muster::core::side::Side;
use muster::map_intel::wings::formation::{Formation, limits};
use muster::map_intel::wings::game::{Command, Game, Pending, Seen};

/// What is typed at the table.
#[derive(Default)]
pub struct Inputs {
    /// The moving and the stationary side's dice, typed from the table.
    dice: [String; 2],
    pub adjust_to: String,
    /// The counter last picked on the map, to open the list at it once.
    listed: Option<usize>,
}

fn counter(game: &Game, id: usize) -> String {
    game.public()
        .counter(id)
        .map_or(format!("counter {id}"), |c| {
            format!(
                "{} {} counter {id}",
                muster_core::text::possessive(&game.setup().name(c.side)),
                c.kind.name()
            )
        })
}

fn percent(p: muster::core::dice::Probability) -> String {
    format!("{}/{} ({:.0}%)", p.num, p.den, p.value() * 100.0)
}

pub fn ui(
    ui: &mut egui::Ui,
    game: &Game,
    seen: &[Seen],
    cx: &crate::app::seating::Cx,
    selected: &mut Option<usize>,
    inputs: &mut Inputs,
    out: &mut Vec<WingsAction>,
) {
    let name = |side: Side| game.setup().name(side);
    let apply = |out: &mut Vec<WingsAction>, c| out.push(WingsAction::Apply(c));
    let public = game.public();
    // Whose step waits on his own Muster, said once, and greyed here.
    let away = |ui: &mut egui::Ui, side: Option<Side>| {
        let away = side.filter(|s| cx.lives[*s] == Life::Remote);
        if let Some(side) = away {
            crate::app::remote::waiting_for(ui, &name(side));
        }
        away.is_some()
    };
    let mover = |id: &usize| public.counter(*id).ok().map(|c| c.side);
    if public.over {
        crate::app::remote::game_over(
            ui,
            cx,
            "every Wing sealed anew held what it was placed with, every flip showed what its Wing is, and no counter moved further than its Wing allows",
        );
        return;
    }
    match public.active {
        None => {
            ui.heading(format!("{}: set-up", game.setup().battle.name));
            ui.label("Each player, on their own screen, places their real and dummy leader counters with their Dis counters.");
        }
        Some(active) => {
            ui.heading(format!("Turn {}: {} is active", public.turn, name(active)));
        }
    }
    ui.horizontal_wrapped(|ui| {
        for side in Side::BOTH {
            crate::app::seated::seat_line(ui, cx, side, &name(side), "counters");
        }
    });
    if public.active.is_none() {
        // Play begins once each side has set up (a remote player too).
        let empty =
            (Side::BOTH.into_iter()).find(|s| !public.counters.iter().any(|c| c.side == *s));
        if let Some(side) = empty {
            ui.weak(format!(
                "Play begins once {} has placed their counters.",
                name(side)
            ));
        }
        ui.horizontal_wrapped(|ui| {
            for first in Side::BOTH {
                let text = format!("Begin: {} first", name(first));
                let begin = ui.add_enabled(empty.is_none(), egui::Button::new(text));
                if crate::app::guard::clicked(&begin) {
                    apply(out, Command::Begin { first });
                }
            }
        });
    }
    ui.separator();
    match &public.pending {
        Some(Pending::Closest {
            moving,
            candidates,
            tied,
            ..
        }) => {
            let owner = name(public.counters[*moving].side);
            ui.strong("Which Wing is the closest? (27.5, B10)");
            ui.label(format!(
                "{} is equally near these Wings, their leaders too: {owner} says which is the closest; its line of sight is asked first.",
                counter(game, *moving)
            ));
            let theirs = away(ui, mover(moving));
            for c in candidates.iter().filter(|c| tied.contains(&c.wing)) {
                let text = format!(
                    "The closest: {} ({}, leaders {} apart)",
                    counter(game, c.wing),
                    muster_core::text::count(c.distance, "hex", "hexes"),
                    muster_core::text::count(c.leaders.unwrap_or(0), "hex", "hexes")
                );
                if crate::app::guard::clicked(&ui.add_enabled(!theirs, egui::Button::new(text))) {
                    apply(out, Command::Closest { wing: c.wing });
                }
            }
        }
        Some(Pending::Sight {
            candidates,
            asked,
            clear: true,
            ..
        }) => {
            // Shown at once at one table; from two machines, on his.
            let c = &candidates[*asked];
            ui.strong("Line of sight (27.1.6): clear");
            ui.label(format!("{} is shown next.", counter(game, c.wing)));
            away(ui, mover(&c.wing));
        }
        Some(Pending::Sight {
            moving,
            candidates,
            asked,
            ..
        }) => {
            let c = &candidates[*asked];
            ui.strong("Line of sight (27.1.6)");
            ui.label(format!(
                "{} and {}: their nearest counters, in {} and {}, are {} apart (a leader or a Dis counter). Is the line of sight between them clear? Look at the printed map.",
                counter(game, *moving),
                counter(game, c.wing),
                c.from,
                c.to,
                muster_core::text::count(c.distance, "hex", "hexes")
            ));
            let theirs = away(ui, mover(moving));
            ui.add_enabled_ui(!theirs, |ui| {
                ui.horizontal(|ui| {
                    if crate::app::guard::button(ui, "Line of sight clear") {
                        apply(out, Command::Sight { clear: true });
                    }
                    if crate::app::guard::button(ui, "Line of sight blocked") {
                        apply(out, Command::Sight { clear: false });
                    }
                });
            });
        }
        Some(Pending::Roll { moving, .. }) => {
            ui.strong("Deployment roll (27.2.1)");
            if let Some((m, s)) = game.roll_modifiers() {
                let adds = |mods: &[muster::core::dice::Modifier]| {
                    mods.iter()
                        .map(|m| format!("{:+} ({})", m.value, m.reason))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                ui.label(format!(
                    "Moving side: a die {}; stationary side: a die {}",
                    adds(&m),
                    adds(&s)
                ));
            }
            if let Some(odds) = game.odds() {
                ui.label(format!(
                    "Chance to win: moving side {}, stationary side {} (ties go to the stationary side)",
                    percent(odds.moving),
                    percent(odds.stationary)
                ));
            } else if let Some(side) = mover(moving) {
                ui.label(format!(
                    "What {} Wing adds to its die is on their own Muster until the roll.",
                    muster_core::text::possessive(&name(side))
                ));
            }
            let remote = Side::BOTH.iter().any(|s| cx.lives[*s] == Life::Remote);
            if away(ui, mover(moving)) {
                return;
            }
            // From two machines every die is made by both.
            if remote {
                if crate::app::guard::button(ui, "Roll (both machines make the dice)") {
                    apply(
                        out,
                        Command::Roll {
                            moving: DiceInput::app(),
                            stationary: DiceInput::app(),
                        },
                    );
                }
                return;
            }
            if crate::app::guard::button(ui, "Roll with the app's dice") {
                apply(
                    out,
                    Command::Roll {
                        moving: DiceInput::app(),
                        stationary: DiceInput::app(),
                    },
                );
            }
            ui.horizontal(|ui| {
                for (k, label) in ["Moving side's die", "Stationary side's die"]
                    .iter()
                    .enumerate()
                {
                    let l = ui.label(*label);
                    ui.add(egui::TextEdit::singleline(&mut inputs.dice[k]).desired_width(30.0))
                        .labelled_by(l.id);
                }
                if crate::app::guard::button(ui, "Use these dice") {
                    let die = |t: &str| t.trim().parse::<u8>().map(|d| DiceInput::Typed(vec![d]));
                    match (die(&inputs.dice[0]), die(&inputs.dice[1])) {
                        (Ok(moving), Ok(stationary)) => {
                            apply(out, Command::Roll { moving, stationary });
                            inputs.dice = Default::default();
                        }
                        _ => out.push(WingsAction::Refused(
                            "Type each die as a number from 1 to 6".into(),
                        )),
                    }
                }
            });
        }
        Some(Pending::Adjust {
            moving, allowed, ..
        }) => {
            roll_line(ui, game);
            ui.strong("Adjustment (27.2.2)");
            ui.label(format!(
                "The moving side won: {} may shift its leader up to {allowed} hex{}.",
                counter(game, *moving),
                if *allowed == 1 { "" } else { "es" }
            ));
            if away(ui, mover(moving)) {
                return;
            }
            ui.horizontal(|ui| {
                let l = ui.label("Shift the leader to hex");
                ui.add(egui::TextEdit::singleline(&mut inputs.adjust_to).desired_width(60.0))
                    .labelled_by(l.id);
                if crate::app::guard::button(ui, "Shift") {
                    match game.setup().battle.map.hex(&inputs.adjust_to) {
                        Ok(to) => apply(out, Command::Adjust { to: Some(to) }),
                        Err(e) => out.push(WingsAction::Refused(e.to_string())),
                    }
                }
                if crate::app::guard::button(ui, "Leave it where it is") {
                    apply(out, Command::Adjust { to: None });
                }
            });
        }
        Some(Pending::Place { wings }) => {
            roll_line(ui, game);
            ui.strong("Placing the spotted Wings (27.2.3-27.3)");
            for (id, rule) in wings {
                egui::Frame::group(ui.style()).show(ui, |ui| {
                    ui.label(format!(
                        "{}: {} ({})",
                        counter(game, *id),
                        rule.why(),
                        rule.rule()
                    ));
                    let composition = seen
                        .iter()
                        .find(|s| s.id == *id)
                        .and_then(|s| s.composition.as_ref());
                    if let Some(c) = composition {
                        let side = game.public().counters[*id].side;
                        let names: Vec<&str> = c
                            .units
                            .iter()
                            .filter_map(|u| game.setup().armies[side].iter().find(|w| &w.id == u))
                            .map(|u| u.name.as_str())
                            .collect();
                        ui.label(format!("Units: {}", names.join(", ")));
                    }
                    let theirs = away(ui, mover(id));
                    ui.horizontal_wrapped(|ui| {
                        for formation in [Formation::Deployed, Formation::InColumn] {
                            if rule.must.is_some_and(|m| m != formation) {
                                continue;
                            }
                            let text = format!("Place counter {id} {}", formation.name());
                            if crate::app::guard::clicked(
                                &ui.add_enabled(!theirs, egui::Button::new(text)),
                            ) {
                                apply(out, Command::Deploy { id: *id, formation });
                            }
                        }
                    });
                    ui.collapsing(format!("Placement limits for counter {id}"), |ui| {
                        for formation in [Formation::Deployed, Formation::InColumn] {
                            if rule.must.is_some_and(|m| m != formation) {
                                continue;
                            }
                            ui.strong(formation.name());
                            for line in limits(formation, composition.map(|c| c.formation)) {
                                ui.label(line);
                            }
                        }
                    });
                });
            }
        }
        None => {
            if let Some(active) = public.active {
                let theirs = away(ui, Some(active));
                let text = format!("End {} turn", muster_core::text::possessive(&name(active)));
                if crate::app::guard::clicked(&ui.add_enabled(!theirs, egui::Button::new(text))) {
                    apply(out, Command::EndTurn);
                }
                if !theirs && crate::app::remote::end_game(ui, "dummy-wings-end-game") {
                    apply(out, Command::EndGame);
                }
            }
        }
    }
    ui.separator();
    // A counter picked on the map opens the list, where it is marked.
    let picked = selected.is_some() && *selected != inputs.listed;
    inputs.listed = *selected;
    egui::CollapsingHeader::new("Counters")
        .open(picked.then_some(true))
        .show(ui, |ui| {
            for side in Side::BOTH {
                ui.colored_label(side_colour(side), name(side));
                for s in seen.iter().filter(|s| s.side == side) {
                    let state = match (s.deployed, s.face_up) {
                        (Some(f), _) => format!("placed {}", f.name()),
                        (None, true) => "face up".into(),
                        (None, false) => format!("face down (sealed {})", s.code),
                    };
                    let text = format!(
                        "{} counter {} in {}, {state}",
                        s.kind.name(),
                        s.id,
                        s.leader
                    );
                    let label = ui.selectable_label(*selected == Some(s.id), text);
                    if picked && *selected == Some(s.id) {
                        label.scroll_to_me(None);
                    }
                    if label.clicked() {
                        *selected = Some(s.id);
                    }
                }
            }
        });
    ui.collapsing("Placement notes (27.6)", |ui| {
        for side in Side::BOTH {
            ui.label(format!(
                "{}: {}",
                name(side),
                game.setup().battle.sides[side].notes
            ));
        }
    });
}

/// The last deployment roll as the log says it, dice and all, above what
/// it decides (issue 39: the panel said "it lost the roll" with the dice
/// only in the cut-off status line and the log).
fn roll_line(ui: &mut egui::Ui, game: &Game) {
    use muster::core::chained_game::OnLedger;
    use muster::map_intel::wings::events::Event;
    let record = game.record();
    let Some((at, _)) = record
        .log()
        .iter()
        .flat_map(|entry| &entry.events)
        .enumerate()
        .filter(|(_, event)| matches!(event, Event::Rolled { .. }))
        .last()
    else {
        return;
    };
    let Some(line) = record.log_lines().get(at) else {
        return;
    };
    let words = muster::core::chained_game::words(line);
    ui.label(egui::RichText::new(words).strong());
    ui.add_space(4.0);
}
