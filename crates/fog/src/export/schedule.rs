//! The printout's schedule: every item on the table with what a player with
//! a tape measure needs to lay it (DESIGN.md, "The printout"): its outline
//! and size, its turn, and two reference points measured square from the
//! nearest long and side edges; the road's ends and bends; the ambush
//! markers' places. Only what both players may see.

use crate::battle::{
    Battle, Settings, camp_footprint, fortification_footprint, marker_number, piece_name,
};
use crate::geometry::survey::{Fix, reference_points, turn, turn_words};
use crate::geometry::{Footprint, Pose, Shape};
use muster_core::side::Side;

/// What an item is, for its colour on the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Terrain(String),
    Road,
    Camp,
    Fortification,
    Ambush,
}

/// One item to lay on the table.
#[derive(Clone, Debug)]
pub struct Item {
    /// Its short name on the drawing: "3", "R", "C-S", "F2", "S1".
    pub tag: String,
    pub kind: Kind,
    /// "Forest (S), rough".
    pub name: String,
    /// Its outline and size in words, empty for a point or a line.
    pub size: String,
    /// Its turn in degrees (see `survey::turn`), for an outline.
    pub turn: Option<f64>,
    /// Where to measure it from: each point named ("nearest S", "end",
    /// "bend 1") with its fix.
    pub fixes: Vec<(String, Fix)>,
    /// The outline on the table, for drawing; the road's line for the road.
    pub outline: Vec<[f64; 2]>,
    /// A curved outline a player cannot draw with a ruler (an oval, a
    /// rounded rectangle, a polygon): the printout gives it a template.
    pub curved: bool,
}

impl Item {
    /// The anchor of its label: the middle of its outline.
    pub fn anchor(&self) -> [f64; 2] {
        let n = self.outline.len().max(1) as f64;
        let (x, y) = self
            .outline
            .iter()
            .fold((0.0, 0.0), |(x, y), p| (x + p[0], y + p[1]));
        [x / n, y / n]
    }

    /// Its turn as printed: "turned 30° anticlockwise", "square to the edges".
    pub fn turn_words(&self) -> String {
        self.turn.map_or(String::new(), turn_words)
    }
}

/// A shape's size in the chosen unit (see `units::speak`).
fn size(shape: &Shape, settings: &Settings) -> String {
    let both = |w: f64, d: f64| {
        settings.speak(&format!(
            "{} x {} MU",
            crate::units::mu_number(w),
            crate::units::mu_number(d)
        ))
    };
    match shape {
        Shape::Ellipse { width, depth } => format!("oval {}", both(*width, *depth)),
        Shape::Rectangle { width, depth } => format!("rectangle {}", both(*width, *depth)),
        Shape::RoundedRectangle { width, depth, .. } => {
            format!("rounded rectangle {}", both(*width, *depth))
        }
        Shape::Polygon { points } => {
            let f = Footprint::from_points(points.clone());
            let (min, max) = (f.min(), f.max());
            format!(
                "outline of {} points, {}",
                points.len(),
                both(max[0] - min[0], max[1] - min[1])
            )
        }
    }
}

fn laid_item(
    tag: String,
    kind: Kind,
    name: String,
    shape: &Shape,
    pose: Pose,
    footprint: &Footprint,
    settings: &Settings,
) -> Item {
    let waterway = matches!(&kind, Kind::Terrain(t) if t == "river" || t == "coast");
    Item {
        fixes: reference_points(shape, pose, waterway, settings.table.geometry()).to_vec(),
        curved: !matches!(shape, Shape::Rectangle { .. }),
        tag,
        kind,
        name,
        size: size(shape, settings),
        turn: Some(turn(shape, pose.angle)),
        outline: footprint.points().to_vec(),
    }
}

/// Every item on the table, in the order they were laid: terrain, the road,
/// camps, fortification sections, then the ambush markers.
pub fn items(battle: &Battle) -> Vec<Item> {
    let state = battle.state();
    let ruleset = battle.ruleset();
    let settings = &state.settings;
    let table = state.table();
    let mut items = Vec::new();
    for (n, (i, laid)) in state.placement.standing().enumerate() {
        let pick = &state.selection.picks[i];
        let mut name = format!(
            "{} ({})",
            piece_name(state, ruleset, i),
            &pick.side.name()[..1]
        );
        if let Some(going) = laid.going {
            name = format!("{name}, {going}");
        }
        items.push(laid_item(
            (n + 1).to_string(),
            Kind::Terrain(pick.terrain.clone()),
            name,
            &laid.shape,
            laid.pose,
            laid.footprint(),
            settings,
        ));
    }
    if let Some(road) = &state.placement.road {
        let last = road.len().saturating_sub(1);
        let fixes = road
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let what = if k == 0 || k == last {
                    "end".to_string()
                } else {
                    format!("bend {k}")
                };
                (what, Fix::of(*p, table))
            })
            .collect();
        items.push(Item {
            tag: "R".into(),
            kind: Kind::Road,
            name: "Road (centre line)".into(),
            size: format!("{} wide", settings.length_mu(ruleset.road.width)),
            turn: None,
            fixes,
            outline: road.clone(),
            curved: false,
        });
    }
    let d = &state.deployment;
    let [cw, cd] = ruleset.deployment.camp.footprint;
    for side in Side::BOTH {
        if let Some(pose) = d.camps[side] {
            let shape = Shape::Rectangle {
                width: cw,
                depth: cd,
            };
            let f = camp_footprint(ruleset, pose);
            items.push(laid_item(
                format!("C-{}", &side.name()[..1]),
                Kind::Camp,
                format!("{side}'s camp"),
                &shape,
                pose,
                &f,
                settings,
            ));
        }
    }
    let [fw, fd] = ruleset.deployment.fortifications.footprint;
    for (k, (side, pose)) in d.fortifications.iter().enumerate() {
        let shape = Shape::Rectangle {
            width: fw,
            depth: fd,
        };
        let f = fortification_footprint(ruleset, *pose);
        items.push(laid_item(
            format!("F{}", k + 1),
            Kind::Fortification,
            format!("{side}'s field fortification"),
            &shape,
            *pose,
            &f,
            settings,
        ));
    }
    for (i, a) in d.ambushes.iter().enumerate().filter(|(_, a)| a.standing()) {
        let tag = format!("{}{}", &a.side.name()[..1], marker_number(state, i));
        // What both players know of it now: sealed, or revealed as a
        // battle group (a revealed dummy is off the table).
        let state_of = match a.revealed {
            Some(crate::battle::AmbushContent::Bg { bg }) => format!(
                "revealed: {}",
                state.armies[a.side]
                    .as_ref()
                    .and_then(|army| army.bgs.get(bg))
                    .map_or(format!("battle group {}", bg + 1), |g| g.name.clone())
            ),
            _ => "sealed".into(),
        };
        items.push(Item {
            name: format!(
                "{}'s ambush marker {tag}, {state_of}, commitment {}",
                a.side,
                a.sealed.code()
            ),
            tag,
            kind: Kind::Ambush,
            size: String::new(),
            turn: None,
            fixes: vec![("marker".into(), Fix::of(a.at, table))],
            outline: vec![a.at],
            curved: false,
        });
    }
    items
}
