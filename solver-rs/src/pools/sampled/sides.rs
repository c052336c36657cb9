//! Where a sampled venue's swaps move along its curves, and which sides it still prices.
//!
//! - **Two tokens** (a prop AMM, twocrypto-ng): each direction its own curve, moved along by the
//!   input already sold that way. A swap one way does not move the other way's curve, which
//!   prices the untouched venue; for a pool whose price only follows its balances that is the
//!   safe side (selling token0 makes token0 → token1 dearer and token1 → token0 cheaper).
//! - **Three or four tokens** (tricrypto-ng): a curve per ordered pair, and the venue is one
//!   state. Selling token i for j raises the pool's i and lowers its j, which moves the price of
//!   every pair touching i or j, not always the safe way (i → k gets dearer, k → j dearer, and a
//!   dynamic fee rises with the imbalance), and the samples say nothing of the moved state. So
//!   the first swap fixes the venue's pair: further swaps through that same ordered pair go on
//!   along its curve from the input already sold, as a two-token direction does; every other
//!   pair is refused ([`PoolError::Refused`], naming both pairs), its spot price is 0 and it has
//!   no bound curve. A plan therefore trades such a venue through one ordered pair, in as many
//!   legs as it likes, and the convex bound's best-side term (a venue whose sides are not
//!   bounded apart) bounds it; the quote service's re-quote asks the venue at the running sum of
//!   those legs' inputs, in execution order (docs/prop-amms.md).

use super::ConcaveCurve;
use crate::math::U256;
use crate::pools::PoolError;
use std::sync::Arc;

/// The curves of a sampled venue and how far swaps have moved along them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sides {
    /// Two tokens: index 0 sells token0, index 1 sells token1; each with its consumed input.
    Two { curves: [Arc<ConcaveCurve>; 2], consumed_in: [U256; 2] },
    /// 3 or 4 tokens: `curves[token_in · count + token_out]` (the diagonal empty), shared so a
    /// swap clones a pointer; `traded` the one pair swapped through and its input so far.
    Venue { count: usize, curves: Arc<[ConcaveCurve]>, traded: Option<(usize, usize, U256)> },
}

impl Sides {
    /// How many tokens the venue prices.
    pub fn token_count(&self) -> usize {
        match self {
            Sides::Two { .. } => 2,
            Sides::Venue { count, .. } => *count,
        }
    }

    /// The curve selling `token_in` for `token_out` and the input already consumed along it, or
    /// why the venue does not price that pair now.
    pub fn curve_from(
        &self,
        token_in: usize,
        token_out: usize,
    ) -> Result<(&ConcaveCurve, U256), PoolError> {
        let bad = PoolError::BadDirection { token_in, token_out };
        match self {
            Sides::Two { curves, consumed_in } => {
                crate::pools::two_token_direction(token_in, token_out)?;
                Ok((&curves[token_in], consumed_in[token_in]))
            }
            Sides::Venue { count, curves, traded } => {
                if token_in == token_out || token_in >= *count || token_out >= *count {
                    return Err(bad);
                }
                let consumed = match *traded {
                    None => U256::ZERO,
                    Some((i, o, consumed)) if (i, o) == (token_in, token_out) => consumed,
                    Some((i, o, _)) => {
                        return Err(PoolError::Refused(format!(
                            "a sampled venue of {count} tokens is one state: it traded {i} → {o} \
                             already, so its samples no longer price {token_in} → {token_out}"
                        )))
                    }
                };
                // Both indices are below `count` ≤ 4: the product and sum stay tiny.
                let at = token_in.saturating_mul(*count).saturating_add(token_out);
                curves.get(at).map(|c| (c, consumed)).ok_or(bad)
            }
        }
    }

    /// The sides after `amount_in` more was sold `token_in` → `token_out` (a pair
    /// [`Sides::curve_from`] accepted).
    pub fn after(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<Sides, PoolError> {
        let (_, consumed) = self.curve_from(token_in, token_out)?;
        let moved = consumed.checked_add(amount_in).ok_or(PoolError::InsufficientLiquidity)?;
        let mut next = self.clone();
        match &mut next {
            Sides::Two { consumed_in, .. } => consumed_in[token_in] = moved,
            Sides::Venue { traded, .. } => *traded = Some((token_in, token_out, moved)),
        }
        Ok(next)
    }
}
