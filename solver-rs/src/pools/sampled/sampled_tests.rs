//! Properties of the sampled model, checked against the raw samples with exact integer arithmetic.

use super::*;
use crate::pools::input::FromWire;
use proptest::prelude::*;
use ruint::aliases::U512;

fn u(x: u128) -> U256 {
    U256::from(x)
}

/// Samples from increments: inputs strictly ascend; outputs are arbitrary (may fall).
fn samples_from(steps: &[(u64, u64)], outs_cumulative: bool) -> Vec<(U256, U256)> {
    let (mut x, mut y) = (U256::ZERO, U256::ZERO);
    steps
        .iter()
        .map(|&(dx, dy)| {
            x += U256::from(dx) * u(1_000_003);
            y = if outs_cumulative {
                y + U256::from(dy) * u(999_983)
            } else {
                U256::from(dy) * u(999_983)
            };
            (x, y)
        })
        .collect()
}

/// Samples kept by the truncation rule: up to the first output below an earlier one.
fn kept(samples: &[(U256, U256)]) -> Vec<(U256, U256)> {
    let mut out: Vec<(U256, U256)> = Vec::new();
    for &s in samples {
        if out.last().is_some_and(|l| s.1 < l.1) {
            break;
        }
        out.push(s);
    }
    out
}

/// (a·b) as 512 bits, for exact cross-multiplied comparisons.
fn w(a: U256, b: U256) -> U512 {
    U512::from(a) * U512::from(b)
}

fn pool(margin: u32, samples: &[(U256, U256)]) -> SampledPool {
    SampledPool::new(margin, samples, samples)
}

fn gross(p: &SampledPool, x: U256) -> U256 {
    p.curve(0, 1).unwrap().value_round_down(x).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_fit_is_monotone_concave_and_under_every_sample_and_chord(
        steps in prop::collection::vec((1u64..1_000_000, 0u64..1_000_000), 1..12),
        cumulative in any::<bool>(), probes in prop::collection::vec(0u64..u64::MAX, 8),
    ) {
        let samples = samples_from(&steps, cumulative);
        let kept = kept(&samples);
        let p = pool(0, &samples);
        let bp = p.curve(0, 1).unwrap().breakpoints().to_vec();
        prop_assert_eq!(bp.len(), kept.len() + 1, "truncation");
        for pair in bp.windows(3) {
            let (a, b, c) = (pair[0], pair[1], pair[2]);
            // Non-decreasing and slope(b→c) ≤ slope(a→b), cross-multiplied.
            prop_assert!(b.1 <= c.1);
            prop_assert!(w(c.1 - b.1, b.0 - a.0) <= w(b.1 - a.1, c.0 - b.0), "convex turn at {:?}", b);
        }
        for (i, &(x, y)) in kept.iter().enumerate() {
            prop_assert!(bp[i + 1].0 == x && bp[i + 1].1 <= y, "above sample {i}");
        }
        let last = kept.last().unwrap().0;
        for probe in probes {
            let t = U256::from(probe) % (last + u(1));
            let c = gross(&p, t);
            // Under the straight line through the samples (with (0, 0)) around t.
            let k = kept.partition_point(|s| s.0 < t);
            let (x0, y0) = if k == 0 { (U256::ZERO, U256::ZERO) } else { kept[k - 1] };
            let (x1, y1) = kept[k.min(kept.len() - 1)];
            if x1 > x0 {
                prop_assert!(w(c, x1 - x0) <= w(y0, x1 - x0) + w(y1 - y0, t - x0), "above chord at {t}");
            }
            // Monotone against a smaller probe.
            let s = t / u(3);
            prop_assert!(gross(&p, s) <= c);
        }
        prop_assert_eq!(p.amount_out(0, 1, last + u(1)), Err(PoolError::InsufficientLiquidity));
        if kept.len() < samples.len() {
            prop_assert_eq!(p.amount_out(0, 1, samples[kept.len()].0), Err(PoolError::InsufficientLiquidity));
        }
    }

    #[test]
    fn concave_samples_are_met_exactly_and_margin_is_floored(
        mut slopes in prop::collection::vec((1u64..1_000_000, 0u64..1_000_000), 1..10),
        margin in 0u32..=10_000, probe in 0u64..u64::MAX,
    ) {
        // Non-increasing slopes: sort the rises per unit and build exact integer samples.
        slopes.sort_by_key(|s| std::cmp::Reverse(s.1));
        let (mut x, mut y, mut samples) = (U256::ZERO, U256::ZERO, Vec::new());
        for &(dx, slope) in &slopes {
            x += U256::from(dx);
            y += U256::from(dx) * U256::from(slope);
            samples.push((x, y));
        }
        let p = pool(margin, &samples);
        for &(sx, sy) in &samples {
            prop_assert_eq!(gross(&p, sx), sy, "not exact at a concave sample");
        }
        let t = U256::from(probe) % (x + u(1));
        let g = gross(&p, t);
        let expect = g * U256::from(10_000 - margin) / u(10_000);
        match p.amount_out(0, 1, t) {
            Ok(q) => prop_assert_eq!(q.amount_out, expect),
            Err(e) => prop_assert!(e == PoolError::InsufficientLiquidity && expect.is_zero(), "{e:?}"),
        }
    }

    #[test]
    fn marginal_output_never_rises_and_split_trades_never_beat_one(
        steps in prop::collection::vec((1u64..1_000_000, 0u64..1_000_000), 1..12),
        margin in 0u32..=10_000, cuts in prop::collection::vec(0u64..u64::MAX, 3),
    ) {
        let samples = samples_from(&steps, true);
        let p = pool(margin, &samples);
        let last = p.curve(0, 1).unwrap().max_input();
        let mut c: Vec<U256> = cuts.iter().map(|v| U256::from(*v) % (last + u(1))).collect();
        c.sort();
        let (a, b) = (c[0], c[1] - c[0]);
        let q = |pool: &SampledPool, x: U256| pool.amount_out(0, 1, x).map_or(U256::ZERO, |o| o.amount_out);
        // apply(a) then quote(b) ≤ quote(a + b).
        if let Ok((first, moved)) = p.apply(0, 1, a) {
            prop_assert_eq!(moved.consumed_in(0, 1), a);
            prop_assert!(first.amount_out + q(&moved, b) <= q(&p, a + b));
            prop_assert!(moved.spot_price(0, 1) <= p.spot_price(0, 1));
        }
        // Equal steps h from 0: each step's gross output is at most the one before it, up to
        // the one unit the floor of the later end can gain.
        let h = last / u(4);
        if !h.is_zero() {
            let v: Vec<U256> = (0..=4u64).map(|i| gross(&p, h * U256::from(i))).collect();
            for i in 1..4 {
                prop_assert!(v[i + 1] - v[i] <= v[i] - v[i - 1] + u(1));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// The search's bound is never below the exact output, fresh or after part of the curve was
    /// consumed (consumed exactly at a breakpoint included), for any margin.
    #[test]
    fn the_output_bound_holds(
        steps in prop::collection::vec((1u64..1_000_000, 0u64..1_000_000), 1..12), cumulative: bool,
        margin in 0u32..=10_000, cuts in prop::collection::vec(0u64..u64::MAX, 2), at_breakpoint: bool,
    ) {
        let samples = samples_from(&steps, cumulative);
        let p = pool(margin, &samples);
        let last = p.curve(0, 1).unwrap().max_input();
        let consumed = if at_breakpoint { samples[0].0.min(last) } else { U256::from(cuts[0]) % (last + u(1)) };
        let moved = if consumed.is_zero() { p.clone() } else { p.apply(0, 1, consumed).map_or(p.clone(), |(_, m)| m) };
        for amount in [U256::from(cuts[1]) % (last + u(1)), u(1), last] {
            if let Ok(outcome) = moved.amount_out(0, 1, amount) {
                let bound = moved.amount_out_bound(0, 1, f64::from(amount));
                prop_assert!(f64::from(outcome.amount_out) <= bound * (1.0 + 1e-12), "{} pays {} > {bound}", amount, outcome.amount_out);
            }
        }
    }
}

#[test]
fn worked_non_concave_fit_by_hand() {
    // Samples (100, 100), (200, 100), (300, 300): slopes 1, 0, 2. The fit keeps (100, 100); the
    // second segment is already flat; the third is capped at slope 0, so (300, 100).
    let s = [(u(100), u(100)), (u(200), u(100)), (u(300), u(300))];
    let p = pool(0, &s);
    assert_eq!(
        p.curve(0, 1).unwrap().breakpoints(),
        &[(u(0), u(0)), (u(100), u(100)), (u(200), u(100)), (u(300), u(100))]
    );
    // Slopes 2, 3, 1 over gaps of 10: (10, 20), cap 20+20=40 < 50 → 40, then 40+10=50 ≤ 40+20.
    let s = [(u(10), u(20)), (u(20), u(50)), (u(30), u(60))];
    let bp = pool(0, &s).curve(0, 1).unwrap().breakpoints().to_vec();
    assert_eq!(bp, vec![(u(0), u(0)), (u(10), u(20)), (u(20), u(40)), (u(30), u(60))]);
    // The cap floors: slope 7/3 over a gap of 2 adds floor(14/3) = 4.
    let s = [(u(3), u(7)), (u(5), u(1_000))];
    assert_eq!(pool(0, &s).curve(0, 1).unwrap().breakpoints()[2], (u(5), u(11)));
    // Interpolation rounds down: 7/3 at x = 1 is 2.33 → 2; with a 50 bps margin, 2·9950/10000 → 1.
    let p = pool(50, &s);
    assert_eq!(p.curve(0, 1).unwrap().value_round_down(u(1)).unwrap(), u(2));
    assert_eq!(p.curve(0, 1).unwrap().value_round_up(u(1)).unwrap(), u(3));
    assert_eq!(p.amount_out(0, 1, u(1)).unwrap().amount_out, u(1));
    assert!((p.spot_price(0, 1) - 7.0 / 3.0 * 0.995).abs() < 1e-12);
}

#[test]
fn a_moved_trade_never_pays_more_than_the_exact_curve_between_its_ends() {
    // Slope 2.9: C(1) = 2.9, C(2) = 5.8. After 1 in, 1 more is worth exactly 2.9; flooring both
    // ends would pay 5 − 2 = 3, so the near end is rounded up: 5 − 3 = 2.
    let (_, moved) = pool(0, &[(u(10), u(29))]).apply(0, 1, u(1)).unwrap();
    assert_eq!(moved.amount_out(0, 1, u(1)).unwrap().amount_out, u(2));
}

#[test]
fn falling_outputs_truncate_and_zero_outputs_quote_nothing() {
    // A venue that stops filling at 3e6 (returns 0): sizes from there on are refused.
    let s = [
        (u(1_000_000), u(500)),
        (u(2_000_000), u(990)),
        (u(3_000_000), u(0)),
        (u(4_000_000), u(2_000)),
    ];
    let p = pool(0, &s);
    assert_eq!(p.curve(0, 1).unwrap().max_input(), u(2_000_000));
    assert_eq!(p.amount_out(0, 1, u(2_000_000)).unwrap().amount_out, u(990));
    assert_eq!(p.amount_out(0, 1, u(2_000_001)), Err(PoolError::InsufficientLiquidity));
    // A dust sample paying 0 flattens everything after it: the direction quotes nothing.
    let p = pool(0, &[(u(10), u(0)), (u(1_000), u(900))]);
    assert_eq!(p.amount_out(0, 1, u(1_000)), Err(PoolError::InsufficientLiquidity));
}

#[test]
fn empty_directions_and_bad_directions_are_errors() {
    let p = SampledPool::new(0, &[(u(10), u(10))], &[]);
    assert_eq!(p.amount_out(1, 0, u(1)), Err(PoolError::InsufficientLiquidity));
    assert_eq!(p.apply(1, 0, u(1)).err(), Some(PoolError::InsufficientLiquidity));
    assert_eq!(p.spot_price(1, 0), 0.0);
    assert_eq!(p.amount_out(0, 1, u(10)).unwrap(), SwapOutcome::flat(u(10)));
    assert_eq!(p.amount_out(0, 1, U256::MAX), Err(PoolError::InsufficientLiquidity));
    assert_eq!(
        p.amount_out(1, 1, u(1)),
        Err(PoolError::BadDirection { token_in: 1, token_out: 1 })
    );
    // Consuming the whole curve leaves nothing, and an overflowing end is refused, not a panic.
    let (_, spent) = p.apply(0, 1, u(10)).unwrap();
    assert_eq!(spent.amount_out(0, 1, u(1)), Err(PoolError::InsufficientLiquidity));
    assert_eq!(spent.amount_out(0, 1, U256::MAX), Err(PoolError::InsufficientLiquidity));
    assert_eq!(spent.spot_price(0, 1), 0.0);
}

#[test]
fn malformed_wire_is_refused_naming_the_field() {
    let spec = crate::pools::registry::spec(crate::dex::DexId::Tessera);
    let parse = |json: &str| SampledPool::from_wire(serde_json::from_str(json).unwrap(), &spec);
    let ok = parse(r#"{"marginBps":100,"zeroForOne":[["10","9"],["20","17"]],"oneForZero":[]}"#)
        .unwrap();
    assert_eq!(ok.amount_out(0, 1, u(20)).unwrap().amount_out, u(16));
    for (json, field) in [
        (r#"{"marginBps":10001,"zeroForOne":[],"oneForZero":[]}"#, "marginBps"),
        (r#"{"marginBps":0,"zeroForOne":[["0","1"]],"oneForZero":[]}"#, "zeroForOne[0][0]"),
        (
            r#"{"marginBps":0,"zeroForOne":[],"oneForZero":[["5","1"],["5","2"]]}"#,
            "oneForZero[1][0]",
        ),
        (
            r#"{"marginBps":0,"zeroForOne":[["5","1"],["4","2"]],"oneForZero":[]}"#,
            "zeroForOne[1][0]",
        ),
        (r#"{"marginBps":0,"zeroForOne":[["5","1.5"]],"oneForZero":[]}"#, "zeroForOne[0][1]"),
        (r#"{"marginBps":0,"zeroForOne":[],"oneForZero":[["0x5","1"]]}"#, "oneForZero[0][0]"),
    ] {
        let err = parse(json).unwrap_err().to_string();
        assert!(err.contains(field), "{json}: {err}");
    }
    assert!(serde_json::from_str::<SampledWire>(
        r#"{"marginBps":0,"zeroForOne":[],"oneForZero":[],"x":1}"#
    )
    .is_err());
    assert!(serde_json::from_str::<SampledWire>(
        r#"{"marginBps":0,"zeroForOne":[["1"]],"oneForZero":[]}"#
    )
    .is_err());
}
