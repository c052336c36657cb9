//! Slipstream's swap fee when the factory's swap-fee module is the `DynamicSwapFeeModule`
//! (aerodrome-finance/slipstream `contracts/core/fees/DynamicSwapFeeModule.sol`, its README's
//! formula) and the factory's `getSwapFee` around it: fee = min(base + K·|tick − twapTick| / 1e6,
//! cap), taken when at most 100,000 pips, else the tick spacing's fee.
//!
//! Why the pool carries the formula and not one fee: a swap reads `fee()` once, before its loop, on
//! the pool's state at that moment. The time-weighted tick is the same for every swap of one block
//! (the oracle's first write in a block records the cumulative up to that block's time at the tick
//! before the swap, so `observe` answers the same for the block's later swaps), but the current
//! tick is not: a second swap through the pool in the same transaction (a split plan's second
//! route) pays the fee of the tick the first one left. So the fee is a function of the tick.

use super::tick_math::{MAX_TICK, MIN_TICK};
use crate::math::decimal::u256_string;
use crate::math::U256;
use serde::Deserialize;

/// A module base fee meaning 0 % (a base of 0 means "none set": the spacing's fee).
pub const ZERO_FEE_INDICATOR: u32 = 420;
/// The factory takes the module's answer only up to this many pips (10 %).
pub const MAX_MODULE_FEE_PIPS: u32 = 100_000;
/// K's unit: the dynamic fee is |tick − twapTick| · K / 1e6 pips.
const SCALING_PRECISION: u64 = 1_000_000;
/// The module's MAX_SCALING_FACTOR.
const MAX_SCALING_FACTOR: u64 = 1_000_000_000_000_000_000;

/// Wire form (`dynamicFee` of a `concentrated` AERODROME_CL state): the module's parameters as the
/// pool sees them in the block the quote executes in.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DynamicFeeWire {
    /// The module's `dynamicFeeConfig(pool).baseFee`: 0 none (the spacing's fee), 420 zero.
    pub base_fee_pips: u32,
    /// The factory's `tickSpacingToFee(spacing)`: the base when none is set, and the factory's fallback.
    pub spacing_fee_pips: u32,
    /// The effective K (the pool's, or the module's default when the pool has none), decimal string.
    #[serde(with = "u256_string")]
    pub scaling_factor: U256,
    /// The effective cap in pips (the pool's, or the default with the default K).
    pub fee_cap_pips: u32,
    /// The time-weighted tick over the module's `secondsAgo` for the block the quote executes in;
    /// `null` when the dynamic part is off (too few observations, or history too short).
    pub twap_tick: Option<i64>,
}

/// The validated parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DynamicSwapFee {
    pub base_fee_pips: u32,
    pub spacing_fee_pips: u32,
    pub scaling_factor: u64,
    pub fee_cap_pips: u32,
    pub twap_tick: Option<i32>,
}

impl DynamicSwapFee {
    /// Checks each field against the module's and factory's own bounds, naming it on failure.
    pub fn from_wire(wire: DynamicFeeWire) -> Result<Self, String> {
        let scaling_factor = u64::try_from(wire.scaling_factor)
            .ok()
            .filter(|k| *k <= MAX_SCALING_FACTOR)
            .ok_or_else(|| {
                format!(
                    "dynamicFee.scalingFactor {} exceeds the module's 1e18",
                    wire.scaling_factor
                )
            })?;
        if wire.spacing_fee_pips == 0 || wire.spacing_fee_pips > MAX_MODULE_FEE_PIPS {
            return Err(format!(
                "dynamicFee.spacingFeePips {} outside 1..=100000",
                wire.spacing_fee_pips
            ));
        }
        if wire.base_fee_pips > 1_000_000 || wire.fee_cap_pips > 1_000_000 {
            return Err(format!(
                "dynamicFee: baseFeePips {} / feeCapPips {} above 100 %",
                wire.base_fee_pips, wire.fee_cap_pips
            ));
        }
        let twap_tick = match wire.twap_tick {
            None => None,
            Some(t) if (i64::from(MIN_TICK)..=i64::from(MAX_TICK)).contains(&t) => {
                Some(i32::try_from(t).map_err(|_| format!("dynamicFee.twapTick {t}"))?)
            }
            Some(t) => return Err(format!("dynamicFee.twapTick {t} outside [MIN_TICK, MAX_TICK]")),
        };
        Ok(DynamicSwapFee {
            base_fee_pips: wire.base_fee_pips,
            spacing_fee_pips: wire.spacing_fee_pips,
            scaling_factor,
            fee_cap_pips: wire.fee_cap_pips,
            twap_tick,
        })
    }

    /// The fee a swap starting at `tick` pays, in pips: the module's answer (base plus
    /// K·|tick − twapTick| / 1e6, floored, then capped), or the spacing's fee when the answer is
    /// above the factory's 100,000.
    pub fn fee_pips(&self, tick: i32) -> u32 {
        let answer = self.module_fee_pips(tick);
        match u32::try_from(answer) {
            Ok(answer) if answer <= MAX_MODULE_FEE_PIPS => answer,
            _ => self.spacing_fee_pips,
        }
    }

    fn module_fee_pips(&self, tick: i32) -> u64 {
        if self.base_fee_pips == ZERO_FEE_INDICATOR {
            return 0;
        }
        let base = if self.base_fee_pips != 0 { self.base_fee_pips } else { self.spacing_fee_pips };
        // |Δtick| < 2^21 and K ≤ 1e18 < 2^60: the product fits u128.
        let dynamic = self.twap_tick.map_or(0, |twap| {
            let distance = u128::from(i64::from(tick).abs_diff(i64::from(twap)));
            // SCALING_PRECISION is not zero: the division always has a quotient.
            let scaled = distance
                .saturating_mul(u128::from(self.scaling_factor))
                .checked_div(u128::from(SCALING_PRECISION))
                .unwrap_or(u128::MAX);
            // Below 2^21 · 2^60 / 1e6 < 2^62: fits a u64 (saturating past it would only cap).
            u64::try_from(scaled).unwrap_or(u64::MAX)
        });
        // The cap applies to the sum, even a cap of 0.
        u64::from(base).saturating_add(dynamic).min(u64::from(self.fee_cap_pips))
    }
}

#[cfg(test)]
#[path = "dynamic_swap_fee_tests.rs"]
mod tests;
