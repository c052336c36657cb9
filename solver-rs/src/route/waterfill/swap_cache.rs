//! Swaps on the market as it stands, remembered: thousands of candidate paths open with the same
//! few pools, each carrying the same amount into them (Fynd's `SwapCache`, without its
//! interpolation between nearby amounts: every answer here is an exact swap).

use super::view::swap;
use crate::market::{Hop, Market, PoolIdx};
use crate::math::U256;
use crate::route::path::{run_hops, Path};
use std::collections::HashMap;

/// A swap's key: pool, input and output side, input amount.
type SwapKey = (PoolIdx, u8, u8, U256);

/// Remembered untouched-state swaps: key → (output, gas units), None when the pool refuses.
#[derive(Default)]
pub struct SwapCache {
    entries: HashMap<SwapKey, Option<(U256, u64)>>,
}

impl SwapCache {
    /// One hop on the untouched market.
    pub fn hop(&mut self, market: &Market, hop: Hop, amount: U256) -> Option<(U256, u64)> {
        *self.entries.entry((hop.pool, hop.token_in, hop.token_out, amount)).or_insert_with(|| {
            swap(market, &market.pool(hop.pool).state, hop, amount).map(|(out, gas, _)| (out, gas))
        })
    }

    /// A whole path on the untouched market: (output, gas units). The path's pools are distinct
    /// (its tokens are), so no hop needs to see an earlier one.
    pub fn path(&mut self, market: &Market, path: &Path, amount: U256) -> Option<(U256, u64)> {
        run_hops(&path.hops, amount, |hop, amount| self.hop(market, hop, amount).ok_or(())).ok()
    }
}
