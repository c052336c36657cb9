//! Where a copy's excess changes sign: the one-dimensional search behind the dual's warm start and
//! its corners' passes (`solve.rs`, `settle`), nearly all of the dual solve's time.
//!
//! The price is bracketed by halving or doubling and then bisected geometrically to the last bit
//! (about 55 midpoints), and the bound, the flows and so the optimizer's start depend on those last
//! bits. Each midpoint's sign is all the bisection reads, and the excess rises with the price (g is
//! convex), so a midpoint well away from the sign change needs no evaluation: its sign is known
//! from a point evaluated nearer. A regula falsi (Illinois) first narrows the sign change to
//! [`WINDOW`] in a few evaluations; the bisection then runs over the same midpoints as before and
//! evaluates only those within [`MARGIN`] of that window, so it ends on the same bits with about
//! half the evaluations. A search that sees the excess not rise (a point between two evaluated
//! ones outside their values, or NaN) infers nothing and evaluates every midpoint as before.

/// Bisection steps at most.
const BISECTIONS: usize = 80;
/// The regula falsi stops once its bracket is this narrow (relative).
const WINDOW: f64 = 1e-12;
/// Midpoints closer than this (relative) to the regula falsi's bracket are evaluated, not
/// inferred: where the excess is near 0, rounding can give it either sign, and a midpoint the
/// bisection before this search evaluated must get the sign it got. Rounding moves the excess by
/// about 10⁻¹⁶ of the flows, so its sign is in doubt within about that much of the price (times
/// the copy's elasticity); this margin is 10⁴ times wider (on the synthetic markets' trades the
/// bisection ended on the same bits with no margin at all).
const MARGIN: f64 = 1e-12;
/// Evaluations at most of the regula falsi.
const SEARCH_STEPS: usize = 40;

/// Where `excess` (rising in the price) changes sign, from `start`: bracketed by halving or
/// doubling, then bisected geometrically, the lowest price whose excess is ≥ 0 kept (zero excess
/// goes down: over a range of prices where nothing changes, a copy that receives nothing sends
/// nothing at any price from its first unit's up, and no copy is priced above what its flow is
/// worth). The midpoints' signs far from the sign change are inferred (module doc), so wherever
/// the excess does rise with the price the answer is the plain bisection's to the bit. None once
/// `excess` answers None (the deadline).
pub(super) fn bracket_and_bisect(
    start: f64,
    mut excess: impl FnMut(f64) -> Option<f64>,
) -> Option<f64> {
    let (mut lo, mut hi) = (start, start);
    let at_start = excess(start)?;
    let (mut below, mut above) = (at_start, at_start);
    if at_start >= 0.0 {
        // Too dear (flow is left over) or on a flat stretch: lower until the copy sends more than it has.
        for _ in 0..200 {
            lo *= 0.5;
            below = excess(lo)?;
            if below < 0.0 {
                break;
            }
        }
    } else {
        for _ in 0..200 {
            hi *= 2.0;
            above = excess(hi)?;
            if above >= 0.0 {
                break;
            }
        }
    }
    // Only a sign change found by the bracket is narrowed (NaN is neither side).
    let known = match below < 0.0 && above >= 0.0 {
        true => narrow(lo, below, hi, above, &mut excess)?,
        false => None,
    };
    for _ in 0..BISECTIONS {
        let mid = (lo * hi).sqrt();
        if !(mid > lo && mid < hi) {
            break;
        }
        let rises = match known {
            Some((negative, _)) if mid < negative => false,
            Some((_, nonnegative)) if mid > nonnegative => true,
            _ => excess(mid)? >= 0.0,
        };
        if rises {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some((lo * hi).sqrt())
}

/// From `a` (excess `ea` < 0) and `b` (`eb` ≥ 0), the regula falsi in the log of the price, with
/// Illinois' halving of an end kept twice: prices below the first bound returned have excess < 0
/// and prices above the second ≥ 0 (the bracket reached, widened by [`MARGIN`]). None inside
/// where the excess is seen not to rise (a point between two evaluated ones outside their values,
/// NaN included): the bisection then evaluates every midpoint. None once `excess` answers None.
fn narrow(
    mut a: f64,
    mut ea: f64,
    mut b: f64,
    mut eb: f64,
    excess: &mut impl FnMut(f64) -> Option<f64>,
) -> Option<Option<(f64, f64)>> {
    // Which end the last step moved: -1 the low one, 1 the high one.
    let mut moved = 0i8;
    // The excess at a and b as evaluated (Illinois halves ea and eb).
    let (mut at_a, mut at_b) = (ea, eb);
    for _ in 0..SEARCH_STEPS {
        if b <= a * (1.0 + WINDOW) {
            break;
        }
        let (la, lb) = (a.ln(), b.ln());
        let mut p = (la + (lb - la) * (ea / (ea - eb))).exp();
        if !(p > a && p < b) {
            p = (a * b).sqrt();
        }
        let e = excess(p)?;
        // Not rising between a and b (a NaN included): signs cannot be inferred from here.
        if !(at_a <= e && e <= at_b) {
            return Some(None);
        }
        if e >= 0.0 {
            (b, eb, at_b) = (p, e, e);
            if moved == 1 {
                ea *= 0.5;
            }
            moved = 1;
        } else {
            (a, ea, at_a) = (p, e, e);
            if moved == -1 {
                eb *= 0.5;
            }
            moved = -1;
        }
    }
    Some(Some((a / (1.0 + MARGIN), b * (1.0 + MARGIN))))
}

/// The bisection as it was before the midpoints' signs were inferred: every midpoint evaluated
/// (the reference the tests hold [`bracket_and_bisect`] to, bit for bit).
#[cfg(test)]
pub(super) fn bisect_every(start: f64, mut excess: impl FnMut(f64) -> Option<f64>) -> Option<f64> {
    let (mut lo, mut hi) = (start, start);
    if excess(start)? >= 0.0 {
        for _ in 0..200 {
            lo *= 0.5;
            if excess(lo)? < 0.0 {
                break;
            }
        }
    } else {
        for _ in 0..200 {
            hi *= 2.0;
            if excess(hi)? >= 0.0 {
                break;
            }
        }
    }
    for _ in 0..BISECTIONS {
        let mid = (lo * hi).sqrt();
        if !(mid > lo && mid < hi) {
            break;
        }
        if excess(mid)? >= 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some((lo * hi).sqrt())
}

#[cfg(test)]
#[path = "sign_change_tests.rs"]
mod tests;
