//! What a pool keeps between the swaps of one quote so that the next swap through the same pool
//! costs less: the concentrated families' tick walks (`clmm/tick_walk.rs`). The split optimizer
//! swaps the same pools dozens of times at nearby amounts; each memoised swap pays exactly what
//! the plain one pays.

use super::clmm::TickWalk;
use super::{PoolError, PoolModel, PoolState, SwapOutcome};
use crate::math::U256;

/// One pool's memo, for any of its states within one market version (its ticks and fees fixed).
#[derive(Clone, Debug, Default)]
pub struct SwapMemo {
    /// Concentrated pools: the tick walk per direction (index 1 for zero-for-one).
    walks: [TickWalk; 2],
}

impl PoolState {
    /// [`PoolModel::apply`], the same outcome and state to the unit, using and extending `memo`
    /// (which must only ever be used with states of this one pool).
    pub fn apply_memoized(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
        memo: &mut SwapMemo,
    ) -> Result<(SwapOutcome, PoolState), PoolError> {
        match self {
            PoolState::Concentrated(pool) => {
                let (outcome, next) =
                    pool.apply_memoized(token_in, token_out, amount_in, &mut memo.walks)?;
                Ok((outcome, PoolState::Concentrated(next)))
            }
            // The other families' swaps are a few arithmetic operations: nothing to remember
            // (WOOFi's swap is a fixed sequence of them, `pools/woofi`).
            PoolState::ConstantProduct(_)
            | PoolState::Solidly(_)
            | PoolState::Sampled(_)
            | PoolState::StableSwap(_)
            | PoolState::Woofi(_)
            | PoolState::Dodo(_)
            | PoolState::Lunarbase(_) => self.apply(token_in, token_out, amount_in),
            // The E-CLP's invariant (two square roots) is recomputed per swap: the same state
            // swapped at many amounts could reuse it; not memoised yet.
            PoolState::GyroEclp(_) => self.apply(token_in, token_out, amount_in),
            // Maverick's ticks carry their edges' prices from decoding; what is left per tick
            // (its liquidity and price from its reserves) changes with every swap through it.
            PoolState::MaverickV2(_) => self.apply(token_in, token_out, amount_in),
        }
    }
}
