//! Concentrated-liquidity pools: Uniswap V3 and its forks, the singleton managers (Uniswap V4,
//! Pancake Infinity CL) and Algebra Integral. They share TickMath and SqrtPriceMath; the flavour
//! (from the registry) fixes the fee, the step rules and the tick walk:
//!
//! - `UniswapV3`: `feePips` as is, or (Slipstream with its dynamic fee module) the module's fee of
//!   the tick the swap starts from (`dynamic_swap_fee.rs`); V3 `computeSwapStep`; bitmap-word tick
//!   walk (`pool_swap.rs`).
//! - `Singleton`: LP fee composed with the direction's protocol fee (`protocol_fee_library.rs`);
//!   V4 `computeSwapStep` (100% fee allowed, short-step split); the same bitmap walk.
//! - `AlgebraIntegral`: `feePips` is the total fee; `movePriceTowardsTarget`; linked-list walk
//!   (`swap_calculation.rs`).

pub mod dynamic_swap_fee;
mod fixed_point_96;
mod liquidity_math;
mod pool_swap;
mod price_movement_math;
mod protocol_fee_library;
mod ranges;
mod sqrt_price_math;
mod swap_calculation;
mod swap_math;
mod tick_bitmap;
mod tick_list;
pub mod tick_math;
mod tick_walk;
mod wire;

#[cfg(test)]
mod pool_tests;
#[cfg(test)]
mod tick_walk_tests;

pub use pool_swap::{ClState, SwapResult};
pub use tick_walk::TickWalk;
pub use wire::ClWire;

use super::input::{FromWire, PoolInputError};
use super::registry::{ClFlavor, DexSpec, Model};
use super::{two_token_direction, OneWay, PoolError, PoolModel, SwapOutcome};
use crate::math::U256;
use crate::route::convex::curve::Curve;
use pool_swap::LoopParams;
pub use ranges::Ranges;
use std::sync::Arc;
use swap_math::{StepRules, MAX_FEE_PIPS};
use tick_list::TickList;

/// A concentrated-liquidity pool: its mutable state plus immutable parameters and ticks. Cloning is
/// cheap (the tick list is shared), so `apply` can return a new pool per simulated swap.
#[derive(Clone, Debug)]
pub struct ClPool {
    flavor: ClFlavor,
    state: ClState,
    tick_spacing: i32,
    /// The LP fee for singletons, the whole fee otherwise, in pips.
    fee_pips: u32,
    /// Singletons' packed per-direction protocol fee (0 for the other flavours).
    protocol_fee: u32,
    /// Slipstream's dynamic swap fee: when set, the fee of each swap follows the pool's tick.
    dynamic_fee: Option<dynamic_swap_fee::DynamicSwapFee>,
    ticks: Arc<TickList>,
}

impl ClPool {
    /// Square-root price (Q64.96), tick and active liquidity.
    pub fn state(&self) -> ClState {
        self.state
    }

    /// The greatest initialized tick ≤ `tick`, with its liquidityNet (the routing bound walks the
    /// liquidity ranges a swap would cross, `route/convex/curve/segments.rs`).
    pub fn initialized_tick_at_or_below(&self, tick: i32) -> Option<(i32, i128)> {
        self.ticks.at_or_below(tick)
    }

    /// The least initialized tick > `tick`, with its liquidityNet.
    pub fn initialized_tick_above(&self, tick: i32) -> Option<(i32, i128)> {
        self.ticks.above(tick)
    }

    /// The fee a swap in this direction pays from the current state, in pips (singletons compose
    /// LP and protocol fees; a Slipstream pool with a dynamic fee charges its module's fee of the
    /// current tick, so a second swap in one plan pays the fee the first one left).
    pub fn swap_fee_pips(&self, zero_for_one: bool) -> u32 {
        match self.flavor {
            ClFlavor::Singleton { .. } => {
                let protocol = protocol_fee_library::directional_protocol_fee_pips(
                    self.protocol_fee,
                    zero_for_one,
                );
                protocol_fee_library::calculate_swap_fee_pips(protocol, self.fee_pips)
            }
            ClFlavor::UniswapV3 => {
                self.dynamic_fee.map_or(self.fee_pips, |d| d.fee_pips(self.state.tick))
            }
            ClFlavor::AlgebraIntegral => self.fee_pips,
        }
    }

    /// Out per unit in at the current price, less the direction's swap fee (floating point).
    fn rate_after_fee(&self, zero_for_one: bool) -> f64 {
        let sqrt_price = f64::from(self.state.sqrt_price_x96) / 2f64.powi(96);
        let price_1_per_0 = sqrt_price * sqrt_price;
        let fee_factor =
            1.0 - f64::from(self.swap_fee_pips(zero_for_one)) / f64::from(MAX_FEE_PIPS);
        let price = if zero_for_one { price_1_per_0 } else { 1.0 / price_1_per_0 };
        price * fee_factor
    }

    /// Exact-input swap of `amount_in` (> 0): output rounded down, crossings, state after.
    pub fn swap(&self, zero_for_one: bool, amount_in: U256) -> Result<SwapResult, PoolError> {
        self.swap_memoized(zero_for_one, amount_in, None)
    }

    /// [`ClPool::swap`], the same to the unit, jumping over the ticks `walk` (this pool's, in this
    /// direction, from any earlier state of it) already walked, and adding to it the steps it
    /// takes (`tick_walk.rs`), or answering a swap of the same amount from the same state that
    /// `walk` remembers. Algebra's linked-list loop takes no word steps: only the latter.
    pub fn swap_memoized(
        &self,
        zero_for_one: bool,
        amount_in: U256,
        walk: Option<&mut TickWalk>,
    ) -> Result<SwapResult, PoolError> {
        if amount_in > self.max_amount() {
            return Err(PoolError::Overflow);
        }
        let fee_pips = self.swap_fee_pips(zero_for_one);
        let rules = match self.flavor {
            ClFlavor::UniswapV3 => StepRules::V3,
            ClFlavor::Singleton { .. } => StepRules::V4,
            ClFlavor::AlgebraIntegral => {
                // Its loop walks no words, but repeats whole swaps (`TickWalk::remembered`).
                let swap = || {
                    swap_calculation::calculate_swap_exact_in(
                        &self.ticks,
                        self.state,
                        zero_for_one,
                        amount_in,
                        fee_pips,
                    )
                };
                let result = match walk {
                    Some(walk) => walk.remembered(self.state, amount_in, fee_pips, |_| swap())?,
                    None => swap()?,
                };
                return self.checked(result);
            }
        };
        let params = LoopParams::new(&self.ticks, self.tick_spacing, zero_for_one, fee_pips, rules);
        let result = match walk {
            None => params.swap_exact_in(self.state, amount_in)?,
            Some(walk) => tick_walk::swap_exact_in_walked(&params, self.state, amount_in, walk)?,
        };
        self.checked(result)
    }

    /// Amounts are signed in the contracts: int256 everywhere, and singletons settle in int128.
    fn max_amount(&self) -> U256 {
        match self.flavor {
            ClFlavor::Singleton { .. } => U256::from(i128::MAX as u128),
            ClFlavor::UniswapV3 | ClFlavor::AlgebraIntegral => U256::MAX.wrapping_shr(1),
        }
    }

    /// `result`, unless its output exceeds what the contract's signed amounts can carry.
    fn checked(&self, result: SwapResult) -> Result<SwapResult, PoolError> {
        if result.amount_out > self.max_amount() {
            return Err(PoolError::Overflow);
        }
        Ok(result)
    }
}

impl PoolModel for ClPool {
    /// The tick walk per direction (index 1 for zero-for-one), kept between the swaps of one quote
    /// (`tick_walk.rs`): a swap through ticks an earlier one walked costs a binary search instead
    /// of a step per tick.
    type Memo = [TickWalk; 2];

    /// The sum of constant-product segments between initialized ticks (`ranges.rs`).
    fn side_curve(&self, token_in: usize, token_out: usize, _: OneWay) -> Option<Curve> {
        Ranges::of(self, two_token_direction(token_in, token_out).ok()?).map(Curve::Ranges)
    }

    fn apply_memoized(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
        walks: &mut [TickWalk; 2],
    ) -> Result<(SwapOutcome, Self), PoolError> {
        let zero_for_one = two_token_direction(token_in, token_out)?;
        if amount_in.is_zero() {
            return Ok((SwapOutcome::flat(U256::ZERO), self.clone()));
        }
        let result = self.swap_memoized(
            zero_for_one,
            amount_in,
            Some(&mut walks[usize::from(zero_for_one)]),
        )?;
        let next = ClPool { state: result.state, ..self.clone() };
        Ok((
            SwapOutcome {
                amount_out: result.amount_out,
                crossings: result.crossings,
                words: result.words,
            },
            next,
        ))
    }

    fn amount_out(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<SwapOutcome, PoolError> {
        let zero_for_one = two_token_direction(token_in, token_out)?;
        if amount_in.is_zero() {
            return Ok(SwapOutcome::flat(U256::ZERO));
        }
        let result = self.swap(zero_for_one, amount_in)?;
        Ok(SwapOutcome {
            amount_out: result.amount_out,
            crossings: result.crossings,
            words: result.words,
        })
    }

    fn apply(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(SwapOutcome, Self), PoolError> {
        let zero_for_one = two_token_direction(token_in, token_out)?;
        if amount_in.is_zero() {
            return Ok((SwapOutcome::flat(U256::ZERO), self.clone()));
        }
        let result = self.swap(zero_for_one, amount_in)?;
        let next = ClPool { state: result.state, ..self.clone() };
        Ok((
            SwapOutcome {
                amount_out: result.amount_out,
                crossings: result.crossings,
                words: result.words,
            },
            next,
        ))
    }

    fn spot_price(&self, token_in: usize, token_out: usize) -> f64 {
        let Ok(zero_for_one) = two_token_direction(token_in, token_out) else { return 0.0 };
        if self.state.liquidity == 0 {
            return 0.0;
        }
        let rate = self.rate_after_fee(zero_for_one);
        if rate.is_finite() {
            rate
        } else {
            0.0
        }
    }

    /// Whatever the liquidity (even none at the current price), every unit of input that is not
    /// fee is paid at most the price the swap starts from: the price only moves against the
    /// trader, every step books at most (1 − fee) of what it spends as input, and the roundings
    /// move the price less and pay less. So the output is at most amount·price·(1 − fee).
    fn amount_out_bound(&self, token_in: usize, token_out: usize, amount_in: f64) -> f64 {
        let Ok(zero_for_one) = two_token_direction(token_in, token_out) else { return 0.0 };
        let rate = self.rate_after_fee(zero_for_one);
        if rate.is_finite() {
            amount_in * rate
        } else {
            f64::INFINITY
        }
    }
}

impl FromWire for ClPool {
    type Wire = ClWire;

    /// Builds the pool from its wire state and the kind's registry entry, validating every field.
    fn from_wire(wire: ClWire, spec: &DexSpec) -> Result<Self, PoolInputError> {
        let Model::Concentrated(flavor) = spec.model else {
            return Err(PoolInputError::WrongModel { dex: spec.dex, model: "concentrated" });
        };
        let valid = wire::validate(wire, flavor)?;
        Ok(ClPool {
            flavor,
            state: valid.state,
            tick_spacing: valid.tick_spacing,
            fee_pips: valid.fee_pips,
            protocol_fee: valid.protocol_fee,
            dynamic_fee: valid.dynamic_fee,
            ticks: Arc::new(valid.ticks),
        })
    }
}
