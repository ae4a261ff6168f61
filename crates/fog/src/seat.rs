//! Field of Glory's seats (RULES 8.3, 8.4, 8.5, 10): the private steps the
//! sequence brings to a player (placing his ambushes, recording his flank
//! marches, his deployment batches while any of his battle groups is
//! sealed off the table, revealing an arrived march, his march's word on a
//! roll), the ones the table asks of him (an ambush marker's reveal, for a
//! reason) and the one he may look at when he likes (which of his sealed
//! battle groups is also deployed). Each is a screen of `screens`, opened with the key
//! his passphrase gives; whether the laptop draws it behind its hand-over
//! screen or his phone draws it, the same answers apply.

use crate::battle::{
    Battle, Command, DeploymentTurn, Event, Finished, Phase, arrival_word, to_reveal,
};
use crate::screens::{self, Form, Reply, Reveal, Screen, SecretAct, SecretField};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::{Lock, PlayerKey, SealKey};
use muster_core::screen::{Action, Block};
use muster_core::seat::{Answer, Part, Seated, Sitting};
use muster_core::side::Side;

/// What the table asks a player to do in private.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// Reveal one of his ambush markers, for the reason given.
    Reveal(Reveal),
}

/// A private step of a player's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    Ambushes,
    FlankMarches,
    /// Which of his battle groups off the table is also deployed.
    Check,
    /// His deployment batch, picked where his sealed battle groups are
    /// known (RULES 8.5): the shared screen cannot tell which to offer.
    Batch,
    Reveal(Reveal),
    /// A roll of his march with a sealed modifier waits for his word,
    /// which his seat gives with his key (`by_itself`).
    Word,
}

/// `side`'s marches whose last arrival roll waits for his word.
fn waiting_words(battle: &Battle, side: Side) -> Vec<usize> {
    let marches = &battle.state().deployment.flank_marches;
    (0..marches.len())
        .filter(|m| marches[*m].side == side && marches[*m].awaits_word())
        .collect()
}

/// Whose sealed record a reveal opens, while it is still sealed.
fn owner(battle: &Battle, reveal: Reveal) -> Option<Side> {
    let deployment = &battle.state().deployment;
    match reveal {
        Reveal::March(m) => deployment
            .flank_marches
            .get(m)
            .filter(|m| m.revealed.is_none())
            .map(|m| m.side),
        Reveal::Ambush(marker, _) => deployment
            .ambushes
            .get(marker)
            .filter(|a| a.revealed.is_none())
            .map(|a| a.side),
    }
}

/// What `side` does in private now, if anything: what the sequence brings
/// him first (an arrived march before anything, RULES 10), then what the
/// table asked of him.
pub fn task(battle: &Battle, side: Side, at: Sitting<'_, Battle>) -> Option<Task> {
    let asked = at.asked;
    let state = battle.state();
    if battle.phase() == Phase::Play {
        if let Some(&march) = to_reveal(state, battle.ruleset())
            .iter()
            .find(|m| state.deployment.flank_marches[**m].side == side)
        {
            return Some(Task::Reveal(Reveal::March(march)));
        }
        if !waiting_words(battle, side).is_empty() {
            return Some(Task::Word);
        }
    }
    if let Some(Asked::Reveal(reveal)) = asked
        && owner(battle, reveal) == Some(side)
    {
        return Some(Task::Reveal(reveal));
    }
    let off_table = state.deployment.off_table[side].unwrap_or(0) > 0;
    match battle.phase() {
        Phase::Deployment(DeploymentTurn::Ambushes(s)) if s == side => Some(Task::Ambushes),
        Phase::Deployment(DeploymentTurn::FlankMarches(s)) if s == side => Some(Task::FlankMarches),
        // RULES 8.5 ruling: his phone picks his batches, never offering a
        // sealed group; without one he picks them on the shared screen.
        Phase::Deployment(DeploymentTurn::Batch { side: s, .. })
            if s == side && off_table && at.own_screen() =>
        {
            Some(Task::Batch)
        }
        Phase::Deployment(
            DeploymentTurn::Batch { .. }
            | DeploymentTurn::Dismount(_)
            | DeploymentTurn::Commanders(_),
        ) if off_table => Some(Task::Check),
        _ => None,
    }
}

/// His key: the one his passphrase gave, or the unprotected one for a
/// player who plays without a passphrase.
fn key(battle: &Battle, side: Side, at: Sitting<'_, Battle>) -> Option<SealKey> {
    if !battle.has_passphrase(side) {
        return Some(SealKey::unprotected());
    }
    at.key.clone()
}

/// The action that ends his step, as the table's button would.
fn finish(battle: &Battle, side: Side, task: Task, key: &SealKey) -> Option<Command> {
    match task {
        Task::Ambushes => Some(Command::Finish {
            side,
            step: Finished::Ambushes,
        }),
        Task::FlankMarches => {
            let (_, off_table) = screens::flank_marches(battle, side, key, &Form::new()).ok()?;
            Some(Command::FinishFlankMarches { side, off_table })
        }
        Task::Check if check_due(battle, side) => {
            // Named: a group both sealed and deployed (one left out is
            // said to him alone, and is no one's secret).
            let sealed = crate::battle::sealed_bgs(battle.state(), side, key).ok()?;
            let deployed = crate::battle::deployed_bgs(battle.state(), side);
            let named = sealed.iter().any(|bg| deployed.contains(bg));
            Some(Command::CheckSealed { side, named })
        }
        Task::Check | Task::Batch | Task::Reveal(_) | Task::Word => None,
    }
}

/// Whether `side`'s one check at the end of deployment waits (the rules'
/// own `sealed_check_due`).
fn check_due(battle: &Battle, side: Side) -> bool {
    crate::battle::sealed_check_due(battle.state(), battle.ruleset(), side).is_ok()
}

fn finish_label(task: Task) -> &'static str {
    match task {
        Task::Ambushes => "Finish my ambushes",
        Task::Check => "Done: tell the table my check is made",
        _ => "Done with my flank marches",
    }
}

/// His task's screen, opened with his key.
fn task_screen(
    battle: &Battle,
    side: Side,
    task: Task,
    key: &SealKey,
    at: Sitting<'_, Battle>,
) -> Result<Screen, RuleError> {
    let values = &at.form;
    match task {
        Task::Ambushes => battle
            .ambush_maps()
            .with(side, |maps| screens::ambushes(battle, side, key, values, maps)),
        Task::FlankMarches => screens::flank_marches(battle, side, key, values).map(|(s, _)| s),
        Task::Check => screens::deployment_check(battle, side, key),
        Task::Batch => screens::batch(battle, side, key, values),
        Task::Word => Ok(Screen {
            title: format!("{side}: my flank marches"),
            blocks: vec![Block::Text {
                text: "Your march's sealed modifier is added to its roll with your key; the table learns only whether it arrives.".into(),
            }],
        }),
        Task::Reveal(reveal) => Ok(screens::reveal(battle, side, reveal, key, values)),
    }
}

/// The choice of `side`'s step that needs no secret, if any.
fn open_choice(battle: &Battle, side: Side, at: Sitting<'_, Battle>) -> Option<(String, Command)> {
    match task(battle, side, at)? {
        Task::Ambushes => Some((
            format!("{side}: no ambushes"),
            Command::Finish {
                side,
                step: Finished::Ambushes,
            },
        )),
        Task::FlankMarches
            if !battle
                .state()
                .deployment
                .ambushes
                .iter()
                .any(|a| a.side == side) =>
        {
            Some((
                format!("{side}: no flank marches"),
                Command::FinishFlankMarches { side, off_table: 0 },
            ))
        }
        _ => None,
    }
}

impl Seated for Battle {
    type Command = Command;
    type Event = Event;
    type Request = Asked;
    type Act = SecretAct;
    type Field = SecretField;

    /// The side and its player, as the army form calls him ("South
    /// (Marcus)"): the sequence's words name sides, and the hand-over
    /// screen names the player it is handed to (issue 39).
    fn seat_name(&self, side: Side) -> String {
        match &self.state().armies[side] {
            Some(army) if !army.player.trim().is_empty() => format!("{side} ({})", army.player),
            _ => side.to_string(),
        }
    }

    const PRINTOUT: bool = true;

    /// His private page (RULES 8.3 markers, 9 marches), as the printout's.
    fn printout(
        &self,
        side: Side,
        key: Option<&PlayerKey>,
    ) -> Option<Result<(String, Vec<u8>), RuleError>> {
        Some(crate::export::private_page(self, side, key).map(|page| {
            (
                format!("{side}: my private page"),
                crate::export::private_pdf(self, &page, muster_core::pdf::Paper::A4),
            )
        }))
    }

    /// What the sequence brings him, or the table asked; the check of his
    /// sealed groups once, at the end of deployment (he may look at it
    /// when he likes before).
    fn due(&self, side: Side, at: Sitting<'_, Self>) -> Option<String> {
        let what = match task(self, side, at)? {
            Task::Ambushes => "places their ambushes".to_string(),
            Task::FlankMarches => "records their flank marches".to_string(),
            Task::Reveal(Reveal::March(_)) => "reveals their arrived flank march".to_string(),
            Task::Reveal(Reveal::Ambush(..)) => "reveals an ambush marker".to_string(),
            Task::Word => "adds their march's sealed modifier to its roll".to_string(),
            Task::Batch => "picks their deployment batch".to_string(),
            // Once, at the end of deployment; on his phone his batches never
            // offered a sealed group, so there is nothing to check.
            Task::Check if check_due(self, side) && !at.own_screen() => {
                "checks their sealed battle groups against the table".to_string()
            }
            Task::Check => return None,
        };
        Some(what)
    }

    /// "No ambushes", or "no flank marches" for a player without an
    /// ambush marker: nothing of his is off the table then, so his count of
    /// 0 is public and needs no secret.
    fn open_choice(&self, side: Side, at: Sitting<'_, Self>) -> Option<(String, SecretAct)> {
        let (label, command) = open_choice(self, side, at)?;
        Some((label, SecretAct::Step(Box::new(command))))
    }

    fn needs_key(&self, side: Side, at: Sitting<'_, Self>) -> Option<Lock> {
        task(self, side, at)?;
        if at.key.is_some() {
            return None;
        }
        self.state().locks[side].clone()
    }

    fn lock_of(&self, side: Side) -> Option<Lock> {
        self.state().locks[side].clone()
    }

    fn locked_seats(&self) -> Vec<Side> {
        self.locked_sides()
    }

    fn unlock_seat(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError> {
        self.unlock_key(side, key)
    }

    fn secrets(&self) -> &'static str {
        "my secrets"
    }

    fn seal_key(&self, side: Side, key: &PlayerKey) -> Result<SealKey, RuleError> {
        Battle::seal_key(self, side, key)
    }

    fn screen(&self, side: Side, at: Sitting<'_, Self>) -> Screen {
        let Some(task) = task(self, side, at) else {
            return Screen {
                title: format!("{side}: my secrets"),
                blocks: vec![Block::Text {
                    text: "Nothing private to do now: your ambushes, flank marches and reveals come here when it is your turn for them.".into(),
                }],
            };
        };
        let Some(key) = key(self, side, at) else {
            return Screen {
                title: format!("{side}: my secrets"),
                blocks: vec![Block::Text {
                    text: "Your passphrase opens your secrets.".into(),
                }],
            };
        };
        let mut screen = task_screen(self, side, task, &key, at).unwrap_or_else(|e| Screen {
            title: format!("{side}: my secrets"),
            blocks: vec![Block::Refusal {
                text: self.state().settings.speak(&e.to_string()),
            }],
        });
        if !self.has_passphrase(side) {
            screen.blocks.insert(
                0,
                Block::Text {
                    text:
                        "⚠ You play without a passphrase: the file does not protect these secrets."
                            .into(),
                },
            );
        }
        if let Some(command) = finish(self, side, task, &key) {
            screen.blocks.push(Block::Actions {
                actions: vec![Action::new(
                    finish_label(task),
                    SecretAct::Step(Box::new(command)),
                )],
            });
        }
        at.refused_first(screen)
    }

    fn answer(
        &self,
        side: Side,
        at: Sitting<'_, Self>,
        reply: &Reply,
    ) -> Result<Answer<Self>, RuleError> {
        let Some(task) = task(self, side, at) else {
            return refuse("seat", "Nothing private is asked of you now");
        };
        let not_here = || {
            refuse(
                "seat",
                "That is not one of the actions your screen offers now",
            )
        };
        // What needs no secret may be said in the open.
        if let SecretAct::Step(command) = &reply.command
            && open_choice(self, side, at).is_some_and(|(_, open)| open == **command)
        {
            return Ok(Answer::command((**command).clone()));
        }
        let Some(key) = key(self, side, at) else {
            return refuse("seat", "Your passphrase opens your secrets first");
        };
        match (&reply.command, task) {
            (SecretAct::Step(command), _) => match finish(self, side, task, &key) {
                Some(finished) if finished == **command => Ok(Answer::command(finished)),
                _ => not_here(),
            },
            (SecretAct::SealAmbush, Task::Ambushes) => {
                screens::answer_ambush(self, side, &key, reply)
                    .map(|c| Answer::spending(c, &[SecretField::Content, SecretField::At]))
            }
            (SecretAct::SealMarch, Task::FlankMarches) => {
                screens::answer_flank_march(self, side, &key, reply, at.own_screen())
                    .map(|c| Answer::spending(c, &[SecretField::Bgs]))
            }
            (SecretAct::DeployBatch, Task::Batch) => screens::answer_batch(self, side, &key, reply)
                .map(|c| Answer::spending(c, &[SecretField::Batch])),
            (SecretAct::Reveal, Task::Reveal(reveal)) => {
                screens::answer_reveal(self, side, reveal, &key, &reply.values).map(|command| {
                    Answer {
                        command: Some(command),
                        spent: &[],
                        done: true,
                    }
                })
            }
            (SecretAct::CancelReveal, Task::Reveal(Reveal::Ambush(..))) => Ok(Answer {
                command: None,
                spent: &[],
                done: true,
            }),
            (
                SecretAct::SealAmbush
                | SecretAct::SealMarch
                | SecretAct::DeployBatch
                | SecretAct::Reveal
                | SecretAct::CancelReveal,
                _,
            ) => not_here(),
        }
    }

    /// His word on his march's roll (RULES 10, players' screens ruling):
    /// its sealed modifier added with his key, as soon as the roll is made.
    /// And his one check of his sealed groups (RULES 8.5 ruling), made as
    /// soon as he opened his screen with his key on the laptop: it asks
    /// nothing of him, and a "Done" would be a click that decides nothing.
    fn by_itself(&self, side: Side, at: Sitting<'_, Self>) -> Option<Command> {
        let key = key(self, side, at)?;
        let word = waiting_words(self, side)
            .into_iter()
            .find_map(|m| arrival_word(self.state(), self.ruleset(), side, m, &key).ok());
        word.or_else(|| {
            let opened = at.key.is_some() && !at.own_screen();
            let task = task(self, side, at)?;
            (opened && task == Task::Check)
                .then(|| finish(self, side, task, &key))
                .flatten()
        })
    }

    /// His screen stays open after his check named a group both sealed and
    /// deployed: it says which, to him alone.
    fn stays_open(&self, side: Side) -> bool {
        matches!(self.phase(), Phase::Deployment(_))
            && self.state().deployment.checked[side] == Some(true)
    }

    /// Each turn of the sequence is its side's (a territory, a piece of
    /// terrain, a batch of deployment); the armies, the initiative, who
    /// moves first and the battle itself are both players'.
    fn part(&self) -> Option<Part> {
        let step = self.state().current_step(self.ruleset()).title();
        let side = match self.phase() {
            Phase::Territory(side) | Phase::Compulsory(side) | Phase::Selection(side) => side,
            Phase::Placement(turn) => turn.side(),
            Phase::Deployment(turn) => turn.side(),
            Phase::Armies | Phase::Initiative | Phase::MovesFirst | Phase::Play => {
                return Some(Part::both(step));
            }
        };
        let whose = muster_core::text::possessive(&self.seat_name(side));
        Some(Part::of(side, format!("{step}, {whose} turn")))
    }

    fn apply(&mut self, command: Command) -> Result<Vec<Event>, RuleError> {
        Battle::apply(self, command)
    }

    fn forced(&self) -> Option<Command> {
        Battle::forced(self)
    }

    /// Said in the log as a note both players read (RULES 1's log is the
    /// battle's record): the rules forced a step that failed.
    fn stalled(&mut self, _command: &Command, why: &RuleError) {
        Battle::note_stall(self, why);
    }
}
