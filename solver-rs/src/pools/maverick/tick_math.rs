//! Maverick V2's math within one tick, in the order and rounding of our stand-in
//! (`contracts/maverick/MaverickV2Math.sol`): the tick's square-root price and liquidity
//! (Maverick's open `v2-common`), the price inside the tick, and the exact-input swap of one tick
//! (the pool's `computeSwapExactIn` as the aggregators' ports state it). Amounts are on the AMM's
//! 18-decimal scale; square-root prices are D18, of token A per token B. Every step that reverts
//! on the chain (checked arithmetic, `mulDiv`'s zero denominator or 256-bit overflow) is an error.

use crate::math::checked::{add, mul, sub};
use crate::math::full_math::{mul_div, mul_div_rounding_up};
use crate::math::U256;
use crate::pools::PoolError;

pub const ONE: U256 = U256::from_limbs([1_000_000_000_000_000_000, 0, 0, 0]);
/// 10^36.
const ONE_SQUARED: U256 = U256::from_limbs([0xb34b_9f10_0000_0000, 0x00c0_97ce_7bc9_0715, 0, 0]);
/// The largest |tick · spacing| the tick math accepts.
pub const MAX_TICK: u64 = 460_540;
const ROOT_1E18: U256 = U256::from_limbs([1_000_000_000, 0, 0, 0]);

/// sqrt(1.0001)^-(2^k) as Q128 fractions, k = 1..18 (the odd bit starts the product).
const RATIOS: [u128; 18] = [
    0xfff9_7272_373d_41fd_789c_8cb3_7ffc_aa1c,
    0xfff2_e50f_5f65_6ac9_229c_6705_9486_f389,
    0xffe5_caca_7e10_e812_59b3_cddc_7a06_4941,
    0xffcb_9843_d60f_67b1_9e88_87e0_bd25_1eb7,
    0xff97_3b41_fa98_cd2e_57b6_60be_99eb_2c4a,
    0xff2e_a164_66c9_8388_04e3_27cb_417c_afcb,
    0xfe5d_ee04_6a99_d51e_2cc3_56c2_f617_dbe0,
    0xfcbe_86c7_900a_ecf6_4236_ab31_f1f9_dcb5,
    0xf987_a725_3ac4_d919_4200_6969_07cf_2e37,
    0xf339_2b08_22b8_8206_f8ab_e8a3_b44d_d9be,
    0xe715_9475_a2c5_78ef_4f1d_17b2_b235_d480,
    0xd097_f3bd_fd25_4ee8_3bdd_3f24_8e7e_785e,
    0xa9f7_4646_2d8f_7dd1_0e74_4d91_3d03_3333,
    0x70d8_69a1_56dd_d32a_39e2_57bc_3f50_aa9b,
    0x31be_135f_97da_6e09_a19d_c367_e3b6_da40,
    0x09aa_508b_5b7e_5a97_80b0_cc4e_25d6_1a56,
    0x005d_6af8_dedb_cb3a_6ccb_7ce6_18d1_4225,
    0x0000_2216_e584_f630_389b_2052_b8db_590e,
];
const ODD: u128 = 0xfffc_b933_bd6f_ad9d_3af5_f0b9_f25d_b4d6;

/// sqrt(1.0001^(tick · spacing)), D18 (`TickMath.tickSqrtPrice`); an error past the tick range.
/// Shifts are `wrapping_` where the contract shifts: every shift is by less than 256 bits, exact.
pub fn tick_sqrt_price(spacing: u32, tick: i32) -> Result<U256, PoolError> {
    let abs = u64::from(tick.unsigned_abs()).saturating_mul(u64::from(spacing));
    if abs > MAX_TICK {
        return Err(PoolError::InvalidState(format!("Maverick tick {tick} past the tick range")));
    }
    let mut ratio = if abs & 1 != 0 { U256::from(ODD) } else { U256::from(1u8).wrapping_shl(128) };
    for (k, factor) in RATIOS.iter().enumerate() {
        if abs.checked_shr(u32::try_from(k).unwrap_or(u32::MAX).saturating_add(1)).unwrap_or(0) & 1
            != 0
        {
            // Both factors are below 2^129 and 2^128: the product fits 256 bits, as the
            // contract's `unchecked` block relies on.
            ratio = ratio.wrapping_mul(U256::from(*factor)).wrapping_shr(128);
        }
    }
    if tick > 0 {
        ratio = U256::MAX.checked_div(ratio).ok_or(PoolError::DivisionByZero)?;
    }
    // `(ratio * ONE) >> 128` in the contract's `unchecked` block: ratio < 2^163 at the range's end.
    Ok(ratio.wrapping_mul(ONE).wrapping_shr(128))
}

pub fn mul_down(x: U256, y: U256) -> Result<U256, PoolError> {
    mul_div(x, y, ONE)
}

pub fn div_down(x: U256, y: U256) -> Result<U256, PoolError> {
    mul_div(x, ONE, y)
}

pub fn div_up(x: U256, y: U256) -> Result<U256, PoolError> {
    mul_div_rounding_up(x, ONE, y)
}

fn inv_floor(x: U256) -> Result<U256, PoolError> {
    ONE_SQUARED.checked_div(x).ok_or(PoolError::DivisionByZero)
}

fn inv_ceil(x: U256) -> Result<U256, PoolError> {
    let q = (ONE_SQUARED.saturating_sub(U256::from(1u8))).checked_div(x);
    add(q.ok_or(PoolError::DivisionByZero)?, U256::from(1u8))
}

pub fn clip(x: U256, y: U256) -> U256 {
    x.saturating_sub(y)
}

/// The floor of the square root, as Maverick's `Math.sqrt`.
fn sqrt(x: U256) -> U256 {
    x.root(2)
}

/// `getTickL`: the tick's liquidity from its reserves (a lower bound: the 1e18 factor outside the
/// root), reserves under 2^78 bumped by 2^57 for precision.
pub fn tick_liquidity(
    reserve_a: U256,
    reserve_b: U256,
    lower: U256,
    upper: U256,
) -> Result<U256, PoolError> {
    let diff = sub(upper, lower)?;
    let small = reserve_a.wrapping_shr(78).is_zero() && reserve_b.wrapping_shr(78).is_zero();
    let bump: usize = if small { 57 } else { 0 };
    // Under 2^78, shifted by 57: under 2^135, no bit lost.
    let (a, b) = (reserve_a.wrapping_shl(bump), reserve_b.wrapping_shl(bump));
    if b.is_zero() {
        return Ok(div_down(a, diff)?.wrapping_shr(bump));
    }
    if a.is_zero() {
        return Ok(mul_div(mul_down(b, lower)?, upper, diff)?.wrapping_shr(bump));
    }
    let half = add(div_down(a, upper)?, mul_down(b, lower)?)?.wrapping_shr(1);
    let inner = add(mul_div(half, half, ONE)?, mul_div(mul_down(b, a)?, diff, upper)?)?;
    let root = mul(sqrt(inner), ROOT_1E18)?;
    Ok(mul_div(add(half, root)?, upper, diff)?.wrapping_shr(bump))
}

/// `getSqrtPrice`: the price inside the tick from its reserves, held to the tick's edges.
pub fn price_in_tick(
    reserve_a: U256,
    reserve_b: U256,
    lower: U256,
    upper: U256,
    liquidity: U256,
) -> Result<U256, PoolError> {
    if reserve_a.is_zero() {
        return Ok(lower);
    }
    if reserve_b.is_zero() {
        return Ok(upper);
    }
    let ratio = div_down(
        add(reserve_a, mul_down(liquidity, lower)?)?,
        add(reserve_b, div_down(liquidity, upper)?)?,
    )?;
    Ok(sqrt(mul(ONE, ratio)?).clamp(lower, upper))
}

/// `remainingBinInputSpaceGivenOutput`: the input net of fee that takes `output` out of the tick.
fn input_for_output(
    liquidity: U256,
    output: U256,
    price: U256,
    token_a_in: bool,
) -> Result<U256, PoolError> {
    let out_over_l = if liquidity.is_zero() { U256::ZERO } else { div_up(output, liquidity)? };
    if token_a_in {
        return mul_div_rounding_up(output, price, sub(inv_floor(price)?, out_over_l)?);
    }
    div_up(output, mul_down(price, sub(price, out_over_l)?)?)
}

/// One tick's exact-input swap: what the user pays into it (fee included), what the tick keeps
/// (less the protocol's share of the fee), what it pays out, and the input left for the next tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TickSwap {
    pub spent: U256,
    pub kept: U256,
    pub out: U256,
    pub excess: U256,
}

/// The tick's parameters for one swap: its price, liquidity and reserves, the direction's fee
/// (D18) and the protocol's share of it (thousandths).
pub struct TickQuote {
    pub price: U256,
    pub liquidity: U256,
    pub reserve_a: U256,
    pub reserve_b: U256,
    pub fee: U256,
    pub ratio_d3: U256,
}

/// `computeSwapExactIn` with `amountToBinNetOfProtocolFee`: either all of `amount` fits (no excess,
/// the output from the tick's curve, never above its reserve) or the tick's whole output reserve
/// goes and the rest is excess.
pub fn swap_tick(q: &TickQuote, amount: U256, token_a_in: bool) -> Result<TickSwap, PoolError> {
    let available = if token_a_in { q.reserve_b } else { q.reserve_a };
    let room = input_for_output(q.liquidity, available, q.price, token_a_in)?;
    let keep = sub(ONE, q.fee)?;
    let net = mul_down(amount, keep)?;
    let (spent, fee_basis, excess, bin_in) = if net < room {
        (amount, sub(amount, net)?, U256::ZERO, net)
    } else {
        let fee_basis = mul_div_rounding_up(room, q.fee, keep)?;
        let spent = add(room, fee_basis)?;
        (spent, fee_basis, clip(amount, spent), room)
    };
    let kept = if q.ratio_d3.is_zero() {
        spent
    } else {
        clip(spent, mul_div_rounding_up(fee_basis, q.ratio_d3, U256::from(1000u16))?)
    };
    if !excess.is_zero() {
        return Ok(TickSwap { spent, kept, out: available, excess });
    }
    let in_over_l = div_up(bin_in, add(q.liquidity, U256::from(1u8))?)?;
    let curve = if token_a_in {
        mul_div(bin_in, inv_floor(q.price)?, add(in_over_l, q.price)?)?
    } else {
        mul_div(bin_in, q.price, add(in_over_l, inv_ceil(q.price)?)?)?
    };
    Ok(TickSwap { spent, kept, out: available.min(curve), excess })
}
