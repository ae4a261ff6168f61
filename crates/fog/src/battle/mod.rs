//! The battle: commands in, events out, state as a fold of the event log.
//!
//! `Battle::apply` checks a command against the rules and, if legal, turns it
//! into events, appends them to the log and folds them into the state. The log
//! is the saved battle; replaying it reproduces the state exactly. Undo removes
//! the last *choice*; a dice roll is never undone (RULES 11). One submodule per
//! step of the sequence decides its commands.

mod adjustment;
mod ambush;
mod command;
mod deployment;
mod describe;
mod event;
mod flank_march;
mod initiative;
mod moves_first;
mod off_table;
mod placement;
mod play;
mod selection;
mod settings;
mod state;
mod territory;
mod trust;

pub use adjustment::{AdjustAction, Allowance, allowance, check_adjust};
pub use ambush::{
    AMBUSH_RECORD_BYTES, AmbushMap, AmbushMaps, Profile, RevealReason, Verdict, check_ambush,
    enemy_area, open_ambushes, reveal_ambush, seal_ambush, sightlines,
};
pub use command::Command;
pub use deployment::{
    Ambush, AmbushContent, DeploymentState, DeploymentTurn, Finished, batch_order, batch_plan,
    batch_sizes, camp_footprint, check_camp, check_fortification, describe_turn,
    fortification_footprint, march_number, marker_number, on_table_count, reach, sealed_check_due,
};
pub use describe::zone_text;
use event::position;
pub use event::{Entry, Event};
pub use flank_march::{
    FLANK_MARCH_RECORD_BYTES, Flank, FlankMarch, FlankMarchPlan, Straggle, arrival_by_turn,
    arrival_chance, arrival_modifiers, check_plan, due as arrivals_due, open_marches, reveal_plan,
    straggle_chance, straggle_modifiers, to_reveal, word as arrival_word,
};
pub use moves_first::modifiers as moves_first_modifiers;
use muster_core::intel::trail::Trail;
pub use off_table::{misplaced_bgs, seal_march, sealed_bgs};
pub use placement::{
    Laid, PlacementState, PlacementTurn, check_pose, check_road, legal_pose_exists,
    nearest_legal_pose, piece_name, placement_rolled, zone_highlight,
};
pub use selection::{SelectOption, compulsory_pieces};
pub use settings::{Settings, TableSize};
pub use state::current as current_turn;
pub use state::{Phase, Pick, RollOff, SelectionState, State, Step, StepStatus, deployed_bgs};
pub use territory::choices as territory_choices;
pub use trust::{Tags, chain, new_id as new_battle_id};

use crate::army::Army;
use crate::geometry::{Pose, Shape, SideEdge};
use crate::ruleset::{Ruleset, TerrainClass};
use muster_core::dice::{AppDice, DiceInput, Roll};
use muster_core::error::{RuleError, refuse};
use muster_core::intel::ledger::Digest32;
use muster_core::intel::{Lock, Opener, PlayerKey, Revealed, SealKey, Sealed};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};

/// `pick` must be one of `offered` (ids), each named for the player by
/// `name`; refused citing `rule` otherwise, in the words `why` gives for
/// the pick's name and the offered names.
fn one_of(
    rule: &str,
    pick: &str,
    offered: &[String],
    name: impl Fn(&str) -> String,
    why: impl FnOnce(&str, String) -> String,
) -> Result<(), RuleError> {
    if offered.iter().any(|o| o == pick) {
        return Ok(());
    }
    let names: Vec<String> = offered.iter().map(|o| name(o)).collect();
    refuse(rule, why(&name(pick), names.join(", ")))
}

/// A record of a player's opened with his sealing key where it is sealed
/// (an ambush marker, a flank march); why not, citing `rule`.
fn opened<T: Serialize + serde::de::DeserializeOwned>(
    sealed: &Sealed,
    key: &SealKey,
    place: &muster_core::intel::Place,
    rule: &str,
) -> Result<Revealed<T>, RuleError> {
    sealed
        .open(key, place)
        .map_err(|e| RuleError::new(rule, e.to_string()))
}

/// A battle in progress.
#[derive(Clone, Debug)]
pub struct Battle {
    ruleset: Ruleset,
    /// A random name for this battle: autosaves are kept per battle, and the
    /// log's chain starts from it.
    id: String,
    log: Vec<Entry>,
    state: State,
    /// Entries taken back by undo, newest last; cleared by any new command.
    redo: Vec<Entry>,
    /// Where app dice come from; never saved.
    dice: AppDice,
    /// The log's chain, each player's tags on it, and the log keys held.
    trust: Trail,
    /// Each side's ambush legality map for his private screen, worked out
    /// again only when the terrain changes (a cache, never saved).
    ambush_maps: ambush::MapCache,
}

impl Battle {
    /// A new battle on default settings, with a fresh id and the operating
    /// system's dice.
    pub fn new(ruleset: Ruleset) -> Battle {
        Battle::with_id(ruleset, trust::new_id())
    }

    fn with_id(ruleset: Ruleset, id: String) -> Battle {
        let trust = Trail::new(trust::genesis(&id, &ruleset));
        Battle {
            ruleset,
            state: State {
                game: id.clone(),
                ..State::default()
            },
            id,
            log: Vec::new(),
            redo: Vec::new(),
            dice: AppDice::Os,
            trust,
            ambush_maps: Default::default(),
        }
    }

    /// The battle's cache of each side's ambush legality map, for his
    /// private screen.
    pub fn ambush_maps(&self) -> &ambush::MapCache {
        &self.ambush_maps
    }

    /// Draws app dice from `dice` from now on (a fixed seed for scripted
    /// tests and demonstrations; never stored).
    pub fn use_dice(&mut self, dice: AppDice) {
        self.dice = dice;
    }

    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn log(&self) -> &[Entry] {
        &self.log
    }

    pub fn phase(&self) -> Phase {
        self.state.phase(&self.ruleset)
    }

    /// Checks a command without applying it. App dice in it are thrown for
    /// the look only, from the operating system: the roll that counts is the
    /// one `apply` makes.
    pub fn check(&self, command: &Command) -> Result<Vec<Event>, RuleError> {
        self.decide(command, &mut AppDice::Os)
    }

    fn decide(&self, command: &Command, app: &mut AppDice) -> Result<Vec<Event>, RuleError> {
        command.check_numbers()?;
        let (s, r) = (&self.state, &self.ruleset);
        match command {
            Command::Configure { settings } => settings::decide(s, settings),
            Command::SetArmy { side, army, lock } => {
                initiative::decide_army(s, r, *side, army, lock.as_ref())
            }
            Command::RollInitiative { side, dice } => {
                initiative::decide_roll(s, r, app, *side, dice)
            }
            Command::ChooseTerritory { side, territory } => {
                territory::decide(s, r, *side, territory)
            }
            Command::ChooseCompulsory { side, terrain } => {
                selection::decide_compulsory(s, r, *side, terrain)
            }
            Command::SelectTerrain {
                side,
                terrain,
                large,
            } => selection::decide_select(s, r, *side, terrain, *large),
            Command::FinishSelection { side } => selection::decide_finish(s, r, *side),
            Command::PlaceWaterway {
                side,
                edge,
                width,
                offset,
            } => placement::decide_waterway(s, r, *side, *edge, *width, *offset),
            Command::RollGoing { side, dice } => placement::decide_going(s, r, app, *side, dice),
            Command::RollPlacement {
                side,
                piece,
                shape,
                dice,
            } => placement::decide_roll(s, r, app, *side, *piece, shape, dice),
            Command::PlacePiece { side, pose } => placement::decide_place(s, r, *side, *pose),
            Command::RollAdjustment { side, dice } => {
                adjustment::decide_roll(s, r, app, *side, dice)
            }
            Command::Adjust { side, action } => adjustment::decide_adjust(s, r, *side, action),
            Command::PlaceRoad { side, points } => {
                placement::decide_road(s, r, *side, Some(points))
            }
            Command::DeclineRoad { side } => placement::decide_road(s, r, *side, None),
            Command::PlaceCamp { side, pose } => deployment::decide_camp(s, r, *side, *pose),
            Command::PlaceFortification { side, pose } => {
                deployment::decide_fortification(s, r, *side, *pose)
            }
            Command::PlaceAmbush { side, at, sealed } => {
                ambush::decide_place(s, r, *side, *at, sealed)
            }
            Command::RecordFlankMarch {
                side,
                sealed,
                modifier,
            } => flank_march::decide_record(s, r, *side, sealed, *modifier),
            Command::FinishFlankMarches { side, off_table } => {
                flank_march::decide_finish(s, r, *side, *off_table)
            }
            Command::RollArrival { side, march, dice } => {
                flank_march::decide_roll(s, r, app, *side, *march, dice)
            }
            Command::SayArrival {
                side,
                march,
                arrives,
            } => flank_march::decide_say(s, *side, *march, *arrives),
            Command::RevealFlankMarch {
                side,
                march,
                revealed,
                straggling,
            } => flank_march::decide_reveal(s, r, app, *side, *march, revealed, straggling),
            Command::RevealAmbush {
                side,
                marker,
                revealed,
                reason,
            } => ambush::decide_reveal(s, r, *side, *marker, revealed, *reason),
            Command::EndTurn { side } => play::decide_end_turn(s, r, *side),
            Command::Stalled { why } => Ok(vec![Event::Stalled { why: why.clone() }]),
            Command::Finish { side, step } => deployment::decide_finish(s, r, *side, *step),
            Command::DeployBatch { side, bgs } => deployment::decide_batch(s, r, *side, bgs),
            Command::CommitDismount { side, bgs } => deployment::decide_dismount(s, r, *side, bgs),
            Command::CheckSealed { side, named } => deployment::decide_checked(s, r, *side, *named),
            Command::RollMovesFirst { side, dice } => {
                moves_first::decide_roll(s, r, app, *side, dice)
            }
        }
    }

    /// Notes in the log that a step the rules forced failed, `why` (see
    /// `Command::Stalled`); a battle nothing may be added to (read-only
    /// until unlocked) changed nothing that could stall.
    pub fn note_stall(&mut self, why: &RuleError) {
        let _ = self.apply(Command::Stalled {
            why: why.to_string(),
        });
    }

    /// Applies a command: on success its events are logged, tagged by every
    /// player whose key is held, and folded in. While a player with a
    /// passphrase has not unlocked the battle, nothing can be added.
    pub fn apply(&mut self, command: Command) -> Result<Vec<Event>, RuleError> {
        self.trust.writable(&self.state.locks)?;
        let mut dice = std::mem::take(&mut self.dice);
        let decided = self.decide(&command, &mut dice);
        self.dice = dice;
        let events = decided?;
        self.new_locks_held(&events)?;
        self.append(command, events.clone());
        self.redo.clear();
        Ok(events)
    }

    /// A lock `events` set needs its player's key held here (he has just
    /// typed his passphrase on this screen), or his machine's word in a
    /// remote game.
    fn new_locks_held(&self, events: &[Event]) -> Result<(), RuleError> {
        for side in trust::new_locks(events) {
            if self.state.locks[side].is_none()
                && let Some(lock) = events.iter().find_map(|e| match e {
                    Event::ArmySet {
                        side: s,
                        lock: Some(lock),
                        ..
                    } if *s == side => Some(lock),
                    _ => None,
                })
            {
                self.trust.check_new_lock(side, lock)?;
            }
        }
        Ok(())
    }

    /// Logs an entry, folds its events in, extends the chain and tags it.
    fn append(&mut self, command: Command, events: Vec<Event>) {
        for event in &events {
            self.state.fold(&self.ruleset, event);
        }
        self.log.push(Entry { command, events });
        let entry = self.log.last().expect("just pushed");
        self.trust
            .append(entry, &self.state.locks, &trust::new_locks(&entry.events));
    }

    /// Takes back the last entry if it is a choice. A roll is refused.
    pub fn undo(&mut self) -> Result<(), RuleError> {
        self.trust.writable(&self.state.locks)?;
        let Some(last) = self.log.last() else {
            return refuse("11", "There is nothing to undo");
        };
        if let Some(why) = last.never_undone() {
            let what = describe::entry(last, &self.ruleset, &self.state);
            return refuse("11", format!("The last entry ({what}) is {why}"));
        }
        let entry = self.log.pop().expect("checked above");
        self.trust.pop();
        self.redo.push(entry);
        self.refold();
        self.trust.drop_unlocked_tags(&self.state.locks);
        Ok(())
    }

    /// Puts back the entry the last undo took.
    pub fn redo(&mut self) -> Result<(), RuleError> {
        self.trust.writable(&self.state.locks)?;
        let Some(entry) = self.redo.pop() else {
            return refuse("11", "There is nothing to redo");
        };
        self.append(entry.command, entry.events);
        Ok(())
    }

    pub fn can_undo(&self) -> bool {
        self.trust.writable(&self.state.locks).is_ok()
            && self.log.last().is_some_and(|e| e.never_undone().is_none())
    }

    pub fn can_redo(&self) -> bool {
        self.trust.writable(&self.state.locks).is_ok() && !self.redo.is_empty()
    }

    fn refold(&mut self) {
        self.state = State {
            game: self.id.clone(),
            ..State::default()
        };
        for event in self.log.iter().flat_map(|e| &e.events) {
            self.state.fold(&self.ruleset, event);
        }
    }

    /// Rebuilds a battle from a stored log by re-applying every command and
    /// checking it gives the stored events, so a damaged or hand-edited log
    /// is refused rather than trusted. App dice are not drawn again: each
    /// roll's stored faces are read back and must be what the rules allow
    /// (the right count, 1 to 6, re-rolls where the quality calls for them).
    /// Errors name the 1-based entry. Tags are not checked here: each
    /// player checks his own when he unlocks (`unlock`).
    pub fn replay(ruleset: Ruleset, id: String, log: &[Entry]) -> Result<Battle, RuleError> {
        let mut battle = Battle::with_id(ruleset, id);
        for (i, entry) in log.iter().enumerate() {
            let events = battle.checked(entry, i + 1)?;
            battle.append(entry.command.clone(), events);
        }
        Ok(battle)
    }

    /// The events the rules give for logged entry `n` (from 1), its app
    /// dice read back from it and each joint die derived again from both
    /// machines' halves: they must be the entry's own, or the entry is
    /// refused, named.
    fn checked(&self, entry: &Entry, n: usize) -> Result<Vec<Event>, RuleError> {
        let not_legal =
            |e: RuleError| RuleError::new("file", format!("log entry {n} is not legal: {e}"));
        let mut dice = AppDice::recorded(entry.events.iter().flat_map(Event::rolls));
        let events = self.decide(&entry.command, &mut dice).map_err(not_legal)?;
        if dice.left_over() > 0 {
            return refuse(
                "file",
                format!(
                    "log entry {n} records more app dice than its command rolls; the file was edited or is damaged"
                ),
            );
        }
        if events != entry.events {
            return refuse(
                "file",
                format!(
                    "log entry {n}: the stored events differ from what the rules give for its command; the file was edited or is damaged"
                ),
            );
        }
        muster_core::dice::check_joint(&self.id, entry.events.iter().flat_map(Event::rolls))
            .map_err(|e| RuleError::new("file", format!("log entry {n}: {}", e.message)))?;
        Ok(events)
    }

    /// The log's fingerprint (`Trail::fingerprint`).
    pub fn log_fingerprint(&self) -> String {
        self.trust.fingerprint()
    }

    /// The players' tags as a file stores them, header first.
    pub fn tags(&self) -> &[Tags] {
        self.trust.tags()
    }

    /// The link of the chain at each position, header first.
    pub fn links(&self) -> &[Digest32] {
        self.trust.links()
    }

    /// Puts back the tags a file stored (checked by each player's unlock).
    pub fn restore_tags(&mut self, tags: Vec<Tags>) -> Result<(), RuleError> {
        self.trust.restore(tags)
    }

    /// The sides with a passphrase whose players have not unlocked the
    /// battle in this session.
    pub fn locked_sides(&self) -> Vec<Side> {
        self.trust.locked_sides(&self.state.locks)
    }

    /// Whether `side` has set a passphrase.
    pub fn has_passphrase(&self, side: Side) -> bool {
        self.state.locks[side].is_some()
    }

    /// A player unlocks the battle: his passphrase must open his lock, and
    /// every tag of his must hold; the first entry that fails is named.
    pub fn unlock(&mut self, side: Side, passphrase: &str) -> Result<(), RuleError> {
        let Some(lock) = &self.state.locks[side] else {
            return refuse("trust", format!("{side} plays without a passphrase"));
        };
        let key = lock.unlock(passphrase)?;
        self.hold_key(side, &key)
    }

    /// `unlock` with the key already worked out from the passphrase (the
    /// window derives it on a worker thread): the same checks.
    pub fn unlock_key(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError> {
        if self.state.locks[side].is_none() {
            return refuse("trust", format!("{side} plays without a passphrase"));
        }
        self.hold_key(side, key)
    }

    /// Holds a player's key for this session: for a side with a lock, after
    /// checking every tag of his; for a side about to set his passphrase
    /// (`SetArmy` with a new lock), until that command comes.
    pub fn hold_key(&mut self, side: Side, key: &PlayerKey) -> Result<(), RuleError> {
        let lock = self.state.locks[side].as_ref();
        let (log, ruleset, state) = (&self.log, &self.ruleset, &self.state);
        self.trust
            .hold(side, key, lock, |n| position(log, ruleset, state, n))
    }

    /// The key that seals and opens `side`'s records, from his passphrase
    /// (Argon2id: slow on purpose), once every tag of his holds: a private
    /// page is never printed from a log changed behind his back. A side
    /// without a passphrase seals under the unprotected key, and
    /// `passphrase` must be empty.
    pub fn seal_key<'a>(
        &self,
        side: Side,
        opener: impl Into<Opener<'a>>,
    ) -> Result<SealKey, RuleError> {
        let opener = opener.into();
        match &self.state.locks[side] {
            Some(lock) => {
                let key = opener.open(lock)?;
                let (log, ruleset, state) = (&self.log, &self.ruleset, &self.state);
                self.trust
                    .verify(side, &key, Some(lock), |n| position(log, ruleset, state, n))?;
                Ok(key.seal_key())
            }
            None if opener.is_empty() => Ok(SealKey::unprotected()),
            None => refuse(
                "trust",
                format!("{side} plays without a passphrase: give none to open their records"),
            ),
        }
    }

    /// Each line of `log_lines` with its prefix: the 1-based number of its
    /// log entry on the entry's first line, the lines after it indented
    /// under it (as the chained systems' logs), so no number repeats and
    /// the count the printout and the Battle step give ("79 entries") is
    /// the last number of the log.
    pub fn log_prefixes(&self) -> Vec<String> {
        self.log
            .iter()
            .enumerate()
            .flat_map(|(i, entry)| {
                (0..entry.events.len()).map(move |at| match at {
                    0 => format!("{:>3}. ", i + 1),
                    _ => " ".repeat(7),
                })
            })
            .collect()
    }

    pub fn log_lines(&self) -> Vec<(String, bool)> {
        self.log
            .iter()
            .flat_map(|entry| &entry.events)
            .map(|e| {
                (
                    describe::event(e, &self.ruleset, &self.state),
                    !e.rolls().is_empty(),
                )
            })
            .collect()
    }

    /// What selecting each terrain would do for `side` now (RULES 4): every
    /// option with why it is refused, if it is.
    pub fn selection_options(&self, side: Side) -> Vec<SelectOption> {
        selection::options(&self.state, &self.ruleset, side)
    }

    /// The compulsory pieces not yet taken.
    pub fn remaining_compulsory(&self) -> Vec<String> {
        selection::remaining_compulsory(&self.state, &self.ruleset)
    }

    /// Selections `side` has used of his 1 to 5 (RULES 4).
    pub fn selections_used(&self, side: Side) -> u32 {
        selection::used(&self.state, &self.ruleset, side)
    }

    /// The one command the rules leave now, when they leave no choice: the
    /// last compulsory piece (RULES 4), a dismount commitment of nothing for
    /// an army none of whose battle groups may dismount (RULES 8.6). A front end sends it itself after a player's command,
    /// so nobody clicks for what nobody decides; it is logged as any other.
    pub fn forced(&self) -> Option<Command> {
        let command = match self.phase() {
            Phase::Compulsory(side) => match &self.remaining_compulsory()[..] {
                [last] => Command::ChooseCompulsory {
                    side,
                    terrain: last.clone(),
                },
                _ => return None,
            },
            Phase::Deployment(DeploymentTurn::Dismount(side)) => {
                let army = self.state.armies[side].as_ref()?;
                if army.bgs.iter().any(|bg| bg.may_dismount) {
                    return None;
                }
                Command::CommitDismount { side, bgs: vec![] }
            }
            _ => return None,
        };
        self.check(&command).is_ok().then_some(command)
    }
}

mod remote;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod placement_tests;

#[cfg(test)]
mod deployment_tests;

#[cfg(test)]
pub(crate) mod flank_march_tests;
