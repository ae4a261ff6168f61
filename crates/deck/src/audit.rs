//! The audit at the game's end, when it was played from two machines
//! (RULES-deck 7; the rules reference's "Cards drawn from two machines";
//! docs: "Playing remotely"). While the game goes on, each machine holds
//! only the other player's sealed draws and removals and the commitments to
//! his picks' secrets: it sees how many cards moved, not which. Once both
//! players agree the game is over, each machine sends its player's records
//! opened (the cards and the blinding values of their commitments) and his
//! picks' secrets, never a key; the other checks each record against what
//! was sealed and each secret against its commitment, then replays his
//! cards: every card drawn must be the one both machines' dice and his
//! secret gave, every card played or removed must be where it was taken
//! from, and his cards must add up to his deck.

use super::events::{Event, Hidden};
use super::game::{ActionDeck, Game, place};
use super::zones::{Zone, Zones};
use muster_core::chained_game::{OnLedger, Rules};
use muster_core::dice::JointDice;
use muster_core::dice::hidden::{self, PickCommitment, PickSecret};
use muster_core::intel::{Revealed, SealKey};
use muster_core::side::Side;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One sealed record of a player's, opened by his machine at the end.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Opened {
    entry: usize,
    event: usize,
    contents: Revealed<Hidden>,
}

/// What a player's machine sends at the game's end.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Records {
    secrets: Vec<PickSecret>,
    records: Vec<Opened>,
}

impl Game {
    /// Every commitment to `side`'s picks the game has held.
    fn commitments(&self, side: Side) -> Vec<PickCommitment> {
        let set_later = self
            .log()
            .iter()
            .flat_map(|e| &e.events)
            .filter_map(|e| match e {
                Event::LockSet { side: s, picks, .. } if *s == side => Some(picks.clone()),
                _ => None,
            });
        self.setup().picks[side]
            .clone()
            .into_iter()
            .chain(set_later)
            .collect()
    }

    /// Every record of `side`'s the log holds, opened with his keys, and
    /// his picks' secrets (the keys held here only once the game is over):
    /// what his machine sends the other.
    pub fn opened_records(&self, side: Side) -> Option<String> {
        let key = self.keys()[side]
            .as_ref()
            .filter(|_| self.public().ended())?;
        let before = SealKey::unprotected();
        let from = self.record().lock_set_in_log(side).unwrap_or(0);
        let secrets = (self.commitments(side).iter())
            .filter_map(|c| c.secret_under(key))
            .collect();
        let mut records = Vec::new();
        for (i, entry) in self.log().iter().enumerate() {
            for (j, event) in entry.events.iter().enumerate() {
                let Some((owner, sealed)) = event.sealed().filter(|(o, _)| *o == side) else {
                    continue;
                };
                let key = if i < from { &before } else { key };
                let contents = sealed.open(key, &place(self.id(), owner, i, j)).ok()?;
                records.push(Opened {
                    entry: i,
                    event: j,
                    contents,
                });
            }
        }
        let records = Records { secrets, records };
        Some(serde_json::to_string(&records).expect("always serializes"))
    }

    /// What `side`'s records, as his machine opened them (`body`), show
    /// against the rules, in the players' words: nothing when all holds.
    pub fn audit(&self, side: Side, body: &str) -> Vec<String> {
        let theirs = muster_core::text::possessive(self.setup().name(side));
        let sent: Records = match serde_json::from_str(body) {
            Ok(sent) => sent,
            Err(e) => {
                return vec![format!(
                    "{theirs} records, sent at the game's end, do not read ({e})"
                )];
            }
        };
        let opened: BTreeMap<(usize, usize), Revealed<Hidden>> = (sent.records.into_iter())
            .map(|o| ((o.entry, o.event), o.contents))
            .collect();
        let mut found = Vec::new();
        let mut cards = BTreeMap::new();
        for (i, entry) in self.log().iter().enumerate() {
            for (j, event) in entry.events.iter().enumerate() {
                let Some((_, sealed)) = event.sealed().filter(|(o, _)| *o == side) else {
                    continue;
                };
                match sealed.held_at_end(opened.get(&(i, j)), &place(self.id(), side, i, j)) {
                    Ok(held) => {
                        cards.insert((i, j), held);
                    }
                    Err(why) => found.push(format!(
                        "{theirs} record of log entry {}, sent at the game's end, {why}",
                        i + 1
                    )),
                }
            }
        }
        if found.is_empty()
            && let Err(why) = self.replayed(side, &cards, &sent.secrets)
        {
            found.push(format!(
                "{theirs} cards, opened at the game's end, break the rules: {why}"
            ));
        }
        found
    }

    /// `side`'s cards replayed from his opened records (`cards`), each
    /// pick from two machines made again with his secret.
    fn replayed(
        &self,
        side: Side,
        cards: &BTreeMap<(usize, usize), Hidden>,
        secrets: &[PickSecret],
    ) -> Result<(), String> {
        let setup = self.setup();
        let unprotected = SealKey::unprotected();
        let secret = |c: &PickCommitment| {
            (secrets.iter().find(|s| c.holds(s)).cloned()).or_else(|| c.secret(&unprotected))
        };
        let mut zones = Zones::new(setup.deck(side));
        let mut public = ActionDeck::opening(setup);
        for (i, entry) in self.log().iter().enumerate() {
            let at = |why: String| format!("log entry {}: {why}", i + 1);
            let mut k = 0u64;
            for (j, event) in entry.events.iter().enumerate() {
                let mine = event.player() == Some(side);
                let opened = cards.get(&(i, j)).map(Vec::as_slice);
                let picked: Option<(&JointDice, Vec<String>)> = match event {
                    Event::Drew { joint: Some(j), .. }
                    | Event::Removed {
                        joint: Some(j),
                        from: Zone::Deck,
                        ..
                    } if mine => Some((j, opened.unwrap_or_default().to_vec())),
                    Event::Played {
                        joint: Some(j),
                        from: Zone::Deck,
                        card,
                        ..
                    } if mine => Some((j, vec![card.clone()])),
                    _ => None,
                };
                if let Some((joint, drawn)) = picked {
                    let commitment = public.picks[side].as_ref();
                    let Some(secret) = commitment.and_then(&secret) else {
                        return Err(at("no secret was shown for its draws".into()));
                    };
                    let mut deck = zones.deck.clone();
                    for card in &drawn {
                        let n = deck.len();
                        let due = deck
                            .get(hidden::pick(&secret, self.id(), joint, k, n))
                            .cloned();
                        k += 1;
                        if due.as_ref() != Some(card) {
                            return Err(at(format!(
                                "{card} came, but both machines' dice and their secret gave {}",
                                due.unwrap_or_default()
                            )));
                        }
                        let taken = deck.iter().position(|c| c == card).expect("checked");
                        deck.remove(taken);
                    }
                    // Each card committed as it was drawn must be the card drawn.
                    if let Event::Drew { tokens, .. } = event {
                        let first = public.committed[side].next();
                        for ((card, token), n) in drawn.iter().zip(tokens).zip(first..) {
                            if hidden::token(&secret.blinding(self.id(), n), card) != *token {
                                return Err(at(format!(
                                    "the card committed to as {card} was drawn is another card"
                                )));
                            }
                        }
                    }
                }
                super::game::fold_zones(&mut zones, side, event, opened, public.turn.as_ref())
                    .map_err(|e| at(e.message))?;
                public.fold(&setup.set, event).map_err(|e| at(e.message))?;
            }
        }
        let in_play: Vec<String> = (public.turn.iter().flat_map(|t| &t.in_play))
            .filter(|c| c.owner == side)
            .map(|c| c.card.clone())
            .collect();
        if zones.all(&in_play) != setup.deck(side) {
            return Err("their cards do not add up to their deck".into());
        }
        Ok(())
    }
}
