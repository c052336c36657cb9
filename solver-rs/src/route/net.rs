//! Output net of gas, compared exactly: `gross - cost` without ever going negative in U256.

use crate::math::U256;
use std::cmp::Ordering;

/// An output (`gross`, in tokenOut) and the gas it costs (`cost`, also in tokenOut).
/// Ordered by `gross - cost`, computed as `gross_a + cost_b` against `gross_b + cost_a`, each sum
/// taken at 257 bits so that amounts near 2^256 still compare exactly (a saturating sum would call
/// two different nets equal, and a wrapping one would invert them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Net {
    pub gross: U256,
    pub cost: U256,
}

impl Net {
    pub const ZERO: Net = Net { gross: U256::ZERO, cost: U256::ZERO };

    pub fn new(gross: U256, cost: U256) -> Net {
        Net { gross, cost }
    }

    /// `gross - cost` as a float, for scores only.
    pub fn approx(self) -> f64 {
        f64::from(self.gross) - f64::from(self.cost)
    }
}

/// `a + b` as (carry out, low 256 bits): ordered as the 257-bit sum is.
fn wide_sum(a: U256, b: U256) -> (bool, U256) {
    let (low, carry) = a.overflowing_add(b);
    (carry, low)
}

impl Ord for Net {
    fn cmp(&self, other: &Self) -> Ordering {
        wide_sum(self.gross, other.cost).cmp(&wide_sum(other.gross, self.cost))
    }
}

impl PartialOrd for Net {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::U512;
    use proptest::prelude::*;

    #[test]
    fn orders_by_difference() {
        let n = |g: u64, c: u64| Net::new(U256::from(g), U256::from(c));
        assert!(n(100, 10) > n(95, 10));
        assert!(n(100, 10) < n(100, 9));
        assert_eq!(n(100, 10).cmp(&n(91, 1)), Ordering::Equal);
        assert!(n(5, 10) < n(0, 0));
    }

    #[test]
    fn a_wei_of_gas_still_counts_at_the_largest_output() {
        let (max, one) = (U256::MAX, U256::from(1));
        assert!(Net::new(max, one) < Net::new(max, U256::ZERO));
        assert!(Net::new(max - one, U256::ZERO) > Net::new(max, one + one));
        assert_eq!(Net::new(max, max).cmp(&Net::ZERO), Ordering::Equal);
    }

    proptest! {
        #[test]
        fn orders_as_the_exact_difference_near_the_top(a in any::<[u64; 4]>(), b in any::<[u64; 4]>(), near in any::<[u32; 4]>()) {
            // Grosses and costs within 2^32 of 2^256 − 1, and arbitrary ones.
            let top = |k: u32| U256::MAX - U256::from(k);
            let cases = [
                (Net::new(top(near[0]), U256::from(near[1])), Net::new(top(near[2]), U256::from(near[3]))),
                (Net::new(top(near[0]), top(near[1])), Net::new(top(near[2]), top(near[3]))),
                (Net::new(U256::from_limbs(a), top(near[1])), Net::new(U256::from_limbs(b), U256::from(near[3]))),
            ];
            for (x, y) in cases {
                let exact = (U512::from(x.gross) + U512::from(y.cost)).cmp(&(U512::from(y.gross) + U512::from(x.cost)));
                prop_assert_eq!(x.cmp(&y), exact, "{:?} vs {:?}", x, y);
            }
        }
    }
}
