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
pub mod gyro_eclp;
pub mod input;
#[cfg(test)]
mod json_lines;
pub mod lunarbase;
pub mod maverick;
pub mod registry;
pub mod sampled;
pub mod solidly;
pub mod stableswap;
mod swap_memo;
pub mod woofi;

pub use error::PoolError;
pub use swap_memo::SwapMemo;

use crate::math::U256;

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

/// The behaviour every pool family provides. Quotes never mutate; `apply` returns the new state.
///
/// Token indices are positions in the pool's token list (0 and 1 for two-token pools, 0 to n − 1
/// for a venue of n tokens); every method takes the pair `(token_in, token_out)`, never a
/// direction flag, so a venue of more than two tokens has a side per ordered pair.
/// A swap the contract would refuse (or fill only partly) is an `Err`, never a panic.
/// `apply` returns the state of the whole venue: every pair of it sees the swap.
pub trait PoolModel: Sized {
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
}

/// A pool's state, one variant per model family. Unboxed though the families differ in size: a
/// swap reads its pool's state directly, and a market holds one per pool.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum PoolState {
    ConstantProduct(cpmm::CpmmPool),
    Solidly(solidly::SolidlyPool),
    Concentrated(clmm::ClPool),
    Sampled(sampled::SampledPool),
    Woofi(woofi::WoofiPool),
    StableSwap(stableswap::StableSwapPool),
    Dodo(dodo::DodoPool),
    GyroEclp(gyro_eclp::GyroEclpPool),
    Lunarbase(lunarbase::LunarbasePool),
    MaverickV2(maverick::MaverickPool),
}

impl PoolState {
    /// How many tokens the venue holds (the market checks the pool's token list against it).
    pub fn token_count(&self) -> usize {
        match self {
            PoolState::ConstantProduct(_)
            | PoolState::Solidly(_)
            | PoolState::Concentrated(_)
            | PoolState::Sampled(_)
            | PoolState::Dodo(_)
            | PoolState::GyroEclp(_)
            | PoolState::Lunarbase(_)
            | PoolState::MaverickV2(_) => 2,
            PoolState::Woofi(p) => p.token_count(),
            PoolState::StableSwap(p) => p.coins(),
        }
    }
}

impl PoolState {
    /// Whether the convex bound's curve of each side of the venue holds whatever its other sides
    /// trade (`pools/woofi/bound.rs`), so the bound adds the sides' terms; for the other families
    /// the bound takes the venue's best side, which holds for two-token pools only.
    pub fn sides_bounded_apart(&self) -> bool {
        matches!(self, PoolState::Woofi(_))
    }
}

impl PoolModel for PoolState {
    fn amount_out(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<SwapOutcome, PoolError> {
        crate::route::clock::count_work();
        match self {
            PoolState::ConstantProduct(p) => p.amount_out(token_in, token_out, amount_in),
            PoolState::Solidly(p) => p.amount_out(token_in, token_out, amount_in),
            PoolState::Concentrated(p) => p.amount_out(token_in, token_out, amount_in),
            PoolState::Sampled(p) => p.amount_out(token_in, token_out, amount_in),
            PoolState::Woofi(p) => p.amount_out(token_in, token_out, amount_in),
            PoolState::StableSwap(p) => p.amount_out(token_in, token_out, amount_in),
            PoolState::Dodo(p) => p.amount_out(token_in, token_out, amount_in),
            PoolState::GyroEclp(p) => p.amount_out(token_in, token_out, amount_in),
            PoolState::Lunarbase(p) => p.amount_out(token_in, token_out, amount_in),
            PoolState::MaverickV2(p) => p.amount_out(token_in, token_out, amount_in),
        }
    }

    fn apply(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(SwapOutcome, Self), PoolError> {
        crate::route::clock::count_work();
        Ok(match self {
            PoolState::ConstantProduct(p) => {
                let (o, s) = p.apply(token_in, token_out, amount_in)?;
                (o, PoolState::ConstantProduct(s))
            }
            PoolState::Solidly(p) => {
                let (o, s) = p.apply(token_in, token_out, amount_in)?;
                (o, PoolState::Solidly(s))
            }
            PoolState::Concentrated(p) => {
                let (o, s) = p.apply(token_in, token_out, amount_in)?;
                (o, PoolState::Concentrated(s))
            }
            PoolState::Sampled(p) => {
                let (o, s) = p.apply(token_in, token_out, amount_in)?;
                (o, PoolState::Sampled(s))
            }
            PoolState::Woofi(p) => {
                let (o, s) = p.apply(token_in, token_out, amount_in)?;
                (o, PoolState::Woofi(s))
            }
            PoolState::StableSwap(p) => {
                let (o, s) = p.apply(token_in, token_out, amount_in)?;
                (o, PoolState::StableSwap(s))
            }
            PoolState::Dodo(p) => {
                let (o, s) = p.apply(token_in, token_out, amount_in)?;
                (o, PoolState::Dodo(s))
            }
            PoolState::GyroEclp(p) => {
                let (o, s) = p.apply(token_in, token_out, amount_in)?;
                (o, PoolState::GyroEclp(s))
            }
            PoolState::Lunarbase(p) => {
                let (o, s) = p.apply(token_in, token_out, amount_in)?;
                (o, PoolState::Lunarbase(s))
            }
            PoolState::MaverickV2(p) => {
                let (o, s) = p.apply(token_in, token_out, amount_in)?;
                (o, PoolState::MaverickV2(s))
            }
        })
    }

    fn spot_price(&self, token_in: usize, token_out: usize) -> f64 {
        match self {
            PoolState::ConstantProduct(p) => p.spot_price(token_in, token_out),
            PoolState::Solidly(p) => p.spot_price(token_in, token_out),
            PoolState::Concentrated(p) => p.spot_price(token_in, token_out),
            PoolState::Sampled(p) => p.spot_price(token_in, token_out),
            PoolState::Woofi(p) => p.spot_price(token_in, token_out),
            PoolState::StableSwap(p) => p.spot_price(token_in, token_out),
            PoolState::Dodo(p) => p.spot_price(token_in, token_out),
            PoolState::GyroEclp(p) => p.spot_price(token_in, token_out),
            PoolState::Lunarbase(p) => p.spot_price(token_in, token_out),
            PoolState::MaverickV2(p) => p.spot_price(token_in, token_out),
        }
    }

    fn amount_out_bound(&self, token_in: usize, token_out: usize, amount_in: f64) -> f64 {
        match self {
            PoolState::ConstantProduct(p) => p.amount_out_bound(token_in, token_out, amount_in),
            PoolState::Solidly(p) => p.amount_out_bound(token_in, token_out, amount_in),
            PoolState::Concentrated(p) => p.amount_out_bound(token_in, token_out, amount_in),
            PoolState::Sampled(p) => p.amount_out_bound(token_in, token_out, amount_in),
            PoolState::Woofi(p) => p.amount_out_bound(token_in, token_out, amount_in),
            PoolState::StableSwap(p) => p.amount_out_bound(token_in, token_out, amount_in),
            PoolState::Dodo(p) => p.amount_out_bound(token_in, token_out, amount_in),
            PoolState::GyroEclp(p) => p.amount_out_bound(token_in, token_out, amount_in),
            PoolState::Lunarbase(p) => p.amount_out_bound(token_in, token_out, amount_in),
            PoolState::MaverickV2(p) => p.amount_out_bound(token_in, token_out, amount_in),
        }
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
