//! Example rosters shipped in `assets/rosters/`, compiled in so a new user
//! can try the whole sequence at once ("Load example army"), and an example
//! battle with its terrain laid, where deployment starts.

use crate::army::Army;
use crate::battle::Battle;
use crate::files::{battle_from_json, roster_from_json};
use crate::ruleset::Ruleset;

/// A battle saved at the end of terrain placement (made by
/// `muster script examples/scripts/placement.jsonl --save`): Romans (South,
/// initiative) against Britons in woodlands, with a river, two forests, a
/// large brush, a village and a road.
pub const TERRAIN_BATTLE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../..",
    "/assets/battles/terrain_laid.json"
));

/// South's passphrase in the example scripts and battle (published here,
/// so it protects nothing: it shows how a passphrase is used).
pub const EXAMPLE_PASSPHRASE: &str = "copper heron lantern thistle";

/// [`TERRAIN_BATTLE`], replayed and unlocked by South with the example
/// passphrase (North plays without one), ready to go on.
pub fn terrain_battle() -> Battle {
    let mut battle =
        battle_from_json(TERRAIN_BATTLE).expect("the shipped battle replays; tests check it");
    battle
        .unlock(muster_core::side::Side::South, EXAMPLE_PASSPHRASE)
        .expect("the example passphrase opens the shipped battle; tests check it");
    battle
}

/// [`terrain_battle`] taken through deployment by the example script
/// (`examples/scripts/deployment.jsonl`) up to play, before anything is
/// revealed: sealed ambushes, a flank march, every batch deployed.
pub fn deployed_battle() -> Battle {
    let mut battle = terrain_battle();
    let setup: String = DEPLOYMENT_SCRIPT
        .lines()
        .take_while(|l| !l.contains("\"end_turn\""))
        .map(|l| format!("{l}\n"))
        .collect();
    crate::script::run(&mut battle, setup.as_bytes(), std::io::sink())
        .expect("writing to a sink does not fail");
    battle
}

/// [`terrain_battle`] at South's ambushes (the example script's first
/// seven lines: camps, a fortification, North's ambushes done), with a
/// marker of South's for each of `picks` the rules allow: its content
/// (`kind`: one of his battle groups, or a dummy), its place among the
/// legal ones (`place`), and whether it goes instead to the legal place
/// nearest a piece of terrain's middle (`crowd`), so markers crowd a
/// piece and its name. Tests of what the table and the printout draw
/// use it for random set-ups. The battle, and how many markers it holds.
pub fn ambushes_battle(picks: &[(usize, usize, bool)]) -> (Battle, usize) {
    use crate::battle::{AmbushContent, AmbushMap, Profile, Verdict};
    let mut battle = terrain_battle();
    let setup: String = DEPLOYMENT_SCRIPT
        .lines()
        .take(7)
        .map(|l| format!("{l}\n"))
        .collect();
    crate::script::run(&mut battle, setup.as_bytes(), std::io::sink())
        .expect("writing to a sink does not fail");
    let side = muster_core::side::Side::South;
    let groups = battle.state().armies[side]
        .as_ref()
        .map_or(0, |army| army.bgs.len());
    let mut placed = 0;
    for &(kind, place, crowd) in picks {
        let content = match kind % (groups + 1) {
            bg if bg < groups => AmbushContent::Bg { bg },
            _ => AmbushContent::Dummy,
        };
        let state = battle.state();
        let Ok(profile) = Profile::of(state, battle.ruleset(), side, content) else {
            continue;
        };
        let legal: Vec<[f64; 2]> = AmbushMap::compute(state, battle.ruleset(), side, profile)
            .cells()
            .filter(|(_, v)| *v == Verdict::Legal)
            .map(|(at, _)| at)
            .collect();
        if legal.is_empty() {
            continue;
        }
        let pieces: Vec<[f64; 2]> = state
            .placement
            .standing()
            .map(|(_, laid)| [laid.pose.x, laid.pose.y])
            .collect();
        let near = (!pieces.is_empty()).then(|| pieces[kind % pieces.len()]);
        let at = match near {
            Some(n) if crowd => *legal
                .iter()
                .min_by(|a, b| {
                    let d = |p: &[f64; 2]| (p[0] - n[0]).hypot(p[1] - n[1]);
                    d(a).total_cmp(&d(b))
                })
                .expect("not empty"),
            _ => legal[place % legal.len()],
        };
        let content = match content {
            AmbushContent::Bg { bg } => format!(r#"{{"kind": "bg", "bg": {bg}}}"#),
            AmbushContent::Dummy => r#"{"kind": "dummy"}"#.to_string(),
        };
        let line = format!(
            r#"{{"cmd": "seal_ambush", "side": "south", "at": [{}, {}], "content": {content}, "passphrase": "{EXAMPLE_PASSPHRASE}"}}"#,
            at[0], at[1]
        );
        let mut out = Vec::new();
        crate::script::run(&mut battle, line.as_bytes(), &mut out)
            .expect("writing to memory does not fail");
        if String::from_utf8_lossy(&out).contains(r#""ok":true"#) {
            placed += 1;
        }
    }
    (battle, placed)
}

const DEPLOYMENT_SCRIPT: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../..",
    "/examples/scripts/deployment.jsonl"
));

/// (title, roster JSON) of each shipped example.
pub const ROSTERS: [(&str, &str); 2] = [
    (
        "Early Imperial Roman",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../..",
            "/assets/rosters/early_imperial_roman.json"
        )),
    ),
    (
        "Ancient British",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../..",
            "/assets/rosters/ancient_british.json"
        )),
    ),
];

/// The example army `index` of [`ROSTERS`].
pub fn army(index: usize, ruleset: &Ruleset) -> Army {
    roster_from_json(ROSTERS[index % ROSTERS.len()].1, ruleset)
        .expect("shipped rosters are checked by tests")
}

#[cfg(test)]
mod tests {
    #[test]
    fn shipped_rosters_load_and_validate() {
        let r = crate::ruleset::Ruleset::builtin();
        for i in 0..super::ROSTERS.len() {
            let a = super::army(i, &r);
            assert!(a.validate(&r, muster_core::side::Side::South).is_ok());
        }
    }

    #[test]
    fn the_shipped_battle_has_its_terrain_laid() {
        let b = super::terrain_battle();
        assert!(matches!(b.phase(), crate::battle::Phase::Deployment(_)));
        assert_eq!(b.state().placement.standing().count(), 5);
    }

    #[test]
    fn the_shipped_battle_is_what_the_placement_script_makes() {
        let script = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../..",
            "/examples/scripts/placement.jsonl"
        ));
        let mut b = crate::battle::Battle::new(crate::ruleset::Ruleset::builtin());
        crate::script::run(&mut b, script.as_bytes(), std::io::sink()).unwrap();
        // The same entries but for the lock's random salt and check value.
        let without_locks = |b: &super::Battle| -> Vec<crate::battle::Entry> {
            let mut log = b.log().to_vec();
            for entry in &mut log {
                if let crate::battle::Command::SetArmy { lock, .. } = &mut entry.command {
                    lock.take();
                }
                for event in &mut entry.events {
                    if let crate::battle::Event::ArmySet { lock, .. } = event {
                        lock.take();
                    }
                }
            }
            log
        };
        assert_eq!(without_locks(&b), without_locks(&super::terrain_battle()));
        assert!(super::terrain_battle().has_passphrase(muster_core::side::Side::South));
    }
}
