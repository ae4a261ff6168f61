//! A player's private screen (RULES-deck 2, 6-7) as data: his hand with
//! the plays the rules allow him now, the interrupt question when it is
//! put to him, his next redraw's exact odds, his discard pile and removed
//! box. Built from his own zones only, so it can go to his own device as
//! it is; the other player's cards are not in it to hide.

use super::cards::{Card, Kind};
use super::game::{Command, Game, Pick};
use super::phase::PhaseName;
use super::turn::{Destination, Stage, Turn, Use};
use muster_core::screen::{self, Bar, Block, Choice, Input};
use muster_core::side::Side;
use muster_core::text::count;
use serde::{Deserialize, Serialize};

/// What a button of a hand answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandAct {
    /// A command of the rules, offered as it is (the seat takes only what
    /// his screen offers him now, so it is always his own to make).
    Play(Command),
    /// Remove the ticked cards for a broken unit: the seat turns it into
    /// `Command::UnitBreaks` with the cards of `HandField::Broken`.
    UnitBreaks,
}

/// The fields of a hand's forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandField {
    /// The cards a broken unit removes, ticked by their place in his hand
    /// (two copies of a card are two ticks).
    Broken,
}

/// A hand, as its player's screen.
pub type Screen = screen::Screen<HandAct, HandField>;
/// What he entered in its form.
pub type Form = screen::Form<HandField>;
type Action = screen::Action<HandAct>;
type Field = screen::Field<HandField>;

/// A button playing `command`.
fn play(label: impl Into<String>, command: Command) -> Action {
    Action::new(label, HandAct::Play(command))
}

/// Each distinct card of a zone once, with how many.
fn grouped(ids: &[String]) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for id in ids {
        match out.last_mut() {
            Some((last, n)) if last == id => *n += 1,
            _ => out.push((id.clone(), 1)),
        }
    }
    out
}

/// When the game ended, in turns: a turn the ending left untouched (the
/// last one ended and the next began on its own) is not counted.
pub fn over_after(game: &Game, turn: &Turn) -> String {
    turn.over_after(&game.set().phases)
}

/// A card in one line: its laurels, flags, kind and trash symbol.
fn card_line(card: &Card, copies: usize) -> String {
    let kind = match (card.kind, card.phase) {
        (Kind::Event, _) => "event".to_string(),
        (Kind::Interrupt, Some(letter)) => {
            format!("interrupt in the {} phase ({letter})", letter.phase_name())
        }
        _ => "no text play".to_string(),
    };
    // The rulebook's trash-can symbol, in words: a glyph a phone may not
    // have, and one a newcomer cannot read.
    let trash = if card.trash {
        ", removed when played for its text"
    } else {
        ""
    };
    let times = if copies > 1 {
        format!(" ×{copies}")
    } else {
        String::new()
    };
    format!(
        "{}{times}: {}, {}, {kind}{trash}",
        card.title,
        count(card.laurels, "laurel", "laurels"),
        count(card.rally, "flag", "flags")
    )
}

/// What `side` may do with a card from his hand now.
fn plays(game: &Game, turn: &Turn, side: Side, card: &Card) -> Vec<Action> {
    let phase = game.set().phases[turn.phase];
    let active = side == turn.active;
    let id = || card.id.clone();
    let mut out = Vec::new();
    match turn.stage {
        Stage::Events if active && !turn.event_played && card.kind == Kind::Event => {
            out.push(play(
                format!("Play {} as the event", card.title),
                Command::PlayEvent {
                    player: side,
                    card: id(),
                },
            ));
        }
        Stage::AskingInterrupt
            if !active && card.kind == Kind::Interrupt && card.phase == phase.letter() =>
        {
            out.push(play(
                format!("Interrupt with {}", card.title),
                Command::Interrupt {
                    player: side,
                    card: Some(id()),
                },
            ));
        }
        Stage::Playing => {
            // A card without flags rallies nobody: not offered for rally.
            let worth = |use_: Use| use_ != Use::Rally || card.rally > 0;
            for (label, use_, to) in uses(turn, side, phase)
                .into_iter()
                .filter(|(_, u, _)| worth(*u))
            {
                out.push(play(
                    format!("Play {} for {label}", card.title),
                    Command::Play {
                        player: side,
                        card: Pick::Hand(id()),
                        use_,
                        to,
                    },
                ));
            }
        }
        Stage::Fatigue if active => out.push(play(
            format!("Remove {} (fatigue)", card.title),
            Command::Fatigue { card: Some(id()) },
        )),
        _ => {}
    }
    out
}

/// A broken unit's cards (RULES-deck 5), one form under the hand: the
/// cards ticked, one button (issue 39: a red button on every card, seven
/// times, was most of what a waiting phone showed).
fn broken_unit(game: &Game, hand: &[String], values: &Form) -> Block<HandAct, HandField> {
    // Copies of a card are told apart by number: "Sudden Halt 2".
    let options = hand
        .iter()
        .enumerate()
        .filter_map(|(i, id)| {
            let title = game.set().card(id)?.title.clone();
            let copies = hand.iter().filter(|c| *c == id).count();
            let nth = hand[..i].iter().filter(|c| *c == id).count() + 1;
            Some(Choice {
                value: i.to_string(),
                label: if copies > 1 {
                    format!("{title} {nth}")
                } else {
                    title
                },
            })
        })
        .collect();
    Block::Form {
        fields: vec![Field {
            name: HandField::Broken,
            label: "A unit of yours broke? Tick the cards the rules remove".into(),
            input: Input::Choice {
                options,
                many: true,
                selected: values.get(&HandField::Broken).cloned().unwrap_or_default(),
                resets: Vec::new(),
            },
        }],
        actions: vec![
            Action::new(
                "Remove the ticked cards for a broken unit",
                HandAct::UnitBreaks,
            )
            .confirm(
                "Remove the ticked cards from the game for a broken unit? It cannot be taken back.",
            ),
        ],
    }
}

/// The cards `values` ticks in `side`'s hand for a broken unit, or why
/// none may be removed.
pub fn broken_cards(game: &Game, side: Side, values: &Form) -> Result<Vec<String>, String> {
    let hand = game
        .zones(side)
        .map(|z| z.hand.clone())
        .ok_or("Your cards are sealed")?;
    let ticked = values.get(&HandField::Broken).cloned().unwrap_or_default();
    if ticked.is_empty() {
        return Err("Tick the cards the rules remove for the broken unit first".into());
    }
    let mut places: Vec<usize> = Vec::new();
    for t in &ticked {
        let place = t
            .parse::<usize>()
            .ok()
            .filter(|p| *p < hand.len() && !places.contains(p))
            .ok_or_else(|| format!("\"{t}\" is not a card of your hand"))?;
        places.push(place);
    }
    Ok(places.into_iter().map(|p| hand[p].clone()).collect())
}

/// Whether the rules let the passive player play cards for value in the
/// phase under way (laurels in shooting and combat): what his hand holds
/// does not matter, so a front end may keep his screen open on this
/// without telling the table anything of his cards.
pub fn passive_plays(game: &Game, turn: &Turn) -> bool {
    let phase = game.set().phases[turn.phase];
    !uses(turn, turn.passive(), phase).is_empty()
}

/// The plays for value `side` may make in the phase under way.
pub(crate) fn uses(
    turn: &Turn,
    side: Side,
    phase: PhaseName,
) -> Vec<(&'static str, Use, Option<Destination>)> {
    let active = side == turn.active;
    match phase {
        PhaseName::Rally if active => vec![("rally", Use::Rally, None)],
        PhaseName::Movement if active => vec![("laurels", Use::Laurels, None)],
        PhaseName::Shooting | PhaseName::Combat => vec![
            (
                "laurels, then discard",
                Use::Laurels,
                Some(Destination::Discard),
            ),
            (
                "laurels, then remove",
                Use::Laurels,
                Some(Destination::Remove),
            ),
        ],
        _ => Vec::new(),
    }
}

/// What the turn asks of `side` apart from his cards: the interrupt
/// question, a draw from the deck for value, fatigue with an empty hand.
/// The active player's choices of the turn as it stands (RULES-deck 6):
/// end the phase, play or skip the declared one, end the turn.
/// The same choices the table offers; his phone offers them too, so he
/// runs his turn from his hand.
pub fn stage_actions(game: &Game, turn: &Turn) -> Vec<Action> {
    let phase = game.set().phases[turn.phase];
    let next = game.set().phases.get(turn.phase + 1).copied();
    match turn.stage {
        // The next phase, when it is declared, is declared with the end of
        // this one: one click, as one breath at the table.
        Stage::Events | Stage::Playing
            if next.is_some_and(|n| Turn::opening_stage(n) == Stage::Declaring) =>
        {
            let next = next.expect("checked");
            vec![
                play(
                    format!("End the {phase} phase, play the {next} phase"),
                    Command::EndPhaseThen { plays: true },
                ),
                play(
                    format!("End the {phase} phase, skip the {next} phase"),
                    Command::EndPhaseThen { plays: false },
                ),
            ]
        }
        Stage::Events | Stage::Playing => {
            vec![play(format!("End the {phase} phase"), Command::EndPhase)]
        }
        Stage::Declaring => vec![
            play(
                format!("Play the {phase} phase"),
                Command::Declare { plays: true },
            ),
            play(
                format!("Skip the {phase} phase"),
                Command::Declare { plays: false },
            ),
        ],
        Stage::Ending => vec![play(format!("End turn {}", turn.number), Command::EndTurn)],
        Stage::AskingInterrupt | Stage::Redraw | Stage::Fatigue => Vec::new(),
    }
}

fn turn_actions(
    game: &Game,
    turn: &Turn,
    side: Side,
    hand_empty: bool,
) -> Vec<Block<HandAct, HandField>> {
    let mut blocks = Vec::new();
    let phase = game.set().phases[turn.phase];
    if side == turn.active && !game.public().ended() {
        let actions = stage_actions(game, turn);
        if !actions.is_empty() {
            blocks.push(Block::Strong {
                text: format!("Your turn {}: the {phase} phase", turn.number),
            });
            blocks.push(Block::Actions { actions });
        }
    }
    let active_name = game.setup().name(turn.active);
    // The fatigue step, said before its buttons (on his cards).
    if turn.stage == Stage::Fatigue && side == turn.active && !game.public().ended() {
        blocks.push(Block::Text {
            text: "The fatigue step ends your status phase: remove one card of your choice from your hand, face down (or the deck's top card when your hand is empty). It goes to your removed box (RULES-deck 5).".into(),
        });
    }
    // The other player's turn: where the game is, and what he may do in it.
    if side == turn.passive() && turn.stage != Stage::AskingInterrupt && !game.public().ended() {
        let may = if turn.stage == Stage::Playing && !uses(turn, side, phase).is_empty() {
            ": you may play cards for laurels"
        } else {
            ""
        };
        blocks.push(Block::Strong {
            text: format!(
                "{} turn {}, the {phase} phase{may}",
                muster_core::text::possessive(active_name),
                turn.number
            ),
        });
    }
    if turn.stage == Stage::AskingInterrupt && side == turn.passive() {
        blocks.push(Block::Strong {
            text: format!(
                "{} plays the {phase} phase. Do you interrupt it?",
                game.setup().name(turn.active)
            ),
        });
        blocks.push(Block::Actions {
            actions: vec![play(
                "No interrupt",
                Command::Interrupt {
                    player: side,
                    card: None,
                },
            )],
        });
    }
    let mut actions = Vec::new();
    if turn.stage == Stage::Playing {
        for (label, use_, to) in uses(turn, side, phase) {
            actions.push(play(
                format!("Draw from the deck for {label}"),
                Command::Play {
                    player: side,
                    card: Pick::Deck,
                    use_,
                    to,
                },
            ));
        }
    }
    if turn.stage == Stage::Fatigue && side == turn.active && hand_empty {
        actions.push(play(
            "Remove the deck's top card (fatigue)",
            Command::Fatigue { card: None },
        ));
    }
    if !actions.is_empty() {
        blocks.push(Block::Actions { actions });
    }
    blocks
}

/// The end of the game, said by each player on his own screen (RULES-deck
/// 7): the rules leave the end to the players, and once both have said it
/// nothing is played and every card may be shown, so neither may say it
/// for the other from the shared table.
fn game_over(game: &Game, side: Side) -> Vec<Block<HandAct, HandField>> {
    let public = game.public();
    if public.turn.is_none() || public.ended() {
        return Vec::new();
    }
    let other = game.setup().name(side.opponent());
    if public.over[side] {
        return vec![Block::Text {
            text: format!(
                "You said the game is over; {other} has not yet. Nothing more is played once they do."
            ),
        }];
    }
    vec![Block::Actions {
        actions: vec![
            play(
                "The game is over",
                Command::GameOver { player: side },
            )
            .hint("Say it when you and your opponent have finished playing")
            .confirm(
                "End the game for your part? Once both players have said so, nothing more is played and every card drawn and removed may be shown.",
            ),
        ],
    }]
}

/// `side`'s private screen, from his own zones (or why it is sealed).
pub fn hand(game: &Game, side: Side, values: &Form) -> Screen {
    let name = game.setup().name(side).to_string();
    let Some(zones) = game.zones(side) else {
        return Screen {
            title: format!("{name}'s hand"),
            blocks: vec![Block::Text {
                text: format!("{name}'s cards are sealed: they must unlock the game."),
            }],
        };
    };
    // The screen's title names the hand; this says how full it is.
    let mut blocks = vec![Block::Heading {
        text: format!(
            "{} in hand, of {}",
            count(zones.hand.len() as u64, "card", "cards"),
            game.setup().seats[side].hand_size
        ),
    }];
    let turn = game.public().turn.as_ref();
    if let Some(turn) = turn {
        blocks.extend(turn_actions(game, turn, side, zones.hand.is_empty()));
    }
    if let Some(text) = drawn_for_value(game, side) {
        blocks.push(Block::Text { text });
    }
    for (id, n) in grouped(&zones.hand) {
        let Some(card) = game.set().card(&id) else {
            continue;
        };
        let fresh = zones.fresh.iter().filter(|c| **c == id).count();
        blocks.push(Block::Item {
            title: card_line(card, n),
            text: card.text.clone(),
            actions: match turn {
                Some(turn) => plays(game, turn, side, card),
                None => Vec::new(),
            },
            badge: match fresh {
                0 => None,
                k if k == n => Some("new".into()),
                k => Some(format!("{k} new")),
            },
        });
    }
    if turn.is_some() && !zones.hand.is_empty() && !game.public().ended() {
        blocks.push(broken_unit(game, &zones.hand, values));
    }
    blocks.extend(odds(game, side));
    blocks.extend(game_over(game, side));
    for (title, ids) in [
        ("Discard pile", &zones.discard),
        ("Removed box", &zones.removed),
    ] {
        let items = grouped(ids)
            .into_iter()
            .map(|(id, n)| {
                let title = game.set().card(&id).map_or(id, |c| c.title.clone());
                if n > 1 {
                    format!("{title} ×{n}")
                } else {
                    title
                }
            })
            .collect();
        blocks.push(Block::List {
            title: format!("{title} ({})", ids.len()),
            items,
        });
    }
    Screen {
        title: format!("{name}'s hand"),
        blocks,
    }
}

/// The card he last drew from his deck to play for its value in this
/// phase, said on his own screen (only the log named it); once the phase
/// ends it is the log's alone.
fn drawn_for_value(game: &Game, side: Side) -> Option<String> {
    use super::events::Event;
    use super::zones::Zone;
    for entry in game.log().iter().rev() {
        for event in entry.events.iter().rev() {
            match event {
                Event::TurnEnded { .. } | Event::PhaseEnded { .. } => return None,
                Event::Played {
                    player,
                    card,
                    from: Zone::Deck,
                    use_,
                    ..
                } if *player == side => {
                    let card = game.set().card(card)?;
                    let (n, what) = match use_ {
                        Use::Rally => (card.rally, "flag"),
                        _ => (card.laurels, "laurel"),
                    };
                    let s = if n == 1 { "" } else { "s" };
                    return Some(format!(
                        "You drew {} from your deck: {n} {what}{s}",
                        card.title
                    ));
                }
                _ => {}
            }
        }
    }
    None
}

/// The exact odds of `side`'s next redraw, from what he knows.
fn odds(game: &Game, side: Side) -> Vec<Block<HandAct, HandField>> {
    let Some(zones) = game.zones(side) else {
        return Vec::new();
    };
    let odds = super::odds::redraw(zones, game.set(), game.setup().seats[side].hand_size);
    let mut blocks = vec![
        Block::Strong {
            text: "Your next redraw".into(),
        },
        Block::Text {
            text: format!(
                "It draws {}; {} left before the deck runs out.",
                count(odds.draws as u64, "card", "cards"),
                count(odds.deck_left as u64, "card", "cards")
            ),
        },
    ];
    for (letter, chance, held) in &odds.interrupts {
        // Held already: the redraw's chance of another is beside the point.
        let text = if *held {
            format!(
                "A {} interrupt ({letter}): you hold one already.",
                letter.phase_name()
            )
        } else {
            format!(
                "A {} interrupt ({letter}) among the cards drawn: {:.1}%.",
                letter.phase_name(),
                chance * 100.0
            )
        };
        blocks.push(Block::Text { text });
    }
    blocks.push(Block::Chart {
        title: "at least N laurels".into(),
        x_label: "at least N laurels in hand after it".into(),
        y_label: "chance, %".into(),
        bars: odds
            .laurels
            .iter()
            .enumerate()
            .skip(1)
            .map(|(n, p)| Bar {
                x: n as f64,
                y: p * 100.0,
            })
            .collect(),
    });
    blocks
}

#[cfg(test)]
mod tests;
