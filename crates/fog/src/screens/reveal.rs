//! Revealing a sealed record in play (RULES 8.3, 10) as its owner's private
//! screen: an arrived flank march, with the straggling dice rolled by the
//! app or typed as rolled on the table (each battle group's checked as it
//! is typed), or an ambush marker with the reason it is revealed. The
//! record is opened with his key only; the reveal is offered only once the
//! rules would take it, and refused with the rule otherwise.

use super::{Form, Screen, SecretAct, SecretField};
use crate::battle::{
    Battle, Command, RevealReason, march_number, marker_number, open_marches, reveal_ambush,
    reveal_plan,
};
use muster_core::dice::{DiceInput, parse_typed};
use muster_core::error::RuleError;
use muster_core::intel::SealKey;
use muster_core::screen::{self, Block, Choice, Input};
use muster_core::side::Side;

type Action = screen::Action<SecretAct>;
type Field = screen::Field<SecretField>;

/// The sealed record its owner opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reveal {
    /// An arrived flank march, by its index among all marches.
    March(usize),
    /// An ambush marker, by its index, and why it is revealed.
    Ambush(usize, RevealReason),
}

const ON_THE_TABLE: &str = "Type the straggling dice rolled on the table";

fn typed_text(values: &Form, name: SecretField) -> String {
    screen::first(values, name).unwrap_or_default().to_string()
}

/// The straggling dice of `bgs` as the form has them: the app's, or those
/// typed, each parsed; with the fields to draw.
fn straggling(
    battle: &Battle,
    owner: Side,
    bgs: &[usize],
    values: &Form,
) -> (Vec<Field>, Result<Vec<DiceInput>, String>) {
    let typed = values
        .get(&SecretField::Typed)
        .is_some_and(|v| !v.is_empty());
    let mut fields = vec![Field {
        name: SecretField::Typed,
        label: String::new(),
        input: Input::Choice {
            options: vec![Choice {
                value: "yes".into(),
                label: ON_THE_TABLE.into(),
            }],
            many: true,
            selected: if typed { vec!["yes".into()] } else { vec![] },
            resets: vec![],
        },
    }];
    if !typed {
        return (fields, Ok(vec![DiceInput::app(); bgs.len()]));
    }
    let army = battle.state().armies[owner].as_ref();
    let mut dice = Vec::new();
    let mut missing = None;
    for bg in bgs {
        let name = army
            .and_then(|a| a.bgs.get(*bg))
            .map_or("?".to_string(), |b| b.name.clone());
        let text = typed_text(values, SecretField::Dice(*bg));
        let parsed = parse_typed(&text);
        let problem = match parsed {
            Ok(d) => {
                dice.push(DiceInput::Typed(d));
                None
            }
            Err(e) => {
                let why = format!("{name}: {e}");
                missing.get_or_insert(why.clone());
                // An empty field is not yet a mistake.
                (!text.trim().is_empty()).then_some(why)
            }
        };
        fields.push(Field {
            name: SecretField::Dice(*bg),
            label: format!("{name}'s straggling dice"),
            input: Input::Text {
                hint: "e.g. 3 5".into(),
                value: text,
                problem,
            },
        });
    }
    (fields, missing.map_or(Ok(dice), Err))
}

/// The reveal's command as the form has it now, checked by the rules, and
/// the form's fields and what it says of the record.
fn command(
    battle: &Battle,
    owner: Side,
    reveal: Reveal,
    key: &SealKey,
    values: &Form,
) -> (String, Vec<Field>, Result<Command, RuleError>) {
    let state = battle.state();
    match reveal {
        Reveal::March(m) => {
            let Some(march) = state.deployment.flank_marches.get(m) else {
                let e = RuleError::new("10", format!("No flank march {}", m + 1));
                return (String::new(), Vec::new(), Err(e));
            };
            // What brought it: the roll that arrived, in the owner's turn.
            let roll = march.rolls.last().map_or(String::new(), |(turn, roll)| {
                format!(" in your turn {turn} (arrival roll {})", roll.describe())
            });
            let what = format!(
                "Your flank march {} has arrived{roll}. Revealing it ({}).",
                march_number(state, m),
                march.sealed.code()
            );
            let bgs = open_marches(state, owner, key)
                .unwrap_or_default()
                .into_iter()
                .find(|(i, _)| *i == m)
                .map_or(Vec::new(), |(_, r)| r.secret.bgs);
            let (fields, dice) = straggling(battle, owner, &bgs, values);
            let command = dice
                .map_err(|why| RuleError::new("10", why))
                .and_then(|dice| reveal_plan(state, owner, m, key, dice));
            (what, fields, command)
        }
        Reveal::Ambush(marker, reason) => {
            let Some(a) = state.deployment.ambushes.get(marker) else {
                let e = RuleError::new("8.3", format!("No ambush marker {}", marker + 1));
                return (String::new(), Vec::new(), Err(e));
            };
            let what = format!(
                "Revealing ambush marker {}{} at {} ({}), because {}.",
                &owner.name()[..1],
                marker_number(state, marker),
                state.settings.point(a.at),
                a.sealed.code(),
                reason.text()
            );
            let command = reveal_ambush(state, owner, marker, key, reason);
            (what, Vec::new(), command)
        }
    }
}

/// The owner's screen for `reveal`, his straggling dice as `values` has
/// them. The reveal is offered once the rules take it (a typed 7 is
/// refused here, with the rule, not after he hands the screen back).
pub fn reveal(
    battle: &Battle,
    owner: Side,
    reveal: Reveal,
    key: &SealKey,
    values: &Form,
) -> Screen {
    let (what, fields, command) = command(battle, owner, reveal, key, values);
    let checked = command.and_then(|c| battle.check(&c).map(|_| c));
    let mut go = Action::new("Reveal to both players", SecretAct::Reveal).hint(
        "Opens the sealed record for both players; Muster checks it against its commitment code",
    );
    let mut blocks = vec![Block::Text { text: what }];
    if let Err(e) = &checked {
        go.refused = Some(e.to_string());
    }
    // An arrived march is revealed before anything else (RULES 10): there
    // is nothing to cancel; an ambush's reveal is its owner's choice.
    let mut actions = vec![go];
    if !matches!(reveal, Reveal::March(_)) {
        actions.push(Action::new("Cancel", SecretAct::CancelReveal));
    }
    blocks.push(Block::Form { fields, actions });
    if let Err(e) = checked {
        blocks.push(Block::Refusal {
            text: format!("✖ {}", battle.state().settings.speak(&e.to_string())),
        });
    }
    Screen {
        title: format!("{owner}: reveal a sealed record"),
        blocks,
    }
}

/// His answer to *Reveal*: the reveal's command, checked by the rules.
pub fn answer_reveal(
    battle: &Battle,
    owner: Side,
    reveal: Reveal,
    key: &SealKey,
    values: &Form,
) -> Result<Command, RuleError> {
    let (_, _, command) = command(battle, owner, reveal, key, values);
    let command = command?;
    battle.check(&command)?;
    Ok(command)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::flank_march_tests::march_arrived;
    use crate::screens::Reply;

    fn refusal(screen: &Screen) -> Option<&str> {
        screen.blocks.iter().find_map(|b| match b {
            Block::Refusal { text } => Some(text.as_str()),
            _ => None,
        })
    }

    /// South reveals his arrived march from his screen: typed dice are
    /// checked as typed (a 7 refused with rule 10), the reveal is offered
    /// only once the rules take it, and a screen built with another key
    /// names none of the march's battle groups.
    #[test]
    fn the_owner_reveals_his_march_with_typed_dice_checked_as_typed() {
        let (b, south) = march_arrived();
        let s = Side::South;
        let march = Reveal::March(0);
        let mut values = Form::new();
        let app = answer_reveal(&b, s, march, south, &values).unwrap();
        assert!(matches!(app, Command::RevealFlankMarch { .. }));
        values.insert(SecretField::Typed, vec!["yes".into()]);
        let screen = reveal(&b, s, march, south, &values);
        let texts = screen.texts().join("\n");
        assert!(texts.contains("Ala Petriana's straggling dice"), "{texts}");
        assert!(refusal(&screen).is_some(), "no reveal before the dice");
        let fields = values_of(&screen);
        values.insert(fields[0], vec!["7 3".into()]);
        values.insert(fields[1], vec!["5 4".into()]);
        let screen = reveal(&b, s, march, south, &values);
        let why = refusal(&screen).unwrap();
        assert!(why.contains("a die shows 1 to 6"), "{why}");
        assert!(answer_reveal(&b, s, march, south, &values).is_err());
        values.insert(fields[0], vec!["4 2".into()]);
        assert_eq!(refusal(&reveal(&b, s, march, south, &values)), None);
        let typed = answer_reveal(&b, s, march, south, &values).unwrap();
        let Command::RevealFlankMarch { straggling, .. } = typed else {
            panic!("{typed:?}");
        };
        assert!(straggling.iter().all(|d| matches!(d, DiceInput::Typed(_))));
        // A march's reveal is due: no Cancel is offered.
        let json = serde_json::to_string(&reveal(&b, s, march, south, &values)).unwrap();
        assert!(!json.contains("\"Cancel\""), "{json}");
        // Another key opens nothing: no battle group of the march is named.
        let other = SealKey::from_bytes([9; 32]);
        let json = serde_json::to_string(&reveal(&b, s, march, &other, &values)).unwrap();
        assert!(
            !json.contains("Ala Petriana") && !json.contains("Ala Indiana"),
            "{json}"
        );
        let forged = r#"{"command":{"reveal":"everything"}}"#;
        assert!(muster_core::screen::read::<Reply>(forged).is_err());
    }

    /// The typed dice fields' names, in order.
    fn values_of(screen: &Screen) -> Vec<SecretField> {
        screen
            .blocks
            .iter()
            .flat_map(|b| match b {
                Block::Form { fields, .. } => fields.clone(),
                _ => Vec::new(),
            })
            .filter(|f| matches!(f.input, Input::Text { .. }))
            .map(|f| f.name)
            .collect()
    }
}
