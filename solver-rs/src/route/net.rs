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
#[path = "net_tests.rs"]
mod tests;
