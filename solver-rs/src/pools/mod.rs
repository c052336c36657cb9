//! Pool models. Each family implements [`PoolModel`]; [`registry`] maps every `DexId` to its
//! family and parameters, and [`input`] decodes the wire form of a pool into a [`PoolState`].
//!
//! No integer here may wrap or be truncated silently, checked by `cargo clippy` (scripts/test.sh),
//! every family included: an operation that provably stays in range (a difference of ordered
//! amounts, a counter, a tick beside a valid tick) saturates, one that could leave it is checked
//! and fails with [`PoolError::Overflow`], and where the contract's own arithmetic wraps (its
//! `unchecked` blocks, pre-0.8 Solidity) the model says so with a `wrapping_` operation.
// Tests build their cases with plain arithmetic on small known values: the lints hold the code
// the solver runs (`cargo clippy --all-targets` checks it in the library target).
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects, clippy::cast_possible_truncation))]

pub mod bound_curve;
pub mod clmm;
pub mod cpmm;
pub mod curve_memo;
pub mod dodo;
pub mod error;
mod families;
pub mod gyro_eclp;
pub mod input;
#[cfg(test)]
mod json_lines;
pub mod lunarbase;
pub mod maverick;
pub mod registry;
pub mod sampled;
pub mod shape;
pub mod solidly;
pub mod stableswap;
pub mod woofi;

pub use error::PoolError;
pub use families::{PoolState, SwapMemo};

use crate::math::U256;
use crate::route::convex::curve::Curve;
pub use woofi::OneWay;

/// The result of quoting an exact-input swap on one pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwapOutcome {
    /// Output paid by the pool, rounded as the contract rounds it (down).
    pub amount_out: U256,
    /// Initialized ticks (or levels) crossed; gas is charged per crossing by the registry.
    pub crossings: u32,
    /// Swap-loop steps that ended on a tick-bitmap word boundary holding no initialized tick (V3
    /// and singleton pools; 0 for families without a bitmap, Algebra's linked list included); gas
    /// is charged per word by the registry.
    pub words: u32,
}

impl SwapOutcome {
    /// An outcome that walked no ticks and no words (constant-product, Solidly, sampled, zero input).
    pub fn flat(amount_out: U256) -> Self {
        SwapOutcome { amount_out, crossings: 0, words: 0 }
    }
}

/// The behaviour every pool family provides, and all that the solver asks of one: its swap, its
/// memoised swap, its bound curve, its ranking price and its token count. Quotes never mutate;
/// `apply` returns the new state. A family is one module directory implementing this trait and
/// one line of the family list (`families.rs`) (docs/dex-kinds.md, *Adding a kind*).
///
/// Token indices are positions in the pool's token list (0 and 1 for two-token pools, 0 to n − 1
/// for a venue of n tokens); every method takes the pair `(token_in, token_out)`, never a
/// direction flag, so a venue of more than two tokens has a side per ordered pair.
/// A swap the contract would refuse (or fill only partly) is an `Err`, never a panic.
/// `apply` returns the state of the whole venue: every pair of it sees the swap.
pub trait PoolModel: Sized {
    /// What one pool keeps between the swaps of one quote ([`PoolModel::apply_memoized`]): `()`
    /// for a family with nothing to remember.
    type Memo: Default + Clone + std::fmt::Debug;

    /// Exact-input quote: what the pool pays for `amount_in` of token `token_in`.
    fn amount_out(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<SwapOutcome, PoolError>;

    /// Exact-input swap: the quote plus the pool state after it.
    fn apply(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(SwapOutcome, Self), PoolError>;

    /// [`PoolModel::apply`], the same outcome and state to the unit, using and extending `memo`
    /// (which must only ever be used with states of this one pool, within one market version).
    /// By default the plain swap, counted as one unit of work as a swap through [`PoolState`] is
    /// (`route/clock.rs`): a family that memoises replaces it (the concentrated tick walk, whose
    /// memoised walk the work clock does not count).
    fn apply_memoized(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
        memo: &mut Self::Memo,
    ) -> Result<(SwapOutcome, Self), PoolError> {
        let _ = memo;
        crate::route::clock::count_work();
        self.apply(token_in, token_out, amount_in)
    }

    /// Marginal price at zero size, in raw units of `token_out` per raw unit of `token_in`, fee
    /// included. An estimate for ranking only: never used for an amount that is paid or checked.
    fn spot_price(&self, token_in: usize, token_out: usize) -> f64;

    /// An upper bound on what [`PoolModel::amount_out`] pays for `amount_in` (raw units of
    /// `token_in`), in raw units of `token_out`, without swapping: a bound in real numbers that
    /// holds for every state and amount, roundings of the model included, evaluated in floating
    /// point (relative error below 1e-13; the caller adds its own margin for that).
    /// `f64::INFINITY` when nothing tighter is known. The path search skips pools by it, so each
    /// family proves its bound (docs/solver-optimizer.md) and tests it against `amount_out`.
    fn amount_out_bound(&self, token_in: usize, token_out: usize, amount_in: f64) -> f64;

    /// The convex bound's curve of the side `token_in` → `token_out` ([`Curve::of_in_plan`]): a
    /// concave bound on what any run of up to `MAX_SWAPS_PER_POOL` swaps that way pays in total,
    /// proven beside the family's model; None when the pool cannot trade that way at all.
    /// `one_way` says how the plan uses the two tokens elsewhere (only WOOFi's vault reads it).
    fn side_curve(&self, token_in: usize, token_out: usize, one_way: OneWay) -> Option<Curve>;

    /// How many tokens the venue holds (the market checks the pool's token list against it).
    fn token_count(&self) -> usize {
        2
    }

    /// Whether the convex bound's curve of each side of the venue holds whatever its other sides
    /// trade (`pools/woofi/bound.rs`), so the bound adds the sides' terms; for the other families
    /// the bound takes the venue's best side, which holds for two-token pools only.
    fn sides_bounded_apart(&self) -> bool {
        false
    }
}

impl PoolState {
    /// [`PoolModel::token_count`], callable without the trait in scope.
    pub fn token_count(&self) -> usize {
        PoolModel::token_count(self)
    }

    /// [`PoolModel::sides_bounded_apart`], callable without the trait in scope.
    pub fn sides_bounded_apart(&self) -> bool {
        PoolModel::sides_bounded_apart(self)
    }
}

/// The direction of a swap on a two-token pool (the families whose contracts take `zeroForOne`):
/// `zero_for_one`, or `BadDirection` for any other pair of indices.
pub fn two_token_direction(token_in: usize, token_out: usize) -> Result<bool, PoolError> {
    match (token_in, token_out) {
        (0, 1) => Ok(true),
        (1, 0) => Ok(false),
        _ => Err(PoolError::BadDirection { token_in, token_out }),
    }
}
