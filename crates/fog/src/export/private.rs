//! The owner's private page of the printout (DESIGN.md, "The printout"):
//! his sealed records opened with his passphrase, for his eyes only. It is
//! never part of the printout unless he asks for it with his passphrase.

use crate::battle::{AmbushContent, Battle, open_ambushes, open_marches};
use muster_core::error::RuleError;
use muster_core::side::Side;

/// What a player's private page says.
#[derive(Clone, Debug, PartialEq)]
pub struct PrivatePage {
    pub side: Side,
    pub lines: Vec<String>,
}

/// Opens `side`'s sealed records with his passphrase (or the key his own
/// screen worked out from it) and says what they are.
pub fn private_page<'a>(
    battle: &Battle,
    side: Side,
    opener: impl Into<muster_core::intel::Opener<'a>>,
) -> Result<PrivatePage, RuleError> {
    let key = battle.seal_key(side, opener)?;
    let state = battle.state();
    let army = state.armies[side]
        .as_ref()
        .ok_or_else(|| RuleError::new("8.3", format!("{side} has no army")))?;
    let bg = |i: usize| army.bgs.get(i).map_or("?", |g| g.name.as_str());
    let mut lines = Vec::new();
    for (i, content) in open_ambushes(state, side, &key)? {
        let a = &state.deployment.ambushes[i];
        let what = match content {
            AmbushContent::Dummy => "a dummy".to_string(),
            AmbushContent::Bg { bg: b } => bg(b).to_string(),
        };
        lines.push(format!(
            "Ambush {}{} at {}, sealed {}: {what}",
            &side.name()[..1],
            crate::battle::marker_number(state, i),
            state.settings.point(a.at),
            a.sealed.code()
        ));
    }
    for (i, opened) in open_marches(state, side, &key)? {
        let plan = &opened.secret;
        let m = &state.deployment.flank_marches[i];
        let names: Vec<&str> = plan.bgs.iter().map(|b| bg(*b)).collect();
        let leader = army
            .commanders
            .get(plan.commander)
            .map_or("?", |c| c.name.as_str());
        lines.push(format!(
            "Flank march {}, sealed {}: {}, led by {leader}, {} flank, arrival modifier {:+}",
            crate::battle::march_number(state, i),
            m.sealed.code(),
            names.join(", "),
            plan.flank.name(),
            // A sealed modifier is his to read here: from the contents.
            m.modifier.unwrap_or_else(|| {
                crate::battle::arrival_modifiers(battle.ruleset(), army, plan)
                    .iter()
                    .map(|m| m.value)
                    .sum()
            })
        ));
    }
    if lines.is_empty() {
        lines.push("No sealed records.".into());
    }
    Ok(PrivatePage { side, lines })
}
