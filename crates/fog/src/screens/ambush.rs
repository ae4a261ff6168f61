//! A player's ambushes (RULES 7, 8.3) as his private screen: the markers he
//! sealed, opened with his key, and a new marker's form: what it stands for
//! (a battle group not yet in ambush, or a dummy), and the table to scale
//! with the legality map of that battle group (outer thirds, depth,
//! terrain, hidden from the enemy skirmisher area) and the point he picked
//! with the rules' verdict on it. `answer_ambush` seals what he sent, so
//! the command carries only the sealed record.

use super::{Form, Reply, Screen, SecretAct, SecretField};
use crate::battle::{
    AmbushContent, AmbushMaps, Battle, Command, Profile, State, Verdict, camp_footprint,
    check_ambush, fortification_footprint, open_ambushes, piece_name, seal_ambush,
};
use crate::palette::terrain_colour;
use muster_core::error::RuleError;
use muster_core::intel::SealKey;
use muster_core::screen::{
    self, Block, CellGrid, Choice, Input, Legend, Mark, Outline, Pattern, Pick, Swatch,
};
use muster_core::side::Side;

type Action = screen::Action<SecretAct>;
type Field = screen::Field<SecretField>;
type Table = screen::Table<SecretAct, SecretField>;

/// A marker's content in words, for its owner only.
pub fn content_name(state: &State, side: Side, content: AmbushContent) -> String {
    match content {
        AmbushContent::Dummy => "Dummy".into(),
        AmbushContent::Bg { bg } => state.armies[side]
            .as_ref()
            .and_then(|a| a.bgs.get(bg))
            .map_or(format!("Battle group {}", bg + 1), |b| b.name.clone()),
    }
}

fn content_value(content: AmbushContent) -> String {
    match content {
        AmbushContent::Dummy => "dummy".into(),
        AmbushContent::Bg { bg } => format!("bg {bg}"),
    }
}

/// The marker's content as the form has it.
fn content(values: &Form) -> Option<AmbushContent> {
    let value = screen::first(values, SecretField::Content)?;
    if value == "dummy" {
        return Some(AmbushContent::Dummy);
    }
    let bg = value.strip_prefix("bg ")?.parse().ok()?;
    Some(AmbushContent::Bg { bg })
}

/// The pieces standing on the table, as outlines: what the laptop's table
/// and a phone's draw, from the same footprints.
pub fn pieces(battle: &Battle) -> Vec<Outline> {
    let state = battle.state();
    let ruleset = battle.ruleset();
    // A hundredth of a unit is finer than any screen draws.
    let round = |points: &[[f64; 2]]| -> Vec<[f64; 2]> {
        points
            .iter()
            .map(|p| p.map(|c| (c * 100.0).round() / 100.0))
            .collect()
    };
    let mut out: Vec<Outline> = state
        .placement
        .standing()
        .map(|(i, laid)| Outline {
            name: piece_name(state, ruleset, i),
            points: round(laid.footprint().points()),
            fill: terrain_colour(&state.selection.picks[i].terrain),
        })
        .collect();
    // The road as its centre line (an outline there and back, which a
    // screen strokes), then the camps and works: the bearings a player
    // takes the table by.
    if let Some(road) = &state.placement.road {
        let mut points = round(road);
        points.extend(round(road).into_iter().rev());
        out.push(Outline {
            name: "Road".into(),
            points,
            fill: crate::palette::ROAD,
        });
    }
    for side in Side::BOTH {
        if let Some(pose) = state.deployment.camps[side] {
            out.push(Outline {
                name: format!("{side}'s camp"),
                points: round(camp_footprint(ruleset, pose).points()),
                fill: crate::palette::CAMP,
            });
        }
    }
    for (side, pose) in &state.deployment.fortifications {
        out.push(Outline {
            name: format!("{side}'s field fortification"),
            points: round(fortification_footprint(ruleset, *pose).points()),
            fill: crate::palette::FORTIFICATION,
        });
    }
    out
}

/// What each colour of `pieces` stands for, once each: the terrain types
/// standing, the road, camps and field fortifications.
pub fn colour_key(battle: &Battle) -> Vec<Swatch> {
    let state = battle.state();
    let mut out: Vec<Swatch> = Vec::new();
    let mut add = |fill: [u8; 3], meaning: String| {
        if !out.iter().any(|s| s.fill == fill) {
            out.push(Swatch { fill, meaning });
        }
    };
    for (i, _) in state.placement.standing() {
        let terrain = &state.selection.picks[i].terrain;
        add(
            terrain_colour(terrain),
            battle.ruleset().terrain_name(terrain).to_string(),
        );
    }
    if state.placement.road.is_some() {
        add(crate::palette::ROAD, "Road".into());
    }
    if Side::BOTH
        .iter()
        .any(|s| state.deployment.camps[*s].is_some())
    {
        add(crate::palette::CAMP, "Camp".into());
    }
    if !state.deployment.fortifications.is_empty() {
        add(crate::palette::FORTIFICATION, "Field fortification".into());
    }
    out
}

/// The most cells a screen's grid holds, so that the largest table's map
/// still fits the one size every message to a phone has. A larger table is
/// drawn in coarser cells, each showing the best verdict of those it holds
/// (where he may hide, if anywhere in it); the point he picks is always
/// judged exactly.
pub const MAX_CELLS: usize = 24_576;

/// A verdict's rank when cells are merged: where he may hide shows first.
fn rank(v: Verdict) -> (u8, char) {
    match v {
        Verdict::Legal => (3, 'L'),
        Verdict::Seen => (2, 'S'),
        Verdict::Terrain => (1, 'T'),
        Verdict::OutsideZone => (0, ' '),
    }
}

/// The legality map's grid: a character per cell, `k` x `k` of the map's
/// cells to one of the grid's when the map has more than `MAX_CELLS`.
fn grid(map: &crate::battle::AmbushMap) -> CellGrid {
    let k = ((map.columns * map.rows) as f64 / MAX_CELLS as f64)
        .sqrt()
        .ceil()
        .max(1.0) as usize;
    let (columns, rows) = (map.columns.div_ceil(k), map.rows.div_ceil(k));
    let mut merged = vec![(0u8, ' '); columns * rows];
    for (n, (_, v)) in map.cells().enumerate() {
        let (i, j) = (n % map.columns / k, n / map.columns / k);
        let cell = &mut merged[j * columns + i];
        *cell = (*cell).max(rank(v));
    }
    CellGrid {
        cell: map.cell * k as f64,
        columns,
        rows,
        cells: merged.into_iter().map(|(_, c)| c).collect(),
        legend: vec![
            // Hatched in magenta, which no terrain is drawn in: never taken
            // for a forest's or a brush's green.
            Legend {
                key: 'L',
                colour: [225, 0, 190, 230],
                meaning: format!("✔ {} may hide here", map.profile.name),
                pattern: Pattern::Hatch,
            },
            Legend {
                key: 'S',
                colour: [220, 40, 40, 110],
                meaning: "✖ seen from the enemy skirmisher area".into(),
                pattern: Pattern::Tint,
            },
            Legend {
                key: 'T',
                colour: [40, 40, 40, 200],
                meaning: format!("✖ {} may not hide in this terrain", map.profile.name),
                pattern: Pattern::Dots,
            },
        ],
    }
}

/// `side`'s ambush screen, the new marker's form as `values` has it. The
/// legality map comes from `maps`, computed again only when the terrain or
/// the marker's profile changes.
pub fn ambushes(
    battle: &Battle,
    side: Side,
    key: &SealKey,
    values: &Form,
    maps: &mut AmbushMaps,
) -> Result<Screen, RuleError> {
    let state = battle.state();
    let army = state.armies[side]
        .as_ref()
        .ok_or_else(|| RuleError::new("8.3", format!("{side} has no army yet")))?;
    let mine = open_ambushes(state, side, key)?;
    let mut blocks = Vec::new();
    for (i, c) in &mine {
        let a = &state.deployment.ambushes[*i];
        blocks.push(Block::Item {
            title: content_name(state, side, *c),
            text: format!(
                "at {}, sealed {}",
                state.settings.point(a.at),
                a.sealed.code()
            ),
            actions: Vec::new(),
            badge: None,
        });
    }
    let options: Vec<Choice> = (0..army.bgs.len())
        .map(|bg| AmbushContent::Bg { bg })
        .chain([AmbushContent::Dummy])
        .filter(|c| *c == AmbushContent::Dummy || !mine.iter().any(|(_, m)| m == c))
        .map(|c| Choice {
            value: content_value(c),
            label: content_name(state, side, c),
        })
        .collect();
    let chosen = content(values);
    let fields = vec![Field {
        name: SecretField::Content,
        label: "This marker is".into(),
        input: Input::Choice {
            options,
            many: false,
            selected: chosen.map(content_value).into_iter().collect(),
            resets: vec![SecretField::At],
        },
    }];
    let mut seal = Action::new("Seal and place ambush marker", SecretAct::SealAmbush).hint(
        "Encrypts what the marker stands for under your key; both players see only the marker and its commitment code",
    );
    let marks = mine
        .iter()
        .map(|(i, c)| Mark {
            at: state.deployment.ambushes[*i].at,
            label: content_name(state, side, *c),
        })
        .collect();
    let mut table = Table {
        size: [state.settings.table.width, state.settings.table.depth],
        pieces: pieces(battle),
        grid: None,
        key: colour_key(battle),
        marks,
        pick: None,
        viewer: Some(side),
    };
    // What a choice and a pick bring, said under the form: its choices and
    // its button stay where they are as he chooses and picks.
    let mut after = Vec::new();
    match chosen.map(|c| (c, Profile::of(state, battle.ruleset(), side, c))) {
        None => seal.refused = Some("Choose what the marker stands for first".into()),
        Some((_, Err(e))) => seal.refused = Some(e.to_string()),
        Some((c, Ok(profile))) => {
            let map = maps.get(state, battle.ruleset(), side, profile);
            after.push(Block::Text {
                text: state.settings.speak(&format!(
                    "Hatched in magenta on the table: where {} may hide ({} of the {} cells of {} MU in the ambush zone). Click or tap the table to put the marker there.",
                    map.profile.name,
                    map.legal_cells(),
                    map.zone_cells(),
                    map.cell
                )),
            });
            table.grid = Some(grid(map));
            let at = screen::read_point(values, SecretField::At);
            let verdict = at.map(|at| check_ambush(state, battle.ruleset(), side, c, at));
            let speak = |text: String| state.settings.speak(&text);
            table.pick = Some(Pick {
                field: SecretField::At,
                at,
                verdict: verdict.as_ref().map(|v| match v {
                    Ok(why) => speak(format!("✔ {why}")),
                    Err(e) => speak(format!("✖ {e}")),
                }),
                legal: matches!(verdict, Some(Ok(_))),
                confirm: matches!(verdict, Some(Ok(_))).then(|| seal.command.clone()),
            });
            seal.refused = match (at, verdict) {
                (None, _) => Some("Pick the marker's place on the table first".into()),
                (_, Some(Err(e))) => Some(speak(e.to_string())),
                _ => None,
            };
            if let Some(at) = at {
                after.push(Block::Text {
                    text: format!("Marker at {}", state.settings.point(at)),
                });
            }
        }
    }
    // The form before the table, whose verdict line comes and goes, so the
    // choices and the button stay where they are.
    blocks.push(Block::Form {
        fields,
        actions: vec![seal],
    });
    blocks.extend(after);
    blocks.push(Block::Table {
        table: Box::new(table),
    });
    Ok(Screen {
        title: format!("{side}: my ambushes"),
        blocks,
    })
}

/// The sealed marker `side` sent, or the rule that refuses it.
pub fn answer_ambush(
    battle: &Battle,
    side: Side,
    key: &SealKey,
    reply: &Reply,
) -> Result<Command, RuleError> {
    let content = content(&reply.values)
        .ok_or_else(|| RuleError::new("8.3", "Choose what the marker stands for first"))?;
    let at = screen::read_point(&reply.values, SecretField::At)
        .ok_or_else(|| RuleError::new("8.3", "Pick the marker's place on the table first"))?;
    seal_ambush(battle.state(), battle.ruleset(), side, at, content, key)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The largest table (240 x 240 MU, 480 x 480 cells of the map) is
    /// drawn in at most `MAX_CELLS` cells, each as large as the merged ones,
    /// and a single cell where he may hide still shows where it is.
    #[test]
    fn the_largest_tables_grid_fits_and_still_shows_where_he_may_hide() {
        let side = 480;
        let mut verdicts = vec![Verdict::OutsideZone; side * side];
        verdicts[300 * side + 17] = Verdict::Legal;
        verdicts[5] = Verdict::Seen;
        let map = crate::battle::AmbushMap::of_verdicts(side, verdicts);
        let g = grid(&map);
        assert!(
            g.columns * g.rows <= MAX_CELLS,
            "{} x {}",
            g.columns,
            g.rows
        );
        assert_eq!(g.cells.chars().count(), g.columns * g.rows);
        let k = g.cell / map.cell;
        assert_eq!(k, 4.0);
        let at = |x: f64, y: f64| g.at([x, y]).map(|l| l.key);
        assert_eq!(at(17.5 * 0.5, 300.5 * 0.5), Some('L'));
        assert_eq!(at(5.5 * 0.5, 0.25), Some('S'));
        assert_eq!(g.cells.chars().filter(|c| *c == 'L').count(), 1);
        // The usual table keeps the map's own cells.
        let usual = crate::battle::AmbushMap::of_verdicts(144, vec![Verdict::Legal; 144 * 96]);
        assert_eq!(grid(&usual).cell, map.cell);
    }
    use crate::battle::flank_march_tests::at_south_ambushes;

    const SOUTH: &SealKey = &SealKey::from_bytes([7; 32]);
    const NORTH: &SealKey = &SealKey::from_bytes([9; 32]);

    fn values(pairs: &[(SecretField, &str)]) -> Form {
        pairs
            .iter()
            .map(|(k, v)| (*k, vec![v.to_string()]))
            .collect()
    }

    fn table(screen: &Screen) -> &Table {
        screen
            .blocks
            .iter()
            .find_map(|b| match b {
                Block::Table { table } => Some(table.as_ref()),
                _ => None,
            })
            .expect("the screen has its table")
    }

    /// South picks a battle group and a point on his screen: the map is
    /// the rules' (a cell per character, legal where `check_ambush` says),
    /// a point's verdict is the rules', the seal is refused until the point
    /// is legal; what he seals opens to what he chose, and North's screen,
    /// serialised, names nothing of it.
    #[test]
    fn a_marker_placed_from_the_screen_is_the_rules_and_stays_his() {
        let mut b = at_south_ambushes();
        let s = Side::South;
        let mut maps = AmbushMaps::default();
        let none = ambushes(&b, s, SOUTH, &Form::new(), &mut maps).unwrap();
        assert!(table(&none).grid.is_none(), "no map before the choice");
        let chosen = values(&[(SecretField::Content, "bg 0")]);
        let screen = ambushes(&b, s, SOUTH, &chosen, &mut maps).unwrap();
        let grid = table(&screen).grid.clone().unwrap();
        assert_eq!(grid.cells.chars().count(), grid.columns * grid.rows);
        let legal = grid
            .cells
            .chars()
            .position(|c| c == 'L')
            .expect("somewhere to hide");
        let at = [
            ((legal % grid.columns) as f64 + 0.5) * grid.cell,
            ((legal / grid.columns) as f64 + 0.5) * grid.cell,
        ];
        let content = AmbushContent::Bg { bg: 0 };
        assert!(check_ambush(b.state(), b.ruleset(), s, content, at).is_ok());
        let mid = [36.0, 24.0];
        let refused = values(&[
            (SecretField::Content, "bg 0"),
            (SecretField::At, &screen::write_point(mid)),
        ]);
        let screen = ambushes(&b, s, SOUTH, &refused, &mut maps).unwrap();
        let pick = table(&screen).pick.clone().unwrap();
        assert!(!pick.legal && pick.verdict.unwrap().starts_with("✖"));
        let picked = values(&[
            (SecretField::Content, "bg 0"),
            (SecretField::At, &screen::write_point(at)),
        ]);
        let screen = ambushes(&b, s, SOUTH, &picked, &mut maps).unwrap();
        assert!(table(&screen).pick.as_ref().unwrap().legal);
        let reply = Reply {
            command: SecretAct::SealAmbush,
            values: picked,
        };
        let command = answer_ambush(&b, s, SOUTH, &reply).unwrap();
        b.apply(command).unwrap();
        let opened = open_ambushes(b.state(), s, SOUTH).unwrap();
        assert_eq!(opened.last().map(|(_, c)| *c), Some(content));
        let name = content_name(b.state(), s, content);
        let mine = serde_json::to_string(&ambushes(&b, s, SOUTH, &Form::new(), &mut maps).unwrap())
            .unwrap();
        assert!(mine.contains(&name));
        // North's screen is built from his own records only: nothing of
        // South's marker is in it.
        let north = ambushes(&b, Side::North, NORTH, &Form::new(), &mut maps).unwrap();
        assert!(!serde_json::to_string(&north).unwrap().contains(&name));
        let forged = r#"{"command":{"form":"reveal everything"}}"#;
        assert!(screen::read::<Reply>(forged).is_err());
    }

    /// Issue 49: every colour and pattern South's ambush table draws has
    /// its entry in the table's key, and the key names nothing the table
    /// does not draw. With no choice and with each of his battle groups and
    /// a dummy chosen (each its own legality grid): each piece's colour is
    /// keyed once, under its own terrain's name (no two terrain types, nor
    /// the road, camps or works, share a colour, or one's name would be
    /// lost); each key colour is a piece's; every kind of cell on the grid
    /// has its legend entry, no two drawn alike, and none alike a piece's
    /// colour. The laptop and the page both draw the key from these (the
    /// grid's entries filtered to the kinds of cell drawn).
    #[test]
    fn every_colour_and_pattern_on_the_ambush_table_has_its_key_entry() {
        let b = at_south_ambushes();
        let s = Side::South;
        let state = b.state();
        let ruleset = b.ruleset();
        // No colour means two things, whatever the table holds.
        let mut colours: Vec<([u8; 3], String)> = ruleset
            .terrain_types
            .keys()
            .map(|t| (terrain_colour(t), t.clone()))
            .collect();
        colours.push((crate::palette::ROAD, "road".into()));
        colours.push((crate::palette::CAMP, "camp".into()));
        colours.push((crate::palette::FORTIFICATION, "fortification".into()));
        for (i, (a, x)) in colours.iter().enumerate() {
            for (b, y) in &colours[i + 1..] {
                assert_ne!(a, b, "{x} and {y} are drawn alike");
            }
        }
        let army = state.armies[s].as_ref().unwrap();
        let choices: Vec<Option<String>> = std::iter::once(None)
            .chain((0..army.bgs.len()).map(|bg| Some(format!("bg {bg}"))))
            .chain([Some("dummy".to_string())])
            .collect();
        let mut maps = AmbushMaps::default();
        let mut grids = 0;
        for choice in choices {
            let form = match &choice {
                Some(c) => values(&[(SecretField::Content, c)]),
                None => Form::new(),
            };
            let screen = ambushes(&b, s, SOUTH, &form, &mut maps).unwrap();
            let table = table(&screen);
            // Each standing piece's colour keyed under its terrain's name.
            for (i, _) in state.placement.standing() {
                let terrain = &state.selection.picks[i].terrain;
                let fill = terrain_colour(terrain);
                let keyed: Vec<&str> = table
                    .key
                    .iter()
                    .filter(|k| k.fill == fill)
                    .map(|k| k.meaning.as_str())
                    .collect();
                assert_eq!(keyed, [ruleset.terrain_name(terrain)], "{choice:?}");
            }
            for piece in &table.pieces {
                let keyed = table.key.iter().filter(|k| k.fill == piece.fill).count();
                assert_eq!(
                    keyed, 1,
                    "{choice:?}: {} drawn, keyed {keyed} times",
                    piece.name
                );
            }
            for k in &table.key {
                assert!(
                    table.pieces.iter().any(|p| p.fill == k.fill),
                    "{choice:?}: '{}' keyed, never drawn",
                    k.meaning
                );
            }
            let Some(grid) = &table.grid else {
                assert!(choice.is_none(), "{choice:?}: no grid");
                continue;
            };
            grids += 1;
            for cell in grid.cells.chars().filter(|c| *c != ' ') {
                assert!(
                    grid.legend.iter().any(|l| l.key == cell),
                    "{choice:?}: '{cell}' drawn, unkeyed"
                );
            }
            assert!(grid.cells.contains('L'), "{choice:?}: nowhere to hide");
            for (i, a) in grid.legend.iter().enumerate() {
                for b in &grid.legend[i + 1..] {
                    assert_ne!(a.key, b.key, "{choice:?}");
                    assert!(
                        (a.colour, a.pattern) != (b.colour, b.pattern),
                        "{choice:?}: '{}' and '{}' drawn alike",
                        a.meaning,
                        b.meaning
                    );
                }
                let [r, g, bl, _] = a.colour;
                assert!(
                    !colours.iter().any(|(c, _)| *c == [r, g, bl]),
                    "{choice:?}: '{}' in a terrain's colour",
                    a.meaning
                );
            }
        }
        assert_eq!(grids, army.bgs.len() + 1, "a grid for each choice");
    }
}
