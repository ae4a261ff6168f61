//! Example rosters shipped in `assets/rosters/`, compiled in so a new user
//! can try the whole sequence at once ("Load example army").

use crate::army::Army;
use crate::ruleset::Ruleset;
use crate::store::roster_from_json;

/// (title, roster JSON) of each shipped example.
pub const ROSTERS: [(&str, &str); 2] = [
    (
        "Early Imperial Roman",
        include_str!("../assets/rosters/early_imperial_roman.json"),
    ),
    (
        "Ancient British",
        include_str!("../assets/rosters/ancient_british.json"),
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
            assert!(a.validate(&r, crate::Side::South).is_ok());
        }
    }
}
