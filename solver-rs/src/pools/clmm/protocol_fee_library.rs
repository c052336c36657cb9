//! `ProtocolFeeLibrary` of the singleton pool managers (Uniswap V4, Pancake Infinity): the packed
//! per-direction protocol fee and its composition with the LP fee into one swap fee.

/// The protocol fee of one direction from the packed uint24: low 12 bits for zeroForOne, high 12
/// bits for oneForZero, in pips.
pub fn directional_protocol_fee_pips(packed_protocol_fee: u32, zero_for_one: bool) -> u32 {
    if zero_for_one {
        packed_protocol_fee & 0xfff
    } else {
        (packed_protocol_fee >> 12) & 0xfff
    }
}

/// The swap fee in pips: the LP fee alone when the protocol fee is 0, else
/// `p + l − floor(p·l / 1e6)` (protocol fee taken first, LP fee from what is left). The floor
/// makes the composed fee round *up*, as `calculateSwapFee` does. Both inputs are small (p < 2^12,
/// l ≤ 1e6), so nothing overflows.
pub fn calculate_swap_fee_pips(protocol_fee_pips: u32, lp_fee_pips: u32) -> u32 {
    if protocol_fee_pips == 0 {
        return lp_fee_pips;
    }
    let (p, l) = (u64::from(protocol_fee_pips & 0xfff), u64::from(lp_fee_pips & 0xff_ffff));
    // p < 2^12 < 1e6, so p·l/1e6 < l: the subtraction cannot underflow.
    // The result is at most p + l < 2^25: it fits a u32.
    u32::try_from(p.saturating_add(l).saturating_sub(p.saturating_mul(l) / 1_000_000))
        .unwrap_or(u32::MAX)
}

#[cfg(test)]
#[path = "protocol_fee_library_tests.rs"]
mod tests;
