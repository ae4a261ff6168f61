//! A player's flank marches (RULES 8.4) as a private screen: the marches
//! he sealed, opened with his key, and the form of a new one (its battle
//! groups, the commander leading it, the flank) with its arrival modifier
//! worked out as he chooses. Built only from his own sealed records;
//! `answer_flank_march` seals what he sent, so the command carries only
//! the sealed record and its commitment.

mod ambush;
mod form;
mod reveal;

pub use ambush::{ambushes, answer_ambush, colour_key, content_name, pieces};
pub use form::{Form, Reply, Screen, SecretAct, SecretField};
pub use reveal::{Reveal, answer_reveal, reveal};

use crate::battle::{
    Battle, Command, DeploymentTurn, Flank, FlankMarchPlan, Phase, arrival_modifiers, deployed_bgs,
    march_number, open_marches, seal_march, sealed_bgs,
};
use muster_core::error::RuleError;
use muster_core::intel::SealKey;
use muster_core::screen::{Block, Choice, Input, first};
use muster_core::side::Side;
use std::collections::BTreeSet;

type Action = muster_core::screen::Action<SecretAct>;
type Field = muster_core::screen::Field<SecretField>;

const FLANKS: [(Flank, &str); 2] = [(Flank::Left, "Left flank"), (Flank::Right, "Right flank")];

/// The march the form describes now.
fn plan(values: &Form) -> FlankMarchPlan {
    FlankMarchPlan {
        bgs: values
            .get(&SecretField::Bgs)
            .into_iter()
            .flatten()
            .filter_map(|b| b.parse().ok())
            .collect::<BTreeSet<usize>>()
            .into_iter()
            .collect(),
        commander: first(values, SecretField::Commander)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0),
        flank: first(values, SecretField::Flank)
            .and_then(|f| FLANKS.iter().find(|(_, l)| *l == f))
            .map_or(Flank::Left, |(f, _)| *f),
    }
}

/// `side`'s flank marches, with the new march's form as `values` has it,
/// and how many of his battle groups are off the table (in his ambushes
/// and his marches), which he declares when he is done. His records are
/// opened once for both.
pub fn flank_marches(
    battle: &Battle,
    side: Side,
    key: &SealKey,
    values: &Form,
) -> Result<(Screen, usize), RuleError> {
    let state = battle.state();
    let army = state.armies[side]
        .as_ref()
        .ok_or_else(|| RuleError::new("8.4", format!("{side} has no army yet")))?;
    let mut blocks = Vec::new();
    let hidden = sealed_bgs(state, side, key)?;
    for (i, m) in open_marches(state, side, key)? {
        let plan = &m.secret;
        let names: Vec<&str> = plan
            .bgs
            .iter()
            .filter_map(|b| army.bgs.get(*b))
            .map(|g| g.name.as_str())
            .collect();
        blocks.push(Block::Text {
            text: format!(
                "March {}: {} on the {} flank, led by {}",
                march_number(state, i),
                names.join(", "),
                plan.flank.name(),
                army.commanders
                    .get(plan.commander)
                    .map_or("?", |c| c.name.as_str())
            ),
        });
    }
    if army.commanders.is_empty() {
        blocks.push(Block::Text {
            text: "This army has no commander besides the C-in-C to lead a flank march.".into(),
        });
    } else {
        let plan = plan(values);
        let commander = plan.commander.min(army.commanders.len() - 1);
        blocks.push(Block::Form {
            fields: vec![
                Field {
                    name: SecretField::Bgs,
                    label: "A new march: tick its battle groups.".into(),
                    input: Input::Choice {
                        options: army
                            .bgs
                            .iter()
                            .enumerate()
                            .filter(|(bg, _)| !hidden.contains(bg))
                            .map(|(bg, g)| Choice {
                                value: bg.to_string(),
                                label: format!("{} marches", g.name),
                            })
                            .collect(),
                        many: true,
                        selected: plan.bgs.iter().map(usize::to_string).collect(),
                        resets: Vec::new(),
                    },
                },
                Field {
                    name: SecretField::Commander,
                    label: "Led by".into(),
                    input: Input::Choice {
                        options: army
                            .commanders
                            .iter()
                            .enumerate()
                            .map(|(i, c)| Choice {
                                value: i.to_string(),
                                label: format!("{} ({})", c.name, c.quality.name()),
                            })
                            .collect(),
                        many: false,
                        selected: vec![commander.to_string()],
                        resets: Vec::new(),
                    },
                },
                Field {
                    name: SecretField::Flank,
                    label: String::new(),
                    input: Input::Choice {
                        options: FLANKS
                            .iter()
                            .map(|(_, l)| Choice {
                                value: (*l).into(),
                                label: (*l).into(),
                            })
                            .collect(),
                        many: false,
                        selected: FLANKS
                            .iter()
                            .filter(|(f, _)| *f == plan.flank)
                            .map(|(_, l)| (*l).into())
                            .collect(),
                        resets: Vec::new(),
                    },
                },
            ],
            actions: Vec::new(),
        });
        let mods = arrival_modifiers(battle.ruleset(), army, &plan);
        let total: i32 = mods.iter().map(|m| m.value).sum();
        let why: Vec<String> = mods
            .iter()
            .map(|m| format!("{:+} {}", m.value, m.reason))
            .collect();
        blocks.push(Block::Text {
            text: format!(
                "Arrival modifier {total:+}{}",
                if why.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", why.join(", "))
                }
            ),
        });
        let mut seal = Action::new("Seal flank march", SecretAct::SealMarch).hint(
            "Encrypts the march under your key and logs only its commitment code: your opponent learns that a march exists, not what it is",
        );
        if plan.bgs.is_empty() {
            seal.refused = Some("Tick the march's battle groups first".into());
        }
        blocks.push(Block::Actions {
            actions: vec![seal],
        });
    }
    blocks.push(Block::Text {
        text: format!(
            "{} off the table (in ambush or marching); both players will see that number.",
            match hidden.len() {
                1 => "1 of your battle groups stays".to_string(),
                n => format!("{n} of your battle groups stay"),
            }
        ),
    });
    let screen = Screen {
        title: format!("{side}: your flank marches (private)"),
        blocks,
    };
    Ok((screen, hidden.len()))
}

/// `side`'s check at the end of deployment (RULES 8.3-8.5): any battle
/// group he sealed off the table that he also deployed, for his eyes only.
pub fn deployment_check(battle: &Battle, side: Side, key: &SealKey) -> Result<Screen, RuleError> {
    let found = crate::battle::misplaced_bgs(battle.state(), side, key)?;
    let blocks = if found.is_empty() {
        vec![Block::Text {
            text: "✔ None of the battle groups you sealed off the table is also on it.".into(),
        }]
    } else {
        found
            .into_iter()
            .map(|line| Block::Strong {
                text: format!("⚠ {line}"),
            })
            .collect()
    };
    Ok(Screen {
        title: format!("{side}: my sealed battle groups"),
        blocks,
    })
}

/// The batch `side` is to deploy now, if it is his (RULES 8.5): its
/// number and size.
fn his_batch(battle: &Battle, side: Side) -> Option<(usize, usize)> {
    match battle.phase() {
        Phase::Deployment(DeploymentTurn::Batch {
            side: s,
            number,
            size,
        }) if s == side => Some((number, size)),
        _ => None,
    }
}

/// The battle groups `side` may deploy in his batch, in roster order:
/// those not deployed yet, his sealed ones left out; and the ones ticked
/// (the next `size` of them until he ticks others). Its field is its own
/// ("batch"): what the flank-march form left in "bgs" is not a batch.
fn batch_choice(
    battle: &Battle,
    side: Side,
    key: &SealKey,
    values: &Form,
    size: usize,
) -> Result<(Vec<usize>, Vec<usize>), RuleError> {
    let state = battle.state();
    let army = state.armies[side]
        .as_ref()
        .ok_or_else(|| RuleError::new("8.5", format!("{side} has no army yet")))?;
    let sealed = sealed_bgs(state, side, key)?;
    let done = deployed_bgs(state, side);
    let open: Vec<usize> = (0..army.bgs.len())
        .filter(|bg| !done.contains(bg) && !sealed.contains(bg))
        .collect();
    let ticked = match values.get(&SecretField::Batch) {
        Some(ticked) => ticked.iter().filter_map(|b| b.parse().ok()).collect(),
        None => open.iter().copied().take(size).collect(),
    };
    Ok((open, ticked))
}

/// `side`'s deployment batch on his own screen (RULES 8.5): only he knows
/// which of his battle groups are in ambush or on a flank march, so only
/// his screen can offer the others, and it never offers a sealed one.
pub fn batch(
    battle: &Battle,
    side: Side,
    key: &SealKey,
    values: &Form,
) -> Result<Screen, RuleError> {
    let (number, size) = his_batch(battle, side)
        .ok_or_else(|| RuleError::new("8.5", format!("it is not {side}'s batch now")))?;
    let (open, ticked) = batch_choice(battle, side, key, values, size)?;
    let army = battle.state().armies[side].as_ref().expect("checked above");
    let ruleset = battle.ruleset();
    let mut blocks = vec![Block::Strong {
        text: format!(
            "Batch {number}: deploy {size} battle group{} and tick them here",
            if size == 1 { "" } else { "s" }
        ),
    }];
    blocks.push(Block::Text {
        text: "Your battle groups in ambush or on a flank march are not offered: they stay off the table.".into(),
    });
    let command = Command::DeployBatch {
        side,
        bgs: ticked.clone(),
    };
    if let Err(e) = battle.check(&command) {
        blocks.push(Block::Refusal {
            text: battle.state().settings.speak(&e.to_string()),
        });
    }
    blocks.push(Block::Form {
        fields: vec![Field {
            name: SecretField::Batch,
            label: format!("Deployed in batch {number}"),
            input: Input::Choice {
                options: open
                    .iter()
                    .map(|bg| {
                        let group = &army.bgs[*bg];
                        Choice {
                            value: bg.to_string(),
                            label: format!(
                                "{} ({})",
                                group.name,
                                ruleset.troop_name(&group.troop_type)
                            ),
                        }
                    })
                    .collect(),
                many: true,
                selected: ticked.iter().map(usize::to_string).collect(),
                resets: Vec::new(),
            },
        }],
        actions: vec![Action::new(
            format!("Batch {number} deployed"),
            SecretAct::DeployBatch,
        )],
    });
    Ok(Screen {
        title: format!("{side}: my deployment"),
        blocks,
    })
}

/// The batch `side` ticked on his screen, or why not: a sealed battle
/// group is refused there, named to him alone.
pub fn answer_batch(
    battle: &Battle,
    side: Side,
    key: &SealKey,
    reply: &Reply,
) -> Result<Command, RuleError> {
    let (_, size) = his_batch(battle, side)
        .ok_or_else(|| RuleError::new("8.5", format!("it is not {side}'s batch now")))?;
    let (open, ticked) = batch_choice(battle, side, key, &reply.values, size)?;
    if let Some(bg) = ticked.iter().find(|bg| !open.contains(bg)) {
        let name = battle.state().armies[side]
            .as_ref()
            .and_then(|a| a.bgs.get(*bg))
            .map_or_else(|| format!("battle group {}", bg + 1), |g| g.name.clone());
        return Err(RuleError::new(
            "8.5",
            format!(
                "{name} is not yours to deploy now: it is deployed already, or off the table in an ambush or on a flank march"
            ),
        ));
    }
    Ok(Command::DeployBatch { side, bgs: ticked })
}

/// The sealed march `side` sent, or the rule that refuses it; with
/// `sealed_modifier` (he keeps it on his phone) its arrival modifier is
/// sealed with it (RULES 10, players' screens ruling).
pub fn answer_flank_march(
    battle: &Battle,
    side: Side,
    key: &SealKey,
    reply: &Reply,
    sealed_modifier: bool,
) -> Result<Command, RuleError> {
    seal_march(
        battle.state(),
        battle.ruleset(),
        side,
        &plan(&reply.values),
        key,
        sealed_modifier,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::flank_march_tests::at_south_flank_marches;
    use muster_core::screen::form;

    const SOUTH: &SealKey = &SealKey::from_bytes([7; 32]);
    const NORTH: &SealKey = &SealKey::from_bytes([9; 32]);

    /// South seals a march from his screen; North's screen (his own key),
    /// serialised, names none of the battle groups marching; South's own
    /// screen lists the march and the battle groups off the table.
    #[test]
    fn a_march_sealed_from_the_screen_is_not_on_the_other_screen() {
        let mut b = at_south_flank_marches();
        let form = form(&[
            (SecretField::Bgs, &["7", "8"]),
            (SecretField::Flank, &["Right flank"]),
        ]);
        let (screen, _) = flank_marches(&b, Side::South, SOUTH, &form).unwrap();
        assert!(
            screen
                .texts()
                .iter()
                .any(|t| t.starts_with("Arrival modifier"))
        );
        let reply = Reply {
            command: SecretAct::SealMarch,
            values: form,
        };
        let command = answer_flank_march(&b, Side::South, SOUTH, &reply, false).unwrap();
        b.apply(command).unwrap();
        let army = b.state().armies[Side::South].as_ref().unwrap();
        let marching = [&army.bgs[7].name, &army.bgs[8].name];
        let (north, _) = flank_marches(&b, Side::North, NORTH, &Form::new()).unwrap();
        let north = serde_json::to_string(&north).unwrap();
        for name in marching {
            assert!(!north.contains(name.as_str()), "{name} on North's screen");
        }
        let (south, off_table) = flank_marches(&b, Side::South, SOUTH, &Form::new()).unwrap();
        let march = south
            .texts()
            .into_iter()
            .find(|t| t.starts_with("March 1"))
            .unwrap();
        assert!(
            march.contains(marching[0].as_str()) && march.contains("right flank"),
            "{march}"
        );
        assert_eq!(
            off_table, 3,
            "the ambush's battle group and the two marching"
        );
    }

    /// Nothing deployed yet: the owner's check says none of his sealed
    /// battle groups is on the table; the opponent's key opens nothing.
    #[test]
    fn the_deployment_check_is_the_owners_alone() {
        let b = at_south_flank_marches();
        let own = deployment_check(&b, Side::South, SOUTH).unwrap();
        assert!(
            own.texts()
                .iter()
                .any(|t| t.contains("None of the battle groups"))
        );
        assert!(deployment_check(&b, Side::South, NORTH).is_err());
    }

    /// An empty march is refused with the reason on the button, and a
    /// forged action is refused in words.
    #[test]
    fn an_empty_or_forged_march_is_refused() {
        let b = at_south_flank_marches();
        let (screen, _) = flank_marches(&b, Side::South, SOUTH, &Form::new()).unwrap();
        let refused = screen.blocks.iter().find_map(|block| match block {
            Block::Actions { actions } => actions[0].refused.clone(),
            _ => None,
        });
        assert!(refused.is_some_and(|r| r.contains("Tick")));
        let forged = r#"{"command":{"cmd":"finish_flank_marches","side":"south","off_table":0}}"#;
        assert!(muster_core::screen::read::<Reply>(forged).is_err());
    }
}
