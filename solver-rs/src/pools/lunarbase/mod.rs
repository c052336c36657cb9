//! LunarBase's PMM pool (LUNARBASE) exactly as its `swapExactIn` pays, from its published math
//! (LunarBaseIntegrations' trading ABI and README, `lunarbase-pmm-math` 0.4.x; docs/dex-kinds.md
//! "LUNARBASE"): the operator's anchor, the square root of X's price in Y as Q64.96, prices the
//! input linearly; the direction's stored fee (`feeBidX24` selling X, `feeAskX24` selling Y) plus
//! a punishment that grows with the input's share of the reserves' value, saturating at 100 %; the
//! fee floored off the gross output and multiplied for a caller the pool does not whitelist; a
//! swap stores the raised fee in its direction and moves the fee out of the active reserves.
//! A stale venue (`block ≥ latestUpdateBlock + blockDelay`) or a paused one refuses every swap, as
//! the contract reverts `StalePrice` and `EnforcedPause`. The current pool has no concentration:
//! the earlier pools' concentration K (and their Q32.48 anchor) is not modelled.
//!
//! Tokens are listed X first, then Y. Proven against `test/crosscheck/lunarbase_pool.py`, a second
//! implementation written apart (`lunarbase_tests.rs`); the Python is itself proven against the
//! stand-in on anvil (`test/crosscheck/lunarbasePython.test.ts`).

mod bound;
#[cfg(test)]
#[path = "lunarbase_tests.rs"]
mod tests;

use super::bound_curve::{BoundCurve, CurveBounded};
use super::cpmm::ReserveString;
use super::input::{FromWire, PoolInputError};
use super::registry::DexSpec;
use super::{two_token_direction, PoolError};
use crate::math::checked::{add, sub};
use crate::math::full_math::{mul_div, mul_div_rounding_up};
use crate::math::U256;
use serde::Deserialize;

/// 2^24: the fees' unit.
const Q24: U256 = U256::from_limbs([1 << 24, 0, 0, 0]);
/// 2^96: the anchor's unit.
const Q96: U256 = U256::from_limbs([0, 1 << 32, 0, 0]);
/// 0xffffff: a fee of 100 % (and, as the maximum punishment, a full 2^24).
pub const MAX_FEE: u32 = (1 << 24) - 1;

/// Wire state, every number a decimal string: `state()` (anchor, both fees, the last update's
/// block), `maxPunishmentX24()`, `getXReserve()`, `getYReserve()`, `blockDelay()`, `paused()`, the
/// fee multiplier of the address that will execute (1 when `isWhitelisted` it, else
/// `blacklistFeeMultiplier()`) and `block`, the block the trade executes in.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LunarbaseWire {
    pub anchor_price: ReserveString,
    pub fee_ask_x24: ReserveString,
    pub fee_bid_x24: ReserveString,
    pub max_punishment_x24: ReserveString,
    pub reserve_x: ReserveString,
    pub reserve_y: ReserveString,
    pub fee_multiplier: ReserveString,
    pub latest_update_block: ReserveString,
    pub block_delay: ReserveString,
    pub block: ReserveString,
    pub paused: bool,
}

/// One LunarBase pool as one caller sees it at one block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LunarbasePool {
    /// √(price of X in Y) as Q64.96 (uint160).
    pub anchor: U256,
    /// Stored fees, Q24: selling Y (ask) and selling X (bid).
    pub fee_ask: u32,
    pub fee_bid: u32,
    pub max_punishment: u32,
    /// Active reserves (uint112), fees already moved out.
    pub reserve_x: U256,
    pub reserve_y: U256,
    /// The executing caller's fee multiplier (0 and 1 both mean the base fee).
    pub multiplier: U256,
    pub latest_update_block: u64,
    pub block_delay: u64,
    pub block: u64,
    pub paused: bool,
}

/// What one exact input pays before any state changes: the net output, the fee, the direction's
/// fee after the swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Priced {
    pub out: U256,
    pub fee: U256,
    pub effective_fee: u32,
}

fn u112_max() -> U256 {
    U256::from(u128::MAX >> 16)
}

fn small(value: U256, max: u64, field: &str) -> Result<u64, PoolInputError> {
    u64::try_from(value).ok().filter(|v| *v <= max).ok_or_else(|| {
        PoolInputError::Invalid(format!("LunarBase pool: {field} {value} is over {max}"))
    })
}

impl LunarbasePool {
    /// `isFresh()` at the trade's block: `block < latestUpdateBlock + blockDelay`.
    pub fn fresh(&self) -> bool {
        // Two u64s widened to u128: the sum is exact.
        u128::from(self.block)
            < u128::from(self.latest_update_block).saturating_add(u128::from(self.block_delay))
    }

    /// `_xValueInY`: X's value in Y at the anchor, floored twice.
    fn x_value_in_y(&self, amount_x: U256) -> Result<U256, PoolError> {
        mul_div(mul_div(amount_x, self.anchor, Q96)?, self.anchor, Q96)
    }

    /// `_punishment`: the fee (Q24) this input adds, ceil(max · its value / the reserves' value),
    /// all of `max` at or beyond the reserves' value; 2^24 or more is the 100 % sentinel.
    fn punishment(&self, x_to_y: bool, amount_in: U256) -> Result<u32, PoolError> {
        if amount_in.is_zero() || self.max_punishment == 0 || self.anchor.is_zero() {
            return Ok(0);
        }
        let inventory = add(self.x_value_in_y(self.reserve_x)?, self.reserve_y)?;
        if inventory.is_zero() {
            return Ok(0);
        }
        let wealth = if x_to_y { self.x_value_in_y(amount_in)? } else { amount_in };
        if wealth.is_zero() {
            return Ok(0);
        }
        let maximum =
            if self.max_punishment == MAX_FEE { Q24 } else { U256::from(self.max_punishment) };
        let desired = if wealth >= inventory {
            maximum
        } else {
            mul_div_rounding_up(maximum, wealth, inventory)?
        };
        Ok(if desired >= Q24 { MAX_FEE } else { u32::try_from(desired).unwrap_or(MAX_FEE) })
    }

    /// `_quote`: the net output, fee and raised fee; refusals as the swap reverts (its amount 0 is
    /// `SwapImpossible`; beyond the output reserve it is this crate's `InsufficientLiquidity`).
    pub fn price(&self, x_to_y: bool, amount_in: U256) -> Result<Priced, PoolError> {
        let stored = if x_to_y { self.fee_bid } else { self.fee_ask };
        let desired = self.punishment(x_to_y, amount_in)?;
        // `_saturatingFee`: both are at most 0xffffff, so the sum fits u32.
        let effective_fee = stored.saturating_add(desired).min(MAX_FEE);
        let impossible =
            |why: &str| PoolError::Refused(format!("SwapImpossible: {why} ({amount_in} in)"));
        let (gross, reserve_out) = if x_to_y {
            (self.x_value_in_y(amount_in)?, self.reserve_y)
        } else {
            if self.anchor.is_zero() {
                return Err(impossible("the anchor is 0"));
            }
            (mul_div(mul_div(amount_in, Q96, self.anchor)?, Q96, self.anchor)?, self.reserve_x)
        };
        if gross.is_zero() {
            return Err(impossible("the input is worth nothing at the anchor"));
        }
        if gross > reserve_out {
            return Err(PoolError::InsufficientLiquidity);
        }
        // `_applyFee`.
        if effective_fee == MAX_FEE {
            return Err(impossible("the fee is 100 %"));
        }
        let base = mul_div(gross, U256::from(effective_fee), Q24)?;
        let fee = if self.multiplier <= U256::from(1u8) || base.is_zero() {
            base
        } else {
            match self.multiplier.checked_mul(base) {
                Some(scaled) if scaled < gross => scaled,
                _ => return Err(impossible("the caller's multiplied fee takes the whole output")),
            }
        };
        Ok(Priced { out: sub(gross, fee)?, fee, effective_fee })
    }

    /// `swapExactIn` (no minimum: the router passes the leg's): what it pays and the pool after.
    fn swap(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(U256, Self), PoolError> {
        let x_to_y = two_token_direction(token_in, token_out)?;
        if self.paused {
            return Err(PoolError::Refused("EnforcedPause: the pool is paused".into()));
        }
        if !self.fresh() {
            return Err(PoolError::Refused(format!(
                "StalePrice: updated at block {}, fresh for {} blocks, not at block {}",
                self.latest_update_block, self.block_delay, self.block
            )));
        }
        let Priced { out, fee, effective_fee } = self.price(x_to_y, amount_in)?;
        let paid = add(out, fee)?;
        let mut next = self.clone();
        let (reserve_in, reserve_out) = if x_to_y {
            (&mut next.reserve_x, &mut next.reserve_y)
        } else {
            (&mut next.reserve_y, &mut next.reserve_x)
        };
        let grown = add(*reserve_in, amount_in)?;
        if grown > u112_max() {
            return Err(PoolError::Refused(format!(
                "SafeCastOverflowedUintDowncast: the input reserve would be {grown}, over uint112"
            )));
        }
        *reserve_in = grown;
        *reserve_out = sub(*reserve_out, paid)?;
        if x_to_y {
            next.fee_bid = effective_fee;
        } else {
            next.fee_ask = effective_fee;
        }
        Ok((out, next))
    }
}

impl CurveBounded for LunarbasePool {
    fn exact_swap(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(U256, Self), PoolError> {
        self.swap(token_in, token_out, amount_in)
    }

    fn first_rate(&self, token_in: usize, token_out: usize) -> Option<f64> {
        self.first_rate(token_in, token_out)
    }

    fn bound_curve(&self, token_in: usize, token_out: usize) -> Option<BoundCurve> {
        self.bound_curve(token_in, token_out)
    }
}

impl FromWire for LunarbasePool {
    type Wire = LunarbaseWire;

    /// Builds the pool from its wire state; refuses values beyond the contract's types (anchor
    /// uint160, fees uint24, reserves uint112, blocks uint48; the block the trade runs in, u64).
    fn from_wire(w: LunarbaseWire, _: &DexSpec) -> Result<Self, PoolInputError> {
        let fee = |v: &ReserveString, field: &str| small(v.0, u64::from(MAX_FEE), field);
        let u48 = (1u64 << 48) - 1;
        if w.anchor_price.0.bit_len() > 160 {
            return Err(PoolInputError::Invalid("LunarBase pool: anchorPrice is uint160".into()));
        }
        if w.reserve_x.0 > u112_max() || w.reserve_y.0 > u112_max() {
            return Err(PoolInputError::Invalid("LunarBase pool: reserves are uint112".into()));
        }
        // The fees are at most 0xffffff: they fit u32.
        let as_u32 = |v: u64| u32::try_from(v).unwrap_or(MAX_FEE);
        Ok(LunarbasePool {
            anchor: w.anchor_price.0,
            fee_ask: as_u32(fee(&w.fee_ask_x24, "feeAskX24")?),
            fee_bid: as_u32(fee(&w.fee_bid_x24, "feeBidX24")?),
            max_punishment: as_u32(fee(&w.max_punishment_x24, "maxPunishmentX24")?),
            reserve_x: w.reserve_x.0,
            reserve_y: w.reserve_y.0,
            multiplier: w.fee_multiplier.0,
            latest_update_block: small(w.latest_update_block.0, u48, "latestUpdateBlock")?,
            block_delay: small(w.block_delay.0, u48, "blockDelay")?,
            block: small(w.block.0, u64::MAX, "block")?,
            paused: w.paused,
        })
    }
}
