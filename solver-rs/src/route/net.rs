//! Output net of gas, compared exactly: `gross - cost` without ever going negative in U256.

use crate::math::U256;
use std::cmp::Ordering;

/// An output (`gross`, in tokenOut) and the gas it costs (`cost`, also in tokenOut).
/// Ordered by `gross - cost`, computed as `gross_a + cost_b` against `gross_b + cost_a`.
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

    /// The sum of two nets (saturating: amounts near 2^256 are not real).
    pub fn plus(self, other: Net) -> Net {
        Net { gross: self.gross.saturating_add(other.gross), cost: self.cost.saturating_add(other.cost) }
    }

    /// `gross - cost` as a float, for scores only.
    pub fn approx(self) -> f64 {
        f64::from(self.gross) - f64::from(self.cost)
    }
}

impl Ord for Net {
    fn cmp(&self, other: &Self) -> Ordering {
        let left = self.gross.saturating_add(other.cost);
        let right = other.gross.saturating_add(self.cost);
        left.cmp(&right)
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

    #[test]
    fn orders_by_difference() {
        let n = |g: u64, c: u64| Net::new(U256::from(g), U256::from(c));
        assert!(n(100, 10) > n(95, 10));
        assert!(n(100, 10) < n(100, 9));
        assert_eq!(n(100, 10).cmp(&n(91, 1)), Ordering::Equal);
        assert!(n(5, 10) < n(0, 0));
        assert_eq!(n(1, 2).plus(n(3, 4)), n(4, 6));
    }
}
