//! The slack's place on the curve: a raw unit per swap over the first `MAX_SWAPS_PER_POOL` raw units
//! (a run of n swaps takes at least n), the once-a-run slack on the first, never the whole of it
//! on the first raw unit; the cap.

use super::{BoundCurve, FallingRate};
use crate::route::convex::curve::MAX_SWAPS_PER_POOL;

const SWAPS: f64 = MAX_SWAPS_PER_POOL as f64;

#[test]
fn the_first_raw_unit_carries_one_swaps_slack_not_every_swaps() {
    // A rate of 3·10⁻⁹ raw out per raw in (WETH → USDC) and 6 units of slack a swap.
    let (rate, per_swap, once) = (3e-9, 6.0, 10.0);
    let curve =
        BoundCurve::steps(&[(1e12, rate), (f64::INFINITY, rate / 2.0)], per_swap, once, 1e15)
            .expect("a curve");
    assert_eq!(curve.value(1.0), rate + per_swap + once);
    // Each further raw unit up to 64 may be another swap's.
    for t in [2.0, 10.0, SWAPS] {
        let expected = rate * t + per_swap * t + once;
        assert!((curve.value(t) - expected).abs() <= 1e-12 * expected, "{t}");
    }
    // Past 64 raw units no swap is left to round: the curve's own rate.
    let (a, b) = (1e6, 2e6);
    assert!((curve.value(b) - curve.value(a) - rate * (b - a)).abs() < 1e-9);
    assert!(
        (curve.value(2e12) - (rate * 1e12 + rate / 2.0 * 1e12 + per_swap * SWAPS + once)).abs()
            < 1e-3
    );
}

#[test]
fn the_line_and_the_falling_rate_spread_their_slack_too() {
    let line = BoundCurve::line(0.5, 2.0, 1e9).expect("a line");
    assert_eq!(line.value(1.0), 2.5);
    assert_eq!(line.value(SWAPS), 2.5 * SWAPS);
    assert_eq!(line.value(1000.0), 0.5 * 1000.0 + 2.0 * SWAPS);
    let falling = FallingRate { rate: 0.5, flat: 1e6, slope: 1e-9 };
    let curve = BoundCurve::falling(falling, 2.0, 1e12).expect("a curve");
    assert_eq!(curve.value(1.0), 2.5);
    assert_eq!(curve.value(1000.0), 0.5 * 1000.0 + 2.0 * SWAPS);
}

#[test]
fn the_curve_is_flat_at_its_cap_and_concave() {
    // A cap inside the slack's raw units, and one past them.
    for cap in [100.0, 1e7] {
        let curve =
            BoundCurve::steps(&[(1e4, 2.0), (f64::INFINITY, 1.0)], 6.0, 3.0, cap).expect("a curve");
        assert_eq!(curve.value(1e9), cap);
        let rates: Vec<f64> = curve.pieces().iter().map(|p| p.1).collect();
        assert!(rates.windows(2).all(|w| w[0] >= w[1]), "{rates:?}");
    }
}
