//! A battle played from two machines (docs: "Playing remotely"): every
//! Field of Glory command is decided without any player's key (his secrets
//! cross sealed, or opened to be checked against their commitments), so
//! the machine that follows an entry decides it again by the rules, with
//! its dice read back from it, and each joint die derived again from both
//! machines' halves.

use super::{Battle, Command, Entry, Event};
use muster_core::dice::{AppDice, Roll};
use muster_core::error::RuleError;
use muster_core::intel::ledger::Digest32;
use muster_core::remote::Replica;
use muster_core::side::Side;

impl Replica for Battle {
    type Entry = Entry;

    fn game_id(&self) -> &str {
        &self.id
    }

    fn entries(&self) -> usize {
        self.log.len()
    }

    fn entry(&self, n: usize) -> Option<Entry> {
        self.log.get(n).cloned()
    }

    fn link(&self, position: usize) -> Option<Digest32> {
        self.trust.links().get(position).copied()
    }

    fn tag_next(&self, side: Side, entry: &Entry) -> Option<Digest32> {
        self.trust.tag_next(side, entry)
    }

    fn decide(&self, command: &Command, dice: &mut AppDice) -> Result<Entry, RuleError> {
        self.trust.writable(&self.state.locks)?;
        let events = Battle::decide(self, command, dice)?;
        Ok(Entry {
            command: command.clone(),
            events,
        })
    }

    fn append(&mut self, entry: Entry) -> Result<(), RuleError> {
        self.new_locks_held(&entry.events)?;
        Battle::append(self, entry.command, entry.events);
        self.redo.clear();
        Ok(())
    }

    fn follow(&mut self, entry: Entry) -> Result<(), RuleError> {
        self.trust.writable(&self.state.locks)?;
        let events = self.checked(&entry, self.log.len() + 1)?;
        Replica::append(
            self,
            Entry {
                command: entry.command,
                events,
            },
        )
    }

    fn command_of(entry: &Entry) -> Option<Command> {
        Some(entry.command.clone())
    }

    fn given_by(&self, command: &Command) -> Option<Side> {
        command.side()
    }

    fn rolls(entry: &Entry) -> Vec<Roll> {
        entry
            .events
            .iter()
            .flat_map(Event::rolls)
            .cloned()
            .collect()
    }

    fn file(&self) -> String {
        crate::files::battle_to_json(self)
    }

    fn from_file(text: &str) -> Result<Battle, String> {
        crate::files::battle_from_json(text).map_err(|e| e.to_string())
    }

    fn seat_remote(&mut self, side: Side) {
        self.trust.seat_remote(side);
    }

    fn own_tags(&self, side: Side, from: usize) -> Vec<(usize, Digest32)> {
        self.trust.own_tags(side, from)
    }

    fn tag(&self, side: Side, position: usize) -> Option<Digest32> {
        self.trust.tags().get(position).and_then(|tags| tags[side])
    }

    fn add_tag(&mut self, side: Side, position: usize, tag: Digest32) -> Result<(), RuleError> {
        self.trust.add_tag(side, position, tag)
    }

    fn arrived_while_away(&mut self, side: Side, from: usize) {
        self.trust.arrived_while_away(side, from);
    }
}
