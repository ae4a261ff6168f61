//! Exact odds a player sees privately (RULES-deck 7), from what he knows:
//! his hand, his discard pile and so the cards left in his deck (whose
//! order nobody knows: every order is equally likely, so the cards drawn
//! are a uniform sample without replacement, the hypergeometric law).
//!
//! His next redraw, if nothing changes before it, draws up to his hand
//! size: from the deck, and when the deck runs out, from his discards
//! shuffled into a new deck.

use super::cards::{CardSet, Kind};
use super::phase::Letter;
use super::zones::Zones;

/// The odds of the next redraw.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    /// Cards the redraw draws (fewer when deck and discards run out).
    pub draws: usize,
    /// Cards left in the deck: draws until it runs out.
    pub deck_left: usize,
    /// For each phase letter, the chance the redraw brings at least one
    /// interrupt for it, and whether one is in hand already.
    pub interrupts: Vec<(Letter, f64, bool)>,
    /// `laurels[n]`: the chance the hand after the redraw holds at least
    /// `n` laurels in all.
    pub laurels: Vec<f64>,
}

/// Ways to choose `k` of `n`, as f64 (exact up to 2^53, then within a
/// rounding error; odds are ratios of them).
fn choose(n: usize, k: usize) -> f64 {
    if k > n {
        return 0.0;
    }
    let k = k.min(n - k);
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// The chance that `k` cards drawn from a pool of `n` holding `m` marked
/// cards include at least one of them.
pub fn at_least_one(n: usize, m: usize, k: usize) -> f64 {
    if k == 0 || m == 0 {
        return 0.0;
    }
    if k > n - m {
        return 1.0;
    }
    // 1 - C(n-m, k) / C(n, k), as a product to stay exact.
    1.0 - (0..k).fold(1.0, |acc, i| acc * (n - m - i) as f64 / (n - i) as f64)
}

/// The law of the sum of `k` values drawn without replacement from `pool`:
/// `law[s]` is the chance the sum is `s`.
pub fn sum_law(pool: &[u32], k: usize) -> Vec<f64> {
    let k = k.min(pool.len());
    let max: usize = {
        let mut v: Vec<u32> = pool.to_vec();
        v.sort_unstable_by(|a, b| b.cmp(a));
        v.iter().take(k).map(|&x| x as usize).sum()
    };
    // ways[j][s]: ways to pick j cards summing to s, group by group.
    let mut ways = vec![vec![0.0f64; max + 1]; k + 1];
    ways[0][0] = 1.0;
    let mut values: Vec<u32> = pool.to_vec();
    values.sort_unstable();
    values.dedup();
    for v in values {
        let count = pool.iter().filter(|&&x| x == v).count();
        let mut next = vec![vec![0.0f64; max + 1]; k + 1];
        for (j, row) in ways.iter().enumerate() {
            for (s, &w) in row.iter().enumerate() {
                if w == 0.0 {
                    continue;
                }
                for t in 0..=count.min(k - j) {
                    let sum = s + t * v as usize;
                    if sum <= max {
                        next[j + t][sum] += w * choose(count, t);
                    }
                }
            }
        }
        ways = next;
    }
    let total = choose(pool.len(), k);
    ways[k].iter().map(|w| w / total).collect()
}

/// The odds of `zones`' owner's next redraw up to `hand_size`.
pub fn redraw(zones: &Zones, set: &CardSet, hand_size: usize) -> Odds {
    let need = hand_size.saturating_sub(zones.hand.len());
    let deck = zones.deck.len();
    // Drawn from the deck at random, and past its end from the discards.
    let (pool, k, certain): (&[String], usize, &[String]) = if need <= deck {
        (&zones.deck, need, &[])
    } else {
        (
            &zones.discard,
            (need - deck).min(zones.discard.len()),
            &zones.deck,
        )
    };
    let card = |id: &String| set.card(id);
    let interrupts = Letter::ALL
        .into_iter()
        .map(|letter| {
            let marked = |id: &&String| {
                card(id).is_some_and(|c| c.kind == Kind::Interrupt && c.phase == Some(letter))
            };
            let chance = if certain.iter().any(|c| marked(&c)) {
                1.0
            } else {
                at_least_one(pool.len(), pool.iter().filter(marked).count(), k)
            };
            (letter, chance, zones.hand.iter().any(|c| marked(&c)))
        })
        .collect();
    let laurels_of =
        |ids: &[String]| -> u32 { ids.iter().filter_map(card).map(|c| c.laurels).sum() };
    let fixed = (laurels_of(&zones.hand) + laurels_of(certain)) as usize;
    let values: Vec<u32> = pool.iter().filter_map(card).map(|c| c.laurels).collect();
    let law = sum_law(&values, k);
    let mut exact = vec![0.0; fixed + law.len()];
    for (s, p) in law.iter().enumerate() {
        exact[fixed + s] += p;
    }
    // At least n: the tail sums.
    let mut laurels = vec![0.0; exact.len()];
    let mut tail = 0.0;
    for n in (0..exact.len()).rev() {
        tail += exact[n];
        laurels[n] = tail.min(1.0);
    }
    Odds {
        draws: certain.len() + k,
        deck_left: deck,
        interrupts,
        laurels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} != {b}");
    }

    #[test]
    fn hypergeometric_by_hand() {
        // 20 cards, 2 interrupts, draw 5: 1 - C(18,5)/C(20,5) = 1 - 8568/15504.
        close(at_least_one(20, 2, 5), 1.0 - 8568.0 / 15504.0);
        // 10 cards, 1 marked, draw 3: 3/10.
        close(at_least_one(10, 1, 3), 0.3);
        close(at_least_one(10, 0, 3), 0.0);
        close(at_least_one(4, 2, 3), 1.0);
        close(choose(20, 5), 15504.0);
    }

    #[test]
    fn the_law_of_a_sum_by_hand() {
        // Pool 3, 1, 1, 0; draw 2 of 6 pairs: sums 4 (2 pairs), 3 (1), 2 (1), 1 (2).
        let law = sum_law(&[3, 1, 1, 0], 2);
        close(law[4], 2.0 / 6.0);
        close(law[3], 1.0 / 6.0);
        close(law[2], 1.0 / 6.0);
        close(law[1], 2.0 / 6.0);
        close(law[0], 0.0);
        close(law.iter().sum(), 1.0);
    }

    fn set() -> CardSet {
        CardSet::example()
    }

    #[test]
    fn redraw_odds_from_the_deck() {
        let set = set();
        // Hand of 5 (two to draw); deck: one Sudden Halt (M) and 9 others.
        let mut deck = vec!["i-halt".to_string()];
        deck.extend(vec!["n-cry".to_string(); 9]);
        let zones = Zones {
            hand: vec!["n-valour".into(); 5],
            deck,
            ..Zones::default()
        };
        let odds = redraw(&zones, &set, 7);
        assert_eq!((odds.draws, odds.deck_left), (2, 10));
        let m = odds
            .interrupts
            .iter()
            .find(|(l, ..)| *l == Letter::M)
            .unwrap();
        close(m.1, 2.0 / 10.0);
        assert!(!m.2);
        let r = odds
            .interrupts
            .iter()
            .find(|(l, ..)| *l == Letter::R)
            .unwrap();
        close(r.1, 0.0);
        // 15 laurels in hand, each card drawn brings 1: exactly 17.
        close(odds.laurels[17], 1.0);
        assert_eq!(odds.laurels.len(), 18);
    }

    #[test]
    fn redraw_odds_past_the_end_of_the_deck() {
        let set = set();
        // Deck of 2 drawn whole, then 2 of the 4 discards.
        let zones = Zones {
            hand: vec!["n-cry".into(); 3],
            deck: vec!["n-press".into(), "n-press".into()],
            discard: vec![
                "i-doubts".into(),
                "n-valour".into(),
                "n-valour".into(),
                "n-cry".into(),
            ],
            ..Zones::default()
        };
        let odds = redraw(&zones, &set, 7);
        assert_eq!(odds.draws, 4);
        let r = odds
            .interrupts
            .iter()
            .find(|(l, ..)| *l == Letter::R)
            .unwrap();
        close(r.1, 0.5);
        // Fixed: 3 (hand) + 4 (deck) = 7; two of {1, 3, 3, 1}: sum 6 (1/6),
        // 4 (4/6), 2 (1/6). At least 11: 4/6 + 1/6.
        close(odds.laurels[13], 1.0 / 6.0);
        close(odds.laurels[11], 5.0 / 6.0);
        close(odds.laurels[9], 1.0);
    }
}
