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
