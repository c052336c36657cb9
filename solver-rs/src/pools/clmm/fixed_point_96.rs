//! `FixedPoint96`: the Q64.96 scale of square-root prices, and products scaled down by it. The
//! contracts' `mulDiv(L, Δ√P, Q96)` (SqrtPriceMath's token1 amounts) divides by a power of two,
//! so here it is a shift of a 384-bit product instead of `mul_div`'s 512-bit product and its long
//! division by a two-limb divisor.

use crate::math::U256;
use crate::pools::PoolError;
use ruint::Uint;

/// Q96 = 2^96, the scale of a Q64.96 square-root price.
pub const Q96: U256 = U256::from_limbs([0, 1 << 32, 0, 0]);

/// (⌊a·b / 2^96⌋, whether a remainder was dropped): `mulDiv(a, b, Q96)` and, with the flag, its
/// rounding up. Errors (`Overflow`) when the quotient exceeds 256 bits, where `mulDiv` reverts.
pub fn mul_shr_96(a: U256, b: u128) -> Result<(U256, bool), PoolError> {
    let product: Uint<384, 6> = a.widening_mul(Uint::<128, 2>::from(b));
    let p = product.as_limbs();
    // Bits 96..384 of the product: the quotient fits 256 bits when bits 352..384 are clear.
    if p[5] >> 32 != 0 {
        return Err(PoolError::Overflow);
    }
    let quotient = U256::from_limbs([
        p[1] >> 32 | p[2] << 32,
        p[2] >> 32 | p[3] << 32,
        p[3] >> 32 | p[4] << 32,
        p[4] >> 32 | p[5] << 32,
    ]);
    let inexact = p[0] != 0 || p[1] & u64::from(u32::MAX) != 0;
    Ok((quotient, inexact))
}

#[cfg(test)]
#[path = "fixed_point_96_tests.rs"]
mod tests;
