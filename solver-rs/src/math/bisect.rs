//! Bisection over amounts: the one way the optimizer narrows an amount between two known ones.

use super::U256;

/// ⌊(lo + hi) / 2⌋ for `lo ≤ hi`, without forming lo + hi (which can pass 2^256 − 1).
pub fn midpoint(lo: U256, hi: U256) -> U256 {
    lo.saturating_add(hi.saturating_sub(lo) >> 1)
}

/// Narrows [lo, hi] where `holds` is true at `lo` and false at `hi` (it need not be evaluated
/// there): `steps` halvings at most, fewer once the two are adjacent. Returns the final (lo, hi);
/// None as soon as `holds` answers None (a deadline passed).
pub fn bisect(
    mut lo: U256,
    mut hi: U256,
    steps: usize,
    mut holds: impl FnMut(U256) -> Option<bool>,
) -> Option<(U256, U256)> {
    for _ in 0..steps {
        let mid = midpoint(lo, hi);
        if mid == lo {
            break;
        }
        if holds(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some((lo, hi))
}

#[cfg(test)]
#[path = "bisect_tests.rs"]
mod tests;
