use super::*;
use crate::ruleset::Ruleset;

#[test]
fn seeded_stream_is_reproducible_and_in_range() {
    let a: Vec<u8> = (0..200).map(|k| seeded_die(42, k)).collect();
    let b: Vec<u8> = (0..200).map(|k| seeded_die(42, k)).collect();
    assert_eq!(a, b);
    assert!(a.iter().all(|d| (1..=6).contains(d)));
    for face in 1..=6 {
        assert!(a.contains(&face), "face {face} never came up in 200 dice");
    }
    let c: Vec<u8> = (0..200).map(|k| seeded_die(43, k)).collect();
    assert_ne!(a, c);
}

#[test]
fn typed_dice_are_checked() {
    assert!(check_typed(&[3], 1, "initiative").is_ok());
    let e = check_typed(&[7], 1, "initiative").unwrap_err();
    assert_eq!(e.rule, "11");
    assert!(e.message.contains("7 was typed"), "{e}");
    let e = check_typed(&[0], 1, "initiative").unwrap_err();
    assert!(e.message.contains("0 was typed"), "{e}");
    let e = check_typed(&[3, 4], 1, "initiative").unwrap_err();
    assert_eq!(e.message, "initiative takes 1 die, 2 given");
}

#[test]
fn resolve_draws_from_the_stream_position() {
    let (dice, source) = resolve(&DiceInput::app(), 2, "test", 9, 5).unwrap();
    assert_eq!(dice, vec![seeded_die(9, 5), seeded_die(9, 6)]);
    assert_eq!(source, DiceSource::App { seed: 9, first: 5 });
}

#[test]
fn describe_shows_dice_modifiers_and_total() {
    let m = |r: &str, v| Modifier {
        reason: r.into(),
        value: v,
    };
    let r = Roll::new(vec![4], DiceSource::Typed, vec![m("Field Commander", 1)]);
    assert_eq!(r.describe(), "4 + 1 (Field Commander) = 5");
    let r = Roll::new(
        vec![3, 5],
        DiceSource::Typed,
        vec![m("medium or heavy foot", -1)],
    );
    assert_eq!(r.describe(), "3 + 5 - 1 (medium or heavy foot) = 7");
    assert_eq!(
        Roll::new(vec![6], DiceSource::Typed, vec![]).describe(),
        "6"
    );
}

#[test]
fn quality_rerolls_match_rules_10() {
    let q = Ruleset::builtin().quality_rerolls;
    let elite = Quality::Elite.rule(&q);
    assert!(elite.rerolls(1) && elite.rerolls(2) && !elite.rerolls(3));
    assert_eq!(elite.keep(2, 1), 2, "never lower than the first roll");
    assert_eq!(elite.keep(1, 5), 5);
    let sup = Quality::Superior.rule(&q);
    assert!(sup.rerolls(1) && !sup.rerolls(2));
    let poor = Quality::Poor.rule(&q);
    assert!(poor.rerolls(6));
    assert_eq!(poor.keep(6, 2), 2, "Poor must take the re-roll");
    assert!(!Quality::Average.rule(&q).reroll.iter().any(|_| true));
}

#[test]
fn elite_and_superior_never_lower_a_die() {
    let q = Ruleset::builtin().quality_rerolls;
    for quality in [Quality::Elite, Quality::Superior] {
        let rule = quality.rule(&q);
        for first in 1..=6 {
            for second in 1..=6 {
                let kept = if rule.rerolls(first) {
                    rule.keep(first, second)
                } else {
                    first
                };
                assert!(kept >= first);
            }
        }
    }
}

#[test]
fn exact_distributions() {
    let q = Ruleset::builtin().quality_rerolls;
    let two = Distribution::dice(2, None);
    assert!(two.at_least(10).is(6, 36), "arrival, no modifier");
    assert!(
        two.shifted(1).at_least(10).is(10, 36),
        "arrival, Field Commander"
    );
    assert!(two.shifted(-1).at_least(10).is(3, 36), "arrival, foot");
    // Straggling: average undrilled mounted, and average undrilled heavy foot.
    assert!(two.below(5).is(6, 36));
    assert!(two.shifted(-1).below(5).is(10, 36));
    let sup = Distribution::die(Some(Quality::Superior.rule(&q)));
    assert!(sup.exactly(1).is(1, 36));
    assert!(sup.exactly(6).is(7, 36));
    let elite = Distribution::die(Some(Quality::Elite.rule(&q)));
    assert!(elite.exactly(2).is(3, 36));
    assert!(elite.exactly(3).is(8, 36));
    let poor = Distribution::die(Some(Quality::Poor.rule(&q)));
    assert!(poor.exactly(6).is(1, 36));
    let total: u64 = Distribution::dice(3, Some(Quality::Elite.rule(&q)))
        .outcomes()
        .map(|(_, p)| p.value())
        .sum::<f64>()
        .round() as u64;
    assert_eq!(total, 1);
}

/// Pearson's chi-square of observed counts against expected probabilities.
fn chi_square(observed: &[u64], expected: &[f64]) -> f64 {
    let n: u64 = observed.iter().sum();
    observed
        .iter()
        .zip(expected)
        .map(|(&o, &p)| {
            let e = p * n as f64;
            (o as f64 - e).powi(2) / e
        })
        .sum()
}

#[test]
fn the_app_dice_fit_their_exact_distributions() {
    // Fixed seed: the test is deterministic. Critical values at p = 0.001.
    let seed = 20261122;
    let mut faces = [0u64; 6];
    for k in 0..60_000 {
        faces[usize::from(seeded_die(seed, k)) - 1] += 1;
    }
    let chi = chi_square(&faces, &[1.0 / 6.0; 6]);
    assert!(
        chi < 20.52,
        "one die: chi-square {chi:.2} with 5 degrees of freedom"
    );

    // 2d6 with Superior re-rolls, drawn as the straggling test draws them,
    // against the exact distribution.
    let rules = crate::ruleset::Ruleset::builtin();
    let rule = Quality::Superior.rule(&rules.quality_rerolls);
    let exact = Distribution::dice(2, Some(rule));
    let totals: Vec<i32> = exact.outcomes().map(|(t, _)| t).collect();
    let mut counts = vec![0u64; totals.len()];
    let mut drawn = 0;
    for _ in 0..30_000 {
        let roll =
            roll_with_rerolls(&DiceInput::app(), 2, "test", seed, drawn, vec![], rule).unwrap();
        drawn += roll.dice_used();
        let i = totals.iter().position(|t| *t == roll.total).unwrap();
        counts[i] += 1;
    }
    let expected: Vec<f64> = exact.outcomes().map(|(_, p)| p.value()).collect();
    let chi = chi_square(&counts, &expected);
    assert!(
        chi < 29.59,
        "2d6, Superior: chi-square {chi:.2} with 10 degrees of freedom"
    );
}

#[test]
fn typed_rerolls_take_one_more_die_per_face_the_rule_names() {
    let rules = crate::ruleset::Ruleset::builtin();
    let elite = Quality::Elite.rule(&rules.quality_rerolls);
    let roll = roll_with_rerolls(
        &DiceInput::Typed(vec![1, 5, 3]),
        2,
        "Elite test",
        0,
        0,
        vec![],
        elite,
    )
    .unwrap();
    assert_eq!(roll.total, 8, "1 re-rolled to 3, kept; plus 5");
    assert_eq!(roll.describe(), "1 (re-rolled: 3, kept 3) + 5 = 8");
    let e = roll_with_rerolls(
        &DiceInput::Typed(vec![2, 5]),
        2,
        "Elite test",
        0,
        0,
        vec![],
        elite,
    )
    .unwrap_err();
    assert!(e.message.contains("re-rolls takes 1 die, 0 given"), "{e}");
    let low = roll_with_rerolls(
        &DiceInput::Typed(vec![2, 6, 1]),
        2,
        "Elite",
        0,
        0,
        vec![],
        elite,
    )
    .unwrap();
    assert_eq!(
        low.total, 8,
        "a re-roll of 1 is not taken below the 2 first rolled"
    );
}
