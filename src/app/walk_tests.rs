//! Field of Glory as two players drive it through the window, counting
//! what they do (issue 25's measure): every click, every filled-in field,
//! every key that does something is one interaction. Each step's main
//! action is double-clicked where it stands, as a hurried player does, and
//! the second click must do nothing (the click guard).

use super::tests::{WITHOUT_PASSPHRASE, app, click, click_table, config, every_text, label_of};
use super::walker::Walker;
use super::{AppConfig, MusterApp};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use muster::core::side::Side;
use muster::fog::battle::{DeploymentTurn, Phase, PlacementTurn};

/// The walker's hands (which count what they do), and what the walk
/// checks on the way.
struct Walk {
    w: Walker,
    /// The players move pieces by hand as newcomers do (the real first
    /// battle), or take every proposal (the quickest path).
    by_hand: bool,
    /// What they did by hand on the way: a piece dragged and one turned in
    /// placement, a piece slid in adjustment.
    dragged: bool,
    turned: bool,
    slid: bool,
    /// Where each main action's button was when clicked, by its label.
    main_at: Vec<(String, egui::Pos2)>,
    /// Centimetres were chosen: no step may speak MU.
    in_cm: bool,
    /// The window's size: every main action must be in it, clear of the
    /// table.
    size: [f32; 2],
}

impl std::ops::Deref for Walk {
    type Target = Walker;
    fn deref(&self) -> &Walker {
        &self.w
    }
}

impl std::ops::DerefMut for Walk {
    fn deref_mut(&mut self) -> &mut Walker {
        &mut self.w
    }
}

/// What the players keep secret on the way.
#[derive(Clone, Copy, PartialEq)]
enum Secrets {
    /// Nothing: no ambushes, no flank marches.
    None,
    /// South lays a real and a dummy ambush and sends a flank march.
    SouthAmbushesAndMarches,
}

/// South's battle groups that the secrets keep off the table: the Syrian
/// archers in ambush, the two alae on the flank march.
const OFF_TABLE: [&str; 3] = ["Syrian archers", "Ala Petriana", "Ala Indiana"];

/// Terrain nobody hides in.
const OPEN_GROUND: [&str; 4] = ["open", "open_field", "gentle_hill", "steep_hill"];

impl Walk {
    fn new(dir: &std::path::Path) -> Walk {
        Walk::seeded(dir, 11, [1366.0, 768.0])
    }

    /// The app in a window of `size`, rolling its dice from `seed`.
    fn seeded(dir: &std::path::Path, seed: u64, size: [f32; 2]) -> Walk {
        let config = AppConfig {
            seed: Some(seed),
            ..config(&dir.join("autosaves"))
        };
        let mut h = app(config, size);
        h.run();
        Walk {
            w: Walker::new(h),
            by_hand: false,
            dragged: false,
            turned: false,
            slid: false,
            main_at: Vec::new(),
            in_cm: false,
            size,
        }
    }

    fn table(&mut self, at: [f64; 2]) {
        click_table(&mut self.h, at);
        self.interactions += 1;
    }

    /// The piece being placed (or adjusted) dragged `by` table units from
    /// where it stands, as a player drags it by hand.
    fn drag_piece(&mut self, from: [f64; 2], by: [f64; 2]) {
        let frame = self
            .h
            .state()
            .fog()
            .table
            .frame
            .expect("the table was drawn");
        let to = [from[0] + by[0], from[1] + by[1]];
        let points = [frame.to_screen(from), frame.to_screen(to)];
        self.drag(&points);
    }

    fn entries(&self) -> usize {
        self.h.state().fog().battle.log().len()
    }

    /// A step's main action, double-clicked where its button stands: the
    /// first click does it, the second (a tenth of a second later, on
    /// whatever took the button's place) must change nothing.
    fn main(&mut self, label: &str) {
        self.reach(label);
        self.h.run_steps(3);
        let rect = self.h.get_by_label(label).rect();
        self.main_at.push((label.to_string(), rect.min));
        let window = egui::Rect::from_min_size(egui::Pos2::ZERO, self.size.into());
        assert!(
            window.contains_rect(rect),
            "{label} at {rect:?} is out of the {:?} window",
            self.size
        );
        if let Some(frame) = self.h.state().fog().table.frame {
            assert!(
                !frame.table.intersects(rect),
                "the table covers {label} at {:?}",
                self.size
            );
        }
        self.press_twice(rect.center(), label);
    }

    /// `label`'s button double-clicked where it stands (reached first).
    fn double_click(&mut self, label: &str) {
        self.reach(label);
        // The player's decision takes longer than the guard.
        self.h.run_steps(3);
        let at = self.h.get_by_label(label).rect().center();
        self.press_twice(at, label);
    }

    /// A double click at `at`, on `label`'s button: the first click does
    /// it, the second (a tenth of a second later, on whatever took the
    /// button's place) must change nothing. One interaction.
    fn press_twice(&mut self, at: egui::Pos2, label: &str) {
        self.h.hover_at(at);
        self.h.step();
        // Kittest gives each event a frame of its own, a quarter of a
        // second apart; a double click's two clicks come a tenth of a
        // second apart, so the frames are timed by hand.
        let start = self.h.ctx.input(|i| i.time);
        let press = |h: &mut Harness<'static, MusterApp>, after: f64| {
            h.input_mut().time = Some(start + after);
            h.drag_at(at);
            h.drop_at(at);
            h.step();
        };
        press(&mut self.h, 0.05);
        let once = self.entries();
        press(&mut self.h, 0.15);
        self.h.input_mut().time = None;
        self.h.run();
        assert_eq!(
            self.entries(),
            once,
            "the second click of a double click on {label} did something"
        );
        self.interactions += 1;
    }

    /// A step's main action by Enter.
    fn enter(&mut self, label: &str) {
        self.h.get_by_label(label);
        self.h.run_steps(3);
        let before = self.entries();
        self.h.key_press(egui::Key::Enter);
        self.h.run();
        assert!(self.entries() > before, "Enter did not do {label}");
        self.interactions += 1;
    }

    fn phase(&self) -> Phase {
        self.h.state().fog().battle.phase()
    }

    fn enabled(&self, label: &str) -> bool {
        self.h
            .query_by_label(label)
            .is_some_and(|n| !n.accesskit_node().is_disabled())
    }

    /// Every step's main action, for either player, stood in one place.
    fn mains_in_one_place(&self) {
        let (first, at) = &self.main_at[0];
        for (label, other) in &self.main_at {
            assert_eq!(at, other, "{label} is not where {first} was");
        }
    }

    /// From the initiative to the start of play, each step as its players
    /// would take it, deciding the first thing the rules allow.
    fn until_play(&mut self, secrets: Secrets) {
        self.main("🎲 Roll for both");
        let mut stuck = 0;
        let mut last = (self.phase(), 0);
        while self.phase() != Phase::Play {
            self.step(secrets);
            let now = (self.phase(), self.entries());
            if now == last {
                stuck += 1;
                assert!(stuck < 3, "no progress at {now:?}");
            } else {
                stuck = 0;
            }
            last = now;
        }
    }

    /// With centimetres chosen, fails naming the first text of the window
    /// (label, value or description of any widget) that says "MU".
    fn speaks_the_chosen_unit(&self) {
        if !self.in_cm {
            return;
        }
        for text in every_text(&self.h) {
            let says_mu = text.match_indices("MU").any(|(i, _)| {
                let before = text[..i].chars().next_back();
                let after = text[i + 2..].chars().next();
                !before.is_some_and(char::is_alphanumeric)
                    && !after.is_some_and(char::is_alphanumeric)
            });
            assert!(!says_mu, "at {:?}, in centimetres: {text:?}", self.phase());
        }
    }

    fn step(&mut self, secrets: Secrets) {
        self.speaks_the_chosen_unit();
        let battle = &self.h.state().fog().battle;
        let state = battle.state().clone();
        let ruleset = battle.ruleset().clone();
        match self.phase() {
            Phase::Territory(side) => {
                let other = state.armies[side.opponent()].as_ref().unwrap();
                let name = ruleset.territory_name(&other.territories[0]).to_string();
                self.click(&format!("Choose {name}"));
            }
            Phase::Compulsory(_) => {
                let first = battle.remaining_compulsory()[0].clone();
                self.click(&format!("Take {}", ruleset.terrain_name(&first)));
            }
            Phase::Selection(side) => {
                if self
                    .h
                    .query_by_label(&format!("{side} selects now"))
                    .is_some()
                {
                    self.click(&format!("{side} selects now"));
                } else if battle.selections_used(side) == 0 {
                    // One piece each, the first the rules allow; a player
                    // planning an ambush takes cover.
                    let cover = secrets != Secrets::None && side == Side::South;
                    let options = battle.selection_options(side);
                    let allowed = || options.iter().filter(|o| o.verdict.is_ok());
                    let pick = allowed()
                        .find(|o| !cover || !OPEN_GROUND.contains(&o.terrain.as_str()))
                        .or_else(|| allowed().next())
                        .unwrap()
                        .clone();
                    let name = ruleset.terrain_name(&pick.terrain).to_string();
                    let label = if pick.large {
                        format!("Large {}", name.to_lowercase())
                    } else {
                        name
                    };
                    self.click(&format!("Select {label}"));
                } else {
                    self.main(&format!("Finish {side}'s selection"));
                }
            }
            Phase::Placement(t) => match t {
                PlacementTurn::Waterway { .. } => {
                    let label = self
                        .h
                        .get_by_label_contains("Place the ")
                        .accesskit_node()
                        .label()
                        .unwrap_or_default()
                        .to_string();
                    self.main(&label);
                }
                // A player content with a piece where it lies declines to
                // adjust it without a roll (rule 6); the first he may want
                // to slide, he rolls for.
                PlacementTurn::AdjustRoll { .. } if !self.by_hand || self.slid => {
                    // Beside the dice, whole in the window.
                    let rect = self.h.get_by_label("Leave it (no roll)").rect();
                    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, self.size.into());
                    assert!(window.contains_rect(rect), "{rect:?} at {:?}", self.size);
                    self.click("Leave it (no roll)")
                }
                PlacementTurn::Going { side, .. }
                | PlacementTurn::Roll { side, .. }
                | PlacementTurn::AdjustRoll { side, .. } => self.main(&format!("Roll for {side}")),
                PlacementTurn::Place { piece, .. } => {
                    let name = muster::fog::battle::piece_name(&state, &ruleset, piece);
                    let place = format!("Place {name} here");
                    // Newcomers move a proposed piece about, and turn one.
                    let draft = self.h.state().fog().panels.placement.draft_pose();
                    if let Some(pose) = draft.filter(|_| self.by_hand && !self.dragged) {
                        self.drag_piece([pose.x, pose.y], [3.0, 2.0]);
                        self.dragged = true;
                    } else if self.by_hand && !self.turned {
                        self.click("⟳ Turn right 15°");
                        self.turned = true;
                    }
                    if !self.enabled(&place) {
                        self.click("Snap to nearest legal position");
                    }
                    self.main(&place);
                }
                PlacementTurn::Adjust { piece, .. } => {
                    // The first piece that may slide is slid 1 unit along
                    // the table, dragged by hand; the others are left.
                    let pose = state.placement.laid.get(&piece).map(|l| l.pose);
                    match pose {
                        // Taken by hand, the piece slides.
                        Some(pose) if self.by_hand && !self.slid && self.enabled("Slide") => {
                            self.drag_piece([pose.x, pose.y], [1.0, 0.0]);
                            if self.enabled("Slide it here") {
                                self.main("Slide it here");
                                self.slid = true;
                            } else {
                                self.click("Slide");
                                self.main("Leave it where it is");
                            }
                        }
                        _ => self.main("Leave it where it is"),
                    }
                }
                PlacementTurn::Road { .. } => self.click("No road"),
            },
            Phase::Deployment(t) => match t {
                DeploymentTurn::Camp(_) => self.main("Place camp"),
                DeploymentTurn::Fortifications(side) => {
                    self.main(&format!("{side}: finish fortifications"))
                }
                DeploymentTurn::Ambushes(side) => {
                    if secrets == Secrets::None || side == Side::North {
                        // In the open, from the hand-over screen; the next
                        // player's screen puts his own button where this
                        // one was, which a double click must not answer.
                        self.double_click(&format!("{side}: no ambushes"));
                    } else {
                        self.ambushes();
                    }
                }
                DeploymentTurn::FlankMarches(side) => {
                    if secrets == Secrets::None || side == Side::North {
                        self.double_click(&format!("{side}: no flank marches"));
                    } else {
                        self.flank_march();
                    }
                }
                DeploymentTurn::Batch { side, number, size } => {
                    if secrets != Secrets::None && side == Side::South {
                        self.south_batch(number, size);
                    } else {
                        self.main(&format!("Batch {number} deployed"))
                    }
                }
                // South's one check of his sealed groups, once every batch
                // is down: it comes to him by itself (RULES 8.5 ruling).
                DeploymentTurn::Dismount(_) | DeploymentTurn::Commanders(_)
                    if self
                        .h
                        .query_by_label("Pass the laptop to South (Marcus)")
                        .is_some() =>
                {
                    // His PIN opens the check, which is made by itself.
                    self.prove("South (Marcus)", SOUTH_PASS, SOUTH_PIN);
                }
                DeploymentTurn::Dismount(side) => self.main(&format!("{side}: no dismounting")),
                DeploymentTurn::Commanders(side) => {
                    self.main(&format!("{side}: commanders placed"))
                }
            },
            // A tie rolls again.
            Phase::Initiative | Phase::MovesFirst => self.main("🎲 Roll for both"),
            other => panic!("unexpected {other:?}"),
        }
    }

    /// South, on the laptop behind the hand-over screen: the Syrian
    /// archers in ambush and a dummy marker.
    fn ambushes(&mut self) {
        // His first private step asks his passphrase, and he chooses a
        // hand-over PIN beside it for the later ones (issue 39).
        self.prove("South (Marcus)", SOUTH_PASS, SOUTH_PIN);
        for content in ["Syrian archers", "Dummy"] {
            self.click(content);
            self.speaks_the_chosen_unit();
            let at = self.green_spot();
            self.table(at);
            self.speaks_the_chosen_unit();
            self.click("Seal and place ambush marker");
        }
        self.click("Finish my ambushes");
    }

    /// Where a player picks his marker on his legality map as it is drawn:
    /// the middle of a green ("may hide here") cell, the one nearest their
    /// own table edge (the middle of the table first), clear of the markers
    /// he placed already.
    fn green_spot(&self) -> [f64; 2] {
        let table = self
            .h
            .state()
            .fog()
            .drawn_private
            .clone()
            .expect("their legality map is drawn");
        let grid = table.grid.as_ref().expect("a legality map");
        let middle = table.size[0] / 2.0;
        let placed: Vec<[f64; 2]> = self
            .h
            .state()
            .fog()
            .battle
            .state()
            .deployment
            .ambushes
            .iter()
            .map(|a| a.at)
            .collect();
        (0..grid.rows)
            .flat_map(|j| (0..grid.columns).map(move |i| (i, j)))
            .map(|(i, j)| [(i as f64 + 0.5) * grid.cell, (j as f64 + 0.5) * grid.cell])
            .filter(|at| grid.at(*at).is_some_and(|l| l.meaning.starts_with('✔')))
            .filter(|at| {
                placed
                    .iter()
                    .all(|p| (p[0] - at[0]).abs() + (p[1] - at[1]).abs() > 6.0)
            })
            .min_by(|a, b| {
                let key = |p: &[f64; 2]| (p[1], (p[0] - middle).abs());
                key(a).partial_cmp(&key(b)).unwrap()
            })
            .expect("a green cell on their map")
    }

    /// South sends his two alae round the left flank.
    fn flank_march(&mut self) {
        self.prove("South (Marcus)", SOUTH_PASS, SOUTH_PIN);
        self.click("Ala Petriana marches");
        self.click("Ala Indiana marches");
        self.speaks_the_chosen_unit();
        self.click("Seal flank march");
        self.click("Done with my flank marches");
    }

    /// South's batch on the shared screen (RULES 8.5 ruling: he has no
    /// phone): no hand-over, nothing ticked for him, nothing marked; he
    /// ticks the groups he sets on the table, none he sealed.
    fn south_batch(&mut self, number: usize, size: usize) {
        assert!(
            self.h
                .query_by_label("Pass the laptop to South (Marcus)")
                .is_none()
        );
        let state = self.h.state().fog().battle.state().clone();
        let army = state.armies.south.clone().expect("South's army");
        let done = muster::fog::battle::deployed_bgs(&state, Side::South);
        let next: Vec<String> = (0..army.bgs.len())
            .filter(|bg| !done.contains(bg))
            .map(|bg| army.bgs[bg].name.clone())
            .filter(|name| !OFF_TABLE.contains(&name.as_str()))
            .take(size)
            .collect();
        for name in next {
            let label = label_of(&self.h, &format!("{name} ("), "within");
            self.click(&label);
        }
        self.main(&format!("Batch {number} deployed"));
    }
}

#[test]
fn a_new_battle_with_the_example_rosters_reaches_play_in_at_most_52_interactions() {
    let dir = tempfile::tempdir().unwrap();
    let mut w = Walk::new(dir.path());
    for (side, (roster, _)) in Side::BOTH.into_iter().zip(muster::fog::examples::ROSTERS) {
        w.click("Load example army");
        w.click(roster);
        w.click(WITHOUT_PASSPHRASE);
        w.main(&format!("Confirm {side}'s army"));
    }
    w.until_play(Secrets::None);
    println!("interactions to Play: {}", w.interactions);
    w.mains_in_one_place();
    // 51 until issue 32 counted the scroll a player needs to reach a button.
    assert!(w.interactions <= 52, "{} interactions", w.interactions);
}

/// South's passphrase in the first battle, and the hand-over PIN he
/// chooses beside it.
const SOUTH_PASS: &str = "walnut osprey bastion cider";
const SOUTH_PIN: &str = "5820";

/// North's army as a player pastes it from his notes.
const BRITONS: &str = "\
Player: Brigid
Army: Ancient British
C-in-C: Caratacus, Field Commander
Commander: Togodumnus, Troop Commander
Territories: Agricultural, Hilly, Woodlands
# bases, name, troop type, quality, drilled, may dismount
8, Catuvellauni warriors, warband, average, undrilled
8, Trinovantes warriors, warband, average, undrilled
8, Iceni warriors, warband, average, undrilled
8, Durotriges warriors, warband, poor, undrilled
8, Dobunni warriors, warband, average, undrilled
4, Noble chariots, light chariots, superior, undrilled, may dismount
4, Chariots of Cassivellaunus, light chariots, average, undrilled, may dismount
6, Slingers, light foot, average, undrilled
4, Horsemen, cavalry, average, undrilled
";

/// A real first battle (issue 25): South loads his army, North pastes his,
/// both set passphrases; South lays a real and a dummy ambush and sends a
/// flank march, both deploy, and they play until the march arrives and is
/// revealed. At most 100 interactions (issue 39's goal).
#[test]
fn a_real_first_battle_to_a_flank_marchs_arrival_in_at_most_100_interactions() {
    let dir = tempfile::tempdir().unwrap();
    // On a small laptop's screen.
    let w = first_battle(dir.path(), false, [1280.0, 720.0]);
    w.mains_in_one_place();
    // As newcomers play it (issue 32): a piece dragged and one turned in
    // placement, one slid in adjustment, the ambushes picked on the map.
    assert!(
        w.dragged && w.turned && w.slid,
        "dragged {}, turned {}, slid {}",
        w.dragged,
        w.turned,
        w.slid
    );
    println!("a real first battle: {} interactions", w.interactions);
    // 125 when issue 39 was filed; 114 with a proof at every private
    // screen, batches on the shared checklist, Enter ending a typed field;
    // then the proof typed on the hand-over screen itself, a piece left
    // where it lies without a roll, the sealed check made by itself, a
    // piece slid by taking it, and the walker no longer counting a scroll
    // for a widget in sight.
    assert!(w.interactions <= 100, "{} interactions", w.interactions);
}

/// The same battle with centimetres chosen: no step's window, private
/// screens included, says "MU" (lengths in cm only: the rules' MU are
/// converted, not repeated).
#[test]
fn with_centimetres_chosen_no_step_of_a_first_battle_speaks_mu() {
    let dir = tempfile::tempdir().unwrap();
    // On a desktop screen.
    let w = first_battle(dir.path(), true, [1920.0, 1080.0]);
    let log = w.h.state().fog().battle.log_lines();
    assert!(log.len() > 50, "the battle was played");
}

fn first_battle(dir: &std::path::Path, in_cm: bool, size: [f32; 2]) -> Walk {
    // The app's dice from a seed with which South's cover lands in his
    // ambush zone (with many, it lands out of reach and he lays no ambush)
    // and the march arrives in 13 turns, about the average wait (a roll of
    // 10 or more on 2d6 from his turn 2: one in six). WALK_SEED tries
    // another: over seeds 1 to 40 whose cover lands in reach, 84 to 131
    // interactions (2 to 33 turns of play), half of them 92 or fewer.
    let seed = std::env::var("WALK_SEED").map_or(27, |s| s.parse().unwrap());
    let mut w = Walk::seeded(dir, seed, size);
    w.by_hand = true;
    if in_cm {
        click(&mut w.h, "✔ Battle");
        click(&mut w.h, "25 mm");
        click(&mut w.h, "cm");
        click(&mut w.h, "Apply settings");
        w.in_cm = true;
        // The settings themselves, then on to the armies.
        click(&mut w.h, "✔ Battle");
        w.speaks_the_chosen_unit();
        click(&mut w.h, "Go to armies");
    }
    w.click("Load example army");
    w.click("Early Imperial Roman");
    w.set_passphrase(Side::South, "South (Marcus)", SOUTH_PASS);
    w.main("Confirm South's army");
    w.click("Import army list…");
    w.fill("Army list text", BRITONS);
    w.click("Import army");
    w.set_passphrase(Side::North, "North (Brigid)", "lantern quarry mizzen fog");
    w.main("Confirm North's army");
    let armies = w.interactions;
    w.until_play(Secrets::SouthAmbushesAndMarches);
    let setup = w.interactions;
    // Play until the march arrives: its roll comes first in each of
    // South's turns from the second; then he reveals it.
    let mut turns = 0;
    loop {
        let state = w.h.state().fog().battle.state().clone();
        if state.deployment.flank_marches[0].revealed.is_some() {
            break;
        }
        assert!(turns < 40, "no arrival in 20 turns each");
        w.speaks_the_chosen_unit();
        if w.h.query_by_label("Roll for South").is_some() {
            w.main("Roll for South");
        } else if w
            .h
            .query_by_label("Pass the laptop to South (Marcus)")
            .is_some()
        {
            // Arrived: his hand-over comes at once.
            w.prove("South (Marcus)", SOUTH_PASS, SOUTH_PIN);
            w.click("Reveal to both players");
        } else {
            let (turn, side) = muster::fog::battle::current_turn(&state).unwrap();
            w.enter(&format!("End {side}'s turn {turn}"));
            turns += 1;
        }
    }
    w.speaks_the_chosen_unit();
    println!(
        "interactions: armies {armies}, to play {}, play ({turns} turns) {}, total {}",
        setup - armies,
        w.interactions - setup,
        w.interactions
    );
    w
}
