//! The slack's place on the curve: an allowance granted at any input for the families' steps and
//! tangents (DODO, the E-CLP), a raw unit per swap over the first `MAX_SWAPS_PER_POOL` raw units
//! for the line and the falling rate (LunarBase); the cap.

use super::{BoundCurve, FallingRate};
use crate::route::convex::curve::MAX_SWAPS_PER_POOL;

const SWAPS: f64 = MAX_SWAPS_PER_POOL as f64;

#[test]
fn the_steps_grant_every_swaps_slack_at_any_input_and_start_at_their_own_rate() {
    // A rate of 3·10⁻⁹ raw out per raw in (WETH → USDC) and 6 units of slack a swap.
    let (rate, per_swap, once) = (3e-9, 6.0, 10.0);
    let curve =
        BoundCurve::steps(&[(1e12, rate), (f64::INFINITY, rate / 2.0)], per_swap, once, 1e15)
            .expect("a curve");
    let allowance = per_swap * SWAPS + once;
    assert_eq!(curve.allowance, allowance);
    // The pieces are the family's own: the first rate is the pool's, not one swap's slack a raw
    // unit (the corner the dual stopped on).
    assert_eq!(curve.pieces()[0].1, rate);
    assert_eq!(curve.value(0.0), 0.0);
    assert_eq!(curve.value(1.0), rate + allowance);
    for t in [2.0, 10.0, SWAPS, 1e6] {
        let expected = rate * t + allowance;
        assert!((curve.value(t) - expected).abs() <= 1e-12 * expected, "{t}");
    }
    assert!((curve.value(2e12) - (rate * 1e12 + rate / 2.0 * 1e12 + allowance)).abs() < 1e-3);
    // The convex search's curve is the same, its value at zero the allowance.
    use crate::route::convex::curve::Shape;
    let shape = crate::pools::shape::Piecewise::with_allowance(curve.pieces(), curve.allowance);
    assert_eq!(shape.value(0.0), allowance);
    assert_eq!(shape.first_rate(), rate);
    for t in [1.0, 1e6, 2e12] {
        assert_eq!(shape.value(t), curve.value(t));
    }
    // Against a price above the first rate nothing is sold, and the allowance is still received.
    let idle = shape.respond(rate * 2.0);
    assert_eq!((idle.input, idle.output), (0.0, allowance));
    let first = shape.respond(rate * 0.75);
    assert_eq!((first.input, first.output), (1e12, rate * 1e12 + allowance));
}

#[test]
fn the_tangents_start_at_their_lowest_line_and_grant_the_slack_at_any_input() {
    use super::Tangent;
    // The highest price 2, the price now 1 (a line from the origin), a tangent of slope 0.5.
    let (slack, spot) = (3.0, Tangent { at: 0.0, value: 0.0, slope: 1.0 });
    let tangent = Tangent { at: 1e6, value: 9e5, slope: 0.5 };
    let curve = BoundCurve::tangents(2.0, &[spot, tangent], slack, 1e9).expect("a curve");
    assert_eq!(curve.allowance, slack * SWAPS);
    assert_eq!(curve.pieces()[0].1, 1.0);
    assert_eq!(curve.value(1e3), 1e3 + slack * SWAPS);
    assert_eq!(curve.value(8e5), 8e5 + slack * SWAPS);
    assert_eq!(curve.value(2e6), 9e5 + 0.5e6 + slack * SWAPS);
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
    // A cap inside the slack, and one past it.
    for cap in [100.0, 1e7] {
        let curve =
            BoundCurve::steps(&[(1e4, 2.0), (f64::INFINITY, 1.0)], 6.0, 3.0, cap).expect("a curve");
        assert_eq!(curve.value(1e9), cap);
        let rates: Vec<f64> = curve.pieces().iter().map(|p| p.1).collect();
        assert!(rates.windows(2).all(|w| w[0] >= w[1]), "{rates:?}");
    }
}
