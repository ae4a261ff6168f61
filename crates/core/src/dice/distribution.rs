//! Exact probability distributions of dice totals, with quality re-rolls.
//!
//! Each die is counted over 36 equally likely (first roll, re-roll) pairs, so
//! a re-rolled die and a plain one share a denominator and sums stay exact
//! integers: n dice have denominator 36^n.

use super::RerollRule;
use std::collections::BTreeMap;

/// An exact probability, `num / den`, in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probability {
    pub num: u64,
    pub den: u64,
}

impl Probability {
    pub fn new(num: u64, den: u64) -> Probability {
        let g = gcd(num, den).max(1);
        Probability {
            num: num / g,
            den: den / g,
        }
    }

    pub fn value(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// Whether this equals `num / den`.
    pub fn is(self, num: u64, den: u64) -> bool {
        self == Probability::new(num, den)
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Ways to reach each total, out of `den`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distribution {
    den: u64,
    ways: BTreeMap<i32, u64>,
}

impl Distribution {
    /// One d6, with a quality re-roll rule if one applies.
    pub fn die(reroll: Option<&RerollRule>) -> Distribution {
        let mut ways = BTreeMap::new();
        for first in 1..=6u8 {
            for second in 1..=6u8 {
                let face = match reroll {
                    Some(rule) if rule.rerolls(first) => rule.keep(first, second),
                    _ => first,
                };
                *ways.entry(i32::from(face)).or_insert(0) += 1;
            }
        }
        Distribution { den: 36, ways }
    }

    /// The sum of `n` such dice.
    pub fn dice(n: usize, reroll: Option<&RerollRule>) -> Distribution {
        let one = Distribution::die(reroll);
        let mut acc = Distribution {
            den: 1,
            ways: BTreeMap::from([(0, 1)]),
        };
        for _ in 0..n {
            acc = acc.plus(&one);
        }
        acc
    }

    /// The distribution of the sum of two independent totals.
    pub fn plus(&self, other: &Distribution) -> Distribution {
        let mut ways = BTreeMap::new();
        for (a, wa) in &self.ways {
            for (b, wb) in &other.ways {
                *ways.entry(a + b).or_insert(0) += wa * wb;
            }
        }
        Distribution {
            den: self.den * other.den,
            ways,
        }
    }

    /// Adds a fixed modifier to every total.
    pub fn shifted(&self, by: i32) -> Distribution {
        Distribution {
            den: self.den,
            ways: self.ways.iter().map(|(t, w)| (t + by, *w)).collect(),
        }
    }

    /// P(total = t).
    pub fn exactly(&self, t: i32) -> Probability {
        Probability::new(self.ways.get(&t).copied().unwrap_or(0), self.den)
    }

    /// P(total >= t).
    pub fn at_least(&self, t: i32) -> Probability {
        Probability::new(self.ways.range(t..).map(|(_, w)| w).sum(), self.den)
    }

    /// P(total < t).
    pub fn below(&self, t: i32) -> Probability {
        Probability::new(self.ways.range(..t).map(|(_, w)| w).sum(), self.den)
    }

    /// Each possible total with its probability, lowest first.
    pub fn outcomes(&self) -> impl Iterator<Item = (i32, Probability)> + '_ {
        self.ways
            .iter()
            .map(|(t, w)| (*t, Probability::new(*w, self.den)))
    }
}
