//! Each card drawn from two machines committed one by one (RULES-deck 3;
//! the rules reference's "Cards drawn from two machines"; docs: "Playing
//! remotely").
//!
//! A draw from two machines carries, beside its sealed record, a token for
//! each card (`muster_core::dice::hidden::token`): the card hashed with a
//! blinding only its owner's secret gives. When he plays a card from his
//! hand, his machine shows the blinding of the draw that brought it, and
//! the other machine checks at once that the card is one he committed to
//! as he drew it and has not shown before; it learns which of his draws
//! the card came by, nothing of the cards still in his hand. Whether each
//! token is the card the dice gave is checked when the game is over, with
//! his secret (`audit`). Cards drawn at one table carry no token: a card
//! played while some of those may still be in the hand is checked at the
//! end only.

use muster_core::dice::hidden::{self, Blinding, PickCommitment, PickSecret, Token};
use muster_core::error::{RuleError, refuse};
use serde::{Deserialize, Serialize};

/// What a card played from the hand shows of the draw that brought it:
/// its token's number and blinding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Drawn {
    pub token: u64,
    pub blinding: Blinding,
}

/// A card committed as it was drawn and not shown yet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
struct Open {
    number: u64,
    token: Token,
    /// The commitment to the secret its blinding comes from.
    under: PickCommitment,
}

/// What both machines know of one player's cards committed one by one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Committed {
    /// Tokens issued so far: the next one's number.
    issued: u64,
    open: Vec<Open>,
    /// Cards drawn without a token, less those played since: while any
    /// may be in the hand, a card played without a token is let through
    /// (and checked at the end).
    loose: usize,
}

impl Committed {
    /// The number the next token drawn will have.
    pub fn next(&self) -> u64 {
        self.issued
    }

    /// A draw of `count` cards with `tokens` (none at one table), under the
    /// commitment `under` its picks hung on.
    pub(crate) fn drew(
        &mut self,
        count: usize,
        tokens: &[Token],
        under: Option<&PickCommitment>,
    ) -> Result<(), RuleError> {
        if tokens.is_empty() {
            self.loose += count;
            return Ok(());
        }
        let Some(under) = under.filter(|_| tokens.len() == count) else {
            return refuse(
                "RULES-deck 3",
                format!(
                    "a draw of {count} cards commits to {} cards, not one by one under its owner's secret",
                    tokens.len()
                ),
            );
        };
        for token in tokens {
            self.open.push(Open {
                number: self.issued,
                token: token.clone(),
                under: under.clone(),
            });
            self.issued += 1;
        }
        Ok(())
    }

    /// `card` played from the hand by `who`, with what it shows of its draw.
    pub(crate) fn played(
        &mut self,
        who: &str,
        card: &str,
        drawn: Option<&Drawn>,
    ) -> Result<(), RuleError> {
        let Some(drawn) = drawn else {
            if self.loose == 0 {
                return refuse(
                    "RULES-deck 3",
                    format!(
                        "{who} played {card} without showing the draw that brought it, though each card of that hand was committed as it was drawn: a card not drawn may have been played; nothing was taken"
                    ),
                );
            }
            self.loose -= 1;
            return Ok(());
        };
        let Some(at) = self.open.iter().position(|o| o.number == drawn.token) else {
            return refuse(
                "RULES-deck 3",
                format!(
                    "{who} played {card} as the card of a draw that brought no such card to the hand, or whose card was played already: nothing was taken"
                ),
            );
        };
        if hidden::token(&drawn.blinding, card) != self.open[at].token {
            return refuse(
                "RULES-deck 3",
                format!(
                    "{who} played {card}, but the card committed to as it was drawn is another: a card not drawn was played; nothing was taken"
                ),
            );
        }
        self.open.remove(at);
        Ok(())
    }

    /// What the owner's machine shows for `card` from his hand: the first
    /// open token it matches, the secrets worked out by `secret`.
    pub(crate) fn show(
        &self,
        game: &str,
        card: &str,
        secret: impl Fn(&PickCommitment) -> Option<PickSecret>,
    ) -> Option<Drawn> {
        self.open.iter().find_map(|o| {
            let blinding = secret(&o.under)?.blinding(game, o.number);
            (hidden::token(&blinding, card) == o.token).then_some(Drawn {
                token: o.number,
                blinding,
            })
        })
    }

    /// Whether a card played from the hand must show its draw.
    pub(crate) fn all_committed(&self) -> bool {
        self.loose == 0
    }
}
