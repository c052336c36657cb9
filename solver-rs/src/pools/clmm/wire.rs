//! The `concentrated` wire state (see `docs/solver-wire-format.md`) and its validation: everything
//! the swap loops rely on is checked here, once, so that a quote can only fail for a reason the
//! contract would also fail for.

use super::dynamic_swap_fee::{DynamicFeeWire, DynamicSwapFee};
use super::pool_swap::ClState;
use super::protocol_fee_library::directional_protocol_fee_pips;
use super::swap_math::MAX_FEE_PIPS;
use super::tick_list::TickList;
use super::tick_math::{
    get_sqrt_ratio_at_tick, get_tick_at_sqrt_ratio, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO,
    MIN_TICK,
};
use crate::math::decimal::{parse_i128, u256_string};
use crate::math::U256;
use crate::pools::input::PoolInputError;
use crate::pools::registry::ClFlavor;
use serde::Deserialize;

/// Wire state of a concentrated-liquidity pool: slot0 / globalState, active liquidity, spacing,
/// fee, and every initialized tick as `[tick, liquidityNet]` in ascending order.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClWire {
    /// Q64.96 square-root price, decimal string.
    #[serde(with = "u256_string")]
    pub sqrt_price_x96: U256,
    /// The pool's current tick.
    pub tick: i64,
    /// Active liquidity (uint128), decimal string.
    #[serde(with = "u256_string")]
    pub liquidity: U256,
    pub tick_spacing: i64,
    /// V3 forks: the pool fee; singletons: the LP fee; Algebra: the total fee the plugin charges.
    pub fee_pips: i64,
    /// Singletons only: slot0's packed uint24, low 12 bits zeroForOne, high 12 bits oneForZero.
    #[serde(default)]
    pub protocol_fee: Option<i64>,
    /// V3-flavoured pools (Slipstream) whose fee comes from a dynamic swap-fee module: its
    /// parameters; `feePips` must then be the module's fee at `tick`.
    #[serde(default)]
    pub dynamic_fee: Option<DynamicFeeWire>,
    /// `[tick, liquidityNet]` with liquidityNet a signed decimal string.
    pub ticks: Vec<(i64, String)>,
}

/// A validated wire state, ready for the pool model.
#[derive(Clone, Debug)]
pub struct ValidState {
    pub state: ClState,
    pub tick_spacing: i32,
    pub fee_pips: u32,
    pub protocol_fee: u32,
    pub dynamic_fee: Option<DynamicSwapFee>,
    pub ticks: TickList,
}

fn invalid(why: String) -> PoolInputError {
    PoolInputError::Invalid(why)
}

/// Checks every field against the contracts' own bounds for `flavor`, naming the field on failure.
pub fn validate(wire: ClWire, flavor: ClFlavor) -> Result<ValidState, PoolInputError> {
    let sqrt_price_x96 = wire.sqrt_price_x96;
    if sqrt_price_x96 < MIN_SQRT_RATIO || sqrt_price_x96 >= MAX_SQRT_RATIO {
        return Err(invalid(format!(
            "sqrtPriceX96 {sqrt_price_x96} outside [MIN_SQRT_RATIO, MAX_SQRT_RATIO)"
        )));
    }
    let tick = validate_tick(wire.tick, sqrt_price_x96)?;
    let liquidity = u128::try_from(wire.liquidity)
        .map_err(|_| invalid(format!("liquidity {} exceeds uint128", wire.liquidity)))?;
    let tick_spacing = validate_spacing(wire.tick_spacing, flavor)?;
    let fee_pips = validate_fee(wire.fee_pips, flavor)?;
    let protocol_fee = validate_protocol_fee(wire.protocol_fee, flavor)?;
    let dynamic_fee = validate_dynamic_fee(wire.dynamic_fee, flavor, tick, fee_pips)?;
    // Algebra can change a pool's spacing after positions exist, and its swap never reads the
    // spacing: old ticks need not be multiples of the current one. V3 and V4 bitmaps require it.
    let require_multiples = !matches!(flavor, ClFlavor::AlgebraIntegral);
    let ticks = validate_ticks(wire.ticks, tick_spacing, require_multiples)?;
    check_liquidity_walk(&ticks, tick, liquidity)?;
    Ok(ValidState {
        state: ClState { sqrt_price_x96, tick, liquidity },
        tick_spacing,
        fee_pips,
        protocol_fee,
        dynamic_fee,
        ticks,
    })
}

/// The tick must be the one the pool would hold at this price: `getTickAtSqrtRatio(price)`, or one
/// less when a downward swap stopped exactly on a tick's price (the pool then sits below it).
fn validate_tick(tick: i64, sqrt_price_x96: U256) -> Result<i32, PoolInputError> {
    let price_tick = get_tick_at_sqrt_ratio(sqrt_price_x96)
        .map_err(|e| invalid(format!("sqrtPriceX96: {e}")))?;
    let on_boundary =
        get_sqrt_ratio_at_tick(price_tick).map(|p| p == sqrt_price_x96).unwrap_or(false);
    let consistent = tick == i64::from(price_tick)
        || (on_boundary && tick == i64::from(price_tick).saturating_sub(1));
    if !consistent || tick < i64::from(MIN_TICK) {
        return Err(invalid(format!(
            "tick {tick} is inconsistent with sqrtPriceX96 {sqrt_price_x96} (tick {price_tick})"
        )));
    }
    i32::try_from(tick).map_err(|_| invalid(format!("tick {tick} out of range")))
}

fn validate_spacing(tick_spacing: i64, flavor: ClFlavor) -> Result<i32, PoolInputError> {
    // V3 factories: 0 < spacing < 16384; V4 / Infinity: 1..=int16 max; Algebra: 1..=500.
    let max = match flavor {
        ClFlavor::UniswapV3 => 16_383,
        ClFlavor::Singleton { .. } => i64::from(i16::MAX),
        ClFlavor::AlgebraIntegral => 500,
    };
    if !(1..=max).contains(&tick_spacing) {
        return Err(invalid(format!("tickSpacing {tick_spacing} outside 1..={max}")));
    }
    i32::try_from(tick_spacing).map_err(|_| invalid(format!("tickSpacing {tick_spacing}")))
}

fn validate_fee(fee_pips: i64, flavor: ClFlavor) -> Result<u32, PoolInputError> {
    // V4's and Infinity's LP fee may be exactly 100% (MAX_LP_FEE = 1e6); V3 and Algebra stay below.
    let max = match flavor {
        ClFlavor::Singleton { .. } => i64::from(MAX_FEE_PIPS),
        ClFlavor::UniswapV3 | ClFlavor::AlgebraIntegral => {
            i64::from(MAX_FEE_PIPS).saturating_sub(1)
        }
    };
    if !(0..=max).contains(&fee_pips) {
        return Err(invalid(format!("feePips {fee_pips} outside 0..={max}")));
    }
    u32::try_from(fee_pips).map_err(|_| invalid(format!("feePips {fee_pips}")))
}

fn validate_protocol_fee(
    protocol_fee: Option<i64>,
    flavor: ClFlavor,
) -> Result<u32, PoolInputError> {
    let Some(packed) = protocol_fee else { return Ok(0) };
    let ClFlavor::Singleton { max_protocol_fee_pips } = flavor else {
        return Err(invalid(
            "protocolFee is only for singleton pools (UNIV4, PANCAKE_INFINITY_CL)".into(),
        ));
    };
    let packed = u32::try_from(packed)
        .ok()
        .filter(|p| *p <= 0xff_ffff)
        .ok_or_else(|| invalid(format!("protocolFee {packed} is not a uint24")))?;
    for zero_for_one in [true, false] {
        let fee = directional_protocol_fee_pips(packed, zero_for_one);
        if fee > max_protocol_fee_pips {
            return Err(invalid(format!(
                "protocolFee {packed}: {fee} pips exceeds the cap of {max_protocol_fee_pips}"
            )));
        }
    }
    Ok(packed)
}

/// A dynamic fee is a V3-flavour (Slipstream) setting, and the stated `feePips` is its fee at the
/// pool's tick: a fee module answering something else is not the module the formula describes.
fn validate_dynamic_fee(
    wire: Option<DynamicFeeWire>,
    flavor: ClFlavor,
    tick: i32,
    fee_pips: u32,
) -> Result<Option<DynamicSwapFee>, PoolInputError> {
    let Some(wire) = wire else { return Ok(None) };
    if flavor != ClFlavor::UniswapV3 {
        return Err(invalid("dynamicFee is only for Slipstream pools (AERODROME_CL)".into()));
    }
    let dynamic = DynamicSwapFee::from_wire(wire).map_err(invalid)?;
    let expected = dynamic.fee_pips(tick);
    if expected != fee_pips {
        return Err(invalid(format!(
            "feePips {fee_pips} differs from the dynamicFee formula's {expected} at tick {tick}"
        )));
    }
    Ok(Some(dynamic))
}

fn validate_ticks(
    entries: Vec<(i64, String)>,
    tick_spacing: i32,
    require_multiples: bool,
) -> Result<TickList, PoolInputError> {
    let mut parsed: Vec<(i32, i128)> = Vec::with_capacity(entries.len());
    for (tick, net_text) in entries {
        let net = parse_i128(&net_text)
            .map_err(|e| invalid(format!("ticks[{tick}] liquidityNet: {e}")))?;
        if !(i64::from(MIN_TICK)..=i64::from(MAX_TICK)).contains(&tick) {
            return Err(invalid(format!("ticks: tick {tick} outside [MIN_TICK, MAX_TICK]")));
        }
        let tick = i32::try_from(tick).map_err(|_| invalid(format!("ticks: tick {tick}")))?;
        // (Algebra's MIN_TICK / MAX_TICK sentinels, if sent, pass: Algebra skips this check.)
        // The spacing is validated positive, so the remainder has a divisor.
        if require_multiples && tick.checked_rem(tick_spacing).is_none_or(|r| r != 0) {
            return Err(invalid(format!(
                "ticks: tick {tick} is not a multiple of tickSpacing {tick_spacing}"
            )));
        }
        if net == i128::MIN {
            return Err(invalid(format!("ticks[{tick}] liquidityNet is int128 min")));
        }
        if let Some((last, _)) = parsed.last() {
            if *last >= tick {
                return Err(invalid(format!(
                    "ticks: {tick} follows {last}; ticks must be strictly ascending"
                )));
            }
        }
        parsed.push((tick, net));
    }
    TickList::from_sorted(parsed).map_err(|e| invalid(format!("ticks: {e}")))
}

/// Walking all ticks upward, liquidity never goes negative (nor past uint128), equals the stated
/// active liquidity at the pool's tick, and ends at zero (every position closes above its start).
fn check_liquidity_walk(
    ticks: &TickList,
    tick: i32,
    liquidity: u128,
) -> Result<(), PoolInputError> {
    let mut running: u128 = 0;
    let mut at_current: u128 = 0;
    for (t, net) in ticks.iter() {
        running = super::liquidity_math::add_delta(running, net).map_err(|_| {
            invalid(format!("ticks: liquidity leaves uint128 when crossing tick {t}"))
        })?;
        if t <= tick {
            at_current = running;
        }
    }
    if running != 0 {
        return Err(invalid(format!(
            "ticks: liquidityNet sums to {running}, not 0, over all ticks"
        )));
    }
    if at_current != liquidity {
        return Err(invalid(format!(
            "liquidity {liquidity} differs from the {at_current} the ticks imply at tick {tick}"
        )));
    }
    Ok(())
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
