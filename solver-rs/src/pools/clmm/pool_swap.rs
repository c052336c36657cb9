//! The swap loop of `UniswapV3Pool.swap` and of V4's / Pancake Infinity's `Pool.swap`, for exact
//! input: step to the nearer of the next initialized tick and the bitmap word edge, cross
//! initialized ticks, stop when the input is spent or the price limit is reached.

use super::liquidity_math::add_delta;
use super::swap_math::{compute_swap_step_exact_in, StepRules};
use super::tick_bitmap::next_initialized_tick_within_one_word;
use super::tick_list::TickList;
use super::tick_math::{
    get_sqrt_ratio_at_tick, get_tick_at_sqrt_ratio_near, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO,
    MIN_TICK,
};
use crate::math::U256;
use crate::pools::PoolError;

/// The mutable part of a concentrated-liquidity pool: Q64.96 square-root price, current tick and
/// active liquidity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClState {
    pub sqrt_price_x96: U256,
    pub tick: i32,
    pub liquidity: u128,
}

/// An exact-input swap's result: output (rounded down by every step), initialized ticks crossed,
/// steps that ended on an empty bitmap word's edge, and the pool state after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwapResult {
    pub amount_out: U256,
    pub crossings: u32,
    /// Loop steps that stopped at a word boundary with no initialized tick there: each is one more
    /// iteration of the contract's loop (a bitmap SLOAD and a step computation) that no crossing
    /// explains. Always 0 for Algebra, whose tick walk is a linked list.
    pub words: u32,
    pub state: ClState,
}

/// The price limit our router passes: one inside the bound, so every reachable price is allowed.
pub fn router_price_limit_x96(zero_for_one: bool) -> U256 {
    if zero_for_one {
        MIN_SQRT_RATIO.saturating_add(U256::from(1))
    } else {
        MAX_SQRT_RATIO.saturating_sub(U256::from(1))
    }
}

/// Whether the pool accepts `limit` at `sqrt_price_x96` (V3 `SPL`, V4 `PriceLimitAlreadyExceeded`,
/// Algebra `invalidLimitSqrtPrice`): the limit must lie strictly ahead of the price.
pub fn limit_is_ahead(sqrt_price_x96: U256, limit: U256, zero_for_one: bool) -> bool {
    if zero_for_one {
        limit < sqrt_price_x96
    } else {
        limit > sqrt_price_x96
    }
}

/// What the pool's swap loop needs besides its state: the ticks, the direction, the fee, the
/// step rules and the price limit.
#[derive(Clone, Copy)]
pub(super) struct LoopParams<'t> {
    pub(super) ticks: &'t TickList,
    pub(super) tick_spacing: i32,
    pub(super) zero_for_one: bool,
    pub(super) fee_pips: u32,
    pub(super) rules: StepRules,
    pub(super) limit: U256,
}

/// One iteration of the swap loop: the state after it, the input it spent (fee included), what it
/// paid, where it ended, and the input (fee excluded) its target would have taken.
pub(super) struct LoopStep {
    pub(super) state: ClState,
    pub(super) spent: U256,
    pub(super) amount_out: U256,
    pub(super) ended: StepEnd,
    pub(super) amount_in_to_target: U256,
}

/// Where a step of the loop ended.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum StepEnd {
    /// On an initialized tick, crossed.
    Crossing,
    /// On a bitmap word's edge holding no initialized tick.
    WordEdge,
    /// Short of its target (the input ran out), or on the price limit.
    Inside,
}

impl<'t> LoopParams<'t> {
    /// The loop of a swap at `fee_pips` under `rules`, to the router's price limit.
    pub(super) fn new(
        ticks: &'t TickList,
        tick_spacing: i32,
        zero_for_one: bool,
        fee_pips: u32,
        rules: StepRules,
    ) -> Self {
        LoopParams {
            ticks,
            tick_spacing,
            zero_for_one,
            fee_pips,
            rules,
            limit: router_price_limit_x96(zero_for_one),
        }
    }

    /// Runs the V3 / V4 swap loop for `amount_in` (> 0) from `start`. Errors with
    /// `InsufficientLiquidity` when the input is not all spent before the router's price limit.
    pub(super) fn swap_exact_in(
        &self,
        start: ClState,
        amount_in: U256,
    ) -> Result<SwapResult, PoolError> {
        let mut swap = self.begin(start, amount_in)?;
        while swap.runs(self.limit) {
            let step = self.step(swap.state, swap.remaining)?;
            swap.take(&step)?;
        }
        swap.finish()
    }

    /// A swap of `amount_in` from `start`, refused if the limit is not ahead of the price.
    pub(super) fn begin(&self, start: ClState, amount_in: U256) -> Result<Swap, PoolError> {
        if !limit_is_ahead(start.sqrt_price_x96, self.limit, self.zero_for_one) {
            return Err(PoolError::InsufficientLiquidity);
        }
        Ok(Swap {
            state: start,
            remaining: amount_in,
            amount_out: U256::ZERO,
            crossings: 0,
            words: 0,
        })
    }

    /// One iteration of `UniswapV3Pool.swap`'s loop from `state` with `remaining` input (fee
    /// included): step to the nearer of the next initialized tick and the word edge, cross it if
    /// reached.
    pub(super) fn step(&self, state: ClState, remaining: U256) -> Result<LoopStep, PoolError> {
        self.step_knowing(state, remaining, None)
    }

    /// [`LoopParams::step`], given the input to its target when an earlier step from `state`
    /// computed it (its `amount_in_to_target`: the same price, liquidity and target, so the same
    /// amount).
    pub(super) fn step_knowing(
        &self,
        mut state: ClState,
        remaining: U256,
        known_amount_in_to_target: Option<U256>,
    ) -> Result<LoopStep, PoolError> {
        let zero_for_one = self.zero_for_one;
        let step_start_price = state.sqrt_price_x96;
        let (tick_next, initialized) = next_initialized_tick_within_one_word(
            self.ticks,
            state.tick,
            self.tick_spacing,
            zero_for_one,
        )?;
        // The bitmap knows nothing of the tick range; the pool clamps, and so do we (an initialized
        // tick lies inside it already).
        let tick_next = tick_next.clamp(MIN_TICK, MAX_TICK);
        // An initialized tick's price is in the list's table; only a word edge is computed.
        let sqrt_price_next = match initialized {
            Some(t) => t.sqrt_price_x96,
            None => get_sqrt_ratio_at_tick(tick_next)?,
        };
        let liquidity_net = initialized.map(|t| t.liquidity_net);
        let target = if zero_for_one {
            sqrt_price_next.max(self.limit)
        } else {
            sqrt_price_next.min(self.limit)
        };
        let (step, amount_in_to_target) = compute_swap_step_exact_in(
            state.sqrt_price_x96,
            target,
            state.liquidity,
            remaining,
            self.fee_pips,
            self.rules,
            known_amount_in_to_target,
        )?;
        state.sqrt_price_x96 = step.sqrt_price_next_x96;
        let spent = step.amount_in.checked_add(step.fee_amount).ok_or(PoolError::Overflow)?;
        // Only V3's price-equality edge (a short step booked as a full one) can overspend; the
        // pool would then carry on as an exact-output swap, which our router cannot settle.
        if spent > remaining {
            return Err(PoolError::InvalidState(
                "a step booked more input than remained (V3 rounding edge)".into(),
            ));
        }
        let mut ended = StepEnd::Inside;
        if state.sqrt_price_x96 == sqrt_price_next {
            if let Some(net) = liquidity_net {
                // Crossing downward removes what crossing upward adds.
                let delta =
                    if zero_for_one { net.checked_neg().ok_or(PoolError::Overflow)? } else { net };
                state.liquidity = add_delta(state.liquidity, delta)?;
                ended = StepEnd::Crossing;
            } else {
                ended = StepEnd::WordEdge;
            }
            // Moving down, the pool sits just below the crossed tick (ticks are far above i32::MIN).
            state.tick = if zero_for_one { tick_next.saturating_sub(1) } else { tick_next };
        } else if state.sqrt_price_x96 != step_start_price {
            state.tick = get_tick_at_sqrt_ratio_near(state.sqrt_price_x96, state.tick)?;
        }
        Ok(LoopStep { state, spent, amount_out: step.amount_out, ended, amount_in_to_target })
    }
}

/// A swap in progress: the pool's state, the input left, the output so far, and the ticks and
/// word edges crossed.
pub(super) struct Swap {
    pub(super) state: ClState,
    pub(super) remaining: U256,
    pub(super) amount_out: U256,
    pub(super) crossings: u32,
    pub(super) words: u32,
}

impl Swap {
    /// Whether the loop goes on: input left and the price short of the limit.
    pub(super) fn runs(&self, limit: U256) -> bool {
        !self.remaining.is_zero() && self.state.sqrt_price_x96 != limit
    }

    /// Books one step.
    pub(super) fn take(&mut self, step: &LoopStep) -> Result<(), PoolError> {
        // `step` refuses a step that spends more than remained.
        self.remaining = self.remaining.checked_sub(step.spent).ok_or(PoolError::Overflow)?;
        self.amount_out =
            self.amount_out.checked_add(step.amount_out).ok_or(PoolError::Overflow)?;
        match step.ended {
            StepEnd::Crossing => self.crossings = self.crossings.saturating_add(1),
            StepEnd::WordEdge => self.words = self.words.saturating_add(1),
            StepEnd::Inside => {}
        }
        self.state = step.state;
        Ok(())
    }

    /// The result, or `InsufficientLiquidity` if input is left (the loop stopped at the limit).
    pub(super) fn finish(self) -> Result<SwapResult, PoolError> {
        if !self.remaining.is_zero() {
            return Err(PoolError::InsufficientLiquidity);
        }
        Ok(SwapResult {
            amount_out: self.amount_out,
            crossings: self.crossings,
            words: self.words,
            state: self.state,
        })
    }
}
