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
mod tests {
    use super::*;

    #[test]
    fn the_midpoint_of_amounts_near_the_top_does_not_wrap() {
        assert_eq!(midpoint(U256::MAX - U256::from(2), U256::MAX), U256::MAX - U256::from(1));
        assert_eq!(midpoint(U256::ZERO, U256::MAX), U256::MAX >> 1);
        assert_eq!(midpoint(U256::from(7), U256::from(7)), U256::from(7));
    }

    #[test]
    fn finds_the_threshold_and_stops_when_asked() {
        let threshold = U256::MAX - U256::from(12_345);
        let (lo, hi) = bisect(U256::ZERO, U256::MAX, 300, |x| Some(x <= threshold)).unwrap();
        assert_eq!((lo, hi), (threshold, threshold + U256::from(1)));
        let mut asked = 0;
        assert_eq!(
            bisect(U256::ZERO, U256::MAX, 300, |_| {
                asked += 1;
                (asked < 3).then_some(true)
            }),
            None
        );
        assert_eq!(asked, 3);
    }
}
